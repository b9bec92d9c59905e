// SPDX-License-Identifier: GPL-2.0
/*
 * The round function (lib/sched/ft_round.c), driven as fattreed and
 * ftsim drive it: circuits in place in the engine core's circuit table
 * (ft_circuits over ft_lanes), demand as the kernel lists it, and the
 * round's decision applied the same way (deletions, then one batch that
 * ft_circuits_admit() must take whole).  Lanes grow with a backlog and
 * shrink after it; idle circuits go; threshold and colliding selection;
 * heaviest and oldest first; never more lanes than a link has free;
 * circuits without a lease left alone; and random fabrics, demand and
 * circuits under every algorithm, every batch admitted by the core.
 */
#include "../unit/tap.h"
#include "util.h"
#include "../../lib/sched/ft_round.h"

#define MAXD	4096

struct state {
	struct ft_topo t;
	struct ft_lanes l;
	struct ft_circuits cs;
	struct ft_round *r;
	struct ft_round_opts o;
	u64 now;
	struct ft_pairs_demand dm[MAXD];
	u32 nd;
	struct ft_round_held held[MAXD];
	u32 *free;
	struct ft_round_out out;
	int admit;		/* the last apply's ft_circuits_admit() */
};

static void st_init(struct state *s, const struct ft_topo *t, enum ft_sched_algo a,
		    enum ft_path_choice path)
{
	memset(s, 0, sizeof(*s));
	s->t = *t;
	ft_lanes_init(&s->l, &s->t);
	ft_circuits_init(&s->cs, 1 << 14);
	s->r = ft_round_create(&s->t);
	ft_round_opts_default(&s->o, a);
	s->o.path = path;
	s->o.colliding = false;	/* every pair, unless a test says */
	s->free = calloc(ft_topo_dlinks(t), sizeof(u32));
	s->now = 100;
}

static void st_fini(struct state *s)
{
	ft_round_destroy(s->r);
	ft_circuits_destroy(&s->cs);
	ft_lanes_destroy(&s->l);
	free(s->free);
}

/* A circuit in place: @lease 0 for none; its history as given. */
static int st_hold(struct state *s, u32 src, u32 dst, u32 lanes, const u8 *port,
		   u32 lease, u64 age, u64 carried, u64 idle)
{
	struct ft_circuit_req q = { src, dst, lanes, lease, { 0 } };
	struct ft_circuits_refusal rf;
	struct ft_circuit *c;
	u32 i, hh = ft_topo_common_level(&s->t, src, dst);

	for (i = 1; i <= hh; i++)
		q.port[i - 1] = port ? port[i - 1] :
			(u8)ft_topo_dmodk_port(&s->t, dst, i);
	if (ft_circuits_admit(&s->cs, &s->t, &s->l, &q, 1, s->now - age, &rf))
		return -1;
	c = ft_circuits_find(&s->cs, src, dst);
	c->carried = carried;
	c->last_used = s->now - idle;
	return 0;
}

static void st_demand(struct state *s, u32 src, u32 dst, u32 backlog, u64 age)
{
	struct ft_circuit *c = ft_circuits_find(&s->cs, src, dst);

	s->dm[s->nd++] = (struct ft_pairs_demand){ src, dst, backlog,
						   c ? c->lanes : 0, age };
}

/* Run a round on the state as it is; 0 or the round's error. */
static int st_round(struct state *s)
{
	struct ft_round_in in = { .now = s->now, .demand = s->dm, .ndemand = s->nd,
				  .held = s->held, .free = s->free };
	u32 j, k;

	for (j = 0; j < s->cs.n; j++)
		ft_round_held_of(&s->held[j], &s->cs.c[s->cs.active[j]], s->now);
	in.nheld = s->cs.n;
	for (k = 0; k < ft_topo_dlinks(&s->t); k++)
		s->free[k] = ft_lanes_free(&s->l, k);
	return ft_round_run(s->r, &s->o, &in, &s->out);
}

/* Apply the decision as fattreed does: deletions, then one batch. */
static int st_apply(struct state *s)
{
	struct ft_circuits_refusal rf;
	u32 bad;

	if (s->out.ndel &&
	    ft_circuits_del(&s->cs, &s->l, s->out.del, s->out.ndel, &bad))
		return -1;
	s->admit = s->out.nadd ? ft_circuits_admit(&s->cs, &s->t, &s->l, s->out.add,
						   s->out.nadd, s->now, &rf) : 0;
	return s->admit;
}

static u32 lanes_of(const struct state *s, u32 src, u32 dst)
{
	const struct ft_circuit *c = ft_circuits_find(&s->cs, src, dst);

	return c ? c->lanes : 0;
}

/* FT(2,4) with @lanes per link. */
static void ft24(struct ft_topo *t, u32 lanes)
{
	ft_lw(t, 2, 4, lanes);
}

static void test_grow_shrink(void)
{
	struct ft_topo t;
	struct state s;
	u8 p1[FT_MAX_LEVELS] = { 0, 1 };
	bool ok;

	ft24(&t, 4);
	st_init(&s, &t, FT_SCHED_LEVELWISE, FT_PATH_SCHEDULED);
	/* A backlog of 10 wants every lane of its links; one of 2, two. */
	st_demand(&s, 0, 15, 10, 3);
	st_demand(&s, 1, 14, 2, 3);
	ok = !st_round(&s) && !st_apply(&s);
	tap_ok(ok && lanes_of(&s, 0, 15) == 4 && lanes_of(&s, 1, 14) == 2 &&
	       s.out.st.granted == 2 && s.out.st.lanes_granted == 6,
	       "a new circuit gets as many lanes as its backlog, up to its links'"
	       " (%u and %u)", lanes_of(&s, 0, 15), lanes_of(&s, 1, 14));
	st_fini(&s);

	/* Grows in place with the backlog, round by round. */
	st_init(&s, &t, FT_SCHED_LEVELWISE, FT_PATH_SCHEDULED);
	s.o.idle = 0;
	st_hold(&s, 0, 15, 1, p1, 64, 2, 2, 0);
	st_hold(&s, 2, 13, 2, p1, 0, 2, 2, 0);	/* no lease: pinned */
	st_demand(&s, 0, 15, 3, 2);
	ok = !st_round(&s) && !st_apply(&s);
	tap_ok(ok && lanes_of(&s, 0, 15) == 2 && s.out.st.grown == 1 &&
	       s.out.ndel == 1 && ft_circuits_find(&s.cs, 0, 15)->port[1] == 1,
	       "a circuit grows in place with its backlog, as far as its path"
	       " has free lanes (1 -> %u)", lanes_of(&s, 0, 15));
	s.nd = 0;
	s.now += 5;
	st_demand(&s, 0, 15, 9, 7);
	st_demand(&s, 2, 13, 9, 7);
	ok = !st_round(&s) && !st_apply(&s);
	tap_ok(ok && lanes_of(&s, 0, 15) == 4 && lanes_of(&s, 2, 13) == 2 &&
	       s.out.st.moved == 1,
	       "short of half what it wants on its path, it moves to one with"
	       " all its lanes (%u); the circuit without a lease keeps its %u",
	       lanes_of(&s, 0, 15), lanes_of(&s, 2, 13));

	/* Shrinks after the backlog: carried 1 a cycle on 4 lanes. */
	s.o.idle = 0;
	s.nd = 0;
	s.now += 20;
	ft_circuits_find(&s.cs, 0, 15)->carried = 20;
	ok = !st_round(&s) && !st_apply(&s);
	tap_ok(ok && lanes_of(&s, 0, 15) == 1 && s.out.st.shrunk == 1 &&
	       lanes_of(&s, 2, 13) == 2,
	       "out of demand, a circuit shrinks to what it carried a cycle"
	       " (4 -> %u); without a lease, never", lanes_of(&s, 0, 15));
	s.now += 20;
	ft_circuits_find(&s.cs, 0, 15)->carried = 12;
	ok = !st_round(&s) && !st_apply(&s);
	tap_ok(ok && s.out.ndel == 0 && lanes_of(&s, 0, 15) == 1,
	       "a circuit using more than half its lanes is left as it is");
	st_fini(&s);

	/* A circuit carrying 3 a cycle on 4 lanes keeps them. */
	st_init(&s, &t, FT_SCHED_LEVELWISE, FT_PATH_SCHEDULED);
	st_hold(&s, 0, 15, 4, p1, 64, 20, 60, 0);
	ok = !st_round(&s);
	tap_ok(ok && s.out.ndel == 0 && s.out.nadd == 0,
	       "3 a cycle on 4 lanes: no shrink");
	st_fini(&s);
}

static void test_idle(void)
{
	struct ft_topo t;
	struct state s;
	u8 p0[FT_MAX_LEVELS] = { 0, 0 };
	bool ok;

	ft24(&t, 1);
	st_init(&s, &t, FT_SCHED_LEVELWISE, FT_PATH_CIRCUIT);
	s.o.idle = 8;
	st_hold(&s, 0, 4, 1, p0, 64, 20, 3, 8);		/* idle 8: goes */
	st_hold(&s, 5, 9, 1, p0, 0, 20, 3, 9);		/* no lease: goes too */
	st_hold(&s, 2, 6, 1, (u8[]){ 0, 2 }, 64, 20, 3, 7);	/* stays */
	/*
	 * 1 -> 8 can only climb port 0 once 0 -> 4 and 5 -> 9 are gone:
	 * switch 0's ports 1 and 2 are taken, root 3's link down to switch
	 * 2 too (4 -> 10).
	 */
	st_hold(&s, 3, 12, 1, (u8[]){ 0, 1 }, 0, 20, 30, 0);
	st_hold(&s, 4, 10, 1, (u8[]){ 0, 3 }, 0, 20, 30, 0);
	st_demand(&s, 1, 8, 5, 1);
	ok = !st_round(&s) && !st_apply(&s);
	tap_ok(ok && s.out.st.released == 2 && !ft_circuits_find(&s.cs, 0, 4) &&
	       !ft_circuits_find(&s.cs, 5, 9) && lanes_of(&s, 2, 6) == 1 &&
	       lanes_of(&s, 1, 8) == 1,
	       "idle circuits are released (with a lease or not) and their lanes"
	       " serve demand in the same round");
	s.o.idle = 0;
	s.nd = 0;
	s.now += 1000;
	ok = !st_round(&s);
	tap_ok(ok && s.out.ndel == 0, "idle 0: never released");
	st_fini(&s);

	/* By default: 32 cycles under path circuit, 2 under scheduled. */
	st_init(&s, &t, FT_SCHED_LEVELWISE, FT_PATH_CIRCUIT);
	st_hold(&s, 0, 4, 1, p0, 64, 40, 3, 31);
	st_hold(&s, 1, 5, 1, (u8[]){ 0, 1 }, 64, 40, 3, 32);
	ok = !st_round(&s) && !st_apply(&s);
	tap_ok(ok && s.out.st.released == 1 && lanes_of(&s, 0, 4) && !lanes_of(&s, 1, 5),
	       "path circuit: idle 32 goes, 31 stays (by default)");
	st_fini(&s);
	st_init(&s, &t, FT_SCHED_LEVELWISE, FT_PATH_SCHEDULED_RANDOM);
	st_hold(&s, 0, 4, 1, p0, 64, 40, 3, 0);
	st_hold(&s, 1, 5, 1, (u8[]){ 0, 1 }, 64, 40, 3, 1);
	ok = !st_round(&s) && !st_apply(&s);
	tap_ok(ok && s.out.st.released == 1 && lanes_of(&s, 0, 4) && !lanes_of(&s, 1, 5),
	       "path scheduled-random: idle 1 goes, 0 stays (by default)");
	st_fini(&s);
}

/* Threshold and colliding selection; path circuit serves every pair. */
static void test_select(void)
{
	struct ft_topo t;
	struct state s;
	bool ok;

	ft24(&t, 1);
	st_init(&s, &t, FT_SCHED_LEVELWISE, FT_PATH_SCHEDULED);
	s.o.threshold = 5;
	st_demand(&s, 0, 5, 3, 9);
	st_demand(&s, 1, 10, 6, 1);
	ok = !st_round(&s) && !st_apply(&s);
	tap_ok(ok && !lanes_of(&s, 0, 5) && lanes_of(&s, 1, 10) == 1 &&
	       s.out.st.selected == 1,
	       "threshold 5: only the backlog above it is scheduled");
	st_fini(&s);
	st_init(&s, &t, FT_SCHED_LEVELWISE, FT_PATH_CIRCUIT);
	s.o.threshold = 5;
	s.o.colliding = true;
	st_demand(&s, 0, 5, 3, 9);
	st_demand(&s, 1, 10, 6, 1);
	ok = !st_round(&s) && !st_apply(&s);
	tap_ok(ok && lanes_of(&s, 0, 5) == 1 && lanes_of(&s, 1, 10) == 1,
	       "path circuit: every pair is scheduled whatever the selection");
	st_fini(&s);

	/*
	 * d-mod-k on FT(2,4): 0 -> 4 and 1 -> 8 both climb port 0 of switch 0
	 * (4 mod 4 = 8 mod 4 = 0); 2 -> 13 climbs port 1 and 3 -> 7 port 3,
	 * each alone.
	 */
	st_init(&s, &t, FT_SCHED_LEVELWISE, FT_PATH_SCHEDULED);
	s.o.colliding = true;
	st_demand(&s, 0, 4, 4, 1);
	st_demand(&s, 1, 8, 4, 1);
	st_demand(&s, 2, 13, 4, 1);
	st_demand(&s, 3, 7, 4, 1);
	ok = !st_round(&s) && !st_apply(&s);
	tap_ok(ok && s.out.st.colliding == 2 && lanes_of(&s, 0, 4) &&
	       lanes_of(&s, 1, 8) && !lanes_of(&s, 2, 13) && !lanes_of(&s, 3, 7),
	       "colliding: the two pairs on one d-mod-k link get circuits, the"
	       " others keep their default paths (%u colliding)",
	       s.out.st.colliding);
	tap_ok(ft_circuits_find(&s.cs, 0, 4)->port[1] !=
	       ft_circuits_find(&s.cs, 1, 8)->port[1],
	       "and on different ports");
	/* A default path across a reserved link collides with the circuit. */
	s.nd = 0;
	st_demand(&s, 2, 14, 4, 1);
	st_demand(&s, 3, 7, 4, 1);
	/* root 3 down to switch 1, on 3 -> 7's d-mod-k path */
	st_hold(&s, 8, 5, 1, (u8[]){ 0, 3 }, 64, 0, 0, 0);
	ok = !st_round(&s) && !st_apply(&s);
	tap_ok(ok && s.out.st.colliding == 1 && lanes_of(&s, 3, 7) &&
	       !lanes_of(&s, 2, 14),
	       "a default path over lanes circuits hold collides too");
	st_fini(&s);

	/* scheduled-random: by channels; a leaf's own link never counts. */
	st_init(&s, &t, FT_SCHED_LEVELWISE, FT_PATH_SCHEDULED_RANDOM);
	s.o.colliding = true;
	st_demand(&s, 0, 4, 3, 1);
	st_demand(&s, 8, 12, 3, 1);
	st_demand(&s, 9, 13, 0, 1);	/* nothing waiting: nothing offered */
	st_demand(&s, 12, 1, 2, 1);
	st_demand(&s, 13, 1, 2, 1);	/* 1's own link takes one a cycle */
	ok = !st_round(&s);
	tap_ok(ok && s.out.st.colliding == 0,
	       "scheduled-random: one message a cycle in each channel, two pairs"
	       " sharing a leaf's link: nothing a circuit would fix (%u)",
	       s.out.st.colliding);
	st_demand(&s, 1, 5, 1, 1);	/* with 0 -> 4: two in 1-lane links' channel */
	ok = !st_round(&s);
	tap_ok(ok && s.out.st.colliding == 2,
	       "two a cycle into a channel of 1-lane links: random ports may"
	       " collide (%u)", s.out.st.colliding);
	st_fini(&s);

	/* A hot spot: its pairs share the hot leaf's link, nothing above it. */
	st_init(&s, &t, FT_SCHED_LEVELWISE, FT_PATH_SCHEDULED);
	s.o.colliding = true;
	for (u32 i = 4; i < 16; i += 4)
		st_demand(&s, i, 1, 4, 1);	/* d-mod-k: all down root 1 */
	ok = !st_round(&s) && !st_apply(&s);
	tap_ok(ok && s.out.st.colliding == 0 && !s.out.nadd,
	       "d-mod-k hot spot: three pairs share the root's link to the hot"
	       " leaf's switch, which carries what the leaf's link takes: no"
	       " collision (%u)", s.out.st.colliding);
	st_fini(&s);
}

/* Heaviest, then oldest, first; max_lanes and max_requests. */
static void test_weight(void)
{
	struct ft_topo t;
	struct state s;
	bool ok;

	ft_lw(&t, 1, 4, 1);	/* one switch: each leaf's links */
	st_init(&s, &t, FT_SCHED_LEVELWISE, FT_PATH_CIRCUIT);
	st_demand(&s, 0, 3, 2, 50);
	st_demand(&s, 1, 3, 5, 1);
	st_demand(&s, 2, 3, 2, 60);
	ok = !st_round(&s) && !st_apply(&s);
	tap_ok(ok && lanes_of(&s, 1, 3) && !lanes_of(&s, 0, 3) && !lanes_of(&s, 2, 3),
	       "three pairs for one link: the heaviest gets it");
	s.nd = 0;
	ft_circuits_del(&s.cs, &s.l, (u32[]){ 1, 3 }, 1, (u32[1]){ 0 });
	st_demand(&s, 0, 3, 2, 50);
	st_demand(&s, 2, 3, 2, 60);
	ok = !st_round(&s) && !st_apply(&s);
	tap_ok(ok && lanes_of(&s, 2, 3) && !lanes_of(&s, 0, 3),
	       "equal backlogs: the oldest gets it");
	st_fini(&s);

	ft24(&t, 4);
	st_init(&s, &t, FT_SCHED_OPTIMAL, FT_PATH_SCHEDULED);
	s.o.max_lanes = 1;
	s.o.max_requests = 2;
	st_demand(&s, 0, 15, 9, 1);
	st_demand(&s, 1, 14, 8, 1);
	st_demand(&s, 2, 13, 7, 1);
	ok = !st_round(&s) && !st_apply(&s);
	tap_ok(ok && lanes_of(&s, 0, 15) == 1 && lanes_of(&s, 1, 14) == 1 &&
	       !lanes_of(&s, 2, 13) && s.out.st.requests == 2,
	       "max_lanes 1 and max_requests 2: one lane each, the two heaviest");
	st_fini(&s);
}

/* Never more lanes than free: what is left decides what is granted. */
static void test_free(void)
{
	struct ft_topo t;
	struct state s;
	u32 id;
	bool ok;

	ft24(&t, 4);
	st_init(&s, &t, FT_SCHED_LEVELWISE, FT_PATH_SCHEDULED);
	st_hold(&s, 4, 0, 3, (u8[]){ 0, 0 }, 0, 0, 0, 0);	/* 3 of 0's 4 down */
	st_demand(&s, 1, 0, 100, 1);
	ok = !st_round(&s) && !st_apply(&s);
	tap_ok(ok && lanes_of(&s, 1, 0) == 1,
	       "a backlog of 100 to a leaf whose link has 1 lane free: 1 lane");
	st_fini(&s);
	/* A failed link has no free lanes: the round goes around it. */
	st_init(&s, &t, FT_SCHED_RANDOM, FT_PATH_SCHEDULED);
	for (id = 0; id < ft_topo_dlinks(&t); id++) {
		u32 lvl, node, port, dir;

		ft_topo_link_decode(&t, id, &lvl, &node, &port, &dir);
		if (lvl == 2 && port != 2)
			ft_fail_link(&s.l, &t, id, FT_FAIL_SELF, true);
	}
	for (id = 0; id < 16; id++)
		st_demand(&s, id, (id + 4) % 16, 4, 1);
	ok = !st_round(&s) && !st_apply(&s);
	tap_ok(ok && s.out.st.granted >= 1 && s.admit == 0,
	       "with every root but one failed, random grants only what fits"
	       " (%u circuits), admitted whole", s.out.st.granted);
	st_fini(&s);
}

/*
 * Random fabrics, circuits in place, demand and failed links, under every
 * algorithm and selection, three rounds each with the engine's leases
 * ending between them: every decision is admitted by the core whole.
 */
static void test_random(void)
{
	static const enum ft_path_choice paths[] = {
		FT_PATH_CIRCUIT, FT_PATH_SCHEDULED, FT_PATH_SCHEDULED_RANDOM,
	};
	struct ft_rand r;
	struct ft_topo t;
	struct state *s = malloc(sizeof(*s));
	u32 trial, k, i, round, bad = 0, rounds = 0, granted = 0, resized = 0;
	u8 port[FT_MAX_LEVELS];

	ft_rand_seed(&r, 44);
	for (trial = 0; trial < 300; trial++) {
		trial_shape(&r, &t, trial, 5, 4, 3);
		st_init(s, &t, trial % FT_SCHED_NALGOS, paths[trial % 3]);
		s->o.sched.order = ft_rand_below(&r, FT_SCHED_NORDERS);
		s->o.sched.release_on_failure = ft_rand_below(&r, 2);
		s->o.sched.random_fit = ft_rand_below(&r, 2);
		s->o.sched.seed = trial;
		s->o.threshold = ft_rand_below(&r, 3);
		s->o.colliding = ft_rand_below(&r, 2);
		s->o.idle = ft_rand_below(&r, 4);
		s->o.lease = 1 + ft_rand_below(&r, 8);
		s->o.max_lanes = ft_rand_below(&r, 3);
		for (k = 0; k < t.n / 2; k++) {
			for (i = 0; i < t.h; i++)
				port[i] = (u8)ft_rand_below(&r, t.w[i + 1]);
			st_hold(s, ft_rand_below(&r, t.n), ft_rand_below(&r, t.n),
				1 + ft_rand_below(&r, 3), port, ft_rand_below(&r, 3) * 8,
				ft_rand_below(&r, 20), ft_rand_below(&r, 40),
				ft_rand_below(&r, 6));
		}
		for (k = 0; trial % 4 == 3 && k < 3; k++)
			ft_fail_link(&s->l, &t, ft_rand_below(&r, ft_topo_dlinks(&t)),
				     FT_FAIL_SELF, true);
		ft_circuits_cut(&s->cs, &s->l);
		for (round = 0; round < 3; round++) {
			s->nd = 0;
			for (k = 0; k < t.n && s->nd < MAXD; k++)
				st_demand(s, ft_rand_below(&r, t.n), ft_rand_below(&r, t.n),
					  1 + ft_rand_below(&r, 12), ft_rand_below(&r, 30));
			/* what the kernel lists: more than the circuit's lanes */
			for (k = 0, i = 0; k < s->nd; k++)
				if (s->dm[k].backlog > s->dm[k].circuit_lanes)
					s->dm[i++] = s->dm[k];
			s->nd = i;
			for (k = 0; !st_round(s) && k < s->out.nadd; k++)
				if (s->o.max_lanes && s->out.add[k].lanes > s->o.max_lanes &&
				    !bad++)
					tap_diag("trial %u: %u lanes above max_lanes %u", trial,
						 s->out.add[k].lanes, s->o.max_lanes);
			if (st_round(s) || st_apply(s)) {
				if (!bad++)
					tap_diag("trial %u round %u: %s refused (%d)", trial,
						 round, s->admit ? "the batch" : "a deletion",
						 s->admit);
			}
			rounds++;
			granted += s->out.st.granted;
			resized += s->out.st.grown + s->out.st.moved + s->out.st.shrunk;
			s->now += 1 + ft_rand_below(&r, 4);
			ft_circuits_expire(&s->cs, &s->l, s->now);
		}
		if (ft_lanes_check(&s->l) != -1)
			bad++;
		st_fini(s);
	}
	tap_diag("%u rounds: %u circuits granted, %u resized", rounds, granted, resized);
	tap_ok(!bad && granted > 1000 && resized > 50,
	       "300 random fabrics: every round's deletions and batch admitted"
	       " by the core (%u refused)", bad);
	free(s);
}

/* fattreed's and ftsim's defaults: colliding pairs, idle by path choice. */
static void test_defaults(void)
{
	struct ft_round_opts o;
	u32 c, sc;

	ft_round_opts_default(&o, FT_SCHED_OPTIMAL);
	c = ft_round_idle(&o);
	o.path = FT_PATH_SCHEDULED;
	sc = ft_round_idle(&o);
	tap_ok(o.colliding && !o.threshold && !o.max_lanes && o.lease == 64 &&
	       o.sched.algo == FT_SCHED_OPTIMAL && o.sched.order == FT_SCHED_ORDER_GIVEN &&
	       c == 32 && sc == 1,
	       "defaults: colliding pairs, order by weight, lease 64, idle 32 on"
	       " circuit fabrics and 1 on scheduled ones");
}

/* Bad input changes nothing and says so. */
static void test_bad(void)
{
	struct ft_topo t;
	struct state s;

	ft24(&t, 1);
	st_init(&s, &t, FT_SCHED_LEVELWISE, FT_PATH_SCHEDULED);
	s.o.lease = 0;
	tap_ok(st_round(&s) == -EINVAL, "lease 0 is refused");
	s.o.lease = 4;
	s.o.sched.algo = FT_SCHED_NALGOS;
	tap_ok(st_round(&s) == -EINVAL, "an unknown algorithm is refused");
	s.o.sched.algo = FT_SCHED_LEVELWISE;
	st_demand(&s, 3, 3, 5, 1);
	st_demand(&s, 99, 3, 5, 1);
	tap_ok(!st_round(&s) && s.out.st.pairs == 0 && !s.out.nadd,
	       "a pair from a leaf to itself or out of range is not scheduled");
	st_fini(&s);
}

int main(void)
{
	test_grow_shrink();
	test_idle();
	test_select();
	test_weight();
	test_free();
	test_random();
	test_defaults();
	test_bad();
	return tap_done();
}
