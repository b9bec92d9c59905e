/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Capacity profiles: lanes per level c_1..c_h.
 *
 * The papers give channel capacities for binary trees level by level.
 * For any XGFT a profile here is a function of S = M_i, the number of
 * leaves under a level-i channel (0 <= i < h), which is 2^i in a binary
 * tree, so binary trees get the papers' numbers exactly and other trees
 * get the same growth per leaf:
 *
 *   constant(c)    c_i = c on every level (not channel based: it is what
 *                  seed 002 and "all capacities equal" mean)
 *   doubling(b)    cap = b * S                  (x2 per binary level)
 *   standard(b)    cap = b * 2^floor(lg S / 2)  (x2 every other level,
 *                  1, 1, 2, 2, 4, ... from the leaves, root sqrt(n))
 *   area(b)        cap = ceil(b * sqrt(S))      (sqrt 2 per level)
 *   volume(b)      cap = ceil(b * S^(2/3))      (cbrt 4 per level)
 *   universal(w)   cap = min(S, ceil(w * (S / n)^(2/3))), Leiserson's
 *                  min{ceil(n / 2^k), ceil(w / 2^(2k/3))} at k = lg(n / S)
 *   explicit       c_i given per level
 *
 * b is the leaf capacity (Leiserson's d connections per processor).
 * Every rounding is up (a channel never gets less than the formula), and
 * is exact: the roots are integer roots, e.g. ceil(b * sqrt(S)) is the
 * smallest q with q^2 >= b^2 * S.  A channel of level i has W_i * w_(i+1)
 * links, so the lanes of level i + 1 are ceil(cap / (W_i * w_(i+1))),
 * at least 1: on w = 1 trees lanes == cap.
 */
#ifndef FT_PROFILE_H
#define FT_PROFILE_H

#include "ft_topo.h"

enum ft_profile_kind {
	FT_PROFILE_CONSTANT,
	FT_PROFILE_DOUBLING,
	FT_PROFILE_STANDARD,
	FT_PROFILE_AREA,
	FT_PROFILE_VOLUME,
	FT_PROFILE_UNIVERSAL,
	FT_PROFILE_EXPLICIT,
};

/**
 * struct ft_profile - a capacity profile and its parameters.
 * @kind: which formula.
 * @base: constant: the lanes; doubling/standard/area/volume: the leaf
 *        capacity b (0 means 1); unused otherwise.
 * @root: universal: Leiserson's root capacity w, 1..n.
 * @table: explicit: lanes c_1..c_h.
 */
struct ft_profile {
	enum ft_profile_kind kind;
	u32 base;
	u32 root;
	u32 table[FT_MAX_LEVELS];
};

int ft_profile_channel_cap(const struct ft_profile *p, u32 n, u64 s,
			   u64 *cap);
int ft_profile_lanes(const struct ft_profile *p, u32 h, const u32 *m,
		     const u32 *w, u32 *lanes);

#endif /* FT_PROFILE_H */
