// SPDX-License-Identifier: GPL-2.0
/* One delivery cycle: lanes, contention, order, circuits, determinism. */
#include "tap.h"
#include "harness.h"

static const char *const path_name[FT_PATH_NR] = {
	"circuit", "dmodk", "random", "firstfree", "scheduled",
	"scheduled-random",
};
static const char *const arb_name[] = { "random", "fixed" };

/* Add messages while lambda stays <= 1; pairs unique. */
static u32 one_cycle_set(struct ft_rand *r, const struct ft_topo *t,
			 struct ft_demand *dm, u32 max)
{
	u32 *loads = calloc(1, ft_load_scratch_size(t));
	struct ft_lambda l;
	u32 nd = 0, tries, k, s, d;

	for (tries = 0; tries < 4 * max && nd < max; tries++) {
		s = ft_rand_below(r, t->n);
		d = ft_rand_below(r, t->n);
		for (k = 0; k < nd; k++)
			if (dm[k].src == s && dm[k].dst == d)
				break;
		if (k == nd) {
			dm[nd].src = s;
			dm[nd].dst = d;
			dm[nd++].count = 0;
		}
		dm[k].count++;
		ft_lambda(t, dm, nd, loads, &l);
		if (l.milli > 1000 && !--dm[k].count)
			nd--;
	}
	free(loads);
	return nd;
}

/* On w = 1 trees lambda <= 1 means every link has room: one cycle. */
static void test_one_cycle(void)
{
	struct ft_rand r;
	struct ft_fabric_params p;
	struct ft_demand dm[64];
	struct sim s;
	u32 trial, nd, pc, arb, k, total = 0, runs = 0;
	int good = 1, clean = 1, reserved = 1;

	ft_rand_seed(&r, 31);
	for (trial = 0; trial < 60; trial++) {
		random_params(&r, &p, 4);
		for (k = 0; k < p.h; k++)
			p.w[k] = 1;
		for (pc = 0; pc < FT_PATH_NR; pc++) {
			for (arb = 0; arb < FT_ARB_NR; arb++) {
				p.path = pc;
				p.arb = arb;
				p.seed = trial;
				if (sim_init(&s, &p, NULL, 0))
					continue;
				nd = one_cycle_set(&r, &s.f.topo, dm, 64);
				sim_destroy(&s);
				sim_init(&s, &p, dm, nd);
				for (k = 0; pc == FT_PATH_CIRCUIT && k < nd;
				     k++) {
					struct sim_pair *sp = &s.pair[k];
					u32 port[FT_MAX_LEVELS] = { 0 };

					ft_topo_path(&s.f.topo, sp->src,
						     sp->dst, port, &sp->cpath);
					sp->clanes = dm[k].count;
					reserved &= !ft_lanes_reserve(&s.f.lanes,
							&sp->cpath,
							sp->clanes) ||
						    !sp->cpath.n;
				}
				sim_run(&s, 1);
				good &= !s.backlog;
				clean &= !s.violations;
				if (s.backlog)
					tap_diag("%s/%s left %llu",
						 path_name[pc], arb_name[arb],
						 (unsigned long long)s.backlog);
				total += nd;
				runs++;
				sim_destroy(&s);
			}
		}
	}
	tap_ok(good, "w = 1, lambda <= 1: all delivered in one cycle under "
	       "every path choice and arbitration (%u runs, %u pairs)",
	       runs, total);
	tap_ok(reserved, "w = 1, lambda <= 1: every pair's circuit fits");
	tap_ok(clean, "those cycles pass every invariant");
}

/* Five messages into leaf 0, whose down link has 2 lanes. */
static void test_saturation(void)
{
	static const u32 m[3] = { 2, 2, 2 }, w[3] = { 1, 1, 1 };
	static const u32 c[3] = { 2, 4, 8 };
	struct ft_demand dm[5] = {
		{ 1, 0, 1 }, { 2, 0, 1 }, { 3, 0, 1 }, { 4, 0, 1 }, { 6, 0, 1 },
	};
	struct ft_fabric_params p;
	struct ft_cycle_result res;
	struct sim s;
	u32 leaf0;
	int pc, good = 1;

	for (pc = FT_PATH_DMODK; pc < FT_PATH_NR; pc++) {
		fabric_params(&p, 3, m, w, c);
		p.path = pc;
		sim_init(&s, &p, dm, 5);
		leaf0 = ft_topo_dlink(&s.f.topo, 1, 0, FT_DOWN);
		sim_step(&s, &res);
		good &= res.delivered == 2 && res.blocked == 3;
		good &= s.f.scratch.lc[leaf0].carried == 2 &&
			s.f.scratch.lc[leaf0].blocked == 3;
		good &= s.f.stats[leaf0].saturated == 1 &&
			s.f.stats[leaf0].max_cycle == 2 &&
			s.f.stats[leaf0].blocked == 3;
		sim_run(&s, 100);
		good &= s.cycles == 3 && !s.violations &&
			s.f.stats[leaf0].saturated == 2 &&
			s.f.stats[leaf0].carried == 5;
		sim_destroy(&s);
	}
	tap_ok(good, "a saturated link carries exactly its lanes (2 of 5), "
	       "blocked ones retry: 3 cycles");
}

static void test_order(void)
{
	static const u32 m[2] = { 4, 4 }, w[2] = { 1, 4 }, c[2] = { 1, 1 };
	struct ft_demand dm[2] = { { 0, 5, 5 }, { 1, 5, 3 } };
	struct ft_fabric_params p;
	struct ft_cycle_result res;
	struct sim s;
	const struct ft_cycle_msg *msg;
	u32 k, alive = 0, order = 0;
	int good = 1;

	fabric_params(&p, 2, m, w, c);
	p.path = FT_PATH_RANDOM;
	p.arb = FT_ARB_RANDOM;
	sim_init(&s, &p, dm, 2);
	sim_step(&s, &res);
	msg = s.f.scratch.msg;
	for (k = 0; k < s.f.scratch.nmsgs; k++) {
		alive += !(msg[k].flags & FT_MSG_DEAD);
		order += !!(msg[k].flags & FT_MSG_ORDER);
		if (k > msg[k].first && !(msg[k].flags & FT_MSG_DEAD))
			good = 0;
		/* @at names the link that stopped it, and only then. */
		if ((msg[k].flags & FT_MSG_DEAD) && !(msg[k].flags & FT_MSG_ORDER))
			good &= msg[k].at < ft_topo_dlinks(&s.f.topo) &&
				s.f.scratch.lc[msg[k].at].blocked > 0;
		else
			good &= msg[k].at == ~0U;
	}
	tap_ok(good && alive == 1 && res.delivered == 1 && order == 4 &&
	       res.order_blocked == 4 && res.blocked == 3,
	       "one lane out of each source, one into the sink: a pair's "
	       "second message is refused at its source link, the rest "
	       "wait behind it, one first message wins the sink; each "
	       "stopped at a link names it");
	sim_run(&s, 100);
	tap_ok(s.cycles == 8 && !s.violations,
	       "8 messages through one lane take 8 cycles, order kept");
	sim_destroy(&s);
}

/* Seed 002 fig. 4 on the data path. */
static void test_fig4_cycle(void)
{
	static const u32 m[3] = { 4, 4, 4 }, w[3] = { 1, 4, 4 };
	static const u32 c[3] = { 1, 1, 1 };
	struct ft_demand dm[2] = { { 0, 32, 1 }, { 4, 33, 1 } };
	struct ft_fabric_params p;
	struct ft_cycle_result res;
	struct sim s;
	u32 id;

	fabric_params(&p, 3, m, w, c);
	p.path = FT_PATH_FIRSTFREE;	/* local, like seed 002's local-greedy */
	sim_init(&s, &p, dm, 2);
	sim_step(&s, &res);
	id = ft_topo_dlink(&s.f.topo, 2, 8 * 4 + 0, FT_DOWN);
	tap_ok(res.delivered == 1 && s.pair[0].queued == 0 &&
	       s.f.scratch.lc[id].blocked == 1 &&
	       s.f.scratch.lc[ft_topo_dlink(&s.f.topo, 3, 1, FT_UP)].carried,
	       "firstfree, fig. 4: second takes up-port 1 at SW(1,0), then "
	       "loses Dlink(0,8,0)");
	sim_destroy(&s);
	p.path = FT_PATH_DMODK;
	sim_init(&s, &p, dm, 2);
	sim_step(&s, &res);
	tap_ok(res.delivered == 2 && !s.violations,
	       "dmodk, fig. 4: P_0 = d mod 4 splits them (0 and 1): both go");
	sim_destroy(&s);
}

static void test_circuit_only(void)
{
	static const u32 m[2] = { 4, 4 }, w[2] = { 1, 2 }, c[2] = { 2, 2 };
	struct ft_demand dm[2] = { { 0, 5, 4 }, { 1, 6, 3 } };
	struct ft_fabric_params p;
	struct ft_cycle_result res;
	struct sim s;
	u32 port[2] = { 0, 1 };

	fabric_params(&p, 2, m, w, c);
	p.path = FT_PATH_CIRCUIT;
	sim_init(&s, &p, dm, 2);
	ft_topo_path(&s.f.topo, 0, 5, port, &s.pair[0].cpath);
	s.pair[0].clanes = 2;
	ft_lanes_reserve(&s.f.lanes, &s.pair[0].cpath, 2);
	sim_step(&s, &res);
	tap_ok(res.delivered == 2 && res.circuit == 2 && res.uncarried == 5 &&
	       s.pair[1].queued == 3 && !s.violations,
	       "circuit path choice: only the circuit's 2 lanes carry");
	sim_run(&s, 10);
	tap_ok(s.pair[0].queued == 0 && s.pair[1].queued == 3,
	       "the pair without a circuit waits (demand)");
	sim_destroy(&s);
	p.path = FT_PATH_DMODK;
	sim_init(&s, &p, dm, 2);
	ft_topo_path(&s.f.topo, 0, 5, port, &s.pair[0].cpath);
	s.pair[0].clanes = 1;
	ft_lanes_reserve(&s.f.lanes, &s.pair[0].cpath, 1);
	sim_step(&s, &res);
	/* leaf 0's up link: 1 reserved + 1 free -> 1 circuit + 1 contended */
	tap_ok(res.circuit == 1 && s.off[0].delivered == 2 && !s.violations,
	       "with dmodk a circuit pair also contends beyond its lanes");
	sim_destroy(&s);
}

/* Under path choice circuit a leaf's messages to itself need no circuit. */
static void test_circuit_self(void)
{
	static const u32 m[2] = { 4, 4 }, w[2] = { 1, 2 }, c[2] = { 1, 1 };
	struct ft_demand dm[2] = { { 2, 2, 3 }, { 1, 6, 3 } };
	struct ft_fabric_params p;
	struct ft_cycle_result res;
	struct sim s;

	fabric_params(&p, 2, m, w, c);
	p.path = FT_PATH_CIRCUIT;
	sim_init(&s, &p, dm, 2);
	sim_run(&s, 10);
	tap_ok(s.pair[0].queued == 0 && s.pair[1].queued == 3 && !s.violations,
	       "circuit path choice: a leaf's messages to itself go without a "
	       "circuit, the others wait");
	sim_step(&s, &res);
	tap_ok(res.uncarried == 3 && !res.delivered,
	       "only the others count as uncarried");
	sim_destroy(&s);
}

static void test_errors(void)
{
	static const u32 m[2] = { 4, 4 }, w[2] = { 1, 2 }, c[2] = { 1, 1 };
	struct ft_fabric_params p;
	struct ft_fabric f;
	struct ft_offer off[2] = { { .src = 0, .dst = 5, .count = 3 },
				   { .src = 1, .dst = 16, .count = 1 } };
	struct ft_offer_circuit oc[2] = { { 0 }, { 0 } };
	struct ft_cycle_result res;

	fabric_params(&p, 2, m, w, c);
	p.max_msgs = 2;
	ft_fabric_init(&f, &p);
	tap_ok(ft_fabric_cycle(&f, off, NULL, 1, &res) == -E2BIG && !f.cycle,
	       "more messages than the scratch holds: -E2BIG");
	off[0].count = 2;
	tap_ok(ft_fabric_cycle(&f, off, NULL, 2, &res) == -EINVAL,
	       "a leaf beyond n: -EINVAL");
	off[1].dst = 3;
	off[1].count = 0;
	oc[1].lanes = 1;
	tap_ok(ft_fabric_cycle(&f, off, oc, 2, &res) == -EINVAL,
	       "circuit lanes without a path: -EINVAL");
	oc[1].lanes = 0;
	tap_ok(!ft_fabric_cycle(&f, off, oc, 2, &res) && res.delivered == 1,
	       "exactly max_msgs contending is fine");
	ft_fabric_destroy(&f);
	p.max_msgs = 0;
	tap_ok(ft_fabric_init(&f, &p) == -EINVAL, "max_msgs 0 refused");
}

static void random_demand(struct ft_rand *r, u32 n, struct ft_demand *dm,
			  u32 nd)
{
	u32 k;

	for (k = 0; k < nd; k++) {
		dm[k].src = ft_rand_below(r, n);
		dm[k].dst = (dm[k].src + 1 + ft_rand_below(r, n - 1)) % n;
		dm[k].count = 1 + ft_rand_below(r, 4);
	}
}

static void test_determinism(void)
{
	static const u32 m[3] = { 4, 4, 4 }, w[3] = { 1, 4, 2 };
	static const u32 c[3] = { 1, 1, 2 };
	struct ft_fabric_params p;
	struct ft_demand dm[48];
	struct sim a, b;
	struct ft_rand r;
	size_t sz;

	ft_rand_seed(&r, 5);
	random_demand(&r, 64, dm, 48);
	fabric_params(&p, 3, m, w, c);
	p.path = FT_PATH_RANDOM;
	p.arb = FT_ARB_RANDOM;
	p.inject.rule = FT_INJECT_RANDOM;
	p.seed = 99;
	sim_init(&a, &p, dm, 48);
	sim_init(&b, &p, dm, 48);
	sim_run(&a, 100000);
	sim_run(&b, 100000);
	sz = a.f.lanes.n * sizeof(*a.f.stats);
	tap_ok(!a.backlog && a.cycles == b.cycles &&
	       !memcmp(a.f.stats, b.f.stats, sz),
	       "same seed: identical per-link counters (%llu cycles)",
	       (unsigned long long)a.cycles);
	sim_destroy(&b);
	p.seed = 100;
	sim_init(&b, &p, dm, 48);
	sim_run(&b, 100000);
	tap_ok(memcmp(a.f.stats, b.f.stats, sz) != 0,
	       "another seed: different counters");
	sim_destroy(&a);
	sim_destroy(&b);
}

/* Many random fabrics, circuits and offers: every invariant, every cycle. */
static void test_property(void)
{
	struct ft_fabric_params p;
	struct ft_demand dm[40];
	struct ft_rand r;
	struct sim s;
	u32 trial, nd, k, i, port[FT_MAX_LEVELS];
	u64 cycles = 0, msgs = 0, blocked = 0;
	int clean = 1, done = 1, circuits;

	ft_rand_seed(&r, 77);
	for (trial = 0; trial < 400; trial++) {
		random_params(&r, &p, 4);
		p.path = 1 + ft_rand_below(&r, FT_PATH_NR - 1);
		p.arb = ft_rand_below(&r, FT_ARB_NR);
		p.seed = trial;
		p.max_msgs = 1000;
		if (ft_fabric_init(&s.f, &p))
			continue;
		nd = 1 + ft_rand_below(&r, 40);
		random_demand(&r, s.f.topo.n, dm, nd);
		for (k = 0; k < nd; k++)	/* pairs unique */
			for (i = 0; i < k; i++)
				if (dm[i].src == dm[k].src &&
				    dm[i].dst == dm[k].dst)
					dm[k].dst = dm[k].src;
		ft_fabric_destroy(&s.f);
		sim_init(&s, &p, dm, nd);
		circuits = trial % 2;
		for (k = 0; circuits && k < nd; k++) {	/* some circuits */
			struct sim_pair *sp = &s.pair[k];

			if (ft_rand_below(&r, 4))
				continue;
			for (i = 0; i < p.h; i++)
				port[i] = ft_rand_below(&r, p.w[i]);
			ft_topo_path(&s.f.topo, sp->src, sp->dst, port,
				     &sp->cpath);
			sp->clanes = 1;
			if (ft_lanes_reserve(&s.f.lanes, &sp->cpath, 1))
				sp->clanes = 0;
		}
		sim_run(&s, circuits ? 300 : 10000);
		clean &= !s.violations;
		/* Circuits may hold every lane of a link some pair needs. */
		done &= circuits || !s.backlog;
		if (s.violations)
			tap_diag("trial %u: %s", trial, s.why);
		cycles += s.cycles;
		msgs += s.delivered;
		for (k = 0; k < s.f.lanes.n; k++)
			blocked += s.f.stats[k].blocked;
		clean &= ft_lanes_check(&s.f.lanes) == -1;
		sim_destroy(&s);
	}
	tap_ok(clean, "400 random fabrics: lanes, free lanes, order, "
	       "accounting and blocking invariants hold every cycle");
	tap_ok(done && blocked > 1000,
	       "without circuits all delivered (%llu messages, %llu cycles, "
	       "%llu blocks)",
	       (unsigned long long)msgs, (unsigned long long)cycles,
	       (unsigned long long)blocked);
}

int main(void)
{
	test_one_cycle();
	test_saturation();
	test_order();
	test_fig4_cycle();
	test_circuit_only();
	test_circuit_self();
	test_errors();
	test_determinism();
	test_property();
	return tap_done();
}
