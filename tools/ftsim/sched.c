// SPDX-License-Identifier: GPL-2.0
/*
 * ftsim sched: seed 002's experiment offline.  For each k-ary n-tree
 * FT(L,K), N trials of a request pattern (by default uniform random
 * permutations, 100 per size as in the paper), every selected algorithm
 * of the scheduling library on the same requests from all lanes free,
 * the schedulability ratio (granted / requests) mean, min, max and
 * sample standard deviation, and the level-wise improvement over the
 * local baselines in points and relative %.  Every schedule is checked
 * by the library's independent validator unless --no-check.
 *
 * A size's requests and the algorithms' seeds depend only on --seed,
 * the size, the pattern and the trial number, so a size's row is the
 * same alone or in --sizes all, and trial t is the same for any --trials
 * above t. The trials are the units of the work (par.c): --jobs threads
 * and MPI ranks share them out, and rank 0 sums them up in trial order,
 * so the output is the same for any number of either.
 */
#include <getopt.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "ftsim.h"
#include "ft_rand.h"
#include "ftpattern.h"
#include "sched/ft_sched.h"
#include "sched/ft_sched_check.h"

#define CMD		"sched"
#define MAX_SIZES	64
#define MAX_FAIL	64
#define MAX_TRIALS	1000000U
#define DEFAULT_TRIALS	100U

/* The paper's ranges (seed 002, section 5), in %. */
#define PAPER_LOCAL_LO		45
#define PAPER_LOCAL_HI		70
#define PAPER_LW_LO		78
#define PAPER_LW_HI		95
#define PAPER_IMPROVEMENT	30

/* The patterns sched runs; a pattern's place here seeds its requests. */
enum pattern {
	PAT_PERMUTATION,
	PAT_BITREVERSAL,
	PAT_TRANSPOSE,
	PAT_HOTSPOT,
	PAT_N,
};

static const enum ft_pattern patterns[PAT_N] = {
	[PAT_PERMUTATION] = FT_PATTERN_PERMUTATION,
	[PAT_BITREVERSAL] = FT_PATTERN_BIT_REVERSAL,
	[PAT_TRANSPOSE] = FT_PATTERN_TRANSPOSE,
	[PAT_HOTSPOT] = FT_PATTERN_HOT_SPOT,
};

/* Seed 002's candidate sizes (notes A6): 2-, 3- and 4-level, 64..4096. */
static const u32 all_sizes[][2] = {
	{ 2, 8 }, { 2, 16 }, { 2, 32 }, { 2, 64 },
	{ 3, 4 }, { 3, 8 }, { 3, 16 },
	{ 4, 4 }, { 4, 8 },
};

struct sched_args {
	u32 nsizes;
	u32 size_l[MAX_SIZES];
	u32 size_k[MAX_SIZES];
	u32 trials;
	u32 nalgos;
	int algo[FT_SCHED_NALGOS];
	u64 seed;
	int pattern;
	u32 hot_pct;
	int order;
	bool release;
	bool random_fit;
	bool check;
	bool timing;
	bool json;
	unsigned int jobs;
	/* --fail-links: level L (0: the top), node U, port P, direction
	 * (-1: both) of each failed link.
	 */
	u32 nfail;
	u32 fail_l[MAX_FAIL], fail_u[MAX_FAIL], fail_p[MAX_FAIL];
	int fail_dir[MAX_FAIL];
	const char *fail_word;
};

struct algo_res {
	struct ftsim_stat ratio;	/* in % */
	u64 granted;
	u64 requests;
	u32 full;			/* trials with every request granted */
	u64 fail_up[FT_MAX_LEVELS + 1];
	u64 fail_down[FT_MAX_LEVELS + 1];
	double *us;			/* --timing: microseconds per trial */
	double median_us;
};

struct size_res {
	struct ftsim_shape sh;
	u32 l;
	u32 k;
	struct algo_res a[FT_SCHED_NALGOS];
};

void ftsim_sched_usage(FILE *f)
{
	fprintf(f,
		"usage: ftsim sched [--sizes all|L:K[,L:K...]] [--trials N]\n"
		"                   [--algorithms LIST] [--seed S]\n"
		"                   [--pattern permutation|bit-reversal|transpose|hot-spot]\n"
		"                   [--hot-percent P] [--order source|random|farthest]\n"
		"                   [--release-on-failure] [--random-fit] [--no-check]\n"
		"                   [--fail-links LIST] [--timing] [--json] [--jobs N]\n"
		"The experiment of Ding et al. (2006) without the kernel: on each k-ary\n"
		"n-tree FT(L,K) (K^L leaves, one lane per link, all free), N request sets\n"
		"of the pattern, scheduled by every algorithm of the scheduling library;\n"
		"prints the schedulability ratio (granted / requests) per size and\n"
		"algorithm (mean, min, max, sample standard deviation in points) next to\n"
		"the paper's ranges (local 45-70 %%, level-wise 78-95 %%), the level-wise\n"
		"improvement over local-greedy and local-random in points and relative %%,\n"
		"and the paper's claims checked on the run.\n"
		"  --sizes all|LIST      all: the paper's sizes FT(2,8) FT(2,16) FT(2,32)\n"
		"                        FT(2,64) FT(3,4) FT(3,8) FT(3,16) FT(4,4) FT(4,8)\n"
		"                        (64 to 4096 leaves); or k-ary n-trees, each\n"
		"                        kary:L:K or L:K for short, e.g. 3:4,kary:2:8\n"
		"                        (default all)\n"
		"  --trials N            request sets per size (default %u, as the paper)\n"
		"  --algorithms LIST     levelwise, local-greedy, local-random, random,\n"
		"                        optimal, comma-separated (default all, in this order)\n"
		"  --seed S              base seed (default 1); equal seeds, equal output\n"
		"  --pattern P           permutation: uniform random (default); bit-reversal\n"
		"                        and transpose (address digits reversed / the low\n"
		"                        floor(digits/2) moved to the top; bits, base-K\n"
		"                        digits when K^L is not a power of two): the same\n"
		"                        every trial; hot-spot: a random\n"
		"                        permutation in which P %% of the sources send to\n"
		"                        one random hot leaf instead (old spellings, such\n"
		"                        as bitreversal and hotspot, still work and warn)\n"
		"  --hot-percent P       hot-spot's share of sources, 0..100 (default 10)\n"
		"  --order O             request order: source (the paper's, default),\n"
		"                        random (random rank), farthest (largest H first)\n"
		"  --release-on-failure  a refused request gives back the lanes it took\n"
		"                        (default: it keeps them, as in the paper)\n"
		"  --random-fit          level-wise takes a random common port, not the first\n"
		"  --no-check            skip the independent validator of every schedule\n"
		"  --fail-links LIST     failed links, no lanes for any algorithm: items\n"
		"                        L:U:P (the link of level L from node U at level\n"
		"                        L-1 through its up-port P, both ways; L:U:P:up or\n"
		"                        L:U:P:down one way), top (top:0:0, the first\n"
		"                        top-level link of every size), comma-separated\n"
		"  --timing              add the median time of one schedule (microseconds,\n"
		"                        this machine; the output is then not reproducible)\n"
		"  --json                one JSON document on stdout instead of the tables\n"
		"  --jobs N              run the trials on N threads (default 1); any N,\n"
		"                        and any number of MPI ranks (mpirun, srun), give\n"
		"                        the same output\n"
		"Progress goes to stderr when it is a terminal. Exit 0 done, 1 a schedule\n"
		"failed validation, 2 bad arguments.\n"
		"Example: ftsim sched --sizes 3:4,3:16 --trials 20\n",
		DEFAULT_TRIALS);
}

/*
 * Item @i of --sizes: a k-ary n-tree, kary:L:K (the shape syntax) or L:K
 * for short.
 */
static int size_item(void *ctx, int i, char *item)
{
	struct sched_args *a = ctx;
	const char *colon = strchr(item, ':');
	struct ftsim_shape sh;
	char spec[80];

	if (!colon)
		return ftsim_usage_err(CMD, "bad --sizes item '%s': expected L:K or kary:L:K (levels and arity, e.g. 3:4) or all",
				       item);
	if (strlen(item) >= sizeof(spec) - 5)
		return ftsim_usage_err(CMD, "bad --sizes item '%s': too long", item);
	/* A shape starts with its kind; anything else is L:K. */
	snprintf(spec, sizeof(spec), "%.*s", (int)(colon - item), item);
	snprintf(spec, sizeof(spec), "%s%s", ft_shape_syntax(spec) ? "" : "kary:", item);
	if (ftsim_parse_shape_as(CMD, "--sizes item", item, spec, &sh))
		return -1;
	if (strcmp(sh.kind, "kary"))
		return ftsim_usage_err(CMD, "bad --sizes item '%s': sched runs on k-ary n-trees FT(L,K): kary:L:K or L:K",
				       item);
	a->size_l[i] = sh.h;
	a->size_k[i] = sh.m[0];
	return 0;
}

static int parse_sizes(const char *s, struct sched_args *a)
{
	u32 j;

	if (!strcmp(s, "all")) {
		a->nsizes = sizeof(all_sizes) / sizeof(all_sizes[0]);
		for (j = 0; j < a->nsizes; j++) {
			a->size_l[j] = all_sizes[j][0];
			a->size_k[j] = all_sizes[j][1];
		}
		return 0;
	}
	return ftsim_parse_list(CMD, "--sizes", s, MAX_SIZES, size_item, a,
				&a->nsizes);
}

/* L:U:P[:up|down] or top[:U:P][:up|down]; checked against each size later. */
static int fail_item(void *ctx, int i, char *item)
{
	struct sched_args *a = ctx;
	char *f[5], *save, *end, word[64];
	unsigned long long v;
	int nf, k;

	snprintf(word, sizeof(word), "%s", item);
	/* fields not in the item read as none (top: f[3], f[4]) */
	memset(f, 0, sizeof(f));
	nf = 0;
	for (f[nf] = strtok_r(item, ":", &save); f[nf] && nf < 4;
	     f[++nf] = strtok_r(NULL, ":", &save))
		;
	a->fail_dir[i] = -1;
	if (nf && (!strcmp(f[nf - 1], "up") || !strcmp(f[nf - 1], "down")))
		a->fail_dir[i] = !strcmp(f[--nf], "down");
	if (nf == 1 && !strcmp(f[0], "top")) {
		f[1] = "0";
		f[2] = "0";
		nf = 3;
	}
	if (nf != 3 || f[3 + (a->fail_dir[i] >= 0)])
		return ftsim_usage_err(CMD, "bad --fail-links item '%s': expected L:U:P, L:U:P:up, L:U:P:down or top",
				       word);
	for (k = 0; k < 3; k++) {
		v = strtoull(f[k], &end, 10);
		if (k == 0 && !strcmp(f[0], "top"))
			v = 0;
		else if (f[k][0] < '0' || f[k][0] > '9' || *end || v > 0xffffffffULL ||
			 (k == 0 && !v))
			return ftsim_usage_err(CMD, "bad --fail-links item '%s': '%s' is not a %s",
					       word, f[k],
					       k ? "number" : "level (1 or more, or top)");
		(k == 0 ? a->fail_l : k == 1 ? a->fail_u : a->fail_p)[i] = (u32)v;
	}
	return 0;
}

static int parse_fail(const char *s, struct sched_args *a)
{
	if (ftsim_parse_list(CMD, "--fail-links", s, MAX_FAIL, fail_item, a,
			     &a->nfail))
		return -1;
	a->fail_word = s;
	return 0;
}

/* The directed links --fail-links names on @t into @ids; -1 if one is not there. */
static int fail_ids(const struct sched_args *a, const struct ft_topo *t, u32 *ids, u32 *n)
{
	u32 i, l, local, d;

	*n = 0;
	for (i = 0; i < a->nfail; i++) {
		l = a->fail_l[i] ? a->fail_l[i] : t->h;
		if (l > t->h || a->fail_u[i] >= t->nodes[l - 1] || a->fail_p[i] >= t->w[l])
			return -1;
		local = a->fail_u[i] * t->w[l] + a->fail_p[i];
		for (d = 0; d < 2; d++)
			if (a->fail_dir[i] < 0 || a->fail_dir[i] == (int)d)
				ids[(*n)++] = ft_topo_dlink(t, l, local, d);
	}
	return 0;
}

static int parse_algos(const char *s, struct sched_args *a)
{
	return ftsim_parse_names(CMD, "--algorithms", s, ft_sched_algo_names,
				 FT_SCHED_NALGOS, NULL, a->algo, FT_SCHED_NALGOS,
				 &a->nalgos);
}

static int sched_args(int argc, char **argv, struct sched_args *a)
{
	static const enum ftsim_opt opts[] = {
		FTSIM_O_SIZES, FTSIM_O_TRIALS, FTSIM_O_ALGORITHMS, FTSIM_O_SEED,
		FTSIM_O_PATTERN, FTSIM_O_HOT_PERCENT, FTSIM_O_ORDER,
		FTSIM_O_RELEASE, FTSIM_O_RANDOM_FIT, FTSIM_O_NO_CHECK,
		FTSIM_O_TIMING, FTSIM_O_FAIL_LINKS, 0,
	};
	struct ftsim_getopt g = {
		.cmd = CMD, .opts = opts, .usage = ftsim_sched_usage,
		.json = &a->json, .jobs = &a->jobs, .seed = &a->seed,
	};
	bool hot_given = false;
	int c;
	u32 j, k;

	memset(a, 0, sizeof(*a));
	a->trials = DEFAULT_TRIALS;
	a->hot_pct = 10;
	a->check = true;
	for (j = 0; j < FT_SCHED_NALGOS; j++)
		a->algo[j] = (int)j;
	a->nalgos = FT_SCHED_NALGOS;
	if (parse_sizes("all", a))
		return -1;
	while ((c = ftsim_getopt(&g, argc, argv)) > 0) {
		switch (c) {
		case FTSIM_O_SIZES:
			if (parse_sizes(optarg, a))
				return -1;
			break;
		case FTSIM_O_TRIALS:
			if (ftsim_parse_u32(CMD, "--trials", optarg, 1,
					    MAX_TRIALS, &a->trials))
				return -1;
			break;
		case FTSIM_O_ALGORITHMS:
			if (parse_algos(optarg, a))
				return -1;
			break;
		case FTSIM_O_PATTERN:
			if (ftsim_parse_pattern(CMD, optarg, patterns, PAT_N, &a->pattern))
				return -1;
			break;
		case FTSIM_O_HOT_PERCENT:
			if (ftsim_parse_u32(CMD, "--hot-percent", optarg, 0, 100,
					    &a->hot_pct))
				return -1;
			hot_given = true;
			break;
		case FTSIM_O_ORDER:
			/* not given: requests here have no age */
			if (ftsim_parse_name(CMD, "--order", optarg, ft_sched_order_names,
					     FT_SCHED_ORDER_GIVEN, &k))
				return -1;
			a->order = k;
			break;
		case FTSIM_O_RELEASE:
			a->release = true;
			break;
		case FTSIM_O_RANDOM_FIT:
			a->random_fit = true;
			break;
		case FTSIM_O_NO_CHECK:
			a->check = false;
			break;
		case FTSIM_O_TIMING:
			a->timing = true;
			break;
		case FTSIM_O_FAIL_LINKS:
			if (parse_fail(optarg, a))
				return -1;
			break;
		}
	}
	if (c < 0)
		return -1;
	if (hot_given && a->pattern != PAT_HOTSPOT)
		return ftsim_usage_err(CMD, "--hot-percent %u needs --pattern hot-spot",
				       a->hot_pct);
	return 0;
}

/* --- request patterns --- */

/* Requests i -> dst(i) for every leaf i. */
static void make_requests(const struct sched_args *a, struct ft_rand *r,
			  const struct size_res *sz, u32 *perm,
			  struct ft_sched_req *q)
{
	u32 n = sz->sh.n, i;

	ftsim_pattern_dsts(patterns[a->pattern], &sz->sh, a->hot_pct, r, perm);
	for (i = 0; i < n; i++)
		q[i] = (struct ft_sched_req){ .src = i, .dst = perm[i],
					      .lanes = 1 };
}

/* --- the experiment --- */

/*
 * The units of the work: one trial of one size, unit = size index x
 * trials + trial. A trial's requests and the algorithms' seeds come from
 * --seed, the size, the pattern and the trial number only.
 *
 * A unit's result: with --timing, one double per selected algorithm (the
 * microseconds of its schedule), then per selected algorithm (in
 * a->algo's order) REC_FIXED + 2 hmax u32: granted, requests, and the
 * refusals by level, up then down, levels 1..h of the size.
 */
#define REC_GRANTED	0
#define REC_REQUESTS	1
#define REC_FIXED	2

struct sched_work {
	const struct sched_args *a;
	const struct size_res *res;
	u32 hmax;			/* the most levels of a size */
	size_t rec;			/* u32s per algorithm */
	size_t off;			/* bytes of the timing doubles */
	size_t size;			/* bytes of a unit's result */
};

/* A thread's buffers for the size of its last unit. */
struct sched_ws {
	u32 idx;			/* that size's index */
	struct ft_topo t;
	struct ft_sched *s;
	struct ft_sched_req *q;
	struct ft_sched_out *out;
	u32 *perm;
	u32 *before;			/* free lanes at the start of a round */
};

static void sched_ws_free(void *ctx, void *p)
{
	struct sched_ws *ws = p;

	(void)ctx;
	if (!ws)
		return;
	ft_sched_destroy(ws->s);
	free(ws->q);
	free(ws->out);
	free(ws->perm);
	free(ws->before);
	free(ws);
}

/* The buffers for size @idx; NULL (after a message) if out of memory. */
static struct sched_ws *sched_ws_get(const struct sched_work *wk, void **pws, u32 idx)
{
	const struct sched_args *a = wk->a;
	const struct size_res *sz = &wk->res[idx];
	struct sched_ws *ws = *pws;
	u32 lanes[FT_MAX_LEVELS], n = sz->sh.n, nd, i;

	if (ws && ws->idx == idx)
		return ws;
	sched_ws_free(NULL, ws);
	*pws = ws = calloc(1, sizeof(*ws));
	if (!ws)
		goto oom;
	ws->idx = idx;
	/* Seed 002's model: one circuit per directed link. */
	for (i = 0; i < FT_MAX_LEVELS; i++)
		lanes[i] = 1;
	if (ft_topo_init(&ws->t, sz->sh.h, sz->sh.m, sz->sh.w, lanes)) {
		ftsim_err("ftsim sched: %s: not a fabric the engine core takes\n",
			  sz->sh.desc);
		return NULL;
	}
	nd = ft_topo_dlinks(&ws->t);
	ws->s = ft_sched_create(&ws->t);
	ws->q = calloc(n, sizeof(*ws->q));
	ws->out = calloc(n, sizeof(*ws->out));
	ws->perm = calloc(n, sizeof(*ws->perm));
	ws->before = calloc(nd, sizeof(*ws->before));
	if (!ws->s || !ws->q || !ws->out || !ws->perm || !ws->before)
		goto oom;
	memcpy(ws->before, ft_sched_free_lanes(ws->s), nd * sizeof(u32));
	if (a->nfail) {
		u32 ids[2 * MAX_FAIL], nids;

		fail_ids(a, &ws->t, ids, &nids);	/* checked in ftsim_sched() */
		for (i = 0; i < nids; i++)
			ws->before[ids[i]] = 0;
	}
	return ws;
oom:
	ftsim_err("ftsim sched: %s: out of memory\n", sz->sh.desc);
	return NULL;
}

static int run_trial(void *ctx, void **pws, u64 u, void *result)
{
	const struct sched_work *wk = ctx;
	const struct sched_args *a = wk->a;
	u32 idx = (u32)(u / a->trials), trial = (u32)(u % a->trials);
	const struct size_res *sz = &wk->res[idx];
	double *us = result;
	u32 *rec = (u32 *)((char *)result + wk->off);
	struct ft_sched_stats st;
	struct ft_sched_opts o;
	struct sched_ws *ws;
	struct ft_rand r;
	u64 size_seed, trial_seed;
	u32 n = sz->sh.n, h = sz->sh.h, i, j;
	char why[256];
	double t0;

	ws = sched_ws_get(wk, pws, idx);
	if (!ws)
		return -1;
	if (!(trial % 4) || trial + 1 == a->trials)
		ftsim_progress("ftsim sched: %s (%u leaves, size %u of %u): trial %u of %u",
			       sz->sh.desc, n, idx + 1, a->nsizes, trial + 1, a->trials);
	size_seed = ftsim_derive(ftsim_derive(a->seed, (u64)sz->l << 16 | sz->k),
				 (u64)a->pattern);
	trial_seed = ftsim_derive(size_seed, trial);
	ft_rand_seed(&r, trial_seed);
	make_requests(a, &r, sz, ws->perm, ws->q);
	for (j = 0; j < a->nalgos; j++, rec += wk->rec) {
		int algo = a->algo[j];
		bool exact;

		if (a->nfail)
			ft_sched_set_free(ws->s, ws->before);
		else
			ft_sched_reset(ws->s);
		ft_sched_opts_default(&o, algo);
		o.order = a->order;
		o.release_on_failure = a->release;
		o.random_fit = a->random_fit;
		o.seed = ftsim_derive(trial_seed, 1 + (u64)algo);
		t0 = ftsim_now();
		if (ft_sched_run(ws->s, &o, ws->q, n, ws->out, &st)) {
			ftsim_err("ftsim sched: %s: %s failed to run\n", sz->sh.desc,
				  ft_sched_algo_name(algo));
			return -1;
		}
		if (a->timing)
			us[j] = (ftsim_now() - t0) * 1e6;
		exact = o.release_on_failure || algo == FT_SCHED_RANDOM ||
			algo == FT_SCHED_OPTIMAL;
		if (a->check &&
		    ft_sched_check_round(&ws->t, ws->before, ft_sched_free_lanes(ws->s),
					 exact, ws->q, n, ws->out, why, sizeof(why))) {
			ftsim_err("ftsim sched: %s trial %u: %s produced an invalid schedule: %s\n",
				  sz->sh.desc, trial, ft_sched_algo_name(algo), why);
			return -1;
		}
		rec[REC_GRANTED] = st.granted;
		rec[REC_REQUESTS] = st.requests;
		for (i = 1; i <= h; i++) {
			rec[REC_FIXED + i - 1] = st.fail_up[i];
			rec[REC_FIXED + wk->hmax + i - 1] = st.fail_down[i];
		}
	}
	return 0;
}

/* The trials' results of every size, in trial order, into @res. */
static int reduce(const struct sched_work *wk, const char *all, struct size_res *res)
{
	const struct sched_args *a = wk->a;
	u32 i, j, trial, lv;

	for (i = 0; i < a->nsizes; i++) {
		struct size_res *sz = &res[i];

		for (j = 0; j < a->nalgos; j++) {
			struct algo_res *ar = &sz->a[a->algo[j]];

			ftsim_stat_init(&ar->ratio);
			if (a->timing) {
				ar->us = calloc(a->trials, sizeof(double));
				if (!ar->us) {
					fprintf(stderr, "ftsim sched: %s: out of memory\n",
						sz->sh.desc);
					return FTSIM_EXIT_FAIL;
				}
			}
		}
		for (trial = 0; trial < a->trials; trial++) {
			const char *r = all + ((u64)i * a->trials + trial) * wk->size;
			const double *us = (const double *)r;
			const u32 *rec = (const u32 *)(r + wk->off);

			for (j = 0; j < a->nalgos; j++, rec += wk->rec) {
				struct algo_res *ar = &sz->a[a->algo[j]];
				u32 granted = rec[REC_GRANTED];

				if (a->timing)
					ar->us[trial] = us[j];
				ftsim_stat_add(&ar->ratio, 100.0 * granted / sz->sh.n);
				ar->granted += granted;
				ar->requests += rec[REC_REQUESTS];
				ar->full += granted == sz->sh.n;
				for (lv = 1; lv <= sz->sh.h; lv++) {
					ar->fail_up[lv] += rec[REC_FIXED + lv - 1];
					ar->fail_down[lv] += rec[REC_FIXED + wk->hmax + lv - 1];
				}
			}
		}
		for (j = 0; j < a->nalgos; j++) {
			struct algo_res *ar = &sz->a[a->algo[j]];

			if (ar->us)
				ar->median_us = ftsim_median(ar->us, a->trials);
		}
	}
	return 0;
}

/* Every trial of every size, on --jobs threads and the MPI ranks. */
static int run_sizes(const struct sched_args *a, struct size_res *res)
{
	struct sched_work wk = { .a = a, .res = res };
	struct ftsim_work w = {
		.cmd = CMD, .jobs = a->jobs, .ctx = &wk, .run = run_trial,
		.worker_free = sched_ws_free,
	};
	char *all;
	u32 i;
	int rc;

	for (i = 0; i < a->nsizes; i++)
		wk.hmax = res[i].sh.h > wk.hmax ? res[i].sh.h : wk.hmax;
	wk.rec = REC_FIXED + 2 * (size_t)wk.hmax;
	wk.off = a->timing ? a->nalgos * sizeof(double) : 0;
	wk.size = (wk.off + a->nalgos * wk.rec * sizeof(u32) + 7) & ~(size_t)7;
	w.units = (u64)a->nsizes * a->trials;
	w.size = wk.size;
	all = ftsim_mpi_rank() ? NULL : calloc(w.units, w.size);
	if (!ftsim_mpi_rank() && !all) {
		fprintf(stderr, "ftsim sched: out of memory for %" PRIu64 " trials' results\n",
			w.units);
		return FTSIM_EXIT_FAIL;
	}
	rc = ftsim_work_run(&w, all);
	if (!rc && all)
		rc = reduce(&wk, all, res);
	free(all);
	return rc;
}

/* --- reporting --- */

static bool has_algo(const struct sched_args *a, int algo)
{
	u32 j;

	for (j = 0; j < a->nalgos; j++)
		if (a->algo[j] == algo)
			return true;
	return false;
}

/* The paper's range for @algo, or false. */
static bool paper_range(const struct sched_args *a, int algo, int *lo, int *hi)
{
	if (a->pattern != PAT_PERMUTATION)
		return false;
	if (algo == FT_SCHED_LEVELWISE) {
		*lo = PAPER_LW_LO;
		*hi = PAPER_LW_HI;
		return true;
	}
	if (algo == FT_SCHED_LOCAL_GREEDY || algo == FT_SCHED_LOCAL_RANDOM) {
		*lo = PAPER_LOCAL_LO;
		*hi = PAPER_LOCAL_HI;
		return true;
	}
	return false;
}

static const char *range_pos(double mean, int lo, int hi)
{
	return mean < lo ? "below" : mean > hi ? "above" : "in";
}

struct improvement {
	double points;
	double relative;
};

static struct improvement improve(const struct size_res *sz, int base)
{
	double lw = sz->a[FT_SCHED_LEVELWISE].ratio.mean;
	double b = sz->a[base].ratio.mean;

	return (struct improvement){
		.points = lw - b,
		.relative = b > 0 ? 100.0 * (lw - b) / b : 0,
	};
}

/* Averages of the per-size improvements over @base: all sizes, N > 500. */
struct imp_avg {
	u32 n_all, n_big;
	double pts_all, rel_all, pts_big, rel_big;
};

static struct imp_avg improve_avg(const struct size_res *res, u32 nsizes,
				  int base)
{
	struct imp_avg v = { 0 };
	u32 i;

	for (i = 0; i < nsizes; i++) {
		struct improvement m = improve(&res[i], base);

		v.n_all++;
		v.pts_all += m.points;
		v.rel_all += m.relative;
		if (res[i].sh.n > 500) {
			v.n_big++;
			v.pts_big += m.points;
			v.rel_big += m.relative;
		}
	}
	if (v.n_all) {
		v.pts_all /= v.n_all;
		v.rel_all /= v.n_all;
	}
	if (v.n_big) {
		v.pts_big /= v.n_big;
		v.rel_big /= v.n_big;
	}
	return v;
}

/* The paper's claims (notes A6), checked on this run. */
#define MAX_CLAIMS	9

struct claim {
	const char *text;
	bool holds;
	char detail[512];
};

static void append(char *buf, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void append(char *buf, size_t len, const char *fmt, ...)
{
	size_t off = strlen(buf);
	va_list ap;

	if (off + 1 >= len)
		return;
	va_start(ap, fmt);
	vsnprintf(buf + off, len - off, fmt, ap);
	va_end(ap);
}

/*
 * Each claim below checks one statement of seed 002 on this run's sizes
 * and fills @c; it returns 1, or 0 when the run cannot test it. @loc
 * holds the @nloc local algorithms the run has.
 */

/* Level-wise's mean above every local algorithm's, at every size. */
static u32 claim_lw_mean(const struct sched_args *a, const struct size_res *res,
			 const int *loc, u32 nloc, struct claim *c)
{
	u32 i, j;

	*c = (struct claim){ .text = "level-wise mean above the local means at every size",
			     .holds = true };
	for (i = 0; i < a->nsizes; i++)
		for (j = 0; j < nloc; j++)
			if (res[i].a[FT_SCHED_LEVELWISE].ratio.mean <=
			    res[i].a[loc[j]].ratio.mean) {
				c->holds = false;
				append(c->detail, sizeof(c->detail), "%s%s vs %s",
				       c->detail[0] ? "; " : "", res[i].sh.desc,
				       ft_sched_algo_name(loc[j]));
			}
	return 1;
}

/* Level-wise's worst trial above the local algorithms' best, at every size. */
static u32 claim_lw_min(const struct sched_args *a, const struct size_res *res,
			const int *loc, u32 nloc, struct claim *c)
{
	u32 i, j;

	*c = (struct claim){ .text = "level-wise minimum above the local maximum at every size",
			     .holds = true };
	for (i = 0; i < a->nsizes; i++) {
		double lmax = 0;

		for (j = 0; j < nloc; j++)
			if (res[i].a[loc[j]].ratio.max > lmax)
				lmax = res[i].a[loc[j]].ratio.max;
		if (res[i].a[FT_SCHED_LEVELWISE].ratio.min <= lmax) {
			c->holds = false;
			append(c->detail, sizeof(c->detail), "%s%s (%.1f %% <= %.1f %%)",
			       c->detail[0] ? "; " : "", res[i].sh.desc,
			       res[i].a[FT_SCHED_LEVELWISE].ratio.min, lmax);
		}
	}
	return 1;
}

/* Algorithm @b's means within the paper's range for it, at every size. */
static u32 claim_paper_range(const struct sched_args *a, const struct size_res *res,
			     int b, struct claim *c)
{
	char outside[400];
	u32 i, in = 0;
	int lo, hi;

	if (!has_algo(a, b) || !paper_range(a, b, &lo, &hi))
		return 0;
	*c = (struct claim){
		.text = b == FT_SCHED_LEVELWISE ? "level-wise means within 78-95 %" :
			b == FT_SCHED_LOCAL_GREEDY ? "local-greedy means within 45-70 %" :
			"local-random means within 45-70 %",
	};
	outside[0] = '\0';
	for (i = 0; i < a->nsizes; i++) {
		double m = res[i].a[b].ratio.mean;

		if (m >= lo && m <= hi) {
			in++;
			continue;
		}
		append(outside, sizeof(outside), "%s%s %.1f %%",
		       outside[0] ? "; " : "", res[i].sh.desc, m);
	}
	c->holds = in == a->nsizes;
	snprintf(c->detail, sizeof(c->detail), "%u of %u sizes%s%s",
		 in, a->nsizes, outside[0] ? "; outside: " : "", outside);
	return 1;
}

/* A local algorithm's mean falls with more levels, at equal leaf counts. */
static u32 claim_local_depth(const struct sched_args *a, const struct size_res *res,
			     int algo, struct claim *c)
{
	u32 compared = 0, i, k;

	*c = (struct claim){
		.text = algo == FT_SCHED_LOCAL_GREEDY ?
			"local-greedy mean falls with more levels at equal N" :
			"local-random mean falls with more levels at equal N",
		.holds = true,
	};
	for (i = 0; i < a->nsizes; i++)
		for (k = 0; k < a->nsizes; k++) {
			if (res[k].sh.n != res[i].sh.n || res[k].l <= res[i].l)
				continue;
			compared++;
			if (res[k].a[algo].ratio.mean >= res[i].a[algo].ratio.mean) {
				c->holds = false;
				append(c->detail, sizeof(c->detail), "%s%s %.1f %% >= %s %.1f %%",
				       c->detail[0] ? "; " : "", res[k].sh.desc,
				       res[k].a[algo].ratio.mean, res[i].sh.desc,
				       res[i].a[algo].ratio.mean);
			}
		}
	return compared ? 1 : 0;
}

/* Level-wise's spread shrinks with size, at each depth. */
static u32 claim_lw_spread(const struct sched_args *a, const struct size_res *res,
			   struct claim *c)
{
	u32 compared = 0, i, k;

	*c = (struct claim){ .text = "level-wise spread (stddev) shrinks with N at each depth",
			     .holds = true };
	for (i = 0; i < a->nsizes; i++) {
		const struct ftsim_stat *si = &res[i].a[FT_SCHED_LEVELWISE].ratio;

		for (k = 0; k < a->nsizes; k++) {
			const struct ftsim_stat *sk = &res[k].a[FT_SCHED_LEVELWISE].ratio;

			if (res[k].l != res[i].l || res[k].sh.n <= res[i].sh.n)
				continue;
			compared++;
			if (ftsim_stat_stddev(sk) >= ftsim_stat_stddev(si)) {
				c->holds = false;
				append(c->detail, sizeof(c->detail), "%s%s %.2f >= %s %.2f",
				       c->detail[0] ? "; " : "", res[k].sh.desc,
				       ftsim_stat_stddev(sk), res[i].sh.desc,
				       ftsim_stat_stddev(si));
			}
		}
	}
	return compared ? 1 : 0;
}

/* Optimal (ours, not the paper's) grants every permutation in full. */
static u32 claim_optimal_full(const struct sched_args *a, const struct size_res *res,
			      struct claim *c)
{
	u64 full = 0, trials = 0;
	u32 i;

	for (i = 0; i < a->nsizes; i++) {
		full += res[i].a[FT_SCHED_OPTIMAL].full;
		trials += a->trials;
	}
	*c = (struct claim){ .text = "optimal (not in the paper) grants every permutation in full",
			     .holds = full == trials };
	snprintf(c->detail, sizeof(c->detail), "%" PRIu64 " of %" PRIu64 " permutations",
		 full, trials);
	return 1;
}

/* The claims this run can test (permutations only), in the order printed. */
static u32 claims(const struct sched_args *a, const struct size_res *res,
		  struct claim *c)
{
	static const int locals[2] = { FT_SCHED_LOCAL_GREEDY,
				       FT_SCHED_LOCAL_RANDOM };
	bool lw = has_algo(a, FT_SCHED_LEVELWISE);
	u32 nc = 0, j, nloc = 0;
	int loc[2], b;

	for (b = 0; b < 2; b++)
		if (has_algo(a, locals[b]))
			loc[nloc++] = locals[b];
	if (a->pattern != PAT_PERMUTATION)
		return 0;
	if (lw && nloc) {
		nc += claim_lw_mean(a, res, loc, nloc, &c[nc]);
		nc += claim_lw_min(a, res, loc, nloc, &c[nc]);
	}
	for (b = 0; b < FT_SCHED_NALGOS; b++)
		nc += claim_paper_range(a, res, b, &c[nc]);
	for (j = 0; j < nloc; j++)
		nc += claim_local_depth(a, res, loc[j], &c[nc]);
	if (lw)
		nc += claim_lw_spread(a, res, &c[nc]);
	if (has_algo(a, FT_SCHED_OPTIMAL))
		nc += claim_optimal_full(a, res, &c[nc]);
	return nc;
}

static void print_header(const struct sched_args *a)
{
	static const char *const what[PAT_N] = {
		"uniform random permutations", "bit-reversal permutation",
		"transpose permutation", "hot spot",
	};

	printf("ftsim sched: the experiment of Ding et al. (2006), %s", what[a->pattern]);
	if (a->pattern == PAT_HOTSPOT)
		printf(" (%u %% of sources to one random leaf)", a->hot_pct);
	printf(", %u trials per size, seed %" PRIu64 "\n", a->trials, a->seed);
	printf("request order %s, %s, %s; %s\n", ft_sched_order_name(a->order),
	       a->random_fit ? "random fit" : "first fit",
	       a->release ? "release on failure" : "no release on failure",
	       a->check ? "every schedule checked by the independent validator" :
	       "schedules not validated (--no-check)");
	if (a->nfail)
		printf("failed links (no lanes, both ways unless :up or :down): %s\n", a->fail_word);
	if (a->pattern == PAT_PERMUTATION)
		printf("paper (Ding et al. 2006, 100 random permutations per point): local 45-70 %%, level-wise 78-95 %%;\n"
		       "  improvement \"averages 30%%\", \"over 30%%\" with more than 500 nodes\n");
	else
		printf("(the paper's ranges are for random permutations only)\n");
}

static void print_table(const struct sched_args *a, const struct size_res *res)
{
	u32 i, j;
	int lo, hi;

	printf("\nschedulability ratio (granted / requests), %% of requests; stddev in points\n");
	printf("%-9s %6s  %-13s %7s %7s %7s %7s", "tree", "leaves",
	       "algorithm", "mean", "min", "max", "stddev");
	if (a->timing)
		printf(" %9s", "median_us");
	printf("  paper\n");
	for (i = 0; i < a->nsizes; i++) {
		for (j = 0; j < a->nalgos; j++) {
			int algo = a->algo[j];
			const struct algo_res *ar = &res[i].a[algo];

			if (!j)
				printf("%-9s %6u  ", res[i].sh.desc, res[i].sh.n);
			else
				printf("%-9s %6s  ", "", "");
			printf("%-13s %6.2f%% %6.2f%% %6.2f%% %7.2f",
			       ft_sched_algo_name(algo), ar->ratio.mean,
			       ar->ratio.min, ar->ratio.max,
			       ftsim_stat_stddev(&ar->ratio));
			if (a->timing)
				printf(" %9.2f", ar->median_us);
			if (paper_range(a, algo, &lo, &hi))
				printf("  %d-%d %% (%s)", lo, hi,
				       range_pos(ar->ratio.mean, lo, hi));
			else
				printf("  -");
			printf("\n");
		}
	}
}

static void print_improvement(const struct sched_args *a,
			      const struct size_res *res)
{
	static const int bases[2] = { FT_SCHED_LOCAL_GREEDY,
				      FT_SCHED_LOCAL_RANDOM };
	int b, nb = 0, base[2];
	u32 i;

	if (!has_algo(a, FT_SCHED_LEVELWISE))
		return;
	for (b = 0; b < 2; b++)
		if (has_algo(a, bases[b]))
			base[nb++] = bases[b];
	if (!nb)
		return;
	printf("\nlevel-wise improvement over the local baselines: points = difference of the\n"
	       "means, relative = difference / baseline mean\n");
	printf("%-9s %6s  %9s", "tree", "leaves", "levelwise");
	for (b = 0; b < nb; b++)
		printf("  %13s %7s %8s", ft_sched_algo_name(base[b]), "points",
		       "relative");
	printf("\n");
	for (i = 0; i < a->nsizes; i++) {
		printf("%-9s %6u  %8.2f%%", res[i].sh.desc, res[i].sh.n,
		       res[i].a[FT_SCHED_LEVELWISE].ratio.mean);
		for (b = 0; b < nb; b++) {
			struct improvement m = improve(&res[i], base[b]);

			printf("  %12.2f%% %+7.2f %+7.1f%%",
			       res[i].a[base[b]].ratio.mean, m.points, m.relative);
		}
		printf("\n");
	}
	for (i = 0; i < 2; i++) {
		struct imp_avg v[2];
		char label[48];
		u32 cnt;

		for (b = 0; b < nb; b++)
			v[b] = improve_avg(res, a->nsizes, base[b]);
		cnt = i ? v[0].n_big : v[0].n_all;
		if (!cnt)
			continue;
		snprintf(label, sizeof(label), i ? "average, %u size%s, N > 500" :
			 "average, %u size%s", cnt, cnt > 1 ? "s" : "");
		printf("%-27s", label);
		for (b = 0; b < nb; b++)
			printf("  %13s %+7.2f %+7.1f%%", "",
			       i ? v[b].pts_big : v[b].pts_all,
			       i ? v[b].rel_big : v[b].rel_all);
		printf("\n");
	}
	if (a->pattern == PAT_PERMUTATION)
		printf("paper: \"averages 30%%\"; \"with more than 500 nodes, the improvement is over 30%%\"\n");
}

static void print_claims(const struct claim *c, u32 nc)
{
	u32 i;

	if (!nc)
		return;
	printf("\nthe paper's claims on this run\n");
	for (i = 0; i < nc; i++)
		printf("  %-60s %s%s%s%s\n", c[i].text, c[i].holds ? "yes" : "no",
		       c[i].detail[0] ? " (" : "", c[i].detail,
		       c[i].detail[0] ? ")" : "");
}

static void print_json(const struct sched_args *a, const struct size_res *res,
		       const struct claim *c, u32 nc)
{
	static const int bases[2] = { FT_SCHED_LOCAL_GREEDY,
				      FT_SCHED_LOCAL_RANDOM };
	struct ftsim_json j;
	u32 i, k, lv, h;
	int b, lo, hi;

	ftsim_json_start(&j, stdout, "sched");
	ftsim_json_str(&j, "pattern", ft_pattern_name(patterns[a->pattern]));
	if (a->pattern == PAT_HOTSPOT)
		ftsim_json_u64(&j, "hot_percent", a->hot_pct);
	ftsim_json_u64(&j, "trials", a->trials);
	ftsim_json_u64(&j, "seed", a->seed);
	ftsim_json_str(&j, "order", ft_sched_order_name(a->order));
	ftsim_json_bool(&j, "release_on_failure", a->release);
	ftsim_json_bool(&j, "random_fit", a->random_fit);
	ftsim_json_bool(&j, "validated", a->check);
	if (a->nfail)
		ftsim_json_str(&j, "fail_links", a->fail_word);
	else
		ftsim_json_null(&j, "fail_links");
	ftsim_json_obj(&j, "paper");
	ftsim_json_u32s(&j, "local_pct", (const u32[]){ PAPER_LOCAL_LO,
						       PAPER_LOCAL_HI }, 2);
	ftsim_json_u32s(&j, "levelwise_pct", (const u32[]){ PAPER_LW_LO,
							   PAPER_LW_HI }, 2);
	ftsim_json_u64(&j, "improvement_average_pct", PAPER_IMPROVEMENT);
	ftsim_json_end(&j, '}');
	ftsim_json_arr(&j, "sizes");
	for (i = 0; i < a->nsizes; i++) {
		const struct size_res *sz = &res[i];

		h = sz->sh.h;
		ftsim_json_obj(&j, NULL);
		ftsim_json_str(&j, "tree", sz->sh.desc);
		ftsim_json_u64(&j, "levels", sz->l);
		ftsim_json_u64(&j, "k", sz->k);
		ftsim_json_u64(&j, "leaves", sz->sh.n);
		ftsim_json_arr(&j, "algorithms");
		for (k = 0; k < a->nalgos; k++) {
			int algo = a->algo[k];
			const struct algo_res *ar = &sz->a[algo];
			u32 up[FT_MAX_LEVELS], down[FT_MAX_LEVELS];

			ftsim_json_obj(&j, NULL);
			ftsim_json_str(&j, "algorithm", ft_sched_algo_name(algo));
			ftsim_json_num(&j, "mean_pct", ar->ratio.mean, 4);
			ftsim_json_num(&j, "min_pct", ar->ratio.min, 4);
			ftsim_json_num(&j, "max_pct", ar->ratio.max, 4);
			ftsim_json_num(&j, "stddev_points",
				       ftsim_stat_stddev(&ar->ratio), 4);
			ftsim_json_u64(&j, "granted", ar->granted);
			ftsim_json_u64(&j, "requests", ar->requests);
			ftsim_json_u64(&j, "trials_all_granted", ar->full);
			for (lv = 0; lv < h; lv++) {
				up[lv] = (u32)ar->fail_up[lv + 1];
				down[lv] = (u32)ar->fail_down[lv + 1];
			}
			ftsim_json_u32s(&j, "refused_up_by_level", up, h);
			ftsim_json_u32s(&j, "refused_down_by_level", down, h);
			if (a->timing)
				ftsim_json_num(&j, "median_us", ar->median_us, 3);
			if (paper_range(a, algo, &lo, &hi)) {
				ftsim_json_u32s(&j, "paper_pct",
						(const u32[]){ (u32)lo, (u32)hi }, 2);
				ftsim_json_str(&j, "paper_position",
					       range_pos(ar->ratio.mean, lo, hi));
			}
			ftsim_json_end(&j, '}');
		}
		ftsim_json_end(&j, ']');
		if (has_algo(a, FT_SCHED_LEVELWISE)) {
			ftsim_json_arr(&j, "improvement");
			for (b = 0; b < 2; b++) {
				struct improvement m;

				if (!has_algo(a, bases[b]))
					continue;
				m = improve(sz, bases[b]);
				ftsim_json_obj(&j, NULL);
				ftsim_json_str(&j, "over", ft_sched_algo_name(bases[b]));
				ftsim_json_num(&j, "points", m.points, 4);
				ftsim_json_num(&j, "relative_pct", m.relative, 4);
				ftsim_json_end(&j, '}');
			}
			ftsim_json_end(&j, ']');
		}
		ftsim_json_end(&j, '}');
	}
	ftsim_json_end(&j, ']');
	if (has_algo(a, FT_SCHED_LEVELWISE)) {
		ftsim_json_arr(&j, "improvement_average");
		for (b = 0; b < 2; b++) {
			struct imp_avg v;

			if (!has_algo(a, bases[b]))
				continue;
			v = improve_avg(res, a->nsizes, bases[b]);
			ftsim_json_obj(&j, NULL);
			ftsim_json_str(&j, "over", ft_sched_algo_name(bases[b]));
			ftsim_json_u64(&j, "sizes", v.n_all);
			ftsim_json_num(&j, "points", v.pts_all, 4);
			ftsim_json_num(&j, "relative_pct", v.rel_all, 4);
			ftsim_json_u64(&j, "sizes_above_500", v.n_big);
			if (v.n_big) {
				ftsim_json_num(&j, "points_above_500", v.pts_big, 4);
				ftsim_json_num(&j, "relative_pct_above_500",
					       v.rel_big, 4);
			} else {
				ftsim_json_null(&j, "points_above_500");
				ftsim_json_null(&j, "relative_pct_above_500");
			}
			ftsim_json_end(&j, '}');
		}
		ftsim_json_end(&j, ']');
	}
	ftsim_json_arr(&j, "claims");
	for (i = 0; i < nc; i++) {
		ftsim_json_obj(&j, NULL);
		ftsim_json_str(&j, "claim", c[i].text);
		ftsim_json_bool(&j, "holds", c[i].holds);
		ftsim_json_str(&j, "detail", c[i].detail);
		ftsim_json_end(&j, '}');
	}
	ftsim_json_end(&j, ']');
	ftsim_json_finish(&j);
}

int ftsim_sched(int argc, char **argv)
{
	struct claim cl[MAX_CLAIMS + 4];
	struct sched_args a;
	struct size_res *res;
	char word[32];
	u32 i, j, nc;
	int rc = 0;

	if (sched_args(argc, argv, &a))
		return FTSIM_EXIT_USAGE;
	res = calloc(a.nsizes, sizeof(*res));
	if (!res) {
		fprintf(stderr, "ftsim sched: out of memory\n");
		return FTSIM_EXIT_FAIL;
	}
	/* Every size is checked before the first one runs. */
	for (i = 0; i < a.nsizes; i++) {
		res[i].l = a.size_l[i];
		res[i].k = a.size_k[i];
		snprintf(word, sizeof(word), "%u:%u", res[i].l, res[i].k);
		if (ftsim_kary(CMD, "--sizes item", word, &res[i].sh, res[i].l,
			       res[i].k)) {
			free(res);
			return FTSIM_EXIT_USAGE;
		}
		if (a.nfail) {
			u32 ones[FT_MAX_LEVELS], ids[2 * MAX_FAIL], nids;
			struct ft_topo t;

			for (j = 0; j < FT_MAX_LEVELS; j++)
				ones[j] = 1;
			if (ft_topo_init(&t, res[i].sh.h, res[i].sh.m, res[i].sh.w, ones) ||
			    fail_ids(&a, &t, ids, &nids)) {
				ftsim_usage_err(CMD, "bad --fail-links '%s': a link that %s does not have",
						a.fail_word, res[i].sh.desc);
				free(res);
				return FTSIM_EXIT_USAGE;
			}
		}
	}
	rc = run_sizes(&a, res);
	ftsim_progress_done();
	if (!rc && !ftsim_mpi_rank()) {
		memset(cl, 0, sizeof(cl));
		nc = claims(&a, res, cl);
		if (a.json) {
			print_json(&a, res, cl, nc);
		} else {
			print_header(&a);
			print_table(&a, res);
			print_improvement(&a, res);
			print_claims(cl, nc);
		}
	}
	for (i = 0; i < a.nsizes; i++)
		for (j = 0; j < FT_SCHED_NALGOS; j++)
			free(res[i].a[j].us);
	free(res);
	return rc;
}
