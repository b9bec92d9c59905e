// SPDX-License-Identifier: GPL-2.0
/*
 * Traffic patterns: message sets on N leaves, reproducible from a seed.
 * The classic permutations that stress a tree (bit-reversal and
 * transpose: "used to stress the router"; shift by N/2 forces every path
 * through the top level), random ones, and the many-to-one shapes. A
 * flow from a leaf to itself carries nothing through the fabric and is
 * left out of every set.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "fttraffic.h"
#include "ftunits.h"
#include "ft_rand.h"

/*
 * The patterns fttraffic runs (their names and generators: ftpattern.h):
 * every one but hot-spot, so that its old hot-spot (and hotspot) still
 * names hot-uniform, with a warning.
 */
static const enum ft_pattern patterns[] = {
	FT_PATTERN_PERMUTATION, FT_PATTERN_BIT_REVERSAL, FT_PATTERN_TRANSPOSE,
	FT_PATTERN_SHIFT, FT_PATTERN_STRIDE, FT_PATTERN_TORNADO, FT_PATTERN_NEIGHBOUR,
	FT_PATTERN_UNIFORM, FT_PATTERN_HOT_UNIFORM, FT_PATTERN_ALL_TO_ALL,
	FT_PATTERN_H_RELATION, FT_PATTERN_MANY_TO_ONE, FT_PATTERN_ONE_TO_MANY,
	FT_PATTERN_FILE,
};

const enum ft_pattern *ftt_patterns(unsigned int *n)
{
	*n = sizeof(patterns) / sizeof(patterns[0]);
	return patterns;
}

void ftt_set_free(struct ftt_set *s)
{
	free(s->flow);
	memset(s, 0, sizeof(*s));
}

uint64_t ftt_set_messages(const struct ftt_set *s)
{
	uint64_t total = 0;
	uint32_t i;

	for (i = 0; i < s->nflows; i++)
		total += s->flow[i].count;
	return total;
}

static int add(struct ftt_set *s, uint32_t src, uint32_t dst, uint64_t count)
{
	if (src == dst || !count)
		return 0;
	if (s->nflows == s->cap) {
		uint32_t cap = s->cap ? 2 * s->cap : 64;
		struct ftt_flow *f = realloc(s->flow, cap * sizeof(*f));

		if (!f)
			return -ENOMEM;
		s->flow = f;
		s->cap = cap;
	}
	s->flow[s->nflows++] = (struct ftt_flow){ src, dst, count };
	return 0;
}

static int cmp_flow(const void *a, const void *b)
{
	const struct ftt_flow *x = a, *y = b;

	if (x->src != y->src)
		return x->src < y->src ? -1 : 1;
	return x->dst < y->dst ? -1 : x->dst > y->dst;
}

/* Sort by (src, dst) and merge repeated pairs into one flow. */
static void normalise(struct ftt_set *s)
{
	uint32_t i, o = 0;

	if (!s->nflows)		/* tornado on 2 leaves: no flow, and no array */
		return;
	qsort(s->flow, s->nflows, sizeof(*s->flow), cmp_flow);
	for (i = 0; i < s->nflows; i++) {
		if (o && s->flow[o - 1].src == s->flow[i].src &&
		    s->flow[o - 1].dst == s->flow[i].dst)
			s->flow[o - 1].count += s->flow[i].count;
		else
			s->flow[o++] = s->flow[i];
	}
	s->nflows = o;
}

static int permutation_set(const uint32_t *dst, uint32_t n, uint64_t count, struct ftt_set *s)
{
	uint32_t i;
	int err = 0;

	for (i = 0; i < n && !err; i++)
		err = add(s, i, dst[i], count);
	return err;
}

/* h permutations without fixed points: every leaf sends h and receives h. */
static int h_relation(const struct ftt_pattern *p, const struct ft_pattern_shape *sh,
		      const struct ft_pattern_rng *r, uint32_t *v, struct ftt_set *s)
{
	struct ft_pattern_args a = { .derange = true };
	uint32_t k;
	int e = 0;

	for (k = 0; k < p->h && !e; k++) {
		ft_pattern_dsts(FT_PATTERN_PERMUTATION, sh, &a, r, v);
		e = permutation_set(v, p->n, p->count, s);
	}
	return e;
}

/* Each message to a random other leaf; to the hot leaf with hot-uniform's share. */
static int random_destinations(const struct ftt_pattern *p, const struct ft_pattern_args *a,
			       const struct ft_pattern_rng *r, struct ftt_set *s)
{
	uint32_t i;
	uint64_t c;
	int e = 0;

	for (i = 0; i < p->n && !e; i++)
		for (c = 0; c < p->count && !e; c++)
			e = add(s, i, ft_pattern_other_dst(a, r, p->n, i), 1);
	return e;
}

static int build(const struct ftt_pattern *p, enum ft_pattern pat, uint32_t *v,
		 struct ft_rand *rand, struct ftt_set *s, char *err, size_t len)
{
	struct ft_pattern_args a = {
		.k = p->shift, .derange = p->no_fixed_points, .root = p->root,
		.hot_q32 = pat == FT_PATTERN_HOT_UNIFORM ?
			   (uint64_t)(p->hot_fraction * 4294967296.0) : 0,
	};
	struct ft_pattern_rng r = FT_PATTERN_RNG(rand);
	struct ft_pattern_shape sh;
	uint32_t i;
	int e = 0;

	ft_pattern_shape_init(&sh, p->n, p->m ? p->levels : 1, p->m ? p->m : &p->m1);
	switch (pat) {
	case FT_PATTERN_H_RELATION:
		return h_relation(p, &sh, &r, v, s);
	case FT_PATTERN_UNIFORM:
	case FT_PATTERN_HOT_UNIFORM:
		return random_destinations(p, &a, &r, s);
	case FT_PATTERN_ALL_TO_ALL: {
		uint64_t k;

		for (k = 0; k < (uint64_t)p->n * p->n && !e; k++)
			e = add(s, (uint32_t)(k / p->n), (uint32_t)(k % p->n), p->count);
		return e;
	}
	case FT_PATTERN_MANY_TO_ONE:
	case FT_PATTERN_ONE_TO_MANY:
		for (i = 0; i < p->n && !e; i++)
			e = pat == FT_PATTERN_MANY_TO_ONE ? add(s, i, p->root, p->count) :
							    add(s, p->root, i, p->count);
		return e;
	default:
		if (ft_pattern_dsts(pat, &sh, &a, &r, v)) {
			snprintf(err, len, "%s needs a power-of-two number of leaves or a k-ary"
				 " fabric (this one has %u leaves)", ft_pattern_name(pat), p->n);
			return -EINVAL;
		}
		return permutation_set(v, p->n, p->count, s);
	}
}

int ftt_pattern_build(const struct ftt_pattern *p, struct ftt_set *s, char *err, size_t len)
{
	unsigned int npat;
	const enum ft_pattern *have = ftt_patterns(&npat);
	enum ft_pattern pat;
	struct ft_rand r;
	char why[400];
	uint32_t *v;
	int e, k;

	memset(s, 0, sizeof(*s));
	k = ft_pattern_pick("fttraffic", p->name, have, npat, NULL, why, sizeof(why));
	if (k < 0) {
		snprintf(err, len, "pattern '%s': %s", p->name, why);
		return -EINVAL;
	}
	pat = have[k];
	if (p->n < 2) {
		snprintf(err, len, "a pattern needs at least 2 leaves");
		return -EINVAL;
	}
	if (p->root >= p->n) {
		snprintf(err, len, "--root %u is not a leaf of this fabric (0..%u)", p->root,
			 p->n - 1);
		return -EINVAL;
	}
	if (pat == FT_PATTERN_NEIGHBOUR && p->m1 < 2) {
		snprintf(err, len, "neighbour needs leaf switches with 2 or more leaves");
		return -EINVAL;
	}
	if (pat == FT_PATTERN_FILE) {
		FILE *f = p->file ? fopen(p->file, "r") : NULL;

		if (!f) {
			snprintf(err, len, "pattern file: %s: %s", p->file ? p->file : "(none; use --file)",
				 p->file ? strerror(errno) : "missing");
			return -EINVAL;
		}
		e = ftt_pattern_parse_file(f, p->n, s, err, len);
		fclose(f);
		return e;
	}
	v = calloc(p->n, sizeof(*v));
	if (!v)
		return -ENOMEM;
	ft_rand_seed(&r, p->seed);
	e = build(p, pat, v, &r, s, err, len);
	free(v);
	if (e) {
		if (e == -ENOMEM)
			snprintf(err, len, "out of memory building the pattern");
		ftt_set_free(s);
		return e;
	}
	normalise(s);
	return 0;
}

/*
 * Rows "src dst count" (count optional, default 1), '#' comments, blank
 * lines; repeated pairs add up. Any bad row refuses the whole file.
 */
int ftt_pattern_parse_file(FILE *f, uint32_t n, struct ftt_set *s, char *err, size_t len)
{
	char line[256];
	unsigned int lineno = 0;
	int e = 0;

	memset(s, 0, sizeof(*s));
	while (!e && fgets(line, sizeof(line), f)) {
		unsigned long long src, dst, count = 1;
		char *p = line, *end, word[32];
		size_t wlen;
		uint64_t x;
		int i;

		lineno++;
		if (!strchr(line, '\n') && !feof(f)) {
			snprintf(err, len, "line %u: longer than %zu characters", lineno,
				 sizeof(line) - 2);
			e = -EINVAL;
			break;
		}
		end = strchr(line, '#');
		if (end)
			*end = '\0';
		p += strspn(p, " \t\r\n");
		if (!*p)
			continue;
		for (i = 0; i < 3; i++) {
			unsigned long long *v = i == 0 ? &src : i == 1 ? &dst : &count;

			p += strspn(p, " \t\r\n");
			if (!*p && i == 2)
				break;
			/* Decimal or 0x hex, as on the command line (not octal). */
			wlen = strcspn(p, " \t\r\n");
			if (!wlen || wlen >= sizeof(word)) {
				e = -EINVAL;
				break;
			}
			memcpy(word, p, wlen);
			word[wlen] = '\0';
			if (ft_parse_number(word, &x)) {
				e = -EINVAL;
				break;
			}
			*v = x;
			p += wlen;
		}
		p += strspn(p, " \t\r\n");
		if (e || *p) {
			snprintf(err, len, "line %u: expected \"src dst [count]\" (unsigned numbers)",
				 lineno);
			e = -EINVAL;
		} else if (src >= n || dst >= n) {
			snprintf(err, len, "line %u: leaf %llu is not a leaf of this fabric (0..%u)",
				 lineno, src >= n ? src : dst, n - 1);
			e = -EINVAL;
		} else if (src == dst) {
			snprintf(err, len, "line %u: source and destination are both leaf %llu",
				 lineno, src);
			e = -EINVAL;
		} else if (!count || count > UINT32_MAX) {
			snprintf(err, len, "line %u: count must be 1..%u", lineno, UINT32_MAX);
			e = -EINVAL;
		} else {
			e = add(s, (uint32_t)src, (uint32_t)dst, count);
			if (e)
				snprintf(err, len, "out of memory reading the pattern file");
		}
	}
	if (!e && ferror(f)) {
		snprintf(err, len, "reading the pattern file failed");
		e = -EIO;
	}
	if (!e && !s->nflows) {
		snprintf(err, len, "the pattern file holds no rows");
		e = -EINVAL;
	}
	if (e)
		ftt_set_free(s);
	else
		normalise(s);
	return e;
}
