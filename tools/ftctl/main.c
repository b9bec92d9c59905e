// SPDX-License-Identifier: GPL-2.0
/*
 * ftctl: configure and inspect fattree fabrics, in the manner of ip(8) and
 * devlink(8).
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "ftctl.h"

static const struct ftctl_cmd *const ftctl_cmds[] = {
	&ftctl_cmd_info,
};

#define FTCTL_N_CMDS (sizeof(ftctl_cmds) / sizeof(ftctl_cmds[0]))

static void usage(FILE *f)
{
	size_t i;

	fprintf(f,
		"usage: ftctl [--json] <command> [args]\n"
		"Configure and inspect fattree fabrics.\n\n"
		"Options:\n"
		"  -j, --json     machine-readable output\n"
		"  -h, --help     this text\n"
		"  -V, --version  the version of ftctl\n\n"
		"Commands:\n");
	for (i = 0; i < FTCTL_N_CMDS; i++)
		fprintf(f, "  %-8s %-20s %s\n", ftctl_cmds[i]->name,
			ftctl_cmds[i]->args, ftctl_cmds[i]->help);
	fprintf(f,
		"\nExit status: 0 success, 1 the kernel refused or the request failed,\n"
		"2 bad command line, 3 the fattree module is not loaded.\n");
}

int ftctl_fail(const struct ftctl *ctl, const char *what, int err)
{
	fprintf(stderr, "ftctl: %s: %s\n", what, ftnl_strerror(&ctl->nl, err));
	return FTCTL_EXIT_FAIL;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	struct ftctl ctl = { 0 };
	const struct ftctl_cmd *cmd = NULL;
	size_t i;
	int c, err, rc;

	while ((c = getopt_long(argc, argv, "+jhV", opts, NULL)) != -1) {
		switch (c) {
		case 'j':
			ctl.json = true;
			break;
		case 'h':
			usage(stdout);
			return FTCTL_EXIT_OK;
		case 'V':
			printf("ftctl %s\n", FTCTL_VERSION);
			return FTCTL_EXIT_OK;
		default:
			usage(stderr);
			return FTCTL_EXIT_USAGE;
		}
	}
	if (optind >= argc) {
		usage(stderr);
		return FTCTL_EXIT_USAGE;
	}
	for (i = 0; i < FTCTL_N_CMDS; i++)
		if (!strcmp(argv[optind], ftctl_cmds[i]->name))
			cmd = ftctl_cmds[i];
	if (!cmd) {
		fprintf(stderr, "ftctl: unknown command '%s' (see ftctl --help)\n",
			argv[optind]);
		return FTCTL_EXIT_USAGE;
	}

	err = ftnl_open(&ctl.nl);
	if (err == -ENOENT) {
		fprintf(stderr, "ftctl: the fattree module is not loaded (no netlink family '%s')\n",
			"fattree");
		return FTCTL_EXIT_NOMOD;
	}
	if (err) {
		fprintf(stderr, "ftctl: cannot open generic netlink: %s\n", strerror(-err));
		return FTCTL_EXIT_FAIL;
	}
	rc = cmd->run(&ctl, argc - optind, argv + optind);
	ftnl_close(&ctl.nl);
	return rc;
}
