// SPDX-License-Identifier: GPL-2.0
/*
 * ftsim cycles: message batches through the delivery-cycle engine.
 *
 * For each capacity profile and target load factor, message sets M with
 * lambda(M) <= target (lambda from ft_lambda(), the engine core's own)
 * are run to completion:
 *  - GREEDY, RANDOM, RANDOM' (seed 000): the messages are queued in an
 *    ft_pairs pool and ft_pairs_cycle() runs delivery cycles on an
 *    ft_fabric until every message is delivered (or the cap), exactly
 *    the kernel's per-cycle driver with the fabric's injection rule;
 *  - offline: Leiserson's schedule (seed 004 Theorem 1) from
 *    ft_sched_leiserson(); its cycles are its one-cycle sets, checked by
 *    the library's validator and, on w = 1 trees, replayed through the
 *    engine one set per cycle, each of which must cross in one cycle.
 * Reported: cycles used, lambda, cycles / lambda (every algorithm needs
 * at least ceil(lambda)).
 *
 * A set is built to a target lambda (--messages) or is a traffic
 * pattern with --count messages per flow (--pattern: its points are the
 * counts). With path circuit, scheduled or scheduled-random a scheduler
 * runs beside the engine: fattreed's round (ft_round_run(), rounds.c)
 * every --round-period cycles, its circuits in place --round-delay cycles
 * after it read the fabric.
 *
 * Every algorithm of a point runs on the same message sets; a set
 * depends only on --seed, the profile, the target and the set number.
 * The sets are the units of the work (par.c): --jobs threads and MPI
 * ranks share them out, and rank 0 prints them in order, so the output
 * is the same for any number of either.
 */
#include <getopt.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "ftsim.h"
#include "ft_load.h"
#include "ft_math.h"
#include "ft_pairs.h"
#include "ft_rand.h"
#include "sched/ft_sched.h"
#include "sched/ft_sched_check.h"
#include "rounds.h"

#define CMD		"cycles"
#define MAX_PROFILES	16
#define MAX_LAMBDAS	32
#define MAX_SEEDS	10000U
#define MAX_MSGS	FT_PAIRS_MAX
#define DEFAULT_SEEDS	5U
#define DEFAULT_CAP	100000ULL

enum inj {
	INJ_ALL,
	INJ_RANDOM,
	INJ_RANDOM_PRIME,
	INJ_OFFLINE,
	INJ_OFFLINE_COMPACT,
	INJ_N,
	INJ_DEFAULT = INJ_OFFLINE_COMPACT,	/* the first four */
};

static const char *const inj_names[INJ_N] = {
	"all", "random", "random-prime", "offline", "offline-compact",
};

static const char *const inj_titles[INJ_N] = {
	"GREEDY", "RANDOM", "RANDOM'", "offline", "off-compact",
};

enum msgs {
	MSGS_FILL,
	MSGS_RANDOM,
	MSGS_PERMUTATION,
	MSGS_ADVERSARIAL,
	MSGS_N,
};

static const char *const msgs_names[MSGS_N] = {
	"fill", "random", "permutation", "adversarial",
};

struct cyc_args {
	struct ftsim_shape sh;
	u32 nprof;
	struct ftsim_profile prof[MAX_PROFILES];
	u32 ninj;
	int inj[INJ_N];
	u32 nlambda;
	u64 lambda[MAX_LAMBDAS];	/* thousandths */
	u32 seeds;
	u64 seed;
	u32 msgs;
	u32 path;
	u32 arb;
	u64 max_cycles;
	u32 r_q16, k1_q16, k2_q16;
	bool json;
	unsigned int jobs;
	int pattern;		/* -1: sets to a lambda; else its points are counts */
	u32 hot_pct;
	bool sched;		/* a scheduler runs: @rounds */
	struct ftsim_rounds rounds;
};

/* The patterns cycles runs (one destination per source). */
static const enum ft_pattern cyc_patterns[] = {
	FT_PATTERN_PERMUTATION, FT_PATTERN_BIT_REVERSAL, FT_PATTERN_TRANSPOSE,
	FT_PATTERN_SHIFT, FT_PATTERN_HOT_SPOT, FT_PATTERN_UNIFORM,
};
#define CYC_NPATTERNS	(sizeof(cyc_patterns) / sizeof(cyc_patterns[0]))

/* One message set and what every algorithm did with it. */
struct set_run {
	u32 nmsg;
	u32 load;		/* lambda = load / cap */
	u64 cap;
	u64 cycles[INJ_N];
	bool drained[INJ_N];
	u32 spilled[2];		/* offline, offline-compact; w > 1 trees */
	struct ftsim_rounds_res sched[INJ_N];	/* the scheduler's, engine runs */
};

struct point {
	u64 target;		/* thousandths; with --pattern, messages per flow */
	struct set_run *run;	/* seeds, in the work's results */
};

struct prof_res {
	struct ft_topo t;
	u32 r_q16;		/* RANDOM's congestion parameter in use */
	struct point pt[MAX_LAMBDAS];
};

void ftsim_cycles_usage(FILE *f)
{
	fprintf(f,
		"usage: ftsim cycles [--shape SPEC] [--profile LIST] [--lanes c1,...,cH]\n"
		"                    [--injection LIST] [--lambda LIST] [--seeds N]\n"
		"                    [--messages fill|random|permutation|adversarial]\n"
		"                    [--pattern permutation|bit-reversal|transpose|shift|hot-spot|uniform]\n"
		"                    [--count LIST] [--hot-percent P]\n"
		"                    [--path dmodk|random|firstfree|scheduled|scheduled-random|circuit]\n"
		"                    [--algorithm levelwise|local-greedy|local-random|random|optimal|none]\n"
		"                    [--order given|source|random|farthest] [--release-on-failure]\n"
		"                    [--random-fit] [--round-period R] [--round-delay D]\n"
		"                    [--lease L] [--idle I] [--threshold N] [--colliding[=yes|no]]\n"
		"                    [--max-lanes N]\n"
		"                    [--arbitration random|fixed]\n"
		"                    [--max-cycles N] [--seed S]\n"
		"                    [--r R] [--k1 K1] [--k2 K2] [--json] [--jobs N]\n"
		"Message batches through the delivery-cycle engine (ft_fabric + ft_pairs,\n"
		"the kernel's per-cycle driver) until drained: for each profile and target\n"
		"load factor lambda, N message sets with lambda(M) <= target, run by each\n"
		"injection rule; prints cycles used, lambda and cycles/lambda (at least 1\n"
		"for any algorithm: a set needs ceil(lambda) cycles).\n"
		"  --shape SPEC        binary:N (Leiserson's binary fat-tree, N a power of\n"
		"                      two; default binary:256), kary:L:K (the FT(L,K)\n"
		"                      of Ding et al., 2006) or xgft:H:m1,...,mH:w1,...,wH\n"
		"  --profile LIST      capacity profiles, comma-separated, each run in turn:\n"
		"                      constant[:B] (B lanes per link), doubling[:B],\n"
		"                      standard[:B], area[:B], volume[:B] (B: capacity at\n"
		"                      the leaves, default 1), universal:R (R: root\n"
		"                      capacity); default doubling on binary trees,\n"
		"                      constant:1 otherwise\n"
		"  --lanes c1,...,cH   an explicit profile (lanes of each link of level i)\n"
		"  --injection LIST    all (GREEDY: every waiting message every cycle),\n"
		"                      random (RANDOM), random-prime (RANDOM'), offline\n"
		"                      (Leiserson's schedule, Theorem 1: one LCA level\n"
		"                      after the other; cycles = its one-cycle sets),\n"
		"                      offline-compact (the same sets, each packed into\n"
		"                      the first cycle it fits); default all,random,\n"
		"                      random-prime,offline\n"
		"  --lambda LIST       target load factors, decimals (default 1,2,4,8,16)\n"
		"  --seeds N           message sets per point (default %u)\n"
		"  --messages KIND     how a set reaches its target: fill (default): random\n"
		"                      pairs, each kept if lambda stays <= target, until\n"
		"                      %u misses in a row (or 8 per leaf, if more);\n"
		"                      random: random pairs until the next one would exceed\n"
		"                      the target; permutation: random permutations one\n"
		"                      after the other, cut where the next message would\n"
		"                      exceed it (k whole permutations on a doubling tree\n"
		"                      give lambda = k); adversarial: the set of Theorem 9\n"
		"                      of Greenberg and Leiserson (1986) for GREEDY\n"
		"                      (binary shapes): out of the left half, in each\n"
		"                      subtree three quarters get lambda*cap/6\n"
		"                      messages and the last quarter (the one\n"
		"                      fixed arbitration serves last) recurses; the proof\n"
		"                      wants the standard profile, --arbitration fixed and\n"
		"                      lambda >= 12\n"
		"  --pattern P         instead of --messages: a traffic pattern, one\n"
		"                      destination per leaf: permutation (uniform),\n"
		"                      bit-reversal, transpose (the leaf's digits reversed,\n"
		"                      the low floor(digits/2) moved to the top: bits on\n"
		"                      power-of-two shapes,\n"
		"                      base K on FT(L,K)), shift (i -> i + n/2), hot-spot,\n"
		"                      uniform (a random leaf per source); a new draw per\n"
		"                      set\n"
		"  --count LIST        with --pattern, messages per flow, each a point\n"
		"                      (default 4)\n"
		"  --hot-percent P     hot-spot: sources sent to the hot leaf (default 10)\n"
		"  --path P            how messages choose up-ports: dmodk (default),\n"
		"                      random, firstfree (w = 1 trees have one path);\n"
		"                      scheduled and scheduled-random: a pair's circuit,\n"
		"                      else dmodk's or random's path, with a scheduler\n"
		"                      granting circuits (below); circuit: only circuits\n"
		"                      carry messages\n"
		"  --algorithm A       the scheduler of those three: fattreed's round\n"
		"                      (lib/sched/ft_round.h) with levelwise (default),\n"
		"                      local-greedy, local-random, random or optimal;\n"
		"                      none: no circuits (scheduled runs as its default\n"
		"                      path)\n"
		"  --order O, --release-on-failure, --random-fit, --lease L, --idle I,\n"
		"  --threshold N, --colliding[=yes|no], --max-lanes N\n"
		"                      the round's options, as fattreed's (fattreed(8)):\n"
		"                      order given (by weight), lease 64, idle 32 under\n"
		"                      circuit and 1 under scheduled, colliding pairs, lanes\n"
		"                      as the backlog wants, by default\n"
		"  --round-period R    a round every R cycles (default 1)\n"
		"  --round-delay D     a round's circuits are in place D cycles after it\n"
		"                      read the fabric (default 1; 0: for the next cycle)\n"
		"  --arbitration A     who wins a congested link: random (default), fixed\n"
		"  --max-cycles N      give up on a run after N cycles (default %llu)\n"
		"  --seed S            base seed (default 1); equal seeds, equal output\n"
		"  --r R, --k1 K1, --k2 K2\n"
		"                      RANDOM's congestion parameter and constants\n"
		"                      (default: r computed from the profile, k1 = 4r,\n"
		"                      k2 = r)\n"
		"  --json              one JSON document on stdout instead of the tables\n"
		"  --jobs N            run the message sets on N threads (default 1); any\n"
		"                      N, and any number of MPI ranks (mpirun, srun), give\n"
		"                      the same output\n"
		"Progress goes to stderr when it is a terminal. Exit 0 done, 1 a check\n"
		"failed, 2 bad arguments.\n"
		"Example: ftsim cycles --shape binary:256 --profile doubling,standard --lambda 1,4,16\n",
		DEFAULT_SEEDS, 4096U, (unsigned long long)DEFAULT_CAP);
}

static int parse_injections(const char *s, struct cyc_args *a)
{
	static const char *const names[] = {
		"all", "random", "random-prime", "offline", "offline-compact",
		"greedy",
	};
	/* greedy is all */
	static const int val[] = {
		INJ_ALL, INJ_RANDOM, INJ_RANDOM_PRIME, INJ_OFFLINE,
		INJ_OFFLINE_COMPACT, INJ_ALL,
	};

	return ftsim_parse_names(CMD, "--injection", s, names, 6, val, a->inj,
				 INJ_N, &a->ninj);
}

static int lambda_item(void *ctx, int k, char *word)
{
	struct cyc_args *a = ctx;

	return ftsim_parse_milli(CMD, "--lambda item", word, 1, 1000000000ULL,
				 &a->lambda[k]);
}

static int parse_lambdas(const char *s, struct cyc_args *a)
{
	return ftsim_parse_list(CMD, "--lambda", s, MAX_LAMBDAS, lambda_item, a,
				&a->nlambda);
}

static int profile_item(void *ctx, int k, char *word)
{
	struct cyc_args *a = ctx;

	(void)k;
	if (ftsim_parse_profile(CMD, "--profile item", word, &a->prof[a->nprof]))
		return -1;
	a->nprof++;
	return 0;
}

static int parse_profiles(const char *s, struct cyc_args *a)
{
	u32 n;

	return ftsim_parse_list(CMD, "--profile", s, MAX_PROFILES - 1,
				profile_item, a, &n);
}

static int parse_lanes(const char *s, struct cyc_args *a)
{
	struct ftsim_profile *pr = &a->prof[a->nprof];
	char *buf, *item[FT_MAX_LEVELS + 1];
	int n, i;

	n = ftsim_split(CMD, "--lanes", s, &buf, item, FT_MAX_LEVELS + 1);
	if (n < 0)
		return -1;
	if ((u32)n != a->sh.h) {
		free(buf);
		return ftsim_usage_err(CMD, "bad --lanes '%s': %d values, %s has %u levels",
				       s, n, a->sh.desc, a->sh.h);
	}
	memset(pr, 0, sizeof(*pr));
	pr->p.kind = FT_PROFILE_EXPLICIT;
	for (i = 0; i < n; i++) {
		if (ftsim_parse_u32(CMD, "--lanes item", item[i], 1,
				    FT_MAX_LANES, &pr->p.table[i])) {
			free(buf);
			return -1;
		}
	}
	free(buf);
	strcpy(pr->name, "explicit");
	snprintf(pr->desc, sizeof(pr->desc), "explicit:%s", s);
	a->nprof++;
	return 0;
}

/* The scheduler: on the three path choices made for one, unless none. */
static int cyc_sched_args(struct cyc_args *a, int algo, const char *opt)
{
	bool for_sched = a->path == FT_PATH_CIRCUIT || a->path == FT_PATH_SCHEDULED ||
			 a->path == FT_PATH_SCHEDULED_RANDOM;

	if (opt && !for_sched)
		return ftsim_usage_err(CMD, "%s is the scheduler's: it needs --path scheduled,"
				       " scheduled-random or circuit, not %s", opt,
				       ftn_path_names[a->path]);
	if (a->path == FT_PATH_CIRCUIT && algo < 0)
		return ftsim_usage_err(CMD, "--path circuit carries nothing without a"
				       " scheduler (--algorithm none)");
	a->sched = for_sched && algo >= 0;
	if (!a->sched)
		return 0;
	a->rounds.o.sched.algo = algo;
	a->rounds.o.path = a->path;
	return 0;
}

static int count_item(void *ctx, int k, char *word)
{
	struct cyc_args *a = ctx;
	u32 v;

	if (ftsim_parse_u32(CMD, "--count item", word, 1, MAX_MSGS / a->sh.n, &v))
		return -1;
	a->lambda[k] = v;
	return 0;
}

/* --pattern's shape and --count's points (in a->lambda[]). */
static int cyc_pattern_args(struct cyc_args *a, const char *counts)
{
	struct ft_pattern_shape ps;

	ftsim_pattern_shape(&a->sh, &ps);
	if (!ft_pattern_fits(a->pattern, &ps))
		return ftsim_usage_err(CMD, "--pattern %s needs a power-of-two number of"
				       " leaves or a kary shape, not %s",
				       ft_pattern_name(a->pattern), a->sh.desc);
	return ftsim_parse_list(CMD, "--count", counts, MAX_LAMBDAS, count_item, a,
				&a->nlambda);
}

/* A Q16 constant from a decimal (thousandths). */
static u32 q16(u64 milli)
{
	return (u32)((milli * 65536 + 500) / 1000);
}

static int cyc_args(int argc, char **argv, struct cyc_args *a)
{
	static const enum ftsim_opt opts[] = {
		FTSIM_O_SHAPE, FTSIM_O_PROFILE, FTSIM_O_LANES, FTSIM_O_INJECTION,
		FTSIM_O_LAMBDA, FTSIM_O_SEEDS, FTSIM_O_MESSAGES, FTSIM_O_PATH,
		FTSIM_O_ARBITRATION, FTSIM_O_MAX_CYCLES, FTSIM_O_SEED, FTSIM_O_R,
		FTSIM_O_K1, FTSIM_O_K2, FTSIM_O_PATTERN, FTSIM_O_COUNT,
		FTSIM_O_HOT_PERCENT, FTSIM_O_ALGORITHM, FTSIM_O_ORDER, FTSIM_O_RELEASE,
		FTSIM_O_RANDOM_FIT, FTSIM_O_ROUND_PERIOD, FTSIM_O_ROUND_DELAY,
		FTSIM_O_LEASE, FTSIM_O_IDLE, FTSIM_O_THRESHOLD, FTSIM_O_COLLIDING,
		FTSIM_O_MAX_LANES, 0,
	};
	struct ftsim_getopt g = {
		.cmd = CMD, .opts = opts, .usage = ftsim_cycles_usage,
		.json = &a->json, .jobs = &a->jobs, .seed = &a->seed,
	};
	const char *profiles = NULL, *lanes = NULL, *counts = NULL, *lambdas = NULL;
	const char *sched_opt = NULL, *msgs = NULL;
	int c, algo = FT_SCHED_LEVELWISE;
	bool hot_given = false;
	u64 v;
	u32 j;

	memset(a, 0, sizeof(*a));
	a->seeds = DEFAULT_SEEDS;
	a->max_cycles = DEFAULT_CAP;
	a->path = FT_PATH_DMODK;
	a->arb = FT_ARB_RANDOM;
	a->pattern = -1;
	a->hot_pct = 10;
	ft_round_opts_default(&a->rounds.o, FT_SCHED_LEVELWISE);
	a->rounds.period = 1;
	a->rounds.delay = 1;
	for (j = 0; j < INJ_DEFAULT; j++)
		a->inj[j] = (int)j;
	a->ninj = INJ_DEFAULT;
	if (parse_lambdas("1,2,4,8,16", a) ||
	    ftsim_parse_shape(CMD, "--shape", "binary:256", &a->sh))
		return -1;
	while ((c = ftsim_getopt(&g, argc, argv)) > 0) {
		switch (c) {
		case FTSIM_O_SHAPE:
			if (ftsim_parse_shape(CMD, "--shape", optarg, &a->sh))
				return -1;
			break;
		case FTSIM_O_PROFILE:
			profiles = optarg;
			break;
		case FTSIM_O_LANES:
			lanes = optarg;
			break;
		case FTSIM_O_INJECTION:
			if (parse_injections(optarg, a))
				return -1;
			break;
		case FTSIM_O_LAMBDA:
			lambdas = optarg;
			if (parse_lambdas(optarg, a))
				return -1;
			break;
		case FTSIM_O_PATTERN:
			if (ftsim_parse_pattern(CMD, optarg, cyc_patterns, CYC_NPATTERNS,
						&a->pattern))
				return -1;
			a->pattern = (int)cyc_patterns[a->pattern];
			break;
		case FTSIM_O_COUNT:
			counts = optarg;
			break;
		case FTSIM_O_HOT_PERCENT:
			hot_given = true;
			if (ftsim_parse_u32(CMD, "--hot-percent", optarg, 0, 100, &a->hot_pct))
				return -1;
			break;
		case FTSIM_O_SEEDS:
			if (ftsim_parse_u32(CMD, "--seeds", optarg, 1, MAX_SEEDS,
					    &a->seeds))
				return -1;
			break;
		case FTSIM_O_MESSAGES:
			msgs = optarg;
			if (ftsim_parse_name(CMD, "--messages", optarg, msgs_names, MSGS_N,
					     &a->msgs))
				return -1;
			break;
		case FTSIM_O_PATH:
			if (ftsim_parse_name(CMD, "--path", optarg, ftn_path_names,
					     FT_PATH_NR, &a->path))
				return -1;
			break;
		case FTSIM_O_ALGORITHM:
			sched_opt = "--algorithm";
			algo = strcmp(optarg, "none") ? ft_sched_algo_parse(optarg) : -1;
			if (algo < 0 && strcmp(optarg, "none"))
				return ftsim_usage_err(CMD, "bad --algorithm '%s': expected levelwise,"
						       " local-greedy, local-random, random, optimal"
						       " or none", optarg);
			break;
		case FTSIM_O_ORDER:
			sched_opt = "--order";
			c = ft_sched_order_parse(optarg);
			if (c < 0)
				return ftsim_usage_err(CMD, "bad --order '%s': expected given,"
						       " source, random or farthest", optarg);
			a->rounds.o.sched.order = c;
			break;
		case FTSIM_O_RELEASE:
			sched_opt = "--release-on-failure";
			a->rounds.o.sched.release_on_failure = true;
			break;
		case FTSIM_O_RANDOM_FIT:
			sched_opt = "--random-fit";
			a->rounds.o.sched.random_fit = true;
			break;
		case FTSIM_O_ROUND_PERIOD:
			sched_opt = "--round-period";
			if (ftsim_parse_u32(CMD, "--round-period", optarg, 1, 1000000,
					    &a->rounds.period))
				return -1;
			break;
		case FTSIM_O_ROUND_DELAY:
			sched_opt = "--round-delay";
			if (ftsim_parse_u32(CMD, "--round-delay", optarg, 0, 1000000,
					    &a->rounds.delay))
				return -1;
			break;
		case FTSIM_O_LEASE:
			sched_opt = "--lease";
			if (ftsim_parse_u32(CMD, "--lease", optarg, 1, UINT32_MAX,
					    &a->rounds.o.lease))
				return -1;
			break;
		case FTSIM_O_IDLE:
			sched_opt = "--idle";
			if (ftsim_parse_u32(CMD, "--idle", optarg, 0, UINT32_MAX,
					    &a->rounds.o.idle))
				return -1;
			break;
		case FTSIM_O_THRESHOLD:
			sched_opt = "--threshold";
			if (ftsim_parse_u32(CMD, "--threshold", optarg, 0, UINT32_MAX,
					    &a->rounds.o.threshold))
				return -1;
			break;
		case FTSIM_O_COLLIDING:
			sched_opt = "--colliding";
			if (optarg && strcmp(optarg, "yes") && strcmp(optarg, "no"))
				return ftsim_usage_err(CMD, "bad --colliding '%s': expected yes or"
						       " no", optarg);
			a->rounds.o.colliding = !optarg || !strcmp(optarg, "yes");
			break;
		case FTSIM_O_MAX_LANES:
			sched_opt = "--max-lanes";
			if (ftsim_parse_u32(CMD, "--max-lanes", optarg, 0, FT_MAX_LANES,
					    &a->rounds.o.max_lanes))
				return -1;
			break;
		case FTSIM_O_ARBITRATION:
			if (ftsim_parse_name(CMD, "--arbitration", optarg, ftn_arbitration_names,
					     FT_ARB_NR, &a->arb))
				return -1;
			break;
		case FTSIM_O_MAX_CYCLES:
			if (ftsim_parse_u64(CMD, "--max-cycles", optarg, 1, 1000000000,
					    &a->max_cycles))
				return -1;
			break;
		case FTSIM_O_R:
			if (ftsim_parse_milli(CMD, "--r", optarg, 1000, 256000, &v))
				return -1;
			a->r_q16 = q16(v);
			break;
		case FTSIM_O_K1:
		case FTSIM_O_K2:
			if (ftsim_parse_milli(CMD, c == FTSIM_O_K1 ? "--k1" : "--k2",
					      optarg, 1, 1024000, &v))
				return -1;
			if (c == FTSIM_O_K1)
				a->k1_q16 = q16(v);
			else
				a->k2_q16 = q16(v);
			break;
		}
	}
	if (c < 0)
		return -1;
	if (cyc_sched_args(a, algo, sched_opt))
		return -1;
	if (a->pattern < 0 && counts)
		return ftsim_usage_err(CMD, "--count needs --pattern");
	if (a->pattern >= 0 && (lambdas || msgs))
		return ftsim_usage_err(CMD, "--pattern makes its own sets: no %s",
				       lambdas ? "--lambda" : "--messages");
	if (hot_given && a->pattern != FT_PATTERN_HOT_SPOT)
		return ftsim_usage_err(CMD, "--hot-percent %u needs --pattern hot-spot",
				       a->hot_pct);
	if (a->pattern >= 0 && cyc_pattern_args(a, counts ? counts : "4"))
		return -1;
	if (a->msgs == MSGS_ADVERSARIAL && strcmp(a->sh.kind, "binary"))
		return ftsim_usage_err(CMD, "--messages adversarial needs a binary:N shape, not %s",
				       a->sh.desc);
	/* Profiles and lanes need the final shape. */
	if (profiles && parse_profiles(profiles, a))
		return -1;
	if (lanes && parse_lanes(lanes, a))
		return -1;
	if (!a->nprof &&
	    ftsim_parse_profile(CMD, "--profile", !strcmp(a->sh.kind, "binary") ?
				"doubling" : "constant:1", &a->prof[a->nprof++]))
		return -1;
	return 0;
}

/* --- message sets --- */

/*
 * The channels of (s, d) all below their limit?  Then take them.
 * limit[i] = floor(target * cap of a level-i channel).
 */
static bool try_take(const struct ft_topo *t, u32 *loads, const u64 *limit,
		     u32 s, u32 d)
{
	u32 i, x = s, y = d;

	for (i = 0; x != y; i++) {
		if (loads[ft_load_channel(t, i, x, FT_UP)] + 1ULL > limit[i] ||
		    loads[ft_load_channel(t, i, y, FT_DOWN)] + 1ULL > limit[i])
			return false;
		x /= t->m[i + 1];
		y /= t->m[i + 1];
	}
	for (i = 0, x = s, y = d; x != y; i++) {
		loads[ft_load_channel(t, i, x, FT_UP)]++;
		loads[ft_load_channel(t, i, y, FT_DOWN)]++;
		x /= t->m[i + 1];
		y /= t->m[i + 1];
	}
	return true;
}

/* @x's lowest @bits bits reversed. */
static u32 bit_reverse(u32 x, u32 bits)
{
	u32 y = 0, i;

	for (i = 0; i < bits; i++, x >>= 1)
		y = (y << 1) | (x & 1);
	return y;
}

/*
 * Seed 000 Theorem 9's set, in the subtree of 2^@level leaves from @lo:
 * the messages leave the left half through its root channel, to the
 * right half's leaves in bit-reversed round-robin (even at every scale,
 * so no down channel is the bottleneck).  In a subtree with channel
 * capacity C, three quarters get lambda * C / 6 messages each, spread
 * evenly over their leaves, and the unfavored quarter (the highest, which
 * fixed arbitration, pairs by ascending source, serves last) the set of
 * its own size; one or two leaves: lambda * C from the last leaf.  That
 * is at most lambda * C in all.  Messages that would exceed the target
 * are left out by the caller.
 */
static int adversarial(const struct ft_topo *t, u64 target, u32 lo,
		       u32 level, u32 *k, struct ftsim_msgs *m)
{
	u32 half = t->n / 2, bits = t->h - 1, q, j, i, cnt;
	u64 c = target * ft_topo_channel_cap(t, level);

	if (level <= 1) {
		for (i = 0; i < c / 1000; i++, (*k)++)
			if (ftsim_msgs_push(m, lo + (1U << level) - 1,
					    half + bit_reverse(*k % half, bits)))
				return -1;
		return 0;
	}
	q = 1U << (level - 2);
	cnt = (u32)(c / 6000);
	for (j = 0; j < 3; j++)
		for (i = 0; i < cnt; i++, (*k)++)
			if (ftsim_msgs_push(m, lo + j * q + i % q,
					    half + bit_reverse(*k % half, bits)))
				return -1;
	return adversarial(t, target, lo + 3 * q, level - 2, k, m);
}

static int make_set(const struct cyc_args *a, const struct ft_topo *t,
		    u64 target, struct ft_rand *r, struct ftsim_msgs *m)
{
	u32 *loads = calloc(ft_topo_channels_total(t), sizeof(u32));
	u32 *perm = NULL, *order = NULL, n = t->n, s, d, j, misses = 0;
	u32 max_misses = n * 8 > 4096 ? n * 8 : 4096;
	u64 limit[FT_MAX_LEVELS];
	int rc = -1;
	u32 i;

	m->n = 0;
	if (!loads)
		return -1;
	for (i = 0; i < t->h; i++)
		limit[i] = target * ft_topo_channel_cap(t, i) / 1000;
	if (a->pattern >= 0) {	/* @target messages per flow */
		perm = malloc((size_t)n * sizeof(u32));
		if (!perm)
			goto out;
		if (ftsim_pattern_dsts(a->pattern, &a->sh, a->hot_pct, r, perm))
			goto out;
		for (s = 0; s < n; s++)
			for (j = 0; perm[s] != s && j < target; j++)
				if (ftsim_msgs_push(m, s, perm[s]))
					goto out;
		goto done;
	}
	switch (a->msgs) {
	case MSGS_ADVERSARIAL: {
		struct ftsim_msgs all = { 0 };

		j = 0;
		if (adversarial(t, target, 0, t->h - 1, &j, &all)) {
			ftsim_msgs_free(&all);
			goto out;
		}
		for (i = 0; i < all.n && m->n < MAX_MSGS; i++)
			if (try_take(t, loads, limit, all.src[i], all.dst[i]) &&
			    ftsim_msgs_push(m, all.src[i], all.dst[i]))
				break;
		rc = i < all.n && m->n < MAX_MSGS ? -1 : 0;
		ftsim_msgs_free(&all);
		goto out;
	}
	case MSGS_PERMUTATION:
		perm = malloc((size_t)n * sizeof(u32));
		order = malloc((size_t)n * sizeof(u32));
		if (!perm || !order)
			goto out;
		for (;;) {
			ft_rand_perm(r, perm, n);
			ft_rand_perm(r, order, n);
			for (j = 0; j < n; j++) {
				s = order[j];
				d = perm[s];
				if (m->n >= MAX_MSGS || !try_take(t, loads, limit, s, d))
					goto done;
				if (ftsim_msgs_push(m, s, d))
					goto out;
			}
		}
	case MSGS_RANDOM:
		while (m->n < MAX_MSGS) {
			s = ft_rand_below(r, n);
			d = ft_rand_below(r, n - 1);
			d += d >= s;
			if (!try_take(t, loads, limit, s, d))
				break;
			if (ftsim_msgs_push(m, s, d))
				goto out;
		}
		break;
	default:
		while (m->n < MAX_MSGS && misses < max_misses) {
			s = ft_rand_below(r, n);
			d = ft_rand_below(r, n - 1);
			d += d >= s;
			if (!try_take(t, loads, limit, s, d)) {
				misses++;
				continue;
			}
			misses = 0;
			if (ftsim_msgs_push(m, s, d))
				goto out;
		}
		break;
	}
done:
	rc = 0;
out:
	free(loads);
	free(perm);
	free(order);
	return rc;
}

/* --- the engine --- */

static struct ft_fabric *engine_new(const struct cyc_args *a,
				    const struct ftsim_profile *pr,
				    const struct ft_topo *t, int rule, u64 seed)
{
	struct ft_fabric_params p;
	struct ft_fabric *fab = calloc(1, sizeof(*fab));

	if (!fab)
		return NULL;
	memset(&p, 0, sizeof(p));
	p.h = a->sh.h;
	memcpy(p.m, a->sh.m, sizeof(p.m));
	memcpy(p.w, a->sh.w, sizeof(p.w));
	p.profile = pr->p;
	p.path = a->path;
	p.arb = a->arb;
	p.inject.rule = rule;
	p.inject.r_q16 = a->r_q16;
	p.inject.k1_q16 = a->k1_q16;
	p.inject.k2_q16 = a->k2_q16;
	p.seed = seed;
	p.max_msgs = ft_pairs_max_msgs(t);
	if (ft_fabric_init(fab, &p)) {
		free(fab);
		return NULL;
	}
	return fab;
}

static void engine_free(struct ft_fabric *fab)
{
	if (fab)
		ft_fabric_destroy(fab);
	free(fab);
}

/*
 * Run @m through the engine with injection @rule until drained or cap;
 * with a scheduler, fattreed's rounds beside it (its figures in @sr).
 */
static int run_engine(const struct cyc_args *a, const struct ftsim_profile *pr,
		      const struct ft_topo *t, int rule, u64 seed,
		      const struct ftsim_msgs *m, u64 *cycles, bool *drained,
		      struct ftsim_rounds_res *sr)
{
	struct ftsim_daemon *dmn = NULL;
	struct ft_cycle_result res;
	struct ftsim_rounds cfg;
	struct ft_fabric *fab;
	struct ft_pairs q;
	int rc = -1;
	u32 i;

	fab = engine_new(a, pr, t, rule, seed);
	if (!fab || ft_pairs_init(&q, m->n ? m->n : 1)) {
		engine_free(fab);
		return -1;
	}
	if (a->sched) {
		cfg = a->rounds;
		cfg.o.sched.seed = ftsim_derive(seed, 0x5c4ed);
		/* tag 1: the flows of ft_pairs_add() below */
		dmn = ftsim_daemon_new(t, m->n, 2, &cfg);
		if (!dmn)
			goto out;
	}
	for (i = 0; i < m->n; i++)
		if (ft_pairs_add(&q, m->src[i], m->dst[i], 1, 1, 0, NULL))
			goto out;
	while (q.queued && fab->cycle < a->max_cycles) {
		if (dmn && ftsim_daemon_before_cycle(dmn, &q, fab))
			goto out;
		if (ft_pairs_cycle(&q, fab, dmn ? ftsim_daemon_circuits(dmn) : NULL, NULL,
				   NULL, &res))
			goto out;
	}
	*cycles = fab->cycle;
	*drained = !q.queued;
	if (dmn)
		*sr = *ftsim_daemon_res(dmn);
	rc = 0;
out:
	ftsim_daemon_free(dmn);
	ft_pairs_destroy(&q);
	engine_free(fab);
	return rc;
}

/*
 * Leiserson's schedule of @m: cycles = its one-cycle sets.  Checked by
 * the validator, and on w = 1 trees replayed through the engine (GREEDY,
 * one set per cycle, each must be delivered in its cycle).
 */
static int run_offline(const struct cyc_args *a, const struct ftsim_profile *pr,
		       const struct ft_topo *t, u64 seed, bool compact,
		       const struct ftsim_msgs *m, struct set_run *run,
		       const char *where)
{
	struct ft_sched_req *req = calloc((size_t)m->n + 1, sizeof(*req));
	struct ft_sched_out *out = calloc((size_t)m->n + 1, sizeof(*out));
	struct ft_sched_cycles cyc = { 0 };
	struct ft_sched_lstats st;
	struct ft_cycle_result res;
	struct ft_fabric *fab = NULL;
	struct ft_pairs q = { 0 };
	struct ft_sched *s = ft_sched_create(t);
	char why[256];
	int rc = -1;
	u32 i, c, k;

	if (!req || !out || !s)
		goto oom;
	for (i = 0; i < m->n; i++)
		req[i] = (struct ft_sched_req){ m->src[i], m->dst[i], 1 };
	if (ft_sched_leiserson(s, req, m->n, compact, out, &cyc, &st))
		goto oom;
	if (ft_sched_check_cycles(t, ft_sched_free_lanes(s), req, m->n, out,
				  &cyc, why, sizeof(why))) {
		ftsim_err("ftsim cycles: %s: the offline schedule is invalid: %s\n",
			  where, why);
		goto out;
	}
	if (st.refused || cyc.nmsg != m->n) {
		ftsim_err("ftsim cycles: %s: the offline schedule left %u of %u messages out\n",
			  where, m->n - cyc.nmsg, m->n);
		goto out;
	}
	if (a->sh.w1 && m->n) {
		fab = engine_new(a, pr, t, FT_INJECT_ALL, seed);
		if (!fab || ft_pairs_init(&q, m->n))
			goto oom;
		for (c = 0; c < cyc.n; c++) {
			for (k = cyc.start[c]; k < cyc.start[c + 1]; k++)
				if (ft_pairs_add(&q, m->src[cyc.msg[k]],
						 m->dst[cyc.msg[k]], 1, 1,
						 fab->cycle, NULL))
					goto oom;
			if (ft_pairs_cycle(&q, fab, NULL, NULL, NULL, &res))
				goto oom;
			if (q.queued) {
				ftsim_err("ftsim cycles: %s: offline cycle %u did not cross the engine in one cycle (%" PRIu64 " messages left)\n",
					  where, c, q.queued);
				goto out;
			}
		}
	}
	run->cycles[compact ? INJ_OFFLINE_COMPACT : INJ_OFFLINE] = cyc.n;
	run->drained[compact ? INJ_OFFLINE_COMPACT : INJ_OFFLINE] = true;
	run->spilled[compact] = st.spilled;
	rc = 0;
	goto out;
oom:
	ftsim_err("ftsim cycles: %s: the offline schedule failed (out of memory?)\n",
		  where);
out:
	ft_pairs_destroy(&q);
	engine_free(fab);
	ft_sched_cycles_free(&cyc);
	ft_sched_destroy(s);
	free(req);
	free(out);
	return rc;
}

/* FNV-1a: a profile's sets follow its name, not its place in the list. */
static u64 name_hash(const char *s)
{
	u64 h = 0xcbf29ce484222325ULL;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 0x100000001b3ULL;
	return h;
}

/*
 * The units of the work: one message set of one point, unit = (profile x
 * lambdas + lambda) x seeds + set; a unit's result is its struct set_run.
 * A set, and the engine's seeds for it, come from --seed, the profile's
 * name, the target and the set number only.
 */
struct cyc_work {
	const struct cyc_args *a;
	const struct prof_res *res;
};

static void cyc_ws_free(void *ctx, void *p)
{
	struct ftsim_msgs *m = p;

	(void)ctx;
	if (m)
		ftsim_msgs_free(m);
	free(m);
}

static int run_set(void *ctx, void **ws, u64 u, void *result)
{
	const struct cyc_work *wk = ctx;
	const struct cyc_args *a = wk->a;
	u32 k = (u32)(u % a->seeds), li = (u32)(u / a->seeds % a->nlambda);
	u32 pi = (u32)(u / a->seeds / a->nlambda), j;
	const struct ftsim_profile *pr = &a->prof[pi];
	const struct prof_res *pres = &wk->res[pi];
	u64 target = a->lambda[li], set_seed;
	struct set_run *run = result;
	struct ft_lambda lam;
	struct ftsim_msgs *m = *ws;
	struct ft_rand r;
	char where[160];

	if (a->pattern >= 0)
		snprintf(where, sizeof(where), "profile %s, %s, count %" PRIu64 ", set %u",
			 pr->desc, ft_pattern_name(a->pattern), target, k + 1);
	else
		snprintf(where, sizeof(where), "profile %s, lambda %" PRIu64 ".%03" PRIu64
			 ", set %u", pr->desc, target / 1000, target % 1000, k + 1);
	if (!m) {
		*ws = m = calloc(1, sizeof(*m));
		if (!m) {
			ftsim_err("ftsim cycles: %s: out of memory\n", where);
			return -1;
		}
	}
	set_seed = ftsim_derive(ftsim_derive(ftsim_derive(a->seed, name_hash(pr->desc)),
					     target), k);
	ft_rand_seed(&r, set_seed);
	if (make_set(a, &pres->t, target, &r, m) || ftsim_lambda(&pres->t, m, &lam)) {
		ftsim_err("ftsim cycles: %s: cannot build the message set\n", where);
		return -1;
	}
	/* By construction; ft_lambda() is the authority. */
	if (a->pattern < 0 && (u64)lam.load * 1000 > target * lam.cap) {
		ftsim_err("ftsim cycles: %s: lambda %u/%" PRIu64 " above the target\n",
			  where, lam.load, lam.cap);
		return -1;
	}
	run->nmsg = m->n;
	run->load = lam.load;
	run->cap = lam.cap;
	for (j = 0; j < a->ninj; j++) {
		int inj = a->inj[j];

		ftsim_progress("ftsim cycles: %s: %s (%u messages)", where,
			       inj_titles[inj], m->n);
		if (inj >= INJ_OFFLINE) {
			if (run_offline(a, pr, &pres->t, ftsim_derive(set_seed, 1 + inj),
					inj == INJ_OFFLINE_COMPACT, m, run, where))
				return -1;
			continue;
		}
		if (run_engine(a, pr, &pres->t, inj, ftsim_derive(set_seed, 1 + inj), m,
			       &run->cycles[inj], &run->drained[inj], &run->sched[inj])) {
			ftsim_err("ftsim cycles: %s: %s: the engine failed\n", where,
				  inj_titles[inj]);
			return -1;
		}
		if (run->sched[inj].refused) {
			ftsim_err("ftsim cycles: %s: %s: the circuit table refused %" PRIu64
				  " of the scheduler's batches\n", where, inj_titles[inj],
				  run->sched[inj].refused);
			return -1;
		}
	}
	return 0;
}

/*
 * Every set of every point, on --jobs threads and the MPI ranks; on rank
 * 0 each point's runs then point into *@all (the caller frees it).
 */
static int run_points(const struct cyc_args *a, struct prof_res *res,
		      struct set_run **all)
{
	struct cyc_work wk = { .a = a, .res = res };
	struct ftsim_work w = {
		.cmd = CMD, .jobs = a->jobs, .ctx = &wk, .run = run_set,
		.worker_free = cyc_ws_free, .size = sizeof(struct set_run),
	};
	u32 p, l;
	int rc;

	w.units = (u64)a->nprof * a->nlambda * a->seeds;
	*all = NULL;
	if (!ftsim_mpi_rank()) {
		*all = calloc(w.units, sizeof(**all));
		if (!*all) {
			fprintf(stderr, "ftsim cycles: out of memory for %" PRIu64 " sets' results\n",
				w.units);
			return FTSIM_EXIT_FAIL;
		}
	}
	for (p = 0; p < a->nprof; p++) {
		for (l = 0; l < a->nlambda; l++) {
			res[p].pt[l].target = a->lambda[l];
			if (*all)
				res[p].pt[l].run = *all + ((u64)p * a->nlambda + l) * a->seeds;
		}
	}
	rc = ftsim_work_run(&w, *all);
	return rc;
}

/* --- reporting --- */

struct inj_sum {
	struct ftsim_stat cycles;
	struct ftsim_stat per_lambda;	/* sets with lambda > 0 */
	u32 drained;
};

static void summarize(const struct cyc_args *a, const struct point *pt,
		      int inj, struct inj_sum *s, struct ftsim_stat *lambda,
		      struct ftsim_stat *msgs, u64 *ceil_max)
{
	u32 k;

	ftsim_stat_init(&s->cycles);
	ftsim_stat_init(&s->per_lambda);
	s->drained = 0;
	if (lambda)
		ftsim_stat_init(lambda);
	if (msgs)
		ftsim_stat_init(msgs);
	if (ceil_max)
		*ceil_max = 0;
	for (k = 0; k < a->seeds; k++) {
		const struct set_run *run = &pt->run[k];
		double lam = (double)run->load / (double)run->cap;

		ftsim_stat_add(&s->cycles, (double)run->cycles[inj]);
		if (run->load)
			ftsim_stat_add(&s->per_lambda,
				       (double)run->cycles[inj] / lam);
		s->drained += run->drained[inj];
		if (lambda)
			ftsim_stat_add(lambda, lam);
		if (msgs)
			ftsim_stat_add(msgs, run->nmsg);
		if (ceil_max) {
			u64 c = ft_div_ceil64(run->load, run->cap);

			*ceil_max = c > *ceil_max ? c : *ceil_max;
		}
	}
}

static void lanes_str(const struct ft_topo *t, char *buf, size_t len)
{
	size_t off = 0;
	u32 i;

	buf[0] = '\0';
	for (i = 1; i <= t->h && off < len; i++)
		off += (size_t)snprintf(buf + off, len - off, "%s%u",
					i > 1 ? "," : "", t->lanes[i]);
}

/* A point's value: its target lambda, or with --pattern its count. */
static double point_value(const struct cyc_args *a, const struct point *pt)
{
	return a->pattern >= 0 ? (double)pt->target : pt->target / 1000.0;
}

/* What the sets are, in words. */
static const char *sets_name(const struct cyc_args *a)
{
	return a->pattern >= 0 ? ft_pattern_name(a->pattern) : msgs_names[a->msgs];
}

/* The scheduler's mean figures over a point's sets, run by @inj. */
static void sched_means(const struct cyc_args *a, const struct point *pt, int inj,
			double *v)
{
	u32 k;

	memset(v, 0, 6 * sizeof(*v));
	for (k = 0; k < a->seeds; k++) {
		const struct ftsim_rounds_res *r = &pt->run[k].sched[inj];

		v[0] += r->rounds;
		v[1] += r->requests;
		v[2] += r->granted;
		v[3] += r->lanes;
		v[4] += r->resized;
		v[5] += r->released;
	}
	for (k = 0; k < 6; k++)
		v[k] /= a->seeds;
}

static void print_sched(const struct cyc_args *a)
{
	const struct ft_round_opts *o = &a->rounds.o;

	printf("scheduler: fattreed's round with %s, order %s%s%s, a round every %u"
	       " cycle%s, in effect %u later; lease %u, idle %u, max lanes %u, %s",
	       ft_sched_algo_name(o->sched.algo), ft_sched_order_name(o->sched.order),
	       o->sched.release_on_failure ? ", release on failure" : "",
	       o->sched.random_fit ? ", random fit" : "", a->rounds.period,
	       a->rounds.period > 1 ? "s" : "", a->rounds.delay, o->lease, o->idle,
	       o->max_lanes, a->path == FT_PATH_CIRCUIT ? "every pair" :
	       o->colliding ? "colliding pairs" : "every pair");
	if (o->threshold && a->path != FT_PATH_CIRCUIT)
		printf(" above %u waiting", o->threshold);
	printf("\n");
}

static void print_tables(const struct cyc_args *a, const struct prof_res *res)
{
	struct ftsim_stat lam, msgs;
	struct inj_sum s;
	char lanes[256];
	bool capped = false, empty = false;
	u64 ceil_max;
	u32 p, l, j;

	printf("ftsim cycles: %s, %s %s, path %s, arbitration %s\n",
	       a->sh.desc, a->pattern >= 0 ? "pattern" : "messages", sets_name(a),
	       ftn_path_names[a->path], ftn_arbitration_names[a->arb]);
	if (a->sched)
		print_sched(a);
	printf("%u message set%s per point, seed %" PRIu64 ", at most %" PRIu64
	       " cycles per run\n", a->seeds, a->seeds > 1 ? "s" : "",
	       a->seed, a->max_cycles);
	printf("cycles: mean over the sets (min, max); cycles/lambda: mean of each set's\n"
	       "cycles / lambda(M); drained: sets delivered in full within the cap\n");
	for (j = 0; j < a->ninj; j++)
		if (a->inj[j] == INJ_OFFLINE_COMPACT)
			printf("off-compact: Leiserson's one-cycle sets packed first-fit (--injection offline-compact)\n");
	for (p = 0; p < a->nprof; p++) {
		const struct prof_res *pr = &res[p];

		lanes_str(&pr->t, lanes, sizeof(lanes));
		printf("\nprofile %s: lanes per level %s; RANDOM's r = %.2f\n",
		       a->prof[p].desc, lanes, pr->r_q16 / 65536.0);
		printf("%7s %8s %5s %9s  %-11s %8s %8s %8s %13s %8s\n",
		       a->pattern >= 0 ? "count" : "target", "lambda", "ceil", "messages",
		       "injection",
		       "cycles", "min", "max", "cycles/lambda", "drained");
		for (l = 0; l < a->nlambda; l++) {
			const struct point *pt = &pr->pt[l];

			for (j = 0; j < a->ninj; j++) {
				int inj = a->inj[j];

				summarize(a, pt, inj, &s, &lam, &msgs, &ceil_max);
				if (!j)
					printf("%7.3g %8.3f %5" PRIu64 " %9.1f  ",
					       point_value(a, pt), lam.mean,
					       ceil_max, msgs.mean);
				else
					printf("%7s %8s %5s %9s  ", "", "", "", "");
				printf("%-11s %8.1f %8.0f %8.0f ", inj_titles[inj],
				       s.cycles.mean, s.cycles.min, s.cycles.max);
				if (s.per_lambda.n)
					printf("%13.2f", s.per_lambda.mean);
				else
					printf("%13s", "-");
				printf(" %4u/%u\n", s.drained, a->seeds);
				if (a->sched && inj < INJ_OFFLINE) {
					double v[6];

					sched_means(a, pt, inj, v);
					printf("%7s %8s %5s %9s    rounds %.1f, circuits %.1f of %.1f"
					       " asked, lanes %.1f, resized %.1f, released %.1f\n",
					       "", "", "", "", v[0], v[2], v[1], v[3], v[4], v[5]);
				}
			}
		}
	}
	/* cycles / lambda at a glance */
	printf("\ncycles/lambda (mean over the sets)\n");
	printf("%-16s %7s %8s", "profile", a->pattern >= 0 ? "count" : "target", "lambda");
	for (j = 0; j < a->ninj; j++)
		printf(" %11s", inj_titles[a->inj[j]]);
	printf("\n");
	for (p = 0; p < a->nprof; p++) {
		for (l = 0; l < a->nlambda; l++) {
			const struct point *pt = &res[p].pt[l];
			char row[512];
			size_t off = 0, len;

			for (j = 0; j < a->ninj && off < sizeof(row); j++) {
				summarize(a, pt, a->inj[j], &s, j ? NULL : &lam,
					  NULL, NULL);
				if (!j)
					off += (size_t)snprintf(row + off, sizeof(row) - off,
								"%-16s %7.3g %8.3f",
								a->prof[p].desc,
								point_value(a, pt),
								lam.mean);
				if (off >= sizeof(row))
					break;
				if (s.per_lambda.n) {
					off += (size_t)snprintf(row + off, sizeof(row) - off,
								" %10.2f%c",
								s.per_lambda.mean,
								s.drained < a->seeds ?
								'*' : ' ');
					capped |= s.drained < a->seeds;
				} else {
					off += (size_t)snprintf(row + off, sizeof(row) - off,
								" %10s ", "-");
					empty = true;
				}
			}
			len = strlen(row);
			while (len && row[len - 1] == ' ')
				row[--len] = '\0';
			printf("%s\n", row);
		}
	}
	if (capped)
		printf("* some sets not drained within the cap (--max-cycles): their cycles are the cap\n");
	if (empty)
		printf("- no message fits under the target (lambda 0): the leaf channels' capacity is above it\n");
}

static void json_stat(struct ftsim_json *j, const char *key,
		      const struct ftsim_stat *s, int prec)
{
	ftsim_json_obj(j, key);
	if (s->n) {
		ftsim_json_num(j, "mean", s->mean, prec);
		ftsim_json_num(j, "min", s->min, prec);
		ftsim_json_num(j, "max", s->max, prec);
	} else {
		ftsim_json_null(j, "mean");
		ftsim_json_null(j, "min");
		ftsim_json_null(j, "max");
	}
	ftsim_json_end(j, '}');
}

static void print_json(const struct cyc_args *a, const struct prof_res *res)
{
	struct ftsim_json j;
	struct inj_sum s;
	struct ftsim_stat lam, msgs;
	u32 p, l, k, i, lanes[FT_MAX_LEVELS];
	u64 ceil_max;

	ftsim_json_start(&j, stdout, "cycles");
	ftsim_json_obj(&j, "shape");
	ftsim_json_str(&j, "kind", a->sh.kind);
	ftsim_json_str(&j, "name", a->sh.desc);
	ftsim_json_u64(&j, "leaves", a->sh.n);
	ftsim_json_u64(&j, "levels", a->sh.h);
	ftsim_json_u32s(&j, "m", a->sh.m, a->sh.h);
	ftsim_json_u32s(&j, "w", a->sh.w, a->sh.h);
	ftsim_json_end(&j, '}');
	ftsim_json_str(&j, "messages", sets_name(a));
	ftsim_json_str(&j, "sets", a->pattern >= 0 ? "pattern" : "lambda");
	if (a->pattern == FT_PATTERN_HOT_SPOT)
		ftsim_json_u64(&j, "hot_percent", a->hot_pct);
	ftsim_json_str(&j, "path", ftn_path_names[a->path]);
	ftsim_json_str(&j, "arbitration", ftn_arbitration_names[a->arb]);
	ftsim_json_u64(&j, "sets_per_point", a->seeds);
	ftsim_json_u64(&j, "seed", a->seed);
	ftsim_json_u64(&j, "max_cycles", a->max_cycles);
	if (a->sched) {
		const struct ft_round_opts *o = &a->rounds.o;

		ftsim_json_obj(&j, "scheduler");
		ftsim_json_str(&j, "algorithm", ft_sched_algo_name(o->sched.algo));
		ftsim_json_str(&j, "order", ft_sched_order_name(o->sched.order));
		ftsim_json_bool(&j, "release_on_failure", o->sched.release_on_failure);
		ftsim_json_bool(&j, "random_fit", o->sched.random_fit);
		ftsim_json_u64(&j, "round_period", a->rounds.period);
		ftsim_json_u64(&j, "round_delay", a->rounds.delay);
		ftsim_json_u64(&j, "lease", o->lease);
		ftsim_json_u64(&j, "idle", o->idle);
		ftsim_json_u64(&j, "threshold", o->threshold);
		ftsim_json_bool(&j, "colliding", o->colliding);
		ftsim_json_u64(&j, "max_lanes", o->max_lanes);
		ftsim_json_end(&j, '}');
	}
	ftsim_json_arr(&j, "profiles");
	for (p = 0; p < a->nprof; p++) {
		const struct prof_res *pr = &res[p];

		ftsim_json_obj(&j, NULL);
		ftsim_json_str(&j, "profile", a->prof[p].name);
		ftsim_json_str(&j, "spec", a->prof[p].desc);
		for (i = 0; i < pr->t.h; i++)
			lanes[i] = pr->t.lanes[i + 1];
		ftsim_json_u32s(&j, "lanes", lanes, pr->t.h);
		ftsim_json_num(&j, "random_r", pr->r_q16 / 65536.0, 4);
		ftsim_json_arr(&j, "points");
		for (l = 0; l < a->nlambda; l++) {
			const struct point *pt = &pr->pt[l];

			ftsim_json_obj(&j, NULL);
			if (a->pattern >= 0)
				ftsim_json_u64(&j, "count", pt->target);
			else
				ftsim_json_num(&j, "target", pt->target / 1000.0, 3);
			ftsim_json_arr(&j, "sets");
			for (k = 0; k < a->seeds; k++) {
				const struct set_run *run = &pt->run[k];

				ftsim_json_obj(&j, NULL);
				ftsim_json_u64(&j, "messages", run->nmsg);
				ftsim_json_num(&j, "lambda",
					       (double)run->load / (double)run->cap, 6);
				ftsim_json_u64(&j, "lambda_load", run->load);
				ftsim_json_u64(&j, "lambda_cap", run->cap);
				ftsim_json_u64(&j, "lambda_ceil",
					       ft_div_ceil64(run->load, run->cap));
				ftsim_json_obj(&j, "cycles");
				for (i = 0; i < a->ninj; i++)
					ftsim_json_u64(&j, inj_names[a->inj[i]],
						       run->cycles[a->inj[i]]);
				ftsim_json_end(&j, '}');
				ftsim_json_obj(&j, "drained");
				for (i = 0; i < a->ninj; i++)
					ftsim_json_bool(&j, inj_names[a->inj[i]],
							run->drained[a->inj[i]]);
				ftsim_json_end(&j, '}');
				for (i = 0; a->sched && i < a->ninj; i++) {
					const struct ftsim_rounds_res *r =
						&run->sched[a->inj[i]];

					if (a->inj[i] >= INJ_OFFLINE)
						continue;
					if (!i)
						ftsim_json_obj(&j, "scheduler");
					ftsim_json_obj(&j, inj_names[a->inj[i]]);
					ftsim_json_u64(&j, "rounds", r->rounds);
					ftsim_json_u64(&j, "requests", r->requests);
					ftsim_json_u64(&j, "granted", r->granted);
					ftsim_json_u64(&j, "lanes", r->lanes);
					ftsim_json_u64(&j, "resized", r->resized);
					ftsim_json_u64(&j, "released", r->released);
					ftsim_json_end(&j, '}');
				}
				if (a->sched && a->inj[0] < INJ_OFFLINE)
					ftsim_json_end(&j, '}');
				if (!a->sh.w1) {
					ftsim_json_u64(&j, "offline_spilled",
						       run->spilled[0]);
					ftsim_json_u64(&j, "offline_compact_spilled",
						       run->spilled[1]);
				}
				ftsim_json_end(&j, '}');
			}
			ftsim_json_end(&j, ']');
			ftsim_json_arr(&j, "injections");
			for (i = 0; i < a->ninj; i++) {
				int inj = a->inj[i];

				summarize(a, pt, inj, &s, &lam, &msgs, &ceil_max);
				ftsim_json_obj(&j, NULL);
				ftsim_json_str(&j, "injection", inj_names[inj]);
				ftsim_json_str(&j, "name", inj_titles[inj]);
				json_stat(&j, "cycles", &s.cycles, 3);
				json_stat(&j, "cycles_per_lambda", &s.per_lambda, 4);
				ftsim_json_u64(&j, "drained", s.drained);
				ftsim_json_end(&j, '}');
			}
			ftsim_json_end(&j, ']');
			json_stat(&j, "lambda", &lam, 6);
			json_stat(&j, "messages", &msgs, 1);
			ftsim_json_u64(&j, "lambda_ceil_max", ceil_max);
			ftsim_json_end(&j, '}');
		}
		ftsim_json_end(&j, ']');
		ftsim_json_end(&j, '}');
	}
	ftsim_json_end(&j, ']');
	ftsim_json_finish(&j);
}

int ftsim_cycles(int argc, char **argv)
{
	struct set_run *all = NULL;
	struct prof_res *res;
	struct cyc_args a;
	u32 p;
	int rc = 0;

	if (cyc_args(argc, argv, &a))
		return FTSIM_EXIT_USAGE;
	res = calloc(a.nprof, sizeof(*res));
	if (!res) {
		fprintf(stderr, "ftsim cycles: out of memory\n");
		return FTSIM_EXIT_FAIL;
	}
	/* Every profile must fit the shape before anything runs. */
	for (p = 0; p < a.nprof; p++) {
		if (ftsim_topo(CMD, &a.sh, &a.prof[p], &res[p].t)) {
			free(res);
			return FTSIM_EXIT_USAGE;
		}
		res[p].r_q16 = a.r_q16 ? a.r_q16 : ft_congestion_r(&res[p].t);
	}
	rc = run_points(&a, res, &all);
	ftsim_progress_done();
	if (!rc && !ftsim_mpi_rank()) {
		if (a.json)
			print_json(&a, res);
		else
			print_tables(&a, res);
	}
	free(all);
	free(res);
	return rc;
}
