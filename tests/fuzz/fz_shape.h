/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A small fabric shape from the fuzzer's bytes, for the harnesses that
 * run cycles, circuits and schedules on it (big shapes are fuzz_topo's).
 */
#ifndef FZ_SHAPE_H
#define FZ_SHAPE_H

#include "ft_topo.h"
#include "fz_bytes.h"

struct fz_limits {
	u32 h;		/* levels: 1..h */
	u32 m;		/* children per switch: 2..m */
	u32 w;		/* parents per node: 1..w */
	u32 lanes;	/* lanes per link: 1..lanes */
	u32 n;		/* leaves: levels are dropped until n fit */
};

/* Fill m[], w[], lanes[] (from level 1) and return h. */
u32 fz_shape(struct fz_bytes *b, const struct fz_limits *lim, u32 *m, u32 *w,
	     u32 *lanes);

/* The same into a topology; a refusal is a bug (the shape is valid). */
void fz_shape_topo(struct fz_bytes *b, const struct fz_limits *lim,
		   struct ft_topo *t);

#endif /* FZ_SHAPE_H */
