// SPDX-License-Identifier: GPL-2.0
/*
 * Every algorithm with every option on random inputs, each schedule
 * checked by the independent validator: random permutations, all-to-all
 * subsets, hot spots, random pairs and shifts on random XGFT shapes
 * (slimmed and fat levels), lanes 1..3 on links and requests, circuits
 * already in place, and chained rounds.
 */
#include "../unit/tap.h"
#include "util.h"

#define MAXQ	4096

static struct ft_sched_req q[MAXQ];
static struct ft_sched_out out[MAXQ];
static char why[256];

static void random_opts(struct ft_rand *r, struct ft_sched_opts *o, u32 a)
{
	ft_sched_opts_default(o, a);
	o->order = ft_rand_below(r, FT_SCHED_NORDERS);
	o->release_on_failure = ft_rand_below(r, 2);
	o->random_fit = ft_rand_below(r, 2);
	o->seed = ft_rand_u64(r);
	o->rearrange = ft_rand_below(r, 4) ? FT_SCHED_REARRANGE_DEFAULT :
		       ft_rand_below(r, 8);
}

static void test_shapes(void)
{
	struct ft_rand r;
	struct ft_topo t;
	struct ft_sched *s;
	struct ft_sched_opts o;
	struct ft_sched_stats st;
	u32 trial, a, n, runs = 0, bad = 0, granted[FT_SCHED_NALGOS] = { 0 };
	u32 asked = 0, exact = 0, fallback = 0, moved = 0;
	enum pattern pat;

	ft_rand_seed(&r, 2024);
	for (trial = 0; trial < 300; trial++) {
		random_shape(&r, &t, 4);
		s = ft_sched_create(&t);
		pat = ft_rand_below(&r, PAT_NPATTERNS);
		n = make_pattern(&r, &t, pat, 1 + ft_rand_below(&r, 3), q,
				 MAXQ);
		if (!ft_rand_below(&r, 3))	/* lanes 1 only */
			for (a = 0; a < n; a++)
				q[a].lanes = 1;
		asked += n;
		for (a = 0; a < FT_SCHED_NALGOS; a++) {
			ft_sched_reset(s);
			if (trial & 1)
				random_reservations(&r, s, t.n);
			random_opts(&r, &o, a);
			runs++;
			if (run_checked(s, &o, q, n, out, &st, why,
					sizeof(why))) {
				if (!bad++)
					tap_diag("trial %u %s %s: %s", trial,
						 ft_sched_algo_name(a),
						 pattern_name(pat), why);
				continue;
			}
			granted[a] += st.granted;
			if (a == FT_SCHED_OPTIMAL) {
				exact += st.exact;
				fallback += !st.exact;
				moved += st.rearranged;
			}
			/* A second round chained on what is left. */
			random_opts(&r, &o, a);
			runs++;
			if (run_checked(s, &o, q, n, out, &st, why,
					sizeof(why)) && !bad++)
				tap_diag("trial %u %s chained: %s", trial,
					 ft_sched_algo_name(a), why);
		}
		ft_sched_destroy(s);
	}
	tap_ok(!bad, "%u random schedules on random XGFTs all valid "
	       "(%u bad)", runs, bad);
	for (a = 0; a < FT_SCHED_NALGOS; a++)
		tap_diag("%-12s granted %u of %u requests",
			 ft_sched_algo_name(a), granted[a], asked);
	tap_diag("optimal: %u exact passes, %u fallbacks, %u rearranged",
		 exact, fallback, moved);
	tap_ok(exact > 20 && fallback > 20 && moved > 0,
	       "optimal took both passes and rearranged some requests");
}

/* k-ary n-trees at N up to 4096, lanes 1, all patterns. */
static void test_kary(void)
{
	static const u32 shapes[][2] = {
		{ 2, 8 }, { 3, 4 }, { 4, 4 }, { 3, 8 }, { 2, 16 }, { 3, 16 },
		{ 2, 64 },
	};
	struct ft_rand r;
	struct ft_topo t;
	struct ft_sched *s;
	struct ft_sched_opts o;
	u32 k, a, n, p, runs = 0, bad = 0;

	ft_rand_seed(&r, 99);
	for (k = 0; k < sizeof(shapes) / sizeof(shapes[0]); k++) {
		ft_lw(&t, shapes[k][0], shapes[k][1], 1);
		s = ft_sched_create(&t);
		for (p = 0; p < PAT_NPATTERNS; p++) {
			n = make_pattern(&r, &t, p, 1, q, MAXQ);
			for (a = 0; a < FT_SCHED_NALGOS; a++) {
				ft_sched_reset(s);
				random_opts(&r, &o, a);
				runs++;
				if (run_checked(s, &o, q, n, out, NULL, why,
						sizeof(why)) && !bad++)
					tap_diag("FT(%u,%u) %s %s: %s",
						 shapes[k][0], shapes[k][1],
						 ft_sched_algo_name(a),
						 pattern_name(p), why);
			}
		}
		ft_sched_destroy(s);
	}
	tap_ok(!bad, "%u schedules on FT(l,k) up to 4096 leaves valid", runs);
}

/* w > 64: availability vectors of several words. */
static void test_wide(void)
{
	u32 m[2] = { 70, 3 }, w[2] = { 1, 70 }, c[2] = { 1, 1 };
	struct ft_rand r;
	struct ft_topo t;
	struct ft_sched *s;
	struct ft_sched_opts o;
	struct ft_sched_stats st;
	u32 perm[210], trial, a, bad = 0, full = 0;

	ft_rand_seed(&r, 5);
	ft_topo_init(&t, 2, m, w, c);
	s = ft_sched_create(&t);
	for (trial = 0; trial < 20; trial++) {
		ft_rand_perm(&r, perm, t.n);
		perm_reqs(q, perm, t.n, 1);
		for (a = 0; a < FT_SCHED_NALGOS; a++) {
			ft_sched_reset(s);
			random_opts(&r, &o, a);
			if (run_checked(s, &o, q, t.n, out, &st, why,
					sizeof(why)) && !bad++)
				tap_diag("w = 70 %s: %s",
					 ft_sched_algo_name(a), why);
			if (a == FT_SCHED_OPTIMAL)
				full += st.granted == t.n;
		}
	}
	tap_ok(!bad && full == 20,
	       "w = 70 (two-word vectors): valid, optimal grants all (%u/20)",
	       full);
	ft_sched_destroy(s);
}

int main(void)
{
	test_shapes();
	test_kary();
	test_wide();
	return tap_done();
}
