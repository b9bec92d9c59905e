// SPDX-License-Identifier: GPL-2.0
/*
 * ftsim saf: store-and-forward routing offline (seed 001, Leighton,
 * Maggs, Ranade, Rao).
 *
 * Message sets (random permutations, bit-reversal, transpose, uniform
 * random destinations) are routed in one batch each by ft_saf, the engine
 * core the kernel runs, on fat-trees: by default section 7's, 4-ary with the
 * channel capacity doubling per level (the area profile with leaf
 * capacity 2: 2 sqrt(S) over S leaves), so that N = M^2 leaves hang
 * under a root of capacity M and every path has L = 2 lg M edges.  Each
 * set runs under every discipline, q and ghosts on/off, from the same
 * engine seed.  Reported per point: T, the steps to the last delivery,
 * against c + L + lg N (c the congestion the engine's paths gave, N the
 * packets; Theorem 2.9) and against lambda + lg M (lambda = ft_lambda()
 * of the set; Lemma 7.2), and the tail of T - L over the seeds.
 *
 * A set depends only on --seed, the shape's leaves, --pattern, --load and
 * the seed number: every point of a shape sees the same sets. One point
 * on one set is a unit of the work (par.c): --jobs threads and MPI ranks
 * share them out, and rank 0 sums them up in order, so the output is the
 * same for any number of either.
 */
#include <getopt.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "ftsim.h"
#include "ft_load.h"
#include "ft_math.h"
#include "ft_saf.h"

#define CMD		"saf"
#define MAX_SIZES	10
#define MAX_QS		8
#define MAX_SEEDS	100000U
#define MAX_LOAD	64U
#define DEFAULT_SEEDS	10U
#define DEFAULT_STEPS	1000000ULL

/* The patterns saf runs; a set does not depend on a pattern's place here. */
static const enum ft_pattern patterns[] = {
	FT_PATTERN_PERMUTATION, FT_PATTERN_BIT_REVERSAL, FT_PATTERN_TRANSPOSE,
	FT_PATTERN_UNIFORM,
};
#define N_PATTERNS	(sizeof(patterns) / sizeof(patterns[0]))

static const char *const disc_names[FT_SAF_DISC_NR] = {
	[FT_SAF_RANK] = "rank", [FT_SAF_FIFO] = "fifo",
	[FT_SAF_FARTHEST] = "farthest",
};

static const char *const path_names[FT_SAF_PATH_NR] = {
	[FT_SAF_PATH_HASH] = "hash", [FT_SAF_PATH_DMODK] = "dmodk",
	[FT_SAF_PATH_RANDOM] = "random", [FT_SAF_PATH_FIRSTFREE] = "firstfree",
};

static const char *const ranks_names[FT_SAF_RANKS_NR] = {
	[FT_SAF_RANKS_PACKET] = "packet", [FT_SAF_RANKS_PAIR] = "pair",
};

static const char *const onoff_names[2] = { "off", "on" };

struct saf_args {
	u32 nsizes;
	u32 sizes[MAX_SIZES];		/* leaves of section 7 trees */
	bool sized;			/* --sizes given */
	bool shaped;			/* --shape instead */
	struct ftsim_shape sh;
	const char *profile;
	const char *lanes;
	u32 nq;
	u32 q[MAX_QS];
	u32 nghosts;
	u32 ghosts[2];
	u32 ndisc;
	u32 disc[FT_SAF_DISC_NR];
	u32 path;
	u32 ranks;
	u32 picks;
	u32 rank_range;
	enum ft_pattern pattern;	/* FT_PATTERN_PERMUTATION (0) unless given */
	u32 load;
	u32 seeds;
	u64 seed;
	u64 max_steps;
	bool check;
	bool json;
	unsigned int jobs;
};

/* One fat-tree of the run. */
struct saf_shape {
	struct ft_topo t;
	char desc[200];
	u32 lg_m;			/* lg of the root channels' capacity */
};

/* One point: a discipline, ghosts on or off, a q. */
struct saf_point {
	u32 disc;
	u32 ghosts;
	u32 q;
};

/* What one batch did. */
struct saf_res {
	u32 packets;
	u32 steps;			/* T: steps to the last delivery */
	u32 congestion;
	u32 stalled;
	u32 qmax;
	u32 load;			/* lambda = load / cap */
	u64 cap;
	u64 ghosts;
	u64 hops;
	u64 fdelays;
	u64 empty_waits;
};

/* A point's runs and per-level occupancy over them. */
struct saf_pres {
	struct saf_res *run;		/* seeds */
	u32 occ_max[FT_SAF_LEVELS];
	u64 occ_sum[FT_SAF_LEVELS];
	u64 occ_samples[FT_SAF_LEVELS];
};

void ftsim_saf_usage(FILE *f)
{
	fprintf(f,
		"usage: ftsim saf [--sizes LIST | --shape SPEC [--profile P | --lanes c1,...,cH]]\n"
		"                 [--q LIST] [--ghosts on,off] [--discipline LIST]\n"
		"                 [--path hash|dmodk|random|firstfree] [--ranks packet|pair]\n"
		"                 [--picks N] [--rank-range R]\n"
		"                 [--pattern permutation|bit-reversal|transpose|uniform]\n"
		"                 [--load K]\n"
		"                 [--seeds N] [--seed S] [--max-steps N] [--check] [--json]\n"
		"                 [--jobs N]\n"
		"Store-and-forward routing through edge queues of q packets (Leighton,\n"
		"Maggs, Ranade and Rao, 1994, section 2.2: random ranks, ghosts, EOS) with\n"
		"ft_saf, the engine core the kernel runs: one batch per message set, every\n"
		"point on the same sets.\n"
		"Prints T (steps to the last delivery) against c + L + lg N (Theorem 2.9:\n"
		"c the congestion of the paths, L = 2h the depth, N the packets) and\n"
		"against lambda + lg M (Lemma 7.2: lambda the load factor, M the root\n"
		"capacity), and the tail of T - L over the seeds.\n"
		"  --sizes LIST        leaves of section 7's fat-trees, powers of 4 from 16\n"
		"                      to 4096 or more: 4-ary, capacity 2 sqrt(S) over S\n"
		"                      leaves, root capacity M = sqrt(N), L = 2 lg M\n"
		"                      (default 16,64,256,1024)\n"
		"  --shape SPEC        any other fabric instead: binary:N, kary:L:K or\n"
		"                      xgft:H:m1,...,mH:w1,...,wH\n"
		"  --profile P         its capacity profile (constant[:B], doubling[:B],\n"
		"                      standard[:B], area[:B], volume[:B], universal:R;\n"
		"                      default doubling on binary trees, constant:1\n"
		"                      otherwise)\n"
		"  --lanes c1,...,cH   or its lanes per level\n"
		"  --q LIST            edge queue sizes (default 2,3,4,8)\n"
		"  --ghosts LIST       on, off or both (default on,off); without ghosts a\n"
		"                      batch may stall for good: counted, not an error\n"
		"  --discipline LIST   rank (section 2.2), fifo, farthest (greedy, the\n"
		"                      routing notes' disciplines; no ghosts); default rank\n"
		"  --path P            up-ports: hash (section 7's path(x), default),\n"
		"                      dmodk, random, firstfree\n"
		"  --ranks R           packet (independent ranks, default) or pair (a\n"
		"                      hash of source and destination: pairs stay in order)\n"
		"  --picks N           selections per node and step: 0 (default) as many\n"
		"                      as the node's edges allow, 1 the paper's node\n"
		"  --rank-range R      ranks in [0, R), 1 to %u (default %u)\n"
		"  --pattern P         permutation (default), bit-reversal, transpose (the\n"
		"                      low floor(digits/2) of the leaf's bits, base-K digits\n"
		"                      on other k-ary shapes, moved to the top), uniform (uniform\n"
		"                      random destinations, a leaf's own among them); the\n"
		"                      old bitrev and random still work and warn\n"
		"  --load K            K sets of the pattern in one batch (default 1)\n"
		"  --seeds N           message sets per shape (default %u)\n"
		"  --seed S            base seed (default 1); equal seeds, equal output\n"
		"  --max-steps N       give up on a batch after N steps (default %llu)\n"
		"  --check             check the invariants after every step (slow)\n"
		"  --json              one JSON document on stdout instead of the tables\n"
		"  --jobs N            run the batches on N threads (default 1); any N, and\n"
		"                      any number of MPI ranks (mpirun, srun), give the\n"
		"                      same output\n"
		"Progress goes to stderr when it is a terminal. Exit 0 done, 1 a check\n"
		"failed (a batch with ghosts stalled or did not finish, a packet lost or\n"
		"doubled, an invariant broken), 2 bad arguments.\n"
		"Example: ftsim saf --sizes 16,64,256,1024,4096 --seeds 100\n",
		FT_SAF_MAX_RANK, FT_SAF_MAX_RANK, DEFAULT_SEEDS,
		(unsigned long long)DEFAULT_STEPS);
}

/* A list's option and what its items may be, for u32_item and name_item. */
struct saf_list {
	const char *opt, *s;
	u32 min, max;			/* numbers */
	const char *const *names;	/* or names, @nnames of them */
	u32 nnames;
	u32 *v;
};

static int u32_item(void *ctx, int k, char *word)
{
	const struct saf_list *l = ctx;

	return ftsim_parse_u32(CMD, l->opt, word, l->min, l->max, &l->v[k]);
}

/* A comma-separated list of whole numbers in [@min, @max]. */
static int parse_u32s(const char *opt, const char *s, u32 min, u32 max,
		      u32 *v, u32 *n, u32 most)
{
	struct saf_list l = { .opt = opt, .min = min, .max = max, .v = v };

	return ftsim_parse_list(CMD, opt, s, (int)most, u32_item, &l, n);
}

static int name_item(void *ctx, int k, char *word)
{
	const struct saf_list *l = ctx;
	u32 j, x;

	if (ftsim_parse_name(CMD, l->opt, word, l->names, l->nnames, &x))
		return -1;
	for (j = 0; j < (u32)k; j++)
		if (l->v[j] == x)
			return ftsim_usage_err(CMD, "bad %s '%s': '%s' is listed twice",
					       l->opt, l->s, word);
	l->v[k] = x;
	return 0;
}

/* A list of names, each at most once, as indices into @names. */
static int parse_names(const char *opt, const char *s,
		       const char *const *names, u32 nnames, u32 *v, u32 *n)
{
	struct saf_list l = {
		.opt = opt, .s = s, .names = names, .nnames = nnames, .v = v,
	};

	return ftsim_parse_list(CMD, opt, s, (int)nnames, name_item, &l, n);
}

static int check_sizes(struct saf_args *a)
{
	u32 i, n;

	for (i = 0; i < a->nsizes; i++) {
		n = a->sizes[i];
		if (n < 16 || (n & (n - 1)) || ft_ilog2_floor(n) % 2)
			return ftsim_usage_err(CMD, "bad --sizes item %u: section 7's fat-trees have 4^m leaves (16, 64, 256, 1024, 4096, ...)",
					       n);
	}
	return 0;
}

static int saf_option(struct saf_args *a, int c, const char *arg)
{
	switch (c) {
	case FTSIM_O_SIZES:
		a->sized = true;
		return parse_u32s("--sizes", arg, 16, FT_MAX_LEAVES, a->sizes,
				  &a->nsizes, MAX_SIZES) ?: check_sizes(a);
	case FTSIM_O_SHAPE:
		a->shaped = true;
		return ftsim_parse_shape(CMD, "--shape", arg, &a->sh);
	case FTSIM_O_PROFILE:
		a->profile = arg;
		return 0;
	case FTSIM_O_LANES:
		a->lanes = arg;
		return 0;
	case FTSIM_O_Q:
		return parse_u32s("--q", arg, 1, FT_SAF_MAX_Q, a->q, &a->nq,
				  MAX_QS);
	case FTSIM_O_GHOSTS:
		return parse_names("--ghosts", arg, onoff_names, 2, a->ghosts,
				   &a->nghosts);
	case FTSIM_O_DISCIPLINE:
		return parse_names("--discipline", arg, disc_names,
				   FT_SAF_DISC_NR, a->disc, &a->ndisc);
	case FTSIM_O_PATH:
		return ftsim_parse_name(CMD, "--path", arg, path_names, FT_SAF_PATH_NR,
					&a->path);
	case FTSIM_O_RANKS:
		return ftsim_parse_name(CMD, "--ranks", arg, ranks_names, FT_SAF_RANKS_NR,
					&a->ranks);
	case FTSIM_O_PICKS:
		return ftsim_parse_u32(CMD, "--picks", arg, 0, 1000000, &a->picks);
	case FTSIM_O_RANK_RANGE:
		return ftsim_parse_u32(CMD, "--rank-range", arg, 1,
				       FT_SAF_MAX_RANK, &a->rank_range);
	case FTSIM_O_PATTERN: {
		int k;

		if (ftsim_parse_pattern(CMD, arg, patterns, N_PATTERNS, &k))
			return -1;
		a->pattern = patterns[k];
		return 0;
	}
	case FTSIM_O_LOAD:
		return ftsim_parse_u32(CMD, "--load", arg, 1, MAX_LOAD, &a->load);
	case FTSIM_O_SEEDS:
		return ftsim_parse_u32(CMD, "--seeds", arg, 1, MAX_SEEDS,
				       &a->seeds);
	case FTSIM_O_MAX_STEPS:
		return ftsim_parse_u64(CMD, "--max-steps", arg, 1, UINT32_MAX,
				       &a->max_steps);
	case FTSIM_O_CHECK:
		a->check = true;
		return 0;
	}
	return -1;
}

static int saf_args(int argc, char **argv, struct saf_args *a)
{
	static const enum ftsim_opt opts[] = {
		FTSIM_O_SIZES, FTSIM_O_SHAPE, FTSIM_O_PROFILE, FTSIM_O_LANES,
		FTSIM_O_Q, FTSIM_O_GHOSTS, FTSIM_O_DISCIPLINE, FTSIM_O_PATH,
		FTSIM_O_RANKS, FTSIM_O_PICKS, FTSIM_O_RANK_RANGE, FTSIM_O_PATTERN,
		FTSIM_O_LOAD, FTSIM_O_SEEDS, FTSIM_O_SEED, FTSIM_O_MAX_STEPS,
		FTSIM_O_CHECK, 0,
	};
	struct ftsim_getopt g = {
		.cmd = CMD, .opts = opts, .usage = ftsim_saf_usage,
		.json = &a->json, .jobs = &a->jobs, .seed = &a->seed,
	};
	int c;

	memset(a, 0, sizeof(*a));
	a->sizes[0] = 16;
	a->sizes[1] = 64;
	a->sizes[2] = 256;
	a->sizes[3] = 1024;
	a->nsizes = 4;
	a->q[0] = 2;
	a->q[1] = 3;
	a->q[2] = 4;
	a->q[3] = 8;
	a->nq = 4;
	a->ghosts[0] = 1;
	a->nghosts = 2;
	a->ndisc = 1;
	a->rank_range = FT_SAF_MAX_RANK;
	a->load = 1;
	a->seeds = DEFAULT_SEEDS;
	a->max_steps = DEFAULT_STEPS;
	while ((c = ftsim_getopt(&g, argc, argv)) > 0) {
		if (saf_option(a, c, optarg))
			return -1;
	}
	if (c < 0)
		return -1;
	if (a->shaped && a->sized)
		return ftsim_usage_err(CMD, "--sizes and --shape exclude each other");
	if (!a->shaped && (a->profile || a->lanes))
		return ftsim_usage_err(CMD, "--%s needs --shape (--sizes are section 7's trees)",
				       a->profile ? "profile" : "lanes");
	if (a->profile && a->lanes)
		return ftsim_usage_err(CMD, "--profile and --lanes exclude each other");
	return 0;
}

/* The pattern view of a shape (ftpattern.h): its leaves, their digits. */
static void pattern_shape(const struct ft_topo *t, struct ft_pattern_shape *ps)
{
	ft_pattern_shape_init(ps, t->n, t->h, &t->m[1]);
}

/* The fabrics: section 7's trees, or the one --shape. */
static int make_shapes(const struct saf_args *a, struct saf_shape *out,
		       u32 *n)
{
	struct ftsim_profile pr;
	struct ftsim_shape sh;
	char buf[32];
	u32 i, k, h;

	*n = 0;
	if (a->shaped) {
		sh = a->sh;
		if (a->lanes) {
			memset(&pr, 0, sizeof(pr));
			pr.p.kind = FT_PROFILE_EXPLICIT;
			if (parse_u32s("--lanes", a->lanes, 1, FT_MAX_LANES,
				       pr.p.table, &k, FT_MAX_LEVELS))
				return -1;
			if (k != sh.h)
				return ftsim_usage_err(CMD, "bad --lanes '%s': %u values, %s has %u levels",
						       a->lanes, k, sh.desc, sh.h);
			snprintf(pr.desc, sizeof(pr.desc), "lanes %s", a->lanes);
		} else if (ftsim_parse_profile(CMD, "--profile", a->profile ?:
					       (!strcmp(sh.kind, "binary") ?
						"doubling" : "constant:1"), &pr)) {
			return -1;
		}
		if (ftsim_topo(CMD, &sh, &pr, &out[0].t))
			return -1;
		snprintf(out[0].desc, sizeof(out[0].desc), "%s %s", sh.desc,
			 pr.desc);
		*n = 1;
	}
	for (i = 0; !a->shaped && i < a->nsizes; i++) {
		h = ft_ilog2_floor(a->sizes[i]) / 2;
		snprintf(buf, sizeof(buf), "xgft:%u:4", h);
		for (k = 1; k < h; k++)
			strcat(buf, ",4");
		strcat(buf, ":1");
		for (k = 1; k < h; k++)
			strcat(buf, ",1");
		if (ftsim_parse_shape(CMD, "--sizes", buf, &sh) ||
		    ftsim_parse_profile(CMD, "--sizes", "area:2", &pr) ||
		    ftsim_topo(CMD, &sh, &pr, &out[i].t))
			return -1;
		snprintf(out[i].desc, sizeof(out[i].desc), "4-ary %u (sec 7)",
			 a->sizes[i]);
		*n = i + 1;
	}
	for (i = 0; i < *n; i++) {
		struct ft_topo *t = &out[i].t;
		struct ft_pattern_shape ps;

		pattern_shape(t, &ps);
		if (!ft_pattern_fits(a->pattern, &ps))
			return ftsim_usage_err(CMD, "--pattern %s needs a power-of-two number"
					       " of leaves or a kary shape, not %s",
					       ft_pattern_name(a->pattern), out[i].desc);
		out[i].lg_m = ft_ilog2_ceil(ft_topo_channel_cap(t, t->h - 1));
	}
	return 0;
}

/* The points: every discipline, ghosts (rank only) and q. */
static u32 make_points(const struct saf_args *a, struct saf_point *pt)
{
	u32 d, g, k, n = 0;

	for (d = 0; d < a->ndisc; d++) {
		for (g = 0; g < a->nghosts; g++) {
			if (g && a->disc[d] != FT_SAF_RANK)
				break;
			for (k = 0; k < a->nq; k++) {
				pt[n].disc = a->disc[d];
				pt[n].ghosts = a->disc[d] == FT_SAF_RANK ?
					       a->ghosts[g] : 0;
				pt[n++].q = a->q[k];
			}
		}
	}
	return n;
}

/* --- message sets --- */

/* Set @k of shape @t: @load rounds of the pattern, sources in order. */
static void make_set(const struct saf_args *a, const struct ft_topo *t, u32 k,
		     u32 *src, u32 *dst)
{
	struct ft_pattern_args pa = { 0 };
	struct ft_pattern_shape ps;
	struct ft_pattern_rng rng;
	struct ft_rand r;
	u32 round, i, n = t->n;

	pattern_shape(t, &ps);
	ft_rand_seed(&r, ftsim_derive(ftsim_derive(a->seed, n), k));
	rng = FT_PATTERN_RNG(&r);
	for (round = 0; round < a->load; round++) {
		for (i = 0; i < n; i++)
			src[(size_t)round * n + i] = i;
		/* make_shapes() refused the shapes a pattern does not fit */
		ft_pattern_dsts(a->pattern, &ps, &pa, &rng, dst + (size_t)round * n);
	}
}

/* --- runs --- */

struct saf_ctx {
	u8 *got;
	u32 n;
	u32 bad;
};

static void on_deliver(void *arg, const struct ft_saf_pkt *p, u32 steps)
{
	struct saf_ctx *x = arg;

	(void)steps;
	if (p->cookie >= x->n || x->got[p->cookie]++)
		x->bad++;
}

/* One batch's per-level queue occupancy, levels 0..depth. */
struct saf_occ {
	u64 *sum;
	u64 *samples;
	u32 *max;
};

/* One batch of @n packets at point @pt; false if a check failed. */
static bool run_batch(const struct saf_args *a, const struct saf_shape *sh,
		      const struct saf_point *pt, u64 seed, const u32 *src,
		      const u32 *dst, u32 n, void *mem, size_t size,
		      const struct saf_occ *occ, struct saf_res *res, char *why,
		      size_t wlen)
{
	struct saf_ctx x = { .n = n };
	struct ft_saf_step_result sr;
	struct ft_saf_params p = { 0 };
	struct ft_saf_fault f;
	struct ft_saf s;
	u32 i, k;

	p.q = pt->q;
	p.discipline = pt->disc;
	p.ghosts = pt->ghosts;
	p.path = a->path;
	p.ranks = a->ranks;
	p.picks = a->picks;
	p.rank_range = a->rank_range;
	p.max_pkts = n;
	p.seed = seed;
	x.got = calloc(n, 1);
	if (!x.got || ft_saf_init(&s, &sh->t, &p, mem, size)) {
		snprintf(why, wlen, "the engine refused the shape or ran out of memory");
		free(x.got);
		return false;
	}
	for (i = 0; i < n; i++)
		ft_saf_add(&s, src[i], dst[i], i, NULL);
	memset(&sr, 0, sizeof(sr));
	for (i = 0; i < a->max_steps && !sr.done && !sr.stalled; i++) {
		ft_saf_step(&s, on_deliver, &x, &sr);
		if (a->check && ft_saf_check(&s, &f)) {
			snprintf(why, wlen, "invariant %u broken at edge %u (node %u) after step %u",
				 f.what, f.edge, f.node, i + 1);
			free(x.got);
			return false;
		}
	}
	res->packets = n;
	res->steps = s.b.last;
	res->congestion = s.b.congestion;
	res->stalled = s.b.stalled;
	res->qmax = s.st.qmax;
	res->ghosts = s.st.ghosts;
	res->hops = s.st.hops;
	res->fdelays = s.st.fdelays;
	res->empty_waits = s.st.empty_waits;
	for (k = 0; k <= s.depth; k++) {
		occ->max[k] = s.st.level[k].occ_max;
		occ->sum[k] = s.st.level[k].occ_sum;
		occ->samples[k] = s.st.level[k].queues * s.st.busy_steps;
	}
	free(x.got);
	if (x.bad) {
		snprintf(why, wlen, "%u packets delivered twice or unknown",
			 x.bad);
		return false;
	}
	if (!sr.done && !sr.stalled) {
		snprintf(why, wlen, "not done after %" PRIu64 " steps",
			 a->max_steps);
		return false;
	}
	if (sr.stalled && (pt->ghosts || pt->disc != FT_SAF_RANK)) {
		snprintf(why, wlen, "stalled with %s", pt->ghosts ? "ghosts" :
			 disc_names[pt->disc]);
		return false;
	}
	if (!sr.stalled && s.st.delivered != n) {
		snprintf(why, wlen, "%" PRIu64 " of %u packets delivered",
			 s.st.delivered, n);
		return false;
	}
	return true;
}

/*
 * The units of the work: one point on one set of one shape, unit =
 * (shape x seeds + set) x points + point, in the order the serial run
 * took them. A set, and the engine's seed for its batches, come from
 * --seed, the shape's leaves, the pattern, --load and the set number
 * only. A unit's result: its struct saf_res, then its occupancy per level
 * 0..dmax: sums and samples (u64), maxima (u32).
 */
struct saf_work {
	const struct saf_args *a;
	const struct saf_shape *sh;
	const struct saf_point *pts;
	u32 npts;
	u32 levels;			/* dmax + 1 */
	size_t size;			/* bytes of a unit's result */
};

/* A unit's result, as laid out in @r. */
static void unit_view(const struct saf_work *wk, void *r, struct saf_res **res,
		      struct saf_occ *occ)
{
	char *p = r;

	*res = r;
	p += sizeof(**res);
	occ->sum = (u64 *)p;
	p += wk->levels * sizeof(u64);
	occ->samples = (u64 *)p;
	p += wk->levels * sizeof(u64);
	occ->max = (u32 *)p;
}

/* A thread's buffers for the shape and set of its last unit. */
struct saf_ws {
	u32 shape;
	u32 set;
	bool have_set;
	struct ftsim_msgs pkts;		/* that set's packets */
	void *mem;
	size_t mem_size;
	struct ft_lambda lam;
};

static void saf_ws_free(void *ctx, void *p)
{
	struct saf_ws *ws = p;

	(void)ctx;
	if (ws) {
		ftsim_msgs_free(&ws->pkts);
		free(ws->mem);
	}
	free(ws);
}

/* The buffers for shape @i (its sets of np packets, its engine). */
static struct saf_ws *saf_ws_get(const struct saf_work *wk, void **pws, u32 i)
{
	const struct saf_args *a = wk->a;
	const struct saf_shape *sh = &wk->sh[i];
	u32 np = sh->t.n * a->load, j, qmax = 0;
	struct ft_saf_params p = { .max_pkts = np };
	struct saf_ws *ws = *pws;
	size_t size;

	if (ws && ws->shape == i)
		return ws;
	saf_ws_free(NULL, ws);
	*pws = ws = calloc(1, sizeof(*ws));
	for (j = 0; j < wk->npts; j++)
		qmax = ft_max_u32(qmax, wk->pts[j].q);
	p.q = qmax;
	size = ft_saf_mem_size(&sh->t, &p);
	if (ws) {
		ws->shape = i;
		ws->mem_size = size;
		if (size)
			ws->mem = malloc(size);
	}
	if (!ws || ftsim_msgs_reserve(&ws->pkts, np) || !ws->mem) {
		ftsim_err("ftsim saf: %s: out of memory (%zu bytes)\n", sh->desc, size);
		return NULL;
	}
	return ws;
}

static int run_point(void *ctx, void **pws, u64 u, void *r)
{
	const struct saf_work *wk = ctx;
	const struct saf_args *a = wk->a;
	u32 j = (u32)(u % wk->npts), k = (u32)(u / wk->npts % a->seeds);
	u32 i = (u32)(u / wk->npts / a->seeds);
	const struct saf_shape *sh = &wk->sh[i];
	const struct saf_point *pt = &wk->pts[j];
	u32 n = sh->t.n, np = n * a->load;
	struct saf_res *res;
	struct saf_occ occ;
	struct saf_ws *ws;
	char why[160];

	ws = saf_ws_get(wk, pws, i);
	if (!ws)
		return -1;
	if (!ws->have_set || ws->set != k) {
		ws->have_set = false;
		make_set(a, &sh->t, k, ws->pkts.src, ws->pkts.dst);
		ws->pkts.n = np;
		if (ftsim_lambda(&sh->t, &ws->pkts, &ws->lam)) {
			ftsim_err("ftsim saf: %s: cannot compute lambda\n", sh->desc);
			return -1;
		}
		ws->set = k;
		ws->have_set = true;
	}
	unit_view(wk, r, &res, &occ);
	ftsim_progress("ftsim saf: %s: set %u of %u: %s, ghosts %s, q %u",
		       sh->desc, k + 1, a->seeds, disc_names[pt->disc],
		       onoff_names[pt->ghosts], pt->q);
	if (!run_batch(a, sh, pt, ftsim_derive(ftsim_derive(a->seed, n), k),
		       ws->pkts.src, ws->pkts.dst, np, ws->mem, ws->mem_size, &occ, res, why,
		       sizeof(why))) {
		ftsim_err("ftsim saf: %s, set %u, %s, ghosts %s, q %u: %s\n",
			  sh->desc, k + 1, disc_names[pt->disc],
			  onoff_names[pt->ghosts], pt->q, why);
		return -1;
	}
	res->load = ws->lam.load;
	res->cap = ws->lam.cap;
	return 0;
}

/*
 * Every point on every set of every shape, on --jobs threads and the MPI
 * ranks; on rank 0 the runs and occupancy into @pr (each shape's points'
 * runs allocated), in set order.
 */
static int run_shapes(const struct saf_args *a, const struct saf_shape *sh,
		      u32 nsh, const struct saf_point *pts, u32 npts,
		      struct saf_pres **pr)
{
	struct saf_work wk = { .a = a, .sh = sh, .pts = pts, .npts = npts };
	struct ftsim_work w = {
		.cmd = CMD, .jobs = a->jobs, .ctx = &wk, .run = run_point,
		.worker_free = saf_ws_free,
	};
	u32 i, j, k, lv, depth = 0;
	char *all = NULL;
	int rc;

	for (i = 0; i < nsh; i++)
		depth = ft_max_u32(depth, ft_saf_depth(&sh[i].t));
	wk.levels = depth + 1;
	wk.size = (sizeof(struct saf_res) + wk.levels * (2 * sizeof(u64) + sizeof(u32)) + 7) &
		  ~(size_t)7;
	w.size = wk.size;
	w.units = (u64)nsh * a->seeds * npts;
	if (!ftsim_mpi_rank()) {
		all = calloc(w.units, wk.size);
		if (!all) {
			fprintf(stderr, "ftsim saf: out of memory for %" PRIu64 " batches' results\n",
				w.units);
			return FTSIM_EXIT_FAIL;
		}
	}
	rc = ftsim_work_run(&w, all);
	for (i = 0; !rc && all && i < nsh; i++) {
		for (k = 0; k < a->seeds; k++) {
			for (j = 0; j < npts; j++) {
				struct saf_pres *p = &pr[i][j];
				struct saf_res *res;
				struct saf_occ occ;

				unit_view(&wk, all + (((u64)i * a->seeds + k) * npts + j) * wk.size,
					  &res, &occ);
				p->run[k] = *res;
				for (lv = 0; lv < wk.levels; lv++) {
					p->occ_max[lv] = ft_max_u32(p->occ_max[lv], occ.max[lv]);
					p->occ_sum[lv] += occ.sum[lv];
					p->occ_samples[lv] += occ.samples[lv];
				}
			}
		}
	}
	free(all);
	return rc;
}

/* --- reporting --- */

/* A point's summary over the runs that finished. */
struct saf_sum {
	struct ftsim_stat steps;
	struct ftsim_stat c;
	struct ftsim_stat lambda;
	struct ftsim_stat by_c;		/* T / (c + L + lg N) */
	struct ftsim_stat by_lambda;	/* T / (lambda + lg M) */
	double tail[4];			/* T - L: p50, p90, p99, max */
	u32 runs;
	u32 stalled;
	u32 qmax;
	double ghosts_per_hop;
};

static void summarize(const struct saf_args *a, const struct saf_shape *sh,
		      const struct saf_pres *pr, struct saf_sum *s)
{
	u32 L = ft_saf_depth(&sh->t), k;
	double *tl = calloc(a->seeds, sizeof(*tl));
	u64 ghosts = 0, hops = 0;
	double lam;

	memset(s, 0, sizeof(*s));
	ftsim_stat_init(&s->steps);
	ftsim_stat_init(&s->c);
	ftsim_stat_init(&s->lambda);
	ftsim_stat_init(&s->by_c);
	ftsim_stat_init(&s->by_lambda);
	for (k = 0; k < a->seeds; k++) {
		const struct saf_res *r = &pr->run[k];

		s->qmax = ft_max_u32(s->qmax, r->qmax);
		ghosts += r->ghosts;
		hops += r->hops;
		if (r->stalled) {
			s->stalled++;
			continue;
		}
		lam = (double)r->load / (double)r->cap;
		ftsim_stat_add(&s->steps, r->steps);
		ftsim_stat_add(&s->c, r->congestion);
		ftsim_stat_add(&s->lambda, lam);
		ftsim_stat_add(&s->by_c, (double)r->steps /
			       (r->congestion + L + ft_ilog2_ceil(r->packets)));
		ftsim_stat_add(&s->by_lambda, r->steps / (lam + sh->lg_m));
		if (tl)
			tl[s->runs] = r->steps - L;
		s->runs++;
	}
	if (tl) {
		ftsim_sort(tl, s->runs);
		s->tail[0] = ftsim_percentile(tl, s->runs, 50);
		s->tail[1] = ftsim_percentile(tl, s->runs, 90);
		s->tail[2] = ftsim_percentile(tl, s->runs, 99);
		s->tail[3] = ftsim_percentile(tl, s->runs, 100);
	}
	s->ghosts_per_hop = hops ? (double)ghosts / (double)hops : 0;
	free(tl);
}

static void print_tables(const struct saf_args *a, const struct saf_shape *sh,
			 u32 nsh, const struct saf_point *pts, u32 npts,
			 struct saf_pres **res)
{
	struct saf_sum s;
	u32 i, j, best = 0;

	printf("ftsim saf: store-and-forward through edge queues (Leighton et al. 1994), %s x%u,\n"
	       "path %s, ranks %s, picks %u%s, rank range %u; %u set%s per shape from seed %" PRIu64 "\n",
	       ft_pattern_name(a->pattern), a->load, path_names[a->path],
	       ranks_names[a->ranks], a->picks,
	       a->picks ? "" : " (one per edge)", a->rank_range, a->seeds,
	       a->seeds > 1 ? "s" : "", a->seed);
	printf("T: steps to the last delivery (at least L + 1); c: packets per edge of the\n"
	       "busiest link; L = 2h; lg N: packets; lg M: root capacity; means over the sets\n"
	       "that finished, (min-max); T - L over the sets: p50, p99, max\n");
	for (i = 0; i < nsh; i++) {
		printf("\n%s: %u leaves, L = %u, lg M = %u\n", sh[i].desc,
		       sh[i].t.n, ft_saf_depth(&sh[i].t), sh[i].lg_m);
		printf("%-9s %-6s %3s %7s %6s %7s %7s  %-18s %-18s %4s %4s %4s %7s %4s %8s\n",
		       "disc", "ghosts", "q", "packets", "c", "lambda", "T",
		       "T/(c+L+lgN)", "T/(lambda+lgM)", "p50", "p99", "max",
		       "stalled", "qmax", "ghost/hop");
		for (j = 0; j < npts; j++) {
			summarize(a, &sh[i], &res[i][j], &s);
			printf("%-9s %-6s %3u %7u ", disc_names[pts[j].disc],
			       pts[j].disc ? "-" : onoff_names[pts[j].ghosts],
			       pts[j].q, res[i][j].run[0].packets);
			if (!s.runs) {
				printf("%6s %7s %7s  %-18s %-18s %4s %4s %4s", "-",
				       "-", "-", "-", "-", "-", "-", "-");
			} else {
				char bc[32], bl[32];

				snprintf(bc, sizeof(bc), "%.2f (%.2f-%.2f)",
					 s.by_c.mean, s.by_c.min, s.by_c.max);
				snprintf(bl, sizeof(bl), "%.2f (%.2f-%.2f)",
					 s.by_lambda.mean, s.by_lambda.min,
					 s.by_lambda.max);
				printf("%6.1f %7.2f %7.1f  %-18s %-18s %4.0f %4.0f %4.0f",
				       s.c.mean, s.lambda.mean, s.steps.mean, bc,
				       bl, s.tail[0], s.tail[2], s.tail[3]);
			}
			printf(" %3u/%-3u %4u %8.2f\n", s.stalled, a->seeds,
			       s.qmax, s.ghosts_per_hop);
		}
	}
	/* the largest shape, random ranks with ghosts: the headline */
	for (i = 1; i < nsh; i++)
		if (sh[i].t.n > sh[best].t.n)
			best = i;
	printf("\nlargest: %s, rank with ghosts:\n", sh[best].desc);
	for (j = 0; j < npts; j++) {
		if (pts[j].disc != FT_SAF_RANK || !pts[j].ghosts)
			continue;
		summarize(a, &sh[best], &res[best][j], &s);
		printf("  q %u: T/(c+L+lgN) %.2f (%.2f-%.2f over %u sets), T - L p99 %.0f max %.0f, max queue %u of %u\n",
		       pts[j].q, s.by_c.mean, s.by_c.min, s.by_c.max, s.runs,
		       s.tail[2], s.tail[3], s.qmax, pts[j].q);
	}
}

/* {"mean", "min", "max"} of @s, nulls when it holds nothing. */
static void json_stat(struct ftsim_json *j, const char *key,
		      const struct ftsim_stat *s, int prec)
{
	static const char *const name[3] = { "mean", "min", "max" };
	const double v[3] = { s->mean, s->min, s->max };
	int i;

	ftsim_json_obj(j, key);
	for (i = 0; i < 3; i++)
		ftsim_json_num(j, name[i], s->n ? v[i] : __builtin_nan(""), prec);
	ftsim_json_end(j, '}');
}

static void json_point(struct ftsim_json *j, const struct saf_args *a,
		       const struct saf_shape *sh, const struct saf_point *pt,
		       const struct saf_pres *pr)
{
	struct saf_sum s;
	u32 k, L = ft_saf_depth(&sh->t);

	summarize(a, sh, pr, &s);
	ftsim_json_obj(j, NULL);
	ftsim_json_str(j, "discipline", disc_names[pt->disc]);
	ftsim_json_bool(j, "ghosts", pt->ghosts);
	ftsim_json_u64(j, "q", pt->q);
	ftsim_json_arr(j, "runs");
	for (k = 0; k < a->seeds; k++) {
		const struct saf_res *r = &pr->run[k];

		ftsim_json_obj(j, NULL);
		ftsim_json_u64(j, "packets", r->packets);
		ftsim_json_bool(j, "stalled", r->stalled);
		ftsim_json_u64(j, "T", r->steps);
		ftsim_json_u64(j, "congestion", r->congestion);
		ftsim_json_u64(j, "lambda_load", r->load);
		ftsim_json_u64(j, "lambda_cap", r->cap);
		ftsim_json_num(j, "lambda", (double)r->load / (double)r->cap, 6);
		ftsim_json_u64(j, "lg_n", ft_ilog2_ceil(r->packets));
		ftsim_json_u64(j, "qmax", r->qmax);
		ftsim_json_u64(j, "ghosts", r->ghosts);
		ftsim_json_u64(j, "hops", r->hops);
		ftsim_json_u64(j, "fdelays", r->fdelays);
		ftsim_json_u64(j, "empty_waits", r->empty_waits);
		ftsim_json_end(j, '}');
	}
	ftsim_json_end(j, ']');
	ftsim_json_u64(j, "finished", s.runs);
	ftsim_json_u64(j, "stalled", s.stalled);
	json_stat(j, "T", &s.steps, 3);
	json_stat(j, "congestion", &s.c, 3);
	json_stat(j, "lambda", &s.lambda, 4);
	json_stat(j, "T_over_c_L_lgN", &s.by_c, 4);
	json_stat(j, "T_over_lambda_lgM", &s.by_lambda, 4);
	ftsim_json_obj(j, "T_minus_L");
	ftsim_json_num(j, "p50", s.tail[0], 0);
	ftsim_json_num(j, "p90", s.tail[1], 0);
	ftsim_json_num(j, "p99", s.tail[2], 0);
	ftsim_json_num(j, "max", s.tail[3], 0);
	ftsim_json_end(j, '}');
	ftsim_json_u64(j, "qmax", s.qmax);
	ftsim_json_num(j, "ghosts_per_hop", s.ghosts_per_hop, 4);
	ftsim_json_arr(j, "occupancy");
	for (k = 1; k <= L; k++) {
		ftsim_json_obj(j, NULL);
		ftsim_json_u64(j, "level", k);
		ftsim_json_u64(j, "max", pr->occ_max[k]);
		ftsim_json_num(j, "mean", pr->occ_samples[k] ?
			       (double)pr->occ_sum[k] / pr->occ_samples[k] : 0, 4);
		ftsim_json_end(j, '}');
	}
	ftsim_json_end(j, ']');
	ftsim_json_end(j, '}');
}

static void print_json(const struct saf_args *a, const struct saf_shape *sh,
		       u32 nsh, const struct saf_point *pts, u32 npts,
		       struct saf_pres **res)
{
	struct ftsim_json j;
	u32 i, k, lanes[FT_MAX_LEVELS];

	ftsim_json_start(&j, stdout, "saf");
	ftsim_json_str(&j, "pattern", ft_pattern_name(a->pattern));
	ftsim_json_u64(&j, "load", a->load);
	ftsim_json_str(&j, "path", path_names[a->path]);
	ftsim_json_str(&j, "ranks", ranks_names[a->ranks]);
	ftsim_json_u64(&j, "picks", a->picks);
	ftsim_json_u64(&j, "rank_range", a->rank_range);
	ftsim_json_u64(&j, "seeds", a->seeds);
	ftsim_json_u64(&j, "seed", a->seed);
	ftsim_json_u64(&j, "max_steps", a->max_steps);
	ftsim_json_arr(&j, "shapes");
	for (i = 0; i < nsh; i++) {
		const struct ft_topo *t = &sh[i].t;

		ftsim_json_obj(&j, NULL);
		ftsim_json_str(&j, "name", sh[i].desc);
		ftsim_json_u64(&j, "leaves", t->n);
		ftsim_json_u64(&j, "levels", t->h);
		ftsim_json_u32s(&j, "m", &t->m[1], t->h);
		ftsim_json_u32s(&j, "w", &t->w[1], t->h);
		for (k = 0; k < t->h; k++)
			lanes[k] = t->lanes[k + 1];
		ftsim_json_u32s(&j, "lanes", lanes, t->h);
		ftsim_json_u64(&j, "depth", ft_saf_depth(t));
		ftsim_json_u64(&j, "lg_m", sh[i].lg_m);
		ftsim_json_arr(&j, "points");
		for (k = 0; k < npts; k++)
			json_point(&j, a, &sh[i], &pts[k], &res[i][k]);
		ftsim_json_end(&j, ']');
		ftsim_json_end(&j, '}');
	}
	ftsim_json_end(&j, ']');
	ftsim_json_finish(&j);
}

int ftsim_saf(int argc, char **argv)
{
	struct saf_shape sh[MAX_SIZES];
	struct saf_point pts[FT_SAF_DISC_NR * 2 * MAX_QS];
	struct saf_pres *res[MAX_SIZES] = { NULL };
	struct saf_args a;
	u32 nsh = 0, npts, i, j;
	int rc = 0;

	if (saf_args(argc, argv, &a) || make_shapes(&a, sh, &nsh))
		return FTSIM_EXIT_USAGE;
	npts = make_points(&a, pts);
	/* rank 0 sums the runs up */
	for (i = 0; i < nsh && !rc && !ftsim_mpi_rank(); i++) {
		res[i] = calloc(npts, sizeof(*res[i]));
		for (j = 0; res[i] && j < npts; j++) {
			res[i][j].run = calloc(a.seeds, sizeof(struct saf_res));
			if (!res[i][j].run)
				break;
		}
		if (!res[i] || j < npts) {
			fprintf(stderr, "ftsim saf: out of memory\n");
			rc = FTSIM_EXIT_FAIL;
		}
	}
	if (!rc)
		rc = run_shapes(&a, sh, nsh, pts, npts, res);
	ftsim_progress_done();
	if (!rc && !ftsim_mpi_rank() && a.json)
		print_json(&a, sh, nsh, pts, npts, res);
	else if (!rc && !ftsim_mpi_rank())
		print_tables(&a, sh, nsh, pts, npts, res);
	for (i = 0; i < nsh; i++) {
		for (j = 0; res[i] && j < npts; j++)
			free(res[i][j].run);
		free(res[i]);
	}
	return rc;
}
