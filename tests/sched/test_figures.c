// SPDX-License-Identifier: GPL-2.0
/*
 * Seed 002's figures 2, 4 and 8 through the schedulers, and the options
 * of level-wise and local scheduling (order, release on failure, random
 * fit, lanes > 1).
 */
#include "../unit/tap.h"
#include "util.h"

static char why[256];

/* Directed link id of seed 002's Ulink/Dlink(h, tau, i) on FT(l, w). */
static u32 their_link(const struct ft_topo *t, u32 h, u32 tau, u32 i, u32 dir)
{
	return ft_topo_dlink(t, h + 2, tau * t->w[h + 2] + i, dir);
}

/* A scheduler for FT(l, w) whose listed links have no free lane. */
static struct ft_sched *sched_with_busy(struct ft_topo *t, u32 l, u32 w,
					u32 lanes, const u32 *busy, u32 nbusy)
{
	struct ft_sched *s;
	u32 *f, i;

	ft_lw(t, l, w, lanes);
	s = ft_sched_create(t);
	f = malloc(ft_topo_dlinks(t) * sizeof(u32));
	memcpy(f, ft_sched_free_lanes(s), ft_topo_dlinks(t) * sizeof(u32));
	for (i = 0; i < nbusy; i++)
		f[busy[i]] = 0;
	ft_sched_set_free(s, f);
	free(f);
	return s;
}

static int path_has(const struct ft_topo *t, const struct ft_sched_req *q,
		    const struct ft_sched_out *o, u32 link)
{
	struct ft_path p;
	u32 k, port[FT_MAX_LEVELS];

	ft_sched_ports(o, port);
	if (ft_topo_path(t, q->src, q->dst, port, &p))
		return 0;
	for (k = 0; k < p.n; k++)
		if (p.link[k] == link)
			return 1;
	return 0;
}

/* Fig. 2: SW(0,0) -> SW(0,6) on FT(3,4); with Ulink(0,0,0) busy the
 * level-wise choice is P_0 = 1 and the path comes down Dlink(0,6,1).
 */
static void test_fig2(void)
{
	struct ft_topo t;
	struct ft_sched *s;
	struct ft_sched_opts o;
	struct ft_sched_req q = { 0, 24, 1 };
	struct ft_sched_out out;
	u32 busy;

	ft_sched_opts_default(&o, FT_SCHED_LEVELWISE);
	ft_lw(&t, 3, 4, 1);
	busy = their_link(&t, 0, 0, 0, FT_UP);
	s = sched_with_busy(&t, 3, 4, 1, &busy, 1);
	tap_ok(!run_checked(s, &o, &q, 1, &out, NULL, why, sizeof(why)),
	       "fig. 2: schedule valid %s", why);
	tap_ok(out.status == FT_SCHED_GRANTED && out.hh == 3 &&
	       out.port[0] == 0 && out.port[1] == 1,
	       "fig. 2: granted with their P_0 = 1 (ours P_2 = %u), our H %u",
	       out.port[1], out.hh);
	tap_ok(path_has(&t, &q, &out, their_link(&t, 0, 6, 1, FT_DOWN)) &&
	       path_has(&t, &q, &out, their_link(&t, 0, 0, 1, FT_UP)),
	       "fig. 2: the path uses Ulink(0,0,1) and Dlink(0,6,1)");
	ft_sched_destroy(s);
}

/* Fig. 4: SW(0,0) and SW(0,1) both to SW(0,8) on FT(3,4). */
static void test_fig4(void)
{
	struct ft_topo t;
	struct ft_sched *s;
	struct ft_sched_opts o;
	struct ft_sched_req q[2] = { { 0, 32, 1 }, { 4, 33, 1 } };
	struct ft_sched_out out[2];
	struct ft_sched_stats st;
	u32 seed, fails = 0, wins = 0;
	int good = 1;

	ft_lw(&t, 3, 4, 1);
	s = ft_sched_create(&t);
	ft_sched_opts_default(&o, FT_SCHED_LOCAL_GREEDY);
	tap_ok(!run_checked(s, &o, q, 2, out, &st, why, sizeof(why)),
	       "fig. 4 local-greedy: valid %s", why);
	tap_ok(st.granted == 1 && out[0].status == FT_SCHED_GRANTED &&
	       out[1].status == FT_SCHED_REFUSED && out[1].port[1] == 0 &&
	       out[1].fail_where == FT_SCHED_AT_DOWN &&
	       out[1].fail_level == 2 && st.fail_down[2] == 1,
	       "fig. 4 local-greedy: both take Ulink port 0, the second is "
	       "refused at Dlink(0,8,0) (our level %u)", out[1].fail_level);
	ft_sched_reset(s);
	ft_sched_opts_default(&o, FT_SCHED_LEVELWISE);
	tap_ok(!run_checked(s, &o, q, 2, out, &st, why, sizeof(why)),
	       "fig. 4 level-wise: valid %s", why);
	tap_ok(st.granted == 2 && out[0].port[1] == 0 && out[1].port[1] == 1,
	       "fig. 4 level-wise: both granted, the second on Ulink(0,1,1)"
	       " and Dlink(0,8,1)");
	tap_ok(path_has(&t, &q[1], &out[1], their_link(&t, 0, 8, 1, FT_DOWN)),
	       "fig. 4 level-wise: the second comes down Dlink(0,8,1)");
	/* Local-random fails exactly when both draw the same P_0. */
	ft_sched_opts_default(&o, FT_SCHED_LOCAL_RANDOM);
	for (seed = 1; seed <= 400; seed++) {
		ft_sched_reset(s);
		o.seed = seed;
		good &= !run_checked(s, &o, q, 2, out, &st, why, sizeof(why));
		good &= (st.granted == 1) == (out[0].port[1] == out[1].port[1]);
		fails += st.granted == 1;
		wins += st.granted == 2;
	}
	tap_ok(good && fails > 50 && fails < 150 && wins + fails == 400,
	       "fig. 4 local-random: refused iff same P_0, %u of 400 (~1/4)",
	       fails);
	ft_sched_destroy(s);
}

/* Fig. 8: FT(4,4), node 3 -> node 95, Ulink(1,000,0) taken. */
static void test_fig8(void)
{
	struct ft_topo t;
	struct ft_sched *s;
	struct ft_sched_opts o;
	struct ft_sched_req q = { 3, 95, 1 };
	struct ft_sched_out out;
	u32 busy;

	ft_lw(&t, 4, 4, 1);
	busy = their_link(&t, 1, 0, 0, FT_UP);
	s = sched_with_busy(&t, 4, 4, 1, &busy, 1);
	ft_sched_opts_default(&o, FT_SCHED_LEVELWISE);
	tap_ok(!run_checked(s, &o, &q, 1, &out, NULL, why, sizeof(why)),
	       "fig. 8: valid %s", why);
	tap_ok(out.status == FT_SCHED_GRANTED && out.hh == 4 &&
	       out.port[1] == 0 && out.port[2] == 1 && out.port[3] == 0,
	       "fig. 8: granted, their P = (0,1,0) [ours %u,%u,%u,%u], "
	       "their H = 3", out.port[0], out.port[1], out.port[2],
	       out.port[3]);
	tap_ok(path_has(&t, &q, &out, their_link(&t, 1, 0, 1, FT_UP)) &&
	       path_has(&t, &q, &out, their_link(&t, 2, 1, 0, FT_UP)) &&
	       path_has(&t, &q, &out, their_link(&t, 2, 17, 0, FT_DOWN)) &&
	       path_has(&t, &q, &out, their_link(&t, 1, 20, 1, FT_DOWN)) &&
	       path_has(&t, &q, &out, their_link(&t, 0, 23, 0, FT_DOWN)),
	       "fig. 8: Ulink(1,000,1) Ulink(2,001,0) Dlink(2,101,0) "
	       "Dlink(1,110,1) Dlink(0,113,0)");
	/* Local-greedy takes the only free up-port too here. */
	ft_sched_set_free(s, ft_sched_free_lanes(s));
	ft_sched_destroy(s);
}

/* Order: SOURCE, GIVEN, FARTHEST, RANDOM. */
static void test_order(void)
{
	struct ft_topo t;
	struct ft_sched *s;
	struct ft_sched_opts o;
	struct ft_sched_req q[2] = { { 4, 33, 1 }, { 0, 32, 1 } };
	struct ft_sched_req f[2] = { { 0, 5, 1 }, { 1, 32, 1 } };
	struct ft_sched_out out[2];
	u32 busy[3], seed, first = 0, second = 0;
	int good = 1;

	ft_lw(&t, 3, 4, 1);
	s = ft_sched_create(&t);
	ft_sched_opts_default(&o, FT_SCHED_LOCAL_GREEDY);
	run_checked(s, &o, q, 2, out, NULL, why, sizeof(why));
	tap_ok(out[1].status == FT_SCHED_GRANTED &&
	       out[0].status == FT_SCHED_REFUSED,
	       "order source: source 0 served before source 4");
	ft_sched_reset(s);
	o.order = FT_SCHED_ORDER_GIVEN;
	run_checked(s, &o, q, 2, out, NULL, why, sizeof(why));
	tap_ok(out[0].status == FT_SCHED_GRANTED &&
	       out[1].status == FT_SCHED_REFUSED,
	       "order given: array order");
	ft_sched_destroy(s);

	/* One up-port left from SW(0,0): H = 2 (ours) vs H = 3 compete. */
	busy[0] = their_link(&t, 0, 0, 1, FT_UP);
	busy[1] = their_link(&t, 0, 0, 2, FT_UP);
	busy[2] = their_link(&t, 0, 0, 3, FT_UP);
	s = sched_with_busy(&t, 3, 4, 1, busy, 3);
	ft_sched_opts_default(&o, FT_SCHED_LEVELWISE);
	run_checked(s, &o, f, 2, out, NULL, why, sizeof(why));
	tap_ok(out[0].status == FT_SCHED_GRANTED &&
	       out[1].status == FT_SCHED_REFUSED &&
	       out[1].fail_level == 2 && out[1].fail_where == FT_SCHED_AT_UP,
	       "order source: 0->5 (H 2) takes the last up-port, 1->32 "
	       "refused at level 2, up");
	ft_sched_destroy(s);
	s = sched_with_busy(&t, 3, 4, 1, busy, 3);
	o.order = FT_SCHED_ORDER_FARTHEST;
	run_checked(s, &o, f, 2, out, NULL, why, sizeof(why));
	tap_ok(out[1].status == FT_SCHED_GRANTED &&
	       out[0].status == FT_SCHED_REFUSED,
	       "order farthest: 1->32 (H 3) first");
	o.order = FT_SCHED_ORDER_RANDOM;
	for (seed = 1; seed <= 100; seed++) {
		ft_sched_destroy(s);
		s = sched_with_busy(&t, 3, 4, 1, busy, 3);
		o.seed = seed;
		good &= !run_checked(s, &o, f, 2, out, NULL, why,
				     sizeof(why));
		first += out[0].status == FT_SCHED_GRANTED;
		second += out[1].status == FT_SCHED_GRANTED;
	}
	tap_ok(good && first + second == 100 && first > 25 && second > 25,
	       "order random: either wins (%u / %u of 100)", first, second);
	ft_sched_destroy(s);
}

/* A request refused at level 3 after taking levels 1 and 2. */
static void test_release(void)
{
	static const enum ft_sched_algo algos[] = {
		FT_SCHED_LEVELWISE, FT_SCHED_LOCAL_GREEDY,
	};
	struct ft_topo t;
	struct ft_sched *s;
	struct ft_sched_opts o;
	struct ft_sched_req q = { 0, 32, 1 };
	struct ft_sched_out out;
	u32 busy[4], p, a, kept, nd, *before, k;

	ft_lw(&t, 3, 4, 1);
	nd = ft_topo_dlinks(&t);
	before = malloc(nd * sizeof(u32));
	/* Every up link of SW(1,0) busy: P_0 = 0 leads into a dead end. */
	for (p = 0; p < 4; p++)
		busy[p] = their_link(&t, 1, 0, p, FT_UP);
	for (a = 0; a < 2; a++) {
		ft_sched_opts_default(&o, algos[a]);
		s = sched_with_busy(&t, 3, 4, 1, busy, 4);
		memcpy(before, ft_sched_free_lanes(s), nd * sizeof(u32));
		tap_ok(!run_checked(s, &o, &q, 1, &out, NULL, why,
				    sizeof(why)),
		       "%s no release: valid %s", ft_sched_algo_name(o.algo),
		       why);
		for (kept = 0, k = 0; k < nd; k++)
			kept += before[k] - ft_sched_free_lanes(s)[k];
		tap_ok(out.status == FT_SCHED_REFUSED && out.fail_level == 3 &&
		       out.fail_where == FT_SCHED_AT_UP &&
		       kept == (a ? 2 : 4),
		       "%s no release (the paper): refused at level 3, keeps "
		       "the %u lanes taken below", ft_sched_algo_name(o.algo),
		       kept);
		ft_sched_destroy(s);
		s = sched_with_busy(&t, 3, 4, 1, busy, 4);
		o.release_on_failure = true;
		tap_ok(!run_checked(s, &o, &q, 1, &out, NULL, why,
				    sizeof(why)) &&
		       out.status == FT_SCHED_REFUSED &&
		       !memcmp(before, ft_sched_free_lanes(s),
			       nd * sizeof(u32)),
		       "%s release on failure: nothing kept %s",
		       ft_sched_algo_name(o.algo), why);
		ft_sched_destroy(s);
	}
	/* Local refused on the way down keeps the up path and the rest. */
	ft_lw(&t, 3, 4, 1);
	busy[0] = their_link(&t, 0, 8, 0, FT_DOWN);
	s = sched_with_busy(&t, 3, 4, 1, busy, 1);
	memcpy(before, ft_sched_free_lanes(s), nd * sizeof(u32));
	ft_sched_opts_default(&o, FT_SCHED_LOCAL_GREEDY);
	run_checked(s, &o, &q, 1, &out, NULL, why, sizeof(why));
	for (kept = 0, k = 0; k < nd; k++)
		kept += before[k] - ft_sched_free_lanes(s)[k];
	tap_ok(out.status == FT_SCHED_REFUSED && out.fail_level == 2 &&
	       out.fail_where == FT_SCHED_AT_DOWN && kept == 4,
	       "local-greedy refused at Dlink(0,8,0) keeps its 3 up links and"
	       " the down link above (%u)", kept);
	ft_sched_destroy(s);
	free(before);
}

static void test_random_fit(void)
{
	struct ft_topo t;
	struct ft_sched *s;
	struct ft_sched_opts o;
	struct ft_sched_req q = { 0, 63, 1 };
	struct ft_sched_out out;
	u32 seen = 0, seed, firsts = 0;
	int good = 1;

	ft_lw(&t, 2, 8, 1);
	s = ft_sched_create(&t);
	ft_sched_opts_default(&o, FT_SCHED_LEVELWISE);
	for (seed = 1; seed <= 200; seed++) {
		ft_sched_reset(s);
		o.seed = seed;
		o.random_fit = false;
		run_checked(s, &o, &q, 1, &out, NULL, why, sizeof(why));
		firsts += out.port[1] == 0;
		ft_sched_reset(s);
		o.random_fit = true;
		good &= !run_checked(s, &o, &q, 1, &out, NULL, why,
				     sizeof(why));
		good &= out.status == FT_SCHED_GRANTED;
		seen |= 1U << out.port[1];
	}
	tap_ok(firsts == 200, "first fit: always port 0");
	tap_ok(good && seen == 0xff, "random fit: all 8 ports drawn (%#x)",
	       seen);
	ft_sched_destroy(s);
}

/* Lanes: bits derived from the counters for requests of 2 lanes. */
static void test_lanes(void)
{
	struct ft_topo t;
	struct ft_sched *s;
	struct ft_sched_opts o;
	struct ft_sched_req q[4] = {
		{ 0, 32, 2 }, { 1, 33, 1 }, { 2, 34, 2 }, { 3, 35, 1 },
	};
	struct ft_sched_out out[4];
	struct ft_sched_stats st;

	ft_lw(&t, 3, 4, 2);
	s = ft_sched_create(&t);
	ft_sched_opts_default(&o, FT_SCHED_LEVELWISE);
	tap_ok(!run_checked(s, &o, q, 4, out, &st, why, sizeof(why)),
	       "lanes 2: valid %s", why);
	tap_ok(st.granted == 4 && st.lanes_granted == 6 &&
	       out[0].port[1] == 0 && out[1].port[1] == 1 &&
	       out[2].port[1] == 2 && out[3].port[1] == 1,
	       "lanes 2: ports 0, 1, 2 (needs 2 lanes), 1 (its last lane)");
	ft_sched_destroy(s);
}

static void test_edges(void)
{
	struct ft_topo t;
	struct ft_sched *s;
	struct ft_sched_opts o;
	struct ft_sched_req q[4] = {
		{ 5, 5, 1 }, { 64, 1, 1 }, { 1, 2, 0 }, { 7, 9, 1 },
	};
	struct ft_sched_out out[4];
	struct ft_sched_stats st;
	u32 port[3] = { 0, 4, 0 }, a;
	int good = 1;

	ft_lw(&t, 3, 4, 1);
	s = ft_sched_create(&t);
	for (a = 0; a < FT_SCHED_NALGOS; a++) {
		ft_sched_reset(s);
		ft_sched_opts_default(&o, a);
		good &= !run_checked(s, &o, q, 4, out, &st, why, sizeof(why));
		good &= out[0].status == FT_SCHED_GRANTED && !out[0].hh &&
			out[1].status == FT_SCHED_INVALID &&
			out[2].status == FT_SCHED_INVALID &&
			out[3].status == FT_SCHED_GRANTED && st.invalid == 2 &&
			st.granted == 2;
	}
	tap_ok(good, "src == dst granted without links, bad leaf and 0 lanes "
	       "invalid, for every algorithm %s", why);
	o.algo = FT_SCHED_NALGOS;
	tap_ok(ft_sched_run(s, &o, q, 4, out, NULL) == -EINVAL,
	       "unknown algorithm refused");
	tap_ok(ft_sched_take(s, 0, 32, port, 1) == -EINVAL,
	       "take: a port >= w is refused");
	port[1] = 0;
	tap_ok(!ft_sched_take(s, 0, 32, port, 1) &&
	       ft_sched_take(s, 0, 32, port, 1) == -ENOSPC &&
	       !ft_sched_give(s, 0, 32, port, 1) &&
	       !ft_sched_take(s, 0, 32, port, 1),
	       "take, take again (ENOSPC), give, take");
	good = 1;
	for (a = 0; a < FT_SCHED_NALGOS; a++)
		good &= ft_sched_algo_parse(ft_sched_algo_name(a)) == (int)a;
	for (a = 0; a < FT_SCHED_NORDERS; a++)
		good &= ft_sched_order_parse(ft_sched_order_name(a)) == (int)a;
	tap_ok(good && ft_sched_algo_parse("nope") == -1,
	       "names parse back");
	ft_sched_destroy(s);
}

/* Chained rounds: what a round refused is retried on what is left. */
static void test_chain(void)
{
	struct ft_topo t;
	struct ft_sched *s;
	struct ft_sched_opts o;
	struct ft_sched_req q[64], left[64];
	struct ft_sched_out out[64];
	struct ft_sched_stats st;
	struct ft_rand r;
	u32 perm[64], i, k, total, rounds;
	int good = 1;

	ft_rand_seed(&r, 7);
	ft_lw(&t, 3, 4, 1);
	s = ft_sched_create(&t);
	ft_rand_perm(&r, perm, 64);
	perm_reqs(q, perm, 64, 1);
	ft_sched_opts_default(&o, FT_SCHED_LEVELWISE);
	good &= !run_checked(s, &o, q, 64, out, &st, why, sizeof(why));
	for (k = 0, i = 0; i < 64; i++)
		if (out[i].status != FT_SCHED_GRANTED)
			left[k++] = q[i];
	good &= !run_checked(s, &o, left, k, out, &st, why, sizeof(why));
	tap_ok(good && k && st.granted == 0 && st.fail_up[1] == k,
	       "chained round without release: the %u refused kept their "
	       "leaf links and are refused there %s", k, why);
	ft_sched_reset(s);
	o.release_on_failure = true;
	good &= !run_checked(s, &o, q, 64, out, &st, why, sizeof(why));
	total = st.granted;
	for (k = 0, i = 0; i < 64; i++)
		if (out[i].status != FT_SCHED_GRANTED)
			left[k++] = q[i];
	good &= !run_checked(s, &o, left, k, out, &st, why, sizeof(why));
	total += st.granted;
	tap_ok(good, "chained round with release: valid on what is left %s",
	       why);
	for (i = 0, st.refused = 0; i < k; i++)
		if (out[i].status != FT_SCHED_GRANTED)
			left[st.refused++] = left[i];
	k = st.refused;
	/* Time-sharing: new rounds on a fresh fabric until all are done. */
	for (rounds = 1; k && rounds < 10; rounds++) {
		ft_sched_reset(s);
		good &= !run_checked(s, &o, left, k, out, &st, why,
				     sizeof(why));
		total += st.granted;
		for (i = 0, st.granted = 0; i < k; i++)
			if (out[i].status != FT_SCHED_GRANTED)
				left[st.granted++] = left[i];
		k = st.granted;
	}
	tap_ok(good && total == 64 && rounds <= 4,
	       "the permutation completes in %u rounds", rounds);
	ft_sched_destroy(s);
}

int main(void)
{
	test_fig2();
	test_fig4();
	test_fig8();
	test_order();
	test_release();
	test_random_fit();
	test_lanes();
	test_edges();
	test_chain();
	return tap_done();
}
