// SPDX-License-Identifier: GPL-2.0
/*
 * The fast paths against the general ones: the level-wise fast path, and
 * the fast copy of the optimal scheduler's edge-colouring pass.  On every
 * shape, free-lane state, request pattern and order, the same scheduler
 * state is scheduled twice, once as callers get it (fast path, checked by
 * the independent validator) and once with force_general, and the two
 * must agree request by request (status, H, ports, where it failed), in
 * their totals and in the free lanes left, over two chained rounds.
 */
#include "../unit/tap.h"
#include "util.h"

#define MAXN	65536	/* FT(2,256): a whole permutation */
#define MINCAP	4096	/* a round: up to max(MINCAP, leaves) requests */

static struct ft_sched_req q[MAXN];
static struct ft_sched_out fo[MAXN], go[MAXN];
/*
 * Fast rounds in one pass with the setup, and over an order; of the
 * latter, those in SOURCE order whose one pass found the sources out of
 * order and undid itself (the next round and the free lanes compared
 * below see whether it left the lanes as they were).
 */
static u32 fused, ordered, undone;

static bool by_source(u32 n)
{
	u32 j;

	for (j = 1; j < n; j++)
		if (q[j].src < q[j - 1].src)
			return false;
	return true;
}

/* The first field in which outcomes @a and @b differ, or NULL. */
static const char *differs(const struct ft_sched_out *a,
			   const struct ft_sched_out *b)
{
	if (a->status != b->status)
		return "status";
	if (a->hh != b->hh)
		return "H";
	if (a->fail_level != b->fail_level || a->fail_where != b->fail_where)
		return "failure";
	if (memcmp(a->port, b->port, sizeof(a->port)))
		return "ports";
	return NULL;
}

static bool same_stats(const struct ft_sched_stats *a,
		       const struct ft_sched_stats *b)
{
	return a->requests == b->requests && a->granted == b->granted &&
	       a->refused == b->refused && a->invalid == b->invalid &&
	       a->lanes_granted == b->lanes_granted &&
	       !memcmp(a->fail_up, b->fail_up, sizeof(a->fail_up)) &&
	       !memcmp(a->fail_down, b->fail_down, sizeof(a->fail_down));
}

/*
 * Requests: a pattern, some invalid or two-lane ones (@odd: one round in
 * @odd has them), maybe shuffled.
 */
static u32 requests(struct ft_rand *r, const struct ft_topo *t, u32 odd)
{
	u32 cap = t->n > MINCAP ? t->n : MINCAP, i, j, n;
	struct ft_sched_req x;

	/* Whole permutations on the wide shapes: every word in use. */
	n = make_pattern(r, t, ft_rand_below(r, PAT_NPATTERNS), 1, q,
			 cap < MAXN ? cap : MAXN);
	if (ft_rand_below(r, 2))	/* a random partial load */
		n = ft_rand_below(r, n + 1);
	for (i = 0; !ft_rand_below(r, odd) && i < n; i++) {	/* a few */
		j = ft_rand_below(r, n);
		q[j].lanes = ft_rand_below(r, 3);	/* 0: invalid */
		if (ft_rand_below(r, 2))
			q[j].dst = t->n + ft_rand_below(r, 3);
	}
	/* Out of source order: SOURCE then sorts (the fused pass is off). */
	for (i = n; ft_rand_below(r, 3) == 0 && i > 1; i--) {
		j = ft_rand_below(r, i);
		x = q[i - 1];
		q[i - 1] = q[j];
		q[j] = x;
	}
	return n;
}

/*
 * @trials rounds pairs of @algo on @t; returns false at the first
 * difference (printed).  *@fast counts rounds the fast path really ran.
 * The optimal scheduler's fast copy needs every lane free and one lane
 * per request, so its rounds have circuits in place or odd requests
 * less often.
 */
static bool compare(struct ft_rand *r, const struct ft_topo *t, u32 trials,
		    enum ft_sched_algo algo, u32 *fast, u32 *reqs)
{
	bool lw = algo == FT_SCHED_LEVELWISE;
	struct ft_sched *fs = ft_sched_create(t), *gs = ft_sched_create(t);
	struct ft_sched_stats fst, gst;
	struct ft_sched_opts o;
	const char *d = NULL;
	u32 k, round, n, j;
	char why[256];

	for (k = 0; fs && gs && !d && k < trials; k++) {
		ft_sched_reset(fs);
		if (ft_rand_below(r, lw ? 3 : 8) == 0)	/* circuits in place */
			random_reservations(r, fs, t->n / 2);
		ft_sched_set_free(gs, ft_sched_free_lanes(fs));
		for (round = 0; round < 2; round++) {
			ft_sched_opts_default(&o, algo);
			o.order = ft_rand_below(r, FT_SCHED_NORDERS);
			o.seed = ft_rand_below(r, 1000) + 1;
			n = requests(r, t, lw ? 4 : 16);
			if (run_checked(fs, &o, q, n, fo, &fst, why,
					sizeof(why))) {
				tap_diag("validator: %s", why);
				d = "validity";
				break;
			}
			o.force_general = true;
			if (ft_sched_run(gs, &o, q, n, go, &gst) || gst.fast) {
				d = "the general path";
				break;
			}
			*fast += fst.fast;
			*reqs += n;
			if (lw) {	/* the level-wise fast path's two ways in */
				if (o.order == FT_SCHED_ORDER_GIVEN ||
				    (o.order == FT_SCHED_ORDER_SOURCE &&
				     by_source(n)))
					fused++;
				else
					ordered++;
				if (o.order == FT_SCHED_ORDER_SOURCE &&
				    !by_source(n))
					undone++;
			}
			for (j = 0; j < n && !(d = differs(&fo[j], &go[j])); j++)
				;
			if (!d && !same_stats(&fst, &gst))
				d = "totals";
			if (!d && memcmp(ft_sched_free_lanes(fs),
					 ft_sched_free_lanes(gs),
					 ft_topo_dlinks(t) * sizeof(u32)))
				d = "free lanes";
			if (d) {
				tap_diag("trial %u round %u order %s: %s of "
					 "request %u (%u -> %u) differ", k,
					 round, ft_sched_order_name(o.order), d,
					 j, j < n ? q[j].src : 0,
					 j < n ? q[j].dst : 0);
				break;
			}
		}
	}
	if (!fs || !gs)
		d = "memory";
	ft_sched_destroy(fs);
	ft_sched_destroy(gs);
	return !d;
}

static void shape(struct ft_rand *r, const char *name, u32 h, const u32 *m,
		  const u32 *w, u32 trials)
{
	struct ft_topo t;
	u32 fast = 0, reqs = 0;
	bool same;

	if (ft_topo_init(&t, h, m, w, ones)) {
		tap_ok(0, "%s: a valid shape", name);
		return;
	}
	same = compare(r, &t, trials, FT_SCHED_LEVELWISE, &fast, &reqs);
	tap_ok(same && fast == 2 * trials,
	       "%s: fast path = general path on %u rounds, %u requests "
	       "(fast path ran %u times)", name, 2 * trials, reqs, fast);
}

/*
 * The optimal scheduler on @t: the fast copy of the colouring pass must
 * have run on powers of two with w_i <= 64 (in more than a quarter of
 * the rounds: the second of a pair has lanes taken), never otherwise.
 */
static void shape_optimal(struct ft_rand *r, const char *name, u32 h,
			  const u32 *m, const u32 *w, u32 trials)
{
	struct ft_topo t;
	u32 fast = 0, reqs = 0, i;
	bool same, fast_shape = true;

	for (i = 0; i < h; i++)
		fast_shape &= !(m[i] & (m[i] - 1)) && !(w[i] & (w[i] - 1)) &&
			      w[i] <= 64;
	if (ft_topo_init(&t, h, m, w, ones)) {
		tap_ok(0, "%s: a valid shape", name);
		return;
	}
	same = compare(r, &t, trials, FT_SCHED_OPTIMAL, &fast, &reqs);
	tap_ok(same && (fast_shape ? 2 * fast > trials : !fast),
	       "optimal %s: fast colouring = general colouring on %u rounds, "
	       "%u requests (fast copy ran %u times)", name, 2 * trials,
	       reqs, fast);
}

int main(void)
{
	static const struct {
		const char *name;
		u32 h, m[14], w[14], trials;
	} shapes[] = {
		{ "FT(3,16)", 3, { 16, 16, 16 }, { 1, 16, 16 }, 40 },
		{ "FT(2,64)", 2, { 64, 64 }, { 1, 64 }, 40 },
		{ "FT(3,4)", 3, { 4, 4, 4 }, { 1, 4, 4 }, 300 },
		{ "FT(4,4)", 4, { 4, 4, 4, 4 }, { 1, 4, 4, 4 }, 200 },
		{ "FT(2,8)", 2, { 8, 8 }, { 1, 8 }, 300 },
		{ "XGFT(3;2,8,4;1,4,8)", 3, { 2, 8, 4 }, { 1, 4, 8 }, 300 },
		{ "XGFT(3;4,4,4;2,4,2) (w1 = 2)", 3, { 4, 4, 4 }, { 2, 4, 2 },
		  300 },
		{ "XGFT(3;3,5,3;1,3,5) (not 2^k)", 3, { 3, 5, 3 }, { 1, 3, 5 },
		  300 },
		{ "XGFT(2;6,12;1,6) (not 2^k)", 2, { 6, 12 }, { 1, 6 }, 300 },
		{ "XGFT(2;48,40;1,48) (not 2^k, w 48)", 2, { 48, 40 },
		  { 1, 48 }, 40 },
		/* Switches wider than a word: nw words per node. */
		{ "FT(2,128)", 2, { 128, 128 }, { 1, 128 }, 40 },
		{ "FT(2,256)", 2, { 256, 256 }, { 1, 256 }, 16 },
		/* ... and with m_1 != w_2 (not the window's case) */
		{ "XGFT(2;32,64;1,128) (w 128, m1 32)", 2, { 32, 64 },
		  { 1, 128 }, 40 },
		{ "XGFT(2;512,16;1,256) (w 256, m1 512)", 2, { 512, 16 },
		  { 1, 256 }, 16 },
		{ "XGFT(3;6,80,2;1,80,100) (w 80, 100)", 3, { 6, 80, 2 },
		  { 1, 80, 100 }, 20 },
		/* Big levels with narrow switches keep their vectors packed. */
		{ "XGFT(14;2..2;1,2..2) (packed)", 14,
		  { 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2 },
		  { 1, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2 }, 10 },
		{ "XGFT(9;3..3;3..3) (packed, not 2^k)", 9,
		  { 3, 3, 3, 3, 3, 3, 3, 3, 3 }, { 3, 3, 3, 3, 3, 3, 3, 3, 3 },
		  10 },
	};
	struct ft_rand r;
	struct ft_topo t, rs;
	u32 i, fast = 0, reqs = 0;
	bool same = true;

	ft_rand_seed(&r, 18);
	for (i = 0; i < sizeof(shapes) / sizeof(shapes[0]); i++)
		shape(&r, shapes[i].name, shapes[i].h, shapes[i].m,
		      shapes[i].w, shapes[i].trials);
	/* Random shapes, all lanes 1 (util's have up to 3: not bit mode). */
	for (i = 0; i < 200 && same; i++) {
		random_shape(&r, &rs, 4);
		if (ft_topo_init(&t, rs.h, rs.m + 1, rs.w + 1, ones))
			break;
		same = compare(&r, &t, 5, FT_SCHED_LEVELWISE, &fast, &reqs);
	}
	tap_ok(same && fast == 2 * 5 * 200,
	       "200 random shapes: fast path = general path on %u requests "
	       "(fast path ran %u times)", reqs, fast);
	for (i = 0; i < sizeof(shapes) / sizeof(shapes[0]); i++)
		shape_optimal(&r, shapes[i].name, shapes[i].h, shapes[i].m,
			      shapes[i].w, shapes[i].trials / 2 + 1);
	for (i = 0, fast = 0, reqs = 0; i < 200 && same; i++) {
		random_shape(&r, &rs, 4);
		if (ft_topo_init(&t, rs.h, rs.m + 1, rs.w + 1, ones))
			break;
		same = compare(&r, &t, 5, FT_SCHED_OPTIMAL, &fast, &reqs);
	}
	tap_ok(same && fast > 100,
	       "optimal, 200 random shapes: fast colouring = general "
	       "colouring on %u requests (fast copy ran %u times)", reqs,
	       fast);
	tap_ok(fused > 1000 && ordered > 1000 && undone > 100,
	       "both ways in: %u rounds in one pass, %u over an order (%u "
	       "after the pass undid itself)", fused, ordered, undone);
	return tap_done();
}
