/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The scheduling library: which requests get a circuit, on which path.
 *
 * Plain C over the engine core's topology (kmod/core/ft_topo.h); no
 * netlink, no kernel.  A request is (source leaf, destination leaf, lanes
 * wanted).  A schedule grants a request a path, given as its up-ports
 * P_1..P_H (H = ft_topo_common_level(); the down path is forced, seed 002
 * Theorem 2), and never lets any directed link hold more than its free
 * lanes.
 *
 * A scheduler (struct ft_sched) owns a scratch copy of the free lanes of
 * every directed link (lanes - reserved), loaded from a struct ft_lanes or
 * an array, or full after ft_sched_create() / ft_sched_reset().  Every
 * ft_sched_run() takes the lanes of what it grants out of that copy, so
 * rounds chain: run, run again for what is left, ft_sched_give() when a
 * circuit goes away.  Internally the free lanes are seed 002's
 * availability bit vectors (per level, per direction, one group of bits
 * per switch; a level whose links have one lane is pure bits, as in the
 * paper), with a counter per link for levels with more lanes.
 *
 * Algorithms (enum ft_sched_algo), numbering as in ft_topo.h (our level
 * i = seed 002's level i - 1, our P_(j+2) = their P_j):
 *  - LEVELWISE: seed 002 Figure 7.  Level-major: for level i = 1..h, for
 *    every request still alive with H >= i, in the request order, AND the
 *    up-link availability vector of the source-side node with the
 *    down-link vector of the destination-side node (available = free
 *    lanes >= lanes wanted), take the first set bit (or a random one with
 *    random_fit) for both links.  An all-zero AND refuses the request at
 *    that level.  Without release_on_failure (the paper) the refused
 *    request KEEPS the lanes it took at the levels below; with it, they
 *    are given back at once.  Fast path (same decisions, chosen at run
 *    time): with one lane per link, first fit and no release, each
 *    request goes through all its levels before the next one, in one
 *    pass with the setup (see ft_sched_levelwise.c).
 *  - LOCAL_GREEDY / LOCAL_RANDOM: seed 002's local baselines, request by
 *    request: at each level the up-port is chosen from the up-link vector
 *    alone (lowest free / uniform among free) and taken; then the forced
 *    down path is walked from level H to 1, taking each down link, and
 *    the request is refused at the first one without the lanes.  Kept
 *    lanes on refusal as for LEVELWISE (release_on_failure gives them
 *    back).
 *  - RANDOM: every up-port uniform at random (a uniform intermediate
 *    switch at level H: Valiant on minimal paths, seed 000 section 6);
 *    granted when every link of that path has the lanes, else refused and
 *    nothing is taken.
 *  - OPTIMAL: beyond the papers.  When every request wants the same k
 *    lanes (usually one) and the free lanes are uniform per level (F_i on
 *    every link of level i, e.g. no circuits yet): per level, the
 *    requests still alive form a bipartite multigraph between
 *    source-side and destination-side nodes of level i - 1; it is
 *    edge-coloured with w_i * S_i colours (S_i = floor(F_i / k) slots of
 *    k lanes a link) by alternating paths (Koenig), colour c giving
 *    P_i = c / S_i.  On a full-bisection k-ary n-tree every permutation
 *    has degree <= k at every level, so every permutation is granted
 *    (with L lanes a link and L lanes a request too).  A vertex of degree
 *    above w_i * S_i (non-permutation demand, slimmed trees) first drops
 *    requests greedily in request order; when it had to, the fallback
 *    below is also run from the same state and the better of the two
 *    (more granted) is kept.  Otherwise (requests of different lanes,
 *    uneven free lanes: circuits in place) the fallback alone: LEVELWISE
 *    farthest-first with release on failure.  Then, for each request still refused, in
 *    request order: an exhaustive search for any free path, then a
 *    rearrangement: a path blocked only by one request of this batch is
 *    taken if that request finds another free path.  Both searches stop
 *    after @rearrange steps per request and 64 steps per request of the
 *    batch in all, so a round stays O(n) beyond the main pass.  Never
 *    below the fallback; not a maximum for general demand (that is NP-hard
 *    in general for multi-level trees), documented as a heuristic.
 *  - Leiserson's off-line schedule (ft_sched_leiserson()): not a round
 *    but a multi-cycle schedule of a message set, see below.
 */
#ifndef FT_SCHED_H
#define FT_SCHED_H

#include "../../kmod/core/ft_lanes.h"

enum ft_sched_algo {
	FT_SCHED_LEVELWISE,
	FT_SCHED_LOCAL_GREEDY,
	FT_SCHED_LOCAL_RANDOM,
	FT_SCHED_RANDOM,
	FT_SCHED_OPTIMAL,
	FT_SCHED_NALGOS,
};

/*
 * Order in which requests are served.  SOURCE: ascending source leaf,
 * ties in array order (seed 002: "sequentially on a per source basis").
 * RANDOM: a uniform random rank per request.  FARTHEST: largest H first,
 * ties by source.  GIVEN: array order (callers that rank by age or
 * priority themselves).
 */
enum ft_sched_order {
	FT_SCHED_ORDER_SOURCE,
	FT_SCHED_ORDER_RANDOM,
	FT_SCHED_ORDER_FARTHEST,
	FT_SCHED_ORDER_GIVEN,
	FT_SCHED_NORDERS,
};

/* Default budget of the OPTIMAL rearrangement search, per refused request. */
#define FT_SCHED_REARRANGE_DEFAULT	256U

/**
 * struct ft_sched_opts - how to schedule one round.
 * @algo: the algorithm.
 * @order: request order (LEVELWISE, LOCAL_*, RANDOM; OPTIMAL uses it to
 *         choose which requests to drop and in its fallback).
 * @release_on_failure: LEVELWISE and LOCAL_*: a refused request gives
 *                      back the lanes it took (default false: it keeps
 *                      them, as in the paper).
 * @random_fit: LEVELWISE: a uniform random available port instead of the
 *              first one.
 * @seed: the PRNG seed of this round (random order, random fit,
 *        LOCAL_RANDOM, RANDOM); equal seeds give equal schedules.
 * @rearrange: OPTIMAL: search steps per refused request for the path
 *             search and rearrangement passes; 0 disables both.
 * @force_general: LEVELWISE: never take the fast path; OPTIMAL: never
 *                 the fast copy of the edge-colouring pass (tests and
 *                 benchmarks compare both; the decisions are the same).
 */
struct ft_sched_opts {
	enum ft_sched_algo algo;
	enum ft_sched_order order;
	bool release_on_failure;
	bool random_fit;
	bool force_general;
	u64 seed;
	u32 rearrange;
};

/**
 * struct ft_sched_req - one request.
 * @src: source leaf.
 * @dst: destination leaf.
 * @lanes: lanes wanted on every link of the path, >= 1.
 */
struct ft_sched_req {
	u32 src;
	u32 dst;
	u32 lanes;
};

enum ft_sched_status {
	FT_SCHED_GRANTED = 0,
	FT_SCHED_REFUSED = 1,
	FT_SCHED_INVALID = 2,	/* leaf out of range or lanes 0 */
};

/* Where a refused request failed. */
enum ft_sched_where {
	FT_SCHED_AT_NONE = 0,
	FT_SCHED_AT_UP = 1,	/* no up link with the lanes */
	FT_SCHED_AT_DOWN = 2,	/* no (or the forced) down link lacks them */
	FT_SCHED_AT_BOTH = 3,	/* each side had ports, none in common */
};

/**
 * struct ft_sched_out - the outcome of one request.
 * @status: enum ft_sched_status.
 * @hh: the pair's common level H (0 for src == dst: granted, no links).
 * @fail_level: refused: the level 1..H where it failed.
 * @fail_where: refused: enum ft_sched_where.
 * @cycle: ft_sched_leiserson(): its delivery cycle; rounds: 0.
 * @port: granted: port[i - 1] = P_i < w_i (<= FT_MAX_W) for i = 1..H,
 *        the rest 0 (ft_sched_ports() widens them for ft_topo_path()).
 *        Refused: may hold the ports tried (diagnostics only).
 */
struct ft_sched_out {
	u8 status;
	u8 hh;
	u8 fail_level;
	u8 fail_where;
	u32 cycle;
	u16 port[FT_MAX_LEVELS];
};

/**
 * struct ft_sched_stats - totals of one round.
 * @requests: requests given.
 * @granted: granted (H = 0 included).
 * @refused: refused.
 * @invalid: invalid.
 * @lanes_granted: sum of lanes of the granted requests.
 * @fail_up: refusals by level, at an up link (index = level).
 * @fail_down: refusals by level, at a down link or with no common port.
 * @filled: OPTIMAL: granted by the path search after the main pass.
 * @rearranged: OPTIMAL: granted by moving one other request.
 * @exact: OPTIMAL: 1 if the edge-colouring pass ran, 0 for the fallback.
 * @fast: LEVELWISE: 1 if the fast path ran (one lane per link, first fit,
 *        no release, every switch's vector in one word), 0 otherwise;
 *        OPTIMAL: 1 if the edge-colouring pass took its fast copy
 *        (powers of two, one lane per link, every lane free, w_i <= 64).
 */
struct ft_sched_stats {
	u32 requests;
	u32 granted;
	u32 refused;
	u32 invalid;
	u64 lanes_granted;
	u32 fail_up[FT_MAX_LEVELS + 1];
	u32 fail_down[FT_MAX_LEVELS + 1];
	u32 filled;
	u32 rearranged;
	u32 exact;
	u32 fast;
};

struct ft_sched;

/* Names ("levelwise", "local-greedy", "local-random", "random",
 * "optimal"; "source", "random", "farthest", "given") and parsing (-1 for
 * an unknown name).
 */
extern const char *const ft_sched_algo_names[FT_SCHED_NALGOS];
extern const char *const ft_sched_order_names[FT_SCHED_NORDERS];
const char *ft_sched_algo_name(enum ft_sched_algo a);
int ft_sched_algo_parse(const char *name);
const char *ft_sched_order_name(enum ft_sched_order o);
int ft_sched_order_parse(const char *name);

/* Defaults for @algo: order SOURCE, no release, first fit, seed 1,
 * rearrange FT_SCHED_REARRANGE_DEFAULT.
 */
void ft_sched_opts_default(struct ft_sched_opts *o, enum ft_sched_algo algo);

/*
 * A scheduler for topology @t (copied), every link's free lanes full
 * (t->lanes).  NULL on a bad topology or out of memory.
 */
struct ft_sched *ft_sched_create(const struct ft_topo *t);
void ft_sched_destroy(struct ft_sched *s);
const struct ft_topo *ft_sched_topo(const struct ft_sched *s);

/* Free lanes := every link's lanes (no circuits). */
void ft_sched_reset(struct ft_sched *s);
/* Free lanes := @free[id] for every directed link id (ft_topo_dlinks()). */
int ft_sched_set_free(struct ft_sched *s, const u32 *free);
/* Free lanes := lanes - reserved of @l (0 where reserved >= lanes). */
int ft_sched_set_lanes(struct ft_sched *s, const struct ft_lanes *l);
/* The scratch free lanes, indexed by directed link id. */
const u32 *ft_sched_free_lanes(struct ft_sched *s);

/*
 * Take / give back @lanes on the path of (@src, @dst) through @port
 * (P_1..P_H): a circuit installed or released outside the scheduler.
 * All or nothing.  Return 0, -EINVAL (bad pair or port), -ENOSPC (take:
 * some link lacks the lanes), -ERANGE (give: more than the link has).
 */
int ft_sched_take(struct ft_sched *s, u32 src, u32 dst, const u32 *port,
		  u32 lanes);
int ft_sched_give(struct ft_sched *s, u32 src, u32 dst, const u32 *port,
		  u32 lanes);

/*
 * The fewest scratch free lanes of a link on the path of (@src, @dst)
 * through @port: the most lanes ft_sched_take() could take there now.
 * 0 for a bad pair or port; FT_MAX_LANES for @src == @dst (no link).
 */
u32 ft_sched_path_free(const struct ft_sched *s, u32 src, u32 dst,
		       const u32 *port);

/*
 * Schedule @n requests: fill @out[0..n-1] and @st (may be NULL), and take
 * the lanes of every granted request (and, without release_on_failure,
 * those kept by refused LEVELWISE/LOCAL ones) out of the scratch free
 * lanes.  Return 0, or -EINVAL (bad options; nothing changed) or -ENOMEM.
 */
int ft_sched_run(struct ft_sched *s, const struct ft_sched_opts *o,
		 const struct ft_sched_req *req, u32 n,
		 struct ft_sched_out *out, struct ft_sched_stats *st);

/**
 * struct ft_sched_cycles - a multi-cycle schedule as lists of messages.
 * @n: delivery cycles.
 * @start: @n + 1 offsets into @msg; cycle c is msg[start[c]..start[c+1]).
 * @msg: message indices, each scheduled message exactly once.
 * @nmsg: entries of @msg (messages scheduled).
 */
struct ft_sched_cycles {
	u32 n;
	u32 *start;
	u32 *msg;
	u32 nmsg;
};

void ft_sched_cycles_free(struct ft_sched_cycles *c);

/* @o's ports as u32 for ft_topo_path() and ft_sched_take()/give(). */
static inline void ft_sched_ports(const struct ft_sched_out *o, u32 *port)
{
	u32 i;

	for (i = 0; i < FT_MAX_LEVELS; i++)
		port[i] = o->port[i];
}

/**
 * struct ft_sched_lstats - what ft_sched_leiserson() found.
 * @lambda_load: load of the channel that gives lambda(M).
 * @lambda_cap: its capacity (free lanes of its links); lambda(M) =
 *              lambda_load / lambda_cap (0 / 1 for an empty set).
 * @lambda_ceil: ceil(lambda(M)), the lower bound on cycles.
 * @levels: LCA levels present (H values >= 1 with messages).
 * @parts: one-cycle parts produced per LCA level H (index H).
 * @spilled: XGFT only: messages that did not fit their part's cycle
 *           at link level and went to extra cycles.
 * @refused: messages that cross a channel without free lanes.
 */
struct ft_sched_lstats {
	u64 lambda_load;
	u64 lambda_cap;
	u64 lambda_ceil;
	u32 levels;
	u32 parts[FT_MAX_LEVELS + 1];
	u32 spilled;
	u32 refused;
};

/*
 * Leiserson's off-line schedule (seed 004, Theorem 1) of a message set:
 * every request is one message (lanes must be 1, else INVALID); a
 * channel's capacity is the sum of the scratch free lanes of its links
 * (with w = 1, one link and its free lanes).  Messages are grouped by
 * LCA level H; each group is split by SPLIT-EVEN (hierarchical matching
 * of string ends inside every subtree, then tracing, i.e. a 2-colouring
 * of the alternating mate paths and cycles), halving every channel's
 * load to within one, until every part is a one-cycle set; the cycles
 * are the parts of H = 1, then those of H = 2, ...  (messages with H = 0
 * join cycle 0).  With @compact each part instead goes to the first
 * cycle it fits into (Corollary 2-like packing; never more cycles).  On
 * a tree with some w_i > 1 a part's messages get their links from
 * OPTIMAL within their cycle; those that do not fit spill into extra
 * cycles at the end.  The scratch free lanes are not changed.
 * Fills @out (status, hh, cycle, ports), @cyc (free it with
 * ft_sched_cycles_free()) and @st (may be NULL).  Return 0, -EINVAL or
 * -ENOMEM.
 */
int ft_sched_leiserson(struct ft_sched *s, const struct ft_sched_req *msg,
		       u32 n, bool compact, struct ft_sched_out *out,
		       struct ft_sched_cycles *cyc, struct ft_sched_lstats *st);

#endif /* FT_SCHED_H */
