/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Link failures: which directed links carry nothing, and the minimal
 * paths that avoid them.
 *
 * A directed link fails by itself (FT_FAIL_SELF) or with a switch at one
 * of its ends (FT_FAIL_LOWER: the level-(i-1) switch below it;
 * FT_FAIL_UPPER: the level-i switch above it); it works again when no
 * reason is left, so restoring a link under a failed switch leaves it
 * failed, and restoring one switch leaves the links of a failed
 * neighbour failed.  A failed link has no lanes (struct ft_link @lanes
 * is 0; its reservations go with the circuits that ft_circuits_cut()
 * tears down), so the lane accounting, circuit admission and the
 * schedulers see it as full.
 *
 * Path choice avoids failed links where another minimal path exists: the
 * path of (src, dst) climbs to the common level H through up-ports
 * P_1..P_H and comes down through the same ports (seed 002, Theorem 2),
 * so the up-port taken at level i decides the up link AND the down link
 * of level i, and what is reachable above.  ft_fail_route() searches the
 * ports depth first; each failed link cuts its branch once, so a search
 * costs O(w * (H + failed links met)) and nothing when no link is failed.
 * All of it runs in atomic context without allocating.
 */
#ifndef FT_FAIL_H
#define FT_FAIL_H

#include "ft_lanes.h"

#define FT_FAIL_SELF	0x1U	/* the link itself */
#define FT_FAIL_LOWER	0x2U	/* the switch at its lower end */
#define FT_FAIL_UPPER	0x4U	/* the switch at its upper end */
#define FT_FAIL_ALL	0x7U

int ft_fail_link(struct ft_lanes *l, const struct ft_topo *t, u32 id,
		 u32 bits, bool on);
u32 ft_fail_switch_nlinks(const struct ft_topo *t, u32 level);
int ft_fail_switch_link(const struct ft_topo *t, u32 level, u32 node, u32 k,
			u32 *id, u32 *bit);
bool ft_fail_hop_ok(const struct ft_topo *t, const struct ft_lanes *l,
		    u32 src, u32 dst, u32 level, u32 y, u32 port);
bool ft_fail_route(const struct ft_topo *t, const struct ft_lanes *l,
		   u32 src, u32 dst, u32 hh, u32 level, u32 y);
bool ft_fail_port_ok(const struct ft_topo *t, const struct ft_lanes *l,
		     u32 src, u32 dst, u32 hh, u32 level, u32 y, u32 port);
bool ft_fail_path_ok(const struct ft_lanes *l, const struct ft_path *p);

/* Directed link @id carries nothing. */
static inline bool ft_fail_is_failed(const struct ft_lanes *l, u32 id)
{
	return l->link[id].fail != 0;
}

#endif /* FT_FAIL_H */
