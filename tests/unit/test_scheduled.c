// SPDX-License-Identifier: GPL-2.0
/*
 * Path choice scheduled (and scheduled-random), driven as the kernel
 * drives it: an ft_pairs pool, an ft_circuits table and ft_pairs_cycle().
 * A pair takes its default path (dmodk, random) until it holds a
 * circuit, then its circuit, with its messages beyond the circuit's
 * lanes on the default path; when the circuit ends (lease, deleted, cut
 * by a failed link) it takes its default path again.  Circuits' lanes are
 * reserved: the default traffic never takes them, even while their
 * circuit carries nothing, and no link carries more than its lanes.  No
 * message is lost or overtaken across the switch-overs.
 */
#include "tap.h"
#include "harness.h"
#include "../../kmod/core/ft_pairs.h"
#include "../../kmod/core/ft_rand.h"

#include <stdlib.h>
#include <string.h>

#define NTAGS	2	/* flows per pair: one circuit serves both */

/*
 * A fabric with its pool and circuit table, and what was sent and
 * delivered per flow (src * n + dst) * NTAGS + tag, as the kernel's
 * queues would see it.
 */
struct run {
	struct ft_fabric f;
	struct ft_pairs q;
	struct ft_circuits cs;
	u64 *sent;
	u64 *got;
	u32 *lanes0;		/* each link's lanes before the cycle */
	u32 *resv0;		/* and its reserved lanes */
	u32 over;		/* links over their lanes */
	u32 on_reserved;	/* default traffic on reserved lanes */
	u32 beyond;		/* circuit traffic beyond its reservation */
	u32 on_failed;		/* traffic on a failed link */
	u32 order;		/* a message delivered after a blocked one */
	u32 lost;		/* a flow delivered more than it sent */
	char why[256];
};

static const char *const path_name[FT_PATH_NR] = {
	"circuit", "dmodk", "random", "firstfree", "scheduled",
	"scheduled-random",
};

static int run_init(struct run *r, const struct ft_fabric_params *p)
{
	u32 n, links;

	memset(r, 0, sizeof(*r));
	if (ft_fabric_init(&r->f, p))
		return -1;
	n = r->f.topo.n;
	links = r->f.lanes.n;
	if (ft_pairs_init(&r->q, 4096) || ft_circuits_init(&r->cs, 256))
		return -1;
	r->sent = calloc((size_t)n * n * NTAGS, sizeof(u64));
	r->got = calloc((size_t)n * n * NTAGS, sizeof(u64));
	r->lanes0 = calloc(links, sizeof(u32));
	r->resv0 = calloc(links, sizeof(u32));
	return r->sent && r->got && r->lanes0 && r->resv0 ? 0 : -1;
}

static void run_destroy(struct run *r)
{
	ft_circuits_destroy(&r->cs);
	ft_pairs_destroy(&r->q);
	ft_fabric_destroy(&r->f);
	free(r->sent);
	free(r->got);
	free(r->lanes0);
	free(r->resv0);
	memset(r, 0, sizeof(*r));
}

static u32 flow(const struct run *r, u32 src, u32 dst, u32 tag)
{
	return (src * r->f.topo.n + dst) * NTAGS + tag;
}

static int send(struct run *r, u32 src, u32 dst, u32 tag, u32 count)
{
	if (ft_pairs_add(&r->q, src, dst, tag, count, r->f.cycle, NULL))
		return -1;
	r->sent[flow(r, src, dst, tag)] += count;
	return 0;
}

static void on_done(void *arg, u32 slot, const struct ft_pair *p, u32 n)
{
	struct run *r = arg;
	u32 k = flow(r, p->src, p->dst, p->tag);

	(void)slot;
	r->got[k] += n;
	/* the kernel's queue hands out its head: never more than it held */
	if (r->got[k] > r->sent[k] && !r->lost++)
		snprintf(r->why, sizeof(r->why), "flow %u>%u/%u: got %llu of %llu",
			 p->src, p->dst, p->tag, (unsigned long long)r->got[k],
			 (unsigned long long)r->sent[k]);
}

/*
 * The last cycle against the lanes and reservations it ran with: every
 * link at most its lanes, circuits' messages within their reservations,
 * the others within the free lanes, nothing on a failed link; every
 * offer delivered its circuit's share and then a prefix of the rest.
 */
static void check(struct run *r)
{
	const struct ft_cycle_scratch *sc = &r->f.scratch;
	const struct ft_offer_circuit *oc = r->q.noff_circ;
	u32 id, i, free_, alive, circ;

	for (id = 0; id < sc->nlinks; id++) {
		const struct ft_link_cycle *lc = &sc->lc[id];

		free_ = r->lanes0[id] > r->resv0[id] ?
			r->lanes0[id] - r->resv0[id] : 0;
		r->over += lc->carried > r->lanes0[id];
		r->beyond += lc->circuit > r->resv0[id];
		r->on_reserved += (u32)(lc->carried - lc->circuit) > free_;
		r->on_failed += lc->carried &&
				ft_fail_is_failed(&r->f.lanes, id);
	}
	for (i = 1; i < sc->nmsgs; i++) {
		const struct ft_cycle_msg *m = &sc->msg[i];

		r->order += i > m->first &&
			    (sc->msg[i - 1].flags & FT_MSG_DEAD) &&
			    !(m->flags & FT_MSG_DEAD);
	}
	for (i = 0; i < r->q.noff; i++) {
		const struct ft_offer *o = &r->q.off[i];
		u32 k;

		circ = ft_min_u32(o->count, oc ? oc[i].lanes : 0);
		for (alive = 0, k = 0; k < sc->nmsgs; k++)
			alive += sc->msg[k].offer == i &&
				 !(sc->msg[k].flags & FT_MSG_DEAD);
		r->order += o->delivered != circ + alive;
	}
}

/* One cycle, checked; returns its result's error. */
static int step(struct run *r, struct ft_cycle_result *res)
{
	u32 id;
	int err;

	for (id = 0; id < r->f.lanes.n; id++) {
		r->lanes0[id] = r->f.lanes.link[id].lanes;
		r->resv0[id] = r->f.lanes.link[id].reserved;
	}
	err = ft_pairs_cycle(&r->q, &r->f, &r->cs, on_done, r, res);
	if (!err)
		check(r);
	return err;
}

static int clean(const struct run *r)
{
	return !r->over && !r->on_reserved && !r->beyond && !r->on_failed &&
	       !r->order && !r->lost;
}

/* Every flow delivered all it sent. */
static int all_got(const struct run *r)
{
	u32 k, n = r->f.topo.n;

	for (k = 0; k < n * n * NTAGS; k++)
		if (r->got[k] != r->sent[k])
			return 0;
	return !r->q.queued;
}

static int grant(struct run *r, u32 src, u32 dst, u32 lanes, u32 lease,
		 const u32 *port)
{
	struct ft_circuit_req q = {
		.src = src, .dst = dst, .lanes = lanes, .lease = lease,
	};
	struct ft_circuits_refusal rf;
	u32 i;

	for (i = 0; i < r->f.topo.h; i++)
		q.port[i] = (u8)port[i];
	return ft_circuits_admit(&r->cs, &r->f.topo, &r->f.lanes, &q, 1,
				 r->f.cycle, &rf);
}

static u32 carried(const struct run *r, u32 id)
{
	return r->f.scratch.lc[id].carried;
}

/* FT(2,4): 16 leaves, w_1 = 1, four roots; lanes c_1, c_2. */
static void ft24(struct ft_fabric_params *p, u32 c1, u32 c2,
		 enum ft_path_choice path)
{
	static const u32 m[2] = { 4, 4 }, w[2] = { 1, 4 };
	const u32 c[2] = { c1, c2 };

	fabric_params(p, 2, m, w, c);
	p->path = path;
	p->arb = FT_ARB_RANDOM;
}

/*
 * Leaf 0 to leaf 5 on FT(2,4), leaves' links 2 lanes, roots' 1: dmodk
 * climbs to root 1 (5 mod 4), the circuit to root 3.  Before the grant
 * the pair crosses root 1, one message a cycle; with a 1-lane circuit of
 * lease 3, two a cycle: one on the circuit through root 3, one beyond it
 * through root 1; after the lease, root 1 again alone.  The same after
 * a circuit is deleted.
 */
static void test_switch_over(void)
{
	static const u32 dport[2] = { 0, 1 }, cport[2] = { 0, 3 };
	struct ft_fabric_params p;
	struct ft_cycle_result res;
	struct ft_path dp, cp;
	struct run r;
	u32 i;
	int before = 1, during = 1, after = 1, del = 1;

	ft24(&p, 2, 1, FT_PATH_SCHEDULED);
	if (run_init(&r, &p) || send(&r, 0, 5, 0, 40)) {
		tap_ok(0, "a scheduled FT(2,4)");
		run_destroy(&r);
		return;
	}
	ft_topo_path(&r.f.topo, 0, 5, dport, &dp);
	ft_topo_path(&r.f.topo, 0, 5, cport, &cp);
	for (i = 0; i < 3; i++) {
		step(&r, &res);
		before &= res.delivered == 1 && !res.circuit &&
			  carried(&r, dp.link[1]) == 1 &&
			  carried(&r, dp.link[2]) == 1 &&
			  !carried(&r, cp.link[1]) && !carried(&r, cp.link[2]);
	}
	tap_ok(before, "scheduled: before a grant, the pair takes its dmodk path (root 1), one message a cycle");
	before = !grant(&r, 0, 5, 1, 3, cport);
	for (i = 0; i < 3; i++) {
		step(&r, &res);
		during &= res.delivered == 2 && res.circuit == 1 &&
			  r.f.scratch.lc[cp.link[1]].circuit == 1 &&
			  carried(&r, cp.link[2]) == 1 &&
			  carried(&r, dp.link[1]) == 1 &&
			  carried(&r, dp.link[0]) == 2;
	}
	tap_ok(before && during,
	       "with a 1-lane circuit through root 3: one message a cycle on it, the next beyond it on the dmodk path");
	tap_ok(!ft_circuits_find(&r.cs, 0, 5) && !r.f.lanes.nreserved,
	       "a lease of 3 cycles ends with the third, its lanes free");
	for (i = 0; i < 3; i++) {
		step(&r, &res);
		after &= res.delivered == 1 && !res.circuit &&
			 carried(&r, dp.link[1]) == 1 &&
			 !carried(&r, cp.link[1]);
	}
	tap_ok(after, "after the lease, the dmodk path again, one message a cycle");
	del = !grant(&r, 0, 5, 1, 0, cport);
	step(&r, &res);
	del &= res.delivered == 2 && res.circuit == 1;
	del &= !ft_circuits_del(&r.cs, &r.f.lanes, (const u32[]){ 0, 5 }, 1,
				&i);
	step(&r, &res);
	del &= res.delivered == 1 && !res.circuit &&
	       !carried(&r, cp.link[1]) && carried(&r, dp.link[1]) == 1;
	tap_ok(del, "a circuit deleted: the dmodk path from the next cycle on");
	for (i = 0; i < 100 && r.q.queued; i++)
		step(&r, &res);
	tap_ok(all_got(&r) && clean(&r) && r.f.cycle == 3 + 3 + 3 + 2 + 25,
	       "all 40 delivered in order in %llu cycles (36, 4 messages on circuits), every cycle within the lanes %s",
	       (unsigned long long)r.f.cycle, r.why);
	run_destroy(&r);
}

/*
 * scheduled-random: before a grant the pair's messages climb to roots
 * drawn at random (more than one of the four over 40 cycles); with a
 * circuit, its messages take the circuit's root every cycle.
 */
static void test_switch_over_random(void)
{
	static const u32 cport[2] = { 0, 3 };
	struct ft_fabric_params p;
	struct ft_cycle_result res;
	struct ft_path cp, rp;
	u32 roots[4] = { 0 }, i, k, used = 0;
	struct run r;
	int during = 1;

	ft24(&p, 2, 1, FT_PATH_SCHEDULED_RANDOM);
	if (run_init(&r, &p) || send(&r, 0, 5, 0, 200)) {
		tap_ok(0, "a scheduled-random FT(2,4)");
		run_destroy(&r);
		return;
	}
	for (i = 0; i < 40; i++) {
		step(&r, &res);
		for (k = 0; k < 4; k++) {
			const u32 port[2] = { 0, k };

			ft_topo_path(&r.f.topo, 0, 5, port, &rp);
			roots[k] += carried(&r, rp.link[1]);
		}
	}
	for (k = 0; k < 4; k++)
		used += roots[k] != 0;
	tap_ok(used > 1 && clean(&r),
	       "scheduled-random: before a grant the pair climbs to random roots (%u of 4 used)",
	       used);
	ft_topo_path(&r.f.topo, 0, 5, cport, &cp);
	during = !grant(&r, 0, 5, 1, 0, cport);
	for (i = 0; i < 20; i++) {
		step(&r, &res);
		during &= res.circuit == 1 &&
			  r.f.scratch.lc[cp.link[1]].circuit == 1 &&
			  r.f.scratch.lc[cp.link[1]].carried == 1;
	}
	tap_ok(during,
	       "with a circuit: one message a cycle on it, and nothing else on its reserved root link");
	ft_circuits_del(&r.cs, &r.f.lanes, (const u32[]){ 0, 5 }, 1, &k);
	for (i = 0; i < 400 && r.q.queued; i++)
		step(&r, &res);
	tap_ok(all_got(&r) && clean(&r),
	       "after the circuit, the random default path drains the pair, in order, within the lanes %s",
	       r.why);
	run_destroy(&r);
}

/*
 * A circuit's lanes are reserved even while it carries nothing: leaf 0's
 * circuit to leaf 5 through root 1 holds the one lane of root 1's links
 * (and one of the two of leaf 0's and leaf 5's), and leaf 1's messages to
 * leaf 5, whose dmodk path is through root 1, wait until it is deleted
 * (they are demand); under scheduled-random they climb to the other
 * roots and never touch root 1's links.
 */
static void test_reserved_idle(void)
{
	static const u32 cport[2] = { 0, 1 };
	struct ft_pairs_demand dm[4];
	struct ft_fabric_params p;
	struct ft_cycle_result res;
	struct ft_path cp;
	struct run r;
	u32 i, pos = 0, nd, touched = 0;
	int waited = 1, went = 1;

	ft24(&p, 2, 1, FT_PATH_SCHEDULED);
	run_init(&r, &p);
	ft_topo_path(&r.f.topo, 0, 5, cport, &cp);
	waited = !grant(&r, 0, 5, 1, 0, cport) && !send(&r, 1, 5, 0, 5);
	for (i = 0; i < 10; i++) {
		step(&r, &res);
		/* two offered: one stopped at root 1, one behind it */
		waited &= !res.delivered && res.blocked == 1 &&
			  res.order_blocked == 1 &&
			  r.f.scratch.lc[cp.link[1]].blocked == 1 &&
			  !carried(&r, cp.link[1]) && !carried(&r, cp.link[2]);
	}
	nd = ft_pairs_demand(&r.q, &r.cs, NTAGS, r.f.cycle, &pos, dm, 4, 64);
	tap_ok(waited && nd == 1 && dm[0].src == 1 && dm[0].dst == 5 &&
	       dm[0].backlog == 5 && !dm[0].circuit_lanes,
	       "scheduled: an idle circuit's lanes stay reserved; a pair whose dmodk path needs them waits, in demand");
	ft_circuits_del(&r.cs, &r.f.lanes, (const u32[]){ 0, 5 }, 1, &i);
	for (i = 0; i < 5; i++) {
		step(&r, &res);
		went &= res.delivered == 1;
	}
	tap_ok(went && all_got(&r) && clean(&r),
	       "once the circuit is deleted, the pair's five messages go, one a cycle, in order %s",
	       r.why);
	run_destroy(&r);

	ft24(&p, 2, 1, FT_PATH_SCHEDULED_RANDOM);
	run_init(&r, &p);
	went = !grant(&r, 0, 5, 1, 0, cport) && !send(&r, 1, 5, 0, 50) &&
	       !send(&r, 2, 5, 1, 50);
	for (i = 0; i < 500 && r.q.queued; i++) {
		step(&r, &res);
		touched += carried(&r, cp.link[1]) + carried(&r, cp.link[2]);
	}
	tap_ok(went && !touched && all_got(&r) && clean(&r),
	       "scheduled-random: the others never touch the idle circuit's links, and all arrive in order (%llu cycles) %s",
	       (unsigned long long)r.f.cycle, r.why);
	run_destroy(&r);
}

/*
 * A failed link under both kinds of traffic.  Leaves' links 2 lanes,
 * roots' 2: leaf 0 to 5 holds a 1-lane circuit through root 3, leaf 1 to
 * 5 goes by dmodk through root 1 beside leaf 0's messages beyond the
 * circuit.  Root 1's link down to leaf 5's switch fails: the dmodk
 * traffic takes the next root that works, the circuit goes on.  Then root
 * 3's link down fails: the circuit is cut and its pair falls back to
 * its default path.  Nothing crosses a failed link, nothing is lost.
 */
static void test_failed_link(void)
{
	static const u32 dport[2] = { 0, 1 }, cport[2] = { 0, 3 };
	struct ft_fabric_params p;
	struct ft_cycle_result res;
	struct ft_path dp, cp;
	struct run r;
	u32 i, circ = 0;
	int ok;

	ft24(&p, 2, 2, FT_PATH_SCHEDULED);
	run_init(&r, &p);
	ft_topo_path(&r.f.topo, 0, 5, dport, &dp);
	ft_topo_path(&r.f.topo, 0, 5, cport, &cp);
	ok = !grant(&r, 0, 5, 1, 0, cport) && !send(&r, 0, 5, 0, 60) &&
	     !send(&r, 1, 5, 0, 60);
	step(&r, &res);
	ok &= res.circuit == 1 && carried(&r, dp.link[2]) == 2;
	ok &= ft_fail_link(&r.f.lanes, &r.f.topo, dp.link[2], FT_FAIL_SELF,
			   true) == 1;
	ok &= !ft_circuits_cut(&r.cs, &r.f.lanes);
	for (i = 0; i < 5; i++) {
		step(&r, &res);
		ok &= res.circuit == 1 && res.delivered >= 2 &&
		      !carried(&r, dp.link[2]);
	}
	tap_ok(ok && clean(&r),
	       "scheduled: a failed link on the dmodk path: the default traffic goes round it, the circuit goes on %s",
	       r.why);
	ft_fail_link(&r.f.lanes, &r.f.topo, cp.link[2], FT_FAIL_SELF, true);
	ok = ft_circuits_cut(&r.cs, &r.f.lanes) == 1 &&
	     !ft_circuits_find(&r.cs, 0, 5) && !r.f.lanes.nreserved;
	for (i = 0; i < 200 && r.q.queued; i++) {
		step(&r, &res);
		circ += res.circuit;
		ok &= !carried(&r, cp.link[2]) && !carried(&r, dp.link[2]);
	}
	tap_ok(ok && !circ && all_got(&r) && clean(&r),
	       "the circuit's link fails: it is cut, its pair falls back to its default path, and all 120 arrive in order %s",
	       r.why);
	run_destroy(&r);
}

/*
 * Until a pair holds a circuit, scheduled is its default path: the same
 * traffic, seed and circuits give the same links' counters as dmodk
 * (random for scheduled-random), circuits or not.
 */
static void test_same_as_default(void)
{
	static const u32 cport[2] = { 0, 3 };
	struct ft_fabric_params p;
	struct ft_cycle_result res;
	struct run a, b;
	u32 k, s, i, circuits;
	int same = 1;

	for (k = 0; k < 4; k++) {
		circuits = k / 2;
		ft24(&p, 2, 1, k % 2 ? FT_PATH_SCHEDULED_RANDOM :
			 FT_PATH_SCHEDULED);
		run_init(&a, &p);
		p.path = ft_path_default(p.path);
		run_init(&b, &p);
		for (s = 0; s < 16; s++) {
			send(&a, s, (s * 5 + 3) % 16, 0, 20);
			send(&b, s, (s * 5 + 3) % 16, 0, 20);
		}
		if (circuits) {
			grant(&a, 0, 3, 1, 10, cport);
			grant(&b, 0, 3, 1, 10, cport);
		}
		for (i = 0; i < 300 && a.q.queued; i++) {
			step(&a, &res);
			step(&b, &res);
		}
		same &= a.f.cycle == b.f.cycle && all_got(&a) &&
			all_got(&b) && clean(&a) && clean(&b) &&
			!memcmp(a.f.stats, b.f.stats,
				a.f.lanes.n * sizeof(*a.f.stats));
		run_destroy(&a);
		run_destroy(&b);
	}
	tap_ok(same, "scheduled runs as dmodk, scheduled-random as random, with circuits or without");
}

/* A random circuit for a pair in demand: random ports, lanes, lease. */
static void random_grant(struct run *r, struct ft_rand *rnd,
			 const struct ft_pairs_demand *d)
{
	u32 port[FT_MAX_LEVELS], i;

	for (i = 0; i < r->f.topo.h; i++)
		port[i] = ft_rand_below(rnd, r->f.topo.w[i + 1]);
	grant(r, d->src, d->dst, 1 + ft_rand_below(rnd, r->f.topo.lanes[1]),
	      ft_rand_below(rnd, 6), port);
}

/* One scheduler's round of random grants, deletions, failures. */
static void random_round(struct run *r, struct ft_rand *rnd, u32 *nfail)
{
	struct ft_pairs_demand dm[8];
	u32 pos = 0, nd, i, id, pair[2];

	if (!ft_rand_below(rnd, 3)) {
		nd = ft_pairs_demand(&r->q, &r->cs, NTAGS, r->f.cycle, &pos,
				     dm, 8, 64);
		for (i = 0; i < nd; i++)
			if (ft_rand_below(rnd, 2))
				random_grant(r, rnd, &dm[i]);
	}
	if (r->cs.n && !ft_rand_below(rnd, 8)) {
		const struct ft_circuit *c =
			&r->cs.c[r->cs.active[ft_rand_below(rnd, r->cs.n)]];

		pair[0] = c->src;
		pair[1] = c->dst;
		ft_circuits_del(&r->cs, &r->f.lanes, pair, 1, &i);
	}
	if (!ft_rand_below(rnd, 16)) {
		id = ft_rand_below(rnd, r->f.lanes.n);
		*nfail += ft_fail_link(&r->f.lanes, &r->f.topo, id,
				       FT_FAIL_SELF, true) == 1;
		ft_circuits_cut(&r->cs, &r->f.lanes);
	}
	if (r->f.lanes.nfailed && !ft_rand_below(rnd, 12)) {
		for (id = ft_rand_below(rnd, r->f.lanes.n);
		     !ft_fail_is_failed(&r->f.lanes, id);
		     id = (id + 1) % r->f.lanes.n)
			;
		ft_fail_link(&r->f.lanes, &r->f.topo, id, FT_FAIL_SELF,
			     false);
	}
}

/*
 * Random fabrics under scheduled and scheduled-random, every arbitration
 * and injection rule, with traffic arriving, circuits granted to pairs in
 * demand (random ports, lanes and leases), deleted, expiring and cut by
 * links failing and coming back: every cycle is checked against the lanes
 * and reservations it ran with.  At the end the links are restored, the
 * circuits deleted, and every flow must deliver all it sent.
 */
static void test_random(void)
{
	struct ft_fabric_params p;
	struct ft_cycle_result res;
	struct ft_rand rnd;
	struct run r;
	u32 trial, cyc, i, nfail = 0, n, pair[2];
	u64 cycles = 0, circ = 0, msgs = 0, grants = 0;
	int drained = 1, ok = 1;

	ft_rand_seed(&rnd, 44);
	for (trial = 0; trial < 80; trial++) {
		random_params(&rnd, &p, 3);
		p.path = trial % 2 ? FT_PATH_SCHEDULED_RANDOM :
				     FT_PATH_SCHEDULED;
		p.arb = ft_rand_below(&rnd, FT_ARB_NR);
		p.inject.rule = ft_rand_below(&rnd, FT_INJECT_NR);
		p.seed = trial;
		if (run_init(&r, &p)) {
			ok = 0;
			run_destroy(&r);
			continue;
		}
		n = r.f.topo.n;
		for (cyc = 0; cyc < 300; cyc++) {
			for (i = ft_rand_below(&rnd, 4); i--;)
				send(&r, ft_rand_below(&rnd, n),
				     ft_rand_below(&rnd, n),
				     ft_rand_below(&rnd, NTAGS),
				     1 + ft_rand_below(&rnd, 6));
			random_round(&r, &rnd, &nfail);
			grants = ft_max_u64(grants, r.cs.n);
			ok &= !step(&r, &res);
			circ += res.circuit;
		}
		for (i = 0; i < r.f.lanes.n; i++)
			if (ft_fail_is_failed(&r.f.lanes, i))
				ft_fail_link(&r.f.lanes, &r.f.topo, i,
					     FT_FAIL_SELF, false);
		while (r.cs.n) {
			pair[0] = r.cs.c[r.cs.active[0]].src;
			pair[1] = r.cs.c[r.cs.active[0]].dst;
			ft_circuits_del(&r.cs, &r.f.lanes, pair, 1, &i);
		}
		for (cyc = 0; cyc < 20000 && r.q.queued; cyc++)
			ok &= !step(&r, &res);
		drained &= all_got(&r);
		if (!clean(&r) || !all_got(&r))
			tap_diag("trial %u (%s): over %u reserved %u beyond %u failed %u order %u lost %u left %llu %s",
				 trial, path_name[p.path], r.over,
				 r.on_reserved, r.beyond, r.on_failed,
				 r.order, r.lost,
				 (unsigned long long)r.q.queued, r.why);
		ok &= clean(&r) && ft_lanes_check(&r.f.lanes) == -1;
		cycles += r.f.cycle;
		for (i = 0; i < n * n * NTAGS; i++)
			msgs += r.got[i];
		run_destroy(&r);
	}
	tap_ok(ok, "80 random fabrics, %llu cycles: no link over its lanes, default traffic never on reserved lanes nor circuits beyond them, nothing on a failed link, no message past a blocked one of its flow",
	       (unsigned long long)cycles);
	tap_ok(drained && circ > 1000 && nfail > 20,
	       "every flow delivered all it sent across the switch-overs (%llu messages, %llu on circuits, up to %llu circuits at once, %u link failures)",
	       (unsigned long long)msgs, (unsigned long long)circ,
	       (unsigned long long)grants, nfail);
}

int main(void)
{
	test_switch_over();
	test_switch_over_random();
	test_reserved_idle();
	test_failed_link();
	test_same_as_default();
	test_random();
	return tap_done();
}
