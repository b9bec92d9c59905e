/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Lane accounting per directed link.
 *
 * Every directed link has @lanes lanes, of which circuits hold
 * @reserved; the rest are free and contended each delivery cycle.  A
 * circuit reserves the same number of lanes on every link of its path,
 * all or nothing, so a refused batch changes nothing.
 */
#ifndef FT_LANES_H
#define FT_LANES_H

#include "ft_topo.h"

/**
 * struct ft_link - lanes of one directed link.
 * @lanes: lanes the link has now (c_level; 0 while the link is failed).
 * @reserved: lanes held by circuits; may exceed @lanes only after a
 *            failure cut a link under its circuits (ft_lanes_check()
 *            reports it).
 * @fail: why it is failed, FT_FAIL_* bits (ft_fail.h); 0 while it works.
 */
struct ft_link {
	u32 lanes;
	u32 reserved;
	u32 fail;
};

/**
 * struct ft_link_hot - what a delivery cycle reads of a link, packed.
 * @lanes: the link's @lanes (at most FT_MAX_LANES).
 * @free: ft_lanes_free() of the link.
 *
 * Four bytes a link instead of twelve, so that the cycle's random reads
 * of links stay in cache on large fabrics.  Kept in step by every change
 * of @lanes or @reserved (ft_lanes_reserve(), ft_lanes_release(),
 * ft_fail_link()); ft_lanes_check() verifies it.
 */
struct ft_link_hot {
	u16 lanes;
	u16 free;
};

/**
 * struct ft_lanes - lane state of a fabric.
 * @n: directed links (ft_topo_dlinks()).
 * @nfailed: directed links with a non-zero @fail; while it is 0 nothing
 *           looks at failures (the cycle's fast path).
 * @nreserved: directed links with reserved lanes; while it and @nfailed
 *             are 0 every link has all its level's lanes free, and the
 *             cycle reads no link's lanes.
 * @link: @n entries, indexed by directed link id.
 * @hot: @n entries, the packed copy the cycle reads.
 */
struct ft_lanes {
	u32 n;
	u32 nfailed;
	u32 nreserved;
	struct ft_link *link;
	struct ft_link_hot *hot;
};

int ft_lanes_init(struct ft_lanes *l, const struct ft_topo *t);
void ft_lanes_destroy(struct ft_lanes *l);
int ft_lanes_reserve(struct ft_lanes *l, const struct ft_path *p, u32 lanes);
int ft_lanes_release(struct ft_lanes *l, const struct ft_path *p, u32 lanes);
s64 ft_lanes_check(const struct ft_lanes *l);

/* Lanes of link @id open to contention this cycle. */
static inline u32 ft_lanes_free(const struct ft_lanes *l, u32 id)
{
	const struct ft_link *k = &l->link[id];

	return k->lanes > k->reserved ? k->lanes - k->reserved : 0;
}

/* Bring link @id's packed copy up to date after a change. */
static inline void ft_lanes_sync(struct ft_lanes *l, u32 id)
{
	l->hot[id].lanes = (u16)l->link[id].lanes;
	l->hot[id].free = (u16)ft_lanes_free(l, id);
}

#endif /* FT_LANES_H */
