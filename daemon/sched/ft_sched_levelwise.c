// SPDX-License-Identifier: GPL-2.0
/*
 * Level-wise scheduling (seed 002, Figure 7), level-major as in the
 * paper's batch: level i is scheduled for every request still alive
 * before level i + 1 ("a new set of sources for level h+1 are created
 * from the set of scheduled sources at level h").
 */
#include "ft_sched_int.h"

#define VEC_WORDS	(FT_MAX_W / 64)

int sched_levelwise(struct ft_sched *s, const struct ft_sched_opts *o,
		    const struct ft_sched_req *req, u32 n,
		    struct ft_sched_out *out)
{
	const struct ft_topo *t = &s->t;
	u32 k = sched_order(s, o->order, req, n, out);
	u32 *act = s->order, *y = s->y;
	u64 uv[VEC_WORDS], dv[VEC_WORDS], a;
	u32 i, j, keep, r, us, ds, p, nw, w, q, where;
	const struct ft_sched_req *rq;

	for (j = 0; j < k; j++)
		y[act[j]] = 0;
	for (i = 1; k && i <= t->h; i++) {
		nw = s->nw[i];
		w = t->w[i];
		keep = 0;
		for (j = 0; j < k; j++) {
			r = act[j];
			rq = &req[r];
			us = sched_node(s, i, rq->src, y[r]);
			ds = sched_node(s, i, rq->dst, y[r]);
			if (nw == 1 && rq->lanes == 1) {
				/* The paper's case: one AND of two words. */
				uv[0] = sched_word(s, i, FT_UP, us);
				dv[0] = sched_word(s, i, FT_DOWN, ds);
				a = uv[0] & dv[0];
				if (!a)
					p = SCHED_NONE;
				else if (o->random_fit)
					p = sched_pick(s, &a, 1);
				else
					p = (u32)__builtin_ctzll(a);
			} else {
				sched_avail(s, i, FT_UP, us, rq->lanes, uv);
				sched_avail(s, i, FT_DOWN, ds, rq->lanes, dv);
				for (q = 0; q < nw; q++)
					dv[q] &= uv[q];
				p = o->random_fit ? sched_pick(s, dv, nw) :
						    sched_first(dv, nw);
				if (p == SCHED_NONE)	/* for @where below */
					sched_avail(s, i, FT_DOWN, ds,
						    rq->lanes, dv);
			}
			if (p == SCHED_NONE) {
				where = sched_first(uv, nw) == SCHED_NONE ?
					FT_SCHED_AT_UP :
					sched_first(dv, nw) == SCHED_NONE ?
					FT_SCHED_AT_DOWN : FT_SCHED_AT_BOTH;
				sched_refuse(&out[r], i, where);
				if (o->release_on_failure)
					sched_give_levels(s, rq->src, rq->dst,
							  out[r].port, i - 1,
							  rq->lanes);
				continue;
			}
			sched_take(s, i, us, p, FT_UP, rq->lanes);
			sched_take(s, i, ds, p, FT_DOWN, rq->lanes);
			out[r].port[i - 1] = (u16)p;
			y[r] = y[r] * w + p;
			if (out[r].hh == i)
				out[r].status = FT_SCHED_GRANTED;
			else
				act[keep++] = r;
		}
		k = keep;
	}
	return 0;
}
