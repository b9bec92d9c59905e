// SPDX-License-Identifier: GPL-2.0
/*
 * Small shapes for the harnesses (see fz_shape.h).
 */
#include "fz_shape.h"
#include "fz_trap.h"

u32 fz_shape(struct fz_bytes *b, const struct fz_limits *lim, u32 *m, u32 *w,
	     u32 *lanes)
{
	u32 h = fz_range(b, 1, lim->h), i, n = 1;

	for (i = 0; i < h; i++) {
		m[i] = fz_range(b, 2, lim->m);
		w[i] = fz_range(b, 1, lim->w);
		lanes[i] = fz_range(b, 1, lim->lanes);
	}
	for (i = 0; i < h; i++) {
		if ((u64)n * m[i] > lim->n)
			return i ? i : 1;
		n *= m[i];
	}
	return h;
}

void fz_shape_topo(struct fz_bytes *b, const struct fz_limits *lim,
		   struct ft_topo *t)
{
	u32 m[FT_MAX_LEVELS], w[FT_MAX_LEVELS], lanes[FT_MAX_LEVELS], h;
	int err;

	h = fz_shape(b, lim, m, w, lanes);
	err = ft_topo_init(t, h, m, w, lanes);
	FZ_CHECK(!err, "ft_topo_init refused a small shape: %d", err);
}
