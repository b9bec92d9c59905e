/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The waiting messages of a fabric, per (source, destination) pair.
 *
 * Queues exist only while they hold messages: a pair is taken from a pool
 * preallocated at creation when its first message arrives and returned
 * when its last one is delivered, so nothing ever scans N^2 pairs and
 * nothing allocates after init (enqueueing is atomic context safe).
 * Pairs are offered in the order they became active, so a run is a pure
 * function of the seed and the order of enqueues: the kernel and a
 * userspace replay of the same injections give the same counters.
 *
 * Only counts live here; the kernel keeps its packets in a queue per
 * slot beside it. A @tag keeps flows of one pair apart (the kernel's real
 * packets and synthetic messages), each in its own order.
 */
#ifndef FT_PAIRS_H
#define FT_PAIRS_H

#include "ft_fabric.h"
#include "ft_circuits.h"

#define FT_PAIRS_MAX		0x400000U
#define FT_PAIR_NONE		0xffffffffU
#define FT_PAIRS_TAGS		0x10000U	/* tags 0..FT_PAIRS_TAGS - 1 */

/**
 * struct ft_pair - one active pair: what every cycle reads of it.
 * @src: source leaf.
 * @dst: destination leaf.
 * @queued: messages waiting.
 * @tag: flow of the pair (caller's meaning), below FT_PAIRS_TAGS.
 * @lca: its common level H plus one, kept from its first offer on (0
 *       before it).
 *
 * Sixteen bytes, four to a cache line: a busy cycle reads every active
 * pair, in an order scattered over the pool.  What only the hash
 * chains, the demand and RANDOM' read of a pair is in arrays beside the
 * pool's (struct ft_pairs).
 */
struct ft_pair {
	u32 src;
	u32 dst;
	u32 queued;
	u16 tag;
	u8 lca;
};

/**
 * struct ft_pairs_demand - a pair in demand (see ft_pairs_demand()).
 * @src: source leaf.
 * @dst: destination leaf.
 * @backlog: messages waiting.
 * @circuit_lanes: lanes of its circuit, 0 when it has none.
 * @age: cycles since it began waiting.
 */
struct ft_pairs_demand {
	u32 src;
	u32 dst;
	u32 backlog;
	u32 circuit_lanes;
	u64 age;
};

/**
 * struct ft_pairs - the pool of pairs of one fabric.
 * @cap: slots in the pool.
 * @nactive: pairs with messages waiting.
 * @nfree: slots on the free stack.
 * @hmask: hash buckets - 1 (a power of two).
 * @queued: messages waiting, all pairs.
 * @pair: the slots.
 * @hnext: per slot, the next slot in its hash chain.
 * @since: per slot, cycles completed when its pair began waiting (its
 *         demand's age).
 * @inj: per slot, RANDOM' state.
 * @active: active slots in activation order.
 * @free: free stack of slots.
 * @bucket: hash heads.
 * @off: the cycle's offers.
 * @off_circ: room for their circuits.
 * @off_slot: slot of each offer.
 * @noff: offers of the last cycle (in @off, with their delivered counts).
 * @noff_circ: their circuits (in @off_circ), or NULL when the fabric had
 *             none then.
 * @born: pairs between two leaves that came into the pool, ever (wraps;
 *        ft_pairs_unadd() takes one back): a scheduler's announcement of
 *        demand need not wait the interval for a new pair.
 */
struct ft_pairs {
	u32 cap;
	u32 nactive;
	u32 born;
	u32 noff;
	u32 nfree;
	u32 hmask;
	u64 queued;
	struct ft_pair *pair;
	u32 *hnext;
	u64 *since;
	struct ft_inject_pair *inj;
	u32 *active;
	u32 *free;
	u32 *bucket;
	struct ft_offer *off;
	struct ft_offer_circuit *off_circ;
	const struct ft_offer_circuit *noff_circ;
	u32 *off_slot;
	/*
	 * Per leaf, nonzero while its receiver cannot take more (the
	 * owner's array, n bytes, NULL if none ever holds), and how many
	 * hold: ft_pairs_hold().
	 */
	u8 *hold;
	u32 nhold;
};

/* Called for each pair that delivered messages in a cycle. */
typedef void (*ft_pairs_done_fn)(void *arg, u32 slot,
				 const struct ft_pair *p, u32 delivered);

u32 ft_pairs_max_msgs(const struct ft_topo *t);
u32 ft_pairs_pool_msgs(const struct ft_topo *t, u32 cap);
size_t ft_pairs_mem_size(u32 cap);
int ft_pairs_init(struct ft_pairs *q, u32 cap);
void ft_pairs_destroy(struct ft_pairs *q);
int ft_pairs_add(struct ft_pairs *q, u32 src, u32 dst, u32 tag, u32 count,
		 u64 now, u32 *slot);
void ft_pairs_unadd(struct ft_pairs *q, u32 src, u32 dst, u32 tag, u32 count);
int ft_pairs_cycle(struct ft_pairs *q, struct ft_fabric *f,
		   struct ft_circuits *circ, ft_pairs_done_fn done, void *arg,
		   struct ft_cycle_result *res);
bool ft_pairs_hold(struct ft_pairs *q, u32 dst, bool on);
u32 ft_pairs_demand(const struct ft_pairs *q, const struct ft_circuits *circ,
		    u32 ntags, u64 now, u32 *pos, struct ft_pairs_demand *out,
		    u32 max, u32 look);

#endif /* FT_PAIRS_H */
