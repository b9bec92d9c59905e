// SPDX-License-Identifier: GPL-2.0
/*
 * Randomized scheduling: every up-port uniform at random, i.e. a uniform
 * intermediate switch at the common-ancestor level (Greenberg-Leiserson
 * section 6; Valiant restricted to minimal paths).  All or nothing: the
 * request is granted when every link of that path has its lanes, else
 * refused with nothing taken.
 */
#include "ft_sched_int.h"

/* The first link of the path (up 1..H, then down H..1) that lacks lanes. */
static void random_blame(const struct ft_sched *s,
			 const struct ft_sched_req *rq, struct ft_sched_out *o)
{
	u32 ys[FT_MAX_LEVELS + 2], i, hh = o->hh;

	ys[1] = 0;
	for (i = 1; i <= hh; i++) {
		ys[i + 1] = ys[i] * s->t.w[i] + o->port[i - 1];
		if (sched_free(s, i, sched_node(s, i, rq->src, ys[i]),
			       o->port[i - 1], FT_UP) < rq->lanes) {
			sched_refuse(o, i, FT_SCHED_AT_UP);
			return;
		}
	}
	for (i = hh; i >= 1; i--)
		if (sched_free(s, i, sched_node(s, i, rq->dst, ys[i]),
			       o->port[i - 1], FT_DOWN) < rq->lanes)
			break;
	sched_refuse(o, i, FT_SCHED_AT_DOWN);
}

int sched_random(struct ft_sched *s, const struct ft_sched_opts *o,
		 const struct ft_sched_req *req, u32 n,
		 struct ft_sched_out *out)
{
	u32 k = sched_order(s, o->order, req, n, out);
	u32 j, r, i;
	const struct ft_sched_req *rq;

	for (j = 0; j < k; j++) {
		r = s->order[j];
		rq = &req[r];
		for (i = 1; i <= out[r].hh; i++)
			out[r].port[i - 1] = (u16)ft_rand_below(&s->rng,
								s->t.w[i]);
		if (!sched_take_fitting(s, rq->src, rq->dst, out[r].hh,
					out[r].port, rq->lanes)) {
			random_blame(s, rq, &out[r]);
			continue;
		}
		out[r].status = FT_SCHED_GRANTED;
	}
	return 0;
}
