// SPDX-License-Identifier: GPL-2.0
/*
 * ftpattern: the patterns' names and their old spellings, and their
 * generators (ftpattern.h).
 */
#include <stdio.h>
#include <string.h>

#include "ftpattern.h"

static const char *const names[FT_PATTERN_NR] = {
	[FT_PATTERN_PERMUTATION] = "permutation",
	[FT_PATTERN_BIT_REVERSAL] = "bit-reversal",
	[FT_PATTERN_TRANSPOSE] = "transpose",
	[FT_PATTERN_SHIFT] = "shift",
	[FT_PATTERN_STRIDE] = "stride",
	[FT_PATTERN_TORNADO] = "tornado",
	[FT_PATTERN_NEIGHBOUR] = "neighbour",
	[FT_PATTERN_UNIFORM] = "uniform",
	[FT_PATTERN_HOT_SPOT] = "hot-spot",
	[FT_PATTERN_ALL_TO_ALL] = "all-to-all",
	[FT_PATTERN_H_RELATION] = "h-relation",
	[FT_PATTERN_MANY_TO_ONE] = "many-to-one",
	[FT_PATTERN_ONE_TO_MANY] = "one-to-many",
	[FT_PATTERN_FILE] = "file",
	[FT_PATTERN_HOT_UNIFORM] = "hot-uniform",
};

/*
 * The tools' earlier spellings (ftsim sched: bitreversal, hotspot; ftsim
 * saf: bitrev, and random for its uniform random destinations), and each
 * hyphenated name written without its hyphens.
 */
struct spelling {
	const char *word;
	enum ft_pattern p;
};

static const struct spelling old_names[] = {
	{ "bitreversal", FT_PATTERN_BIT_REVERSAL },
	{ "bitrev", FT_PATTERN_BIT_REVERSAL },
	{ "hotspot", FT_PATTERN_HOT_SPOT },
	{ "random", FT_PATTERN_UNIFORM },
	{ "alltoall", FT_PATTERN_ALL_TO_ALL },
	{ "hrelation", FT_PATTERN_H_RELATION },
	{ "manytoone", FT_PATTERN_MANY_TO_ONE },
	{ "onetomany", FT_PATTERN_ONE_TO_MANY },
};

/*
 * Words that named another pattern in a tool that does not run the
 * pattern they name now: fttraffic's hot-spot (and hotspot) was uniform
 * random destinations with a share to a hot leaf, now hot-uniform; the
 * name stays with ftsim's, a permutation with hot senders. Read only
 * when the tool does not run the word's own pattern.
 */
static const struct spelling renamed[] = {
	{ "hot-spot", FT_PATTERN_HOT_UNIFORM },
	{ "hotspot", FT_PATTERN_HOT_UNIFORM },
};

const char *ft_pattern_name(enum ft_pattern p)
{
	return p < FT_PATTERN_NR ? names[p] : NULL;
}

int ft_pattern_lookup(const char *word, bool *old)
{
	size_t i;

	if (old)
		*old = false;
	for (i = 0; i < FT_PATTERN_NR; i++)
		if (!strcmp(word, names[i]))
			return (int)i;
	for (i = 0; i < sizeof(old_names) / sizeof(old_names[0]); i++) {
		if (!strcmp(word, old_names[i].word)) {
			if (old)
				*old = true;
			return (int)old_names[i].p;
		}
	}
	return -1;
}

const char *ft_pattern_list(const enum ft_pattern *have, unsigned int n, const char *sep,
			    char *buf, size_t len)
{
	size_t off = 0;
	unsigned int i;

	buf[0] = '\0';
	for (i = 0; i < n && off < len; i++)
		off += (size_t)snprintf(buf + off, len - off, "%s%s", i ? sep : "",
					ft_pattern_name(have[i]));
	return buf;
}

int ft_pattern_pick(const char *tool, const char *word, const enum ft_pattern *have,
		    unsigned int n, bool *old, char *why, size_t len)
{
	int p = ft_pattern_lookup(word, old);
	char runs[256];
	unsigned int i;
	size_t j;

	for (i = 0; p >= 0 && i < n; i++)
		if (have[i] == (enum ft_pattern)p)
			return (int)i;
	for (j = 0; j < sizeof(renamed) / sizeof(renamed[0]); j++) {
		if (strcmp(word, renamed[j].word))
			continue;
		for (i = 0; i < n; i++) {
			if (have[i] == renamed[j].p) {
				if (old)
					*old = true;
				return (int)i;
			}
		}
	}
	ft_pattern_list(have, n, ", ", runs, sizeof(runs));
	if (p < 0)
		snprintf(why, len, "no pattern is called so; %s runs %s", tool, runs);
	else if (old && *old)
		snprintf(why, len, "that is %s, not a pattern %s runs; it runs %s", names[p],
			 tool, runs);
	else
		snprintf(why, len, "not a pattern %s runs; it runs %s", tool, runs);
	if (old)
		*old = false;
	return -1;
}

void ft_pattern_warn(const char *tool, const char *word, enum ft_pattern p)
{
	fprintf(stderr, "%s: warning: pattern '%s' is now spelled '%s'\n", tool, word,
		ft_pattern_name(p));
}

/* --- the generators --- */

void ft_pattern_shape_init(struct ft_pattern_shape *s, uint32_t n, uint32_t h,
			   const uint32_t *m)
{
	uint64_t leaves = 1;
	uint32_t i;

	*s = (struct ft_pattern_shape){ .n = n, .m1 = h ? m[0] : n };
	if (n >= 2 && !(n & (n - 1))) {
		s->radix = 2;
		while ((1U << s->digits) < n)
			s->digits++;
		return;
	}
	for (i = 0; i < h && m[i] == m[0] && leaves <= n; i++)
		leaves *= m[i];
	if (h && i == h && leaves == n && m[0] >= 2) {
		s->radix = m[0];
		s->digits = h;
	}
}

bool ft_pattern_fits(enum ft_pattern p, const struct ft_pattern_shape *s)
{
	if (p == FT_PATTERN_BIT_REVERSAL || p == FT_PATTERN_TRANSPOSE)
		return s->digits > 0;
	if (p == FT_PATTERN_NEIGHBOUR)
		return s->m1 >= 2;
	return true;
}

/* The @nd digits of @x in radix @r reversed. */
static uint32_t reverse_digits(uint32_t x, uint32_t r, uint32_t nd)
{
	uint32_t y = 0, i;

	for (i = 0; i < nd; i++) {
		y = y * r + x % r;
		x /= r;
	}
	return y;
}

/* x = hi * r^lo_d + lo  ->  lo * r^(nd - lo_d) + hi, lo_d = nd / 2. */
static uint32_t transpose_digits(uint32_t x, uint32_t r, uint32_t nd)
{
	uint32_t lo_d = nd / 2, plo = 1, phi = 1, i;

	for (i = 0; i < lo_d; i++)
		plo *= r;
	for (i = lo_d; i < nd; i++)
		phi *= r;
	return (x % plo) * phi + x / plo;
}

static bool has_fixed_point(const uint32_t *v, uint32_t n)
{
	uint32_t i;

	for (i = 0; i < n; i++)
		if (v[i] == i)
			return true;
	return false;
}

uint32_t ft_pattern_other_dst(const struct ft_pattern_args *a, const struct ft_pattern_rng *rng,
			      uint32_t n, uint32_t src)
{
	uint32_t d;

	if (n < 2)
		return src;	/* no other leaf to draw */
	if (a->hot_q32 && src != a->root && rng->u32(rng->r) < a->hot_q32)
		return a->root;
	d = rng->below(rng->r, n - 1);
	return d + (d >= src);	/* never itself */
}

int ft_pattern_dsts(enum ft_pattern p, const struct ft_pattern_shape *s,
		    const struct ft_pattern_args *a, const struct ft_pattern_rng *rng,
		    uint32_t *dst)
{
	uint32_t n = s->n, i, hot, base;

	if (!ft_pattern_fits(p, s))
		return -1;
	switch (p) {
	case FT_PATTERN_PERMUTATION:
		/* a derangement by rejection: e tries on average */
		do {
			rng->perm(rng->r, dst, n);
		} while (a->derange && n > 1 && has_fixed_point(dst, n));
		return 0;
	case FT_PATTERN_BIT_REVERSAL:
		for (i = 0; i < n; i++)
			dst[i] = reverse_digits(i, s->radix, s->digits);
		return 0;
	case FT_PATTERN_TRANSPOSE:
		for (i = 0; i < n; i++)
			dst[i] = transpose_digits(i, s->radix, s->digits);
		return 0;
	case FT_PATTERN_SHIFT:
	case FT_PATTERN_STRIDE:
		for (i = 0; i < n; i++)
			dst[i] = (uint32_t)(((int64_t)i + a->k % (int64_t)n + n) % n);
		return 0;
	case FT_PATTERN_TORNADO:
		for (i = 0; i < n; i++)
			dst[i] = (uint32_t)((i + (n + 1) / 2 - 1) % n);
		return 0;
	case FT_PATTERN_NEIGHBOUR:
		for (i = 0; i < n; i++) {
			base = i - i % s->m1;
			dst[i] = base + (i - base + 1) % s->m1;
		}
		return 0;
	case FT_PATTERN_HOT_SPOT:
		rng->perm(rng->r, dst, n);
		hot = rng->below(rng->r, n);
		for (i = 0; i < n; i++)
			if (rng->below(rng->r, 100) < a->hot_pct)
				dst[i] = hot;
		return 0;
	case FT_PATTERN_UNIFORM:
		for (i = 0; i < n; i++)
			dst[i] = rng->below(rng->r, n);
		return 0;
	case FT_PATTERN_HOT_UNIFORM:
		for (i = 0; i < n; i++)
			dst[i] = ft_pattern_other_dst(a, rng, n, i);
		return 0;
	default:
		return -1;
	}
}
