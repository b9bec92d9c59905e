// SPDX-License-Identifier: GPL-2.0
/*
 * Failed links: the lane state of a fabric with failed links (the
 * engine core's ft_fail) gives them no free lanes, and every algorithm
 * schedules around them: no granted path crosses one, and the validator
 * accepts every round.  On FT(3,4), level-wise with one failed top-level
 * link against none, over the same permutations.
 */
#include "../unit/tap.h"
#include "util.h"
#include "../../kmod/core/ft_fail.h"

#include <stdlib.h>
#include <string.h>

/* A granted request's path crosses a failed link. */
static bool crosses(const struct ft_topo *t, const struct ft_lanes *l,
		    const struct ft_sched_req *q, const struct ft_sched_out *o)
{
	u32 port[FT_MAX_LEVELS];
	struct ft_path p;
	u32 k;

	ft_sched_ports(o, port);
	if (ft_topo_path(t, q->src, q->dst, port, &p))
		return true;
	for (k = 0; k < p.n; k++)
		if (ft_fail_is_failed(l, p.link[k]))
			return true;
	return false;
}

static void test_around(void)
{
	static struct ft_sched_req q[512];
	static struct ft_sched_out out[512];
	u32 trial, algo, id, n, i, granted = 0, rounds = 0;
	int valid = 1, around = 1, zero = 1;
	struct ft_sched_opts o;
	struct ft_sched_stats st;
	struct ft_lanes l;
	struct ft_sched *s;
	struct ft_topo t;
	struct ft_rand r;
	char why[256] = "";

	ft_rand_seed(&r, 41);
	for (trial = 0; trial < 60; trial++) {
		random_shape(&r, &t, 3);
		if (ft_lanes_init(&l, &t))
			continue;
		for (id = 0; id < l.n; id++)
			if (!ft_rand_below(&r, 8))
				ft_fail_link(&l, &t, id, FT_FAIL_SELF, true);
		s = ft_sched_create(&t);
		for (algo = 0; algo < FT_SCHED_NALGOS; algo++) {
			n = make_pattern(&r, &t, (enum pattern)(trial % PAT_NPATTERNS), 2,
					 q, 512);
			ft_sched_set_lanes(s, &l);
			for (id = 0; id < l.n; id++)
				zero &= !ft_fail_is_failed(&l, id) ||
					!ft_sched_free_lanes(s)[id];
			ft_sched_opts_default(&o, algo);
			o.seed = trial;
			if (run_checked(s, &o, q, n, out, &st, why, sizeof(why))) {
				valid = 0;
				tap_diag("trial %u %s: %s", trial, ft_sched_algo_name(algo), why);
			}
			for (i = 0; i < n; i++)
				if (out[i].status == FT_SCHED_GRANTED && out[i].hh &&
				    crosses(&t, &l, &q[i], &out[i]))
					around = 0;
			granted += st.granted;
			rounds++;
		}
		ft_sched_destroy(s);
		ft_lanes_destroy(&l);
	}
	tap_diag("%u rounds, %u requests granted", rounds, granted);
	tap_ok(zero, "a failed link has no free lanes for the schedulers");
	tap_ok(valid && rounds, "every algorithm's rounds pass the validator");
	tap_ok(around && granted, "no granted path crosses a failed link");
}

/* Seed 002's FT(3,4), one failed top-level link (both ways). */
static void test_levelwise_top(void)
{
	static struct ft_sched_req q[64];
	static struct ft_sched_out out[64];
	u32 perm[64], trial, trials = 400;
	u64 with = 0, without = 0;
	struct ft_sched_opts o;
	struct ft_sched_stats st;
	struct ft_lanes l;
	struct ft_sched *s;
	struct ft_topo t;
	struct ft_rand r;
	int valid = 1, around = 1, i;
	char why[256];

	ft_lw(&t, 3, 4, 1);
	ft_lanes_init(&l, &t);
	ft_fail_link(&l, &t, ft_topo_dlink(&t, 3, 0, FT_UP), FT_FAIL_SELF, true);
	ft_fail_link(&l, &t, ft_topo_dlink(&t, 3, 0, FT_DOWN), FT_FAIL_SELF, true);
	s = ft_sched_create(&t);
	ft_sched_opts_default(&o, FT_SCHED_LEVELWISE);
	ft_rand_seed(&r, 3);
	for (trial = 0; trial < trials; trial++) {
		ft_rand_perm(&r, perm, 64);
		perm_reqs(q, perm, 64, 1);
		ft_sched_reset(s);
		valid &= !run_checked(s, &o, q, 64, out, &st, why, sizeof(why));
		without += st.granted;
		ft_sched_set_lanes(s, &l);
		valid &= !run_checked(s, &o, q, 64, out, &st, why, sizeof(why));
		with += st.granted;
		for (i = 0; i < 64; i++)
			if (out[i].status == FT_SCHED_GRANTED && out[i].hh &&
			    crosses(&t, &l, &q[i], &out[i]))
				around = 0;
	}
	tap_diag("FT(3,4) levelwise over %u permutations: %.2f %% without failures, %.2f %% with one failed top-level link",
		 trials, 100.0 * without / (64.0 * trials), 100.0 * with / (64.0 * trials));
	tap_ok(valid && around, "level-wise schedules around a failed top-level link");
	tap_ok(with < without && with > without * 9 / 10,
	       "one failed top-level link costs a little schedulability, not much");
	ft_sched_destroy(s);
	ft_lanes_destroy(&l);
}

int main(void)
{
	test_around();
	test_levelwise_top();
	return tap_done();
}
