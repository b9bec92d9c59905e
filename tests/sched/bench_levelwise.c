// SPDX-License-Identifier: GPL-2.0
/*
 * Benchmark, not a test: median time to schedule one random permutation
 * of a 4096-leaf FT(3,16) with each algorithm, on one core (the process
 * is pinned to the CPU it starts on), by clock_gettime(CLOCK_MONOTONIC).
 * "run" is ft_sched_run() alone on a fabric with no circuits; "reset +
 * run" adds restoring the free lanes and their bit vectors first.  Seed
 * 002's FPGA: 19 ns per request, 38.9 us per 4096-request batch.
 *
 *   bench_levelwise [runs]
 */
#define _GNU_SOURCE
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "../../daemon/sched/ft_sched.h"
#include "../../kmod/core/ft_rand.h"

#define NPERM	64

static u64 now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (u64)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

static int cmp_u64(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

static u64 median(u64 *v, u32 n)
{
	qsort(v, n, sizeof(*v), cmp_u64);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

int main(int argc, char **argv)
{
	static struct ft_sched_req q[NPERM][4096];
	static struct ft_sched_out out[4096];
	u32 m[3] = { 16, 16, 16 }, w[3] = { 1, 16, 16 }, c[3] = { 1, 1, 1 };
	struct {
		const char *name;
		enum ft_sched_algo algo;
		enum ft_sched_order order;
		bool random_fit;
	} v[] = {
		{ "levelwise", FT_SCHED_LEVELWISE, FT_SCHED_ORDER_SOURCE,
		  false },
		{ "levelwise random-fit", FT_SCHED_LEVELWISE,
		  FT_SCHED_ORDER_SOURCE, true },
		{ "levelwise farthest", FT_SCHED_LEVELWISE,
		  FT_SCHED_ORDER_FARTHEST, false },
		{ "levelwise random-rank", FT_SCHED_LEVELWISE,
		  FT_SCHED_ORDER_RANDOM, false },
		{ "local-greedy", FT_SCHED_LOCAL_GREEDY, FT_SCHED_ORDER_SOURCE,
		  false },
		{ "local-random", FT_SCHED_LOCAL_RANDOM, FT_SCHED_ORDER_SOURCE,
		  false },
		{ "random", FT_SCHED_RANDOM, FT_SCHED_ORDER_SOURCE, false },
		{ "optimal", FT_SCHED_OPTIMAL, FT_SCHED_ORDER_SOURCE, false },
	};
	u32 runs = argc > 1 ? (u32)atoi(argv[1]) : 1001, nv = sizeof(v) /
		   sizeof(v[0]), i, k, j, x, n = 4096, cpu;
	struct ft_sched_stats st;
	struct ft_sched_opts o;
	struct ft_sched_cycles cy;
	struct ft_sched *s;
	struct ft_topo t;
	struct ft_rand r;
	u64 *run_ns, *all_ns, t0, t1, t2, granted;
	cpu_set_t set;

	if (!runs)
		runs = 1;
	cpu = (u32)sched_getcpu();
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	sched_setaffinity(0, sizeof(set), &set);
	if (ft_topo_init(&t, 3, m, w, c))
		return 1;
	s = ft_sched_create(&t);
	run_ns = malloc(runs * sizeof(u64));
	all_ns = malloc(runs * sizeof(u64));
	if (!s || !run_ns || !all_ns)
		return 1;
	ft_rand_seed(&r, 2026);
	for (k = 0; k < NPERM; k++) {
		for (i = 0; i < n; i++)
			q[k][i] = (struct ft_sched_req){ i, i, 1 };
		for (i = n; i > 1; i--) {
			j = ft_rand_below(&r, i);
			x = q[k][i - 1].dst;
			q[k][i - 1].dst = q[k][j].dst;
			q[k][j].dst = x;
		}
	}
	printf("FT(3,16): %u leaves, %u directed links, one core (cpu %u), "
	       "%u runs each over %u random permutations\n", t.n,
	       ft_topo_dlinks(&t), cpu, runs, NPERM);
	printf("%-22s %12s %12s %14s %10s\n", "algorithm", "run (us)",
	       "per req (ns)", "reset+run (us)", "granted");
	for (i = 0; i < nv; i++) {
		ft_sched_opts_default(&o, v[i].algo);
		o.order = v[i].order;
		o.random_fit = v[i].random_fit;
		granted = 0;
		for (k = 0; k < runs; k++) {
			o.seed = k + 1;
			t0 = now_ns();
			ft_sched_reset(s);
			t1 = now_ns();
			ft_sched_run(s, &o, q[k % NPERM], n, out, &st);
			t2 = now_ns();
			run_ns[k] = t2 - t1;
			all_ns[k] = t2 - t0;
			granted += st.granted;
		}
		t0 = median(run_ns, runs);
		printf("%-22s %12.1f %12.1f %14.1f %9.1f%%\n", v[i].name,
		       t0 / 1e3, (double)t0 / n, median(all_ns, runs) / 1e3,
		       100.0 * granted / ((double)runs * n));
	}
	/*
	 * Leiserson on a permutation (lambda = 1), Theorem 1 as is (one
	 * cycle per LCA level) and compacted: one batch per run.
	 */
	for (i = 0; i < 2; i++) {
		for (k = 0; k < runs / 10 + 1; k++) {
			ft_sched_reset(s);
			t0 = now_ns();
			ft_sched_leiserson(s, q[k % NPERM], n, i, out, &cy,
					   NULL);
			run_ns[k] = now_ns() - t0;
			granted = cy.n;
			ft_sched_cycles_free(&cy);
		}
		t0 = median(run_ns, runs / 10 + 1);
		printf("%-22s %12.1f %12.1f %14s %6llu cycles\n",
		       i ? "leiserson compact" : "leiserson", t0 / 1e3,
		       (double)t0 / n, "-", (unsigned long long)granted);
	}
	printf("seed 002 FPGA: 19 ns per request, 38.9 us per batch\n");
	ft_sched_destroy(s);
	free(run_ns);
	free(all_ns);
	return 0;
}
