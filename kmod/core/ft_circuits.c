// SPDX-License-Identifier: GPL-2.0
/*
 * The circuit table of a fabric: admission all or nothing, deletion,
 * leases.
 *
 * Slots come from a free stack (lowest first), are found by a hash of
 * (src, dst) with chains through @hnext, and are listed in @active. A
 * batch is admitted in three passes, each in request order:
 *
 *   1. every request well formed (-FT_EINVAL);
 *   2. no duplicate pair, room in the table (-FT_EEXIST, -FT_ENOSPC):
 *      each request takes the next free slot and is hashed there, so a
 *      later request of the same pair finds it;
 *   3. lanes reserved path by path (-FT_ENOSPC).
 *
 * The first pass that fails names its first offending request and undoes
 * passes 2 and 3 in reverse order, which restores the lanes, the hash
 * chains, the free stack and the slots exactly. Only then are the
 * circuits listed in @active.
 */
#include "ft_circuits.h"
#include "ft_fail.h"

/* Set in @where while ft_circuits_del() holds a circuit for deletion. */
#define FT_CIRCUITS_MARK	0x80000000U

static u32 ft_circuits_hash(const struct ft_circuits *cs, u32 src, u32 dst)
{
	u32 x = src * 0x9e3779b1U ^ dst * 0x85ebca77U;

	x ^= x >> 15;
	x *= 0x2c1b3c6dU;
	x ^= x >> 12;
	return x & cs->hmask;
}

static u32 ft_circuits_buckets(u32 cap)
{
	u32 b = 1;

	while (b < cap)
		b <<= 1;
	return b;
}

/**
 * ft_circuits_mem_size() - bytes ft_circuits_init() allocates.
 * @cap: slots, 1..FT_CIRCUITS_MAX.
 *
 * Return: the size, so a caller can refuse before allocating; (size_t)-1
 * when @cap is above FT_CIRCUITS_MAX.
 */
size_t ft_circuits_mem_size(u32 cap)
{
	if (cap > FT_CIRCUITS_MAX)
		return (size_t)-1;
	return (size_t)cap * (sizeof(struct ft_circuit) + 3 * sizeof(u32)) +
	       (size_t)ft_circuits_buckets(cap) * sizeof(u32);
}

/**
 * ft_circuits_init() - allocate an empty table.
 * @cs: table.
 * @cap: most circuits at once, 1..FT_CIRCUITS_MAX.
 *
 * May sleep (kernel): call at fabric creation. Nothing allocates later.
 *
 * Return: 0, -FT_EINVAL or -FT_ENOMEM.
 */
int ft_circuits_init(struct ft_circuits *cs, u32 cap)
{
	u32 i, nb;

	memset(cs, 0, sizeof(*cs));
	if (!cap || cap > FT_CIRCUITS_MAX)
		return -FT_EINVAL;
	nb = ft_circuits_buckets(cap);
	cs->c = ft_zalloc((size_t)cap * sizeof(*cs->c));
	cs->bucket = ft_zalloc((size_t)nb * sizeof(u32));
	cs->active = ft_zalloc((size_t)cap * sizeof(u32));
	cs->where = ft_zalloc((size_t)cap * sizeof(u32));
	cs->free = ft_zalloc((size_t)cap * sizeof(u32));
	if (!cs->c || !cs->bucket || !cs->active || !cs->where || !cs->free) {
		ft_circuits_destroy(cs);
		return -FT_ENOMEM;
	}
	cs->cap = cap;
	cs->hmask = nb - 1;
	for (i = 0; i < nb; i++)
		cs->bucket[i] = FT_CIRCUIT_NONE;
	for (i = 0; i < cap; i++) {
		cs->active[i] = FT_CIRCUIT_NONE;
		cs->where[i] = FT_CIRCUIT_NONE;
		cs->c[i].hnext = FT_CIRCUIT_NONE;
		/* Lowest slots first, so slot numbers are reproducible. */
		cs->free[i] = cap - 1 - i;
	}
	cs->nfree = cap;
	return 0;
}

/**
 * ft_circuits_destroy() - free a table without releasing lanes.
 * @cs: table; safe on a zeroed or destroyed one.
 *
 * The lanes its circuits held stay reserved: destroy the lane state with
 * it, or delete the circuits first.
 */
void ft_circuits_destroy(struct ft_circuits *cs)
{
	ft_free(cs->c);
	ft_free(cs->bucket);
	ft_free(cs->active);
	ft_free(cs->where);
	ft_free(cs->free);
	memset(cs, 0, sizeof(*cs));
}

static u32 ft_circuits_lookup(const struct ft_circuits *cs, u32 src, u32 dst)
{
	u32 s;

	if (!cs->cap)
		return FT_CIRCUIT_NONE;
	s = cs->bucket[ft_circuits_hash(cs, src, dst)];
	while (s != FT_CIRCUIT_NONE) {
		if (cs->c[s].src == src && cs->c[s].dst == dst)
			return s;
		s = cs->c[s].hnext;
	}
	return FT_CIRCUIT_NONE;
}

/**
 * ft_circuits_find() - the circuit of a pair.
 * @cs: table.
 * @src: source leaf.
 * @dst: destination leaf.
 *
 * Return: the circuit, or NULL when the pair has none.
 */
struct ft_circuit *ft_circuits_find(const struct ft_circuits *cs, u32 src,
				    u32 dst)
{
	u32 s = ft_circuits_lookup(cs, src, dst);

	return s == FT_CIRCUIT_NONE ? NULL : &cs->c[s];
}

static void ft_circuits_hash_in(struct ft_circuits *cs, u32 s)
{
	struct ft_circuit *c = &cs->c[s];
	u32 *head = &cs->bucket[ft_circuits_hash(cs, c->src, c->dst)];

	c->hnext = *head;
	*head = s;
}

static void ft_circuits_unhash(struct ft_circuits *cs, u32 s)
{
	struct ft_circuit *c = &cs->c[s];
	u32 *link = &cs->bucket[ft_circuits_hash(cs, c->src, c->dst)];

	while (*link != FT_CIRCUIT_NONE && *link != s)
		link = &cs->c[*link].hnext;
	if (ft_warn_on(*link != s))
		return;
	*link = c->hnext;
	c->hnext = FT_CIRCUIT_NONE;
}

/* Return a slot, hashed or not, to the free stack, all zero again. */
static void ft_circuits_free_slot(struct ft_circuits *cs, u32 s)
{
	memset(&cs->c[s], 0, sizeof(cs->c[s]));
	cs->c[s].hnext = FT_CIRCUIT_NONE;
	cs->free[cs->nfree++] = s;
}

/*
 * Slot that request @i of a batch takes: slots are popped in request
 * order and the stack's entries stay in place until they are pushed over.
 */
static u32 ft_circuits_batch_slot(const struct ft_circuits *cs, u32 nfree0,
				  u32 i)
{
	return cs->free[nfree0 - 1 - i];
}

/* Pass 1: leaves, lanes and up-ports in range. */
static int ft_circuits_check_req(const struct ft_topo *t,
				 const struct ft_circuit_req *r)
{
	u32 i, hh;

	if (r->src >= t->n || r->dst >= t->n)
		return -FT_EINVAL;
	if (!r->lanes || r->lanes > FT_MAX_LANES)
		return -FT_EINVAL;
	hh = ft_topo_common_level(t, r->src, r->dst);
	for (i = 1; i <= hh; i++)
		if (r->port[i - 1] >= t->w[i])
			return -FT_EINVAL;
	return 0;
}

/* Undo pass 2 for the first @k requests of a batch, last first. */
static void ft_circuits_unclaim(struct ft_circuits *cs, u32 nfree0, u32 k)
{
	u32 s, b;

	while (k--) {
		s = ft_circuits_batch_slot(cs, nfree0, k);
		b = ft_circuits_hash(cs, cs->c[s].src, cs->c[s].dst);
		/* Later requests were undone first: @s heads its chain. */
		ft_warn_on(cs->bucket[b] != s);
		cs->bucket[b] = cs->c[s].hnext;
		ft_circuits_free_slot(cs, s);
	}
	ft_warn_on(cs->nfree != nfree0);
}

/*
 * Pass 2: take a slot for each request and hash it there with its path;
 * @lanes stays 0 until the batch is admitted.
 */
static int ft_circuits_claim(struct ft_circuits *cs, const struct ft_topo *t,
			     const struct ft_circuit_req *req, u32 n, u32 *bad)
{
	u32 nfree0 = cs->nfree, port[FT_MAX_LEVELS];
	struct ft_circuit *c;
	u32 i, j, hh, s;
	int err;

	for (i = 0; i < n; i++) {
		if (ft_circuits_lookup(cs, req[i].src, req[i].dst) !=
		    FT_CIRCUIT_NONE) {
			err = -FT_EEXIST;
			goto undo;
		}
		if (!cs->nfree) {
			err = -FT_ENOSPC;
			goto undo;
		}
		s = cs->free[--cs->nfree];
		c = &cs->c[s];
		c->src = req[i].src;
		c->dst = req[i].dst;
		hh = ft_topo_common_level(t, c->src, c->dst);
		for (j = 0; j < FT_MAX_LEVELS; j++) {
			c->port[j] = j < hh ? req[i].port[j] : 0;
			port[j] = c->port[j];
		}
		err = ft_topo_path(t, c->src, c->dst, port, &c->path);
		if (ft_warn_on(err)) {	/* pass 1 checked it */
			ft_circuits_free_slot(cs, s);
			goto undo;
		}
		ft_circuits_hash_in(cs, s);
	}
	return 0;
undo:
	*bad = i;
	ft_circuits_unclaim(cs, nfree0, i);
	return err;
}

/**
 * ft_circuits_add() - admit a batch of circuits, all or nothing.
 * @cs: table.
 * @t: topology of the fabric.
 * @l: its lane state.
 * @req: the requests.
 * @n: how many.
 * @now: cycles completed; a circuit with lease L serves cycles
 *       @now + 1 .. @now + L.
 * @bad: out, on error: index of the offending request.
 *
 * Checks run in three passes, each in request order: every request well
 * formed (-FT_EINVAL: a leaf out of range, lanes 0 or above
 * FT_MAX_LANES, a port P_i >= w_i for some i <= H); then no pair twice
 * (-FT_EEXIST: it has a circuit or an earlier request of the batch named
 * it) and a free slot for each (-FT_ENOSPC); then the lanes, reserved
 * path by path (-FT_ENOSPC: the request that found a link short). The
 * first failing pass names its first offending request, and nothing
 * changes. A request with @src == @dst is a circuit with an empty path.
 * Admitted circuits are appended to @active in request order. O(n * h).
 *
 * Return: 0, -FT_EINVAL, -FT_EEXIST or -FT_ENOSPC.
 */
int ft_circuits_add(struct ft_circuits *cs, const struct ft_topo *t,
		    struct ft_lanes *l, const struct ft_circuit_req *req, u32 n,
		    u64 now, u32 *bad)
{
	u32 nfree0 = cs->nfree, i, k, s;
	struct ft_circuit *c;
	int err;

	for (i = 0; i < n; i++) {
		err = ft_circuits_check_req(t, &req[i]);
		if (err) {
			*bad = i;
			return err;
		}
	}
	err = ft_circuits_claim(cs, t, req, n, bad);
	if (err)
		return err;
	for (i = 0; i < n; i++) {
		s = ft_circuits_batch_slot(cs, nfree0, i);
		err = ft_lanes_reserve(l, &cs->c[s].path, req[i].lanes);
		if (err) {
			for (k = i; k--; ) {
				s = ft_circuits_batch_slot(cs, nfree0, k);
				ft_lanes_release(l, &cs->c[s].path,
						 req[k].lanes);
			}
			ft_circuits_unclaim(cs, nfree0, n);
			*bad = i;
			return err;
		}
	}
	for (i = 0; i < n; i++) {
		s = ft_circuits_batch_slot(cs, nfree0, i);
		c = &cs->c[s];
		c->lanes = req[i].lanes;
		if (!req[i].lease)
			c->expires = 0;
		else if (now > (u64)-1 - req[i].lease)
			c->expires = (u64)-1;
		else
			c->expires = now + req[i].lease;
		c->created = now;
		c->last_used = now;
		c->carried = 0;
		cs->where[s] = cs->n;
		cs->active[cs->n++] = s;
		if (cs->event)
			cs->event(cs->event_arg, c, FT_CIRCUIT_INSTALLED);
	}
	return 0;
}

static int ft_circuits_refuse(struct ft_circuits_refusal *rf,
			      enum ft_circuits_why why, u32 bad, int err)
{
	rf->why = why;
	rf->bad = bad;
	return err;
}

/**
 * ft_circuits_batch() - whether the table could ever take a batch.
 * @cs: table.
 * @n: circuits to add, or pairs to delete.
 * @rf: out: FT_CIRCUITS_OK, or why not.
 *
 * For a caller that gathers a batch: refuse it before allocating for it.
 * Only @cs->cap is read, which does not change after init: no lock needed.
 *
 * Return: 0, -FT_EINVAL (empty) or -FT_E2BIG (more than the slots).
 */
int ft_circuits_batch(const struct ft_circuits *cs, u32 n,
		      struct ft_circuits_refusal *rf)
{
	if (!n)
		return ft_circuits_refuse(rf, FT_CIRCUITS_EMPTY, 0, -FT_EINVAL);
	if (n > cs->cap)
		return ft_circuits_refuse(rf, FT_CIRCUITS_TOO_MANY, 0, -FT_E2BIG);
	return ft_circuits_refuse(rf, FT_CIRCUITS_OK, 0, 0);
}

/* Does the path @r asks for cross a failed link? @r passed pass 1. */
static bool ft_circuits_req_failed(const struct ft_topo *t,
				   const struct ft_lanes *l,
				   const struct ft_circuit_req *r)
{
	u32 port[FT_MAX_LEVELS], i;
	struct ft_path p;

	for (i = 0; i < FT_MAX_LEVELS; i++)
		port[i] = r->port[i];
	if (ft_topo_path(t, r->src, r->dst, port, &p))
		return false;
	return !ft_fail_path_ok(l, &p);
}

/**
 * ft_circuits_admit() - admit a batch asked for from outside.
 * @cs: table.
 * @t: topology of the fabric.
 * @l: its lane state.
 * @req: the requests.
 * @n: how many.
 * @now: cycles completed (ft_circuits_add()).
 * @rf: out: FT_CIRCUITS_OK, or why the batch was refused and which
 *      request it was.
 *
 * ft_circuits_add() with the rules of a request from outside, checked in
 * this order: every request joins two different leaves, in request order
 * (ft_circuits_add() itself takes a request from a leaf to itself as a
 * circuit with an empty path); the table has a free slot for every request
 * (a full table is not a lack of lanes); then ft_circuits_add()'s three
 * passes, where a request refused for lanes is told whether its path
 * crosses a failed link (which has none) or found a working link full.
 * All of it under the caller's one lock, so the answer is the state's.
 *
 * Return: 0; or nothing changed and -FT_EINVAL, -FT_E2BIG, -FT_EEXIST or
 * -FT_ENOSPC, as enum ft_circuits_why says for @rf->why.
 */
int ft_circuits_admit(struct ft_circuits *cs, const struct ft_topo *t,
		      struct ft_lanes *l, const struct ft_circuit_req *req,
		      u32 n, u64 now, struct ft_circuits_refusal *rf)
{
	enum ft_circuits_why why;
	u32 i, bad = 0;
	int err;

	for (i = 0; i < n; i++)
		if (req[i].src == req[i].dst)
			return ft_circuits_refuse(rf, FT_CIRCUITS_SAME_LEAF, i,
						  -FT_EINVAL);
	if (n > cs->cap - cs->n)
		return ft_circuits_refuse(rf, FT_CIRCUITS_NO_ROOM, 0, -FT_E2BIG);
	err = ft_circuits_add(cs, t, l, req, n, now, &bad);
	if (!err)
		why = FT_CIRCUITS_OK;
	else if (err == -FT_EINVAL)
		why = FT_CIRCUITS_BAD;
	else if (err == -FT_EEXIST)
		why = FT_CIRCUITS_EXISTS;
	else if (ft_circuits_req_failed(t, l, &req[bad]))
		why = FT_CIRCUITS_FAILED;
	else
		why = FT_CIRCUITS_LANES;
	return ft_circuits_refuse(rf, why, bad, err);
}

/**
 * ft_circuits_remove() - delete one circuit and release its lanes.
 * @cs: table.
 * @l: lane state its lanes were reserved in.
 * @slot: its slot; a slot out of range or not in use warns and is
 *        ignored.
 * @why: what @cs->event is told.
 *
 * O(1) but for the hash chain. The last entry of @active moves into the
 * removed one's place.
 */
void ft_circuits_remove(struct ft_circuits *cs, struct ft_lanes *l, u32 slot,
			enum ft_circuit_event why)
{
	struct ft_circuit *c;
	u32 pos, last;

	if (ft_warn_on(slot >= cs->cap || !cs->c[slot].lanes))
		return;
	c = &cs->c[slot];
	pos = cs->where[slot] & ~FT_CIRCUITS_MARK;
	if (ft_warn_on(pos >= cs->n || cs->active[pos] != slot))
		return;
	if (cs->event)
		cs->event(cs->event_arg, c, why);
	ft_lanes_release(l, &c->path, c->lanes);
	ft_circuits_unhash(cs, slot);
	last = cs->active[--cs->n];
	cs->active[pos] = last;
	cs->where[last] = pos;
	cs->active[cs->n] = FT_CIRCUIT_NONE;
	cs->where[slot] = FT_CIRCUIT_NONE;
	ft_circuits_free_slot(cs, slot);
}

/**
 * ft_circuits_del() - delete the circuits of a batch of pairs.
 * @cs: table.
 * @l: lane state.
 * @pairs: src, dst of each pair, 2 * @n entries.
 * @n: pairs.
 * @bad: out, on error: index of the first pair without a circuit; a pair
 *       named twice has none the second time.
 *
 * All or nothing. Pairs are removed in order with ft_circuits_remove().
 *
 * Return: 0 or -FT_ENOENT (nothing changed).
 */
int ft_circuits_del(struct ft_circuits *cs, struct ft_lanes *l,
		    const u32 *pairs, u32 n, u32 *bad)
{
	const u32 *p;
	u32 i, s;

	for (i = 0, p = pairs; i < n; i++, p += 2) {
		s = ft_circuits_lookup(cs, p[0], p[1]);
		if (s == FT_CIRCUIT_NONE ||
		    (cs->where[s] & FT_CIRCUITS_MARK)) {
			*bad = i;
			/* Pairs 0..i-1 are distinct: clear their marks. */
			while (p > pairs) {
				p -= 2;
				s = ft_circuits_lookup(cs, p[0], p[1]);
				cs->where[s] &= ~FT_CIRCUITS_MARK;
			}
			return -FT_ENOENT;
		}
		cs->where[s] |= FT_CIRCUITS_MARK;
	}
	for (i = 0, p = pairs; i < n; i++, p += 2) {
		s = ft_circuits_lookup(cs, p[0], p[1]);
		cs->where[s] &= ~FT_CIRCUITS_MARK;
		ft_circuits_remove(cs, l, s, FT_CIRCUIT_DELETED);
	}
	return 0;
}

/**
 * ft_circuits_expire() - delete the circuits whose lease has ended.
 * @cs: table.
 * @l: lane state.
 * @now: cycles completed; circuits with @expires != 0 and
 *       @expires <= @now go.
 *
 * O(circuits). Walks @active from its end, so every entry moved by a
 * removal has been looked at already.
 *
 * Return: how many were deleted.
 */
u32 ft_circuits_expire(struct ft_circuits *cs, struct ft_lanes *l, u64 now)
{
	const struct ft_circuit *c;
	u32 i = cs->n, gone = 0;

	while (i--) {
		c = &cs->c[cs->active[i]];
		if (c->expires && c->expires <= now) {
			ft_circuits_remove(cs, l, cs->active[i],
					   FT_CIRCUIT_EXPIRED);
			gone++;
		}
	}
	return gone;
}

/**
 * ft_circuits_cut() - delete the circuits that cross a failed link.
 * @cs: table.
 * @l: lane state, with the failures already in it (ft_fail_link()).
 *
 * Their reservations go with them, so the failed links end up with none
 * and every pair that lost its circuit is in demand again if it has
 * messages waiting.  O(circuits * 2h) when some link is failed, O(1)
 * otherwise.  Walks @active from its end, as ft_circuits_expire().
 *
 * Return: how many were deleted.
 */
u32 ft_circuits_cut(struct ft_circuits *cs, struct ft_lanes *l)
{
	u32 i = cs->n, gone = 0;

	if (!l->nfailed)
		return 0;
	while (i--) {
		if (ft_fail_path_ok(l, &cs->c[cs->active[i]].path))
			continue;
		ft_circuits_remove(cs, l, cs->active[i], FT_CIRCUIT_CUT);
		gone++;
	}
	return gone;
}
