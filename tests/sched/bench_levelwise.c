// SPDX-License-Identifier: GPL-2.0
/*
 * Benchmark, not a test: time to schedule one random permutation of a
 * k-ary n-tree FT(L,K) (default FT(3,16), 4096 leaves) with each
 * algorithm, on one core (the process is pinned to the CPU it starts on;
 * `taskset -c N` chooses it), by clock_gettime(CLOCK_MONOTONIC).  "run"
 * is ft_sched_run() alone on a scheduler with every lane free; "reset +
 * run" adds restoring the free lanes and their bit vectors first.  Each
 * run schedules a different permutation (NPERM of them, in turn) and the
 * granted requests are summed, so no run can be skipped; every
 * algorithm's schedule of the first permutation is checked by the
 * independent validator before it is timed.  Seed 002's FPGA (Table 1):
 * 15/17/19 ns per request, 480/4352/38912 ns per batch on FT(3,4),
 * FT(3,8), FT(3,16).
 *
 * The in-run baseline (K a power of two) is a minimal single-pass
 * level-wise loop written here, one word per switch and direction (K / 64
 * words, first nonzero AND, when K > 64), first fit: it must make the library's decisions on every permutation, and it
 * is timed alternately with "levelwise", so library / baseline is a
 * ratio of the same run on the same core under the same load.
 * "levelwise general" and "optimal general" are the library with
 * force_general (no fast path, no fast copy of the colouring pass).
 *
 *   bench_levelwise [--shape L:K] [--runs N] [--only NAME [--exact]] [--json]
 *                   [RUNS]
 */
#define _GNU_SOURCE
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../../lib/sched/ft_sched.h"
#include "../../lib/sched/ft_sched_check.h"
#include "../../kmod/core/ft_rand.h"
#include "bench.h"

#define NPERM	64

static const struct variant {
	const char *name;
	enum ft_sched_algo algo;
	enum ft_sched_order order;
	bool random_fit;
	bool general;
} v[] = {
	{ "levelwise", FT_SCHED_LEVELWISE, FT_SCHED_ORDER_SOURCE, false, false },
	{ "levelwise general", FT_SCHED_LEVELWISE, FT_SCHED_ORDER_SOURCE,
	  false, true },
	{ "levelwise random-fit", FT_SCHED_LEVELWISE, FT_SCHED_ORDER_SOURCE,
	  true, false },
	{ "levelwise farthest", FT_SCHED_LEVELWISE, FT_SCHED_ORDER_FARTHEST,
	  false, false },
	{ "levelwise random-rank", FT_SCHED_LEVELWISE, FT_SCHED_ORDER_RANDOM,
	  false, false },
	{ "local-greedy", FT_SCHED_LOCAL_GREEDY, FT_SCHED_ORDER_SOURCE, false, false },
	{ "local-random", FT_SCHED_LOCAL_RANDOM, FT_SCHED_ORDER_SOURCE, false, false },
	{ "random", FT_SCHED_RANDOM, FT_SCHED_ORDER_SOURCE, false, false },
	{ "optimal", FT_SCHED_OPTIMAL, FT_SCHED_ORDER_SOURCE, false, false },
	{ "optimal general", FT_SCHED_OPTIMAL, FT_SCHED_ORDER_SOURCE, false,
	  true },
};

/* Seed 002's Table 1 (3-level trees): ns per request, ns per batch. */
static const struct {
	u32 k, req_ns, batch_ns;
} table1[] = { { 4, 15, 480 }, { 8, 17, 4352 }, { 16, 19, 38912 } };

struct dist {
	u64 p10, median, p90, min, max;
};

/*
 * The baseline: FT(L,K), K = 2^lg.  Level 1 has one link per leaf (a
 * byte each way); level i >= 2 one K-bit word per level-(i-1) switch and
 * direction (K > 64: nw = K / 64 words), switch
 * (leaf >> lg (i-1)) << lg (i-2) | y, y the ports so far.
 */
struct base {
	u32 levels, lg, n, nw;
	u8 *up1, *down1;
	u64 *up[FT_MAX_LEVELS + 1], *down[FT_MAX_LEVELS + 1];
	u8 hlev[33];	/* H by the bit length of src ^ dst */
};

static bool base_init(struct base *b, u32 levels, u32 k, u32 n)
{
	u32 i;

	memset(b, 0, sizeof(*b));
	if (k & (k - 1))	/* switches by shifts */
		return false;
	b->levels = levels;
	b->lg = (u32)__builtin_ctz(k);
	b->n = n;
	b->nw = k > 64 ? k / 64 : 1;
	b->up1 = malloc(n);
	b->down1 = malloc(n);
	for (i = 2; i <= levels; i++) {
		b->up[i] = malloc(n / k * b->nw * sizeof(u64));
		b->down[i] = malloc(n / k * b->nw * sizeof(u64));
		if (!b->up[i] || !b->down[i])
			return false;
	}
	for (i = 0; i < 33; i++)
		b->hlev[i] = (u8)((i + b->lg - 1) / b->lg);
	return b->up1 && b->down1;
}

static void base_reset(struct base *b)
{
	u64 full = b->lg >= 6 ? ~0ULL : (1ULL << (1U << b->lg)) - 1;
	u32 i, j;

	memset(b->up1, 1, b->n);
	memset(b->down1, 1, b->n);
	for (i = 2; i <= b->levels; i++)
		for (j = 0; j < (b->n >> b->lg) * b->nw; j++)
			b->up[i][j] = b->down[i][j] = full;
}

/*
 * Request (@s, @d) into @o up to its leaf level: H, or 0 when that is
 * all (H = 0, or refused there).
 */
static inline __attribute__((always_inline))
u32 base_leaf(struct base *b, u32 s, u32 d, struct ft_sched_out *o)
{
	u32 x = s ^ d, hh = b->hlev[x ? 32 - __builtin_clz(x) : 0];

	memset(o, 0, sizeof(*o));
	o->hh = (u8)hh;
	if (hh && !(b->up1[s] & b->down1[d])) {
		o->status = FT_SCHED_REFUSED;
		o->fail_level = 1;
		o->fail_where = b->up1[s] ? FT_SCHED_AT_DOWN : FT_SCHED_AT_UP;
		return 0;
	}
	if (hh)
		b->up1[s] = b->down1[d] = 0;
	return hh;
}

/*
 * Levels 2..@hh of (@s, @d) into @o: one word per switch when @nw is 1
 * (a constant), else the first of nw words with a port free both ways.
 */
static inline __attribute__((always_inline))
void base_levels(struct base *b, u32 s, u32 d, u32 hh, u32 nw,
		 struct ft_sched_out *o)
{
	u32 i, y, us, ds, p, k, lg = b->lg;
	u64 a, *uw, *dw, ua, da;

	for (i = 2, y = 0; i <= hh; i++) {
		us = (s >> lg * (i - 1) << lg * (i - 2)) | y;
		ds = (d >> lg * (i - 1) << lg * (i - 2)) | y;
		if (nw == 1) {
			a = b->up[i][us] & b->down[i][ds];
			if (!a) {
				o->status = FT_SCHED_REFUSED;
				o->fail_level = (u8)i;
				o->fail_where = !b->up[i][us] ? FT_SCHED_AT_UP :
					       !b->down[i][ds] ? FT_SCHED_AT_DOWN :
					       FT_SCHED_AT_BOTH;
				break;
			}
			p = (u32)__builtin_ctzll(a);
			b->up[i][us] &= ~(1ULL << p);
			b->down[i][ds] &= ~(1ULL << p);
		} else {
			uw = b->up[i] + (size_t)us * nw;
			dw = b->down[i] + (size_t)ds * nw;
			for (k = 0, a = ua = da = 0; k < nw && !a; k++) {
				a = uw[k] & dw[k];
				ua |= uw[k];
				da |= dw[k];
			}
			if (!a) {
				o->status = FT_SCHED_REFUSED;
				o->fail_level = (u8)i;
				o->fail_where = !ua ? FT_SCHED_AT_UP :
					       !da ? FT_SCHED_AT_DOWN :
					       FT_SCHED_AT_BOTH;
				break;
			}
			p = (k - 1) * 64 + (u32)__builtin_ctzll(a);
			uw[k - 1] &= ~(1ULL << (p & 63));
			dw[k - 1] &= ~(1ULL << (p & 63));
		}
		o->port[i - 1] = (u16)p;
		y = y << lg | p;
	}
}

/*
 * One permutation (valid, one lane each), @nw words per switch (a
 * constant): returns the requests granted.
 */
static inline __attribute__((always_inline))
u32 base_run_nw(struct base *b, const struct ft_sched_req *q, u32 n,
		struct ft_sched_out *out, u32 nw)
{
	u32 j, hh, granted = 0;

	for (j = 0; j < n; j++) {
		hh = base_leaf(b, q[j].src, q[j].dst, &out[j]);
		base_levels(b, q[j].src, q[j].dst, hh, nw, &out[j]);
		granted += !out[j].status;
	}
	return granted;
}

/*
 * K <= 64.  Aligned, so that what the linker puts before it (the
 * library's cold code) cannot move its loop across fetch boundaries:
 * that alone moved its time by 12 %.
 */
static __attribute__((aligned(64)))
u32 base_run(struct base *b, const struct ft_sched_req *q, u32 n,
	     struct ft_sched_out *out)
{
	return base_run_nw(b, q, n, out, 1);
}

/* K > 64: nw = K / 64 words per switch and direction. */
static __attribute__((aligned(64)))
u32 base_run_wide(struct base *b, const struct ft_sched_req *q, u32 n,
		  struct ft_sched_out *out)
{
	return base_run_nw(b, q, n, out, b->nw);
}

/* The baseline's loop for its K. */
static u32 base_loop(struct base *b, const struct ft_sched_req *q, u32 n,
		     struct ft_sched_out *out)
{
	return b->nw > 1 ? base_run_wide(b, q, n, out) : base_run(b, q, n, out);
}

static void base_free(struct base *b)
{
	u32 i;

	free(b->up1);
	free(b->down1);
	for (i = 2; i <= b->levels; i++) {
		free(b->up[i]);
		free(b->down[i]);
	}
}

/* Nearest-rank percentiles of @v (sorted in place). */
static struct dist distribution(u64 *v, u32 n)
{
	struct dist d;

	qsort(v, n, sizeof(*v), cmp_u64);
	d.min = v[0];
	d.max = v[n - 1];
	d.p10 = v[(n - 1) / 10];
	d.median = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
	d.p90 = v[(n - 1) - (n - 1) / 10];
	return d;
}

static void json_dist(const char *key, const struct dist *d, double div,
		      const char *sep)
{
	printf("\"%s\": {\"p10\": %.3f, \"median\": %.3f, \"p90\": %.3f, "
	       "\"min\": %.3f, \"max\": %.3f}%s", key, d->p10 / div,
	       d->median / div, d->p90 / div, d->min / div, d->max / div, sep);
}

/*
 * The baseline makes the library's decisions on every permutation (the
 * library's first: checked by the validator in main()).
 */
static bool base_same(struct base *b, struct ft_sched *s,
		      const struct ft_sched_req *q, u32 n,
		      struct ft_sched_out *out, struct ft_sched_out *bout)
{
	struct ft_sched_opts o;
	u32 k;

	ft_sched_opts_default(&o, FT_SCHED_LEVELWISE);
	for (k = 0; k < NPERM; k++) {
		ft_sched_reset(s);
		base_reset(b);
		if (ft_sched_run(s, &o, q + (size_t)k * n, n, out, NULL))
			return false;
		base_loop(b, q + (size_t)k * n, n, bout);
		if (memcmp(out, bout, (size_t)n * sizeof(*out)))
			return false;
	}
	return true;
}

/* Times the baseline on permutation @k: its lanes reset first, untimed. */
static u64 base_time(struct base *b, const struct ft_sched_req *q, u32 n,
		     struct ft_sched_out *bout, u64 *granted)
{
	u64 t0;

	base_reset(b);
	t0 = now_ns();
	*granted += base_loop(b, q, n, bout);
	return now_ns() - t0;
}

/* "x" as JSON, or null when the divisor is unknown. */
static void json_ratio(const char *key, double num, double den,
		       const char *sep)
{
	if (den > 0)
		printf("\"%s\": %.3f%s", key, num / den, sep);
	else
		printf("\"%s\": null%s", key, sep);
}

static int usage(FILE *f, int rc)
{
	fprintf(f,
		"usage: bench_levelwise [--shape L:K] [--runs N] [--only NAME [--exact]] [--json] [RUNS]\n"
		"Median and spread (p10, p90) of the time to schedule one random\n"
		"permutation of FT(L,K) (default 3:16) with each algorithm on one core,\n"
		"over RUNS runs (default 1001), beside Table 1 of Ding et al. (2006).\n"
		"--only: the algorithms whose name starts with NAME (with --exact: is\n"
		"NAME), and the baseline.\n");
	return rc;
}

int main(int argc, char **argv)
{
	struct ft_sched_req *q;
	struct ft_sched_out *out, *bout;
	struct base b;
	struct dist bd = { 0 };
	bool have_base;
	double fpga_us = 0, lw_median = 0;
	u64 *base_ns, bgranted = 0;
	u32 m[FT_MAX_LEVELS], w[FT_MAX_LEVELS], c[FT_MAX_LEVELS];
	u32 runs = 1001, nv = sizeof(v) / sizeof(v[0]), i, k, j, x, n, cpu;
	u32 levels = 3, kk = 16, a, nout = 0;
	struct ft_sched_stats st;
	struct ft_sched_opts o;
	struct ft_sched_cycles cy;
	struct ft_sched *s;
	struct ft_topo t;
	struct ft_rand r;
	u64 *run_ns, *all_ns, t0, t1, t2, granted, lruns;
	u32 *free_before;
	const char *tab_req = "-", *tab_batch = "-", *only = "";
	char why[256], tab1[2][16];
	bool json = false, exact = false;
	cpu_set_t set;

	for (a = 1; a < (u32)argc; a++) {
		if (!strcmp(argv[a], "--json")) {
			json = true;
		} else if (!strcmp(argv[a], "--shape") && a + 1 < (u32)argc) {
			if (sscanf(argv[++a], "%u:%u", &levels, &kk) != 2)
				return usage(stderr, 2);
		} else if (!strcmp(argv[a], "--exact")) {
			exact = true;
		} else if (!strcmp(argv[a], "--only") && a + 1 < (u32)argc) {
			only = argv[++a];
		} else if (!strcmp(argv[a], "--runs") && a + 1 < (u32)argc) {
			runs = (u32)atoi(argv[++a]);
		} else if (!strcmp(argv[a], "-h") || !strcmp(argv[a], "--help")) {
			return usage(stdout, 0);
		} else if (argv[a][0] != '-') {
			runs = (u32)atoi(argv[a]);
		} else {
			return usage(stderr, 2);
		}
	}
	if (levels < 1 || levels > FT_MAX_LEVELS || kk < 2 || kk > FT_MAX_W)
		return usage(stderr, 2);
	if (!runs)
		runs = 1;
	cpu = (u32)sched_getcpu();
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	sched_setaffinity(0, sizeof(set), &set);
	for (i = 0; i < levels; i++) {
		m[i] = kk;
		w[i] = i ? kk : 1;
		c[i] = 1;
	}
	if (ft_topo_init(&t, levels, m, w, c)) {
		fprintf(stderr, "bench_levelwise: FT(%u,%u) is not a valid tree\n",
			levels, kk);
		return 2;
	}
	n = t.n;
	s = ft_sched_create(&t);
	run_ns = malloc(runs * sizeof(u64));
	all_ns = malloc(runs * sizeof(u64));
	q = malloc((size_t)NPERM * n * sizeof(*q));
	out = malloc((size_t)n * sizeof(*out));
	bout = malloc((size_t)n * sizeof(*bout));
	base_ns = malloc(runs * sizeof(u64));
	free_before = malloc(ft_topo_dlinks(&t) * sizeof(u32));
	if (!s || !run_ns || !all_ns || !q || !out || !bout || !base_ns ||
	    !free_before)
		return 1;
	have_base = base_init(&b, levels, kk, n);
	memcpy(free_before, ft_sched_free_lanes(s),
	       ft_topo_dlinks(&t) * sizeof(u32));
	ft_rand_seed(&r, 2026);
	for (k = 0; k < NPERM; k++) {
		struct ft_sched_req *p = q + (size_t)k * n;

		for (i = 0; i < n; i++)
			p[i] = (struct ft_sched_req){ i, i, 1 };
		for (i = n; i > 1; i--) {
			j = ft_rand_below(&r, i);
			x = p[i - 1].dst;
			p[i - 1].dst = p[j].dst;
			p[j].dst = x;
		}
	}
	for (i = 0; levels == 3 && i < sizeof(table1) / sizeof(table1[0]); i++) {
		if (table1[i].k == kk) {
			snprintf(tab1[0], sizeof(tab1[0]), "%u", table1[i].req_ns);
			snprintf(tab1[1], sizeof(tab1[1]), "%u", table1[i].batch_ns);
			tab_req = tab1[0];
			tab_batch = tab1[1];
			fpga_us = table1[i].batch_ns / 1e3;
		}
	}
	if (have_base && !base_same(&b, s, q, n, out, bout)) {
		fprintf(stderr, "bench_levelwise: the baseline's decisions differ "
			"from the library's\n");
		return 1;
	}
	if (json) {
		printf("{\"command\": \"bench_levelwise\", \"tree\": \"FT(%u,%u)\", "
		       "\"levels\": %u, \"k\": %u, \"leaves\": %u, \"requests\": %u, "
		       "\"directed_links\": %u, \"cpu\": %u, \"runs\": %u, "
		       "\"permutations\": %u, \"paper_request_ns\": %s, "
		       "\"paper_batch_ns\": %s, \"algorithms\": [\n", levels, kk,
		       levels, kk, n, n, ft_topo_dlinks(&t), cpu, runs, NPERM,
		       strcmp(tab_req, "-") ? tab_req : "null",
		       strcmp(tab_batch, "-") ? tab_batch : "null");
	} else {
		printf("FT(%u,%u): %u leaves, %u directed links, one core (cpu %u), "
		       "%u runs each over %u random permutations\n", levels, kk,
		       t.n, ft_topo_dlinks(&t), cpu, runs, NPERM);
		printf("%-22s %10s %10s %10s %12s %14s %10s %9s\n", "algorithm",
		       "p10 (us)", "run (us)", "p90 (us)", "per req (ns)",
		       "reset+run (us)", "granted", "/baseline");
	}
	for (i = 0; i < nv; i++) {
		struct dist d, dall;

		if (exact ? strcmp(v[i].name, only) :
			    strncmp(v[i].name, only, strlen(only)))
			continue;
		ft_sched_opts_default(&o, v[i].algo);
		o.order = v[i].order;
		o.random_fit = v[i].random_fit;
		o.force_general = v[i].general;
		/* The schedule must be sound before its time means anything. */
		ft_sched_reset(s);
		if (ft_sched_run(s, &o, q, n, out, &st) ||
		    ft_sched_check_round(&t, free_before, ft_sched_free_lanes(s),
					 o.release_on_failure, q, n, out, why,
					 sizeof(why)) ||
		    st.granted + st.refused != n) {
			fprintf(stderr, "bench_levelwise: %s: invalid schedule: %s\n",
				v[i].name, why);
			return 1;
		}
		granted = 0;
		for (k = 0; k < runs; k++) {
			o.seed = k + 1;
			t0 = now_ns();
			ft_sched_reset(s);
			t1 = now_ns();
			ft_sched_run(s, &o, q + (size_t)(k % NPERM) * n, n, out, &st);
			t2 = now_ns();
			run_ns[k] = t2 - t1;
			all_ns[k] = t2 - t0;
			granted += st.granted;
			/* Alternate with the first variant: same load. */
			if (!i && have_base)
				base_ns[k] = base_time(&b, q + (size_t)(k % NPERM) * n,
						       n, bout, &bgranted);
		}
		d = distribution(run_ns, runs);
		dall = distribution(all_ns, runs);
		if (!i && have_base)
			bd = distribution(base_ns, runs);
		if (!i)
			lw_median = (double)d.median;
		if (json) {
			printf("%s  {\"algorithm\": \"%s\", \"options\": {\"order\": \"%s\", "
			       "\"random_fit\": %s%s}, ", nout++ ? ",\n" : "", v[i].name,
			       ft_sched_order_name(o.order),
			       o.random_fit ? "true" : "false",
			       o.force_general ? ", \"force_general\": true" : "");
			json_dist("batch_us", &d, 1e3, ", ");
			json_dist("request_ns", &d, n, ", ");
			json_dist("reset_batch_us", &dall, 1e3, ", ");
			json_ratio("per_baseline", d.median, bd.median, ", ");
			json_ratio("per_fpga", d.median / 1e3, fpga_us, ", ");
			printf("\"requests_per_s\": %.0f, \"granted_pct\": %.4f, "
			       "\"granted\": %llu, \"validated\": true}",
			       n / (d.median / 1e9), 100.0 * granted / ((double)runs * n),
			       (unsigned long long)granted);
		} else {
			printf("%-22s %10.2f %10.2f %10.2f %12.1f %14.2f %9.1f%%",
			       v[i].name, d.p10 / 1e3, d.median / 1e3, d.p90 / 1e3,
			       (double)d.median / n, dall.median / 1e3,
			       100.0 * granted / ((double)runs * n));
			if (bd.median)
				printf(" %9.2f\n", (double)d.median / bd.median);
			else
				printf(" %9s\n", "-");
		}
		if (i || !have_base)
			continue;
		if (json) {
			printf(",\n  {\"algorithm\": \"baseline\", \"options\": "
			       "{\"order\": \"source\", \"random_fit\": false}, ");
			json_dist("batch_us", &bd, 1e3, ", ");
			json_dist("request_ns", &bd, n, ", ");
			json_ratio("per_fpga", bd.median / 1e3, fpga_us, ", ");
			printf("\"requests_per_s\": %.0f, \"granted_pct\": %.4f, "
			       "\"granted\": %llu, \"validated\": true}",
			       n / (bd.median / 1e9),
			       100.0 * bgranted / ((double)runs * n),
			       (unsigned long long)bgranted);
		} else {
			printf("%-22s %10.2f %10.2f %10.2f %12.1f %14s %9.1f%% %9.2f\n",
			       "baseline (bench loop)", bd.p10 / 1e3, bd.median / 1e3,
			       bd.p90 / 1e3, (double)bd.median / n, "-",
			       100.0 * bgranted / ((double)runs * n), 1.0);
		}
	}
	/*
	 * Leiserson on a permutation (lambda = 1), Theorem 1 as is (one
	 * cycle per LCA level) and compacted: one batch per run.
	 */
	lruns = runs / 10 + 1;
	for (i = 0; i < 2 && !exact && !strncmp("leiserson", only, strlen(only));
	     i++) {
		struct dist d;

		granted = 0;
		for (k = 0; k < lruns; k++) {
			ft_sched_reset(s);
			t0 = now_ns();
			if (ft_sched_leiserson(s, q + (size_t)(k % NPERM) * n, n, i,
					       out, &cy, NULL))
				return 1;
			run_ns[k] = now_ns() - t0;
			granted = cy.n;
			ft_sched_cycles_free(&cy);
		}
		d = distribution(run_ns, (u32)lruns);
		if (json) {
			printf("%s  {\"algorithm\": \"%s\", \"options\": {}, ",
			       nout++ ? ",\n" : "",
			       i ? "leiserson compact" : "leiserson");
			json_dist("batch_us", &d, 1e3, ", ");
			json_dist("request_ns", &d, n, ", ");
			printf("\"requests_per_s\": %.0f, \"cycles\": %llu, "
			       "\"runs\": %llu}", n / (d.median / 1e9),
			       (unsigned long long)granted,
			       (unsigned long long)lruns);
		} else {
			printf("%-22s %10.2f %10.2f %10.2f %12.1f %14s %6llu cycles\n",
			       i ? "leiserson compact" : "leiserson", d.p10 / 1e3,
			       d.median / 1e3, d.p90 / 1e3, (double)d.median / n,
			       "-", (unsigned long long)granted);
		}
	}
	if (json)
		printf("\n]}\n");
	else
		printf("Ding et al. 2006 FPGA (Table 1): %s ns per request, %s ns per batch\n",
		       tab_req, tab_batch);
	/* the ratios only when levelwise (and with it the baseline) ran */
	if (!json && have_base && lw_median > 0 && bd.median > 0)
		printf("levelwise / baseline %.2f (goal <= 1.1); baseline x FPGA %.2f\n",
		       lw_median / bd.median,
		       fpga_us > 0 ? bd.median / 1e3 / fpga_us : 0.0);
	if (!json && fpga_us > 0 && lw_median > 0)
		printf("levelwise x FPGA %.2f (38.9 us is 1.00)\n",
		       lw_median / 1e3 / fpga_us);
	base_free(&b);
	free(bout);
	free(base_ns);
	ft_sched_destroy(s);
	free(run_ns);
	free(all_ns);
	free(q);
	free(out);
	free(free_before);
	return 0;
}
