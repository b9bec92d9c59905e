// SPDX-License-Identifier: GPL-2.0
/*
 * The XGFT numbering of ft_topo.h, computed again: a node at level i is
 * (X, Y) with X the subtree digits above level i and Y its up-ports so
 * far, index X * W_i + Y; up-port p of level-(i-1) node u is physical
 * link u * w_i + p of level i; directed link ids are 2 * physical + dir.
 */
#include <stdio.h>

#include "fz_model.h"

static bool fz_level_ok(u32 m, u32 w, u32 lanes)
{
	return m >= 2 && m <= FT_MAX_M && w >= 1 && w <= FT_MAX_W &&
	       lanes >= 1 && lanes <= FT_MAX_LANES;
}

bool fz_model_init(struct fz_model *md, u32 h, const u32 *m, const u32 *w,
		   const u32 *lanes)
{
	u32 i;

	memset(md, 0, sizeof(*md));
	if (h < 1 || h > FT_MAX_LEVELS)
		return false;
	md->h = h;
	md->n = 1;
	md->lv[0].mp = 1;
	md->lv[0].wp = 1;
	md->lv[0].m = 1;
	md->lv[0].w = 1;
	for (i = 1; i <= h; i++) {
		if (!fz_level_ok(m[i - 1], w[i - 1], lanes[i - 1]))
			return false;
		md->lv[i].m = m[i - 1];
		md->lv[i].w = w[i - 1];
		md->lv[i].lanes = lanes[i - 1];
		md->n *= md->lv[i].m;
		md->lv[i].mp = md->n;
		if (md->n > FT_MAX_LEAVES)
			return false;
	}
	md->lv[0].nodes = md->n;
	for (i = 1; i <= h; i++) {
		/* W_(i-1) <= nodes(i-1) <= 2^24 here: no overflow. */
		md->lv[i].wp = md->lv[i - 1].wp * md->lv[i].w;
		md->lv[i].nodes = md->n / md->lv[i].mp * md->lv[i].wp;
		md->lv[i + 1].base = md->lv[i].base + md->lv[i - 1].nodes * md->lv[i].w;
		if (md->lv[i].nodes > FT_MAX_DLINKS ||
		    2 * md->lv[i + 1].base > FT_MAX_DLINKS)
			return false;
	}
	return true;
}

u32 fz_model_common(const struct fz_model *md, u64 src, u64 dst)
{
	u32 i = 0;

	while (src / md->lv[i].mp != dst / md->lv[i].mp)
		i++;
	return i;
}

u64 fz_model_dlink(const struct fz_model *md, u32 lvl, u64 child, u64 port,
		   u32 dir)
{
	return 2 * (md->lv[lvl].base + child * md->lv[lvl].w + port) + dir;
}

#define FZ_SAME(what, a, b) do {					\
	if ((u64)(a) != (u64)(b)) {					\
		snprintf(why, len, "%s: %llu, model %llu", what,	\
			 (unsigned long long)(a), (unsigned long long)(b)); \
		return -1;						\
	}								\
} while (0)

int fz_model_topo(const struct fz_model *md, const struct ft_topo *t,
		  char *why, size_t len)
{
	u64 chans = 0;
	u32 i;

	FZ_SAME("h", t->h, md->h);
	FZ_SAME("n", t->n, md->n);
	for (i = 0; i <= md->h; i++) {
		FZ_SAME("m", t->m[i], md->lv[i].m);
		FZ_SAME("w", t->w[i], md->lv[i].w);
		FZ_SAME("mprod", t->mprod[i], md->lv[i].mp);
		FZ_SAME("wprod", t->wprod[i], md->lv[i].wp);
		FZ_SAME("nodes", t->nodes[i], md->lv[i].nodes);
		if (i)
			FZ_SAME("lanes", t->lanes[i], md->lv[i].lanes);
		if (i < md->h) {
			FZ_SAME("chan_base", t->chan_base[i], chans);
			chans += md->n / md->lv[i].mp;
		}
	}
	FZ_SAME("channels", t->chan_base[md->h], chans);
	for (i = 1; i <= md->h + 1; i++)
		FZ_SAME("link_base", t->link_base[i], md->lv[i].base);
	FZ_SAME("dlinks", ft_topo_dlinks(t), 2 * md->lv[md->h + 1].base);
	return 0;
}

u32 fz_model_links(const struct fz_model *md, u64 src, u64 dst,
		   const u32 *port, u64 *id)
{
	u32 hh = fz_model_common(md, src, dst), i;
	u64 y = 0;

	for (i = 1; i <= hh; i++) {
		/* Leaving (src's X at level i - 1, y) through P_i ... */
		id[i - 1] = fz_model_dlink(md, i, src / md->lv[i - 1].mp * md->lv[i - 1].wp + y,
					   port[i - 1], FT_UP);
		/* ... and arriving at (dst's X at level i - 1, same y) from above. */
		id[2 * hh - i] = fz_model_dlink(md, i, dst / md->lv[i - 1].mp * md->lv[i - 1].wp + y,
						port[i - 1], FT_DOWN);
		y = y * md->lv[i].w + port[i - 1];
	}
	return 2 * hh;
}

int fz_model_path(const struct fz_model *md, u64 src, u64 dst,
		  const u32 *port, const struct ft_path *p, char *why,
		  size_t len)
{
	u64 id[2 * FT_MAX_LEVELS];
	u32 n = fz_model_links(md, src, dst, port, id), k;

	FZ_SAME("path length", p->n, n);
	for (k = 0; k < n; k++)
		FZ_SAME(k < n / 2 ? "up link" : "down link", p->link[k], id[k]);
	return 0;
}
