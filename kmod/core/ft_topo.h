/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The fabric's shape: XGFT(h; m_1..m_h; w_1..w_h).
 *
 * Leaves are level 0, switches levels 1..h.  A node at level i has the
 * label (X, Y): X holds the subtree digits x_h..x_{i+1} (radix m), Y the
 * up-port choices y_1..y_i (y_i least significant, radix w_j); its index
 * is X * W_i + Y with W_i = w_1 * ... * w_i.  Up-port p of level-(i-1)
 * node (X, Y) leads to level-i node (X div m_i, Y * w_i + p); the parent's
 * down-port back is X mod m_i.  With m = (w..w), w = (1, w..w) this is
 * seed 002's FT(l, w): their SW(j, tau) is our level j + 1, node tau, and
 * their P_j is our P_(j+2).
 *
 * The physical link between level-(i-1) node u and its parent through
 * up-port p is link u * w_i + p of level i; each has an up and a down
 * direction ("directed links", ids 2 * physical + direction), each with
 * lanes[i] lanes.
 */
#ifndef FT_TOPO_H
#define FT_TOPO_H

#include "ft_compat.h"

/*
 * Bounds that keep every count in a u32 and every product below in 64
 * bits; a host may impose tighter ones.  20 levels: binary trees up to
 * FT_MAX_LEAVES (Leiserson's model has lg n levels).
 */
#define FT_MAX_LEVELS	20
#define FT_MAX_LEAVES	0x100000U	/* 2^20 */
#define FT_MAX_M	0x10000U	/* children per switch */
#define FT_MAX_W	256U		/* parents per node: a port fits a byte */
#define FT_MAX_LANES	65535U		/* lanes per directed link */
#define FT_MAX_DLINKS	0x1000000U	/* 2^24 directed links (and nodes) */
#define FT_PATH_MAX	(2 * FT_MAX_LEVELS)

/* Direction of a directed link, also its lowest id bit. */
enum ft_dir {
	FT_UP = 0,
	FT_DOWN = 1,
};

/**
 * struct ft_topo - an XGFT and its derived counts (all arrays by level).
 * @h: switch levels.
 * @n: leaves, m_1 * ... * m_h.
 * @m: children per level-i switch, i = 1..h (m[0] = 1).
 * @w: parents per level-(i-1) node, i = 1..h (w[0] = 1).
 * @lanes: lanes of each directed link of level i, i = 1..h.
 * @mprod: M_i = m_1 * ... * m_i, leaves under a level-i node (M_0 = 1).
 * @wprod: W_i = w_1 * ... * w_i, the radix of Y at level i (W_0 = 1).
 * @nodes: nodes at level i = (n / M_i) * W_i, i = 0..h.
 * @link_base: first physical link of level i, i = 1..h + 1 (the last is
 *             the number of physical links).
 * @chan_base: first channel of level i, i = 0..h (the last is the count).
 */
struct ft_topo {
	u32 h;
	u32 n;
	u32 m[FT_MAX_LEVELS + 1];
	u32 w[FT_MAX_LEVELS + 1];
	u32 lanes[FT_MAX_LEVELS + 1];
	u32 mprod[FT_MAX_LEVELS + 1];
	u32 wprod[FT_MAX_LEVELS + 1];
	u32 nodes[FT_MAX_LEVELS + 1];
	u32 link_base[FT_MAX_LEVELS + 2];
	u32 chan_base[FT_MAX_LEVELS + 1];
};

/**
 * struct ft_path - the directed links of one leaf-to-leaf path.
 * @n: number of links, 2 * H (0 when source == destination).
 * @link: up links of levels 1..H, then down links of levels H..1.
 */
struct ft_path {
	u32 n;
	u32 link[FT_PATH_MAX];
};

int ft_topo_init(struct ft_topo *t, u32 h, const u32 *m, const u32 *w,
		 const u32 *lanes);
void ft_topo_dlink_decode(const struct ft_topo *t, u32 id, u32 *level,
			  u32 *local, u32 *dir);
void ft_topo_link_decode(const struct ft_topo *t, u32 id, u32 *level,
			 u32 *node, u32 *port, u32 *dir);

/* Which coordinate of a link ft_topo_link_check() found out of range. */
enum ft_topo_link_bad {
	FT_TOPO_LINK_OK,
	FT_TOPO_LINK_LEVEL,	/* not 1..h */
	FT_TOPO_LINK_NODE,	/* no such node at level - 1 */
	FT_TOPO_LINK_PORT,	/* an up-port not below w_level */
};

enum ft_topo_link_bad ft_topo_link_check(const struct ft_topo *t, u32 level,
					 u32 node, u32 port);
u32 ft_topo_up(const struct ft_topo *t, u32 level, u32 child, u32 port);
u32 ft_topo_down(const struct ft_topo *t, u32 level, u32 node, u32 dport,
		 u32 *port);
u32 ft_topo_common_level(const struct ft_topo *t, u32 src, u32 dst);
u32 ft_topo_dmodk_port(const struct ft_topo *t, u32 dst, u32 level);
int ft_topo_path(const struct ft_topo *t, u32 src, u32 dst, const u32 *port,
		 struct ft_path *path);

/* Number of directed links (both directions of every physical link). */
static inline u32 ft_topo_dlinks(const struct ft_topo *t)
{
	return 2 * t->link_base[t->h + 1];
}

/* Directed link id of physical link @local of @level in direction @dir. */
static inline u32 ft_topo_dlink(const struct ft_topo *t, u32 level, u32 local,
				u32 dir)
{
	return ((t->link_base[level] + local) << 1) | dir;
}

/*
 * Directed link id of the link of @level (1..h) that leaves node @node of
 * level @level - 1 through its up-port @port, in direction @dir: the
 * coordinates ft_topo_link_decode() gives back.
 */
static inline u32 ft_topo_link(const struct ft_topo *t, u32 level, u32 node,
			       u32 port, u32 dir)
{
	return ft_topo_dlink(t, level, node * t->w[level] + port, dir);
}

/* Node index of label (X, Y) at @level. */
static inline u32 ft_topo_node(const struct ft_topo *t, u32 level, u32 x,
			       u32 y)
{
	return x * t->wprod[level] + y;
}

/* Digit x_@level (radix m_level) of @leaf: its down-port at that level. */
static inline u32 ft_topo_digit(const struct ft_topo *t, u32 leaf, u32 level)
{
	return (leaf / t->mprod[level - 1]) % t->m[level];
}

/*
 * Subtree digits X = x_h..x_2 of @leaf's leaf switches (seed 002's
 * sigma_0): its level-1 parents are nodes X * W_1 + p, p < w_1.
 */
static inline u32 ft_topo_leaf_switch(const struct ft_topo *t, u32 leaf)
{
	return leaf / t->m[1];
}

/* Number of channels of @level (0..h-1) in one direction: its subtrees. */
static inline u32 ft_topo_channels(const struct ft_topo *t, u32 level)
{
	return t->n / t->mprod[level];
}

/* Total channels, both directions. */
static inline u32 ft_topo_channels_total(const struct ft_topo *t)
{
	return 2 * t->chan_base[t->h];
}

/*
 * Capacity of a level-@level channel: the W_i * w_(i+1) links between the
 * level-i nodes of one subtree and level i + 1, times their lanes.
 */
static inline u64 ft_topo_channel_cap(const struct ft_topo *t, u32 level)
{
	return (u64)t->wprod[level] * t->w[level + 1] * t->lanes[level + 1];
}

#endif /* FT_TOPO_H */
