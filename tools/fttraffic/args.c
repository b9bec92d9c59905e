// SPDX-License-Identifier: GPL-2.0
/*
 * fttraffic's command line. Every refusal names the option and what it
 * expects; nothing here talks to the kernel, so it is fuzzed as it is.
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "args.h"
#include "ftunits.h"

enum {
	O_SEED = 256, O_SHIFT, O_ROOT, O_HOT, O_H, O_NOFIX, O_FILE, O_INJECT, O_NETNS,
	O_MAXPROCS, O_TIMEOUT, O_SETTLE, O_QLIMIT, O_JSON, O_STREAM, O_FLOWS, O_PROGRESS,
	O_NOPROGRESS, O_ALLOWLOSS, O_VERSION, O_INFLIGHT, O_MAXCYCLES, O_VETH,
	O_VERBOSE,
};

static const struct option longopts[] = {
	{ "count", required_argument, NULL, 'n' },
	{ "size", required_argument, NULL, 's' },
	{ "duration", required_argument, NULL, 'd' },
	{ "rate", required_argument, NULL, 'r' },
	{ "interval", required_argument, NULL, 'i' },
	{ "seed", required_argument, NULL, O_SEED },
	{ "shift", required_argument, NULL, O_SHIFT },
	{ "root", required_argument, NULL, O_ROOT },
	{ "hot-fraction", required_argument, NULL, O_HOT },
	{ "h", required_argument, NULL, O_H },
	{ "no-fixed-points", no_argument, NULL, O_NOFIX },
	{ "file", required_argument, NULL, O_FILE },
	{ "inject", no_argument, NULL, O_INJECT },
	{ "veth", no_argument, NULL, O_VETH },
	{ "netns-prefix", required_argument, NULL, O_NETNS },
	{ "max-procs", required_argument, NULL, O_MAXPROCS },
	{ "inflight", required_argument, NULL, O_INFLIGHT },
	{ "timeout", required_argument, NULL, O_TIMEOUT },
	{ "max-cycles", required_argument, NULL, O_MAXCYCLES },
	{ "settle", required_argument, NULL, O_SETTLE },
	{ "qdisc-limit", required_argument, NULL, O_QLIMIT },
	{ "json", no_argument, NULL, O_JSON },
	{ "stream", no_argument, NULL, O_STREAM },
	{ "flows", no_argument, NULL, O_FLOWS },
	{ "progress", no_argument, NULL, O_PROGRESS },
	{ "no-progress", no_argument, NULL, O_NOPROGRESS },
	{ "allow-loss", no_argument, NULL, O_ALLOWLOSS },
	{ "verbose", no_argument, NULL, 'v' },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, O_VERSION },
	{ NULL, 0, NULL, 0 }
};

void ftt_usage(FILE *f)
{
	const enum ft_pattern *pat;
	char list[256];
	unsigned int n;

	pat = ftt_patterns(&n);
	fprintf(f,
		"usage: fttraffic [OPTIONS] FABRIC PATTERN\n"
		"       fttraffic [OPTIONS] --veth PATTERN\n"
		"Traffic between processes on a fabric's leaves, one process per leaf, each in\n"
		"its own network namespace, with io_uring. On a manually stepped fabric the\n"
		"whole message set is sent, confirmed queued, then the fabric is stepped until\n"
		"it drains (delivery cycles against the set's load factor lambda); on a timed\n"
		"fabric sources send for --duration at --rate (offered against accepted load).\n"
		"\nPatterns: %s\n"
		"(old spellings, such as hotspot and alltoall, still work and warn; hot-spot\n"
		"is now hot-uniform). bit-reversal and transpose take a leaf's address in\n"
		"bits (a power of two of leaves) or base-K digits (a k-ary fabric): reversed,\n"
		"or the low floor(digits/2) digits moved to the top, as in ftsim\n",
		ft_pattern_list(pat, n, " ", list, sizeof(list)));
	fprintf(f,
		"\nOptions:\n"
		"  -n, --count N          messages per flow (random patterns: per source); default 1\n"
		"  -s, --size BYTES       message size, 40..8192 (default 64)\n"
		"  -d, --duration SEC     length of a timed run (default 5)\n"
		"  -r, --rate R           messages/s per source in a timed run; 0: as fast as\n"
		"                         the fabric accepts (default 0)\n"
		"  -i, --interval SEC     report interval of a timed run (default 1)\n"
		"      --seed S           seed of the random patterns (default 1)\n"
		"      --shift K          k of shift and stride (default N/2)\n"
		"      --root LEAF        the hot spot, many-to-one's sink, one-to-many's source (0)\n"
		"      --hot-fraction F   share of hot-uniform messages to the hot spot (default 0.25)\n"
		"      --h H              h of an h-relation (default 2)\n"
		"      --no-fixed-points  a random permutation where no leaf sends to itself\n"
		"      --file PATH        rows \"src dst [count]\" for the pattern 'file'\n"
		"      --inject           hand the set to the kernel's synthetic injection\n"
		"                         instead of processes (any size of set)\n"
		"      --veth             the baseline: the same timed run between two leaves\n"
		"                         joined by a veth pair instead of a fabric\n"
		"      --netns-prefix P   use the namespaces P<leaf> in /run/netns (made by\n"
		"                         'ip netns add'), not namespaces of fttraffic's own\n"
		"      --max-procs N      most processes to start (default 256)\n"
		"      --inflight N       sends in flight per process (default 256)\n"
		"      --timeout SEC      longest wait for a phase of a run (default 60)\n"
		"      --max-cycles N     most cycles to step a batch (default 1000000)\n"
		"      --settle MS        circuit fabrics: after a step, the longest wait for the\n"
		"                         scheduler to answer the demand (default 200)\n"
		"      --qdisc-limit N    packets the leaves' pfifo qdisc holds (default 10000)\n"
		"      --json             the whole result as one JSON object\n"
		"      --stream           timed runs: one JSON object per interval\n"
		"      --flows            per-flow counts\n"
		"      --progress, --no-progress  a progress line (default: on a terminal)\n"
		"      --allow-loss       exit 0 even when messages were lost or corrupted\n"
		"  -v, --verbose          the time each phase of the run took, on stderr\n"
		"  -h, --help             this help\n"
		"  -V, --version          the version\n"
		"\nExit status: 0 every message arrived intact, 1 a message was lost or\n"
		"corrupted or the run failed, 2 bad arguments.\n");
}

static int bad(const char *opt, const char *arg, const char *want)
{
	fprintf(stderr, "fttraffic: %s '%s': expected %s\nTry 'fttraffic --help'.\n", opt,
		arg, want);
	return FTT_EXIT_USAGE;
}

/* A whole number from @lo to @hi, decimal or 0x (a leading 0 is not octal). */
static int num(const char *opt, const char *arg, uint64_t lo, uint64_t hi, uint64_t *out)
{
	char why[64], want[160];

	if (!ft_parse_range(arg, lo, hi, out, why, sizeof(why)))
		return 0;
	snprintf(want, sizeof(want), "a whole number from %llu to %llu (%s)",
		 (unsigned long long)lo, (unsigned long long)hi, why);
	return bad(opt, arg, want);
}

static int num32(const char *opt, const char *arg, uint32_t lo, uint32_t hi, uint32_t *out)
{
	uint64_t v;
	int e = num(opt, arg, lo, hi, &v);

	if (!e)
		*out = (uint32_t)v;
	return e;
}

/* Seconds (1.5) or a duration with its unit (1500ms, 2s), from @lo to @hi s. */
static int seconds(const char *opt, const char *arg, double lo, double hi, double *out)
{
	uint64_t ns = 0;
	int err = ft_parse_duration(arg, 1000000000, &ns, NULL);
	char want[96];

	if (err == FT_DURATION_INEXACT)
		return bad(opt, arg, "a whole number of nanoseconds, the unit durations are counted in");
	snprintf(want, sizeof(want), "seconds from %g to %g, or a duration (500ms, 2s)", lo, hi);
	if (err || ns < lo * 1e9 || ns > hi * 1e9)
		return bad(opt, arg, want);
	*out = ns / 1e9;
	return 0;
}

static int real(const char *opt, const char *arg, double lo, double hi, double *out)
{
	char *end, want[96];
	double v;

	errno = 0;
	v = strtod(arg, &end);
	snprintf(want, sizeof(want), "a number from %g to %g", lo, hi);
	if (!*arg || errno || *end || !isfinite(v) || v < lo || v > hi)
		return bad(opt, arg, want);
	*out = v;
	return 0;
}

/* PATTERN: its name from now on; an old spelling warns once. */
static int pattern(struct ftt_opts *o)
{
	const enum ft_pattern *have;
	unsigned int n;
	char why[400];
	bool old;
	int k;

	have = ftt_patterns(&n);
	k = ft_pattern_pick("fttraffic", o->pattern, have, n, &old, why, sizeof(why));
	if (k < 0) {
		fprintf(stderr, "fttraffic: PATTERN '%s': %s\nTry 'fttraffic --help'.\n",
			o->pattern, why);
		return FTT_EXIT_USAGE;
	}
	if (old)
		ft_pattern_warn("fttraffic", o->pattern, have[k]);
	o->pattern = ft_pattern_name(have[k]);
	return 0;
}

void ftt_opts_init(struct ftt_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->count = 1;
	o->size = 64;
	o->duration = 5;
	o->interval = 1;
	o->seed = 1;
	o->hot_fraction = 0.25;
	o->h = 2;
	o->max_procs = 256;
	o->inflight = 256;
	o->timeout = 60;
	o->max_cycles = 1000000;
	o->settle_ms = 200;
	o->qdisc_limit = 10000;
	o->progress = -1;
}

/* Returns -1 to go on, or the exit status (0 after --help). */
int ftt_args_parse(int argc, char **argv, struct ftt_opts *o)
{
	const char *opt;
	uint64_t v;
	int c, e = 0;

	optind = 0;	/* glibc: start afresh, also after an earlier parse */
	opterr = 0;
	while (!e && (c = getopt_long(argc, argv, ":n:s:d:r:i:hvV", longopts, NULL)) != -1) {
		opt = argv[optind - 1];
		switch (c) {
		case 'n':
			e = num("--count", optarg, 1, UINT32_MAX, &o->count);
			break;
		case 's':
			e = num32("--size", optarg, FTT_MIN_SIZE, FTT_MAX_SIZE, &o->size);
			break;
		case 'd':
			e = seconds("--duration", optarg, 0.1, 86400, &o->duration);
			o->duration_set = true;
			break;
		case 'r':
			e = real("--rate", optarg, 0, 1e9, &o->rate);
			break;
		case 'i':
			e = seconds("--interval", optarg, 0.05, 3600, &o->interval);
			break;
		case O_SEED:
			e = num("--seed", optarg, 0, UINT64_MAX, &o->seed);
			break;
		case O_SHIFT:
			e = num("--shift", optarg, 0, UINT32_MAX, &v);
			o->shift = (int64_t)v;
			o->shift_set = true;
			break;
		case O_ROOT:
			e = num32("--root", optarg, 0, UINT32_MAX - 1, &o->root);
			break;
		case O_HOT:
			e = real("--hot-fraction", optarg, 0, 1, &o->hot_fraction);
			break;
		case O_H:
			e = num32("--h", optarg, 1, 1024, &o->h);
			break;
		case O_NOFIX:
			o->no_fixed_points = true;
			break;
		case O_FILE:
			o->file = optarg;
			break;
		case O_INJECT:
			o->inject = true;
			break;
		case O_VETH:
			o->veth = true;
			break;
		case O_NETNS:
			if (!*optarg || strchr(optarg, '/') || strlen(optarg) > 200)
				e = bad("--netns-prefix", optarg, "a namespace name prefix");
			o->netns_prefix = optarg;
			break;
		case O_MAXPROCS:
			e = num32("--max-procs", optarg, 2, FTT_MAX_HOSTS, &o->max_procs);
			break;
		case O_INFLIGHT:
			e = num32("--inflight", optarg, 1, 512, &o->inflight);
			break;
		case O_TIMEOUT:
			e = seconds("--timeout", optarg, 0.1, 86400, &o->timeout);
			break;
		case O_MAXCYCLES:
			e = num("--max-cycles", optarg, 1, UINT32_MAX, &o->max_cycles);
			break;
		case O_SETTLE:
			e = num32("--settle", optarg, 0, 60000, &o->settle_ms);
			break;
		case O_QLIMIT:
			e = num32("--qdisc-limit", optarg, 1, 1U << 24, &o->qdisc_limit);
			break;
		case O_JSON:
			o->json = true;
			break;
		case O_STREAM:
			o->stream = true;
			break;
		case O_FLOWS:
			o->flows = true;
			break;
		case O_PROGRESS:
			o->progress = 1;
			break;
		case O_NOPROGRESS:
			o->progress = 0;
			break;
		case O_ALLOWLOSS:
			o->allow_loss = true;
			break;
		case 'v':
			o->verbose = true;
			break;
		case 'h':
			ftt_usage(stdout);
			return 0;
		case 'V':
		case O_VERSION:
			printf("fttraffic %s\n", FT_VERSION);
			return 0;
		case ':':
			fprintf(stderr, "fttraffic: %s needs a value\nTry 'fttraffic --help'.\n",
				opt);
			return FTT_EXIT_USAGE;
		default:
			fprintf(stderr, "fttraffic: unknown option '%s'\nTry 'fttraffic --help'.\n",
				opt);
			return FTT_EXIT_USAGE;
		}
	}
	if (e)
		return e;
	if (argc - optind != 2 - o->veth) {
		fprintf(stderr, "fttraffic: expected %s, got %d argument%s\n"
			"Try 'fttraffic --help'.\n", o->veth ? "PATTERN" : "FABRIC PATTERN",
			argc - optind, argc - optind == 1 ? "" : "s");
		return FTT_EXIT_USAGE;
	}
	o->fabric = o->veth ? "veth" : argv[optind];
	o->pattern = argv[optind + 1 - o->veth];
	if (o->veth && (o->inject || o->netns_prefix))
		return bad("--veth", o->inject ? "--inject" : "--netns-prefix",
			   "neither: a veth pair has no fabric and its own namespaces");
	if (strlen(o->fabric) >= FATTREE_NAME_LEN || !*o->fabric)
		return bad("FABRIC", o->fabric, "a fabric name");
	e = pattern(o);
	if (e)
		return e;
	if (!strcmp(o->pattern, "file") != !!o->file)
		return bad(o->file ? "--file" : "PATTERN", o->file ? o->file : o->pattern,
			   "--file together with the pattern 'file', and only with it");
	if (o->stream && o->json)
		return bad("--stream", "--json", "one of them: --stream already ends with the "
			   "whole result");
	return -1;
}
