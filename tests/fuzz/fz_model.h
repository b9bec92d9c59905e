/* SPDX-License-Identifier: GPL-2.0 */
/*
 * An independent model of the XGFT numbering that kmod/core/ft_topo.h
 * documents, written from that comment rather than from ft_topo.c: which
 * shapes are allowed, how many nodes and links each level has, which
 * directed links a leaf-to-leaf path crosses. The harnesses judge the
 * engine core against it.
 */
#ifndef FZ_MODEL_H
#define FZ_MODEL_H

#include "ft_topo.h"

/* One level's counts, in 64 bits so that a refused shape cannot wrap. */
struct fz_level {
	u64 m;		/* children per switch of this level */
	u64 w;		/* parents per node of the level below */
	u64 lanes;	/* lanes per directed link into this level */
	u64 mp;		/* leaves under a node of this level */
	u64 wp;		/* radix of Y at this level */
	u64 nodes;	/* nodes of this level */
	u64 base;	/* its first physical link */
};

struct fz_model {
	u32 h;
	u64 n;
	struct fz_level lv[FT_MAX_LEVELS + 2];
};

/*
 * The model of XGFT(@h; @m; @w) with @lanes (arrays from level 1).
 * Returns false exactly when ft_topo_init() must refuse the shape.
 */
bool fz_model_init(struct fz_model *md, u32 h, const u32 *m, const u32 *w,
		   const u32 *lanes);

/* Level H of the lowest common ancestors of two leaves (0: the same). */
u32 fz_model_common(const struct fz_model *md, u64 src, u64 dst);

/* Directed link from level-(@lvl - 1) node @child through up-port @port. */
u64 fz_model_dlink(const struct fz_model *md, u32 lvl, u64 child, u64 port,
		   u32 dir);

/*
 * The directed links from @src to @dst through up-ports @port (port[i - 1]
 * = P_i, each below w_i): up links of levels 1..H, then down links of
 * levels H..1, into @id (2 * FT_MAX_LEVELS entries). Returns their number.
 */
u32 fz_model_links(const struct fz_model *md, u64 src, u64 dst,
		   const u32 *port, u64 *id);

/* Every count of @t against the model: 0, or -1 and the first difference. */
int fz_model_topo(const struct fz_model *md, const struct ft_topo *t,
		  char *why, size_t len);

/*
 * @p must be the path from @src to @dst through up-ports @port
 * (port[i - 1] = P_i): 0, or -1 and what is wrong with it.
 */
int fz_model_path(const struct fz_model *md, u64 src, u64 dst,
		  const u32 *port, const struct ft_path *p, char *why,
		  size_t len);

#endif /* FZ_MODEL_H */
