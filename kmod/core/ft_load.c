// SPDX-License-Identifier: GPL-2.0
/*
 * Load(M, c) and lambda(M) in O(|M| h), and the congestion
 * parameter r of seed 000 section 4.
 */
#include "ft_load.h"
#include "ft_math.h"

/**
 * ft_load_scratch_size() - bytes of the per-channel load array.
 * @t: topology.
 *
 * Return: size of a u32 per channel (both directions).
 */
size_t ft_load_scratch_size(const struct ft_topo *t)
{
	return (size_t)ft_topo_channels_total(t) * sizeof(u32);
}

static int ft_load_check(const struct ft_topo *t, const struct ft_demand *dm,
			 u32 nd)
{
	u64 total = 0;
	u32 k;

	/* Any channel's load is at most the total, so this bounds them all. */
	for (k = 0; k < nd; k++) {
		if (dm[k].src >= t->n || dm[k].dst >= t->n)
			return -FT_EINVAL;
		total += dm[k].count;
	}
	return total > 0xffffffffULL ? -FT_ERANGE : 0;
}

/* A walk over the channels of a message set, and what it keeps. */
struct ft_load_walk {
	u32 *loads;
	struct ft_lambda best;
};

/*
 * Call @visit for each channel the messages of @dm cross, once per
 * message: one from s to d with common level H crosses the up channels of
 * s's subtrees at levels 0..H-1 and the down channels of d's.
 */
static __always_inline void
ft_load_walk(const struct ft_topo *t, const struct ft_demand *dm, u32 nd,
	     struct ft_load_walk *w,
	     void (*visit)(const struct ft_topo *t, struct ft_load_walk *w,
			   u32 level, u32 x, u32 dir, u32 count))
{
	u32 k, i, s, d;

	for (k = 0; k < nd; k++) {
		s = dm[k].src;
		d = dm[k].dst;
		for (i = 0; s != d; i++) {
			visit(t, w, i, s, FT_UP, dm[k].count);
			visit(t, w, i, d, FT_DOWN, dm[k].count);
			s /= t->m[i + 1];
			d /= t->m[i + 1];
		}
	}
}

static void ft_load_visit_add(const struct ft_topo *t, struct ft_load_walk *w,
			      u32 level, u32 x, u32 dir, u32 count)
{
	w->loads[ft_load_channel(t, level, x, dir)] += count;
}

/**
 * ft_load_add() - add a message set's loads to a per-channel array.
 * @t: topology.
 * @dm: message set, @nd entries.
 * @nd: entries.
 * @loads: per-channel loads, indexed by ft_load_channel().
 *
 * Return: 0, or -FT_EINVAL / -FT_ERANGE and @loads unchanged.
 */
int ft_load_add(const struct ft_topo *t, const struct ft_demand *dm, u32 nd,
		u32 *loads)
{
	struct ft_load_walk w = { .loads = loads };
	int err = ft_load_check(t, dm, nd);

	if (err)
		return err;
	ft_load_walk(t, dm, nd, &w, ft_load_visit_add);
	return 0;
}

/* Add @count to a channel, keeping the one of the highest load factor. */
static void ft_load_visit_bump(const struct ft_topo *t, struct ft_load_walk *w,
			       u32 level, u32 x, u32 dir, u32 count)
{
	struct ft_lambda *best = &w->best;
	u32 id = ft_load_channel(t, level, x, dir);
	u64 cap = ft_topo_channel_cap(t, level);

	w->loads[id] += count;
	if (ft_mul_cmp(w->loads[id], best->cap, best->load, cap) > 0) {
		best->load = w->loads[id];
		best->cap = cap;
		best->level = level;
		best->subtree = x;
		best->dir = dir;
	}
}

/* Take the loads added back off: the scratch is zero again. */
static void ft_load_visit_sub(const struct ft_topo *t, struct ft_load_walk *w,
			      u32 level, u32 x, u32 dir, u32 count)
{
	w->loads[ft_load_channel(t, level, x, dir)] -= count;
}

/**
 * ft_lambda() - the load factor of a message set.
 * @t: topology.
 * @dm: message set, @nd entries.
 * @nd: entries.
 * @loads: scratch of ft_load_scratch_size() bytes, all zero on entry;
 *         zero again on return (only the channels touched are visited,
 *         so the cost is O(nd * h), not O(channels)).
 * @out: the load factor, as a fraction and in milli-units.
 *
 * Return: 0, or -FT_EINVAL / -FT_ERANGE.
 */
int ft_lambda(const struct ft_topo *t, const struct ft_demand *dm, u32 nd,
	      u32 *loads, struct ft_lambda *out)
{
	struct ft_load_walk w = {
		.loads = loads, .best = { .load = 0, .cap = 1 },
	};
	int err = ft_load_check(t, dm, nd);

	if (err)
		return err;
	ft_load_walk(t, dm, nd, &w, ft_load_visit_bump);
	ft_load_walk(t, dm, nd, &w, ft_load_visit_sub);
	w.best.milli = ft_div_ceil64((u64)w.best.load * 1000, w.best.cap);
	*out = w.best;
	return 0;
}

/* e * 2^48, rounded: e / r in Q32 is this divided by r in Q16. */
#define FT_E_Q48	765128314358509ULL

/*
 * Sum over the longest path (h up links, h down links) of (e / r)^lanes,
 * in Q32.  Seed 000 defines r on channels; here the unit that overflows
 * is a link (its lanes), the same thing on w = 1 trees and the safe side
 * when w > 1.
 */
static u64 ft_congestion_sum(const struct ft_topo *t, u64 r_q16)
{
	u64 x = ft_div64(FT_E_Q48, r_q16), sum = 0;
	u32 i;

	for (i = 1; i <= t->h; i++)
		sum += 2 * ft_pow_q32(x, t->lanes[i]);
	return sum;
}

/**
 * ft_congestion_r() - RANDOM's congestion parameter r, in Q16.
 * @t: topology.
 *
 * The smallest r with sum over every simple path of (e / r)^cap <= 1/2
 * (seed 000, section 4).  Terms are positive, so the longest path (up
 * to level h and down) decides.  Exact to 1/65536 up to the Q32 powers'
 * rounding; about 13.2 for doubling capacities, 24.2 for the standard
 * fat-tree, 4 e lg n when every capacity is 1.
 *
 * Return: r in Q16.
 */
u32 ft_congestion_r(const struct ft_topo *t)
{
	/* r = e gives terms of 1 (sum >= 2 > 1/2); r = 4 e h always fits. */
	u64 lo = ft_div64(FT_E_Q48, FT_Q32_ONE), hi = 4 * t->h * lo + 1;
	u64 mid;

	while (hi - lo > 1) {
		mid = lo + (hi - lo) / 2;
		if (ft_congestion_sum(t, mid) <= FT_Q32_ONE / 2)
			hi = mid;
		else
			lo = mid;
	}
	return (u32)hi;
}
