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
#include "ft_rand.h"

/* The patterns fttraffic runs (their names: ftpattern.h): every one. */
static const enum ft_pattern patterns[] = {
	FT_PATTERN_PERMUTATION, FT_PATTERN_BIT_REVERSAL, FT_PATTERN_TRANSPOSE,
	FT_PATTERN_SHIFT, FT_PATTERN_STRIDE, FT_PATTERN_TORNADO, FT_PATTERN_NEIGHBOUR,
	FT_PATTERN_UNIFORM, FT_PATTERN_HOT_SPOT, FT_PATTERN_ALL_TO_ALL,
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

static uint32_t log2_exact(uint32_t n)
{
	uint32_t b = 0;

	while ((1U << b) < n)
		b++;
	return (1U << b) == n ? b : UINT32_MAX;
}

static bool has_fixed_point(const uint32_t *v, uint32_t n)
{
	uint32_t i;

	for (i = 0; i < n; i++)
		if (v[i] == i)
			return true;
	return false;
}

/* A uniform permutation, or a uniform derangement by rejection (e tries on average). */
static int random_permutation(uint32_t *v, uint32_t n, bool derange, struct ft_rand *r)
{
	do {
		ft_rand_perm(r, v, n);
	} while (derange && has_fixed_point(v, n));
	return 0;
}

static int permutation_set(const uint32_t *dst, uint32_t n, uint64_t count, struct ftt_set *s)
{
	uint32_t i;
	int err = 0;

	for (i = 0; i < n && !err; i++)
		err = add(s, i, dst[i], count);
	return err;
}

/* The deterministic permutations, @pat among them. */
static int fixed_permutation(const struct ftt_pattern *p, enum ft_pattern pat, uint32_t *v,
			     char *err, size_t len)
{
	uint32_t n = p->n, b = log2_exact(n), i, k;

	if (pat == FT_PATTERN_BIT_REVERSAL || pat == FT_PATTERN_TRANSPOSE) {
		if (b == UINT32_MAX || !b) {
			snprintf(err, len, "%s needs a power-of-two number of leaves (the fabric has %u)",
				 ft_pattern_name(pat), n);
			return -EINVAL;
		}
	}
	for (i = 0; i < n; i++) {
		uint32_t d = 0, j;

		if (pat == FT_PATTERN_BIT_REVERSAL) {
			for (j = 0; j < b; j++)
				d |= ((i >> j) & 1U) << (b - 1 - j);
		} else if (pat == FT_PATTERN_TRANSPOSE) {
			/* swap the address halves: rotate by b/2 */
			k = b / 2;
			d = ((i << k) | (i >> (b - k))) & (n - 1);
		} else if (pat == FT_PATTERN_TORNADO) {
			d = (uint32_t)((i + (n + 1) / 2 - 1) % n);
		} else if (pat == FT_PATTERN_NEIGHBOUR) {
			/* the next leaf under the same leaf switch */
			uint32_t base = i - i % p->m1;

			d = base + (i - base + 1) % p->m1;
		} else { /* shift, stride */
			int64_t sh = p->shift % (int64_t)n;

			d = (uint32_t)(((int64_t)i + sh + n) % n);
		}
		v[i] = d;
	}
	return 0;
}

/* h permutations without fixed points: every leaf sends h and receives h. */
static int h_relation(const struct ftt_pattern *p, uint32_t *v, struct ft_rand *r,
		      struct ftt_set *s)
{
	uint32_t k;
	int e = 0;

	for (k = 0; k < p->h && !e; k++) {
		random_permutation(v, p->n, true, r);
		e = permutation_set(v, p->n, p->count, s);
	}
	return e;
}

/* Each message to a random other leaf; to @root with probability hot. */
static int random_destinations(const struct ftt_pattern *p, double hot, struct ft_rand *r,
			       struct ftt_set *s)
{
	uint64_t threshold = (uint64_t)(hot * 4294967296.0), c;
	uint32_t i;
	int e = 0;

	for (i = 0; i < p->n && !e; i++) {
		for (c = 0; c < p->count && !e; c++) {
			uint32_t d;

			if (hot > 0 && i != p->root && ft_rand_u32(r) < threshold) {
				d = p->root;
			} else {
				d = ft_rand_below(r, p->n - 1);
				d += d >= i;	/* never itself */
			}
			e = add(s, i, d, 1);
		}
	}
	return e;
}

static int build(const struct ftt_pattern *p, enum ft_pattern pat, uint32_t *v,
		 struct ft_rand *r, struct ftt_set *s, char *err, size_t len)
{
	uint32_t i;
	int e = 0;

	switch (pat) {
	case FT_PATTERN_PERMUTATION:
		random_permutation(v, p->n, p->no_fixed_points, r);
		return permutation_set(v, p->n, p->count, s);
	case FT_PATTERN_H_RELATION:
		return h_relation(p, v, r, s);
	case FT_PATTERN_UNIFORM:
		return random_destinations(p, 0, r, s);
	case FT_PATTERN_HOT_SPOT:
		return random_destinations(p, p->hot_fraction, r, s);
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
		e = fixed_permutation(p, pat, v, err, len);
		return e ? e : permutation_set(v, p->n, p->count, s);
	}
}

int ftt_pattern_build(const struct ftt_pattern *p, struct ftt_set *s, char *err, size_t len)
{
	int pat = ft_pattern_lookup(p->name, NULL);
	struct ft_rand r;
	uint32_t *v;
	int e;

	memset(s, 0, sizeof(*s));
	if (pat < 0) {
		snprintf(err, len, "unknown pattern '%s' (fttraffic --help lists them)", p->name);
		return -EINVAL;
	}
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
		char *p = line, *end;
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
			errno = 0;
			if (*p == '-' || *p == '+' || !*p) {
				e = -EINVAL;
				break;
			}
			*v = strtoull(p, &end, 0);
			if (errno || end == p || (*end && !strchr(" \t\r\n", *end))) {
				e = -EINVAL;
				break;
			}
			p = end;
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
