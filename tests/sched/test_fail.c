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

/* Some granted request of the @n in @q crosses a failed link of @l. */
static bool any_crosses(const struct ft_topo *t, const struct ft_lanes *l,
			const struct ft_sched_req *q, const struct ft_sched_out *out, u32 n)
{
	u32 i;

	for (i = 0; i < n; i++)
		if (out[i].status == FT_SCHED_GRANTED && out[i].hh &&
		    crosses(t, l, &q[i], &out[i]))
			return true;
	return false;
}

/* A topology (the caller's), its lanes with links failed, a scheduler over it. */
struct failed {
	struct ft_topo t;
	struct ft_lanes l;
	struct ft_sched *s;
};

/* The lanes, nothing failed yet, and the scheduler of @f->t: 0 or -errno. */
static int failed_init(struct failed *f)
{
	int err = ft_lanes_init(&f->l, &f->t);

	if (!err)
		f->s = ft_sched_create(&f->t);
	return err;
}

static void failed_destroy(struct failed *f)
{
	ft_sched_destroy(f->s);
	ft_lanes_destroy(&f->l);
}

static void test_around(void)
{
	static struct ft_sched_req q[512];
	static struct ft_sched_out out[512];
	u32 trial, algo, id, n, granted = 0, rounds = 0;
	int valid = 1, around = 1, zero = 1;
	struct ft_sched_opts o;
	struct ft_sched_stats st;
	struct ft_rand r;
	struct failed f;
	char why[256] = "";

	ft_rand_seed(&r, 41);
	for (trial = 0; trial < 60; trial++) {
		random_shape(&r, &f.t, 3);
		if (failed_init(&f))
			continue;
		for (id = 0; id < f.l.n; id++)
			if (!ft_rand_below(&r, 8))
				ft_fail_link(&f.l, &f.t, id, FT_FAIL_SELF, true);
		for (algo = 0; algo < FT_SCHED_NALGOS; algo++) {
			n = make_pattern(&r, &f.t, (enum pattern)(trial % PAT_NPATTERNS), 2,
					 q, 512);
			ft_sched_set_lanes(f.s, &f.l);
			for (id = 0; id < f.l.n; id++)
				zero &= !ft_fail_is_failed(&f.l, id) ||
					!ft_sched_free_lanes(f.s)[id];
			ft_sched_opts_default(&o, algo);
			o.seed = trial;
			if (run_checked(f.s, &o, q, n, out, &st, why, sizeof(why))) {
				valid = 0;
				tap_diag("trial %u %s: %s", trial, ft_sched_algo_name(algo), why);
			}
			around &= !any_crosses(&f.t, &f.l, q, out, n);
			granted += st.granted;
			rounds++;
		}
		failed_destroy(&f);
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
	struct ft_rand r;
	struct failed f;
	int valid = 1, around = 1;
	char why[256];

	ft_lw(&f.t, 3, 4, 1);
	failed_init(&f);
	ft_fail_link(&f.l, &f.t, ft_topo_dlink(&f.t, 3, 0, FT_UP), FT_FAIL_SELF, true);
	ft_fail_link(&f.l, &f.t, ft_topo_dlink(&f.t, 3, 0, FT_DOWN), FT_FAIL_SELF, true);
	ft_sched_opts_default(&o, FT_SCHED_LEVELWISE);
	ft_rand_seed(&r, 3);
	for (trial = 0; trial < trials; trial++) {
		ft_rand_perm(&r, perm, 64);
		perm_reqs(q, perm, 64, 1);
		ft_sched_reset(f.s);
		valid &= !run_checked(f.s, &o, q, 64, out, &st, why, sizeof(why));
		without += st.granted;
		ft_sched_set_lanes(f.s, &f.l);
		valid &= !run_checked(f.s, &o, q, 64, out, &st, why, sizeof(why));
		with += st.granted;
		around &= !any_crosses(&f.t, &f.l, q, out, 64);
	}
	tap_diag("FT(3,4) levelwise over %u permutations: %.2f %% without failures, %.2f %% with one failed top-level link",
		 trials, 100.0 * without / (64.0 * trials), 100.0 * with / (64.0 * trials));
	tap_ok(valid && around, "level-wise schedules around a failed top-level link");
	tap_ok(with < without && with > without * 9 / 10,
	       "one failed top-level link costs a little schedulability, not much");
	failed_destroy(&f);
}

int main(void)
{
	test_around();
	test_levelwise_top();
	return tap_done();
}
