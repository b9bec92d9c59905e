/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One delivery cycle (seed 000, section 2).
 *
 * The caller offers, per (source, destination) pair, how many head
 * messages of that pair's queue try to cross this cycle.  Links are
 * contended stage by stage, up stages for levels 1..h then down stages
 * for levels h..1 (the inferred emulator of notes/fat-trees-leiserson.md);
 * a link grants at most its free lanes per cycle, in priority order.  A
 * message blocked at a stage keeps the capacity it took below and takes
 * none above, like the hardware.  A pair's offered messages are ranked in
 * sequence order, and once one is blocked every later one of the pair is
 * too, so what a pair delivers is a prefix of what it offered and pair
 * order holds without reordering at the receiver.
 *
 * The cycle never allocates and never sleeps: it may run from a timer.
 * Its cost is O(messages * 2h) plus O(w) per message and level for
 * firstfree; it only visits links it touches (and resets only those).
 */
#ifndef FT_CYCLE_H
#define FT_CYCLE_H

#include "ft_topo.h"
#include "ft_lanes.h"
#include "ft_fail.h"
#include "ft_rand.h"
#include "ft_math.h"

#define FT_CYCLE_MAX_MSGS	0x1000000U

/*
 * How a message picks its up-ports P_1..P_H.  Under every choice but
 * circuit, a pair's circuit carries its first messages on the lanes it
 * reserves, and the rest contend on the choice's default path for the
 * lanes no circuit holds (ft_path_default()).  The scheduled choices say
 * that circuits are meant to come and go (a scheduler grants them to
 * pairs in demand): a pair takes its default path until it holds one,
 * then its circuit, and its default path again when the circuit ends.
 */
enum ft_path_choice {
	FT_PATH_CIRCUIT,	/* only installed circuits carry messages */
	FT_PATH_DMODK,		/* P_i = (d div W_(i-1)) mod w_i */
	FT_PATH_RANDOM,		/* uniform P_i per message, cycle and level */
	FT_PATH_FIRSTFREE,	/* lowest up-port with a free lane right now */
	FT_PATH_SCHEDULED,	/* a pair's circuit, else dmodk's path */
	FT_PATH_SCHEDULED_RANDOM, /* a pair's circuit, else random's path */
	FT_PATH_NR
};

/**
 * ft_path_default() - the path choice of the messages no circuit carries.
 * @path: a fabric's path choice, below FT_PATH_NR.
 *
 * Return: dmodk for scheduled, random for scheduled-random, else @path.
 */
static inline enum ft_path_choice ft_path_default(enum ft_path_choice path)
{
	switch (path) {
	case FT_PATH_SCHEDULED:
		return FT_PATH_DMODK;
	case FT_PATH_SCHEDULED_RANDOM:
		return FT_PATH_RANDOM;
	default:
		return path;
	}
}

/* Who wins a congested link. */
enum ft_arbitration {
	FT_ARB_RANDOM,		/* fresh uniform priority per message */
	FT_ARB_FIXED,		/* by (source, destination), then sequence */
	FT_ARB_NR
};

/**
 * struct ft_offer - one pair's offer for one cycle.
 * @src: source leaf.
 * @dst: destination leaf.
 * @count: head messages of the pair offered this cycle.
 * @delivered: out: messages delivered, always the first ones offered
 *             (at most a cycle's messages and a circuit's lanes: fewer
 *             than 2^25).
 * @lca: the pair's common level H plus one when the caller keeps it
 *       (ft_pairs does, per pair), or 0: the cycle works it out.  Never
 *       written by the cycle: a caller that reuses an offer for another
 *       pair must reset it.
 *
 * Sixteen bytes, four to a cache line: a busy cycle writes one per
 * active pair.  The pair's circuit, if any, is in a struct
 * ft_offer_circuit beside it.
 */
struct ft_offer {
	u32 src;
	u32 dst;
	u32 count;
	u32 delivered : 25;
	u32 lca : 7;
};

/**
 * struct ft_offer_circuit - the circuit of the offer of the same index.
 * @lanes: lanes of the pair's circuit, 0 if it has none.
 * @path: the circuit's path (when @lanes); its lanes are reserved, so
 *        the offer's first min(count, @lanes) messages cross without
 *        contention.  The others contend on the default path (every path
 *        choice but circuit, ft_path_default()) after them: a pair still
 *        delivers a prefix of its offer.
 */
struct ft_offer_circuit {
	u32 lanes;
	const struct ft_path *path;
};

/**
 * struct ft_link_cycle - one directed link in the last cycle.
 * @carried: messages that crossed it (circuit ones included): at most
 *           its lanes (the contending ones take free lanes, lanes -
 *           reserved; the circuits' at most their reservations, which
 *           were admitted within the lanes), so at most FT_MAX_LANES.
 * @circuit: of which on reserved lanes.
 * @blocked: messages refused there for lack of a free lane.
 *
 * Eight bytes: the cycle reads one at random per message and stage.
 */
struct ft_link_cycle {
	u16 carried;
	u16 circuit;
	u32 blocked;
};

/**
 * struct ft_link_stats - running totals of one directed link.
 * @carried: messages carried.
 * @blocked: messages refused.
 * @saturated: cycles in which every lane carried a message.
 * @max_cycle: most messages carried in one cycle.
 */
struct ft_link_stats {
	u64 carried;
	u64 blocked;
	u64 saturated;
	u32 max_cycle;
};

#define FT_MSG_DEAD		0x1	/* blocked this cycle */
#define FT_MSG_ORDER		0x2	/* blocked behind its pair, not a link */

/**
 * struct ft_cycle_msg - one contending message of the last cycle.
 * @src: source leaf.
 * @dst: destination leaf.
 * @y: Y of the node it got to (up-ports so far, radix w).
 * @first: index of its pair's first message; its sequence is the
 *         difference.
 * @offer: index of its offer.
 * @cut: on a pair's first message: index of the pair's earliest blocked
 *       message (U32_MAX-like ~0 while none); later ones must stop.
 * @at: the directed link that stopped it (FT_MSG_DEAD without
 *      FT_MSG_ORDER), else ~0.
 * @hh: common level H.
 * @hops: links crossed before delivery or blocking.
 * @flags: FT_MSG_*.
 * @cutstage: on a pair's first message: the fewest @hops of the pair's
 *            blocked messages (its stage: up 1..H, then down H..1,
 *            counted from 0), 0xff while none; later ones stop there.
 */
struct ft_cycle_msg {
	u32 src;
	u32 dst;
	u32 y;
	u32 first;
	u32 offer;
	u32 cut;
	u32 at;
	u8 hh;
	u8 hops;
	u8 flags;
	u8 cutstage;
};

/**
 * struct ft_cycle_live - a message still crossing, as the stages read it
 * (in priority order, compacted as messages die; its struct ft_cycle_msg
 * is written when it is blocked and at the end).
 * @k: its index in the scratch's @msg.
 * @src: source leaf.
 * @dst: destination leaf.
 * @y: Y of its current node.
 * @hh: common level H.
 * @lead: it is its pair's first message, which nothing holds back.
 */
struct ft_cycle_live {
	u32 k;
	u32 src;
	u32 dst;
	u32 y;
	u8 hh;
	u8 lead;
};

/**
 * struct ft_cycle_level - what a stage of level i reads of the topology,
 * with its divisions made multiplications (struct ft_recip).
 * @link_base: first physical link of level i.
 * @w: w_i, up-ports of a level-(i-1) node.
 * @wprod: W_(i-1), the radix of Y at level i - 1.
 * @wup: W_i = W_(i-1) * w_i, the radix of Y at level i: the level's
 *       physical link of the node of level i - 1 with label (X, Y) and
 *       port p is link_base + X * W_i + (Y * w_i + p).
 * @lanes: c_i, the lanes of each link of the level while it works.
 * @by_mprod: division by M_(i-1): a leaf's subtree at level i - 1.
 * @by_wprod: division by W_(i-1) (dmodk's port).
 * @by_w: division by w_i.
 * @by_m: division by m_i (common level).
 */
struct ft_cycle_level {
	u32 link_base;
	u32 w;
	u32 wprod;
	u32 wup;
	u32 lanes;
	struct ft_recip by_mprod;
	struct ft_recip by_wprod;
	struct ft_recip by_w;
	struct ft_recip by_m;
};

/**
 * struct ft_cycle_scratch - preallocated working memory of the cycle.
 * @max_msgs: contending messages one cycle may hold.
 * @nlinks: directed links.
 * @nmsgs: contending messages of the last cycle.
 * @lc: per-link counters of the last cycle (zero when untouched).
 * @touched: bitmap of the links with non-zero @lc (bit id % 64 of word
 *           id / 64).
 * @got: bitmap of the last cycle's offers that delivered messages (bit
 *       i % 64 of word i / 64 for offer i), when @got_n is not 0.
 * @got_n: offers of the last cycle that @got describes: all of them, or
 *         0 when there were more than @max_msgs (then only the offers'
 *         @delivered say it).
 * @msg: the last cycle's messages, a pair's adjacent and in sequence
 *       (in priority order when every offer was of one message,
 *       FT_CYCLE_SINGLE: their @offer says whose).
 * @live: the messages still crossing during the cycle.
 * @ord: priority order of @msg.
 * @pidx: offer indices in priority order of pairs.
 * @lv: per level 1..h, the topology as the stages read it.
 */
struct ft_cycle_scratch {
	u32 max_msgs;
	u32 nlinks;
	u32 nmsgs;
	struct ft_link_cycle *lc;
	u64 *touched;
	u64 *got;
	u32 got_n;
	struct ft_cycle_msg *msg;
	struct ft_cycle_live *live;
	u32 *ord;
	u32 *pidx;
	struct ft_cycle_level lv[FT_MAX_LEVELS + 1];
};

/**
 * struct ft_cycle_result - totals of one cycle.
 * @offered: messages offered.
 * @delivered: messages delivered.
 * @circuit: of which on circuits.
 * @blocked: messages refused by a full link.
 * @order_blocked: messages held back behind a blocked one of their pair.
 * @uncarried: messages beyond their circuit's lanes under the circuit
 *             path choice (not contended at all).
 * @failed: messages held because every minimal path of their pair
 *          crosses a failed link (not contended; they wait, see
 *          ft_fail.h).
 * @held: messages the fabric held at their sources this cycle because
 *        their destination leaf's receiver cannot take more
 *        (ft_pairs_hold()): not offered, not contended.
 */
struct ft_cycle_result {
	u32 offered;
	u32 delivered;
	u32 circuit;
	u32 blocked;
	u32 order_blocked;
	u32 uncarried;
	u32 failed;
	u32 held;
};

/**
 * struct ft_cycle_cfg - what a cycle needs from its fabric.
 * @topo: shape.
 * @lanes: lane state (free lanes = lanes - reserved).
 * @rand: the fabric's generator, advanced by random choices.
 * @path: path choice.
 * @arb: arbitration.
 */
struct ft_cycle_cfg {
	const struct ft_topo *topo;
	const struct ft_lanes *lanes;
	struct ft_rand *rand;
	enum ft_path_choice path;
	enum ft_arbitration arb;
};

/**
 * ft_cycle_plain() - whether every offered message contends, the offers'
 * messages in their order (ft_cycle_run_plain() lets its caller lay them
 * out then).
 * @cfg: the cycle's.
 *
 * Return: true under random priority, with no link failed and a path
 * choice other than circuit.
 */
static inline bool ft_cycle_plain(const struct ft_cycle_cfg *cfg)
{
	return cfg->arb == FT_ARB_RANDOM && cfg->path != FT_PATH_CIRCUIT &&
	       !cfg->lanes->nfailed;
}

/*
 * What the caller of ft_cycle_run_plain() laid out of its offers'
 * messages: nothing (the cycle lays them out), all of them (ft_cycle_lay(),
 * then @nmsgs), or nothing of offers of one message each (the cycle lays
 * each out when it first reads it, under dmodk).
 */
enum ft_cycle_laid {
	FT_CYCLE_UNLAID,
	FT_CYCLE_LAID,
	FT_CYCLE_SINGLE,
};

/**
 * ft_cycle_lay() - lay out the contending messages of an offer.
 * @msg: the scratch's messages.
 * @n: messages laid out so far.
 * @o: the offer.
 * @i: its index.
 * @c: its contending messages.
 * @hh: its common level H.
 *
 * Return: the messages laid out so far, @n + @c.
 */
static __always_inline u32 ft_cycle_lay(struct ft_cycle_msg *msg, u32 n,
					const struct ft_offer *o, u32 i,
					u32 c, u32 hh)
{
	const struct ft_cycle_msg m = {
		.src = o->src, .dst = o->dst, .first = n, .offer = i,
		.cut = ~0U, .at = ~0U, .hh = (u8)hh, .cutstage = 0xff,
	};
	u32 j;

	if (c == 1) {		/* a busy cycle's usual offer: no loop */
		msg[n] = m;
		return n + 1;
	}
	for (j = 0; j < c; j++)
		msg[n + j] = m;
	return n + c;
}

size_t ft_cycle_scratch_size(const struct ft_topo *t, u32 max_msgs);
int ft_cycle_scratch_init(struct ft_cycle_scratch *sc,
			  const struct ft_topo *t, u32 max_msgs,
			  void *mem, size_t size);
int ft_cycle_run(const struct ft_cycle_cfg *cfg, struct ft_offer *off,
		 const struct ft_offer_circuit *oc, u32 noff,
		 struct ft_cycle_scratch *sc, struct ft_cycle_result *res);
int ft_cycle_run_plain(const struct ft_cycle_cfg *cfg, struct ft_offer *off,
		       u32 noff, struct ft_cycle_scratch *sc,
		       struct ft_cycle_result *res, enum ft_cycle_laid laid);
u32 ft_cycle_common_level(const struct ft_cycle_scratch *sc, u32 src,
			  u32 dst);
void ft_cycle_account(const struct ft_cycle_scratch *sc,
		      const struct ft_lanes *l, struct ft_link_stats *st);

#endif /* FT_CYCLE_H */
