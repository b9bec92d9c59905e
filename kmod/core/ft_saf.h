/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Store-and-forward routing through bounded edge queues (seed 001:
 * Leighton, Maggs, Ranade, Rao, sections 2.2 and 7).
 *
 * The fabric is seen as a leveled network of depth L = 2h.  Level k of
 * that network holds, for k <= h, the up copy of every fat-tree node of
 * level k (the leaves' up copies, the sources, at level 0; the top
 * switches at level h), and for k > h the down copy of every node of
 * level 2h - k (the leaves' down copies, the sinks, at level 2h).  The
 * up copy of a level-H node (H < h) is joined to its own down copy by a
 * chain of 2(h - H) hops (section 7), so every leaf-to-leaf path climbs
 * to the common level H, crosses the chain of the node where it turns
 * and descends: L = 2h edges for every pair, a leaf to itself included.
 *
 * Every directed link of level i is a link of c_i edges (its lanes), each
 * with an edge queue of at most q packets at its receiving end; a chain
 * hop of a level-H node has m_H * c_H edges (1 for a leaf), as wide as
 * that switch's down side, so a chain never adds congestion.  A packet's
 * switches follow its up-ports (seed 002, Theorem 2: the down path
 * reuses them); within a link it takes the first edge with room.
 *
 * The random-rank discipline is section 2.2: every packet gets a rank in
 * [0, R) when its batch starts; initial queues are sorted by (rank,
 * destination, id) and end with an EOS.  In each step every node whose
 * incoming links all hold something selects the smallest (rank,
 * destination, id) among the heads of its queues, forwards it if a next
 * edge has room, and sends a ghost carrying that key on every other
 * outgoing edge with room.  Ghosts die after one step at their receiver.
 * EOS is selected when it heads every input; the node then sends one EOS
 * on each outgoing edge, retrying each until it goes, and nothing more.
 * Hence every edge queue stays sorted (Lemma 2.1), never holds more than
 * q packets, and every final queue receives its packets in key order.
 * Two readings are ours, both safe for those invariants:
 *  - room: fewer than q packets other than ghosts at the beginning of the
 *    step, since every ghost there dies within the step.  Counting them
 *    would let a queue of one packet and one ghost (q = 2) run dry while
 *    its sender waits, which Lemma 2.2 rules out: with ghosts and q >= 2
 *    no node ever waits on an empty input after step = its level
 *    (&struct ft_saf_stats.empty_waits counts it);
 *  - inputs: the edges of a link come from one sender, which sends in key
 *    order, so anything queued on one edge bounds what its siblings will
 *    bring: a node waits only for a link with nothing queued at all.
 *
 * A fat switch would crawl at one packet per step, so with @picks == 0 a
 * node goes on selecting in key order within the step: at most one
 * packet per outgoing edge and one per incoming edge queue, stopping at
 * the first selection it cannot make (a link whose queues it has taken
 * empty, a queue it already took from, or a real packet with no room).
 * Every argument of section 2.2 holds for each selection; @picks == 1 is
 * the paper's node.
 *
 * FIFO and farthest-first (the routing notes, seed 003) run on the same
 * leveled network and queues without ranks, ghosts or EOS: greedy,
 * each node forwards its queues' heads in arrival order or farthest real
 * distance first, whenever a next edge queue has room.
 *
 * Packets travel in batches: ft_saf_add() queues a packet for the next
 * batch at any time; a step with no batch in flight starts one with
 * everything queued.  A batch ends when every sink has selected its EOS
 * (every packet delivered).  All memory comes from the caller, sized by
 * ft_saf_mem_size(); a step never allocates or sleeps.
 *
 * Starting a batch ranks, routes and sorts every packet in it: O(n log n)
 * for a pool of up to 2^23.  A caller that must not hold its lock that
 * long prepares the batch in pieces first, ft_saf_prepare() with a budget
 * of work units per call, letting its lock go between calls; packets
 * added meanwhile wait for the batch after.  Whatever the pieces, the
 * batch is the one ft_saf_start() makes in one go from the same packets
 * (same order, ranks, routes and draws of the generator), provided
 * nothing but ft_saf_add() and ft_saf_add_reserved() touches the engine
 * between them.  Likewise a caller that adds many packets in pieces
 * reserves their entries first (ft_saf_reserve()), so that nobody else's
 * ft_saf_add() takes them meanwhile.
 *
 * Use, for a fabric: ft_saf_mem_size(), ft_zalloc(), ft_saf_init() at
 * creation (the struct is the caller's and may move).  On transmit,
 * under the fabric's lock, ft_saf_add() with the skb as cookie;
 * -FT_ENOSPC is back-pressure.  Each delivery cycle, under the lock, one
 * ft_saf_step() (after ft_saf_prepare() in pieces, if the caller
 * prepares): its callback gets every packet delivered, with its
 * cookie and its steps since its batch began.  Counters: @st (occupancy
 * per level, ghosts, EOS, hops, steps to deliver, packets delivered) and
 * @b (the batch: packets, T, congestion).  At deletion or a change of
 * parameters, ft_saf_flush() hands back every packet still held.
 */
#ifndef FT_SAF_H
#define FT_SAF_H

#include "ft_topo.h"
#include "ft_rand.h"

#define FT_SAF_MAX_Q		64U		/* edge queue slots */
#define FT_SAF_MAX_PKTS		0x800000U	/* 2^23: an id fits a key */
#define FT_SAF_MAX_RANK		0x100000U	/* 2^20: a rank fits a key */
#define FT_SAF_MAX_EDGES	0x4000000U	/* 2^26 edge queues */
#define FT_SAF_MAX_NODES	0x4000000U
#define FT_SAF_LEVELS		(2 * FT_MAX_LEVELS + 1)
#define FT_SAF_CHAIN		0xffffffffU	/* link of a chain, no dlink */

/* The order in which a node forwards. */
enum ft_saf_discipline {
	FT_SAF_RANK,		/* random ranks, ghosts, EOS (section 2.2) */
	FT_SAF_FIFO,		/* greedy, oldest arrival at the node first */
	FT_SAF_FARTHEST,	/* greedy, farthest real distance first */
	FT_SAF_DISC_NR
};

/* How a packet picks its up-ports P_1..P_H. */
enum ft_saf_path {
	FT_SAF_PATH_HASH,	/* section 7's path(x) of the destination */
	FT_SAF_PATH_DMODK,	/* P_i = (d div W_(i-1)) mod w_i */
	FT_SAF_PATH_RANDOM,	/* uniform per packet */
	FT_SAF_PATH_FIRSTFREE,	/* lowest up-port with room, when it moves */
	FT_SAF_PATH_NR
};

/* How ranks are drawn. */
enum ft_saf_ranks {
	FT_SAF_RANKS_PACKET,	/* independent, uniform per packet */
	FT_SAF_RANKS_PAIR,	/* a hash of (source, destination): a pair's
				 * packets share a rank, so they arrive in
				 * the order they were added
				 */
	FT_SAF_RANKS_NR
};

/**
 * struct ft_saf_params - what a store-and-forward engine is built with.
 * @q: slots of every edge queue, 1..FT_SAF_MAX_Q (the paper's q >= 2).
 * @discipline: forwarding order.
 * @path: up-port choice.
 * @ranks: rank draw (random-rank discipline).
 * @ghosts: 1 sends ghosts (section 2.2); 0 does not: an ablation that
 *          may stall for good (see &struct ft_saf_step_result.stalled).
 * @picks: selections per node and step: 0 as many as the node's edges
 *         allow, k at most k (1 is the paper's node).
 * @rank_range: R, ranks in [0, R), 1..FT_SAF_MAX_RANK; 0 means the
 *              largest.
 * @max_pkts: packets held at once (batch in flight and queued for the
 *            next), 1..FT_SAF_MAX_PKTS.
 * @seed: the engine's PRNG seed.
 */
struct ft_saf_params {
	u32 q;
	enum ft_saf_discipline discipline;
	enum ft_saf_path path;
	enum ft_saf_ranks ranks;
	u32 ghosts;
	u32 picks;
	u32 rank_range;
	u32 max_pkts;
	u64 seed;
};

/*
 * A key: rank (20 bits), destination (20), id (23: the packet's place in
 * its batch's add order), then one bit, 1 for a ghost.  EOS is all ones.
 */
#define FT_SAF_KEY_RANK		44
#define FT_SAF_KEY_DST		24
#define FT_SAF_KEY_ID		1

/**
 * struct ft_saf_pkt - one packet.
 * @key: (rank, destination, id), the order of the random-rank discipline;
 *       a ghost's key is its packet's plus one.
 * @cookie: the caller's handle (an skb, an index).
 * @src: source leaf.
 * @dst: destination leaf.
 * @route: P_i = (@route div W_(i-1)) mod w_i, unless the path is
 *         firstfree.
 * @since: batch step at which it entered its current queue.
 * @hh: common level H of source and destination.
 * @pos: edges crossed, the level of the node it waits at.
 * @state: FT_SAF_PKT_*.
 */
struct ft_saf_pkt {
	u64 key;
	u64 cookie;
	u32 src;
	u32 dst;
	u32 route;
	u32 since;
	u8 hh;
	u8 pos;
	u8 state;
};

#define FT_SAF_PKT_FREE		0
#define FT_SAF_PKT_QUEUED	1	/* waiting for the next batch */
#define FT_SAF_PKT_BATCH	2	/* in the batch in flight */
#define FT_SAF_PKT_DELIVERED	3	/* in its final queue */

/**
 * struct ft_saf_edge_queue - the queue at the receiving end of one edge.
 * @head: ring index of the head slot.
 * @count: packets held (real, ghost or EOS), at most q.
 * @ghosts: of which ghosts.
 * @start: packets other than ghosts at the beginning of the step (its
 *         reader sets it): its sender may send if @start < q, since
 *         every ghost there dies within the step.
 * @flags: FT_SAF_EQ_*.
 */
struct ft_saf_edge_queue {
	u8 head;
	u8 count;
	u8 ghosts;
	u8 start;
	u8 flags;
};

#define FT_SAF_EQ_CLOSED	0x1	/* its sender has sent EOS */
#define FT_SAF_EQ_USED		0x2	/* its sender sent on it this step */

/* Slot values: a packet index, a ghost of one, or an EOS. */
#define FT_SAF_GHOST		0x80000000U
#define FT_SAF_EOS		0xffffffffU

/**
 * struct ft_saf_link - the edges from one node to one next node.
 * @edge: its first edge queue; the lanes follow.
 * @lanes: edges.
 * @to: receiving node.
 * @dlink: the fat-tree's directed link, or FT_SAF_CHAIN.
 */
struct ft_saf_link {
	u32 edge;
	u32 lanes;
	u32 to;
	u32 dlink;
};

#define FT_SAF_SOURCE	0	/* a leaf's up copy: its initial queue */
#define FT_SAF_UP	1	/* a switch's up copy */
#define FT_SAF_TOP	2	/* a level-h switch */
#define FT_SAF_CHAIN_NODE 3	/* inside a chain */
#define FT_SAF_DOWN	4	/* a switch's down copy */
#define FT_SAF_SINK	5	/* a leaf's down copy: its final queue */

#define FT_SAF_ACTIVE	0
#define FT_SAF_EOS_OUT	1	/* EOS selected, still sending it */
#define FT_SAF_DONE	2

/**
 * struct ft_saf_node - one node of the leveled network.
 * @in: its incoming links, ft_saf.in_link[@in..@in + @nin).
 * @nin: incoming links.
 * @ein: its first incoming edge: they are @ein..@ein + @nein, link by
 *       link in the order of @in.
 * @nein: incoming edges.
 * @link: its outgoing links, ft_saf.link[@link..@link + @nlink).
 * @nlink: outgoing links.
 * @idx: node index at fat-tree level @hw (a leaf for sources and sinks).
 * @level: level in the leveled network, 0..2h.
 * @hw: fat-tree level of the node (of the turning node for a chain).
 * @kind: FT_SAF_SOURCE..FT_SAF_SINK.
 * @state: FT_SAF_ACTIVE, FT_SAF_EOS_OUT or FT_SAF_DONE.
 */
struct ft_saf_node {
	u32 in;
	u32 nin;
	u32 ein;
	u32 nein;
	u32 link;
	u32 nlink;
	u32 idx;
	u8 level;
	u8 hw;
	u8 kind;
	u8 state;
};

/**
 * struct ft_saf_he - a heap entry of a node step or of the initial sort.
 * @key: what it is ordered by.
 * @ref: an edge queue or a packet.
 * @link: the edge's link, FT_SAF_TAKEN set once it gave a packet this
 *        step.
 */
struct ft_saf_he {
	u64 key;
	u32 ref;
	u32 link;
};

#define FT_SAF_TAKEN		0x80000000U

/**
 * struct ft_saf_level - edge queues entering one level.
 * @queues: how many.
 * @occ_max: most packets one held at the beginning of a step.
 * @occ_sum: packets held at the beginning of each busy step, summed
 *           over the queues and the steps (mean = @occ_sum / (@queues *
 *           busy steps)).
 */
struct ft_saf_level {
	u32 queues;
	u32 occ_max;
	u64 occ_sum;
};

/**
 * struct ft_saf_stats - running totals.
 * @steps: steps run.
 * @busy_steps: of which with a batch in flight.
 * @batches: batches completed.
 * @added: packets added.
 * @delivered: packets delivered.
 * @hops: edges crossed by real packets (L per delivered packet).
 * @ghosts: ghosts sent.
 * @eos: EOS sent (one per edge and batch).
 * @fdelays: selections of a real packet that found no next edge with
 *           room (f-delays, section 2.3).
 * @empty_waits: node steps lost to an empty incoming queue at or after
 *               batch step = the node's level (Lemma 2.2 says none, with
 *               ghosts and q >= 2).
 * @stalls: steps of a batch in which nothing moved (it never will).
 * @latency_sum: steps from batch start to delivery, summed.
 * @latency_max: most steps to deliver a packet.
 * @qmax: most packets any edge queue held.
 * @level: per level of the leveled network, 0..2h.
 */
struct ft_saf_stats {
	u64 steps;
	u64 busy_steps;
	u64 batches;
	u64 added;
	u64 delivered;
	u64 hops;
	u64 ghosts;
	u64 eos;
	u64 fdelays;
	u64 empty_waits;
	u64 stalls;
	u64 latency_sum;
	u32 latency_max;
	u32 qmax;
	struct ft_saf_level level[FT_SAF_LEVELS];
};

/**
 * struct ft_saf_batch - the batch in flight, or the last one.
 * @packets: packets in it.
 * @delivered: of which delivered.
 * @steps: steps it has run.
 * @last: steps until its last delivery (T when @done).
 * @congestion: congestion c so far: the most real packets any link
 *              carried per edge, rounded up.
 * @done: every sink has its EOS (every packet delivered).
 * @stalled: a step moved nothing.
 */
struct ft_saf_batch {
	u32 packets;
	u32 delivered;
	u32 steps;
	u32 last;
	u32 congestion;
	u32 done;
	u32 stalled;
};

/**
 * struct ft_saf_step_result - what one step did.
 * @started: packets of a batch started by this step (0: none started).
 * @delivered: packets delivered.
 * @hops: edges crossed by real packets.
 * @ghosts: ghosts sent.
 * @done: the batch in flight completed.
 * @stalled: a batch is in flight and nothing moved.
 */
struct ft_saf_step_result {
	u32 started;
	u32 delivered;
	u32 hops;
	u32 ghosts;
	u32 done;
	u32 stalled;
};

/* Phases of a batch's preparation (struct ft_saf_prep). */
#define FT_SAF_PREP_IDLE	0	/* none under way */
#define FT_SAF_PREP_COUNT	1	/* packets per source */
#define FT_SAF_PREP_OFFSETS	2	/* each source's first place */
#define FT_SAF_PREP_KEYS	3	/* ranks, keys, routes, places */
#define FT_SAF_PREP_SORT	4	/* each initial queue sorted */
#define FT_SAF_PREP_READY	5	/* the next step starts it */

/* Stages of one initial queue's heap sort. */
#define FT_SAF_SORT_FILL	0
#define FT_SAF_SORT_HEAPIFY	1
#define FT_SAF_SORT_POP		2

/**
 * struct ft_saf_prep - the next batch, while it is prepared.
 * @phase: FT_SAF_PREP_*.
 * @n: its packets: the first @n of @pend when its preparation began.
 * @i: the next packet (count, keys) or leaf (offsets, sort) to do.
 * @stage: FT_SAF_SORT_* of leaf @i.
 * @k: how far that stage has gone.
 * @hn: entries in the heap of leaf @i.
 */
struct ft_saf_prep {
	u32 phase;
	u32 n;
	u32 i;
	u32 stage;
	u32 k;
	u32 hn;
};

/**
 * struct ft_saf - a store-and-forward engine over one fabric shape.
 * @topo: the fat-tree (a copy).
 * @p: parameters.
 * @rand: the engine's generator (ranks, random paths, hash coefficients).
 * @depth: L = 2h.
 * @nnodes: nodes of the leveled network.
 * @nlinks: links.
 * @nedges: edges (edge queues).
 * @max_in: most incoming edges of a node.
 * @lvl_node: first node of each level, 0..2h + 1.
 * @node: the nodes, by level.
 * @link: the links, by sending node.
 * @carried: real packets each link carried in the batch.
 * @cursor: per outgoing link of the node stepping, its first lane not
 *          yet found full.
 * @remain: per incoming link of the node stepping, packets left in it.
 * @eq: the edge queues.
 * @slot: q slots per edge queue.
 * @in_link: incoming links of every node.
 * @pkt: the packet pool.
 * @pend: packets queued for the next batches, in the order added: a ring
 *        of p.max_pkts entries, @npend from @pend_head on (those of a
 *        batch being prepared first).
 * @pend_head: the ring's first.
 * @npend: how many.
 * @free: free pool entries, a stack of @nfree + @nres.
 * @nfree: how many ft_saf_add() may take (those not reserved).
 * @nres: how many are reserved for ft_saf_add_reserved().
 * @batch: the batch's packets by source, each source's in forwarding
 *         order: the initial queues.
 * @leaf_off: first packet of each leaf's initial queue in @batch, 0..n.
 * @leaf_head: head of each leaf's initial queue.
 * @heap: working memory of a node step and of the initial sort.
 * @prep: the next batch's preparation.
 * @running: a batch is in flight.
 * @sinks_done: sinks that have selected their EOS.
 * @hash_a: coefficients of path(x).
 * @pair_salt: salt of the pair ranks.
 * @b: the batch.
 * @st: running totals.
 */
struct ft_saf {
	struct ft_topo topo;
	struct ft_saf_params p;
	struct ft_rand rand;
	u32 depth;
	u32 nnodes;
	u32 nlinks;
	u32 nedges;
	u32 max_in;
	u32 lvl_node[FT_SAF_LEVELS + 1];
	struct ft_saf_node *node;
	struct ft_saf_link *link;
	u32 *carried;
	u32 *cursor;
	u32 *remain;
	struct ft_saf_edge_queue *eq;
	u32 *slot;
	u32 *in_link;
	struct ft_saf_pkt *pkt;
	u32 *pend;
	u32 pend_head;
	u32 npend;
	u32 *free;
	u32 nfree;
	u32 nres;
	u32 *batch;
	u32 *leaf_off;
	u32 *leaf_head;
	struct ft_saf_he *heap;
	struct ft_saf_prep prep;
	u32 running;
	u32 sinks_done;
	u32 hash_a[FT_MAX_LEVELS];
	u64 pair_salt;
	struct ft_saf_batch b;
	struct ft_saf_stats st;
};

/**
 * struct ft_saf_fault - an invariant found broken by ft_saf_check().
 * @what: FT_SAF_F_*.
 * @edge: the edge queue concerned (or ~0).
 * @node: the node concerned (or ~0).
 */
struct ft_saf_fault {
	u32 what;
	u32 edge;
	u32 node;
};

#define FT_SAF_F_NONE		0
#define FT_SAF_F_OVERFULL	1	/* an edge queue above q */
#define FT_SAF_F_UNSORTED	2	/* keys not ascending head to tail */
#define FT_SAF_F_AFTER_EOS	3	/* something behind an EOS */
#define FT_SAF_F_SLOT		4	/* a slot naming no packet in flight */
#define FT_SAF_F_CLOSED		5	/* EOS without the closed flag, or a
					 * closed edge its sender still owes
					 */
#define FT_SAF_F_GREEDY		6	/* a ghost or EOS under FIFO/farthest */
#define FT_SAF_F_PLACE		7	/* a packet in the wrong node's queue */

/*
 * Called, under the caller's lock, for each packet delivered (@steps from
 * its batch's start) or handed back by ft_saf_flush() (@steps 0).
 */
typedef void (*ft_saf_deliver_fn)(void *arg, const struct ft_saf_pkt *p,
				  u32 steps);

int ft_saf_params_check(const struct ft_topo *t,
			const struct ft_saf_params *p);
size_t ft_saf_mem_size(const struct ft_topo *t, const struct ft_saf_params *p);
int ft_saf_init(struct ft_saf *s, const struct ft_topo *t,
		const struct ft_saf_params *p, void *mem, size_t size);
int ft_saf_add(struct ft_saf *s, u32 src, u32 dst, u64 cookie, u32 *id);
int ft_saf_reserve(struct ft_saf *s, u32 n);
void ft_saf_unreserve(struct ft_saf *s, u32 n);
int ft_saf_add_reserved(struct ft_saf *s, u32 src, u32 dst, u64 cookie,
			u32 *id);
int ft_saf_prepare(struct ft_saf *s, u32 budget);
int ft_saf_start(struct ft_saf *s);
int ft_saf_step(struct ft_saf *s, ft_saf_deliver_fn fn, void *arg,
		struct ft_saf_step_result *res);
int ft_saf_check(const struct ft_saf *s, struct ft_saf_fault *f);
u32 ft_saf_flush(struct ft_saf *s, ft_saf_deliver_fn fn, void *arg);

/* Depth L of the leveled network: every path has 2h edges. */
static inline u32 ft_saf_depth(const struct ft_topo *t)
{
	return 2 * t->h;
}

/* Edges of each hop of the chain of a level-@hh node. */
static inline u32 ft_saf_chain_lanes(const struct ft_topo *t, u32 hh)
{
	return hh ? t->m[hh] * t->lanes[hh] : 1;
}

#endif /* FT_SAF_H */
