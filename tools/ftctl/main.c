// SPDX-License-Identifier: GPL-2.0
/*
 * ftctl: configure and inspect fattree fabrics, in the manner of ip(8) and
 * devlink(8).
 *
 * The whole command line is parsed and validated before netlink is opened:
 * a bad command line is exit 2 whether the module is loaded or not, and a
 * missing module is exit 3 only for a well-formed command.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ftctl.h"

static const struct ftctl_cmd *const ftctl_cmds[] = {
	&ftctl_cmd_info,
	&ftctl_cmd_fabric,
	&ftctl_cmd_link,
	&ftctl_cmd_leaf,
	&ftctl_cmd_circuit,
	&ftctl_cmd_demand,
	&ftctl_cmd_switch,
	&ftctl_cmd_monitor,
};

#define FTCTL_N_CMDS FTCTL_ARRAY_SIZE(ftctl_cmds)

static void usage(FILE *f)
{
	const struct ftctl_object *obj;
	char line[128];
	size_t i, j;

	fprintf(f,
		"usage: ftctl [--json] [-n NETNS] OBJECT [COMMAND [ARGS]]\n"
		"       ftctl [--json] [-n NETNS] -batch FILE [-force]\n"
		"Configure and inspect fattree fabrics.\n\n"
		"Options (also accepted after the command):\n"
		"  -j, --json     machine-readable output (JSON)\n"
		"  -n, --netns NETNS  in the network namespace NETNS (ip netns), as ip -n;\n"
		"                 before OBJECT only\n"
		"  -b, --batch FILE  the commands of FILE (- for standard input), one per\n"
		"                 line, as ip -batch: all checked before any runs; the\n"
		"                 first that fails stops the rest, unless --force\n"
		"  -f, --force    with --batch: run every line, fail at the end\n"
		"  -h, --help     this text\n"
		"  -V, --version  the version of ftctl\n\n"
		"Commands:\n");
	for (i = 0; i < FTCTL_N_CMDS; i++) {
		obj = ftctl_cmds[i]->obj;
		if (!obj) {
			snprintf(line, sizeof(line), "%s %s", ftctl_cmds[i]->name,
				 ftctl_cmds[i]->args);
			if (strlen(line) >= 40)
				fprintf(f, "  ftctl %s\n  %-46s %s\n", line, "",
					ftctl_cmds[i]->help);
			else
				fprintf(f, "  ftctl %-40s %s\n", line, ftctl_cmds[i]->help);
			continue;
		}
		for (j = 0; j < obj->n_subs; j++) {
			snprintf(line, sizeof(line), "%s %s %s", obj->name,
				 obj->subs[j].name, obj->subs[j].usage);
			if (strlen(line) >= 40)
				fprintf(f, "  ftctl %s\n  %-46s %s\n", line, "",
					obj->subs[j].help);
			else
				fprintf(f, "  ftctl %-40s %s\n", line,
					obj->subs[j].help);
		}
	}
	fprintf(f,
		"\n'ftctl OBJECT help' and 'ftctl OBJECT COMMAND help' tell more.\n"
		"Object and command names may be abbreviated (ftctl fa sh).\n"
		"\nExit status: 0 success, 1 the kernel refused or the request failed,\n"
		"2 bad command line, 3 the fattree module is not loaded.\n");
}

/* --- objects with subcommands --- */

static const struct ftctl_subcmd *ftctl_chosen;

static void object_help(const struct ftctl_object *obj, FILE *f)
{
	unsigned int i;

	fprintf(f, "usage: ftctl [--json] %s COMMAND [ARGS]\n%s\n\nCommands:\n",
		obj->name, obj->help);
	for (i = 0; i < obj->n_subs; i++)
		fprintf(f, "  ftctl %s %s %s\n      %s\n", obj->name,
			obj->subs[i].name, obj->subs[i].usage, obj->subs[i].help);
	fprintf(f, "\nWithout a command: %s. 'ftctl %s COMMAND help' tells more.\n",
		obj->dflt, obj->name);
}

static void sub_help(const struct ftctl_object *obj,
		     const struct ftctl_subcmd *sub, FILE *f)
{
	fprintf(f, "usage: ftctl [--json] %s %s %s\n%c%s.\n", obj->name,
		sub->name, sub->usage, toupper((unsigned char)sub->help[0]),
		sub->help + 1);
	if (sub->long_help) {
		fputc('\n', f);
		sub->long_help(f);
	}
}

int ftctl_object_parse(const struct ftctl_object *obj, struct ftctl *ctl,
		       int argc, char **argv)
{
	const char *names[16];
	char choices[160];
	size_t off = 0;
	const char *word;
	unsigned int i;
	char *dflt[1];
	int k;

	for (i = 0; i < obj->n_subs && i < 16; i++)
		names[i] = obj->subs[i].name;
	if (argc < 2) {
		dflt[0] = (char *)obj->dflt;
		argc = 1;
		argv = dflt;
		k = ftctl_match(obj->dflt, names, i);
	} else {
		word = argv[1];
		if (ftctl_is_help(word)) {
			object_help(obj, stdout);
			return FTCTL_PARSE_HELP;
		}
		k = ftctl_match(word, names, i);
		if (k < 0) {
			choices[0] = '\0';
			for (i = 0; i < obj->n_subs; i++)
				off += (size_t)snprintf(choices + off,
							sizeof(choices) - off, "%s%s",
							i ? ", " : "", names[i]);
			return ftctl_usage_err(obj->name, "%s command '%s' (expected %s)",
					       k == -2 ? "ambiguous" : "unknown",
					       word, choices);
		}
		argc--;
		argv++;
	}
	ftctl_chosen = &obj->subs[k];
	/* "ftctl fabric add help", or --help anywhere */
	for (i = 1; i < (unsigned int)argc; i++) {
		if ((i == 1 && !strcmp(argv[i], "help")) ||
		    !strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			sub_help(obj, ftctl_chosen, stdout);
			return FTCTL_PARSE_HELP;
		}
	}
	return ftctl_chosen->parse(ctl, argc, argv);
}

int ftctl_object_run(struct ftctl *ctl)
{
	return ftctl_chosen->run(ctl);
}

/* Take -j/--json from anywhere after the command; returns the new argc. */
static int strip_global_opts(struct ftctl *ctl, int argc, char **argv, int from)
{
	int i, o = from;

	for (i = from; i < argc; i++) {
		if (!strcmp(argv[i], "-j") || !strcmp(argv[i], "--json")) {
			ctl->json = true;
			continue;
		}
		argv[o++] = argv[i];
	}
	argv[o] = NULL;
	return o;
}

/*
 * -n NETNS: work in the network namespace ip-netns(8) calls NETNS, as
 * ip -n does: fabrics live per namespace.
 */
static int enter_netns(const char *name)
{
	char path[PATH_MAX];
	int fd;

	if (!*name || strchr(name, '/') ||
	    snprintf(path, sizeof(path), "/run/netns/%s", name) >= (int)sizeof(path)) {
		fprintf(stderr, "ftctl: -n '%s': not a namespace name\n", name);
		return FTCTL_EXIT_USAGE;
	}
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		fprintf(stderr, "ftctl: -n %s: %s (see ip netns list)\n", name, strerror(errno));
		return FTCTL_EXIT_FAIL;
	}
	if (setns(fd, CLONE_NEWNET)) {
		fprintf(stderr, "ftctl: -n %s: cannot enter it: %s\n", name, strerror(errno));
		close(fd);
		return FTCTL_EXIT_FAIL;
	}
	close(fd);
	return 0;
}

/*
 * One command line from the object on (argv[0] is the object): checked
 * whole, then, unless @parse_only, run in NETNS (when set) over a fresh
 * netlink socket. Returns the exit status.
 */
static int ftctl_one(struct ftctl *ctl, int argc, char **argv, const char *netns,
		     bool parse_only)
{
	const char *names[FTCTL_N_CMDS];
	const struct ftctl_cmd *cmd;
	size_t i;
	int k, err, rc;

	if (!strcmp(argv[0], "help")) {
		static char help[] = "help";

		if (argc == 1) {
			usage(stdout);
			return FTCTL_EXIT_OK;
		}
		/* ftctl help OBJECT [COMMAND]: as ftctl OBJECT [COMMAND] help. */
		memmove(&argv[0], &argv[1], (size_t)(argc - 1) * sizeof(*argv));
		argv[argc - 1] = help;
	}
	for (i = 0; i < FTCTL_N_CMDS; i++)
		names[i] = ftctl_cmds[i]->name;
	k = ftctl_match(argv[0], names, FTCTL_N_CMDS);
	if (k < 0) {
		fprintf(stderr, "ftctl: %s command '%s' (see ftctl --help)\n",
			k == -2 ? "ambiguous" : "unknown", argv[0]);
		return FTCTL_EXIT_USAGE;
	}
	cmd = ftctl_cmds[k];
	argc = strip_global_opts(ctl, argc, argv, 1);

	if (cmd->obj)
		rc = ftctl_object_parse(cmd->obj, ctl, argc, argv);
	else
		rc = cmd->parse(ctl, argc, argv);
	if (rc == FTCTL_PARSE_HELP)
		return FTCTL_EXIT_OK;
	if (rc || parse_only)
		return rc;

	if (netns) {
		rc = enter_netns(netns);
		if (rc)
			return rc;
	}
	err = ftnl_open(&ctl->nl);
	if (err == -ENOENT) {
		fprintf(stderr, "ftctl: the fattree module is not loaded (no netlink family '%s')\n",
			"fattree");
		return FTCTL_EXIT_NOMOD;
	}
	if (err) {
		fprintf(stderr, "ftctl: cannot open generic netlink: %s\n", strerror(-err));
		return FTCTL_EXIT_FAIL;
	}
	ftctl_tune_socket(ctl);
	rc = cmd->obj ? ftctl_object_run(ctl) : cmd->run(ctl);
	ftnl_close(&ctl->nl);
	return rc;
}

#define FTCTL_BATCH_WORDS	256

/*
 * Split @line into words, as a shell would for plain words: blanks
 * separate, '...' and "..." quote, a word starting with # ends the line.
 * Returns the count, or -1 for an unclosed quote or too many words.
 */
static int split_words(char *line, char **w)
{
	char *p = line, *o;
	int n = 0;
	char q;

	for (;;) {
		while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
			p++;
		if (!*p || *p == '#')
			return n;
		if (n == FTCTL_BATCH_WORDS - 1)
			return -1;
		w[n++] = o = p;
		while (*p && *p != ' ' && *p != '\t' && *p != '\n' && *p != '\r') {
			if (*p == '\'' || *p == '"') {
				q = *p++;
				while (*p && *p != q)
					*o++ = *p++;
				if (!*p)
					return -1;
				p++;
				continue;
			}
			*o++ = *p++;
		}
		if (*p)
			p++;
		*o = '\0';
	}
}

/*
 * Run one batch line in a child, so each command starts from a clean
 * slate; the child splits its own copy of the line.
 */
static int batch_line(struct ftctl *ctl, char *line, bool parse_only)
{
	char *w[FTCTL_BATCH_WORDS];
	int n, status;
	pid_t pid;

	/* Blank lines and comments need no child. */
	line += strspn(line, " \t\r\n");
	if (!*line || *line == '#')
		return 0;
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		fprintf(stderr, "ftctl: fork: %s\n", strerror(errno));
		return FTCTL_EXIT_FAIL;
	}
	if (!pid) {
		n = split_words(line, w);
		if (n < 0) {
			fprintf(stderr, "ftctl: an unclosed quote, or more than %d words\n",
				FTCTL_BATCH_WORDS - 1);
			_exit(FTCTL_EXIT_USAGE);
		}
		w[n] = NULL;
		n = ftctl_one(ctl, n, w, NULL, parse_only);
		fflush(NULL);
		_exit(n);
	}
	if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status))
		return FTCTL_EXIT_FAIL;
	return WEXITSTATUS(status);
}

/*
 * The lines of @f, all read (standard input can be read only once);
 * false when memory ran out (the lines read so far are in *@lines).
 */
static bool read_lines(FILE *f, char ***lines, size_t *n)
{
	char **more, *line = NULL;
	size_t cap = 0, len = 0;

	*lines = NULL;
	*n = 0;
	while (getline(&line, &cap, f) >= 0) {
		if (*n == len) {
			len = len ? 2 * len : 64;
			more = realloc(*lines, len * sizeof(**lines));
			if (!more) {
				free(line);
				return false;
			}
			*lines = more;
		}
		(*lines)[(*n)++] = line;
		line = NULL;
		cap = 0;
	}
	free(line);
	return true;
}

/*
 * -batch FILE (- for standard input): one command per line, as ip -batch.
 * Every line is checked first and nothing runs if one is malformed; then
 * they run in order, stopping at the first that fails unless -force.
 * The exit status is the first failure's.
 */
static int ftctl_batch(struct ftctl *ctl, const char *file, const char *netns, bool force)
{
	FILE *f = strcmp(file, "-") ? fopen(file, "r") : stdin;
	int pass, rc, first = 0;
	char **lines;
	size_t i, n;

	if (!f) {
		fprintf(stderr, "ftctl: -batch %s: %s\n", file, strerror(errno));
		return FTCTL_EXIT_FAIL;
	}
	if (!read_lines(f, &lines, &n)) {
		fprintf(stderr, "ftctl: -batch %s: out of memory\n", file);
		first = FTCTL_EXIT_FAIL;
	}
	if (f != stdin)
		fclose(f);
	if (netns && !first)
		first = enter_netns(netns);
	for (pass = 0; pass < 2 && !first; pass++) {
		for (i = 0; i < n; i++) {
			rc = batch_line(ctl, lines[i], pass == 0);
			if (!rc)
				continue;
			fprintf(stderr, "ftctl: %s:%zu: %s\n", file, i + 1,
				pass ? "command failed" : "bad command line");
			if (!first)
				first = rc;
			if (pass && !force)
				break;
		}
	}
	for (i = 0; i < n; i++)
		free(lines[i]);
	free(lines);
	return first;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ "netns", required_argument, NULL, 'n' },
		{ "batch", required_argument, NULL, 'b' },
		{ "force", no_argument, NULL, 'f' },
		{ NULL, 0, NULL, 0 },
	};
	const char *netns = NULL, *batch = NULL;
	struct ftctl ctl = { 0 };
	bool force = false;
	int c, i;

	/* iproute2's spellings, -batch and -force, among the options. */
	for (i = 1; i < argc && argv[i][0] == '-'; i++) {
		if (!strcmp(argv[i], "-batch"))
			argv[i] = "--batch";
		else if (!strcmp(argv[i], "-force"))
			argv[i] = "--force";
		/* Skip an option's value. */
		if (!strcmp(argv[i], "--batch") || !strcmp(argv[i], "-b") ||
		    !strcmp(argv[i], "--netns") || !strcmp(argv[i], "-n"))
			i++;
	}
	/* getopt names the program by argv[0]: "ftctl", not its path. */
	if (argc > 0)
		argv[0] = "ftctl";
	while ((c = getopt_long(argc, argv, "+jhVn:b:", opts, NULL)) != -1) {
		switch (c) {
		case 'j':
			ctl.json = true;
			break;
		case 'n':
			netns = optarg;
			break;
		case 'b':
			batch = optarg;
			break;
		case 'f':
			force = true;
			break;
		case 'h':
			usage(stdout);
			return FTCTL_EXIT_OK;
		case 'V':
			printf("ftctl %s\n", FT_VERSION);
			return FTCTL_EXIT_OK;
		default:
			fprintf(stderr, "Try 'ftctl --help'.\n");
			return FTCTL_EXIT_USAGE;
		}
	}
	if (batch) {
		if (optind < argc) {
			fprintf(stderr, "ftctl: -batch takes its commands from the file, not '%s'\n",
				argv[optind]);
			return FTCTL_EXIT_USAGE;
		}
		return ftctl_batch(&ctl, batch, netns, force);
	}
	if (force) {
		fprintf(stderr, "ftctl: -force goes with -batch\n");
		return FTCTL_EXIT_USAGE;
	}
	if (optind >= argc) {
		usage(stderr);
		return FTCTL_EXIT_USAGE;
	}
	return ftctl_one(&ctl, argc - optind, argv + optind, netns, false);
}
