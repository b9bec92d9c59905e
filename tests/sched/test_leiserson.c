// SPDX-License-Identifier: GPL-2.0
/*
 * Leiserson's off-line schedule (seed 004 Theorem 1): valid cycles (no
 * link over capacity, every message exactly once), ceil(lambda) <=
 * cycles <= 2 ceil(lambda) per LCA level, and per level at most
 * 2^ceil(lg lambda_H) parts (SPLIT-EVEN halves every channel), lambda
 * recomputed here from link loads.
 */
#include <math.h>

#include "../unit/tap.h"
#include "util.h"

#define MAXQ	8192

static struct ft_sched_req q[MAXQ];
static struct ft_sched_out out[MAXQ];
static char why[256];

/* max over links of load / cap for the messages with H == @only (0: all). */
static double lambda_of(const struct ft_topo *t, const u32 *cap,
			const struct ft_sched_req *m, u32 n, u32 only)
{
	u32 nd = ft_topo_dlinks(t), *load = calloc(nd, sizeof(u32)), j, k;
	u32 port[FT_MAX_LEVELS] = { 0 };
	struct ft_path p;
	double best = 0;

	for (j = 0; j < n; j++) {
		if (m[j].lanes != 1 || m[j].src >= t->n || m[j].dst >= t->n)
			continue;
		if (only && ft_topo_common_level(t, m[j].src, m[j].dst) != only)
			continue;
		ft_topo_path(t, m[j].src, m[j].dst, port, &p);
		for (k = 0; k < p.n && cap[p.link[k]]; k++)
			;
		if (k < p.n)
			continue;	/* refused: crosses a dead link */
		for (k = 0; k < p.n; k++)
			load[p.link[k]]++;
	}
	for (k = 0; k < nd; k++)
		if (load[k] && (double)load[k] / cap[k] > best)
			best = (double)load[k] / cap[k];
	free(load);
	return best;
}

/* A w = 1 tree: m_i in 2..4 (or 2), lanes by a profile. */
static void w1_tree(struct ft_rand *r, struct ft_topo *t, u32 trial)
{
	u32 h, m[FT_MAX_LEVELS], w[FT_MAX_LEVELS], c[FT_MAX_LEVELS], i, n;

	do {
		h = 1 + ft_rand_below(r, 9);
		n = 1;
		for (i = 0; i < h; i++) {
			m[i] = trial % 3 ? 2 : 2 + ft_rand_below(r, 3);
			w[i] = 1;
			switch (trial % 4) {
			case 0:		/* constant */
				c[i] = 1;
				break;
			case 1:		/* doubling every level */
				c[i] = 1U << i;
				break;
			case 2:		/* area-universal: x sqrt 2 */
				c[i] = (u32)ceil(pow(sqrt(2.0), i));
				break;
			default:
				c[i] = 1 + ft_rand_below(r, 4);
				break;
			}
			n *= m[i];
		}
	} while (n > 512 || n < 4 || ft_topo_init(t, h, m, w, c));
}

static u32 make_msgs(struct ft_rand *r, const struct ft_topo *t, u32 kind)
{
	u32 n = 0, i, j, k, per = 1 + ft_rand_below(r, 6);
	u32 *p = malloc(t->n * sizeof(u32));

	switch (kind % 4) {
	case 0:		/* random pairs */
		for (i = 0; i < t->n * per && n < MAXQ; i++)
			q[n++] = (struct ft_sched_req){ ft_rand_below(r, t->n),
							ft_rand_below(r, t->n),
							1 };
		break;
	case 1:		/* several permutations */
		for (k = 0; k < per; k++) {
			ft_rand_perm(r, p, t->n);
			for (i = 0; i < t->n && n < MAXQ; i++)
				q[n++] = (struct ft_sched_req){ i, p[i], 1 };
		}
		break;
	case 2:		/* hot spot */
		j = ft_rand_below(r, t->n);
		for (i = 0; i < t->n && n < MAXQ; i++)
			q[n++] = (struct ft_sched_req){ i, j, 1 };
		break;
	default:	/* all-to-all within a random window */
		k = 2 + ft_rand_below(r, t->n > 40 ? 40 : t->n - 1);
		j = ft_rand_below(r, t->n - k + 1);
		for (i = j; i < j + k; i++)
			for (p[0] = j; p[0] < j + k && n < MAXQ; p[0]++)
				q[n++] = (struct ft_sched_req){ i, p[0], 1 };
		break;
	}
	free(p);
	return n;
}

static void test_exact_case(void)
{
	u32 m[3] = { 2, 2, 2 }, w[3] = { 1, 1, 1 }, c[3] = { 1, 1, 1 }, i;
	struct ft_topo t;
	struct ft_sched *s;
	struct ft_sched_cycles cy;
	struct ft_sched_lstats st;

	ft_topo_init(&t, 3, m, w, c);
	s = ft_sched_create(&t);
	for (i = 0; i < 8; i++)
		q[i] = (struct ft_sched_req){ i, i ^ 4, 1 };
	q[8] = (struct ft_sched_req){ 3, 3, 1 };
	q[9] = (struct ft_sched_req){ 1, 2, 2 };
	ft_sched_leiserson(s, q, 10, false, out, &cy, &st);
	tap_ok(!ft_sched_check_cycles(&t, ft_sched_free_lanes(s), q, 10, out,
				      &cy, why, sizeof(why)) &&
	       cy.n == 4 && st.lambda_load == 4 && st.lambda_cap == 1 &&
	       out[9].status == FT_SCHED_INVALID && !out[8].cycle,
	       "binary 8 leaves, i -> i xor 4: lambda 4, exactly 4 cycles %s",
	       why);
	ft_sched_cycles_free(&cy);
	ft_sched_destroy(s);
}

static void test_w1(void)
{
	struct ft_rand r;
	struct ft_topo t;
	struct ft_sched *s;
	struct ft_sched_cycles cy, cc;
	struct ft_sched_lstats st, sc;
	u32 trial, n, hh, bad = 0, bound = 0, parts = 0, lam = 0, compact = 0;
	u32 refused = 0, tight = 0, saved = 0, lc, i;
	double l, lh;

	ft_rand_seed(&r, 4004);
	for (trial = 0; trial < 400; trial++) {
		w1_tree(&r, &t, trial);
		s = ft_sched_create(&t);
		if (trial % 5 == 4)	/* circuits in place, some links dead */
			random_reservations(&r, s, t.n);
		n = make_msgs(&r, &t, trial / 4);
		if (ft_sched_leiserson(s, q, n, false, out, &cy, &st) ||
		    ft_sched_check_cycles(&t, ft_sched_free_lanes(s), q, n,
					  out, &cy, why, sizeof(why))) {
			if (!bad++)
				tap_diag("trial %u: %s", trial, why);
			ft_sched_destroy(s);
			continue;
		}
		refused += st.refused;
		l = lambda_of(&t, ft_sched_free_lanes(s), q, n, 0);
		lc = (u32)ceil(l - 1e-9);
		lh = (double)st.lambda_load / st.lambda_cap;
		lam += fabs(l - lh) > 1e-9 ||
		       st.lambda_ceil != lc;
		if (cy.n < lc || cy.n > ft_max_u32(1, 2 * lc * st.levels)) {
			if (!bound++)
				tap_diag("trial %u: %u cycles, lambda %.2f, "
					 "%u levels", trial, cy.n, l,
					 st.levels);
		}
		tight += cy.n == lc;
		for (hh = 1; hh <= t.h; hh++) {
			lh = lambda_of(&t, ft_sched_free_lanes(s), q, n, hh);
			i = lh <= 1 ? 1 : 1U << (u32)ceil(log2(lh) - 1e-9);
			if (st.parts[hh] > (lh > 0 ? i : 0) && !parts++)
				tap_diag("trial %u: H %u: %u parts, lambda_H "
					 "%.2f", trial, hh, st.parts[hh], lh);
		}
		if (ft_sched_leiserson(s, q, n, true, out, &cc, &sc) ||
		    ft_sched_check_cycles(&t, ft_sched_free_lanes(s), q, n,
					  out, &cc, why, sizeof(why)) ||
		    cc.n > cy.n || cc.n < lc) {
			if (!compact++)
				tap_diag("trial %u compact: %u vs %u: %s",
					 trial, cc.n, cy.n, why);
		}
		saved += cy.n - cc.n;
		ft_sched_cycles_free(&cy);
		ft_sched_cycles_free(&cc);
		ft_sched_destroy(s);
	}
	tap_ok(!bad, "400 w = 1 trees (binary and m-ary, constant, doubling, "
	       "area and random capacities, circuits in place): cycles valid,"
	       " every message once");
	tap_ok(!lam, "lambda(M) matches the links' loads / free lanes");
	tap_ok(!bound, "ceil(lambda) <= cycles <= 2 ceil(lambda) x levels");
	tap_ok(!parts, "every LCA level: parts <= 2^ceil(lg lambda_H) "
	       "(SPLIT-EVEN halves every channel)");
	tap_ok(!compact, "compaction: valid, never more cycles, still >= "
	       "ceil(lambda)");
	tap_ok(refused > 0, "messages across dead links refused (%u)",
	       refused);
	tap_diag("cycles == ceil(lambda) in %u of 400; compaction saved %u "
		 "cycles", tight, saved);
}

/* XGFT: message batches with ports from OPTIMAL, spills counted. */
static void test_xgft(void)
{
	struct ft_rand r;
	struct ft_topo t;
	struct ft_sched *s;
	struct ft_sched_cycles cy;
	struct ft_sched_lstats st;
	u32 trial, n, bad = 0, low = 0, spilled = 0, cyc = 0, lb = 0;

	ft_rand_seed(&r, 77);
	for (trial = 0; trial < 100; trial++) {
		trial_shape(&r, &t, trial, 2, 3, 3);
		s = ft_sched_create(&t);
		n = make_msgs(&r, &t, trial);
		if (ft_sched_leiserson(s, q, n, trial % 3 == 0, out, &cy,
				       &st) ||
		    ft_sched_check_cycles(&t, ft_sched_free_lanes(s), q, n,
					  out, &cy, why, sizeof(why))) {
			if (!bad++)
				tap_diag("trial %u: %s", trial, why);
		}
		low += cy.n < st.lambda_ceil;
		spilled += st.spilled;
		cyc += cy.n;
		lb += st.lambda_ceil;
		ft_sched_cycles_free(&cy);
		ft_sched_destroy(s);
	}
	tap_ok(!bad && !low, "100 XGFT batches: cycles valid at link level, "
	       ">= ceil(lambda)");
	tap_diag("XGFT: %u cycles for a lambda bound of %u, %u messages "
		 "spilled", cyc, lb, spilled);
}

int main(void)
{
	test_exact_case();
	test_w1();
	test_xgft();
	return tap_done();
}
