// SPDX-License-Identifier: GPL-2.0
/*
 * Schedulability ratio on 100 random permutations (seed 002's
 * experiment).  Only the ordering is asserted: level-wise above both
 * local baselines, optimal 1.0; the means are printed next to the
 * paper's ranges (local 45-70 %, level-wise 78-95 %).
 */
#include "../unit/tap.h"
#include "util.h"

#define TRIALS	100

static struct ft_sched_req q[4096];
static struct ft_sched_out out[4096];
static u32 perm[4096];

struct ratio {
	double sum, min, max;
};

static void measure(u32 l, u32 k, struct ratio *res, bool assert_order)
{
	struct ft_rand r;
	struct ft_topo t;
	struct ft_sched *s;
	struct ft_sched_opts o;
	struct ft_sched_stats st;
	u32 i, a;
	double x;
	char why[256];
	int valid = 1;

	ft_rand_seed(&r, 42 + l * 100 + k);
	ft_lw(&t, l, k, 1);
	s = ft_sched_create(&t);
	for (a = 0; a < FT_SCHED_NALGOS; a++)
		res[a] = (struct ratio){ 0, 2, -1 };
	for (i = 0; i < TRIALS; i++) {
		ft_rand_perm(&r, perm, t.n);
		perm_reqs(q, perm, t.n, 1);
		for (a = 0; a < FT_SCHED_NALGOS; a++) {
			ft_sched_reset(s);
			ft_sched_opts_default(&o, a);
			o.seed = i + 1;
			valid &= !run_checked(s, &o, q, t.n, out, &st, why,
					      sizeof(why));
			x = (double)st.granted / t.n;
			res[a].sum += x;
			res[a].min = x < res[a].min ? x : res[a].min;
			res[a].max = x > res[a].max ? x : res[a].max;
		}
	}
	for (a = 0; a < FT_SCHED_NALGOS; a++)
		tap_diag("FT(%u,%u) N=%-4u %-12s mean %5.1f%%  min %5.1f%%  "
			 "max %5.1f%%", l, k, t.n, ft_sched_algo_name(a),
			 100 * res[a].sum / TRIALS, 100 * res[a].min,
			 100 * res[a].max);
	if (assert_order)
		tap_ok(valid, "FT(%u,%u): %u x %u schedules valid", l, k,
		       TRIALS, FT_SCHED_NALGOS);
	ft_sched_destroy(s);
}

int main(void)
{
	struct ratio res[FT_SCHED_NALGOS];

	tap_diag("seed 002: local 45-70 %%, level-wise 78-95 %%");
	measure(3, 4, res, true);
	tap_ok(res[FT_SCHED_LEVELWISE].sum > res[FT_SCHED_LOCAL_GREEDY].sum &&
	       res[FT_SCHED_LEVELWISE].sum > res[FT_SCHED_LOCAL_RANDOM].sum,
	       "FT(3,4): level-wise mean above both local means");
	tap_ok(res[FT_SCHED_OPTIMAL].min == 1.0,
	       "FT(3,4): optimal 1.0 on every permutation");
	/* More of the paper's sizes, printed only. */
	measure(2, 8, res, false);
	measure(4, 4, res, false);
	measure(3, 8, res, false);
	measure(2, 16, res, false);
	return tap_done();
}
