// SPDX-License-Identifier: GPL-2.0
/*
 * Link failures: a failed link's state and lanes, the links of a switch,
 * the search for minimal paths around failures against brute force, and
 * the delivery cycle under failures (no failed link carries anything,
 * every pair with a path left completes over it, pairs without one wait,
 * counted, and nothing is lost), circuits cut by a failure.
 */
#include "tap.h"
#include "harness.h"
#include "../../kmod/core/ft_circuits.h"
#include "../../kmod/core/ft_fail.h"
#include "../../kmod/core/ft_pairs.h"

#include <stdlib.h>
#include <string.h>

static const char *const path_name[] = { "circuit", "dmodk", "random",
					 "firstfree" };

/* fabric_params() of the k-ary n-tree FT(levels, k), @lanes per link. */
static void kary_params(struct ft_fabric_params *p, u32 levels, u32 k,
			u32 lanes)
{
	u32 m[FT_MAX_LEVELS], w[FT_MAX_LEVELS], c[FT_MAX_LEVELS], i;

	for (i = 0; i < levels; i++) {
		m[i] = k;
		w[i] = i ? k : 1;
		c[i] = lanes;
	}
	fabric_params(p, levels, m, w, c);
}

/* Fail or restore both directions of physical link (level, node, port). */
static int fail_phys(struct ft_fabric *f, u32 level, u32 node, u32 port,
		     bool on)
{
	const struct ft_topo *t = &f->topo;
	u32 local = node * t->w[level] + port;
	int a = ft_fail_link(&f->lanes, t, ft_topo_dlink(t, level, local, FT_UP),
			     FT_FAIL_SELF, on);
	int b = ft_fail_link(&f->lanes, t, ft_topo_dlink(t, level, local, FT_DOWN),
			     FT_FAIL_SELF, on);

	return a < 0 || b < 0 ? -1 : a + b;
}

/* Does any choice of up-ports give (src, dst) a path of working links? */
static bool brute_route(const struct ft_topo *t, const struct ft_lanes *l,
			u32 src, u32 dst, s64 first_port)
{
	u32 hh = ft_topo_common_level(t, src, dst), port[FT_MAX_LEVELS] = { 0 };
	struct ft_path p;
	u32 i, k;

	for (;;) {
		if (first_port < 0 || port[0] == (u32)first_port) {
			ft_topo_path(t, src, dst, port, &p);
			for (k = 0; k < p.n; k++)
				if (ft_fail_is_failed(l, p.link[k]))
					break;
			if (k == p.n)
				return true;
		}
		for (i = 0; i < hh; i++) {	/* next port vector */
			if (++port[i] < t->w[i + 1])
				break;
			port[i] = 0;
		}
		if (i == hh)
			return false;
	}
}

static void test_link_state(void)
{
	struct ft_fabric_params p;
	struct ft_fabric f;
	struct ft_lanes *l = &f.lanes;
	u32 id, up2;
	int ok = 1;

	kary_params(&p, 2, 4, 1);
	p.profile.table[0] = 2;
	p.profile.table[1] = 3;
	ft_fabric_init(&f, &p);
	id = ft_topo_dlink(&f.topo, 2, 5, FT_DOWN);
	up2 = ft_topo_dlink(&f.topo, 2, 5, FT_UP);
	ok &= ft_fail_link(l, &f.topo, id, FT_FAIL_SELF, true) == 1;
	ok &= l->link[id].lanes == 0 && l->nfailed == 1 && l->link[up2].lanes == 3;
	ok &= ft_fail_link(l, &f.topo, id, FT_FAIL_SELF, true) == 0;
	tap_ok(ok, "a failed link has no lanes, once counted");
	ok = ft_fail_link(l, &f.topo, id, FT_FAIL_UPPER, true) == 0;
	ok &= ft_fail_link(l, &f.topo, id, FT_FAIL_SELF, false) == 0;
	ok &= l->link[id].lanes == 0 && l->nfailed == 1;
	tap_ok(ok, "restoring a link under a failed switch leaves it failed");
	ok = ft_fail_link(l, &f.topo, id, FT_FAIL_UPPER, false) == 1;
	ok &= l->link[id].lanes == 3 && l->nfailed == 0 && !l->link[id].fail;
	ok &= ft_fail_link(l, &f.topo, id, FT_FAIL_UPPER, false) == 0;
	tap_ok(ok, "the last reason gone gives the level's lanes back");
	ok = ft_fail_link(l, &f.topo, l->n, FT_FAIL_SELF, true) == -FT_EINVAL;
	ok &= ft_fail_link(l, &f.topo, id, 0, true) == -FT_EINVAL;
	ok &= ft_fail_link(l, &f.topo, id, 8, true) == -FT_EINVAL;
	ok &= l->nfailed == 0 && ft_lanes_check(l) < 0;
	tap_ok(ok, "bad ids and reasons are refused, nothing changes");
	ft_fabric_destroy(&f);
}

/* Every switch's links touch it; each link has its two ends' switches. */
static void test_switch_links(void)
{
	u32 lvl, node, k, n, id, bit, trial;
	u32 level, local, dir, lower, port;
	struct ft_rand r;
	struct ft_topo t;
	u8 *seen;
	int ok = 1, bad = 1;

	ft_rand_seed(&r, 5);
	for (trial = 0; trial < 40 && ok; trial++) {
		if (random_topo(&r, &t, 4))
			continue;
		seen = calloc(ft_topo_dlinks(&t), 1);
		for (lvl = 1; lvl <= t.h; lvl++) {
			n = ft_fail_switch_nlinks(&t, lvl);
			ok &= n == 2 * (t.m[lvl] + (lvl < t.h ? t.w[lvl + 1] : 0));
			for (node = 0; node < t.nodes[lvl]; node++) {
				for (k = 0; k < n; k++) {
					if (ft_fail_switch_link(&t, lvl, node, k, &id, &bit)) {
						ok = 0;
						continue;
					}
					ft_topo_dlink_decode(&t, id, &level, &local, &dir);
					lower = local / t.w[level];
					port = local % t.w[level];
					if (bit == FT_FAIL_UPPER)
						ok &= level == lvl &&
						      ft_topo_up(&t, lvl, lower, port) == node;
					else
						ok &= bit == FT_FAIL_LOWER &&
						      level == lvl + 1 && lower == node;
					seen[id] += bit == FT_FAIL_UPPER ? 1 : 16;
				}
				bad &= ft_fail_switch_link(&t, lvl, node, n, &id, &bit) ==
				       -FT_EINVAL;
			}
			bad &= ft_fail_switch_link(&t, lvl, t.nodes[lvl], 0, &id, &bit) ==
			       -FT_EINVAL;
		}
		bad &= !ft_fail_switch_nlinks(&t, 0) && !ft_fail_switch_nlinks(&t, t.h + 1);
		/* Each directed link: its upper switch once, its lower one
		 * once unless it is a leaf.
		 */
		for (id = 0; id < ft_topo_dlinks(&t); id++) {
			ft_topo_dlink_decode(&t, id, &level, &local, &dir);
			ok &= seen[id] == (level == 1 ? 1 : 17);
		}
		free(seen);
	}
	tap_ok(ok, "a switch's links are its m down and w up links, both ways");
	tap_ok(bad, "switches and link numbers out of range are refused");
}

/* Fail each directed link of @f by itself, with a chance of 1 in @one_in. */
static void fail_random(struct ft_fabric *f, struct ft_rand *r, u32 one_in)
{
	u32 id;

	for (id = 0; id < f->lanes.n; id++)
		if (!ft_rand_below(r, one_in))
			ft_fail_link(&f->lanes, &f->topo, id, FT_FAIL_SELF, true);
}

/* The path search agrees with trying every port vector. */
static void test_route(void)
{
	u32 trial, s, d, p, hh, tried = 0, cut = 0;
	struct ft_fabric_params fp;
	struct ft_fabric f;
	struct ft_rand r;
	int ok = 1, port_ok = 1;

	ft_rand_seed(&r, 11);
	for (trial = 0; trial < 200; trial++) {
		random_params(&r, &fp, 4);
		if (ft_fabric_init(&f, &fp))
			continue;
		if (f.topo.wprod[f.topo.h] > 256 || f.topo.n > 96) {
			ft_fabric_destroy(&f);
			continue;
		}
		/* Fail about one link in 2..8, whole or one way. */
		fail_random(&f, &r, 2 + trial % 7);
		for (s = 0; s < f.topo.n; s++) {
			for (d = 0; d < f.topo.n; d++) {
				bool want = brute_route(&f.topo, &f.lanes, s, d, -1);

				hh = ft_topo_common_level(&f.topo, s, d);
				tried++;
				cut += !want;
				ok &= ft_fail_route(&f.topo, &f.lanes, s, d, hh, 0, 0) == want;
				for (p = 0; hh && p < f.topo.w[1]; p++)
					port_ok &= ft_fail_port_ok(&f.topo, &f.lanes, s, d,
								   hh, 1, 0, p) ==
						   brute_route(&f.topo, &f.lanes, s, d, p);
			}
		}
		ft_fabric_destroy(&f);
	}
	tap_diag("%u pairs tried, %u without a working path", tried, cut);
	tap_ok(ok && tried && cut && cut < tried,
	       "a pair has a path around the failures iff some port vector works");
	tap_ok(port_ok, "an up-port is usable iff some path through it works");
}

struct run {
	struct ft_fabric f;
	struct ft_pairs q;
	u64 injected, delivered;
};

static void count_done(void *arg, u32 slot, const struct ft_pair *p, u32 n)
{
	struct run *r = arg;

	(void)slot;
	(void)p;
	r->delivered += n;
}

/*
 * Random shapes, a random tenth of the links failed, random traffic,
 * every path choice: no failed link carries anything; every pair with a
 * path drains; the others keep their messages, counted as failed each
 * cycle; restoring everything drains them too.
 */
static void test_cycle_avoids(void)
{
	u32 trial, pc, i, id, s, d, k, cyc;
	int carried_ok = 1, drain_ok = 1, wait_ok = 1, restore_ok = 1, kept = 1;
	struct ft_fabric_params shape, fp;
	struct ft_cycle_result res;
	u64 unreachable, failed_seen;
	struct ft_rand r;
	struct run run;
	u32 runs = 0, detours = 0;

	ft_rand_seed(&r, 23);
	for (trial = 0; trial < 30; trial++) {
		random_params(&r, &shape, 3);
		for (pc = FT_PATH_DMODK; pc < FT_PATH_NR; pc++) {
			fp = shape;
			fp.path = pc;
			fp.arb = trial & 1 ? FT_ARB_RANDOM : FT_ARB_FIXED;
			fp.seed = trial;
			if (ft_fabric_init(&run.f, &fp))
				continue;
			ft_pairs_init(&run.q, 4096);
			run.injected = run.delivered = 0;
			fail_random(&run.f, &r, 10);
			unreachable = 0;
			for (i = 0; i < 3 * run.f.topo.n; i++) {
				s = ft_rand_below(&r, run.f.topo.n);
				d = ft_rand_below(&r, run.f.topo.n);
				k = 1 + ft_rand_below(&r, 6);
				if (ft_pairs_add(&run.q, s, d, 0, k, 0, NULL))
					continue;
				run.injected += k;
				if (!brute_route(&run.f.topo, &run.f.lanes, s, d, -1))
					unreachable += k;
				else if (pc == FT_PATH_DMODK && s != d) {
					u32 port[FT_MAX_LEVELS] = { 0 }, j;
					struct ft_path p;

					for (j = 1; j <= ft_topo_common_level(&run.f.topo, s, d); j++)
						port[j - 1] = ft_topo_dmodk_port(&run.f.topo, d, j);
					ft_topo_path(&run.f.topo, s, d, port, &p);
					detours += !ft_fail_path_ok(&run.f.lanes, &p);
				}
			}
			failed_seen = 0;
			for (cyc = 0; cyc < 5000 && run.q.queued > unreachable; cyc++) {
				ft_pairs_cycle(&run.q, &run.f, NULL, count_done, &run, &res);
				failed_seen += res.failed;
				kept &= res.delivered + res.blocked + res.order_blocked +
					res.failed == res.offered;
			}
			drain_ok &= run.q.queued == unreachable;
			ft_pairs_cycle(&run.q, &run.f, NULL, count_done, &run, &res);
			/* What is left is offered and held, all of it. */
			wait_ok &= res.failed == res.offered && res.delivered == 0 &&
				   !res.failed == !unreachable &&
				   (!unreachable || failed_seen);
			for (id = 0; id < run.f.lanes.n; id++)
				if (ft_fail_is_failed(&run.f.lanes, id) &&
				    (run.f.stats[id].carried || run.f.stats[id].blocked))
					carried_ok = 0;
			kept &= run.delivered + run.q.queued == run.injected;
			for (id = 0; id < run.f.lanes.n; id++)
				ft_fail_link(&run.f.lanes, &run.f.topo, id, FT_FAIL_SELF, false);
			for (cyc = 0; cyc < 5000 && run.q.queued; cyc++)
				ft_pairs_cycle(&run.q, &run.f, NULL, count_done, &run, &res);
			restore_ok &= !run.q.queued && run.delivered == run.injected &&
				      !run.f.lanes.nfailed;
			if (!(drain_ok && wait_ok && carried_ok && kept && restore_ok))
				tap_diag("trial %u %s: queued %llu unreachable %llu", trial,
					 path_name[pc], (unsigned long long)run.q.queued,
					 (unsigned long long)unreachable);
			runs++;
			ft_pairs_destroy(&run.q);
			ft_fabric_destroy(&run.f);
		}
	}
	tap_diag("%u runs, %u dmodk pairs detoured around a failure", runs, detours);
	tap_ok(carried_ok && runs, "no failed link carries or blocks anything");
	tap_ok(drain_ok && detours, "every pair with a path left completes over it");
	tap_ok(wait_ok, "pairs without a path wait, counted as failed each cycle");
	tap_ok(kept, "nothing is lost: delivered + waiting = injected, every cycle adds up");
	tap_ok(restore_ok, "restoring the links drains the pairs that waited");
}

/* FT(3,4): a leaf's only up link, and whole top switches. */
static void test_no_path(void)
{
	u32 sw, k, id, bit, cyc;
	struct ft_fabric_params fp;
	struct ft_cycle_result res;
	struct run run;
	int ok;

	kary_params(&fp, 3, 4, 1);
	ft_fabric_init(&run.f, &fp);
	ft_pairs_init(&run.q, 64);
	run.injected = run.delivered = 0;
	fail_phys(&run.f, 1, 0, 0, true);	/* leaf 0's only up link */
	ft_pairs_add(&run.q, 0, 63, 0, 5, 0, NULL);
	ft_pairs_add(&run.q, 1, 63, 0, 5, 0, NULL);
	ft_pairs_add(&run.q, 62, 0, 0, 2, 0, NULL);
	for (cyc = 0; cyc < 10; cyc++)
		ft_pairs_cycle(&run.q, &run.f, NULL, count_done, &run, &res);
	ok = run.delivered == 5 && run.q.queued == 7 && res.failed == 2;
	tap_ok(ok, "a leaf cut off keeps its messages and those to it (failed %u)",
	       res.failed);
	fail_phys(&run.f, 1, 0, 0, false);
	for (cyc = 0; cyc < 10; cyc++)
		ft_pairs_cycle(&run.q, &run.f, NULL, count_done, &run, &res);
	tap_ok(run.delivered == 12 && !run.q.queued, "restored, they arrive");

	/* Every top switch down: only pairs below level 3 move. */
	for (sw = 0; sw < run.f.topo.nodes[3]; sw++)
		for (k = 0; k < ft_fail_switch_nlinks(&run.f.topo, 3); k++) {
			ft_fail_switch_link(&run.f.topo, 3, sw, k, &id, &bit);
			ft_fail_link(&run.f.lanes, &run.f.topo, id, bit, true);
		}
	ft_pairs_add(&run.q, 0, 63, 0, 3, 0, NULL);
	ft_pairs_add(&run.q, 0, 15, 0, 3, 0, NULL);
	for (cyc = 0; cyc < 10; cyc++)
		ft_pairs_cycle(&run.q, &run.f, NULL, count_done, &run, &res);
	ok = run.delivered == 15 && run.q.queued == 3 && res.failed == 1 &&
	     run.f.lanes.nfailed == 16 * 4 * 2;
	tap_ok(ok, "with the top switches down only pairs below the top move");
	ft_pairs_destroy(&run.q);
	ft_fabric_destroy(&run.f);
}

/* FT(3,4), dmodk: a pair whose dmodk path crosses a failed switch. */
static void test_switch_detour(void)
{
	u32 port[3], k, id, bit, sw, cyc, n;
	struct ft_fabric_params fp;
	struct ft_cycle_result res;
	struct ft_path p;
	struct run run;
	u64 carried = 0;
	int ok = 1;

	kary_params(&fp, 3, 4, 1);
	ft_fabric_init(&run.f, &fp);
	ft_pairs_init(&run.q, 64);
	run.injected = run.delivered = 0;
	for (k = 0; k < 3; k++)
		port[k] = ft_topo_dmodk_port(&run.f.topo, 63, k + 1);
	ft_topo_path(&run.f.topo, 0, 63, port, &p);
	/* The top switch of 0 -> 63's dmodk path: above its level-3 up link. */
	ft_topo_dlink_decode(&run.f.topo, p.link[2], &k, &sw, &bit);
	sw = ft_topo_up(&run.f.topo, 3, sw / run.f.topo.w[3], sw % run.f.topo.w[3]);
	n = ft_fail_switch_nlinks(&run.f.topo, 3);
	for (k = 0; k < n; k++) {
		ft_fail_switch_link(&run.f.topo, 3, sw, k, &id, &bit);
		ft_fail_link(&run.f.lanes, &run.f.topo, id, bit, true);
	}
	ft_pairs_add(&run.q, 0, 63, 0, 20, 0, NULL);
	for (cyc = 0; cyc < 30; cyc++)
		ft_pairs_cycle(&run.q, &run.f, NULL, count_done, &run, &res);
	for (k = 0; k < n; k++) {
		ft_fail_switch_link(&run.f.topo, 3, sw, k, &id, &bit);
		carried += run.f.stats[id].carried;
		ok &= ft_fail_is_failed(&run.f.lanes, id);
	}
	tap_ok(ok && run.delivered == 20 && !carried && !ft_fail_path_ok(&run.f.lanes, &p),
	       "dmodk goes around a failed top switch (%llu delivered)",
	       (unsigned long long)run.delivered);
	ft_pairs_destroy(&run.q);
	ft_fabric_destroy(&run.f);
}

/* Circuits across a failed link are torn down; new ones are refused. */
static void test_circuits_cut(void)
{
	u32 i, j, bad, cut, want = 0, id;
	struct ft_circuit_req req[16];
	struct ft_fabric_params fp;
	struct ft_circuits cs;
	struct ft_fabric f;
	int ok;

	kary_params(&fp, 2, 4, 2);
	ft_fabric_init(&f, &fp);
	ft_circuits_init(&cs, 64);
	for (i = 0; i < 16; i++) {
		memset(&req[i], 0, sizeof(req[i]));
		req[i].src = i;
		req[i].dst = (i + 4) % 16;
		req[i].lanes = 1;
		for (j = 1; j <= 2; j++)
			req[i].port[j - 1] = ft_topo_dmodk_port(&f.topo, req[i].dst, j);
	}
	ok = !ft_circuits_add(&cs, &f.topo, &f.lanes, req, 16, 0, &bad);
	/* Level-2 physical link of level-1 switch 1, port 2, both ways. */
	id = ft_topo_dlink(&f.topo, 2, 1 * 4 + 2, FT_UP);
	for (i = 0; i < 16; i++) {
		struct ft_circuit *ci = ft_circuits_find(&cs, req[i].src, req[i].dst);

		for (j = 0; j < ci->path.n; j++)
			if (ci->path.link[j] == id || ci->path.link[j] == (id | 1)) {
				want++;
				break;
			}
	}
	fail_phys(&f, 2, 1, 2, true);
	tap_ok(ok && want && ft_lanes_check(&f.lanes) >= 0,
	       "a failure leaves circuits over-reserving a link until cut");
	cut = ft_circuits_cut(&cs, &f.lanes);
	ok = cut == want && cs.n == 16 - want && !f.lanes.link[id].reserved &&
	     !f.lanes.link[id | 1].reserved && ft_lanes_check(&f.lanes) < 0;
	tap_ok(ok, "the %u circuits across it are torn down, its reservations with them",
	       cut);
	ok = ft_circuits_cut(&cs, &f.lanes) == 0;
	for (i = 0; i < 16; i++)
		if (!ft_circuits_find(&cs, req[i].src, req[i].dst)) {
			ok &= ft_circuits_add(&cs, &f.topo, &f.lanes, &req[i], 1, 0,
					      &bad) == -FT_ENOSPC;
			break;
		}
	tap_ok(ok, "a circuit across a failed link is refused");
	fail_phys(&f, 2, 1, 2, false);
	ok = !ft_circuits_add(&cs, &f.topo, &f.lanes, &req[i], 1, 0, &bad);
	tap_ok(ok && f.lanes.link[id].lanes == 2, "restored, it is admitted again");
	ft_circuits_destroy(&cs);
	ft_fabric_destroy(&f);
}

/* Failures do not make runs depend on anything but the seed. */
static void test_determinism(void)
{
	u32 i, cyc;
	struct ft_fabric_params fp;
	struct ft_cycle_result res;
	struct run a, b;
	int same = 1;

	kary_params(&fp, 3, 4, 1);
	fp.path = FT_PATH_RANDOM;
	fp.arb = FT_ARB_RANDOM;
	fp.seed = 77;
	ft_fabric_init(&a.f, &fp);
	ft_fabric_init(&b.f, &fp);
	ft_pairs_init(&a.q, 4096);
	ft_pairs_init(&b.q, 4096);
	a.delivered = b.delivered = 0;
	fail_phys(&a.f, 3, 2, 1, true);
	fail_phys(&b.f, 3, 2, 1, true);
	fail_phys(&a.f, 2, 7, 3, true);
	fail_phys(&b.f, 2, 7, 3, true);
	for (i = 0; i < 64; i++) {
		ft_pairs_add(&a.q, i, 63 - i, 0, 4, 0, NULL);
		ft_pairs_add(&b.q, i, 63 - i, 0, 4, 0, NULL);
	}
	for (cyc = 0; cyc < 40; cyc++) {
		ft_pairs_cycle(&a.q, &a.f, NULL, count_done, &a, &res);
		ft_pairs_cycle(&b.q, &b.f, NULL, count_done, &b, &res);
	}
	same = a.delivered == b.delivered && a.delivered == 256 &&
	       !memcmp(a.f.stats, b.f.stats, a.f.lanes.n * sizeof(*a.f.stats));
	tap_ok(same, "same seed and failures, same run link for link");
	ft_pairs_destroy(&a.q);
	ft_pairs_destroy(&b.q);
	ft_fabric_destroy(&a.f);
	ft_fabric_destroy(&b.f);
}

int main(void)
{
	test_link_state();
	test_switch_links();
	test_route();
	test_cycle_avoids();
	test_no_path();
	test_switch_detour();
	test_circuits_cut();
	test_determinism();
	return tap_done();
}
