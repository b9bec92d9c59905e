// SPDX-License-Identifier: GPL-2.0
/*
 * Benchmark, not a test: what per-request lanes cost the schedulers,
 * in quality and in speed (issue 44: fattreed asks each pair for the
 * lanes its backlog wants).  On FT(L,K) (default FT(3,16), 4096 leaves)
 * each algorithm schedules random permutations, every lane free, as:
 *
 *   1 x 1   one-lane links, one lane a request: the paper's case, the
 *           baseline every other row is a ratio of (same run, same core)
 *   C x 1   C-lane links (--lanes C, default 4), one lane a request
 *   C x C   C-lane links, C lanes a request (what a long backlog asks)
 *   C x mix C-lane links, 1..C lanes a request (uniform)
 *   round   C-lane links, ft_round_run() on the permutation as demand with
 *           backlogs 1..2C (wanting 1..C lanes): the halving passes, moves
 *           and top-ups fattreed runs around the algorithm
 *
 * Quality: requests granted / requested, lanes granted / wanted (summed
 * over the runs).  Speed: ns per request, median over the runs, and its
 * ratio to the 1 x 1 row's median.  The variants are timed in turn in
 * every run (on one core: the process is pinned to the CPU it starts
 * on), each on its own permutation of the run, so a row and its
 * baseline share the machine's state.  Every variant's first schedule is
 * checked by the independent validator before anything is timed.
 *
 *   bench_lanes [--shape L:K] [--lanes C] [--runs N] [--json]
 */
#define _GNU_SOURCE
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../lib/sched/ft_round.h"
#include "bench.h"
#include "util.h"

enum kind { ONE_ONE, C_ONE, C_C, C_MIX, ROUND, NKINDS };

static const char *const kind_name[NKINDS] = {
	"1 x 1", "C x 1", "C x C", "C x mix", "round",
};

struct acc {
	u64 *ns;		/* per run */
	u64 granted, requests, lanes, wanted;
};

static u64 median(u64 *v, u32 n)
{
	qsort(v, n, sizeof(*v), cmp_u64);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* Run @k once on permutation @perm with lane draws @draw; add to @a. */
static int run_one(enum kind k, struct ft_sched *s1, struct ft_sched *sc,
		   struct ft_round *rd, const struct ft_topo *tc,
		   const struct ft_sched_opts *o, u32 n, u32 c, const u32 *perm,
		   const u32 *draw, struct ft_sched_req *q, struct ft_sched_out *out,
		   struct ft_pairs_demand *dm, u32 *free_all, bool check,
		   struct acc *a, u32 run)
{
	struct ft_sched *s = k == ONE_ONE ? s1 : sc;
	struct ft_sched_stats st;
	struct ft_round_opts ro;
	struct ft_round_out rout;
	u32 i, *before = free_all + ft_topo_dlinks(tc);
	u64 t0, t1;
	char why[256];
	int err;

	if (k == ROUND) {
		for (i = 0; i < n; i++)
			dm[i] = (struct ft_pairs_demand){ i, perm[i], 1 + draw[i] % (2 * c),
							  0, 1 };
		ft_round_opts_default(&ro, o->algo);
		ro.sched = *o;
		ro.sched.order = FT_SCHED_ORDER_GIVEN;
		ro.path = FT_PATH_CIRCUIT;
		t0 = now_ns();
		err = ft_round_run(rd, &ro, &(struct ft_round_in){
				.now = 1, .demand = dm, .ndemand = n, .free = free_all },
				&rout);
		t1 = now_ns();
		if (err)
			return err;
		/* The batch fits: every circuit's lanes taken from all free. */
		for (i = 0; check && i < rout.nadd; i++) {
			u32 port[FT_MAX_LEVELS], p;

			if (!i)
				ft_sched_reset(sc);
			for (p = 0; p < FT_MAX_LEVELS; p++)
				port[p] = rout.add[i].port[p];
			if (ft_sched_take(sc, rout.add[i].src, rout.add[i].dst, port,
					  rout.add[i].lanes)) {
				fprintf(stderr, "bench_lanes: round: circuit %u over its lanes\n", i);
				return -1;
			}
		}
		a->ns[run] = t1 - t0;
		a->granted += rout.st.granted;
		a->requests += rout.st.requests;
		a->lanes += rout.st.lanes_granted;
		a->wanted += rout.st.lanes_wanted;
		return 0;
	}
	for (i = 0; i < n; i++) {
		q[i].src = i;
		q[i].dst = perm[i];
		q[i].lanes = k == C_C ? c : k == C_MIX ? 1 + draw[i] % c : 1;
	}
	ft_sched_reset(s);
	if (check)
		memcpy(before, ft_sched_free_lanes(s),
		       ft_topo_dlinks(ft_sched_topo(s)) * sizeof(u32));
	t0 = now_ns();
	err = ft_sched_run(s, o, q, n, out, &st);
	t1 = now_ns();
	if (err)
		return err;
	if (check && ft_sched_check_round(ft_sched_topo(s), before, ft_sched_free_lanes(s),
					  false, q, n, out, why, sizeof(why))) {
		fprintf(stderr, "bench_lanes: %s: invalid schedule: %s\n", kind_name[k], why);
		return -1;
	}
	a->ns[run] = t1 - t0;
	a->granted += st.granted;
	a->requests += st.requests;
	a->lanes += st.lanes_granted;
	for (i = 0; i < n; i++)
		a->wanted += q[i].lanes;
	return 0;
}

int main(int argc, char **argv)
{
	static const enum ft_sched_algo algos[] = {
		FT_SCHED_LEVELWISE, FT_SCHED_LOCAL_GREEDY, FT_SCHED_LOCAL_RANDOM,
		FT_SCHED_RANDOM, FT_SCHED_OPTIMAL,
	};
	u32 l = 3, k = 16, c = 4, runs = 200, n, i, j, r, ai, base;
	struct ft_topo t1, tc;
	struct ft_sched *s1, *sc;
	struct ft_round *rd;
	struct ft_sched_req *q;
	struct ft_sched_out *out;
	struct ft_pairs_demand *dm;
	struct ft_sched_opts o;
	struct acc acc[NKINDS];
	u32 *perm, *draw, *free_all, cpu;
	struct ft_rand rng;
	bool json = false;
	cpu_set_t set;

	for (i = 1; i < (u32)argc; i++) {
		if (!strcmp(argv[i], "--shape") && i + 1 < (u32)argc &&
		    sscanf(argv[++i], "%u:%u", &l, &k) == 2)
			continue;
		if (!strcmp(argv[i], "--lanes") && i + 1 < (u32)argc &&
		    sscanf(argv[++i], "%u", &c) == 1 && c >= 1)
			continue;
		if (!strcmp(argv[i], "--runs") && i + 1 < (u32)argc &&
		    sscanf(argv[++i], "%u", &runs) == 1 && runs >= 1)
			continue;
		if (!strcmp(argv[i], "--json")) {
			json = true;
			continue;
		}
		fprintf(stderr, "usage: bench_lanes [--shape L:K] [--lanes C] [--runs N]"
			" [--json]\n");
		return 2;
	}
	if (ft_lw(&t1, l, k, 1) || ft_lw(&tc, l, k, c)) {
		fprintf(stderr, "bench_lanes: FT(%u,%u) with %u lanes: not a shape\n",
			l, k, c);
		return 2;
	}
	cpu = (u32)sched_getcpu();
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	sched_setaffinity(0, sizeof(set), &set);
	n = t1.n;
	s1 = ft_sched_create(&t1);
	sc = ft_sched_create(&tc);
	rd = ft_round_create(&tc);
	q = calloc(n, sizeof(*q));
	out = calloc(n, sizeof(*out));
	dm = calloc(n, sizeof(*dm));
	perm = calloc(n, sizeof(u32));
	draw = calloc(n, sizeof(u32));
	/* every lane free, then room for a validation's "before" */
	free_all = calloc(2 * (size_t)ft_topo_dlinks(&tc), sizeof(u32));
	if (!s1 || !sc || !rd || !q || !out || !dm || !perm || !draw || !free_all)
		return 1;
	memcpy(free_all, ft_sched_free_lanes(sc), ft_topo_dlinks(&tc) * sizeof(u32));
	if (json)
		printf("{\"shape\": \"FT(%u,%u)\", \"leaves\": %u, \"lanes\": %u,"
		       " \"runs\": %u, \"algorithms\": [", l, k, n, c, runs);
	else
		printf("FT(%u,%u), %u leaves, C = %u lanes, %u random permutations per row;"
		       " ns per request (median), x the 1 x 1 row's, granted / requested,"
		       " lanes granted / wanted\n\n| algorithm | requests | ns/request |"
		       " x 1 x 1 | granted | lanes |\n|---|---|---:|---:|---:|---:|\n",
		       l, k, n, c, runs);
	for (ai = 0; ai < sizeof(algos) / sizeof(algos[0]); ai++) {
		ft_sched_opts_default(&o, algos[ai]);
		for (j = 0; j < NKINDS; j++) {
			memset(&acc[j], 0, sizeof(acc[j]));
			acc[j].ns = calloc(runs, sizeof(u64));
			if (!acc[j].ns)
				return 1;
		}
		ft_rand_seed(&rng, 44 + ai);
		for (r = 0; r < runs; r++) {
			for (j = 0; j < NKINDS; j++) {
				ft_rand_perm(&rng, perm, n);
				for (i = 0; i < n; i++)
					draw[i] = ft_rand_u32(&rng);
				if (run_one(j, s1, sc, rd, &tc, &o, n, c, perm, draw, q, out,
					    dm, free_all, !r, &acc[j], r)) {
					fprintf(stderr, "bench_lanes: %s, %s: failed\n",
						ft_sched_algo_name(algos[ai]), kind_name[j]);
					return 1;
				}
			}
		}
		base = (u32)median(acc[ONE_ONE].ns, runs);
		if (json)
			printf("%s{\"algorithm\": \"%s\", \"rows\": [", ai ? ", " : "",
			       ft_sched_algo_name(algos[ai]));
		for (j = 0; j < NKINDS; j++) {
			double med = (double)median(acc[j].ns, runs);
			double per = med / n, ratio = base ? med / base : 0;
			double g = acc[j].requests ? (double)acc[j].granted / acc[j].requests : 1;
			double lr = acc[j].wanted ? (double)acc[j].lanes / acc[j].wanted : 1;

			if (json)
				printf("%s{\"row\": \"%s\", \"ns_per_request\": %.2f,"
				       " \"x_baseline\": %.3f, \"granted\": %.4f,"
				       " \"lanes\": %.4f}", j ? ", " : "", kind_name[j], per,
				       ratio, g, lr);
			else
				printf("| %s | %s | %.1f | %.2f | %.3f | %.3f |\n",
				       ft_sched_algo_name(algos[ai]), kind_name[j], per, ratio,
				       g, lr);
			free(acc[j].ns);
		}
		if (json)
			printf("]}");
	}
	if (json)
		printf("]}\n");
	ft_round_destroy(rd);
	ft_sched_destroy(s1);
	ft_sched_destroy(sc);
	free(q);
	free(out);
	free(dm);
	free(perm);
	free(draw);
	free(free_all);
	return 0;
}
