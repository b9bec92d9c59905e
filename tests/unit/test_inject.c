// SPDX-License-Identifier: GPL-2.0
/* Injection rules: GREEDY, RANDOM's schedule, RANDOM''s passes. */
#include <math.h>
#include "tap.h"
#include "harness.h"
#include "../../kmod/core/ft_pairs.h"

static u32 two[FT_MAX_LEVELS] = { [0 ... FT_MAX_LEVELS - 1] = 2 };
static u32 one[FT_MAX_LEVELS] = { [0 ... FT_MAX_LEVELS - 1] = 1 };

#define Q(num, den) ((u64)(FT_Q32_ONE * (num) / (den)))

static void test_all(void)
{
	struct ft_inject_params ip = { .rule = FT_INJECT_ALL };
	struct ft_inject inj;
	struct ft_topo t;
	struct ft_rand r;

	ft_topo_init(&t, 4, two, one, one);
	ft_rand_seed(&r, 1);
	ft_inject_init(&inj, &t, &ip);
	ft_inject_begin(&inj, 10);
	tap_ok(ft_inject_offer(&inj, &r, NULL, 10) == 10 &&
	       inj.p_q32 == FT_Q32_ONE, "all: every waiting message offered");
	ip.rule = FT_INJECT_NR;
	tap_ok(ft_inject_init(&inj, &t, &ip) == -EINVAL, "unknown rule refused");
	ip.rule = FT_INJECT_RANDOM;
	ip.r_q16 = FT_Q16_ONE / 2;
	tap_ok(ft_inject_init(&inj, &t, &ip) == -EINVAL, "r < 1 refused");
}

/* RANDOM with r = 2, k1 = k2 = 1 on n = 16 (lg n = 4, lg lg n = 2). */
static void test_random_schedule(void)
{
	struct ft_inject_params ip = {
		.rule = FT_INJECT_RANDOM, .r_q16 = 2 << 16,
		.k1_q16 = 1 << 16, .k2_q16 = 1 << 16,
	};
	u64 want[128];
	struct ft_inject inj;
	struct ft_topo t;
	u32 n = 0, i, k, ok = 1;

	want[n++] = FT_Q32_ONE;			/* send M */
	for (i = 0; i < 4; i++)			/* TRY-GUESS(2) */
		want[n++] = Q(1, 4);
	want[n++] = FT_Q32_ONE;
	/* 1 * 4 < 1 * 4 fails: lambda_guess = lg n lg lg n = 8 */
	for (k = 8; k >= 2; k /= 2)		/* TRY-GUESS(8) */
		for (i = 0; i < (k > 4 ? k : 4); i++)
			want[n++] = Q(1, 2 * k);
	want[n++] = FT_Q32_ONE;
	for (k = 16; k >= 2; k /= 2)		/* TRY-GUESS(16) */
		for (i = 0; i < (k > 4 ? k : 4); i++)
			want[n++] = Q(1, 2 * k);
	want[n++] = FT_Q32_ONE;

	ft_topo_init(&t, 4, two, one, one);
	ft_inject_init(&inj, &t, &ip);
	for (i = 0; i < n; i++) {
		ft_inject_begin(&inj, 1000);
		if (inj.p_q32 != want[i]) {
			tap_diag("cycle %u: p %llu want %llu", i,
				 (unsigned long long)inj.p_q32,
				 (unsigned long long)want[i]);
			ok = 0;
			break;
		}
		ft_inject_end(&inj);
	}
	tap_ok(ok && inj.phase == FT_RANDOM_DOUBLE,
	       "RANDOM: send M; TRY-GUESS(2); then doubling guesses 8, 16 "
	       "with p = 1/(r lambda), lambda halving (%u cycles)", n);
	ft_inject_begin(&inj, 0);
	ft_inject_begin(&inj, 7);
	tap_ok(inj.p_q32 == FT_Q32_ONE && inj.phase == FT_RANDOM_FIRST,
	       "an empty backlog restarts RANDOM at 'send M'");
	ip.r_q16 = 0;
	ip.k1_q16 = 0;
	ip.k2_q16 = 0;
	ft_inject_init(&inj, &t, &ip);
	tap_ok(inj.r_q16 == ft_congestion_r(&t) &&
	       inj.k1_q16 == 4 * inj.r_q16 && inj.k2_q16 == inj.r_q16 &&
	       inj.lg_n == 4 && inj.lglg_n == 2,
	       "defaults: r from the capacities (%.2f), k1 = 4r, k2 = r",
	       inj.r_q16 / 65536.0);
}

static void test_random_counts(void)
{
	struct ft_inject_params ip = {
		.rule = FT_INJECT_RANDOM, .r_q16 = 2 << 16,
		.k1_q16 = 1 << 16, .k2_q16 = 1 << 16,
	};
	struct ft_inject inj;
	struct ft_topo t;
	struct ft_rand r;
	double sum = 0, sq = 0, mean, var;
	u32 i, c, trials = 4000;

	ft_topo_init(&t, 4, two, one, one);
	ft_rand_seed(&r, 2);
	ft_inject_init(&inj, &t, &ip);
	ft_inject_begin(&inj, 100);
	ft_inject_end(&inj);
	ft_inject_begin(&inj, 100);		/* p = 1/4 */
	for (i = 0; i < trials; i++) {
		c = ft_inject_offer(&inj, &r, NULL, 100);
		sum += c;
		sq += (double)c * c;
	}
	mean = sum / trials;
	var = sq / trials - mean * mean;
	tap_ok(fabs(mean - 25) < 0.5 && fabs(var - 18.75) < 2.5,
	       "RANDOM offers Binomial(q, p) head messages: mean %.2f "
	       "(25), variance %.2f (18.75)", mean, var);
}

static void test_prime(void)
{
	struct ft_inject_params ip = { .rule = FT_INJECT_RANDOM_PRIME };
	struct ft_inject_pair ps = { 0 };
	struct ft_inject inj;
	struct ft_topo t;
	struct ft_rand r;
	u32 z, i, c, sum, ok = 1, exact = 1;

	ft_topo_init(&t, 4, two, one, one);
	ft_rand_seed(&r, 3);
	ft_inject_init(&inj, &t, &ip);
	for (z = 1; z <= 16; z *= 2)
		for (i = 1; i <= z; i++) {
			ft_inject_begin(&inj, 50);
			ok &= inj.z == z && inj.slot == i &&
			      inj.p_q32 == FT_Q32_ONE / (z - i + 1);
			ft_inject_end(&inj);
		}
	tap_ok(ok, "RANDOM': passes of z = 1, 2, 4, ..., slot i offers "
	       "with p = 1/(z - i + 1)");
	/* Nothing ever delivered: each pass sends each message once. */
	ft_inject_init(&inj, &t, &ip);
	for (z = 1; z <= 64; z *= 2) {
		sum = 0;
		for (i = 1; i <= z; i++) {
			ft_inject_begin(&inj, 50);
			c = ft_inject_offer(&inj, &r, &ps, 50);
			sum += c;
			ft_inject_pair_done(&inj, &ps, c, 0);
			ft_inject_end(&inj);
		}
		exact &= sum == 50;
	}
	tap_ok(exact, "RANDOM': with no deliveries, every pass offers each "
	       "of 50 messages exactly once");
}

/* Run a message set to the end; cycles must be at least lambda. */
static int drain(const struct ft_fabric_params *p, struct ft_demand *dm,
		 u32 nd, u64 *cycles, u64 *lambda_milli)
{
	struct ft_lambda l;
	struct sim s;
	u32 *loads;
	int good;

	if (sim_init(&s, p, dm, nd))
		return 0;
	loads = calloc(1, ft_load_scratch_size(&s.f.topo));
	ft_lambda(&s.f.topo, dm, nd, loads, &l);
	free(loads);
	sim_run(&s, 1000000);
	*cycles = s.cycles;
	*lambda_milli = l.milli;
	good = !s.backlog && !s.violations && s.cycles * 1000 >= l.milli;
	if (!good)
		tap_diag("backlog %llu violations %u cycles %llu lambda %.3f %s",
			 (unsigned long long)s.backlog, s.violations,
			 (unsigned long long)s.cycles, l.milli / 1000.0, s.why);
	sim_destroy(&s);
	return good;
}

static void test_drain(void)
{
	static const char *const name[] = { "all", "random", "random-prime" };
	static const u32 m3[3] = { 4, 4, 4 }, w3[3] = { 1, 4, 4 };
	struct ft_fabric_params p;
	struct ft_demand dm[256];
	struct ft_rand r;
	u64 cyc, lm;
	u32 rule, i, nd, shape;
	int good;

	ft_rand_seed(&r, 4);
	for (rule = 0; rule < FT_INJECT_NR; rule++) {
		good = 1;
		for (shape = 0; shape < 2; shape++) {
			u32 lanes[8];
			struct ft_profile prof = {
				.kind = FT_PROFILE_STANDARD, .base = 1 };

			if (shape) {
				fabric_params(&p, 3, m3, w3, NULL);
				p.path = FT_PATH_RANDOM;
			} else {
				ft_profile_lanes(&prof, 6, two, one, lanes);
				fabric_params(&p, 6, two, one, lanes);
			}
			p.arb = FT_ARB_RANDOM;
			p.inject.rule = rule;
			p.max_msgs = 100000;
			/* hot spot: everyone to leaf 0, 3 messages each */
			for (nd = 0, i = 1; i < 64; i++, nd++) {
				dm[nd].src = i;
				dm[nd].dst = 0;
				dm[nd].count = 3;
			}
			good &= drain(&p, dm, nd, &cyc, &lm);
			good &= cyc == 189 || rule != FT_INJECT_ALL;
			tap_diag("%s shape %u hot spot: %llu cycles, lambda %.3f",
				 name[rule], shape, (unsigned long long)cyc,
				 lm / 1000.0);
			/* random destinations, 4 per source */
			for (nd = 0, i = 0; i < 256; i++, nd++) {
				dm[nd].src = i / 4;
				dm[nd].dst = ft_rand_below(&r, 64);
				dm[nd].count = 1 + ft_rand_below(&r, 3);
			}
			for (i = 0; i < nd; i++)	/* merge duplicates */
				for (u32 k = i + 1; k < nd; k++)
					if (dm[k].src == dm[i].src &&
					    dm[k].dst == dm[i].dst) {
						dm[i].count += dm[k].count;
						dm[k--] = dm[--nd];
					}
			good &= drain(&p, dm, nd, &cyc, &lm);
			tap_diag("%s shape %u random: %llu cycles, lambda %.3f",
				 name[rule], shape, (unsigned long long)cyc,
				 lm / 1000.0);
			/* a one-cycle set: a permutation within leaf switches */
			for (nd = 0, i = 0; i < 64; i++, nd++) {
				dm[nd].src = i;
				dm[nd].dst = i ^ 1;
				dm[nd].count = 1;
			}
			good &= drain(&p, dm, nd, &cyc, &lm) && cyc == 1;
		}
		tap_ok(good, "%s injection delivers everything, never in fewer "
		       "than lambda cycles, a lambda <= 1 set in one cycle",
		       name[rule]);
	}
}

static void test_restart(void)
{
	static const u32 c[2] = { 1, 1 };
	struct ft_fabric_params p;
	struct ft_demand dm[2] = { { 0, 3, 4 }, { 1, 3, 4 } };
	struct ft_cycle_result res;
	struct sim s;

	fabric_params(&p, 2, two, one, c);
	p.inject.rule = FT_INJECT_RANDOM_PRIME;
	sim_init(&s, &p, dm, 2);
	sim_run(&s, 1000);
	tap_ok(!s.backlog && s.f.inject.z > 1, "random-prime drained (z %llu)",
	       (unsigned long long)s.f.inject.z);
	ft_inject_begin(&s.f.inject, 0);	/* the idle cycle */
	s.pair[0].queued = 2;
	s.backlog = 2;
	sim_step(&s, &res);
	tap_ok(res.offered == 2 && s.f.inject.z == 2,
	       "a new message set restarts RANDOM' at z = 1");
	sim_destroy(&s);
}

static void pairs_count(void *arg, u32 slot, const struct ft_pair *p, u32 n)
{
	(void)slot;
	(void)p;
	*(u64 *)arg += n;
}

/*
 * The kernel's driver, ft_pairs_cycle(), on one pair of k messages whose
 * source carries one per cycle: every message draws its RANDOM' slot, so
 * a pass of z >= k cycles delivers most of them and the pair drains in
 * O(k) cycles. Drawing only among the one a cycle can carry delivered one
 * message per pass: 2^k cycles.
 */
static void test_prime_pairs(void)
{
	static const u32 c[2] = { 1, 1 };
	struct ft_fabric_params p;
	struct ft_cycle_result res;
	struct ft_fabric f;
	struct ft_pairs q;
	u64 delivered = 0, cyc;
	const u32 k = 256;
	int ok = 0;

	fabric_params(&p, 2, two, one, c);
	p.inject.rule = FT_INJECT_RANDOM_PRIME;
	if (!ft_fabric_init(&f, &p)) {
		if (!ft_pairs_init(&q, 16)) {
			ok = !ft_pairs_add(&q, 0, 3, 0, k, 0, NULL);
			for (cyc = 0; ok && cyc < 16 * k && q.queued; cyc++)
				ft_pairs_cycle(&q, &f, NULL, pairs_count, &delivered, &res);
			ok = ok && !q.queued && delivered == k;
			tap_diag("random-prime, one pair of %u on 1 lane: %llu cycles", k,
				 (unsigned long long)cyc);
			ft_pairs_destroy(&q);
		}
		ft_fabric_destroy(&f);
	}
	tap_ok(ok, "RANDOM' through ft_pairs_cycle: a pair of %u messages on one lane "
	       "drains within %u cycles (every message draws its slot)", k, 16 * k);
}

int main(void)
{
	test_all();
	test_random_schedule();
	test_random_counts();
	test_prime();
	test_drain();
	test_restart();
	test_prime_pairs();
	return tap_done();
}
