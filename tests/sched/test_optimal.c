// SPDX-License-Identifier: GPL-2.0
/*
 * OPTIMAL: every permutation of a full-bisection k-ary n-tree is routed
 * (the edge-colouring pass), and general demand gets a valid schedule
 * that reaches the obvious bounds.
 */
#include "../unit/tap.h"
#include "util.h"

#define MAXQ	4096

static struct ft_sched_req q[MAXQ];
static struct ft_sched_out out[MAXQ];
static u32 perm[MAXQ];
static char why[256];

/*
 * @trials random permutations of FT(@l,@k) with @lanes per link, each
 * request @want lanes: with @want dividing @lanes every one is granted
 * by the colouring (floor(lanes / want) slots per link).
 */
static void test_perms_want(u32 l, u32 k, u32 trials, u32 lanes, u32 want)
{
	struct ft_rand r;
	struct ft_topo t;
	struct ft_sched *s;
	struct ft_sched_opts o;
	struct ft_sched_stats st;
	u32 i, full = 0, bad = 0, exact = 0, min = ~0U;

	ft_rand_seed(&r, 1000 * l + k);
	ft_lw(&t, l, k, lanes);
	s = ft_sched_create(&t);
	ft_sched_opts_default(&o, FT_SCHED_OPTIMAL);
	o.rearrange = 0;	/* the colouring alone must do it */
	for (i = 0; i < trials; i++) {
		ft_sched_reset(s);
		ft_rand_perm(&r, perm, t.n);
		perm_reqs(q, perm, t.n, want);
		o.order = i % FT_SCHED_NORDERS;
		o.seed = i;
		if (run_checked(s, &o, q, t.n, out, &st, why, sizeof(why))) {
			if (!bad++)
				tap_diag("%s", why);
			continue;
		}
		full += st.granted == t.n;
		exact += st.exact;
		min = ft_min_u32(min, st.granted);
	}
	tap_ok(!bad && full == trials && exact == trials,
	       "optimal FT(%u,%u) lanes %u, %u per request: %u of %u random "
	       "permutations fully granted by the colouring (min %u of %u)",
	       l, k, lanes, want, full, trials, min, t.n);
	ft_sched_destroy(s);
}

static void test_perms(u32 l, u32 k, u32 trials, u32 lanes)
{
	test_perms_want(l, k, trials, lanes, 1);
}

/*
 * Requests of k lanes: a 2-relation of 2-lane requests on 4-lane links
 * (two slots a link) fully granted; k-lane requests on links with fewer
 * lanes get nothing from the colouring, so the fallback's result stands;
 * mixed lanes take the fallback; every schedule valid.
 */
static void test_lanes(void)
{
	struct ft_rand r;
	struct ft_topo t;
	struct ft_sched *s;
	struct ft_sched_opts o;
	struct ft_sched_stats st;
	u32 i, n, good = 1, full = 0, trials = 50;

	ft_rand_seed(&r, 44);
	ft_lw(&t, 3, 4, 4);
	s = ft_sched_create(&t);
	ft_sched_opts_default(&o, FT_SCHED_OPTIMAL);
	o.rearrange = 0;
	for (i = 0; i < trials; i++) {
		ft_sched_reset(s);
		ft_rand_perm(&r, perm, t.n);
		perm_reqs(q, perm, t.n, 2);
		ft_rand_perm(&r, perm, t.n);
		perm_reqs(q + t.n, perm, t.n, 2);
		good &= !run_checked(s, &o, q, 2 * t.n, out, &st, why, sizeof(why));
		full += st.granted == 2 * t.n && st.exact;
	}
	tap_ok(good && full == trials, "optimal FT(3,4) lanes 4: %u of %u "
	       "2-relations of 2-lane requests fully granted %s", full, trials,
	       good ? "" : why);
	ft_sched_destroy(s);

	ft_lw(&t, 2, 4, 2);
	s = ft_sched_create(&t);
	ft_rand_perm(&r, perm, t.n);
	perm_reqs(q, perm, t.n, 3);
	good = !run_checked(s, &o, q, t.n, out, &st, why, sizeof(why));
	n = 0;
	for (i = 0; i < t.n; i++)
		n += out[i].status == FT_SCHED_GRANTED && out[i].hh;
	tap_ok(good && n == 0, "optimal: 3-lane requests on 2-lane links: "
	       "none granted (%u), valid %s", n, good ? "" : why);

	ft_sched_reset(s);
	ft_rand_perm(&r, perm, t.n);
	perm_reqs(q, perm, t.n, 1);
	for (i = 0; i < t.n; i += 2)
		q[i].lanes = 2;
	good = !run_checked(s, &o, q, t.n, out, &st, why, sizeof(why));
	tap_ok(good && !st.exact, "optimal: mixed lanes take the fallback, "
	       "valid (%u of %u granted) %s", st.granted, t.n,
	       good ? "" : why);
	ft_sched_destroy(s);
}

/* Structured permutations that defeat the local schedulers. */
static void test_structured(void)
{
	struct ft_topo t;
	struct ft_sched *s;
	struct ft_sched_opts o;
	struct ft_sched_stats st;
	u32 i, b, rev, full = 0;

	ft_lw(&t, 3, 16, 1);
	s = ft_sched_create(&t);
	ft_sched_opts_default(&o, FT_SCHED_OPTIMAL);
	o.rearrange = 0;
	for (i = 0; i < t.n; i++) {	/* bit reversal of 12 bits */
		for (rev = 0, b = 0; b < 12; b++)
			rev |= ((i >> b) & 1) << (11 - b);
		perm[i] = rev;
	}
	perm_reqs(q, perm, t.n, 1);
	full += !run_checked(s, &o, q, t.n, out, &st, why, sizeof(why)) &&
		st.granted == t.n;
	for (i = 0; i < t.n; i++)	/* transpose of the base-16 digits */
		perm[i] = (i % 16) * 256 + (i / 256) + ((i / 16) % 16) * 16;
	perm_reqs(q, perm, t.n, 1);
	ft_sched_reset(s);
	full += !run_checked(s, &o, q, t.n, out, &st, why, sizeof(why)) &&
		st.granted == t.n;
	for (i = 0; i < t.n; i++)	/* shift by N / 2: every H = 3 */
		perm[i] = (i + t.n / 2) % t.n;
	perm_reqs(q, perm, t.n, 1);
	ft_sched_reset(s);
	full += !run_checked(s, &o, q, t.n, out, &st, why, sizeof(why)) &&
		st.granted == t.n;
	tap_ok(full == 3, "optimal FT(3,16): bit reversal, digit transpose and"
	       " shift by N/2 fully granted");
	ft_sched_destroy(s);
}

/* General demand: hot spots reach the destination's link capacity. */
static void test_general(void)
{
	struct ft_rand r;
	struct ft_topo t;
	struct ft_sched *s;
	struct ft_sched_opts o;
	struct ft_sched_stats st, lw;
	u32 i, trial, good = 1, n, better = 0, worse = 0;

	ft_rand_seed(&r, 3);
	ft_lw(&t, 3, 4, 2);
	s = ft_sched_create(&t);
	ft_sched_opts_default(&o, FT_SCHED_OPTIMAL);
	for (i = 0; i < t.n; i++)
		q[i] = (struct ft_sched_req){ i, 17, 1 };
	good &= !run_checked(s, &o, q, t.n, out, &st, why, sizeof(why));
	tap_ok(good && st.granted == 3,
	       "optimal hot spot on 2 lanes: the 2 lanes of leaf 17's link "
	       "plus 17 -> 17 granted (%u)", st.granted);
	/* All-to-all subsets and random pairs, with and without circuits
	 * in place: never below level-wise by much, often above.
	 */
	for (trial = 0; trial < 200; trial++) {
		enum pattern p = 1 + trial % 3;

		ft_lw(&t, 2 + trial % 2, 4, 1 + trial % 2);
		ft_sched_destroy(s);
		s = ft_sched_create(&t);
		n = make_pattern(&r, &t, p, 1 + (trial % 4 == 3), q, MAXQ);
		if (trial % 5 == 4)
			random_reservations(&r, s, t.n / 2);
		{
			u32 nd = ft_topo_dlinks(&t), *f = malloc(nd * 4);
			struct ft_sched_opts lo;

			memcpy(f, ft_sched_free_lanes(s), nd * 4);
			ft_sched_opts_default(&o, FT_SCHED_OPTIMAL);
			good &= !run_checked(s, &o, q, n, out, &st, why,
					     sizeof(why));
			ft_sched_set_free(s, f);
			ft_sched_opts_default(&lo, FT_SCHED_LEVELWISE);
			lo.release_on_failure = true;
			lo.order = FT_SCHED_ORDER_FARTHEST;
			good &= !run_checked(s, &lo, q, n, out, &lw, why,
					     sizeof(why));
			free(f);
		}
		better += st.granted > lw.granted;
		worse += st.granted < lw.granted;
	}
	tap_diag("optimal vs level-wise on general demand: better %u, worse "
		 "%u of 200", better, worse);
	tap_ok(good && better > 50 && !worse,
	       "optimal on general demand valid, never below level-wise %s",
	       why);
	ft_sched_destroy(s);
}

int main(void)
{
	test_perms(2, 8, 200, 1);
	test_perms(3, 4, 200, 1);
	test_perms(3, 8, 200, 1);
	test_perms(2, 16, 200, 1);
	test_perms(4, 4, 100, 1);
	test_perms(3, 16, 5, 1);
	test_perms(3, 4, 50, 2);
	test_perms_want(3, 4, 50, 2, 2);
	test_perms_want(2, 8, 50, 4, 4);
	test_perms_want(3, 8, 20, 4, 2);
	test_lanes();
	test_structured();
	test_general();
	return tap_done();
}
