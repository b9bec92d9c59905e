// SPDX-License-Identifier: GPL-2.0
/*
 * Link failures: failing and restoring directed links and switches, and
 * the search for minimal paths around failed links.
 */
#include "ft_fail.h"

/**
 * ft_fail_link() - set or clear reasons for a directed link to be failed.
 * @l: lane state.
 * @t: topology (the lanes a restored link gets back).
 * @id: directed link id, below l->n.
 * @bits: FT_FAIL_* reasons, at least one.
 * @on: true to add them, false to take them away.
 *
 * A link with any reason left has no lanes; the last reason gone gives it
 * its level's lanes again.  Its reservations are the circuits' business
 * (ft_circuits_cut()).
 *
 * Return: 1 when the link went from working to failed or back, 0 when its
 * state stayed (other reasons remain, or nothing changed), -FT_EINVAL for
 * a bad id or bits.
 */
int ft_fail_link(struct ft_lanes *l, const struct ft_topo *t, u32 id,
		 u32 bits, bool on)
{
	u32 level, local, dir, old, now;
	struct ft_link *k;

	if (id >= l->n || !bits || (bits & ~FT_FAIL_ALL))
		return -FT_EINVAL;
	k = &l->link[id];
	old = k->fail;
	now = on ? old | bits : old & ~bits;
	k->fail = now;
	if (!old == !now)
		return 0;
	if (now) {
		k->lanes = 0;
		l->nfailed++;
	} else {
		ft_topo_dlink_decode(t, id, &level, &local, &dir);
		k->lanes = t->lanes[level];
		l->nfailed--;
	}
	ft_lanes_sync(l, id);
	return 1;
}

/**
 * ft_fail_switch_nlinks() - directed links of a switch of @level.
 * @t: topology.
 * @level: 1..h.
 *
 * Return: 2 * (m_level + w_(level+1)) (no up links at the top), or 0 for a
 * level out of range.
 */
u32 ft_fail_switch_nlinks(const struct ft_topo *t, u32 level)
{
	if (level < 1 || level > t->h)
		return 0;
	return 2 * (t->m[level] + (level < t->h ? t->w[level + 1] : 0));
}

/**
 * ft_fail_switch_link() - the @k-th directed link of a switch.
 * @t: topology.
 * @level: the switch's level, 1..h.
 * @node: its node index at @level.
 * @k: below ft_fail_switch_nlinks(@t, @level): first the down and up
 *     directions of the links to its m_level children (by down-port),
 *     then those of the links to its w_(level+1) parents (by up-port).
 * @id: out, the directed link id.
 * @bit: out, FT_FAIL_UPPER (the switch is the link's upper end) or
 *       FT_FAIL_LOWER.
 *
 * Return: 0, or -FT_EINVAL for a switch or @k out of range.
 */
int ft_fail_switch_link(const struct ft_topo *t, u32 level, u32 node, u32 k,
			u32 *id, u32 *bit)
{
	u32 child, port, down = 2 * t->m[level];

	if (level < 1 || level > t->h || node >= t->nodes[level] ||
	    k >= ft_fail_switch_nlinks(t, level))
		return -FT_EINVAL;
	if (k < down) {
		child = ft_topo_down(t, level, node, k / 2, &port);
		*id = ft_topo_dlink(t, level, child * t->w[level] + port, k & 1);
		*bit = FT_FAIL_UPPER;
		return 0;
	}
	k -= down;
	*id = ft_topo_dlink(t, level + 1, node * t->w[level + 1] + k / 2, k & 1);
	*bit = FT_FAIL_LOWER;
	return 0;
}

/**
 * ft_fail_hop_ok() - both links of one level of a path work.
 * @t: topology.
 * @l: lane state.
 * @src: source leaf.
 * @dst: destination leaf.
 * @level: the level entered, 1..H.
 * @y: Y of the path's level-(@level - 1) nodes (the ports below).
 * @port: P_level.
 *
 * Return: true when the up link from the source side and the down link to
 * the destination side through @port both work.
 */
bool ft_fail_hop_ok(const struct ft_topo *t, const struct ft_lanes *l,
		    u32 src, u32 dst, u32 level, u32 y, u32 port)
{
	u32 su = ft_topo_node(t, level - 1, src / t->mprod[level - 1], y);
	u32 du = ft_topo_node(t, level - 1, dst / t->mprod[level - 1], y);
	u32 w = t->w[level];

	return !ft_fail_is_failed(l, ft_topo_dlink(t, level, su * w + port, FT_UP)) &&
	       !ft_fail_is_failed(l, ft_topo_dlink(t, level, du * w + port, FT_DOWN));
}

/**
 * ft_fail_route() - can a path be completed above @level?
 * @t: topology.
 * @l: lane state.
 * @src: source leaf.
 * @dst: destination leaf.
 * @hh: their common level H.
 * @level: levels 1..@level are chosen already (0: none).
 * @y: Y of the path's level-@level nodes.
 *
 * Depth-first over P_(level+1)..P_H, lowest port first, without recursion.
 *
 * Return: true when some choice of the remaining up-ports gives a path
 * whose links above @level all work (always true when none is failed).
 */
bool ft_fail_route(const struct ft_topo *t, const struct ft_lanes *l,
		   u32 src, u32 dst, u32 hh, u32 level, u32 y)
{
	u32 port[FT_MAX_LEVELS + 1];
	u32 i = level + 1;

	if (level >= hh || !l->nfailed)
		return true;
	port[i] = 0;
	for (;;) {
		if (port[i] >= t->w[i]) {
			if (--i == level)
				return false;
			y /= t->w[i];	/* back to the level below i */
			port[i]++;
			continue;
		}
		if (ft_fail_hop_ok(t, l, src, dst, i, y, port[i])) {
			if (i == hh)
				return true;
			y = y * t->w[i] + port[i];
			port[++i] = 0;
			continue;
		}
		port[i]++;
	}
}

/**
 * ft_fail_port_ok() - may a path take up-port @port at @level?
 * @t: topology.
 * @l: lane state.
 * @src: source leaf.
 * @dst: destination leaf.
 * @hh: their common level H, at least @level.
 * @level: 1..H.
 * @y: Y of the path's level-(@level - 1) nodes.
 * @port: the candidate P_level.
 *
 * Return: true when both links of @level through @port work and the path
 * can still be completed above.
 */
bool ft_fail_port_ok(const struct ft_topo *t, const struct ft_lanes *l,
		     u32 src, u32 dst, u32 hh, u32 level, u32 y, u32 port)
{
	if (!l->nfailed)
		return true;
	return ft_fail_hop_ok(t, l, src, dst, level, y, port) &&
	       ft_fail_route(t, l, src, dst, hh, level, y * t->w[level] + port);
}

/**
 * ft_fail_path_ok() - no link of a path is failed.
 * @l: lane state.
 * @p: the path (links below l->n).
 *
 * Return: true when every link of @p works.
 */
bool ft_fail_path_ok(const struct ft_lanes *l, const struct ft_path *p)
{
	u32 k;

	if (!l->nfailed)
		return true;
	for (k = 0; k < p->n; k++)
		if (ft_fail_is_failed(l, p->link[k]))
			return false;
	return true;
}
