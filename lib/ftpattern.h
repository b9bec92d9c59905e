/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ftpattern: one name per traffic pattern, shared by every tool
 * (fttraffic, ftsim sched, cycles and saf), in the papers' spelling:
 * "bit-reversal", "hot-spot", "all-to-all". The old spellings of the
 * tools ("bitreversal", "bitrev", "hotspot", "random", ...) still name
 * their pattern, and say that they are old, so that the tool warns once
 * and goes on. Each tool runs its own subset and refuses the others.
 *
 * And one generator per pattern: the destinations of every pattern that
 * gives each leaf one destination, ft_pattern_dsts(), and fttraffic's
 * per-message draw, ft_pattern_other_dst(). Pure functions of the shape
 * (struct ft_pattern_shape) and of the caller's seeded generator.
 *
 * A leaf's address is its number written in digits: @digits binary
 * digits when the fabric has a power of two of leaves (binary:N, and
 * kary:L:K with K a power of two), else @digits = L digits in base K when
 * every level has the same K children (kary:L:K, FT(L,K)); other shapes
 * have none, and bit-reversal and transpose are refused on them.
 * bit-reversal reverses the digits; transpose moves the low
 * floor(digits / 2) digits to the top (x = hi * R^lo_d + lo ->
 * lo * R^(digits - lo_d) + hi, lo_d = floor(digits / 2)), the same
 * permutation in every tool, also when the digits are odd in number.
 */
#ifndef FTPATTERN_H
#define FTPATTERN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum ft_pattern {
	FT_PATTERN_PERMUTATION,		/* a uniform random permutation */
	FT_PATTERN_BIT_REVERSAL,	/* i -> i's address bits reversed */
	FT_PATTERN_TRANSPOSE,		/* i's low floor(d/2) address digits to the top */
	FT_PATTERN_SHIFT,		/* i -> i + k */
	FT_PATTERN_STRIDE,		/* shift with a stride k */
	FT_PATTERN_TORNADO,		/* i -> i + ceil(N/2) - 1 */
	FT_PATTERN_NEIGHBOUR,		/* the next leaf on the same switch */
	FT_PATTERN_UNIFORM,		/* uniform random destinations */
	FT_PATTERN_HOT_SPOT,		/* a random permutation, P % of it to one hot leaf */
	FT_PATTERN_ALL_TO_ALL,		/* every leaf to every other */
	FT_PATTERN_H_RELATION,		/* h random permutations */
	FT_PATTERN_MANY_TO_ONE,		/* every leaf to one */
	FT_PATTERN_ONE_TO_MANY,		/* one leaf to every other */
	FT_PATTERN_FILE,		/* rows read from a file */
	FT_PATTERN_HOT_UNIFORM,		/* uniform random, a share to one hot leaf */
	FT_PATTERN_NR,
};

/* The pattern's name ("bit-reversal"), or NULL out of range. */
const char *ft_pattern_name(enum ft_pattern p);

/*
 * The pattern @word names: its name, or an old spelling, which sets
 * *@old (when @old is not NULL). -1 when no pattern is called so.
 */
int ft_pattern_lookup(const char *word, bool *old);

/*
 * @word among a tool's own patterns @have[0..@n-1]: its index in @have,
 * or -1 with the reason in @why: no pattern is called so, or @tool does
 * not run that one; both name the patterns @tool runs. An old spelling
 * sets *@old (see ft_pattern_warn()).
 */
int ft_pattern_pick(const char *tool, const char *word, const enum ft_pattern *have,
		    unsigned int n, bool *old, char *why, size_t len);

/* "@tool: warning: pattern 'bitrev' is now spelled 'bit-reversal'" on stderr. */
void ft_pattern_warn(const char *tool, const char *word, enum ft_pattern p);

/* The names of @have[0..@n-1] into @buf, @sep between them; returns @buf. */
const char *ft_pattern_list(const enum ft_pattern *have, unsigned int n, const char *sep,
			    char *buf, size_t len);

/* --- the generators --- */

/*
 * What a pattern needs of the fabric: its leaves, the digits of a leaf's
 * number (see above; @digits 0: none), the leaves under one leaf switch.
 */
struct ft_pattern_shape {
	uint32_t n;
	uint32_t radix;
	uint32_t digits;
	uint32_t m1;
};

/* The shape of a fabric of @n leaves, @h levels, m[0..@h-1] children of a switch. */
void ft_pattern_shape_init(struct ft_pattern_shape *s, uint32_t n, uint32_t h,
			   const uint32_t *m);

/*
 * The caller's seeded generator: the engine's PRNG (struct ft_rand,
 * kmod/core/ft_rand.h), which every tool seeds already, so that a seed
 * gives the same pattern as before it moved here. lib/ names its type
 * only; FT_PATTERN_RNG(&r) fills this where ft_rand.h is included.
 */
struct ft_rand;
struct ft_pattern_rng {
	struct ft_rand *r;
	uint32_t (*below)(struct ft_rand *r, uint32_t n);	/* [0, n) */
	uint32_t (*u32)(struct ft_rand *r);
	void (*perm)(struct ft_rand *r, uint32_t *v, uint32_t n);	/* of 0..n-1 */
};
#define FT_PATTERN_RNG(rand) \
	((struct ft_pattern_rng){ (rand), ft_rand_below, ft_rand_u32, ft_rand_perm })

/* A pattern's parameters; zero for those it does not take. */
struct ft_pattern_args {
	int64_t k;		/* shift, stride: i -> i + k (mod n) */
	bool derange;		/* permutation: without fixed points (by rejection) */
	uint32_t hot_pct;	/* hot-spot: the sources sent to the hot leaf, 0..100 */
	uint32_t root;		/* hot-uniform: the hot leaf */
	uint64_t hot_q32;	/* hot-uniform: a draw's chance of it, 2^32 = always */
};

/*
 * dst[i], one destination for every leaf i < @s->n, of pattern @p:
 *   permutation   uniform (@a->derange: without fixed points);
 *   bit-reversal  the digits of i reversed;
 *   transpose     the low floor(digits / 2) digits of i moved to the top;
 *   shift, stride i + @a->k (mod n);
 *   tornado       i + ceil(n / 2) - 1 (mod n);
 *   neighbour     the next leaf under the same leaf switch (m1 >= 2);
 *   hot-spot      a uniform permutation, then one uniform hot leaf, and
 *                 each source to it with probability @a->hot_pct %;
 *   uniform       a uniform leaf for each source, its own among them;
 *   hot-uniform   ft_pattern_other_dst() for each source in turn.
 * 0, or -1 when @p gives no such one destination per leaf or @s lacks
 * what it needs (digits, m1), as ft_pattern_fits() says.
 */
int ft_pattern_dsts(enum ft_pattern p, const struct ft_pattern_shape *s,
		    const struct ft_pattern_args *a, const struct ft_pattern_rng *rng,
		    uint32_t *dst);

/* Whether @s has what @p needs: digits (bit-reversal, transpose), m1 >= 2 (neighbour). */
bool ft_pattern_fits(enum ft_pattern p, const struct ft_pattern_shape *s);

/*
 * One draw of fttraffic's uniform and hot-uniform, for source @src of @n
 * leaves: @a->root with chance @a->hot_q32 (when @src is not the root),
 * else a uniform leaf other than @src; @src itself when @n < 2.
 */
uint32_t ft_pattern_other_dst(const struct ft_pattern_args *a, const struct ft_pattern_rng *rng,
			      uint32_t n, uint32_t src);

#endif /* FTPATTERN_H */
