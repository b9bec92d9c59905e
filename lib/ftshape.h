/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ftshape: the one shape syntax of every fattree tool (ftctl fabric add,
 * ftsim --shape, ftsim replay --shape):
 *
 *   binary:N                    Leiserson's binary fat-tree, N leaves (a
 *                               power of two): m = 2, w = 1 on each level
 *   kary:L:K                    seed 002's k-ary n-tree FT(L,K): L levels,
 *                               m = (K,...,K), w = (1,K,...,K)
 *   xgft:H:m1,...,mH:w1,...,wH  any XGFT(H; m; w)
 *
 * One word with colons, or the same words apart ("kary 3 4", ftctl's
 * iproute2-style form): one grammar, the colons stand for the blanks.
 */
#ifndef FTSHAPE_H
#define FTSHAPE_H

#include <stddef.h>
#include <stdint.h>

/* Levels a shape may have at all; a tool may allow fewer. */
#define FT_SHAPE_MAX_LEVELS	64

enum ft_shape_kind {
	FT_SHAPE_BINARY,
	FT_SHAPE_KARY,
	FT_SHAPE_XGFT,
	FT_SHAPE_NKINDS,
};

/*
 * What a tool takes: at most @levels levels (<= FT_SHAPE_MAX_LEVELS), m_i
 * up to @m, w_i up to @w, at most @leaves leaves. NULL limits: the
 * format's own (FT_SHAPE_MAX_LEVELS, 32-bit values and leaves); the
 * kernel checks its own.
 */
struct ft_shape_limits {
	uint32_t levels;
	uint32_t m;
	uint32_t w;
	uint64_t leaves;
};

struct ft_shape {
	enum ft_shape_kind kind;
	uint32_t h;				/* levels */
	uint32_t m[FT_SHAPE_MAX_LEVELS];	/* children of a level-i switch */
	uint32_t w[FT_SHAPE_MAX_LEVELS];	/* parents of a level-(i-1) node */
	uint64_t leaves;
	char desc[96];		/* "binary 256", "FT(3,4)", "XGFT(2; 8,4; 1,2)" */
};

/* A kind and the words that follow it. */
struct ft_shape_syntax {
	const char *kind;	/* "kary" */
	unsigned int nparams;	/* 2 */
	const char *params;	/* "L K" */
	const char *means;	/* "levels and arity" */
};

/* The syntax of the kind called @word, or NULL when none is. */
const struct ft_shape_syntax *ft_shape_syntax(const char *word);
/* "binary", "kary" or "xgft". */
const char *ft_shape_kind_name(enum ft_shape_kind kind);

/*
 * A shape from @n words, the kind first ("kary", "3", "4"). 0, or -1
 * with the reason in @why, naming the word that is wrong.
 */
int ft_shape_parse_words(char *const *word, unsigned int n,
			 const struct ft_shape_limits *lim, struct ft_shape *sh,
			 char *why, size_t len);
/* A shape from one word: "kary:3:4" (colons or blanks between its words). */
int ft_shape_parse(const char *s, const struct ft_shape_limits *lim,
		   struct ft_shape *sh, char *why, size_t len);

/* Seed 002's FT(@l, @k), l <= FT_SHAPE_MAX_LEVELS, unchecked. */
void ft_shape_kary(struct ft_shape *sh, uint32_t l, uint32_t k);

/* @sh in the colon syntax ("kary:3:4") into @buf; returns @buf. */
const char *ft_shape_spec(const struct ft_shape *sh, char *buf, size_t len);

#endif /* FTSHAPE_H */
