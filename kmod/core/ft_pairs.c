// SPDX-License-Identifier: GPL-2.0
/*
 * The waiting messages of a fabric, per (source, destination) pair.
 */
#include "ft_pairs.h"

/*
 * How far ahead ft_pairs_offer_all() asks for a pair: its loop is short,
 * and a busy fabric's pairs are scattered over more than the caches hold.
 */
#define FT_PAIRS_AHEAD		(4 * FT_PREFETCH_AHEAD)

/* In @off_slot after a cycle: the offer drained its pair. */
#define FT_PAIRS_DRAINED	0x80000000U

static u32 ft_pairs_hash(const struct ft_pairs *q, u32 src, u32 dst, u32 tag)
{
	u32 x = src * 0x9e3779b1U ^ dst * 0x85ebca77U ^ tag * 0xc2b2ae3dU;

	x ^= x >> 15;
	x *= 0x2c1b3c6dU;
	x ^= x >> 12;
	return x & q->hmask;
}

static u32 ft_pairs_buckets(u32 cap)
{
	u32 b = 1;

	while (b < cap)
		b <<= 1;
	return b;
}

/**
 * ft_pairs_max_msgs() - contending messages one cycle should hold.
 * @t: topology.
 *
 * A few cycles' worth of what the leaves' up links can carry: enough for
 * a busy fabric. Kernel and userspace size the cycle with this, so a run
 * truncates its offers, if ever, identically on both sides.
 *
 * Return: the bound, at most FT_CYCLE_MAX_MSGS.
 */
u32 ft_pairs_max_msgs(const struct ft_topo *t)
{
	u64 per_cycle = (u64)t->n * t->w[1] * t->lanes[1];
	u64 v = per_cycle * 4 > 65536 ? per_cycle * 4 : 65536;

	return v < FT_CYCLE_MAX_MSGS ? (u32)v : FT_CYCLE_MAX_MSGS;
}

/**
 * ft_pairs_pool_msgs() - ft_pairs_max_msgs() for cycles fed by a pool.
 * @t: topology.
 * @cap: slots of the pool the cycles take their offers from.
 *
 * A pair offers at most a cycle's worth (w_1 * c_1; a circuit's lanes
 * are within c_1), so @cap pairs never offer more than @cap times that:
 * a small fabric's cycle need not hold more. A bound that @cap sets
 * truncates nothing, so a run still truncates, if ever, as one sized by
 * ft_pairs_max_msgs() does.
 *
 * Return: the bound, at most ft_pairs_max_msgs(@t).
 */
u32 ft_pairs_pool_msgs(const struct ft_topo *t, u32 cap)
{
	u64 v = (u64)cap * t->w[1] * t->lanes[1];

	return (u32)ft_min_u64(v, ft_pairs_max_msgs(t));
}

/**
 * ft_pairs_mem_size() - bytes ft_pairs_init() allocates for @cap pairs.
 * @cap: pool size.
 *
 * Return: the size, so a caller can refuse before allocating.
 */
size_t ft_pairs_mem_size(u32 cap)
{
	return (size_t)cap * (sizeof(struct ft_pair) + 4 * sizeof(u32) +
			      sizeof(u64) + sizeof(struct ft_inject_pair) +
			      sizeof(struct ft_offer) +
			      sizeof(struct ft_offer_circuit)) +
	       (size_t)ft_pairs_buckets(cap) * sizeof(u32);
}

/**
 * ft_pairs_init() - allocate an empty pool.
 * @q: pool.
 * @cap: most pairs with messages waiting at once, 1..FT_PAIRS_MAX.
 *
 * Return: 0, -FT_EINVAL or -FT_ENOMEM.
 */
int ft_pairs_init(struct ft_pairs *q, u32 cap)
{
	u32 i, nb;

	memset(q, 0, sizeof(*q));
	if (!cap || cap > FT_PAIRS_MAX)
		return -FT_EINVAL;
	nb = ft_pairs_buckets(cap);
	q->pair = ft_zalloc((size_t)cap * sizeof(*q->pair));
	q->hnext = ft_zalloc((size_t)cap * sizeof(u32));
	q->since = ft_zalloc((size_t)cap * sizeof(u64));
	q->inj = ft_zalloc((size_t)cap * sizeof(*q->inj));
	q->active = ft_zalloc((size_t)cap * sizeof(u32));
	q->free = ft_zalloc((size_t)cap * sizeof(u32));
	q->off_slot = ft_zalloc((size_t)cap * sizeof(u32));
	q->off = ft_zalloc((size_t)cap * sizeof(*q->off));
	q->off_circ = ft_zalloc((size_t)cap * sizeof(*q->off_circ));
	q->bucket = ft_zalloc((size_t)nb * sizeof(u32));
	if (!q->pair || !q->hnext || !q->since || !q->inj || !q->active ||
	    !q->free || !q->off_slot || !q->off || !q->off_circ ||
	    !q->bucket) {
		ft_pairs_destroy(q);
		return -FT_ENOMEM;
	}
	q->cap = cap;
	q->hmask = nb - 1;
	for (i = 0; i < nb; i++)
		q->bucket[i] = FT_PAIR_NONE;
	/* Lowest slots first, so slot numbers are reproducible too. */
	for (i = 0; i < cap; i++)
		q->free[i] = cap - 1 - i;
	q->nfree = cap;
	return 0;
}

/**
 * ft_pairs_destroy() - free a pool.
 * @q: pool; safe on a zeroed or destroyed one.
 */
void ft_pairs_destroy(struct ft_pairs *q)
{
	ft_free(q->pair);
	ft_free(q->hnext);
	ft_free(q->since);
	ft_free(q->inj);
	ft_free(q->active);
	ft_free(q->free);
	ft_free(q->off_slot);
	ft_free(q->off);
	ft_free(q->off_circ);
	ft_free(q->bucket);
	memset(q, 0, sizeof(*q));
}

static u32 ft_pairs_find(const struct ft_pairs *q, u32 src, u32 dst, u32 tag)
{
	u32 s = q->bucket[ft_pairs_hash(q, src, dst, tag)];

	while (s != FT_PAIR_NONE) {
		const struct ft_pair *p = &q->pair[s];

		if (p->src == src && p->dst == dst && p->tag == tag)
			return s;
		s = q->hnext[s];
	}
	return FT_PAIR_NONE;
}

/**
 * ft_pairs_add() - queue @count messages of (@src, @dst, @tag).
 * @q: pool.
 * @src: source leaf.
 * @dst: destination leaf.
 * @tag: flow.
 * @count: messages, >= 1.
 * @now: cycles completed (a new pair's demand starts aging here).
 * @slot: out (may be NULL): the pair's slot, stable while it is active.
 *
 * Never allocates. Return: 0; -FT_EINVAL when @tag is FT_PAIRS_TAGS or
 * more; -FT_ENOSPC when a new pair would not fit the pool; -FT_ERANGE
 * when the pair's count would overflow.
 */
int ft_pairs_add(struct ft_pairs *q, u32 src, u32 dst, u32 tag, u32 count,
		 u64 now, u32 *slot)
{
	struct ft_pair *p;
	u32 s, b;

	if (tag >= FT_PAIRS_TAGS)
		return -FT_EINVAL;
	s = ft_pairs_find(q, src, dst, tag);
	if (s == FT_PAIR_NONE) {
		if (!q->nfree)
			return -FT_ENOSPC;
		s = q->free[--q->nfree];
		p = &q->pair[s];
		*p = (struct ft_pair){ .src = src, .dst = dst,
				       .tag = (u16)tag };
		q->since[s] = now;
		memset(&q->inj[s], 0, sizeof(q->inj[s]));
		b = ft_pairs_hash(q, src, dst, tag);
		q->hnext[s] = q->bucket[b];
		q->bucket[b] = s;
		q->active[q->nactive++] = s;
		q->born += src != dst;
	}
	p = &q->pair[s];
	if (p->queued > 0xffffffffU - count)
		return -FT_ERANGE;
	p->queued += count;
	q->queued += count;
	if (slot)
		*slot = s;
	return 0;
}

static void ft_pairs_unhash(struct ft_pairs *q, u32 s)
{
	const struct ft_pair *p = &q->pair[s];
	u32 *link = &q->bucket[ft_pairs_hash(q, p->src, p->dst, p->tag)];

	while (*link != s)
		link = &q->hnext[*link];
	*link = q->hnext[s];
}

/**
 * ft_pairs_unadd() - take back an ft_pairs_add() that succeeded.
 * @q: pool.
 * @src: source leaf.
 * @dst: destination leaf.
 * @tag: flow.
 * @count: the messages it added.
 *
 * Taking back the adds of a batch in the reverse order restores the pool
 * exactly: a pair that an add took from the pool is then the newest
 * active one, and its slot goes back on top of the free stack. Between
 * cycles an active pair always holds messages, so a pair left empty is
 * one the add took.
 */
void ft_pairs_unadd(struct ft_pairs *q, u32 src, u32 dst, u32 tag, u32 count)
{
	u32 s = ft_pairs_find(q, src, dst, tag);
	struct ft_pair *p;

	if (ft_warn_on(s == FT_PAIR_NONE))
		return;
	p = &q->pair[s];
	p->queued -= count;
	q->queued -= count;
	if (p->queued)
		return;
	if (ft_warn_on(!q->nactive || q->active[q->nactive - 1] != s))
		return;
	ft_pairs_unhash(q, s);
	q->nactive--;
	q->free[q->nfree++] = s;
	q->born -= src != dst;
}

/* Slot @s of a drained pair back to the pool. */
static void ft_pairs_release(struct ft_pairs *q, u32 s)
{
	ft_pairs_unhash(q, s);
	q->free[q->nfree++] = s;
}

/*
 * Return drained pairs to the pool, keeping the others' order. Only an
 * offer drains a pair: the @noff offers follow the active order, and
 * those that drained theirs are marked FT_PAIRS_DRAINED in @off_slot
 * (cleared here), so the pairs themselves are not read again.
 */
static void ft_pairs_compact(struct ft_pairs *q, u32 noff)
{
	u32 i, n = 0, o = 0, s;

	for (i = 0; i < q->nactive; i++) {
		s = q->active[i];
		if (o < noff && (q->off_slot[o] & ~FT_PAIRS_DRAINED) == s) {
			if (q->off_slot[o++] & FT_PAIRS_DRAINED) {
				q->off_slot[o - 1] = s;
				ft_pairs_release(q, s);
				continue;
			}
		}
		q->active[n++] = s;
	}
	q->nactive = n;
}

/*
 * ft_pairs_compact() when every active pair made an offer (@noff is
 * @q->nactive: offer i is active slot i) and @got marks the offers that
 * delivered, among which those that drained their pairs: only those are
 * looked at, and the active slots between them move down a run at a time
 * instead of one by one.  The same pool after: the drained go back in
 * the same order.
 */
static void ft_pairs_compact_got(struct ft_pairs *q, const u64 *got,
				 u32 noff)
{
	u32 i, k, s, n = 0, from = 0;
	u64 bits;

	for (k = 0; k < noff; k += 64) {
		for (bits = got[k / 64]; bits; bits &= bits - 1) {
			i = k + ft_ctz64(bits);
			if (!(q->off_slot[i] & FT_PAIRS_DRAINED))
				continue;
			s = q->off_slot[i] & ~FT_PAIRS_DRAINED;
			q->off_slot[i] = s;
			memmove(&q->active[n], &q->active[from],
				(i - from) * sizeof(u32));
			n += i - from;
			from = i + 1;
			ft_pairs_release(q, s);
		}
	}
	memmove(&q->active[n], &q->active[from],
		(q->nactive - from) * sizeof(u32));
	q->nactive = n + q->nactive - from;
}

/*
 * What the injection rule draws of the queue of @p, whose RANDOM' state
 * is @inj (GREEDY: all of it).
 */
static u32 ft_pairs_draw(struct ft_fabric *f, const struct ft_pair *p,
			 struct ft_inject_pair *inj)
{
	u32 queued = ft_min_u32(p->queued, FT_INJECT_MAX_DRAWS);

	if (f->inject.rule == FT_INJECT_ALL)
		return queued;
	return ft_inject_offer(&f->inject, &f->rand, inj, queued);
}

/* The @i-th active slot; the pair a few places on is fetched meanwhile. */
static u32 ft_pairs_active(const struct ft_pairs *q, u32 i)
{
	if (i + FT_PREFETCH_AHEAD < q->nactive)
		ft_prefetchw(&q->pair[q->active[i + FT_PREFETCH_AHEAD]]);
	return q->active[i];
}

/*
 * Lanes of @c still free for an offer of its pair in the cycle after
 * @done cycles: one circuit serves every flow of the pair, so its lanes
 * are shared among their offers, never given twice.
 */
static u32 ft_pairs_circuit_left(struct ft_circuit *c, u64 done)
{
	if (c->left_cycle != done + 1) {
		c->left_cycle = done + 1;
		c->left = c->lanes;
	}
	return c->left;
}

/*
 * @p's common level H plus one, kept from its first offer on, once the
 * pair is known to lie within the fabric (else 0: the cycle's check of
 * the offers refuses the offer).
 */
static __always_inline u8 ft_pairs_level(struct ft_fabric *f,
					 struct ft_pair *p)
{
	if (!p->lca && p->src < f->topo.n && p->dst < f->topo.n)
		p->lca = (u8)(ft_cycle_common_level(&f->scratch, p->src,
						    p->dst) + 1);
	return p->lca;
}

/* ft_pairs_level() of a pair not offered yet, out of its caller's loop. */
static ft_noinline u8 ft_pairs_first_level(struct ft_fabric *f,
					   struct ft_pair *p)
{
	return ft_pairs_level(f, p);
}

/* @p's offer of @n messages, without a circuit. */
static __always_inline void ft_pairs_offer(struct ft_offer *o,
					   struct ft_fabric *f,
					   struct ft_pair *p, u32 n)
{
	*o = (struct ft_offer){ .src = p->src, .dst = p->dst, .count = n,
				.lca = ft_pairs_level(f, p) };
}

/*
 * The offers of GREEDY while no circuit exists: ft_pairs_cycle()'s loop
 * without a call per pair, a circuit lookup or the injection rule's
 * state, and with the pool's arrays in locals (the stores to the offers
 * may alias anything under the kernel's -fno-strict-aliasing).  Returns
 * the offers made; *@plain: each has its leaves in the fabric (its level
 * is known), so that the cycle need not check them again, nor lay them
 * out (ft_cycle_run_plain()) when @lay: their messages are laid out here.
 */
static __always_inline u32 ft_pairs_offer_each(struct ft_pairs *q,
					       struct ft_fabric *f,
					       u32 per_pair, u32 room,
					       bool *plain, bool lay)
{
	const u32 *active = q->active;
	struct ft_pair *pair = q->pair, *p;
	struct ft_offer *off = q->off;
	struct ft_cycle_msg *msg = f->scratch.msg;
	u32 *slot = q->off_slot;
	u32 i, s, n, noff = 0, nactive = q->nactive, nmsgs = 0;
	bool bad = false;

	for (i = 0; i < nactive && room; i++) {
		if (i + FT_PAIRS_AHEAD < nactive)
			ft_prefetchw(&pair[active[i + FT_PAIRS_AHEAD]]);
		s = active[i];
		p = &pair[s];
		n = ft_min_u32(ft_min_u32(p->queued, FT_INJECT_MAX_DRAWS),
			       ft_min_u32(per_pair, room));
		if (!n)
			continue;
		room -= n;
		ft_pairs_offer(&off[noff], f, p, n);
		bad |= !p->lca;
		if (lay)
			nmsgs = ft_cycle_lay(msg, nmsgs, &off[noff], noff, n,
					     p->lca - 1U);
		slot[noff++] = s;
	}
	f->scratch.nmsgs = nmsgs;
	*plain = !bad;
	return noff;
}

/*
 * ft_pairs_offer_each() laying the messages out (@lay), when the room
 * cannot run out before the last active pair (at least @cap messages per
 * pair): a busy cycle's usual loop, with neither the room nor the level
 * of every pair tested again.  Without @lay every offer is of one
 * message (@cap is 1), which the cycle lays out (FT_CYCLE_SINGLE).
 */
static __always_inline u32 ft_pairs_offer_roomy(struct ft_pairs *q,
						struct ft_fabric *f, u32 cap,
						bool *plain, bool lay)
{
	const u32 *active = q->active;
	struct ft_pair *pair = q->pair, *p;
	struct ft_offer *off = q->off;
	struct ft_cycle_msg *msg = f->scratch.msg;
	u32 *slot = q->off_slot;
	u32 i, s, n, noff = 0, nactive = q->nactive, nmsgs = 0;
	u32 ahead = nactive > FT_PAIRS_AHEAD ? nactive - FT_PAIRS_AHEAD : 0;
	u8 lca;
	bool bad = false;

	for (i = 0; i < nactive; i++) {
		if (i < ahead)
			ft_prefetchw(&pair[active[i + FT_PAIRS_AHEAD]]);
		s = active[i];
		p = &pair[s];
		n = ft_min_u32(p->queued, cap);
		if (!n)
			continue;
		lca = p->lca;
		if (!lca) {
			lca = ft_pairs_first_level(f, p);
			bad |= !lca;
		}
		off[noff] = (struct ft_offer){ .src = p->src, .dst = p->dst,
					       .count = n, .lca = lca };
		if (lay)
			nmsgs = ft_cycle_lay(msg, nmsgs, &off[noff], noff, n,
					     lca - 1U);
		slot[noff++] = s;
	}
	f->scratch.nmsgs = nmsgs;
	*plain = !bad;
	return noff;
}

static ft_noinline u32 ft_pairs_offer_roomy_laid(struct ft_pairs *q,
						 struct ft_fabric *f, u32 cap,
						 bool *plain)
{
	return ft_pairs_offer_roomy(q, f, cap, plain, true);
}

static ft_noinline u32 ft_pairs_offer_single(struct ft_pairs *q,
					     struct ft_fabric *f, bool *plain)
{
	return ft_pairs_offer_roomy(q, f, 1, plain, false);
}

/*
 * The copies of the loop, each a function of its own: inlined into
 * ft_pairs_cycle() they would share its registers, and the one that lays
 * the messages out is the loop of every busy cycle without circuits.
 * *@laid: what of the offers' messages was laid out, for
 * ft_fabric_cycle_plain().  Under dmodk (scheduled's too), while no link
 * has reserved lanes, offers of one message each are laid out by the
 * cycle as it ranks them (FT_CYCLE_SINGLE): each record is then written
 * once, not twice.
 */
static ft_noinline u32 ft_pairs_offer_laid(struct ft_pairs *q,
					   struct ft_fabric *f, u32 per_pair,
					   u32 room, bool *plain,
					   enum ft_cycle_laid *laid)
{
	u32 cap = ft_min_u32(per_pair, FT_INJECT_MAX_DRAWS);

	*laid = FT_CYCLE_LAID;
	if ((u64)q->nactive * cap > room)
		return ft_pairs_offer_each(q, f, per_pair, room, plain, true);
	if (cap == 1 && ft_path_default(f->cfg.path) == FT_PATH_DMODK &&
	    !f->lanes.nreserved) {
		*laid = FT_CYCLE_SINGLE;
		return ft_pairs_offer_single(q, f, plain);
	}
	return ft_pairs_offer_roomy_laid(q, f, cap, plain);
}

static ft_noinline u32 ft_pairs_offer_all(struct ft_pairs *q,
					  struct ft_fabric *f, u32 per_pair,
					  u32 room, bool *plain,
					  enum ft_cycle_laid *laid)
{
	*laid = FT_CYCLE_UNLAID;
	if (ft_cycle_plain(&f->cfg))
		return ft_pairs_offer_laid(q, f, per_pair, room, plain, laid);
	return ft_pairs_offer_each(q, f, per_pair, room, plain, false);
}

/*
 * Offer @i of the cycle delivered messages: its pair's queue and its
 * circuit's counters follow.  Returns 1 if that drained the pair.
 */
static u32 ft_pairs_settle(struct ft_pairs *q, struct ft_fabric *f,
			   struct ft_circuits *circ,
			   const struct ft_offer_circuit *oc,
			   ft_pairs_done_fn done, void *arg, u32 i)
{
	u32 s = q->off_slot[i], n = q->off[i].delivered;
	struct ft_pair *p = &q->pair[s];
	u32 drained = 0, b;

	if (oc && oc[i].lanes) {
		/* A circuit's messages go first: it carried these. */
		struct ft_circuit *c = ft_circuits_find(circ, p->src, p->dst);

		c->carried += ft_min_u32(n, oc[i].lanes);
		c->last_used = f->cycle;
	}
	p->queued -= n;
	q->queued -= n;
	if (!p->queued) {
		q->off_slot[i] |= FT_PAIRS_DRAINED;
		drained = 1;
		/* ft_pairs_compact() unhashes it: its chain, asked for now */
		b = ft_pairs_hash(q, p->src, p->dst, p->tag);
		ft_prefetchw(&q->bucket[b]);
		ft_prefetch(&q->hnext[s]);
	}
	if (done)
		done(arg, s, p, n);
	return drained;
}

/* Whether @p goes to a leaf that @hold marks as held. */
static bool ft_pairs_to_held(const struct ft_fabric *f, const struct ft_pair *p,
			     const u8 *hold)
{
	return p->dst < f->topo.n && hold[p->dst];
}

/* The messages waiting for held leaves. */
static ft_noinline u64 ft_pairs_held(const struct ft_pairs *q,
				     const struct ft_fabric *f, const u8 *hold)
{
	u64 held = 0;
	u32 i;

	for (i = 0; i < q->nactive; i++) {
		const struct ft_pair *p = &q->pair[q->active[i]];

		if (ft_pairs_to_held(f, p, hold))
			held += p->queued;
	}
	return held;
}

/**
 * ft_pairs_cycle() - run one delivery cycle over the waiting messages.
 * @q: pool.
 * @f: the fabric's engine state.
 * @circ: the fabric's circuits (may be NULL): each pair's circuit rides
 *        in its offer, and leases that end with this cycle are released.
 * @done: called per pair with its delivered count (may be NULL).
 * @arg: for @done.
 * @res: out, the cycle's totals.
 *
 * The injection rule decides each pair's offer, in activation order. A
 * pair never offers more than one cycle could carry out of its source
 * (w_1 * c_1, or its circuit's lanes if more), and the cycle never holds
 * more than the scratch's messages: pairs past that wait for the next
 * cycle. Messages the rule drew beyond what a pair offers are blocked at
 * their source (RANDOM': their slot of the pass is used). Pairs to a
 * held leaf (ft_pairs_hold()) neither offer nor draw, and the injection
 * rule's schedule does not count their messages: to it they have not
 * been sent yet. Atomic context safe.
 *
 * Return: 0, or the error of ft_fabric_cycle() (no cycle then).
 */
int ft_pairs_cycle(struct ft_pairs *q, struct ft_fabric *f,
		   struct ft_circuits *circ, ft_pairs_done_fn done, void *arg,
		   struct ft_cycle_result *res)
{
	u32 room = f->scratch.max_msgs;
	u32 per_pair = f->topo.w[1] * f->topo.lanes[1];
	u32 i, noff = 0, drained = 0;
	u64 bits;
	/* The offers' circuits, while the fabric has any. */
	struct ft_offer_circuit *oc = circ && circ->n ? q->off_circ : NULL;
	/* Only RANDOM' keeps state per pair (ft_inject_pair_done()). */
	bool keep = f->inject.rule == FT_INJECT_RANDOM_PRIME;
	/* GREEDY with no circuit at all: the short loop */
	bool greedy = f->inject.rule == FT_INJECT_ALL && (!circ || !circ->n);
	/* Held leaves, while any is: the loop below skips their pairs. */
	const u8 *hold = q->nhold ? q->hold : NULL;
	/* GREEDY with nothing held: no loop here. */
	bool short_loop = greedy && !hold;
	bool plain = false;
	enum ft_cycle_laid laid = FT_CYCLE_UNLAID;
	u64 held = hold ? ft_pairs_held(q, f, hold) : 0;
	int err;

	ft_inject_begin(&f->inject, q->queued - held);
	if (short_loop)
		noff = ft_pairs_offer_all(q, f, per_pair, room, &plain,
					  &laid);
	for (i = 0; !short_loop && i < q->nactive && room; i++) {
		u32 s = ft_pairs_active(q, i);
		struct ft_pair *p = &q->pair[s];
		struct ft_circuit *c;
		u32 cap, drawn, n, clanes;

		if (hold && ft_pairs_to_held(f, p, hold))
			continue;
		/* No lookup while the table is empty (no circuits at all). */
		c = circ && circ->n ? ft_circuits_find(circ, p->src, p->dst) :
				      NULL;
		cap = c ? ft_max_u32(per_pair, c->lanes) : per_pair;
		/*
		 * Every waiting message draws (RANDOM: its coin, RANDOM': its
		 * slot), not only the @cap a cycle can carry: drawing among
		 * those alone would let a pair's later messages wait for a
		 * later pass of RANDOM' and lower RANDOM's per-message
		 * probability. Those drawn beyond what goes out are blocked
		 * at the source, as its channel would block them.
		 */
		drawn = ft_pairs_draw(f, p, &q->inj[s]);
		n = ft_min_u32(ft_min_u32(drawn, cap), room);
		clanes = c ? ft_pairs_circuit_left(c, f->cycle) : 0;

		if (keep)
			ft_inject_pair_done(&f->inject, &q->inj[s], drawn - n,
					    0);
		if (!n)
			continue;
		room -= n;
		ft_pairs_offer(&q->off[noff], f, p, n);
		if (oc)
			oc[noff] = (struct ft_offer_circuit){
				.lanes = clanes, .path = clanes ? &c->path : NULL,
			};
		if (clanes)
			c->left -= ft_min_u32(n, clanes);
		q->off_slot[noff++] = s;
	}
	q->noff = 0;
	if (plain)
		err = ft_fabric_cycle_plain(f, q->off, noff, res, laid);
	else
		err = ft_fabric_cycle(f, q->off, oc, noff, res);
	if (err)
		return err;
	res->held = (u32)ft_min_u64(held, 0xffffffffU);
	q->noff = noff;
	q->noff_circ = oc;
	if (!keep && f->scratch.got_n == noff) {
		/* Most offers of a busy cycle deliver nothing: not read. */
		for (i = 0; i < noff; i += 64)
			for (bits = f->scratch.got[i / 64]; bits;
			     bits &= bits - 1)
				drained += ft_pairs_settle(q, f, circ, oc, done,
							   arg, i + ft_ctz64(bits));
	} else {
		for (i = 0; i < noff; i++) {
			if (keep)
				ft_inject_pair_done(&f->inject,
						    &q->inj[q->off_slot[i]],
						    q->off[i].count,
						    q->off[i].delivered);
			if (q->off[i].delivered)
				drained += ft_pairs_settle(q, f, circ, oc,
							   done, arg, i);
		}
	}
	ft_inject_end(&f->inject);
	if (drained && !keep && f->scratch.got_n == noff &&
	    noff == q->nactive)
		ft_pairs_compact_got(q, f->scratch.got, noff);
	else if (drained)
		ft_pairs_compact(q, noff);
	/* A lease of L cycles serves L cycles: it ends with the L-th. */
	if (circ)
		ft_circuits_expire(circ, &f->lanes, f->cycle);
	return 0;
}

/**
 * ft_pairs_hold() - hold or release the messages to a leaf.
 * @q: pool, with its @hold array set.
 * @dst: the leaf, below the array's length.
 * @on: true while its receiver cannot take more.
 *
 * A held leaf's pairs offer nothing: their messages wait at their
 * sources, as a lossless interconnect's credits would keep them, until
 * the leaf is released.  While any leaf is held the cycle takes its
 * general loop, the only one that looks.
 *
 * Return: true when the leaf's state changed.
 */
bool ft_pairs_hold(struct ft_pairs *q, u32 dst, bool on)
{
	if (!q->hold || !!q->hold[dst] == on)
		return false;
	q->hold[dst] = on;
	if (on)
		q->nhold++;
	else
		q->nhold--;
	return true;
}

/**
 * ft_pairs_demand() - list pairs in demand, a batch at a time.
 * @q: pool.
 * @circ: the fabric's circuits (may be NULL).
 * @ntags: the flows a pair may have (tags 0..@ntags-1), counted together.
 * @now: cycles completed.
 * @pos: in/out: where in the active list to go on from (start at 0).
 * @out: entries.
 * @max: room in @out.
 * @look: most active pairs to look at: the caller's bound on one call's
 *	work, whether the pairs turn out to be in demand or not.
 *
 * A (source, destination) pair is in demand when it has messages waiting
 * and no circuit, or more messages than its circuit carries in one
 * cycle. It is listed once, at its lowest tag, with the backlog of all
 * its flows and the age of the oldest. A leaf's messages to itself never
 * are: they cross no link and need no circuit (a scheduler asking for
 * one would have its whole batch refused).
 *
 * Return: entries written; *@pos == q->nactive at the end, else @max
 * entries were written or @look pairs looked at (then perhaps none).
 */
u32 ft_pairs_demand(const struct ft_pairs *q, const struct ft_circuits *circ,
		    u32 ntags, u64 now, u32 *pos, struct ft_pairs_demand *out,
		    u32 max, u32 look)
{
	u32 n = 0, t, s;

	for (; *pos < q->nactive && n < max && look; (*pos)++, look--) {
		const struct ft_pair *p = &q->pair[q->active[*pos]];
		const struct ft_circuit *c;
		u64 backlog = p->queued, since = q->since[q->active[*pos]];
		bool first = true;

		if (p->src == p->dst)
			continue;
		for (t = 0; t < ntags && first; t++) {
			if (t == p->tag)
				continue;
			s = ft_pairs_find(q, p->src, p->dst, t);
			if (s == FT_PAIR_NONE)
				continue;
			if (t < p->tag)
				first = false;	/* listed with that flow */
			backlog += q->pair[s].queued;
			since = ft_min_u64(since, q->since[s]);
		}
		c = circ ? ft_circuits_find(circ, p->src, p->dst) : NULL;
		if (!first || backlog <= (c ? c->lanes : 0))
			continue;
		out[n++] = (struct ft_pairs_demand){
			.src = p->src, .dst = p->dst,
			.backlog = (u32)ft_min_u64(backlog, 0xffffffffU),
			.circuit_lanes = c ? c->lanes : 0, .age = now - since,
		};
	}
	return n;
}
