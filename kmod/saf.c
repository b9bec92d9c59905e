// SPDX-License-Identifier: GPL-2.0
/*
 * fattree: store-and-forward fabrics (seed 001).
 *
 * A fabric created in mode saf moves its messages with the engine core's
 * ft_saf (core/ft_saf.h) instead of ft_pairs_cycle(): one ft_saf_step()
 * per delivery cycle, each message one hop per step through edge queues
 * of at most q packets. A leaf's transmit adds the skb to the engine
 * (its cookie), orphaned and scrubbed as in cycle mode (leaf.c); a pool
 * of n * backlog entries (at most FT_SAF_MAX_PKTS) bounds what the engine
 * holds, and a transmit that finds it full stops the leaf's queue until a
 * batch completes and frees its entries. Synthetic messages are entries without an skb.
 * A packet that reaches a leaf whose receive queue is at its mark leaves
 * the engine for the leaf's wait list, its source's backlog still taken,
 * so each leaf's backlog bound (n * backlog in all) bounds what waits.
 *
 * Order per (source, destination) pair: ranks are drawn per pair, so the
 * random-rank discipline delivers a pair's packets in the order they were
 * sent. FIFO and farthest-first may let a packet overtake another of its
 * pair (lanes, chains, random paths), so their deliveries are held and
 * released in each source's forwarding order, which keeps every pair's.
 *
 * Without ghosts a batch may stall for good (the paper's nodes wait for
 * every input); the kernel then turns ghosts on until that batch is over
 * (counted as a rescue), which no stalled state resists.
 */
#include <linux/netdevice.h>
#include <linux/skbuff.h>
#include <linux/slab.h>

#include "fattree.h"
#include "trace.h"

static_assert((int)FATTREE_SAF_DISCIPLINE_RANK == (int)FT_SAF_RANK);
static_assert((int)FATTREE_SAF_DISCIPLINE_FIFO == (int)FT_SAF_FIFO);
static_assert((int)FATTREE_SAF_DISCIPLINE_FARTHEST == (int)FT_SAF_FARTHEST);
static_assert(FATTREE_SAF_MAX_Q == FT_SAF_MAX_Q);

/* What a step's delivery callback works with. */
struct ft_fab_saf_ctx {
	struct ft_fab *fab;
	struct sk_buff_head *out;
	u32 mark;		/* ft_leaf_rx_mark() */
	u32 delivered;		/* messages that left the fabric */
};

static enum ft_saf_path ft_fab_saf_path(enum fattree_path path)
{
	switch (path) {
	case FATTREE_PATH_RANDOM:
		return FT_SAF_PATH_RANDOM;
	case FATTREE_PATH_FIRSTFREE:
		return FT_SAF_PATH_FIRSTFREE;
	default:
		return FT_SAF_PATH_DMODK;
	}
}

static void ft_fab_saf_params(struct ft_saf_params *sp,
			      const struct ft_fab_params *p, u32 n)
{
	memset(sp, 0, sizeof(*sp));
	sp->q = p->saf_q;
	sp->discipline = (enum ft_saf_discipline)p->saf_discipline;
	sp->path = ft_fab_saf_path(p->path);
	sp->ranks = FT_SAF_RANKS_PAIR;
	sp->ghosts = p->saf_ghosts;
	sp->picks = 0;		/* a switch forwards on all its edges */
	sp->rank_range = 0;	/* the largest */
	sp->max_pkts = min_t(u64, (u64)n * p->backlog, FT_SAF_MAX_PKTS);
	sp->seed = p->core.seed;
}

/**
 * ft_fab_saf_mem() - bytes a store-and-forward engine of this shape takes.
 * @t: topology.
 * @p: fabric parameters (q, discipline, ghosts, backlog).
 *
 * Return: the bytes, or 0 if the leveled network is past the engine's
 * bounds or the parameters are invalid.
 */
u64 ft_fab_saf_mem(const struct ft_topo *t, const struct ft_fab_params *p)
{
	struct ft_saf_params sp;
	size_t sz;

	ft_fab_saf_params(&sp, p, t->n);
	sz = ft_saf_mem_size(t, &sp);
	if (!sz)
		return 0;
	return sz + sizeof(struct ft_fab_saf) + sp.max_pkts +
	       (u64)t->n * sizeof(u32);
}

static void ft_fab_saf_release_mem(struct ft_fab_saf *sf)
{
	kvfree(sf->mem);
	kvfree(sf->held);
	kvfree(sf->released);
	kfree(sf);
}

/* Build @fab's engine on its topology; process context, may sleep. */
int ft_fab_saf_init(struct ft_fab *fab, const struct ft_fab_params *p)
{
	struct ft_saf_params sp;
	struct ft_fab_saf *sf;
	size_t sz;
	int err;

	ft_fab_saf_params(&sp, p, fab->n);
	sz = ft_saf_mem_size(&fab->eng.topo, &sp);
	if (!sz)
		return -E2BIG;
	sf = kzalloc(sizeof(*sf), FT_GFP_FABRIC);
	if (!sf)
		return -ENOMEM;
	sf->mem = kvzalloc(sz, FT_GFP_FABRIC);
	sf->held = kvzalloc(sp.max_pkts, FT_GFP_FABRIC);
	sf->released = kvcalloc(fab->n, sizeof(u32), FT_GFP_FABRIC);
	err = -ENOMEM;
	if (!sf->mem || !sf->held || !sf->released)
		goto fail;
	err = ft_saf_init(&sf->eng, &fab->eng.topo, &sp, sf->mem, sz);
	if (err)
		goto fail;
	sf->ghosts = sp.ghosts;
	INIT_LIST_HEAD(&sf->waiting);
	fab->saf = sf;
	return 0;
fail:
	ft_fab_saf_release_mem(sf);
	return err;
}

void ft_fab_saf_free(struct ft_fab *fab)
{
	if (!fab->saf)
		return;
	WARN_ON_ONCE(!list_empty(&fab->saf->waiting));
	ft_fab_saf_release_mem(fab->saf);
	fab->saf = NULL;
}

/*
 * A leaf's transmit, under the fabric's lock: add @skb for the next batch.
 * When the pool is (now) full the leaf stops until a batch frees room (if
 * @stop: a leaf without a qdisc never stops); -ENOSPC means the skb was
 * not taken, nor detached from its sender (the caller answers
 * NETDEV_TX_BUSY and the qdisc keeps it, or drops it).
 */
int ft_fab_saf_xmit(struct ft_fab *fab, struct ft_leaf *leaf, u32 dst,
		    struct sk_buff *skb, bool stop)
{
	struct ft_fab_saf *sf = fab->saf;
	int err = -ENOSPC;

	if (sf->eng.nfree) {
		ft_leaf_detach(skb);
		err = ft_saf_add(&sf->eng, leaf->index, dst,
				 (u64)(uintptr_t)skb, NULL);
	}
	if (stop && (err == -ENOSPC || (!err && !sf->eng.nfree))) {
		netif_stop_queue(leaf->dev);
		if (!leaf->pool_wait) {
			leaf->pool_wait = true;
			sf->pool_waiters++;
		}
	}
	if (err == -ENOSPC)
		sf->busy++;
	if (err)
		return err;
	ft_skb_cb(skb)->cycle = fab->eng.cycle;
	sf->queued++;
	return 0;
}

/* A message leaves the fabric, from @src to @dst: counted. */
static void ft_fab_saf_count(struct ft_fab_saf_ctx *c, struct ft_leaf *src,
			     struct ft_leaf *dst)
{
	src->st.sent++;
	dst->st.delivered++;
	c->fab->st.delivered++;
	c->fab->saf->queued--;
	c->delivered++;
}

/*
 * @skb leaves the fabric: it goes on @c->out for its destination leaf
 * (handed over once the lock is dropped), and its source has room again.
 * Its latency counts the cycles it waited for its receiver too.
 */
static void ft_fab_saf_hand(struct ft_fab_saf_ctx *c, struct sk_buff *skb)
{
	struct ft_fab *fab = c->fab;
	struct ft_skb_cb *cb = ft_skb_cb(skb);
	struct ft_leaf *src = fab->leaf[cb->src];
	struct ft_leaf *dst = fab->leaf[cb->dst];
	u64 waited = fab->eng.cycle + 1 - cb->cycle;

	ft_fab_saf_count(c, src, dst);
	dst->st.latency[ft_latency_bucket(waited)]++;
	trace_fattree_deliver(fab, cb->src, cb->dst, waited, skb->len);
	src->st.bytes_sent += skb->len;
	dst->st.bytes_delivered += skb->len;
	dst->rx_handed++;
	src->backlog--;
	__skb_queue_tail(c->out, skb);
	ft_leaf_wake(src);
}

/*
 * Whether @dst's receive queue has room for one more this cycle: what it
 * holds and what this cycle has handed it stay below its mark, which
 * leaves room for control frames. Its poller may be taking the queue
 * down meanwhile: the room is then larger than seen, never smaller.
 */
static bool ft_fab_saf_room(const struct ft_fab_saf_ctx *c,
			    const struct ft_leaf *dst)
{
	return skb_queue_len_lockless(&dst->rxq) + dst->rx_handed < c->mark;
}

/* @skb waits on @dst's list: its receiver is behind. */
static void ft_fab_saf_wait(struct ft_fab_saf *sf, struct ft_leaf *dst,
			    struct sk_buff *skb)
{
	if (skb_queue_empty(&dst->rx_wait)) {
		list_add_tail(&dst->rx_wait_node, &sf->waiting);
		dst->st.rx_holds++;
	}
	__skb_queue_tail(&dst->rx_wait, skb);
	sf->nwaiting++;
}

/*
 * Packet @p reached its sink and leaves the engine. If its receiver is
 * behind (no room in its queue, or its earlier messages still wait), it
 * waits in the fabric rather than be dropped at a full queue: its
 * source's backlog stays taken, so back-pressure reaches the sender, as
 * the cycle mode's hold does (ft_pairs_hold()).
 */
static void ft_fab_saf_release(struct ft_fab_saf_ctx *c,
			       const struct ft_saf_pkt *p)
{
	struct ft_fab *fab = c->fab;
	struct ft_leaf *dst = fab->leaf[p->dst];
	struct sk_buff *skb = (struct sk_buff *)(uintptr_t)p->cookie;

	if (!skb) {
		ft_fab_saf_count(c, fab->leaf[p->src], dst);
		fab->st.synth_delivered++;
		return;
	}
	ft_skb_cb(skb)->src = p->src;
	ft_skb_cb(skb)->dst = p->dst;
	if (skb_queue_empty(&dst->rx_wait) && ft_fab_saf_room(c, dst))
		ft_fab_saf_hand(c, skb);
	else
		ft_fab_saf_wait(fab->saf, dst, skb);
}

/*
 * At the start of a cycle: each leaf's waiting messages go, in order,
 * while its queue has room; a leaf with none left leaves the list.
 */
static void ft_fab_saf_unwait(struct ft_fab_saf_ctx *c)
{
	struct ft_fab_saf *sf = c->fab->saf;
	struct ft_leaf *dst, *tmp;

	list_for_each_entry_safe(dst, tmp, &sf->waiting, rx_wait_node) {
		while (!skb_queue_empty(&dst->rx_wait) &&
		       ft_fab_saf_room(c, dst)) {
			ft_fab_saf_hand(c, __skb_dequeue(&dst->rx_wait));
			sf->nwaiting--;
		}
		if (skb_queue_empty(&dst->rx_wait))
			list_del_init(&dst->rx_wait_node);
	}
}

/* The end of a cycle: the handed counts of the leaves handed to, to 0. */
static void ft_fab_saf_handed_reset(struct ft_fab_saf_ctx *c)
{
	struct sk_buff *skb;

	skb_queue_walk(c->out, skb)
		c->fab->leaf[ft_skb_cb(skb)->dst]->rx_handed = 0;
}

/*
 * Core callback, under the fabric's lock: packet @p reached its final
 * queue. Under the random-rank discipline it leaves at once; otherwise it
 * waits for every packet before it in its source's initial queue.
 */
static void ft_fab_saf_delivered(void *arg, const struct ft_saf_pkt *p,
				 u32 steps)
{
	struct ft_fab_saf_ctx *c = arg;
	struct ft_fab_saf *sf = c->fab->saf;
	struct ft_saf *s = &sf->eng;
	u32 src = p->src, pos, end, pi;

	if (s->p.discipline == FT_SAF_RANK) {
		ft_fab_saf_release(c, p);
		return;
	}
	sf->held[p - s->pkt] = 1;
	pos = s->leaf_off[src] + sf->released[src];
	end = s->leaf_off[src + 1];
	while (pos < end && sf->held[s->batch[pos]]) {
		pi = s->batch[pos++];
		sf->held[pi] = 0;
		sf->released[src]++;
		ft_fab_saf_release(c, &s->pkt[pi]);
	}
}

/* A batch completed: every packet has left; its entries are free again. */
static void ft_fab_saf_batch_done(struct ft_fab *fab)
{
	struct ft_fab_saf *sf = fab->saf;
	struct ft_saf *s = &sf->eng;
	u32 l;

	/* The links' totals, batch by batch (chains are no links). */
	for (l = 0; l < s->nlinks; l++)
		if (s->link[l].dlink != FT_SAF_CHAIN)
			fab->eng.stats[s->link[l].dlink].carried += s->carried[l];
	memset(sf->released, 0, (size_t)fab->n * sizeof(u32));
	s->p.ghosts = sf->ghosts;
}

/* Wake the leaves that wait for pool entries, if there are some now. */
static void ft_fab_saf_wake_pool(struct ft_fab *fab)
{
	struct ft_fab_saf *sf = fab->saf;
	struct ft_leaf *leaf;
	u32 i;

	if (!sf->pool_waiters || !sf->eng.nfree)
		return;
	for (i = 0; i < fab->n; i++) {
		leaf = fab->leaf[i];
		if (!leaf || !leaf->pool_wait)
			continue;
		leaf->pool_wait = false;
		ft_leaf_wake(leaf);
	}
	sf->pool_waiters = 0;
}

/*
 * One delivery cycle of a store-and-forward fabric: one step of the whole
 * leveled network. Under the fabric's lock; delivered packets go on @out.
 */
u32 ft_fab_saf_cycle(struct ft_fab *fab, struct sk_buff_head *out)
{
	struct ft_fab_saf_ctx c = {
		.fab = fab, .out = out, .mark = ft_leaf_rx_mark(fab),
	};
	struct ft_fab_saf *sf = fab->saf;
	struct ft_saf_step_result res;

	if (!list_empty(&sf->waiting))
		ft_fab_saf_unwait(&c);
	ft_saf_step(&sf->eng, ft_fab_saf_delivered, &c, &res);
	fab->eng.cycle++;
	if (res.stalled && sf->eng.p.discipline == FT_SAF_RANK &&
	    !sf->eng.p.ghosts) {
		/* A fixpoint without ghosts: ghosts end it (Lemma 2.2). */
		sf->eng.p.ghosts = 1;
		sf->rescues++;
	}
	if (res.done)
		ft_fab_saf_batch_done(fab);
	if (c.delivered && !sf->queued)
		fab->st.drained_cycle = fab->eng.cycle;
	ft_fab_saf_handed_reset(&c);
	ft_fab_saf_wake_pool(fab);
	return c.delivered;
}

/*
 * Messages an inject adds per hold of the fabric's lock: the pool holds up
 * to 2^23, which in one hold kept the lock, bottom halves off, for 0.5 s
 * under emulation, a leaf's stats reader waiting as long; in chunks of
 * this size, 19 ms at most (tools/bench/saf_hold.sh).
 */
#define FT_SAF_INJECT_CHUNK	8192

/*
 * Synthetic messages, all or nothing: refused unless the pool has room
 * for them all, whose entries are then reserved, and added
 * FT_SAF_INJECT_CHUNK at a time. Called and returning with the fabric's
 * lock held, which it lets go between chunks: a transmit meanwhile finds
 * the pool without the reserved entries (ft_saf_add() does not take
 * them, and nfree does not count them), and a cycle may start a batch
 * with the first chunks, as if they had come in requests of their own.
 * Process context; every request holds its namespace's ft_net_lock(), so
 * the fabric is not torn down meanwhile.
 */
int ft_fab_saf_inject(struct ft_fab *fab, const struct fattree_inject_row *rows,
		      u32 nrows, struct netlink_ext_ack *extack)
{
	struct ft_fab_saf *sf = fab->saf;
	u32 i, k, left, chunk = 0;
	u64 total = 0;
	int err;

	for (i = 0; i < nrows; i++)
		total += rows[i].count;
	if (total > sf->eng.nfree) {
		NL_SET_ERR_MSG_MOD(extack,
				   "more synthetic messages than the fabric's store-and-forward pool has room for now");
		return -ENOSPC;
	}
	left = (u32)total;
	err = ft_saf_reserve(&sf->eng, left);
	if (WARN_ON_ONCE(err))
		return err;
	for (i = 0; i < nrows; i++) {
		for (k = 0; k < rows[i].count; k++) {
			if (++chunk > FT_SAF_INJECT_CHUNK) {
				/* (the pause: ft_engine_saf_prepare()) */
				spin_unlock_bh(&fab->lock);
				cond_resched();
				cpu_relax();
				spin_lock_bh(&fab->lock);
				chunk = 1;
			}
			err = ft_saf_add_reserved(&sf->eng, rows[i].src,
						  rows[i].dst, 0, NULL);
			if (WARN_ON_ONCE(err)) {
				ft_saf_unreserve(&sf->eng, left);
				return err;
			}
			left--;
			sf->queued++;
			fab->st.synth_queued++;
		}
	}
	return 0;
}

/* Teardown: @skb from leaf @src goes on the dead list, counted. */
static void ft_fab_saf_drop_skb(struct ft_fab_saf_ctx *c, u32 src,
				struct sk_buff *skb)
{
	struct ft_leaf *leaf = c->fab->leaf[src];

	if (leaf) {
		ft_leaf_drop(leaf, FT_DROP_TEARDOWN, 1);
		leaf->backlog--;
	}
	__skb_queue_tail(c->out, skb);
}

/* Teardown: a packet still in the engine goes on the dead list. */
static void ft_fab_saf_dropped(void *arg, const struct ft_saf_pkt *p,
			       u32 steps)
{
	struct sk_buff *skb = (struct sk_buff *)(uintptr_t)p->cookie;

	if (skb)
		ft_fab_saf_drop_skb(arg, p->src, skb);
}

/*
 * Empty the engine (the fabric is going): every skb it holds, queued, in
 * flight, held for order or waiting for its receiver, goes on @dead.
 * Under the fabric's lock.
 */
void ft_fab_saf_drop_all(struct ft_fab *fab, struct sk_buff_head *dead)
{
	struct ft_fab_saf_ctx c = { .fab = fab, .out = dead };
	struct ft_fab_saf *sf = fab->saf;
	struct ft_saf *s = &sf->eng;
	struct ft_leaf *dst, *tmp;
	struct sk_buff *skb;
	u32 i;

	for (i = 0; i < s->p.max_pkts; i++) {
		if (!sf->held[i])
			continue;
		sf->held[i] = 0;
		ft_fab_saf_dropped(&c, &s->pkt[i], 0);
	}
	ft_saf_flush(s, ft_fab_saf_dropped, &c);
	list_for_each_entry_safe(dst, tmp, &sf->waiting, rx_wait_node) {
		while ((skb = __skb_dequeue(&dst->rx_wait)))
			ft_fab_saf_drop_skb(&c, ft_skb_cb(skb)->src, skb);
		list_del_init(&dst->rx_wait_node);
	}
	sf->nwaiting = 0;
	memset(sf->released, 0, (size_t)fab->n * sizeof(u32));
	s->p.ghosts = sf->ghosts;
	sf->queued = 0;
}

/*
 * Change the discipline and ghosts (either may be NULL): only between
 * batches with no message in the fabric, so no batch changes its rules
 * midway (under the rank discipline a batch ends a few steps after its
 * last delivery, when every sink has its end-of-stream token). Takes the
 * locks.
 */
int ft_fab_saf_set(struct ft_fab *fab, const u32 *discipline, const u32 *ghosts,
		   struct netlink_ext_ack *extack)
{
	struct ft_fab_saf *sf = fab->saf;
	int err = 0;

	mutex_lock(&fab->step_lock);
	spin_lock_bh(&fab->lock);
	if (sf->queued || sf->eng.running || sf->eng.npend) {
		NL_SET_ERR_MSG_MOD(extack,
				   "the discipline and ghosts change only while the fabric holds no message and no batch is in flight (step until it ends, and until the receivers have taken what waits for them)");
		err = -EBUSY;
	} else {
		if (discipline)
			sf->eng.p.discipline = (enum ft_saf_discipline)*discipline;
		if (ghosts)
			sf->ghosts = *ghosts;
		sf->eng.p.ghosts = sf->ghosts;
	}
	spin_unlock_bh(&fab->lock);
	mutex_unlock(&fab->step_lock);
	return err;
}

/*
 * Path choice and seed (FABRIC_SET); under the fabric's lock. Any path is
 * valid midway through a batch: the next packets to climb follow the new
 * rule.
 */
void ft_fab_saf_configure(struct ft_fab *fab, enum fattree_path path, u64 seed)
{
	struct ft_fab_saf *sf = fab->saf;

	sf->eng.p.path = ft_fab_saf_path(path);
	if (seed != fab->seed)
		ft_rand_seed(&sf->eng.rand, seed);
}
