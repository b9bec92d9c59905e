// SPDX-License-Identifier: GPL-2.0
/*
 * ftsim: argument words, shapes and profiles, statistics, JSON, progress.
 */
#include <assert.h>
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "ftsim.h"
#include "ft_cycle.h"
#include "ft_inject.h"
#include "ft_load.h"
#include "ft_rand.h"
#include "ftnames.h"
#include "ftunits.h"
#include "linux/fattree.h"

/* The engine's policies are the spec's enums, in the same order. */
static_assert((int)FT_PATH_NR == FTN_PATH_NR &&
	      (int)FT_PATH_FIRSTFREE == (int)FATTREE_PATH_FIRSTFREE,
	      "the engine's path choices are the spec's");
static_assert((int)FT_ARB_NR == FTN_ARBITRATION_NR &&
	      (int)FT_ARB_FIXED == (int)FATTREE_ARBITRATION_FIXED,
	      "the engine's arbitrations are the spec's");
static_assert((int)FT_INJECT_NR == FTN_INJECTION_NR &&
	      (int)FT_INJECT_RANDOM_PRIME == (int)FATTREE_INJECTION_RANDOM_PRIME,
	      "the engine's injections are the spec's");

int ftsim_usage_err(const char *cmd, const char *fmt, ...)
{
	va_list ap;

	/* every rank finds the same bad word: rank 0 says it */
	if (ftsim_mpi_rank() > 0)
		return -1;
	ftsim_progress_done();
	fprintf(stderr, "ftsim %s: ", cmd);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\nTry 'ftsim %s --help'.\n", cmd);
	return -1;
}

int ftsim_getopt_err(const char *cmd, int c, char **argv)
{
	const char *word = argv[optind - 1];

	/* Long options set optopt to their value (>= 256 here), or 0. */
	bool shortopt = optopt > 0 && optopt < 256;

	if (c == ':') {
		if (shortopt)
			return ftsim_usage_err(cmd, "option '-%c' needs a value",
					       optopt);
		return ftsim_usage_err(cmd, "option '%s' needs a value", word);
	}
	if (shortopt)
		return ftsim_usage_err(cmd, "unknown option '-%c'", optopt);
	return ftsim_usage_err(cmd, "unknown or ambiguous option '%s'", word);
}

/* ftsim's options in enum ftsim_opt's order: ftsim_options() indexes it. */
static const struct option ftsim_opts[] = {
	{ "shape", required_argument, NULL, FTSIM_O_SHAPE },
	{ "levels", required_argument, NULL, FTSIM_O_LEVELS },
	{ "down", required_argument, NULL, FTSIM_O_DOWN },
	{ "up", required_argument, NULL, FTSIM_O_UP },
	{ "sizes", required_argument, NULL, FTSIM_O_SIZES },
	{ "profile", required_argument, NULL, FTSIM_O_PROFILE },
	{ "lanes", required_argument, NULL, FTSIM_O_LANES },
	{ "path", required_argument, NULL, FTSIM_O_PATH },
	{ "injection", required_argument, NULL, FTSIM_O_INJECTION },
	{ "arbitration", required_argument, NULL, FTSIM_O_ARBITRATION },
	{ "pattern", required_argument, NULL, FTSIM_O_PATTERN },
	{ "seeds", required_argument, NULL, FTSIM_O_SEEDS },
	{ "seed", required_argument, NULL, FTSIM_O_SEED },
	{ "timing", no_argument, NULL, FTSIM_O_TIMING },
	{ "lambda", required_argument, NULL, FTSIM_O_LAMBDA },
	{ "messages", required_argument, NULL, FTSIM_O_MESSAGES },
	{ "max-cycles", required_argument, NULL, FTSIM_O_MAX_CYCLES },
	{ "r", required_argument, NULL, FTSIM_O_R },
	{ "k1", required_argument, NULL, FTSIM_O_K1 },
	{ "k2", required_argument, NULL, FTSIM_O_K2 },
	{ "count", required_argument, NULL, FTSIM_O_COUNT },
	{ "algorithm", required_argument, NULL, FTSIM_O_ALGORITHM },
	{ "round-period", required_argument, NULL, FTSIM_O_ROUND_PERIOD },
	{ "round-delay", required_argument, NULL, FTSIM_O_ROUND_DELAY },
	{ "lease", required_argument, NULL, FTSIM_O_LEASE },
	{ "idle", required_argument, NULL, FTSIM_O_IDLE },
	{ "threshold", required_argument, NULL, FTSIM_O_THRESHOLD },
	{ "colliding", optional_argument, NULL, FTSIM_O_COLLIDING },
	{ "max-lanes", required_argument, NULL, FTSIM_O_MAX_LANES },
	{ "q", required_argument, NULL, FTSIM_O_Q },
	{ "ghosts", required_argument, NULL, FTSIM_O_GHOSTS },
	{ "discipline", required_argument, NULL, FTSIM_O_DISCIPLINE },
	{ "ranks", required_argument, NULL, FTSIM_O_RANKS },
	{ "picks", required_argument, NULL, FTSIM_O_PICKS },
	{ "rank-range", required_argument, NULL, FTSIM_O_RANK_RANGE },
	{ "load", required_argument, NULL, FTSIM_O_LOAD },
	{ "max-steps", required_argument, NULL, FTSIM_O_MAX_STEPS },
	{ "check", no_argument, NULL, FTSIM_O_CHECK },
	{ "trials", required_argument, NULL, FTSIM_O_TRIALS },
	{ "algorithms", required_argument, NULL, FTSIM_O_ALGORITHMS },
	{ "hot-percent", required_argument, NULL, FTSIM_O_HOT_PERCENT },
	{ "order", required_argument, NULL, FTSIM_O_ORDER },
	{ "release-on-failure", no_argument, NULL, FTSIM_O_RELEASE },
	{ "random-fit", no_argument, NULL, FTSIM_O_RANDOM_FIT },
	{ "no-check", no_argument, NULL, FTSIM_O_NO_CHECK },
	{ "fail-links", required_argument, NULL, FTSIM_O_FAIL_LINKS },
	{ "rows", required_argument, NULL, FTSIM_O_ROWS },
	{ "steps", required_argument, NULL, FTSIM_O_STEPS },
	{ "circuits", required_argument, NULL, FTSIM_O_CIRCUITS },
	{ "json", no_argument, NULL, FTSIM_O_JSON },
	{ "jobs", required_argument, NULL, FTSIM_O_JOBS },
	{ "help", no_argument, NULL, FTSIM_O_HELP },
};

static_assert(sizeof(ftsim_opts) / sizeof(ftsim_opts[0]) == FTSIM_O_END - 256,
	      "every ftsim option is spelled once");
static_assert(FTSIM_O_END - 256 <= 64, "ftsim_getopt.seen has a bit for each option");

void ftsim_options(const enum ftsim_opt *take, struct option *out)
{
	size_t n = 0;

	for (; *take; take++) {
		assert(n < FTSIM_OPTS_MAX - 1);
		assert(*take >= 256 && *take < FTSIM_O_END);
		out[n] = ftsim_opts[*take - 256];
		assert(out[n++].val == (int)*take);
	}
	out[n] = (struct option){ NULL, 0, NULL, 0 };
}

int ftsim_getopt(struct ftsim_getopt *g, int argc, char **argv)
{
	enum ftsim_opt common[4] = { 0 };
	int c, li;
	size_t n, k = 0;

	if (!g->started) {
		for (c = 1; c < argc && strcmp(argv[c], "--"); c++) {
			if (!strcmp(argv[c], "--help") || !strcmp(argv[c], "-h")) {
				g->usage(stdout);
				exit(0);
			}
		}
		/* @opts, then the common ones */
		ftsim_options(g->opts, g->all);
		for (n = 0; g->all[n].name; n++)
			assert(g->all[n].val < FTSIM_O_JSON &&
			       (g->all[n].val != FTSIM_O_SEED || g->seed));
		if (g->json) {
			common[k++] = FTSIM_O_JSON;
			*g->json = false;
		}
		if (g->jobs) {
			common[k++] = FTSIM_O_JOBS;
			*g->jobs = 1;
		}
		common[k] = FTSIM_O_HELP;
		assert(n + k + 1 < FTSIM_OPTS_MAX);
		ftsim_options(common, g->all + n);
		if (g->seed)
			*g->seed = 1;
		g->started = true;
		opterr = 0;
		optind = 1;
	}
	for (;;) {
		li = 0;
		c = getopt_long(argc, argv, ":h", g->all, &li);
		if (c == -1 && optind < argc)
			return ftsim_usage_err(g->cmd, "unexpected argument '%s'",
					       argv[optind]);
		if (c == -1)
			return 0;
		if (c == 'h' || c == FTSIM_O_HELP) {
			g->usage(stdout);
			exit(0);
		}
		if (c < 256)
			return ftsim_getopt_err(g->cmd, c, argv);
		if (g->seen & (1ULL << (c - 256)))
			return ftsim_usage_err(g->cmd, "option '--%s' given twice",
					       g->all[li].name);
		g->seen |= 1ULL << (c - 256);
		switch (c) {
		case FTSIM_O_JSON:
			*g->json = true;
			break;
		case FTSIM_O_JOBS:
			if (ftsim_parse_jobs(g->cmd, optarg, g->jobs))
				return -1;
			break;
		case FTSIM_O_SEED:
			if (ftsim_parse_u64(g->cmd, "--seed", optarg, 0, UINT64_MAX,
						    g->seed))
				return -1;
			break;
		default:
			return c;
		}
	}
}

/* @s is a whole number in @base, no sign. */
static bool whole_number(const char *s, int base, unsigned long long *x)
{
	char *end;

	errno = 0;
	*x = strtoull(s, &end, base);
	return *s && *s != '-' && *s != '+' && !*end && !errno;
}

int ftsim_parse_u64(const char *cmd, const char *opt, const char *s, u64 min,
		    u64 max, u64 *v)
{
	uint64_t x;

	/* Decimal or 0x hex, as every tool reads them: a leading 0 is not octal. */
	if (ft_parse_number(s, &x))
		return ftsim_usage_err(cmd, "bad %s '%s': expected a whole number (0x.. accepted)",
				       opt, s);
	if (x < min || x > max)
		return ftsim_usage_err(cmd, "bad %s '%s': expected %" PRIu64 " to %" PRIu64,
				       opt, s, min, max);
	*v = x;
	return 0;
}

int ftsim_parse_u32(const char *cmd, const char *opt, const char *s, u32 min,
		    u32 max, u32 *v)
{
	unsigned long long x;

	if (!whole_number(s, 10, &x) || x < min || x > max)
		return ftsim_usage_err(cmd, "bad %s '%s': expected a whole number from %u to %u",
				       opt, s, min, max);
	*v = (u32)x;
	return 0;
}

/* Thousandths as a decimal without trailing zeros: 1500 -> "1.5". */
static void milli_str(u64 v, char *buf, size_t len)
{
	size_t n;

	snprintf(buf, len, "%" PRIu64 ".%03" PRIu64, v / 1000, v % 1000);
	n = strlen(buf);
	while (n && buf[n - 1] == '0')
		buf[--n] = '\0';
	if (n && buf[n - 1] == '.')
		buf[--n] = '\0';
}

int ftsim_parse_milli(const char *cmd, const char *opt, const char *s,
		      u64 min, u64 max, u64 *v)
{
	const char *p = s;
	u64 whole = 0, frac = 0;
	int digits = 0, places = 0;

	for (; *p >= '0' && *p <= '9'; p++, digits++) {
		whole = whole * 10 + (u64)(*p - '0');
		if (whole > max)
			goto bad;
	}
	if (*p == '.') {
		for (p++; *p >= '0' && *p <= '9'; p++, places++) {
			if (places == 3)
				goto bad;
			frac = frac * 10 + (u64)(*p - '0');
		}
	}
	if (*p || (!digits && !places))
		goto bad;
	while (places++ < 3)
		frac *= 10;
	*v = whole * 1000 + frac;
	if (*v < min || *v > max)
		goto bad;
	return 0;
bad:
	{
		char lo[32], hi[32];

		milli_str(min, lo, sizeof(lo));
		milli_str(max, hi, sizeof(hi));
		return ftsim_usage_err(cmd, "bad %s '%s': expected a number from %s to %s with at most 3 decimals",
				       opt, s, lo, hi);
	}
}

int ftsim_parse_name(const char *cmd, const char *opt, const char *s,
		     const char *const *names, u32 n, u32 *v)
{
	char list[256];
	size_t off = 0;
	u32 i;

	for (i = 0; i < n; i++) {
		if (!strcmp(s, names[i])) {
			*v = i;
			return 0;
		}
	}
	list[0] = '\0';
	for (i = 0; i < n && off < sizeof(list); i++)
		off += (size_t)snprintf(list + off, sizeof(list) - off, "%s%s",
					i ? (i == n - 1 ? " or " : ", ") : "",
					names[i]);
	ftsim_usage_err(cmd, "bad %s '%s': expected %s", opt, s, list);
	return -1;
}

int ftsim_parse_pattern(const char *cmd, const char *s, const enum ft_pattern *have,
			unsigned int n, int *v)
{
	char tool[32], why[400];
	bool old;
	int k;

	snprintf(tool, sizeof(tool), "ftsim %s", cmd);
	k = ft_pattern_pick(tool, s, have, n, &old, why, sizeof(why));
	if (k < 0)
		return ftsim_usage_err(cmd, "bad --pattern '%s': %s", s, why);
	if (old && ftsim_mpi_rank() == 0) {
		ftsim_progress_done();
		ft_pattern_warn(tool, s, have[k]);
	}
	*v = k;
	return 0;
}

int ftsim_split(const char *cmd, const char *opt, const char *s, char **buf,
		char **item, int max)
{
	char *p, *q;
	int n = 0;

	*buf = strdup(s);
	if (!*buf) {
		fprintf(stderr, "ftsim %s: out of memory\n", cmd);
		return -1;
	}
	for (p = *buf;; p = q + 1) {
		q = strchr(p, ',');
		if (q)
			*q = '\0';
		if (!*p) {
			ftsim_usage_err(cmd, "bad %s '%s': empty item in the list",
					opt, s);
			goto bad;
		}
		if (n == max) {
			ftsim_usage_err(cmd, "bad %s '%s': more than %d items",
					opt, s, max);
			goto bad;
		}
		item[n++] = p;
		if (!q)
			return n;
	}
bad:
	free(*buf);
	*buf = NULL;
	return -1;
}

int ftsim_parse_list(const char *cmd, const char *opt, const char *s, int max,
		     int (*item)(void *ctx, int k, char *word), void *ctx,
		     u32 *n)
{
	char *buf, *word[FTSIM_LIST_MAX];
	int nw, k, rc = 0;

	assert(max <= FTSIM_LIST_MAX);
	nw = ftsim_split(cmd, opt, s, &buf, word, max);
	if (nw < 0)
		return -1;
	for (k = 0; k < nw && !rc; k++)
		rc = item(ctx, k, word[k]);
	free(buf);
	if (!rc)
		*n = (u32)nw;
	return rc ? -1 : 0;
}

/* ftsim_parse_names()' arguments, for its items. */
struct names_list {
	const char *cmd, *opt, *s;
	const char *const *names;
	int n;
	const int *val;
	int *out;
	char what[64];
};

static int names_item(void *ctx, int k, char *word)
{
	struct names_list *l = ctx;
	int j, v;
	u32 x;

	if (ftsim_parse_name(l->cmd, l->what, word, l->names, (u32)l->n, &x))
		return -1;
	v = l->val ? l->val[x] : (int)x;
	for (j = 0; j < k; j++)
		if (l->out[j] == v)
			return ftsim_usage_err(l->cmd, "bad %s '%s': '%s' is listed twice",
					       l->opt, l->s, word);
	l->out[k] = v;
	return 0;
}

int ftsim_parse_names(const char *cmd, const char *opt, const char *s,
		      const char *const *names, int n, const int *val,
		      int *out, int max, u32 *nout)
{
	struct names_list l = {
		.cmd = cmd, .opt = opt, .s = s, .names = names, .n = n,
		.val = val, .out = out,
	};

	assert(max <= FTSIM_NAMES_MAX);
	snprintf(l.what, sizeof(l.what), "%s item", opt);
	return ftsim_parse_list(cmd, opt, s, max * 2, names_item, &l, nout);
}

/* --- shapes and profiles --- */

/* What the engine core takes (ft_topo.h); ft_topo_init() checks the rest. */
static const struct ft_shape_limits engine_limits = {
	.levels = FT_MAX_LEVELS, .m = FT_MAX_M, .w = FT_MAX_W, .leaves = FT_MAX_LEAVES,
};

/* @src (read from @s, as typed) into @sh, if the engine core takes it. */
static int shape_check(const char *cmd, const char *opt, const char *s,
		       const struct ft_shape *src, struct ftsim_shape *sh)
{
	static const u32 ones[FT_MAX_LEVELS] = {
		1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
	};
	struct ft_topo t;
	u32 i;

	memset(sh, 0, sizeof(*sh));
	sh->h = src->h;
	sh->w1 = true;
	for (i = 0; i < sh->h; i++) {
		sh->m[i] = src->m[i];
		sh->w[i] = src->w[i];
		sh->w1 &= sh->w[i] == 1;
	}
	snprintf(sh->kind, sizeof(sh->kind), "%s", ft_shape_kind_name(src->kind));
	snprintf(sh->desc, sizeof(sh->desc), "%s", src->desc);
	if (src->leaves > FT_MAX_LEAVES)
		return ftsim_usage_err(cmd, "bad %s '%s': more than %u leaves",
				       opt, s, FT_MAX_LEAVES);
	if (src->leaves < 2 || ft_topo_init(&t, sh->h, sh->m, sh->w, ones))
		return ftsim_usage_err(cmd, "bad %s '%s': not a fabric the engine core accepts (at least 2 leaves, w <= %u, at most %u directed links)",
				       opt, s, FT_MAX_W, FT_MAX_DLINKS);
	sh->n = t.n;
	return 0;
}

int ftsim_kary(const char *cmd, const char *opt, const char *word,
	       struct ftsim_shape *sh, u32 l, u32 k)
{
	struct ft_shape fs;

	ft_shape_kary(&fs, l, k);
	return shape_check(cmd, opt, word, &fs, sh);
}

int ftsim_parse_shape_as(const char *cmd, const char *opt, const char *word,
			 const char *s, struct ftsim_shape *sh)
{
	struct ft_shape fs;
	char why[256];

	if (ft_shape_parse(s, &engine_limits, &fs, why, sizeof(why)))
		return ftsim_usage_err(cmd, "bad %s '%s': %s", opt, word, why);
	return shape_check(cmd, opt, word, &fs, sh);
}

int ftsim_parse_shape(const char *cmd, const char *opt, const char *s,
		      struct ftsim_shape *sh)
{
	return ftsim_parse_shape_as(cmd, opt, s, s, sh);
}

int ftsim_parse_profile(const char *cmd, const char *opt, const char *s,
			struct ftsim_profile *pr)
{
	static const char *const names[] = {
		[FT_PROFILE_CONSTANT] = "constant",
		[FT_PROFILE_DOUBLING] = "doubling",
		[FT_PROFILE_STANDARD] = "standard",
		[FT_PROFILE_AREA] = "area",
		[FT_PROFILE_VOLUME] = "volume",
		[FT_PROFILE_UNIVERSAL] = "universal",
	};
	const char *colon = strchr(s, ':');
	char name[16];
	size_t len = colon ? (size_t)(colon - s) : strlen(s);
	u32 param = 1;
	int k;

	memset(pr, 0, sizeof(*pr));
	for (k = 0; k < (int)(sizeof(names) / sizeof(names[0])); k++)
		if (strlen(names[k]) == len && !strncmp(s, names[k], len))
			break;
	if (k == (int)(sizeof(names) / sizeof(names[0])))
		return ftsim_usage_err(cmd, "bad %s '%s': expected constant[:B], doubling[:B], standard[:B], area[:B], volume[:B] or universal:R (explicit lanes: --lanes)",
				       opt, s);
	if (k == FT_PROFILE_UNIVERSAL && !colon)
		return ftsim_usage_err(cmd, "bad %s '%s': universal needs its root capacity, universal:R",
				       opt, s);
	if (colon) {
		u32 max = k == FT_PROFILE_UNIVERSAL ? FT_MAX_LEAVES : FT_MAX_LANES;
		unsigned long long x;
		char *end;

		errno = 0;
		x = strtoull(colon + 1, &end, 10);
		if (colon[1] < '0' || colon[1] > '9' || *end || errno || !x ||
		    x > max)
			return ftsim_usage_err(cmd, "bad %s '%s': %s must be a whole number from 1 to %u",
					       opt, s, k == FT_PROFILE_UNIVERSAL ?
					       "the root capacity R" :
					       k == FT_PROFILE_CONSTANT ?
					       "the lanes B" : "the leaf capacity B",
					       max);
		param = (u32)x;
	}
	pr->p.kind = k;
	if (k == FT_PROFILE_UNIVERSAL)
		pr->p.root = param;
	else
		pr->p.base = param;
	snprintf(name, sizeof(name), "%s", names[k]);
	strcpy(pr->name, name);
	snprintf(pr->desc, sizeof(pr->desc), "%s", s);
	return 0;
}

int ftsim_topo(const char *cmd, const struct ftsim_shape *sh,
	       const struct ftsim_profile *pr, struct ft_topo *t)
{
	u32 lanes[FT_MAX_LEVELS];
	int err;

	err = ft_profile_lanes(&pr->p, sh->h, sh->m, sh->w, lanes);
	if (!err)
		err = ft_topo_init(t, sh->h, sh->m, sh->w, lanes);
	if (err == -FT_ERANGE)
		return ftsim_usage_err(cmd, "profile '%s' on %s needs more than %u lanes per link",
				       pr->desc, sh->desc, FT_MAX_LANES);
	if (err && pr->p.kind == FT_PROFILE_UNIVERSAL)
		return ftsim_usage_err(cmd, "profile '%s' does not fit %s: the root capacity R must be 1 to %u (the leaves)",
				       pr->desc, sh->desc, sh->n);
	if (err)
		return ftsim_usage_err(cmd, "profile '%s' does not fit %s (%u leaves)",
				       pr->desc, sh->desc, sh->n);
	return 0;
}

/* --- statistics --- */

void ftsim_stat_init(struct ftsim_stat *s)
{
	memset(s, 0, sizeof(*s));
}

void ftsim_stat_add(struct ftsim_stat *s, double x)
{
	double d = x - s->mean;

	if (!s->n || x < s->min)
		s->min = x;
	if (!s->n || x > s->max)
		s->max = x;
	s->n++;
	s->mean += d / (double)s->n;
	s->m2 += d * (x - s->mean);
}

/* Newton's iteration: no libm needed. */
double ftsim_sqrt(double x)
{
	double r = x > 1 ? x : 1, prev = 0;
	int i;

	if (!(x > 0))
		return 0;
	for (i = 0; i < 200 && r != prev; i++) {
		prev = r;
		r = 0.5 * (r + x / r);
	}
	return r;
}

double ftsim_stat_stddev(const struct ftsim_stat *s)
{
	return s->n > 1 ? ftsim_sqrt(s->m2 / (double)(s->n - 1)) : 0;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

void ftsim_sort(double *v, u64 n)
{
	qsort(v, n, sizeof(*v), cmp_double);
}

double ftsim_median(double *v, u64 n)
{
	if (!n)
		return 0;
	ftsim_sort(v, n);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

double ftsim_percentile(const double *v, u64 n, u32 pct)
{
	u64 r = (pct * n + 99) / 100;

	return n ? v[r ? r - 1 : 0] : 0;
}

int ftsim_msgs_reserve(struct ftsim_msgs *m, u32 cap)
{
	u32 *p;

	if (cap <= m->cap)
		return 0;
	p = realloc(m->src, (size_t)cap * sizeof(u32));
	if (!p)
		return -1;
	m->src = p;
	p = realloc(m->dst, (size_t)cap * sizeof(u32));
	if (!p)
		return -1;
	m->dst = p;
	m->cap = cap;
	return 0;
}

int ftsim_msgs_push(struct ftsim_msgs *m, u32 src, u32 dst)
{
	if (m->n == m->cap && ftsim_msgs_reserve(m, m->cap ? 2 * m->cap : 1024))
		return -1;
	m->src[m->n] = src;
	m->dst[m->n++] = dst;
	return 0;
}

void ftsim_msgs_free(struct ftsim_msgs *m)
{
	free(m->src);
	free(m->dst);
}

int ftsim_lambda(const struct ft_topo *t, const struct ftsim_msgs *m, struct ft_lambda *lam)
{
	struct ft_demand *dm = malloc(((size_t)m->n + 1) * sizeof(*dm));
	u32 *loads = calloc(ft_topo_channels_total(t), sizeof(u32));
	int err = -1;
	u32 i;

	if (dm && loads) {
		for (i = 0; i < m->n; i++)
			dm[i] = (struct ft_demand){ m->src[i], m->dst[i], 1 };
		err = ft_lambda(t, dm, m->n, loads, lam);
	}
	free(dm);
	free(loads);
	return err;
}

u64 ftsim_derive(u64 a, u64 b)
{
	u64 x = a ^ (b * 0x9e3779b97f4a7c15ULL);

	ft_splitmix64(&x);
	return ft_splitmix64(&x);
}

double ftsim_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* --- progress --- */

static int progress_tty = -1;
static bool progress_shown;

void ftsim_progress(const char *fmt, ...)
{
	va_list ap;

	/* one thread draws (and so reads and sets what follows) */
	if (!ftsim_progress_allowed())
		return;
	if (progress_tty < 0)
		progress_tty = isatty(STDERR_FILENO);
	if (!progress_tty)
		return;
	fputs("\r\033[K", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fflush(stderr);
	progress_shown = true;
}

void ftsim_progress_done(void)
{
	if (progress_shown) {
		fputs("\r\033[K", stderr);
		fflush(stderr);
		progress_shown = false;
	}
}

/* --- JSON --- */

void ftsim_json_start(struct ftsim_json *j, FILE *f, const char *cmd)
{
	memset(j, 0, sizeof(*j));
	j->f = f;
	ftsim_json_obj(j, NULL);
	ftsim_json_str(j, "command", cmd);
}

static void json_string(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c < 0x20)
			fprintf(f, "\\u%04x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

/* Comma, newline, indentation and key of the next member. */
static void json_member(struct ftsim_json *j, const char *key)
{
	int i;

	if (j->depth) {
		if (j->any[j->depth])
			fputc(',', j->f);
		fputc('\n', j->f);
		for (i = 0; i < j->depth; i++)
			fputs("  ", j->f);
	}
	j->any[j->depth] = true;
	if (key) {
		json_string(j->f, key);
		fputs(": ", j->f);
	}
}

static void json_open(struct ftsim_json *j, const char *key, char c)
{
	json_member(j, key);
	fputc(c, j->f);
	if (j->depth + 1 < FTSIM_JSON_DEPTH)
		j->depth++;
	j->any[j->depth] = false;
}

void ftsim_json_obj(struct ftsim_json *j, const char *key)
{
	json_open(j, key, '{');
}

void ftsim_json_arr(struct ftsim_json *j, const char *key)
{
	json_open(j, key, '[');
}

void ftsim_json_end(struct ftsim_json *j, char close)
{
	int i;

	if (j->any[j->depth]) {
		fputc('\n', j->f);
		for (i = 0; i < j->depth - 1; i++)
			fputs("  ", j->f);
	}
	if (j->depth)
		j->depth--;
	fputc(close, j->f);
}

void ftsim_json_str(struct ftsim_json *j, const char *key, const char *v)
{
	json_member(j, key);
	json_string(j->f, v);
}

void ftsim_json_u64(struct ftsim_json *j, const char *key, u64 v)
{
	json_member(j, key);
	fprintf(j->f, "%" PRIu64, v);
}

void ftsim_json_num(struct ftsim_json *j, const char *key, double v, int prec)
{
	json_member(j, key);
	if (v != v || v > 1e300 || v < -1e300)
		fputs("null", j->f);
	else
		fprintf(j->f, "%.*f", prec, v);
}

void ftsim_json_bool(struct ftsim_json *j, const char *key, bool v)
{
	json_member(j, key);
	fputs(v ? "true" : "false", j->f);
}

void ftsim_json_null(struct ftsim_json *j, const char *key)
{
	json_member(j, key);
	fputs("null", j->f);
}

void ftsim_json_u32s(struct ftsim_json *j, const char *key, const u32 *v,
		     u32 n)
{
	u32 i;

	json_member(j, key);
	fputc('[', j->f);
	for (i = 0; i < n; i++)
		fprintf(j->f, "%s%u", i ? ", " : "", v[i]);
	fputc(']', j->f);
}

void ftsim_json_finish(struct ftsim_json *j)
{
	ftsim_json_end(j, '}');
	fputc('\n', j->f);
	fflush(j->f);
}

/* --- patterns --- */

void ftsim_pattern_shape(const struct ftsim_shape *sh, struct ft_pattern_shape *ps)
{
	ft_pattern_shape_init(ps, sh->n, sh->h, sh->m);
}

int ftsim_pattern_dsts(enum ft_pattern p, const struct ftsim_shape *sh, u32 hot_pct,
		       struct ft_rand *r, u32 *dst)
{
	struct ft_pattern_args a = { .k = sh->n / 2, .hot_pct = hot_pct };
	struct ft_pattern_rng rng = FT_PATTERN_RNG(r);
	struct ft_pattern_shape ps;

	ftsim_pattern_shape(sh, &ps);
	return ft_pattern_dsts(p, &ps, &a, &rng, dst);
}
