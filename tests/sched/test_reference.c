// SPDX-License-Identifier: GPL-2.0
/*
 * LEVELWISE and LOCAL_GREEDY against plain reference versions written
 * here from seed 002's Figure 7 and the local baseline's description: a
 * counter per link, loops over ports, no bit vectors.  On random shapes,
 * lanes, circuits in place and orders the outcomes (status, ports, where
 * it failed) and the free lanes after must be identical.
 */
#include "../unit/tap.h"
#include "util.h"

#define MAXQ	2048

static struct ft_sched_req q[MAXQ];
static struct ft_sched_out out[MAXQ], ref[MAXQ];
static u32 order[MAXQ];

static u32 link_of(const struct ft_topo *t, u32 i, u32 leaf, u32 y, u32 p,
		   u32 dir)
{
	u32 node = ft_topo_node(t, i - 1, leaf / t->mprod[i - 1], y);

	return ft_topo_dlink(t, i, node * t->w[i] + p, dir);
}

/* Stable order: by source, or by H descending then source, or as given. */
static u32 ref_order(const struct ft_topo *t, u32 n, enum ft_sched_order o)
{
	u32 k = 0, j, a, b, x;

	for (j = 0; j < n; j++)
		if (q[j].src < t->n && q[j].dst < t->n && q[j].lanes &&
		    q[j].src != q[j].dst)
			order[k++] = j;
	if (o == FT_SCHED_ORDER_GIVEN)
		return k;
	for (a = 1; a < k; a++)		/* insertion sort: stable */
		for (b = a; b > 0; b--) {
			u32 r1 = order[b - 1], r2 = order[b];
			u32 h1 = ft_topo_common_level(t, q[r1].src, q[r1].dst);
			u32 h2 = ft_topo_common_level(t, q[r2].src, q[r2].dst);
			bool swap = o == FT_SCHED_ORDER_FARTHEST && h1 != h2 ?
				    h1 < h2 : q[r1].src > q[r2].src;

			if (!swap)
				break;
			x = order[b - 1];
			order[b - 1] = order[b];
			order[b] = x;
		}
	return k;
}

static void ref_init(const struct ft_topo *t, u32 n)
{
	u32 j;

	memset(ref, 0, n * sizeof(ref[0]));
	for (j = 0; j < n; j++) {
		if (q[j].src >= t->n || q[j].dst >= t->n || !q[j].lanes) {
			ref[j].status = FT_SCHED_INVALID;
			continue;
		}
		ref[j].hh = ft_topo_common_level(t, q[j].src, q[j].dst);
		ref[j].status = ref[j].hh ? FT_SCHED_REFUSED : FT_SCHED_GRANTED;
	}
}

/* Figure 7, level-major. */
static void ref_levelwise(const struct ft_topo *t, u32 *f, u32 n,
			  enum ft_sched_order o, bool release)
{
	u32 k = ref_order(t, n, o), i, j, r, p, y[MAXQ] = { 0 }, up, dn, lv;
	bool any_up, any_dn, alive[MAXQ];

	ref_init(t, n);
	for (j = 0; j < k; j++)
		alive[order[j]] = true;
	for (i = 1; i <= t->h; i++)
		for (j = 0; j < k; j++) {
			r = order[j];
			if (!alive[r] || ref[r].hh < i)
				continue;
			any_up = any_dn = false;
			for (p = 0; p < t->w[i]; p++) {
				up = link_of(t, i, q[r].src, y[r], p, FT_UP);
				dn = link_of(t, i, q[r].dst, y[r], p, FT_DOWN);
				any_up |= f[up] >= q[r].lanes;
				any_dn |= f[dn] >= q[r].lanes;
				if (f[up] >= q[r].lanes && f[dn] >= q[r].lanes)
					break;
			}
			if (p == t->w[i]) {
				alive[r] = false;
				ref[r].fail_level = i;
				ref[r].fail_where = !any_up ? FT_SCHED_AT_UP :
					!any_dn ? FT_SCHED_AT_DOWN :
					FT_SCHED_AT_BOTH;
				for (lv = 1; release && lv < i; lv++) {
					u32 yy = 0, l2;

					for (l2 = 1; l2 < lv; l2++)
						yy = yy * t->w[l2] +
						     ref[r].port[l2 - 1];
					p = ref[r].port[lv - 1];
					f[link_of(t, lv, q[r].src, yy, p,
						  FT_UP)] += q[r].lanes;
					f[link_of(t, lv, q[r].dst, yy, p,
						  FT_DOWN)] += q[r].lanes;
				}
				continue;
			}
			f[up] -= q[r].lanes;
			f[dn] -= q[r].lanes;
			ref[r].port[i - 1] = p;
			y[r] = y[r] * t->w[i] + p;
			if (ref[r].hh == i) {
				ref[r].status = FT_SCHED_GRANTED;
				alive[r] = false;
			}
		}
}

/* Local greedy: lowest up-port with the lanes, then the forced way down. */
static void ref_local(const struct ft_topo *t, u32 *f, u32 n,
		      enum ft_sched_order o, bool release)
{
	u32 k = ref_order(t, n, o), i, j, r, p, ys[FT_MAX_LEVELS + 2], hh, l;

	ref_init(t, n);
	for (j = 0; j < k; j++) {
		r = order[j];
		hh = ref[r].hh;
		ys[1] = 0;
		for (i = 1; i <= hh; i++) {
			for (p = 0; p < t->w[i]; p++)
				if (f[link_of(t, i, q[r].src, ys[i], p,
					      FT_UP)] >= q[r].lanes)
					break;
			if (p == t->w[i])
				break;
			f[link_of(t, i, q[r].src, ys[i], p, FT_UP)] -=
				q[r].lanes;
			ref[r].port[i - 1] = p;
			ys[i + 1] = ys[i] * t->w[i] + p;
		}
		if (i <= hh) {
			ref[r].fail_level = i;
			ref[r].fail_where = FT_SCHED_AT_UP;
			for (l = 1; release && l < i; l++)
				f[link_of(t, l, q[r].src, ys[l],
					  ref[r].port[l - 1], FT_UP)] +=
					q[r].lanes;
			continue;
		}
		for (i = hh; i >= 1; i--) {
			u32 id = link_of(t, i, q[r].dst, ys[i],
					 ref[r].port[i - 1], FT_DOWN);

			if (f[id] < q[r].lanes)
				break;
			f[id] -= q[r].lanes;
		}
		if (i >= 1) {
			ref[r].fail_level = i;
			ref[r].fail_where = FT_SCHED_AT_DOWN;
			for (l = 1; release && l <= hh; l++) {
				f[link_of(t, l, q[r].src, ys[l],
					  ref[r].port[l - 1], FT_UP)] +=
					q[r].lanes;
				if (l > i)
					f[link_of(t, l, q[r].dst, ys[l],
						  ref[r].port[l - 1],
						  FT_DOWN)] += q[r].lanes;
			}
			continue;
		}
		ref[r].status = FT_SCHED_GRANTED;
	}
}

static bool same(u32 n)
{
	u32 j;

	for (j = 0; j < n; j++)
		if (out[j].status != ref[j].status || out[j].hh != ref[j].hh ||
		    (out[j].status == FT_SCHED_GRANTED &&
		     memcmp(out[j].port, ref[j].port, sizeof(ref[j].port))) ||
		    (out[j].status == FT_SCHED_REFUSED &&
		     (out[j].fail_level != ref[j].fail_level ||
		      out[j].fail_where != ref[j].fail_where)))
			return false;
	return true;
}

int main(void)
{
	static const enum ft_sched_order orders[] = {
		FT_SCHED_ORDER_SOURCE, FT_SCHED_ORDER_FARTHEST,
		FT_SCHED_ORDER_GIVEN,
	};
	struct ft_rand r;
	struct ft_topo t;
	struct ft_sched *s;
	struct ft_sched_opts o;
	u32 trial, n, nd, *f, a, diff[2] = { 0, 0 }, runs = 0;

	ft_rand_seed(&r, 8080);
	for (trial = 0; trial < 600; trial++) {
		trial_shape(&r, &t, trial, 3, 2, 4);
		s = ft_sched_create(&t);
		nd = ft_topo_dlinks(&t);
		f = malloc(nd * sizeof(u32));
		n = make_pattern(&r, &t, ft_rand_below(&r, PAT_NPATTERNS),
				 1 + ft_rand_below(&r, 3), q, MAXQ);
		if (trial % 2)
			random_reservations(&r, s, t.n);
		memcpy(f, ft_sched_free_lanes(s), nd * sizeof(u32));
		for (a = 0; a < 2; a++) {
			ft_sched_opts_default(&o, a ? FT_SCHED_LOCAL_GREEDY :
						     FT_SCHED_LEVELWISE);
			o.order = orders[ft_rand_below(&r, 3)];
			o.release_on_failure = ft_rand_below(&r, 2);
			ft_sched_set_free(s, f);
			ft_sched_run(s, &o, q, n, out, NULL);
			if (a)
				ref_local(&t, f, n, o.order,
					  o.release_on_failure);
			else
				ref_levelwise(&t, f, n, o.order,
					      o.release_on_failure);
			runs++;
			if (!same(n) || memcmp(f, ft_sched_free_lanes(s),
					       nd * sizeof(u32))) {
				if (!diff[a]++)
					tap_diag("trial %u %s differs",
						 trial,
						 ft_sched_algo_name(o.algo));
			}
			/* Chain: the next algorithm starts from here. */
		}
		free(f);
		ft_sched_destroy(s);
	}
	tap_ok(!diff[0], "levelwise == plain Figure 7 on 600 random inputs "
	       "(ports, refusals, free lanes after)");
	tap_ok(!diff[1], "local-greedy == plain local baseline on 600 random "
	       "inputs");
	tap_diag("%u comparisons", runs);
	return tap_done();
}
