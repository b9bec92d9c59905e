// SPDX-License-Identifier: GPL-2.0
/*
 * fattreed's configuration: command-line flags and an optional file of
 * "key = value" lines whose keys are the long flags' names. The file is
 * read first, then the flags override it. Anything malformed is named and
 * refused (exit status 2), before anything is touched.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>

#include "fattreed.h"
#include "ftunits.h"

enum {
	O_FABRIC = 'f', O_ALGO = 'a', O_CONFIG = 'c', O_DAEMON = 'd',
	O_HELP = 'h', O_VERSION = 'V', O_VERBOSE = 'v',
	O_ORDER = 256, O_RELEASE, O_RANDOM_FIT, O_SEED, O_LEASE, O_IDLE,
	O_ROUND_MS, O_MAX_REQ, O_PID_FILE, O_STATUS_FILE, O_SYSLOG, O_LOG_LEVEL,
	O_STATUS, O_METRICS_FILE, O_ROUNDS, O_FREE_LANES, O_THRESHOLD, O_COLLIDING,
	O_MAX_LANES,
};

static const struct option ftd_opts[] = {
	{ "fabric", required_argument, NULL, O_FABRIC },
	{ "algorithm", required_argument, NULL, O_ALGO },
	{ "order", required_argument, NULL, O_ORDER },
	{ "release-on-failure", optional_argument, NULL, O_RELEASE },
	{ "random-fit", optional_argument, NULL, O_RANDOM_FIT },
	{ "seed", required_argument, NULL, O_SEED },
	{ "lease", required_argument, NULL, O_LEASE },
	{ "idle", required_argument, NULL, O_IDLE },
	{ "round-ms", required_argument, NULL, O_ROUND_MS },
	{ "max-requests", required_argument, NULL, O_MAX_REQ },
	{ "max-lanes", required_argument, NULL, O_MAX_LANES },
	{ "threshold", required_argument, NULL, O_THRESHOLD },
	{ "colliding", optional_argument, NULL, O_COLLIDING },
	{ "rounds", required_argument, NULL, O_ROUNDS },
	{ "free-lanes", required_argument, NULL, O_FREE_LANES },
	{ "config", required_argument, NULL, O_CONFIG },
	{ "daemon", optional_argument, NULL, O_DAEMON },
	{ "pid-file", required_argument, NULL, O_PID_FILE },
	{ "status-file", required_argument, NULL, O_STATUS_FILE },
	{ "metrics-file", required_argument, NULL, O_METRICS_FILE },
	{ "syslog", optional_argument, NULL, O_SYSLOG },
	{ "log-level", required_argument, NULL, O_LOG_LEVEL },
	{ "verbose", no_argument, NULL, O_VERBOSE },
	{ "status", no_argument, NULL, O_STATUS },
	{ "help", no_argument, NULL, O_HELP },
	{ "version", no_argument, NULL, O_VERSION },
	{ NULL, 0, NULL, 0 },
};

void ftd_usage(FILE *f)
{
	fprintf(f,
		"usage: fattreed --fabric NAME [options]\n"
		"The centralized scheduler of a fattree fabric: it reads the fabric's\n"
		"demand, serves the heaviest and oldest pairs first with as many lanes as\n"
		"their backlogs want and their paths have, grows and shrinks circuits\n"
		"round by round, installs them in atomic batches with leases, and\n"
		"releases the ones that go idle.\n\n"
		"  -f, --fabric NAME          the fabric to schedule (required)\n"
		"  -a, --algorithm A          levelwise (default), local-greedy, local-random,\n"
		"                             random, optimal\n"
		"      --order O              given (default: heaviest backlog first, then\n"
		"                             oldest), source, random, farthest\n"
		"      --release-on-failure   a refused request gives back the lanes it took\n"
		"      --random-fit           a random available port instead of the first\n"
		"      --seed S               seed of the algorithms' randomness (default 1)\n"
		"      --lease CYCLES         lease of each circuit (default 64); leases\n"
		"                             time-share the lanes among waiting pairs\n"
		"      --idle CYCLES          delete circuits idle this long, adopted ones\n"
		"                             too (default 32 on a circuit fabric, 1 on a\n"
		"                             scheduled one; 0: never)\n"
		"      --round-ms MS          longest wait between rounds (default 10);\n"
		"                             demand notifications start a round sooner;\n"
		"                             after a round with no demand and no circuit,\n"
		"                             up to 1000 ms for a notification\n"
		"      --max-requests N       new circuits asked per round (default 0: all)\n"
		"      --max-lanes N          lanes per circuit at most (default 0: as many as\n"
		"                             the backlog wants and the links have)\n"
		"      --threshold N          on a scheduled fabric, only pairs whose backlog\n"
		"                             is above N messages (default 0: every pair)\n"
		"      --colliding[=yes|no]   on a scheduled fabric, only pairs whose default\n"
		"                             paths collide in the current demand (default\n"
		"                             yes; no: every pair)\n"
		"      --rounds N             stop after N rounds (default 0: never)\n"
		"      --free-lanes F         where the links' free lanes come from: circuits\n"
		"                             (default: the circuits' paths, a link dump while\n"
		"                             a link is failed) or dump (a link dump every round)\n"
		"  -c, --config FILE          \"key = value\" lines, keys as the long options\n"
		"  -d, --daemon               detach (default: stay in the foreground)\n"
		"      --pid-file FILE        write the pid there (refuses if one runs)\n"
		"      --status-file FILE     per-round statistics as JSON, rewritten each round\n"
		"                             (default /run/fattreed/NAME.json)\n"
		"      --status               print the running daemon's statistics and exit\n"
		"      --metrics-file FILE    Prometheus text metrics for node_exporter's\n"
		"                             textfile collector, rewritten at most once a\n"
		"                             second (e.g. /var/lib/prometheus/node-exporter/\n"
		"                             fattreed-NAME.prom)\n"
		"      --syslog               log to syslog instead of stderr\n"
		"      --log-level L          err, warning, info (default), debug\n"
		"  -v, --verbose              --log-level debug\n"
		"  -h, --help | -V, --version\n\n"
		"SIGTERM and SIGINT stop it cleanly (its circuits stay; their leases end\n"
		"them); SIGHUP reloads the config file. Exit status: 0 stopped cleanly,\n"
		"1 failed (the fabric or the module went away), 2 bad configuration.\n");
}

/* A whole number up to @max, decimal or 0x hex (a leading 0 is not octal). */
static int parse_u(const char *what, const char *v, unsigned long long max,
		   unsigned long long *out)
{
	char why[64];
	uint64_t x;

	if (ft_parse_range(v, 0, max, &x, why, sizeof(why))) {
		fprintf(stderr, "fattreed: %s: '%s': %s\n", what, v, why);
		return -1;
	}
	*out = x;
	return 0;
}

static int parse_u64(const char *what, const char *v, uint64_t *out)
{
	unsigned long long x;

	if (parse_u(what, v, UINT64_MAX, &x))
		return -1;
	*out = x;
	return 0;
}

/* A number up to @max; @zero, when set, says why 0 is refused. */
static int parse_u32(const char *what, const char *v, uint32_t max, const char *zero,
		     uint32_t *out)
{
	unsigned long long x;

	if (parse_u(what, v, max, &x))
		return -1;
	if (!x && zero) {
		fprintf(stderr, "fattreed: %s: %s\n", what, zero);
		return -1;
	}
	*out = (uint32_t)x;
	return 0;
}

/* @v is none of the @kind words in @list. */
static int no_choice(const char *what, const char *kind, const char *v, const char *list)
{
	fprintf(stderr, "fattreed: %s: no %s '%s' (%s)\n", what, kind, v, list);
	return -1;
}

static int parse_bool(const char *what, const char *v, bool *out)
{
	if (!v || !strcmp(v, "yes") || !strcmp(v, "true") || !strcmp(v, "1") ||
	    !strcmp(v, "on")) {
		*out = true;
		return 0;
	}
	if (!strcmp(v, "no") || !strcmp(v, "false") || !strcmp(v, "0") || !strcmp(v, "off")) {
		*out = false;
		return 0;
	}
	fprintf(stderr, "fattreed: %s: '%s' is not yes or no\n", what, v);
	return -1;
}

static int set_str(const char *what, char *dst, size_t len, const char *v)
{
	if (strlen(v) >= len || !*v) {
		fprintf(stderr, "fattreed: %s: '%s' is empty or longer than %zu\n", what, v,
			len - 1);
		return -1;
	}
	strcpy(dst, v);
	return 0;
}

/* Apply one option (from the command line or a config line). */
static int ftd_apply(struct ftd_config *c, int opt, const char *name, const char *v)
{
	int a;

	switch (opt) {
	case O_FABRIC:
		return set_str(name, c->fabric, sizeof(c->fabric), v);
	case O_ALGO:
		a = ft_sched_algo_parse(v);
		if (a < 0)
			return no_choice(name, "algorithm", v,
					 "levelwise, local-greedy, local-random, random, optimal");
		c->sched.algo = a;
		return 0;
	case O_ORDER:
		a = ft_sched_order_parse(v);
		if (a < 0)
			return no_choice(name, "order", v, "source, random, farthest, given");
		c->sched.order = a;
		return 0;
	case O_RELEASE:
		return parse_bool(name, v, &c->sched.release_on_failure);
	case O_RANDOM_FIT:
		return parse_bool(name, v, &c->sched.random_fit);
	case O_SEED:
		return parse_u64(name, v, &c->sched.seed);
	case O_LEASE:
		return parse_u32(name, v, UINT32_MAX,
				 "a lease of 0 never ends; time-sharing needs one", &c->lease);
	case O_IDLE:
		return parse_u32(name, v, UINT32_MAX, NULL, &c->idle);
	case O_ROUND_MS:
		return parse_u32(name, v, 60000, "needs at least 1 ms", &c->round_ms);
	case O_MAX_REQ:
		return parse_u32(name, v, UINT32_MAX, NULL, &c->max_requests);
	case O_MAX_LANES:
		return parse_u32(name, v, FT_MAX_LANES, NULL, &c->max_lanes);
	case O_THRESHOLD:
		return parse_u32(name, v, UINT32_MAX, NULL, &c->threshold);
	case O_COLLIDING:
		return parse_bool(name, v, &c->colliding);
	case O_FREE_LANES:
		if (strcmp(v, "circuits") && strcmp(v, "dump"))
			return no_choice(name, "source", v, "circuits, dump");
		c->links_dump = !strcmp(v, "dump");
		return 0;
	case O_ROUNDS:
		return parse_u64(name, v, &c->rounds);
	case O_DAEMON:
		return parse_bool(name, v, &c->daemonize);
	case O_PID_FILE:
		return set_str(name, c->pid_file, sizeof(c->pid_file), v);
	case O_STATUS_FILE:
		return set_str(name, c->status_file, sizeof(c->status_file), v);
	case O_METRICS_FILE:
		return set_str(name, c->metrics_file, sizeof(c->metrics_file), v);
	case O_SYSLOG:
		return parse_bool(name, v, &c->syslog);
	case O_LOG_LEVEL:
		if (!strcmp(v, "err") || !strcmp(v, "error"))
			c->log_level = LOG_ERR;
		else if (!strcmp(v, "warning"))
			c->log_level = LOG_WARNING;
		else if (!strcmp(v, "info"))
			c->log_level = LOG_INFO;
		else if (!strcmp(v, "debug"))
			c->log_level = LOG_DEBUG;
		else
			return no_choice(name, "level", v, "err, warning, info, debug");
		return 0;
	case O_VERBOSE:
		c->log_level = LOG_DEBUG;
		return 0;
	case O_STATUS:
		c->print_status = true;
		return 0;
	}
	fprintf(stderr, "fattreed: %s cannot be set here\n", name);
	return -1;
}

int ftd_config_file(struct ftd_config *c, const char *path)
{
	char line[512], *key, *val, *end;
	const struct option *o;
	FILE *f = fopen(path, "r");
	unsigned int n = 0;
	char what[300];

	if (!f) {
		fprintf(stderr, "fattreed: %s: %s\n", path, strerror(errno));
		return -1;
	}
	while (fgets(line, sizeof(line), f)) {
		n++;
		if (!strchr(line, '\n') && !feof(f)) {
			fprintf(stderr, "fattreed: %s:%u: line too long\n", path, n);
			goto bad;
		}
		line[strcspn(line, "#\n")] = '\0';
		key = line + strspn(line, " \t");
		if (!*key)
			continue;
		end = key + strcspn(key, " \t=");
		val = end + strspn(end, " \t");
		if (*val == '=')
			val += 1 + strspn(val + 1, " \t");
		*end = '\0';
		val[strcspn(val, " \t")] = '\0';
		snprintf(what, sizeof(what), "%s:%u: %s", path, n, key);
		for (o = ftd_opts; o->name; o++)
			if (!strcmp(o->name, key))
				break;
		if (!o->name || o->val == O_CONFIG || o->val == O_HELP || o->val == O_VERSION) {
			fprintf(stderr, "fattreed: %s:%u: unknown key '%s'\n", path, n, key);
			goto bad;
		}
		if (o->has_arg == required_argument && !*val) {
			fprintf(stderr, "fattreed: %s:%u: '%s' needs a value\n", path, n, key);
			goto bad;
		}
		if (ftd_apply(c, o->val, what, *val ? val : NULL))
			goto bad;
	}
	fclose(f);
	return 0;
bad:
	fclose(f);
	return -1;
}

static void ftd_defaults(struct ftd_config *c)
{
	struct ft_round_opts o;

	memset(c, 0, sizeof(*c));
	ft_round_opts_default(&o, FT_SCHED_LEVELWISE);
	c->sched = o.sched;	/* order given: by weight */
	c->lease = o.lease;
	c->idle = o.idle;
	c->threshold = o.threshold;
	c->colliding = o.colliding;
	c->round_ms = 10;
	c->log_level = LOG_INFO;
}

const char *ftd_select_desc(const struct ftd_config *c)
{
	static _Thread_local char buf[96];

	if (!c->threshold && !c->colliding)
		return "every pair in demand";
	if (!c->threshold)
		return "the pairs whose default paths collide";
	snprintf(buf, sizeof(buf), "the pairs with more than %u waiting%s", c->threshold,
		 c->colliding ? " whose default paths collide" : "");
	return buf;
}

int ftd_config_parse(struct ftd_config *c, int argc, char **argv)
{
	char config[sizeof(c->config_file)] = "";
	int opt, i;

	ftd_defaults(c);
	/* The file first, wherever --config stands; then the flags win. */
	for (i = 1; i < argc; i++) {
		const char *v = NULL;

		if (!strcmp(argv[i], "--config") || !strcmp(argv[i], "-c"))
			v = i + 1 < argc ? argv[i + 1] : NULL;
		else if (!strncmp(argv[i], "--config=", 9))
			v = argv[i] + 9;
		if (v && set_str("--config", config, sizeof(config), v))
			return -1;
	}
	if (*config) {
		strcpy(c->config_file, config);
		if (ftd_config_file(c, config))
			return -1;
	}
	optind = 1;
	/* getopt names the program by argv[0]: "fattreed", not its path. */
	if (argc > 0)
		argv[0] = "fattreed";
	while ((opt = getopt_long(argc, argv, "f:a:c:dvhV", ftd_opts, NULL)) != -1) {
		char name[32];

		if (opt == O_HELP) {
			ftd_usage(stdout);
			exit(0);
		}
		if (opt == O_VERSION) {
			printf("fattreed %s\n", FT_VERSION);
			exit(0);
		}
		if (opt == '?') {
			fprintf(stderr, "fattreed: see fattreed --help\n");
			return -1;
		}
		if (opt == O_CONFIG)
			continue;
		for (i = 0; ftd_opts[i].name && ftd_opts[i].val != opt; i++)
			;
		snprintf(name, sizeof(name), "--%s", ftd_opts[i].name);
		if (ftd_apply(c, opt, name, optarg))
			return -1;
	}
	if (optind < argc) {
		fprintf(stderr, "fattreed: unexpected argument '%s' (see fattreed --help)\n",
			argv[optind]);
		return -1;
	}
	if (!*c->fabric) {
		fprintf(stderr, "fattreed: which fabric? (--fabric NAME)\n");
		return -1;
	}
	if (!*c->status_file)
		snprintf(c->status_file, sizeof(c->status_file), "/run/fattreed/%s.json", c->fabric);
	return 0;
}
