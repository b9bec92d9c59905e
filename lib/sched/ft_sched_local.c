// SPDX-License-Identifier: GPL-2.0
/*
 * Seed 002's local baselines, request by request (sequential
 * arbitration): each up-port from the up-link vector alone, then the
 * forced down path from level H to 1.  Without release_on_failure a
 * request refused on the way down keeps its up links and the down links
 * above the busy one (the path set up so far is not torn down); refused
 * on the way up it keeps the up links below.  The paper's hardware would
 * climb all requests level by level; with no release that gives the same
 * result, since an up choice at level i only sees up links of level i.
 */
#include "ft_sched_int.h"

#define VEC_WORDS	(FT_MAX_W / 64)

static void local_give(struct ft_sched *s, const struct ft_sched_req *rq,
		       const u16 *port, const u32 *ys, u32 up_to,
		       u32 down_from, u32 hh)
{
	u32 i;

	for (i = 1; i <= up_to; i++)
		sched_give(s, i, sched_node(s, i, rq->src, ys[i]),
			   port[i - 1], FT_UP, rq->lanes);
	for (i = down_from; i <= hh; i++)
		sched_give(s, i, sched_node(s, i, rq->dst, ys[i]),
			   port[i - 1], FT_DOWN, rq->lanes);
}

int sched_local(struct ft_sched *s, const struct ft_sched_opts *o,
		const struct ft_sched_req *req, u32 n,
		struct ft_sched_out *out)
{
	bool greedy = o->algo == FT_SCHED_LOCAL_GREEDY;
	u32 k = sched_order(s, o->order, req, n, out);
	u32 ys[FT_MAX_LEVELS + 2], j, r, i, hh, us, ds, p;
	u64 uv[VEC_WORDS];
	const struct ft_sched_req *rq;
	u16 *port;

	for (j = 0; j < k; j++) {
		r = s->order[j];
		rq = &req[r];
		hh = out[r].hh;
		port = out[r].port;
		ys[1] = 0;	/* ys[i]: Y of the level-(i-1) nodes */
		for (i = 1; i <= hh; i++) {
			us = sched_node(s, i, rq->src, ys[i]);
			sched_avail(s, i, FT_UP, us, rq->lanes, uv);
			p = greedy ? sched_first(uv, s->nw[i]) :
				     sched_pick(s, uv, s->nw[i]);
			if (p == SCHED_NONE)
				break;
			sched_take(s, i, us, p, FT_UP, rq->lanes);
			port[i - 1] = (u16)p;
			ys[i + 1] = ys[i] * s->t.w[i] + p;
		}
		if (i <= hh) {
			sched_refuse(&out[r], i, FT_SCHED_AT_UP);
			if (o->release_on_failure)
				local_give(s, rq, port, ys, i - 1, hh + 1, hh);
			continue;
		}
		for (i = hh; i >= 1; i--) {
			ds = sched_node(s, i, rq->dst, ys[i]);
			if (sched_free(s, i, ds, port[i - 1], FT_DOWN) <
			    rq->lanes)
				break;
			sched_take(s, i, ds, port[i - 1], FT_DOWN, rq->lanes);
		}
		if (i >= 1) {
			sched_refuse(&out[r], i, FT_SCHED_AT_DOWN);
			if (o->release_on_failure)
				local_give(s, rq, port, ys, hh, i + 1, hh);
			continue;
		}
		out[r].status = FT_SCHED_GRANTED;
	}
	return 0;
}
