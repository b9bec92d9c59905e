/* SPDX-License-Identifier: GPL-2.0 */
/* Shared helpers of the scheduling library's tests. */
#ifndef FT_SCHED_TEST_UTIL_H
#define FT_SCHED_TEST_UTIL_H

#include "../../lib/sched/ft_sched.h"
#include "../../lib/sched/ft_sched_check.h"
#include "../../kmod/core/ft_rand.h"

extern const u32 ones[FT_MAX_LEVELS];

/* Seed 002's FT(l, w): m = (w..w), w = (1, w..w), @lanes per link. */
int ft_lw(struct ft_topo *t, u32 l, u32 w, u32 lanes);

/* A uniform random permutation of 0..n-1. */

/* Requests i -> perm[i], @lanes each. */
void perm_reqs(struct ft_sched_req *q, const u32 *perm, u32 n, u32 lanes);

/*
 * A random XGFT: 1..max_h levels, m 2..5, w 1..m + 1 (slimmed and fat
 * levels), lanes 1..3, at most 400 leaves.
 */
void random_shape(struct ft_rand *r, struct ft_topo *t, u32 max_h);

/*
 * The fabric of a randomized test's trial @trial: every @every-th trial
 * (trial 0 first) seed 002's FT(2 + trial % 3, 4) with 1 + trial % @lanes
 * lanes per link, the others a random_shape() of at most @max_h levels.
 */
void trial_shape(struct ft_rand *r, struct ft_topo *t, u32 trial, u32 every,
		 u32 lanes, u32 max_h);

/*
 * Run @o on @s and validate with the independent checker (free lanes
 * before and after; @exact: no refused request may keep lanes).  Return
 * 0, or -1 with the reason in @why.
 */
int run_checked(struct ft_sched *s, const struct ft_sched_opts *o,
		const struct ft_sched_req *q, u32 n, struct ft_sched_out *out,
		struct ft_sched_stats *st, char *why, size_t len);

/* A request pattern of @kind into q (at most @max entries); returns n. */
enum pattern {
	PAT_PERM,	/* random permutation */
	PAT_A2A,	/* random subset of all-to-all */
	PAT_HOT,	/* hot spot: many to a few */
	PAT_RANDOM,	/* uniform random pairs, duplicates allowed */
	PAT_SHIFT,	/* i -> i + n/2 */
	PAT_NPATTERNS,
};
u32 make_pattern(struct ft_rand *r, const struct ft_topo *t, enum pattern k,
		 u32 max_lanes, struct ft_sched_req *q, u32 max);
const char *pattern_name(enum pattern k);

/* Take random paths out of @s's free lanes (pre-existing circuits). */
void random_reservations(struct ft_rand *r, struct ft_sched *s, u32 count);

#endif
