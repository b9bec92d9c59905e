/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Channel loads, the load factor lambda, and RANDOM's
 * congestion parameter r.
 *
 * A channel (Leiserson) of level i, 0 <= i < h, is every link between
 * the level-i nodes of one subtree X (X = leaf div M_i) and level i + 1,
 * in one direction.  Its id is 2 * (chan_base[i] + X) + direction.
 * lambda(M) = max over channels of load / capacity is reported as the
 * exact fraction of the argmax channel plus ceil(1000 * lambda), so that
 * "lambda <= 1" is "milli <= 1000" with no rounding surprise.
 */
#ifndef FT_LOAD_H
#define FT_LOAD_H

#include "ft_topo.h"

/**
 * struct ft_demand - @count messages from leaf @src to leaf @dst.
 * @src: source leaf.
 * @dst: destination leaf.
 * @count: messages.
 */
struct ft_demand {
	u32 src;
	u32 dst;
	u32 count;
};

/**
 * struct ft_lambda - the load factor and where it is reached.
 * @load: load of the argmax channel (0 for an empty set).
 * @cap: capacity of the argmax channel (1 for an empty set).
 * @level: its level, 0..h-1.
 * @subtree: its subtree X at that level.
 * @dir: FT_UP or FT_DOWN.
 * @milli: ceil(1000 * load / cap).
 */
struct ft_lambda {
	u32 load;
	u64 cap;
	u32 level;
	u32 subtree;
	u32 dir;
	u64 milli;
};

/* Channel id of subtree @x of @level in direction @dir. */
static inline u32 ft_load_channel(const struct ft_topo *t, u32 level, u32 x,
				  u32 dir)
{
	return ((t->chan_base[level] + x) << 1) | dir;
}

size_t ft_load_scratch_size(const struct ft_topo *t);
int ft_load_add(const struct ft_topo *t, const struct ft_demand *dm, u32 nd,
		u32 *loads);
int ft_lambda(const struct ft_topo *t, const struct ft_demand *dm, u32 nd,
	      u32 *loads, struct ft_lambda *out);
u32 ft_congestion_r(const struct ft_topo *t);

#endif /* FT_LOAD_H */
