/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One scheduling round: what fattreed decides each round, and ftsim's
 * scheduled policy in its place, from the same code.
 *
 * In: the fabric's demand (struct ft_pairs_demand, as the kernel lists
 * it: a pair with messages waiting and no circuit, or more than its
 * circuit's lanes, with its backlog and age), the circuits in place
 * (struct ft_round_held), and every directed link's free lanes (its lanes
 * less those the circuits in place hold; none on a failed link).  Out:
 * the pairs whose circuits to delete, then one batch of circuits to
 * admit (struct ft_circuit_req, the kernel's CIRCUIT_ADD rows).  Nothing
 * else goes in or out: the decision is a function of its input and the
 * options (their seed included), and the caller applies it (netlink in
 * fattreed, the engine core's circuit table in ftsim).  Applied to the
 * state it was computed from (the deletions first), the batch fits: no
 * link is ever asked for more lanes than it has free.
 *
 * The round, in order:
 *  1. Release: circuits idle for @idle cycles or more are deleted, their
 *     lanes free for the rest of the round.  By default (FT_ROUND_IDLE_AUTO)
 *     that is 32 cycles on a circuit fabric, where a pair whose circuit
 *     goes waits a round trip for the next one, and 1 on the others,
 *     where it takes its default path at once and an idle circuit's
 *     reserved lanes only keep the others' default traffic out (ftsim
 *     cycles measured 1 against 2 and 32: scripts/bench/sched-cycles).
 *  2. Shrink: a circuit whose pair is not in demand (its backlog fits
 *     its lanes) and that has lived FT_ROUND_SHRINK_AGE cycles is
 *     replaced by one of ceil(carried / age) lanes (at least 1) on the
 *     same path when that is at most half its lanes: what it carried per
 *     cycle since it was admitted (a replacement is admitted anew, so
 *     this is since its last resize).
 *  3. Select: the pairs in demand between two leaves, each once; on a
 *     fabric whose path choice is not circuit, only those whose backlog
 *     is above @threshold and, with @colliding (the default), only those
 *     whose default path collides (below): measured against every pair
 *     and Hedera's threshold, it was the fastest over ftsim cycles'
 *     patterns (scripts/bench/sched-cycles, section select).  Under path circuit every pair is selected
 *     (a pair without a circuit moves nothing there).  Sorted by weight:
 *     the heaviest backlog first, then the oldest, then by pair.
 *  4. Lanes: a pair wants min(backlog, the lanes of the links of its
 *     levels, @max_lanes): its backlog in one cycle if the path allows.
 *  5. New circuits, for the selected pairs without one (the first
 *     @max_requests): the algorithm is asked for each pair's lanes; the
 *     refused are asked again for half as many, down to one lane, each
 *     time chained on what is left (ft_sched_run()'s rounds chain).
 *  6. Grow in place: a selected pair whose circuit has fewer lanes than
 *     it wants gets as many more on the same path as its links have free
 *     (a replacement circuit with the new lanes).
 *  7. Move: such a pair still at less than half of what it wants gives
 *     its lanes back and asks the algorithm for a path with what it
 *     wants (then half that, down to twice what it held), one pair at a
 *     time with release on failure; if none is found it keeps its
 *     circuit (its lanes taken back exactly).
 *  8. Top up: each new circuit of step 5 (by weight) takes the lanes its
 *     path still has free, up to what its pair wants.
 * Circuits with no lease (expires 0: installed by hand, or by someone
 * else) are never resized, only released when idle.  Every circuit
 * admitted, new or replacement, gets @lease.
 *
 * Collision (@colliding): each pair in demand offers min(excess, lanes)
 * on every link of its default path (excess = backlog - its circuit's
 * lanes; ft_path_default() of @path), its excess first shared out by
 * its source's and its destination's own links: the pairs of one leaf
 * offer at most what its links have free between them (a hot spot's
 * pairs do not collide above the hot leaf: its link is their bottleneck,
 * and no path choice changes that).  Under a d-mod-k default a pair
 * collides when a link of its path whose choice a scheduler could change
 * (a link of level i with W_i > 1) is offered more than its free lanes.
 * Under a random (or first-free) default its messages spread over the
 * links of the channel it crosses at such a level, and random ports
 * collide by chance: a pair collides when a channel it crosses is
 * offered more than one of its links' lanes (random ports can put that
 * much on one link) or more than its links have free.
 * The links no choice avoids (a leaf's own link when w_1 = 1) are not
 * counted: no circuit relieves them.
 *
 * A pair's messages are never lost or reordered by what a round does:
 * the engine keeps a pair's order whatever carries it, and a pair whose
 * circuit is deleted and not yet replaced takes its default path (under
 * path circuit it waits).
 */
#ifndef FT_ROUND_H
#define FT_ROUND_H

#include "ft_sched.h"
#include "../../kmod/core/ft_cycle.h"
#include "../../kmod/core/ft_pairs.h"
#include "../../kmod/core/ft_circuits.h"

/* Cycles a circuit lives before its lanes are sized by what it carried. */
#define FT_ROUND_SHRINK_AGE	8U

/* @idle: 32 cycles under path circuit, 1 under the others. */
#define FT_ROUND_IDLE_AUTO	0xffffffffU
#define FT_ROUND_IDLE_CIRCUIT	32U
#define FT_ROUND_IDLE_SCHEDULED	1U

/**
 * struct ft_round_held - a circuit in place, as a circuit dump gives it.
 * @src: source leaf.
 * @dst: destination leaf.
 * @lanes: lanes it holds.
 * @port: its up-ports P_1..P_H.
 * @created: the cycle it was admitted.
 * @expires: its last cycle; 0: no lease (never resized).
 * @carried: messages it carried.
 * @idle: cycles since it last carried one (since admitted if never).
 */
struct ft_round_held {
	u32 src;
	u32 dst;
	u32 lanes;
	u8 port[FT_MAX_LEVELS];
	u64 created;
	u64 expires;
	u64 carried;
	u64 idle;
};

/* @h := the engine core's circuit @c as a dump shows it at cycle @now. */
void ft_round_held_of(struct ft_round_held *h, const struct ft_circuit *c, u64 now);

/**
 * struct ft_round_opts - how to decide a round.
 * @sched: the algorithm and its options (order GIVEN: by weight).
 * @path: the fabric's path choice (circuit, or the default path of the
 *        pairs without circuits).
 * @lease: lease of every circuit admitted, cycles (>= 1).
 * @idle: release circuits idle this long (0: never; FT_ROUND_IDLE_AUTO:
 *        by the path choice, ft_round_idle()).
 * @threshold: only pairs whose backlog is above it (0: every pair).
 * @colliding: only pairs whose default paths collide (default true).
 * @max_lanes: lanes per circuit at most (0: as many as its links have).
 * @max_requests: new circuits asked per round at most (0: all).
 */
struct ft_round_opts {
	struct ft_sched_opts sched;
	enum ft_path_choice path;
	u32 lease;
	u32 idle;
	u32 threshold;
	bool colliding;
	u32 max_lanes;
	u32 max_requests;
};

/**
 * struct ft_round_in - the state a round decides from.
 * @now: cycles completed (a circuit's age is @now - created).
 * @demand: the pairs in demand, @ndemand of them, in any order (a pair
 *          listed twice counts once, with the larger backlog and age).
 * @held: the circuits in place, @nheld of them.
 * @free: free lanes of every directed link (ft_topo_dlinks() of them):
 *        its lanes less those @held holds, 0 on a failed link.
 */
struct ft_round_in {
	u64 now;
	const struct ft_pairs_demand *demand;
	u32 ndemand;
	const struct ft_round_held *held;
	u32 nheld;
	const u32 *free;
};

/**
 * struct ft_round_stats - what a round decided.
 * @demand: demand entries read.
 * @pairs: distinct pairs in demand between two leaves.
 * @colliding: of them, those whose default path collides (counted with
 *             @colliding set, else 0).
 * @selected: pairs that passed the selection (step 3).
 * @requests: pairs without a circuit asked of the algorithm (step 5).
 * @granted: new circuits.
 * @lanes_wanted: lanes the @requests wanted.
 * @lanes_granted: lanes of the new circuits.
 * @released: circuits released idle.
 * @shrunk: circuits replaced by fewer lanes.
 * @grown: circuits given more lanes on their path.
 * @moved: circuits replaced by more lanes on another path.
 * @held: circuits in place once the batch is applied.
 * @passes: algorithm runs of step 5.
 * @sched: the algorithm's totals of the first run of step 5.
 */
struct ft_round_stats {
	u32 demand;
	u32 pairs;
	u32 colliding;
	u32 selected;
	u32 requests;
	u32 granted;
	u64 lanes_wanted;
	u64 lanes_granted;
	u32 released;
	u32 shrunk;
	u32 grown;
	u32 moved;
	u32 held;
	u32 passes;
	struct ft_sched_stats sched;
};

/**
 * struct ft_round_out - the decision (arrays owned by the round object,
 * valid until its next run).
 * @del: pairs whose circuits go, src and dst in turn (@ndel pairs):
 *       released, and replaced (a replacement is in @add).
 * @add: circuits to admit as one batch once @del is applied.
 * @st: the round's figures.
 */
struct ft_round_out {
	const u32 *del;
	u32 ndel;
	const struct ft_circuit_req *add;
	u32 nadd;
	struct ft_round_stats st;
};

struct ft_round;

/* Defaults: @algo with order GIVEN, path circuit, lease 64, idle by the
 * path choice, colliding pairs (on scheduled fabrics), lanes as the
 * links have, every request.
 */
void ft_round_opts_default(struct ft_round_opts *o, enum ft_sched_algo algo);
/* The idle time @o releases circuits at, FT_ROUND_IDLE_AUTO resolved. */
u32 ft_round_idle(const struct ft_round_opts *o);

/* A round object for topology @t (copied); NULL on a bad one or no memory. */
struct ft_round *ft_round_create(const struct ft_topo *t);
void ft_round_destroy(struct ft_round *r);

/*
 * Decide one round: fill @out.  Return 0, -EINVAL (bad options, no free
 * lanes; nothing decided) or -ENOMEM.  Demand from a leaf to itself or
 * out of range is skipped; circuits in @held that do not fit the
 * topology (a leaf or a port out of range) are left alone.  Not
 * thread-safe per object; one per thread.
 */
int ft_round_run(struct ft_round *r, const struct ft_round_opts *o,
		 const struct ft_round_in *in, struct ft_round_out *out);

#endif /* FT_ROUND_H */
