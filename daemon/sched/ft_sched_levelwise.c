// SPDX-License-Identifier: GPL-2.0
/*
 * Level-wise scheduling (seed 002, Figure 7), level-major as in the
 * paper's batch: level i is scheduled for every request still alive
 * before level i + 1 ("a new set of sources for level h+1 are created
 * from the set of scheduled sources at level h").
 */
#include "ft_sched_int.h"

#define VEC_WORDS	(FT_MAX_W / 64)

static void lw_fast_order(struct ft_sched *s, const struct ft_sched_req *req,
			  const u32 *act, u32 k, struct ft_sched_out *out);

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

	if (sched_lw_fast_ok(s, o)) {
		lw_fast_order(s, req, act, k, out);
		return 0;
	}
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

/*
 * The fast path: one lane per link (every level in bit mode), first fit,
 * no release, every node's vector in one word.  Without release a
 * request's choice at level i depends only on the level-i vectors, which
 * only the level-i choices of the requests before it have changed, so
 * serving each request through all its levels before the next one gives
 * exactly the level-major decisions above, in one pass.
 */
bool sched_lw_fast_ok(const struct ft_sched *s, const struct ft_sched_opts *o)
{
	u32 i;

	if (o->algo != FT_SCHED_LEVELWISE || o->random_fit ||
	    o->release_on_failure || o->force_general)
		return false;
	for (i = 1; i <= s->t.h; i++)
		if (!s->bitmode[i] || s->nw[i] != 1)
			return false;
	return true;
}

/*
 * Per-level constants, copied to the stack so that the stores into the
 * vectors and @out cannot make the compiler reload them per request.
 */
struct lw_level {
	u64 *vec[2];
	u64 mask;		/* the vb low bits */
	u32 vshift;		/* lg vb */
	u32 mshift, wshift;	/* pow2: lg M_(i-1), lg W_(i-1) */
	u32 pshift;		/* pow2: lg w_i */
	struct sched_div div;	/* by M_(i-1) */
	u32 wprod, w;
};

static void lw_levels(const struct ft_sched *s, struct lw_level *lv)
{
	const struct ft_topo *t = &s->t;
	u32 i;

	for (i = 1; i <= t->h; i++) {
		lv[i].vec[FT_UP] = s->vec[i][FT_UP];
		lv[i].vec[FT_DOWN] = s->vec[i][FT_DOWN];
		lv[i].mask = s->vb[i] == 64 ? ~0ULL : (1ULL << s->vb[i]) - 1;
		lv[i].vshift = (u32)__builtin_ctz(s->vb[i]);
		lv[i].mshift = (u32)__builtin_ctz(t->mprod[i - 1]);
		lv[i].wshift = (u32)__builtin_ctz(t->wprod[i - 1]);
		lv[i].pshift = (u32)__builtin_ctz(t->w[i]);
		lv[i].div = s->divm[i - 1];
		lv[i].wprod = t->wprod[i - 1];
		lv[i].w = t->w[i];
	}
}

/* Level-(i-1) node on @leaf's side: sched_node() by shifts if @pow2. */
static inline __attribute__((always_inline))
u32 lw_node(const struct lw_level *l, u32 leaf, u32 y, bool pow2)
{
	if (pow2)
		return (leaf >> l->mshift << l->wshift) | y;
	return sched_div(&l->div, leaf) * l->wprod + y;
}

/*
 * Request @r through levels 1..@hh: fills @o's ports and status (or where
 * it failed); returns the levels where it took links.
 */
static inline __attribute__((always_inline))
u32 lw_fast_one(const struct lw_level *lv, const struct ft_sched_req *r,
		u32 hh, struct ft_sched_out *o, bool pow2)
{
	u32 i, y = 0, p, src = r->src, dst = r->dst;
	u64 ub, db, uv, dv, a, *uw, *dw;

	if (hh && r->lanes != 1) {	/* no link has two lanes */
		sched_refuse(o, 1, FT_SCHED_AT_UP);
		return 0;
	}
	for (i = 1; i <= hh; i++) {
		const struct lw_level *l = &lv[i];

		ub = (u64)lw_node(l, src, y, pow2) << l->vshift;
		db = (u64)lw_node(l, dst, y, pow2) << l->vshift;
		uw = l->vec[FT_UP] + (ub >> 6);
		dw = l->vec[FT_DOWN] + (db >> 6);
		uv = (*uw >> (ub & 63)) & l->mask;
		dv = (*dw >> (db & 63)) & l->mask;
		a = uv & dv;
		if (!a) {
			sched_refuse(o, i, !uv ? FT_SCHED_AT_UP :
					   !dv ? FT_SCHED_AT_DOWN :
						 FT_SCHED_AT_BOTH);
			return i - 1;
		}
		p = (u32)__builtin_ctzll(a);
		*uw &= ~(1ULL << ((ub & 63) + p));
		*dw &= ~(1ULL << ((db & 63) + p));
		o->port[i - 1] = (u16)p;
		y = pow2 ? (y << l->pshift) | p : y * l->w + p;
	}
	o->status = FT_SCHED_GRANTED;
	return hh;
}

/* Bit mode: the counters of the levels 1..@top written to are stale. */
static void lw_dirty(struct ft_sched *s, u32 top)
{
	while (top)
		s->dirty[top--] = true;
}

/* H of @r (valid): by a table on the bit length of src ^ dst if @pow2. */
static inline __attribute__((always_inline))
u32 lw_common_level(const struct ft_sched *s, const struct ft_sched_req *r,
		    bool pow2)
{
	u32 x = r->src ^ r->dst;

	if (pow2)
		return s->hlev[x ? 32 - __builtin_clz(x) : 0];
	return sched_common_level(s, r->src, r->dst);
}

static inline __attribute__((always_inline))
void lw_fast_all(struct ft_sched *s, const struct ft_sched_req *req, u32 n,
		 struct ft_sched_out *out, struct ft_sched_stats *st,
		 bool pow2)
{
	struct lw_level lv[FT_MAX_LEVELS + 1];
	struct ft_sched_out ob;
	u32 j, hh, top = 0;

	lw_levels(s, lv);
	for (j = 0; j < n; j++) {
		memset(&ob, 0, sizeof(ob));
		if (!sched_valid(s, &req[j])) {
			ob.status = FT_SCHED_INVALID;
		} else {
			hh = lw_common_level(s, &req[j], pow2);
			ob.hh = (u8)hh;
			top = ft_max_u32(top, lw_fast_one(lv, &req[j], hh, &ob,
							  pow2));
		}
		out[j] = ob;
		sched_count(st, &ob, req[j].lanes);
	}
	lw_dirty(s, top);
	st->fast = 1;
}

void sched_lw_fast_all(struct ft_sched *s, const struct ft_sched_req *req,
		       u32 n, struct ft_sched_out *out,
		       struct ft_sched_stats *st)
{
	if (s->pow2)
		lw_fast_all(s, req, n, out, st, true);
	else
		lw_fast_all(s, req, n, out, st, false);
}

/* The fast path on @act[0..k) (set up by ft_sched_run(), in order). */
static void lw_fast_order(struct ft_sched *s, const struct ft_sched_req *req,
			  const u32 *act, u32 k, struct ft_sched_out *out)
{
	struct lw_level lv[FT_MAX_LEVELS + 1];
	u32 j, top = 0;

	lw_levels(s, lv);
	for (j = 0; j < k; j++)
		top = ft_max_u32(top, lw_fast_one(lv, &req[act[j]],
						  out[act[j]].hh, &out[act[j]],
						  s->pow2));
	lw_dirty(s, top);
}
