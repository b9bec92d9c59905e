// SPDX-License-Identifier: GPL-2.0
/*
 * XGFT numbering, links and leaf-to-leaf paths.
 */
#include "ft_topo.h"

static int ft_topo_check_level(u32 m, u32 w, u32 lanes)
{
	/*
	 * m >= 2: a switch with one child is a wire, and it would make two
	 * levels share one subtree (H would be ambiguous).  w >= 1 and
	 * lanes >= 1: a fabric without links cannot deliver anything; link
	 * failures are modelled per link, not by a zero in the shape.
	 */
	if (m < 2 || m > FT_MAX_M)
		return -FT_EINVAL;
	if (w < 1 || w > FT_MAX_W)
		return -FT_EINVAL;
	if (lanes < 1 || lanes > FT_MAX_LANES)
		return -FT_EINVAL;
	return 0;
}

/**
 * ft_topo_init() - validate an XGFT shape and derive its counts.
 * @t: topology to fill (left zeroed on error).
 * @h: switch levels, 1..FT_MAX_LEVELS.
 * @m: m_1..m_h (children per switch), each 2..FT_MAX_M.
 * @w: w_1..w_h (parents per node), each 1..FT_MAX_W.
 * @lanes: c_1..c_h (lanes per directed link), each 1..FT_MAX_LANES.
 *
 * Rejects shapes whose leaves exceed FT_MAX_LEAVES or whose directed
 * links exceed FT_MAX_DLINKS, so every count below fits in a u32.
 *
 * Return: 0 or -FT_EINVAL.
 */
int ft_topo_init(struct ft_topo *t, u32 h, const u32 *m, const u32 *w,
		 const u32 *lanes)
{
	u64 n = 1, wp = 1, nodes, links = 0, chans = 0;
	u32 i;
	int err;

	memset(t, 0, sizeof(*t));
	if (h < 1 || h > FT_MAX_LEVELS)
		return -FT_EINVAL;
	for (i = 1; i <= h; i++) {
		err = ft_topo_check_level(m[i - 1], w[i - 1], lanes[i - 1]);
		if (err)
			return err;
		n *= m[i - 1];
		if (n > FT_MAX_LEAVES)
			return -FT_EINVAL;
	}
	t->h = h;
	t->n = (u32)n;
	t->m[0] = 1;
	t->w[0] = 1;
	t->mprod[0] = 1;
	t->wprod[0] = 1;
	t->nodes[0] = t->n;
	for (i = 1; i <= h; i++) {
		t->m[i] = m[i - 1];
		t->w[i] = w[i - 1];
		t->lanes[i] = lanes[i - 1];
		t->mprod[i] = t->mprod[i - 1] * t->m[i];
		/* Links of level i, counted before W grows past them. */
		t->link_base[i] = (u32)links;
		links += (u64)t->nodes[i - 1] * t->w[i];
		if (2 * links > FT_MAX_DLINKS)
			goto inval;
		wp *= t->w[i];
		nodes = (u64)(t->n / t->mprod[i]) * wp;
		if (nodes > FT_MAX_DLINKS)
			goto inval;
		t->wprod[i] = (u32)wp;
		t->nodes[i] = (u32)nodes;
	}
	t->link_base[h + 1] = (u32)links;
	for (i = 0; i < h; i++) {
		t->chan_base[i] = (u32)chans;
		chans += t->n / t->mprod[i];
	}
	t->chan_base[h] = (u32)chans;
	return 0;
inval:
	memset(t, 0, sizeof(*t));
	return -FT_EINVAL;
}

/**
 * ft_topo_dlink_decode() - split a directed link id.
 * @t: topology.
 * @id: directed link id, below ft_topo_dlinks().
 * @level: out, 1..h.
 * @local: out, physical link within the level (child * w_level + port).
 * @dir: out, FT_UP or FT_DOWN.
 */
void ft_topo_dlink_decode(const struct ft_topo *t, u32 id, u32 *level,
			  u32 *local, u32 *dir)
{
	u32 phys = id >> 1, i = 1;

	while (i < t->h && phys >= t->link_base[i + 1])
		i++;
	*level = i;
	*local = phys - t->link_base[i];
	*dir = id & 1;
}

/**
 * ft_topo_link_decode() - a directed link id as the link's coordinates.
 * @t: topology.
 * @id: directed link id, below ft_topo_dlinks().
 * @level: out, 1..h.
 * @node: out, the node of level @level - 1 it leaves upwards.
 * @port: out, that node's up-port, below w_level.
 * @dir: out, FT_UP or FT_DOWN.
 *
 * The inverse of ft_topo_link().
 */
void ft_topo_link_decode(const struct ft_topo *t, u32 id, u32 *level,
			 u32 *node, u32 *port, u32 *dir)
{
	u32 local;

	ft_topo_dlink_decode(t, id, level, &local, dir);
	*node = local / t->w[*level];
	*port = local % t->w[*level];
}

/**
 * ft_topo_link_check() - whether a link's coordinates name one.
 * @t: topology.
 * @level: 1..h.
 * @node: a node of level @level - 1.
 * @port: one of its up-ports, below w_level.
 *
 * Checked in that order, for a caller that names what is wrong.
 *
 * Return: FT_TOPO_LINK_OK, or the first coordinate out of range.
 */
enum ft_topo_link_bad ft_topo_link_check(const struct ft_topo *t, u32 level,
					 u32 node, u32 port)
{
	if (!level || level > t->h)
		return FT_TOPO_LINK_LEVEL;
	if (node >= t->nodes[level - 1])
		return FT_TOPO_LINK_NODE;
	if (port >= t->w[level])
		return FT_TOPO_LINK_PORT;
	return FT_TOPO_LINK_OK;
}

/**
 * ft_topo_up() - parent reached through an up-port.
 * @t: topology.
 * @level: level of the parent, 1..h.
 * @child: node index at level - 1.
 * @port: up-port, below w_level.
 *
 * Return: the parent's node index at @level.
 */
u32 ft_topo_up(const struct ft_topo *t, u32 level, u32 child, u32 port)
{
	u32 x = child / t->wprod[level - 1];
	u32 y = child % t->wprod[level - 1];

	return ft_topo_node(t, level, x / t->m[level], y * t->w[level] + port);
}

/**
 * ft_topo_down() - child reached through a down-port.
 * @t: topology.
 * @level: level of @node, 1..h.
 * @node: node index at @level.
 * @dport: down-port, below m_level; it is the child's digit x_level.
 * @port: out (may be NULL), the child's up-port leading back to @node.
 *
 * Return: the child's node index at level - 1.
 */
u32 ft_topo_down(const struct ft_topo *t, u32 level, u32 node, u32 dport,
		 u32 *port)
{
	u32 x = node / t->wprod[level];
	u32 y = node % t->wprod[level];

	if (port)
		*port = y % t->w[level];
	return ft_topo_node(t, level - 1, x * t->m[level] + dport,
			    y / t->w[level]);
}

/**
 * ft_topo_common_level() - level H of the lowest common ancestors.
 * @t: topology.
 * @src: source leaf.
 * @dst: destination leaf.
 *
 * H = 0 when @src == @dst; otherwise the smallest i with equal subtree
 * digits above level i.  (Seed 002's H is ours minus one.)
 *
 * Return: H, 0..h.
 */
u32 ft_topo_common_level(const struct ft_topo *t, u32 src, u32 dst)
{
	u32 i = 0;

	while (src != dst) {
		i++;
		src /= t->m[i];
		dst /= t->m[i];
	}
	return i;
}

/**
 * ft_topo_dmodk_port() - destination-mod-k up-port.
 * @t: topology.
 * @dst: destination leaf.
 * @level: level being entered, 1..h.
 *
 * Return: P_level = (dst div W_(level-1)) mod w_level.
 */
u32 ft_topo_dmodk_port(const struct ft_topo *t, u32 dst, u32 level)
{
	return (dst / t->wprod[level - 1]) % t->w[level];
}

/**
 * ft_topo_path() - the directed links of a path for given up-ports.
 * @t: topology.
 * @src: source leaf, below n.
 * @dst: destination leaf, below n.
 * @port: port[i - 1] = P_i for i = 1..H (H = ft_topo_common_level()).
 * @path: out: up links of levels 1..H, then the down links of levels
 *        H..1, which reuse the same ports (seed 002, Theorem 2).
 *
 * Return: 0, or -FT_EINVAL for a leaf or port out of range.
 */
int ft_topo_path(const struct ft_topo *t, u32 src, u32 dst, const u32 *port,
		 struct ft_path *path)
{
	u32 hh, i, y = 0, node;

	path->n = 0;
	if (src >= t->n || dst >= t->n)
		return -FT_EINVAL;
	hh = ft_topo_common_level(t, src, dst);
	for (i = 1; i <= hh; i++) {
		if (port[i - 1] >= t->w[i])
			return -FT_EINVAL;
		/* y is Y of the level-(i-1) node on the way up. */
		node = ft_topo_node(t, i - 1, src / t->mprod[i - 1], y);
		path->link[i - 1] = ft_topo_dlink(t, i, node * t->w[i] +
						  port[i - 1], FT_UP);
		y = y * t->w[i] + port[i - 1];
	}
	for (i = hh; i >= 1; i--) {
		y /= t->w[i];
		node = ft_topo_node(t, i - 1, dst / t->mprod[i - 1], y);
		path->link[2 * hh - i] = ft_topo_dlink(t, i, node * t->w[i] +
						       port[i - 1], FT_DOWN);
	}
	path->n = 2 * hh;
	return 0;
}
