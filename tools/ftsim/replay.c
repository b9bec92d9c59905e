// SPDX-License-Identifier: GPL-2.0
/*
 * ftsim replay: run a synthetic message set through the engine core in
 * userspace exactly as the kernel does (same core, same seed, same order
 * of injections), and print the per-link counters. The kernel's counters
 * for the same run must be identical; selftests/fattree/replay_test
 * checks it.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ft_pairs.h"

struct replay {
	struct ft_fabric_params p;
	const char *rows;
	unsigned long steps;
};

static int parse_list(const char *s, u32 *v, u32 max, u32 *n)
{
	char *end;

	*n = 0;
	for (;;) {
		unsigned long x = strtoul(s, &end, 10);

		if (end == s || *n >= max || x > 0xffffffffUL)
			return -1;
		v[(*n)++] = (u32)x;
		if (!*end)
			return 0;
		if (*end != ',')
			return -1;
		s = end + 1;
	}
}

static void usage(FILE *f)
{
	fprintf(f,
		"usage: ftsim replay --levels H --down m1,..,mH --up w1,..,wH\n"
		"                    [--lanes c1,..,cH] [--path N] [--injection N]\n"
		"                    [--arbitration N] [--seed S] --rows FILE --steps N\n"
		"Run the rows of FILE (\"src dst count\" per line) through the engine\n"
		"core for N cycles and print \"cycle C drained D delivered X\" and one\n"
		"line per directed link: \"link ID carried C max M saturated S blocked B\".\n"
		"Policies are the numbers of uapi/linux/fattree.h.\n");
}

static int replay_args(int argc, char **argv, struct replay *r)
{
	static const struct option opts[] = {
		{ "levels", required_argument, NULL, 'h' },
		{ "down", required_argument, NULL, 'm' },
		{ "up", required_argument, NULL, 'w' },
		{ "lanes", required_argument, NULL, 'c' },
		{ "path", required_argument, NULL, 'p' },
		{ "injection", required_argument, NULL, 'i' },
		{ "arbitration", required_argument, NULL, 'a' },
		{ "seed", required_argument, NULL, 's' },
		{ "rows", required_argument, NULL, 'r' },
		{ "steps", required_argument, NULL, 'n' },
		{ "help", no_argument, NULL, 'H' },
		{ NULL, 0, NULL, 0 },
	};
	u32 nm = 0, nw = 0, nc = 0;
	int c;

	memset(r, 0, sizeof(*r));
	r->p.profile.kind = FT_PROFILE_CONSTANT;
	r->p.profile.base = 1;
	r->p.path = FT_PATH_DMODK;
	r->p.seed = 1;
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 'h': r->p.h = strtoul(optarg, NULL, 10); break;
		case 'm': if (parse_list(optarg, r->p.m, FT_MAX_LEVELS, &nm)) goto bad; break;
		case 'w': if (parse_list(optarg, r->p.w, FT_MAX_LEVELS, &nw)) goto bad; break;
		case 'c':
			if (parse_list(optarg, r->p.profile.table, FT_MAX_LEVELS, &nc))
				goto bad;
			r->p.profile.kind = FT_PROFILE_EXPLICIT;
			break;
		case 'p': r->p.path = strtoul(optarg, NULL, 10); break;
		case 'i': r->p.inject.rule = strtoul(optarg, NULL, 10); break;
		case 'a': r->p.arb = strtoul(optarg, NULL, 10); break;
		case 's': r->p.seed = strtoull(optarg, NULL, 0); break;
		case 'r': r->rows = optarg; break;
		case 'n': r->steps = strtoul(optarg, NULL, 10); break;
		case 'H': usage(stdout); exit(0);
		default: goto usage;
		}
	}
	if (!r->p.h || nm != r->p.h || nw != r->p.h || (nc && nc != r->p.h) ||
	    !r->rows || !r->steps || r->p.path >= FT_PATH_NR || r->p.arb >= FT_ARB_NR ||
	    r->p.inject.rule >= FT_INJECT_NR) {
		fprintf(stderr, "ftsim replay: need --levels H, H values for --down, --up"
			" (and --lanes), valid policies, --rows and --steps\n");
		goto usage;
	}
	return 0;
bad:
	fprintf(stderr, "ftsim replay: bad list '%s' (numbers separated by commas)\n", optarg);
usage:
	usage(stderr);
	return -1;
}

static int replay_rows(const char *path, struct ft_pairs *q, u32 n)
{
	unsigned long src, dst, count, line = 0;
	char buf[256];
	FILE *f = fopen(path, "r");

	if (!f) {
		fprintf(stderr, "ftsim replay: %s: %s\n", path, strerror(errno));
		return -1;
	}
	while (fgets(buf, sizeof(buf), f)) {
		line++;
		if (buf[0] == '#' || buf[strspn(buf, " \t\n")] == '\0')
			continue;
		if (sscanf(buf, "%lu %lu %lu", &src, &dst, &count) != 3 ||
		    src >= n || dst >= n || !count || count > 0xffffffffUL ||
		    ft_pairs_add(q, src, dst, 1, count, 0, NULL)) {
			fprintf(stderr, "ftsim replay: %s:%lu: bad row\n", path, line);
			fclose(f);
			return -1;
		}
	}
	fclose(f);
	return 0;
}

int ftsim_replay(int argc, char **argv)
{
	struct ft_cycle_result res;
	struct ft_fabric *fab;
	struct ft_pairs q;
	struct ft_topo t;
	u32 lanes[FT_MAX_LEVELS];
	u64 delivered = 0, drained = 0;
	struct replay r;
	unsigned long i;
	int rc = 1;

	if (replay_args(argc, argv, &r))
		return 2;
	/* Size the cycle as the kernel does (kmod/fabric.c). */
	if (ft_profile_lanes(&r.p.profile, r.p.h, r.p.m, r.p.w, lanes) ||
	    ft_topo_init(&t, r.p.h, r.p.m, r.p.w, lanes)) {
		fprintf(stderr, "ftsim replay: inconsistent shape\n");
		return 2;
	}
	r.p.max_msgs = ft_pairs_max_msgs(&t);
	fab = calloc(1, sizeof(*fab));
	if (!fab || ft_fabric_init(fab, &r.p) || ft_pairs_init(&q, 1U << 20)) {
		fprintf(stderr, "ftsim replay: cannot set up the fabric\n");
		free(fab);
		return 1;
	}
	if (replay_rows(r.rows, &q, t.n))
		goto out;
	for (i = 0; i < r.steps; i++) {
		if (ft_pairs_cycle(&q, fab, NULL, NULL, NULL, &res))
			goto out;
		delivered += res.delivered;
		if (res.delivered && !q.queued)
			drained = fab->cycle;
	}
	printf("cycle %" PRIu64 " drained %" PRIu64 " delivered %" PRIu64 "\n",
	       fab->cycle, drained, delivered);
	for (i = 0; i < fab->lanes.n; i++)
		printf("link %lu carried %" PRIu64 " max %u saturated %" PRIu64
		       " blocked %" PRIu64 "\n", i, fab->stats[i].carried,
		       fab->stats[i].max_cycle, fab->stats[i].saturated,
		       fab->stats[i].blocked);
	rc = 0;
out:
	ft_pairs_destroy(&q);
	ft_fabric_destroy(fab);
	free(fab);
	return rc;
}
