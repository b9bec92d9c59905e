// SPDX-License-Identifier: GPL-2.0
/*
 * Store-and-forward engine: the leveled network of a fat-tree on caller
 * memory, packets and batches (ranks, paths, sorted initial queues), and
 * the invariant check.
 */
#include "ft_saf_int.h"
#include "ft_math.h"

#define FT_SAF_HASH_P	0x7fffffffU	/* 2^31 - 1, prime, above any leaf */

/* Sizes of the leveled network of a topology. */
struct ft_saf_counts {
	u64 nodes;
	u64 links;
	u64 edges;
	u64 max_in;
};

/**
 * ft_saf_params_check() - validate engine parameters.
 * @t: topology.
 * @p: parameters.
 *
 * Return: 0 or -FT_EINVAL.
 */
int ft_saf_params_check(const struct ft_topo *t,
			const struct ft_saf_params *p)
{
	if (!t->h || !t->n || !p->q || p->q > FT_SAF_MAX_Q)
		return -FT_EINVAL;
	if (p->discipline >= FT_SAF_DISC_NR || p->path >= FT_SAF_PATH_NR ||
	    p->ranks >= FT_SAF_RANKS_NR || p->ghosts > 1)
		return -FT_EINVAL;
	if (p->rank_range > FT_SAF_MAX_RANK || !p->max_pkts ||
	    p->max_pkts > FT_SAF_MAX_PKTS)
		return -FT_EINVAL;
	return 0;
}

static void ft_saf_max(u64 *m, u64 v)
{
	if (v > *m)
		*m = v;
}

/* Nodes, links, edges and the widest fan-in; -FT_E2BIG if too many. */
static int ft_saf_count(const struct ft_topo *t, struct ft_saf_counts *c)
{
	u64 cl, up, hops;
	u32 i, h = t->h;

	memset(c, 0, sizeof(*c));
	for (i = 0; i <= h; i++) {
		if (i == h) {
			/* the top: one node, a link to each child */
			cl = (u64)t->m[h] * t->lanes[h];
			c->nodes += t->nodes[h];
			c->links += (u64)t->nodes[h] * t->m[h];
			c->edges += t->nodes[h] * cl;
			ft_saf_max(&c->max_in, cl);
			break;
		}
		cl = i ? (u64)t->m[i] * t->lanes[i] : 1;
		up = (u64)t->w[i + 1] * t->lanes[i + 1];
		hops = 2 * (h - i) - 1;	/* chain nodes per node */
		/* up copy: w up links and the chain's first hop */
		c->nodes += 2ULL * t->nodes[i] + t->nodes[i] * hops;
		c->links += (u64)t->nodes[i] * (t->w[i + 1] + 1 + hops);
		c->edges += t->nodes[i] * (up + cl + hops * cl);
		/* down copy (not a sink): a link to each child */
		if (i) {
			c->links += (u64)t->nodes[i] * t->m[i];
			c->edges += t->nodes[i] * cl;
			ft_saf_max(&c->max_in, cl);
		}
		ft_saf_max(&c->max_in, up + cl);
		if (c->edges > FT_SAF_MAX_EDGES || c->nodes > FT_SAF_MAX_NODES)
			return -FT_E2BIG;
	}
	if (c->edges > FT_SAF_MAX_EDGES || c->nodes > FT_SAF_MAX_NODES)
		return -FT_E2BIG;
	return 0;
}

/* Take @bytes (8-byte aligned) at *@off of @base; NULL while sizing. */
static void *ft_saf_carve(u8 *base, u64 *off, u64 bytes)
{
	void *p = base ? base + *off : NULL;

	*off += (bytes + 7) & ~7ULL;
	return p;
}

/* Lay the arrays out on @base (NULL: only measure); the bytes needed. */
static u64 ft_saf_layout(struct ft_saf *s, const struct ft_topo *t,
			 const struct ft_saf_counts *c, u32 q, u32 max_pkts,
			 u8 *base)
{
	u64 off = 0, nheap = c->max_in > max_pkts ? c->max_in : max_pkts;
	struct ft_saf_pkt *pkt;
	struct ft_saf_he *heap;
	struct ft_saf_node *node;
	struct ft_saf_link *link;
	struct ft_saf_edge_queue *eq;
	u32 *carried, *cursor, *remain, *slot, *in_link, *pend, *fr, *batch;
	u32 *loff, *lh;

	pkt = ft_saf_carve(base, &off, (u64)max_pkts * sizeof(*pkt));
	heap = ft_saf_carve(base, &off, nheap * sizeof(*heap));
	node = ft_saf_carve(base, &off, c->nodes * sizeof(*node));
	link = ft_saf_carve(base, &off, c->links * sizeof(*link));
	carried = ft_saf_carve(base, &off, c->links * sizeof(u32));
	cursor = ft_saf_carve(base, &off, c->links * sizeof(u32));
	remain = ft_saf_carve(base, &off, c->links * sizeof(u32));
	in_link = ft_saf_carve(base, &off, c->links * sizeof(u32));
	eq = ft_saf_carve(base, &off, c->edges * sizeof(*eq));
	slot = ft_saf_carve(base, &off, c->edges * q * sizeof(u32));
	pend = ft_saf_carve(base, &off, (u64)max_pkts * sizeof(u32));
	fr = ft_saf_carve(base, &off, (u64)max_pkts * sizeof(u32));
	batch = ft_saf_carve(base, &off, (u64)max_pkts * sizeof(u32));
	loff = ft_saf_carve(base, &off, ((u64)t->n + 1) * sizeof(u32));
	lh = ft_saf_carve(base, &off, (u64)t->n * sizeof(u32));
	if (s) {
		s->pkt = pkt;
		s->heap = heap;
		s->node = node;
		s->link = link;
		s->carried = carried;
		s->cursor = cursor;
		s->remain = remain;
		s->in_link = in_link;
		s->eq = eq;
		s->slot = slot;
		s->pend = pend;
		s->free = fr;
		s->batch = batch;
		s->leaf_off = loff;
		s->leaf_head = lh;
	}
	return off;
}

/**
 * ft_saf_mem_size() - bytes of memory ft_saf_init() needs.
 * @t: topology.
 * @p: parameters.
 *
 * 4q + 5 bytes per edge, 32 per link, 32 per node and 68 per packet
 * (more with a node wider than the pool); chains make up most edges of
 * tall trees.  Section 7's tree of 4096 leaves, q = 8, a pool
 * of 4096: 12 MB.
 *
 * Return: the size, or 0 if @p is invalid or the network too large.
 */
size_t ft_saf_mem_size(const struct ft_topo *t, const struct ft_saf_params *p)
{
	struct ft_saf_counts c;
	u64 size;

	if (ft_saf_params_check(t, p) || ft_saf_count(t, &c))
		return 0;
	size = ft_saf_layout(NULL, t, &c, p->q, p->max_pkts, NULL);
	if (size != (size_t)size)
		return 0;
	return (size_t)size;
}

/* Switch copies at level @k of the leveled network. */
static u32 ft_saf_sw_count(const struct ft_topo *t, u32 k)
{
	return t->nodes[k <= t->h ? k : 2 * t->h - k];
}

/* Does the chain of a level-@hh node have a node at level @k? */
static bool ft_saf_chain_at(const struct ft_topo *t, u32 hh, u32 k)
{
	return k > hh && k < 2 * t->h - hh;
}

/*
 * Node j (1..2(h - hh) - 1) of the chain of level-@hh node @idx.  A level
 * holds its switch copies, then chain nodes by turning level, then index.
 */
static u32 ft_saf_chain_node(const struct ft_saf *s, u32 hh, u32 idx, u32 j)
{
	const struct ft_topo *t = &s->topo;
	u32 k = hh + j, id = s->lvl_node[k] + ft_saf_sw_count(t, k), g;

	for (g = 0; g < hh; g++)
		if (ft_saf_chain_at(t, g, k))
			id += t->nodes[g];
	return id + idx;
}

/* A link of @lanes edges to node @to; its edges are numbered later. */
static void ft_saf_new_link(struct ft_saf *s, u32 *nl, u32 lanes, u32 to,
			    u32 dlink)
{
	struct ft_saf_link *l = &s->link[(*nl)++];

	l->lanes = lanes;
	l->to = to;
	l->dlink = dlink;
	s->node[to].nin++;
	s->node[to].nein += lanes;
}

/* The links of a switch copy: up-ports and chain, or one per child. */
static void ft_saf_switch_links(struct ft_saf *s, const struct ft_saf_node *v,
				u32 *nl)
{
	const struct ft_topo *t = &s->topo;
	u32 i = v->hw, p, x, to, port, local;

	if (v->kind == FT_SAF_SOURCE || v->kind == FT_SAF_UP) {
		for (p = 0; p < t->w[i + 1]; p++) {
			to = ft_topo_up(t, i + 1, v->idx, p);
			local = v->idx * t->w[i + 1] + p;
			ft_saf_new_link(s, nl, t->lanes[i + 1],
					s->lvl_node[i + 1] + to,
					ft_topo_dlink(t, i + 1, local, FT_UP));
		}
		ft_saf_new_link(s, nl, ft_saf_chain_lanes(t, i),
				ft_saf_chain_node(s, i, v->idx, 1), FT_SAF_CHAIN);
		return;
	}
	if (v->kind == FT_SAF_SINK)
		return;
	for (x = 0; x < t->m[i]; x++) {
		to = ft_topo_down(t, i, v->idx, x, &port);
		ft_saf_new_link(s, nl, t->lanes[i],
				s->lvl_node[v->level + 1] + to,
				ft_topo_dlink(t, i, to * t->w[i] + port,
					      FT_DOWN));
	}
}

static u8 ft_saf_kind(u32 k, u32 h)
{
	if (!k)
		return FT_SAF_SOURCE;
	if (k < h)
		return FT_SAF_UP;
	if (k == h)
		return FT_SAF_TOP;
	return k < 2 * h ? FT_SAF_DOWN : FT_SAF_SINK;
}

/*
 * Number the nodes level by level and wire their links, then number the
 * edges receiver by receiver: a node's incoming edges are contiguous.
 */
static void ft_saf_build(struct ft_saf *s)
{
	const struct ft_topo *t = &s->topo;
	struct ft_saf_node *v;
	u32 h = t->h, k, g, x, j, id = 0, nl = 0, ne = 0, to, in = 0;

	for (k = 0; k <= 2 * h; k++) {
		s->lvl_node[k + 1] = s->lvl_node[k] + ft_saf_sw_count(t, k);
		for (g = 0; g < h; g++)
			if (ft_saf_chain_at(t, g, k))
				s->lvl_node[k + 1] += t->nodes[g];
	}
	for (k = 0; k <= 2 * h; k++) {
		for (x = 0; x < ft_saf_sw_count(t, k); x++) {
			v = &s->node[id++];
			v->level = (u8)k;
			v->hw = (u8)(k <= h ? k : 2 * h - k);
			v->idx = x;
			v->kind = ft_saf_kind(k, h);
			v->link = nl;
			ft_saf_switch_links(s, v, &nl);
			v->nlink = nl - v->link;
		}
		for (g = 0; g < h; g++) {
			if (!ft_saf_chain_at(t, g, k))
				continue;
			j = k - g;
			for (x = 0; x < t->nodes[g]; x++) {
				v = &s->node[id++];
				v->level = (u8)k;
				v->hw = (u8)g;
				v->idx = x;
				v->kind = FT_SAF_CHAIN_NODE;
				v->link = nl;
				v->nlink = 1;
				to = j + 1 < 2 * (h - g) ?
				     ft_saf_chain_node(s, g, x, j + 1) :
				     s->lvl_node[2 * h - g] + x;
				ft_saf_new_link(s, &nl, ft_saf_chain_lanes(t, g),
						to, FT_SAF_CHAIN);
			}
		}
	}
	/* Incoming links and edges: each node's ends, filled backwards. */
	for (id = 0; id < s->nnodes; id++) {
		v = &s->node[id];
		in += v->nin;
		ne += v->nein;
		v->in = in;
		v->ein = ne;
		s->st.level[v->level].queues += v->nein;
	}
	for (g = s->nlinks; g-- > 0;) {
		v = &s->node[s->link[g].to];
		s->in_link[--v->in] = g;
		v->ein -= s->link[g].lanes;
		s->link[g].edge = v->ein;
	}
}

/**
 * ft_saf_init() - build the leveled network of a fabric on caller memory.
 * @s: engine to fill; it holds pointers into @mem only, so it may move.
 * @t: topology (copied).
 * @p: parameters (ft_saf_params_check()).
 * @mem: at least ft_saf_mem_size() bytes, 8-byte aligned (ft_zalloc()).
 * @size: its size.
 *
 * The only costly call: it touches all of @mem.  Afterwards nothing
 * allocates.
 *
 * Return: 0, -FT_EINVAL for bad parameters or too little memory,
 * -FT_E2BIG for a network past the FT_SAF_MAX_* bounds.
 */
int ft_saf_init(struct ft_saf *s, const struct ft_topo *t,
		const struct ft_saf_params *p, void *mem, size_t size)
{
	struct ft_saf_counts c;
	u64 need;
	u32 i;
	int err;

	err = ft_saf_params_check(t, p);
	if (err)
		return err;
	err = ft_saf_count(t, &c);
	if (err)
		return err;
	need = ft_saf_layout(NULL, t, &c, p->q, p->max_pkts, NULL);
	if (!mem || size < need)
		return -FT_EINVAL;
	memset(s, 0, sizeof(*s));
	memset(mem, 0, (size_t)need);
	s->topo = *t;
	s->p = *p;
	if (!s->p.rank_range)
		s->p.rank_range = FT_SAF_MAX_RANK;
	s->depth = ft_saf_depth(t);
	s->nnodes = (u32)c.nodes;
	s->nlinks = (u32)c.links;
	s->nedges = (u32)c.edges;
	s->max_in = (u32)c.max_in;
	ft_saf_layout(s, t, &c, p->q, p->max_pkts, mem);
	ft_rand_seed(&s->rand, p->seed);
	ft_saf_build(s);
	for (i = 0; i < p->max_pkts; i++)
		s->free[i] = p->max_pkts - 1 - i;
	s->nfree = p->max_pkts;
	return 0;
}

/* Entry @j of the queued packets' ring, from its head. */
static u32 *ft_saf_pend_at(struct ft_saf *s, u32 j)
{
	u32 k = s->pend_head + j;

	if (k >= s->p.max_pkts)
		k -= s->p.max_pkts;
	return &s->pend[k];
}

/* Pool entry @pi is free again, for anyone. */
static void ft_saf_free_entry(struct ft_saf *s, u32 pi)
{
	s->pkt[pi].state = FT_SAF_PKT_FREE;
	s->free[s->nfree + s->nres] = pi;
	s->nfree++;
}

/*
 * Queue a packet on the entry at the top of the free stack, one of the
 * *@avail (@s->nfree or @s->nres) it may take.
 */
static int ft_saf_take(struct ft_saf *s, u32 *avail, u32 src, u32 dst,
		       u64 cookie, u32 *id)
{
	struct ft_saf_pkt *pk;
	u32 i;

	if (src >= s->topo.n || dst >= s->topo.n)
		return -FT_EINVAL;
	if (!*avail)
		return -FT_ENOSPC;
	--*avail;
	i = s->free[s->nfree + s->nres];
	pk = &s->pkt[i];
	memset(pk, 0, sizeof(*pk));
	pk->src = src;
	pk->dst = dst;
	pk->cookie = cookie;
	pk->state = FT_SAF_PKT_QUEUED;
	*ft_saf_pend_at(s, s->npend++) = i;
	s->st.added++;
	if (id)
		*id = i;
	return 0;
}

/**
 * ft_saf_add() - queue a packet for the next batch.
 * @s: engine.
 * @src: source leaf.
 * @dst: destination leaf (may be @src: it crosses the leaf's chain).
 * @cookie: the caller's handle, given back on delivery.
 * @id: out (may be NULL): the packet's pool index until it is delivered.
 *
 * O(1), never allocates; allowed while a batch is in flight or being
 * prepared (the packet then waits for the batch after).  Entries
 * reserved by ft_saf_reserve() are not taken.
 *
 * Return: 0, -FT_EINVAL for a bad leaf, -FT_ENOSPC when the pool has no
 * entry that is free and not reserved.
 */
int ft_saf_add(struct ft_saf *s, u32 src, u32 dst, u64 cookie, u32 *id)
{
	return ft_saf_take(s, &s->nfree, src, dst, cookie, id);
}

/**
 * ft_saf_reserve() - promise @n free entries to ft_saf_add_reserved().
 * @s: engine.
 * @n: entries.
 *
 * For a caller that adds a set of packets all or nothing but in pieces,
 * letting its lock go between them: ft_saf_add() by others meanwhile
 * finds the pool without them.  O(1).
 *
 * Return: 0, or -FT_ENOSPC (nothing reserved) if fewer than @n entries
 * are free and not reserved.
 */
int ft_saf_reserve(struct ft_saf *s, u32 n)
{
	if (n > s->nfree)
		return -FT_ENOSPC;
	s->nfree -= n;
	s->nres += n;
	return 0;
}

/**
 * ft_saf_unreserve() - give back @n reserved entries not used.
 * @s: engine.
 * @n: entries, at most those reserved.
 */
void ft_saf_unreserve(struct ft_saf *s, u32 n)
{
	if (ft_warn_on(n > s->nres))
		n = s->nres;
	s->nres -= n;
	s->nfree += n;
}

/**
 * ft_saf_add_reserved() - ft_saf_add() on a reserved entry.
 * @s: engine.
 * @src: source leaf.
 * @dst: destination leaf.
 * @cookie: the caller's handle.
 * @id: out (may be NULL): the packet's pool index.
 *
 * Return: 0, -FT_EINVAL for a bad leaf, -FT_ENOSPC when no entry is
 * reserved.
 */
int ft_saf_add_reserved(struct ft_saf *s, u32 src, u32 dst, u64 cookie,
			u32 *id)
{
	return ft_saf_take(s, &s->nres, src, dst, cookie, id);
}

/* x mod (2^31 - 1) for x < 2^62, without division. */
static u32 ft_saf_mod_p(u64 x)
{
	x = (x & FT_SAF_HASH_P) + (x >> 31);
	x = (x & FT_SAF_HASH_P) + (x >> 31);
	return (u32)(x >= FT_SAF_HASH_P ? x - FT_SAF_HASH_P : x);
}

/* Coefficients of path(x): a polynomial of degree max(h, 2) - 1. */
static u32 ft_saf_hash_terms(const struct ft_topo *t)
{
	return t->h < 2 ? 2 : t->h;
}

/*
 * Section 7's path(x) = ((sum a_i x^i) mod P) mod M of a destination: a
 * label whose digits are the up-ports (M = W_h, every top-level label).
 */
static u32 ft_saf_path_hash(const struct ft_saf *s, u32 x)
{
	u32 i = ft_saf_hash_terms(&s->topo), acc = 0;

	while (i--)
		acc = ft_saf_mod_p((u64)acc * x + s->hash_a[i]);
	return acc % s->topo.wprod[s->topo.h];
}

static u32 ft_saf_rank(struct ft_saf *s, const struct ft_saf_pkt *pk)
{
	u64 x;

	if (s->p.ranks == FT_SAF_RANKS_PACKET)
		return ft_rand_below(&s->rand, s->p.rank_range);
	x = s->pair_salt ^ ((u64)pk->src << 32 | pk->dst);
	return (u32)(ft_splitmix64(&x) >> 32) % s->p.rank_range;
}

static u32 ft_saf_route(struct ft_saf *s, u32 dst)
{
	switch (s->p.path) {
	case FT_SAF_PATH_HASH:
		return ft_saf_path_hash(s, dst);
	case FT_SAF_PATH_DMODK:
		return dst;
	case FT_SAF_PATH_RANDOM:
		return ft_rand_below(&s->rand, s->topo.wprod[s->topo.h]);
	default:
		return 0;	/* firstfree: chosen on the way */
	}
}

/* Order of an initial queue: by key, or by greedy priority at a leaf. */
static u64 ft_saf_sort_key(const struct ft_saf *s, const struct ft_saf_pkt *pk)
{
	return s->p.discipline == FT_SAF_RANK ? pk->key : ft_saf_prio(s, pk, 0);
}

/*
 * Some of the heap sort of leaf @l's initial queue, @batch[@from..@to),
 * as it stands in @s->prep: fill the heap, heapify, pop in key order
 * back into the queue.  Return: the work done, about @budget units at
 * most: one per entry filled, and for each sift or pop the levels of the
 * heap, which it may go down (what a unit of the other phases costs);
 * the stage is FT_SAF_SORT_POP with @k at the queue's length once it is
 * sorted.
 */
static u32 ft_saf_sort_some(struct ft_saf *s, u32 l, u32 budget)
{
	struct ft_saf_prep *pr = &s->prep;
	struct ft_saf_he *hp = s->heap;
	u32 from = s->leaf_off[l], n = s->leaf_off[l + 1] - from, done = 0;
	u32 levels = ft_ilog2_floor(n) + 1;

	while (done < budget) {
		if (pr->stage == FT_SAF_SORT_FILL) {
			if (pr->k == n) {
				pr->stage = FT_SAF_SORT_HEAPIFY;
				pr->hn = n;
				pr->k = n / 2;
				continue;
			}
			hp[pr->k].ref = s->batch[from + pr->k];
			hp[pr->k].key = ft_saf_sort_key(s, &s->pkt[hp[pr->k].ref]);
			hp[pr->k].link = 0;
			pr->k++;
			done++;
		} else if (pr->stage == FT_SAF_SORT_HEAPIFY) {
			if (!pr->k) {
				pr->stage = FT_SAF_SORT_POP;
				continue;
			}
			ft_saf_heap_sift(hp, --pr->k, n);
			done += levels;
		} else {
			if (pr->k == n)
				break;
			s->batch[from + pr->k++] = hp[0].ref;
			ft_saf_heap_pop(hp, &pr->hn);
			done += levels;
		}
	}
	return done;
}

/* The next batch's preparation begins with the @n packets queued. */
static void ft_saf_prep_begin(struct ft_saf *s, u32 n)
{
	const struct ft_topo *t = &s->topo;
	u32 i;

	for (i = 0; i < ft_saf_hash_terms(t); i++)
		s->hash_a[i] = ft_rand_below(&s->rand, FT_SAF_HASH_P);
	s->pair_salt = ft_rand_u64(&s->rand);
	memset(s->leaf_off, 0, ((size_t)t->n + 1) * sizeof(u32));
	memset(&s->prep, 0, sizeof(s->prep));
	s->prep.phase = FT_SAF_PREP_COUNT;
	s->prep.n = n;
}

/* Packet @i of the batch: its fields, key and route, and its place. */
static void ft_saf_prep_key(struct ft_saf *s, u32 i)
{
	u32 pi = *ft_saf_pend_at(s, i);
	struct ft_saf_pkt *pk = &s->pkt[pi];

	pk->hh = (u8)ft_topo_common_level(&s->topo, pk->src, pk->dst);
	pk->pos = 0;
	pk->since = 0;
	pk->state = FT_SAF_PKT_BATCH;
	pk->key = (u64)ft_saf_rank(s, pk) << FT_SAF_KEY_RANK |
		  (u64)pk->dst << FT_SAF_KEY_DST | (u64)i << FT_SAF_KEY_ID;
	pk->route = ft_saf_route(s, pk->dst);
	/* Counting sort by source keeps the add order: ids follow it. */
	s->batch[s->leaf_head[pk->src]++] = pi;
}

/* Up to @budget units of the phase under way; the units done. */
static u32 ft_saf_prep_some(struct ft_saf *s, u32 budget)
{
	struct ft_saf_prep *pr = &s->prep;
	u32 nl = s->topo.n, done = 0, d;

	switch (pr->phase) {
	case FT_SAF_PREP_COUNT:
		for (; pr->i < pr->n && done < budget; pr->i++, done++)
			s->leaf_off[s->pkt[*ft_saf_pend_at(s, pr->i)].src + 1]++;
		break;
	case FT_SAF_PREP_OFFSETS:
		for (; pr->i < nl && done < budget; pr->i++, done++) {
			s->leaf_off[pr->i + 1] += s->leaf_off[pr->i];
			s->leaf_head[pr->i] = s->leaf_off[pr->i];
		}
		break;
	case FT_SAF_PREP_KEYS:
		for (; pr->i < pr->n && done < budget; pr->i++, done++)
			ft_saf_prep_key(s, pr->i);
		break;
	case FT_SAF_PREP_SORT:
		while (pr->i < nl && done < budget) {
			if (s->leaf_off[pr->i + 1] - s->leaf_off[pr->i] < 2) {
				pr->i++;
				done++;
				continue;
			}
			d = ft_saf_sort_some(s, pr->i, budget - done);
			done += d;
			if (pr->stage == FT_SAF_SORT_POP &&
			    pr->k == s->leaf_off[pr->i + 1] - s->leaf_off[pr->i]) {
				pr->i++;
				pr->stage = FT_SAF_SORT_FILL;
				pr->k = 0;
				done += !d;
			}
		}
		break;
	}
	if (pr->i == (pr->phase == FT_SAF_PREP_COUNT ||
		      pr->phase == FT_SAF_PREP_KEYS ? pr->n : nl)) {
		pr->phase++;
		pr->i = 0;
	}
	return done;
}

/**
 * ft_saf_prepare() - prepare the next batch, a piece at a time.
 * @s: engine with no batch in flight.
 * @budget: work units, about (at least one is done): a packet counted,
 *          keyed and placed, a leaf's offsets, a heap entry filled, a
 *          level of a heap a sift or a pop may go down.
 *
 * Begins a preparation with every packet queued if none is under way,
 * and takes it on by up to @budget units: ranks and paths drawn, each
 * initial queue sorted, as ft_saf_start() does in one go, which the
 * batch prepared is identical to.  The caller may let its lock go
 * between calls; ft_saf_add() meanwhile queues for the batch after.
 * Nothing else may change the engine between calls (no step, no
 * parameter, no reseeding) but ft_saf_flush(), which drops the
 * preparation with everything queued.  A ready batch starts at the next
 * ft_saf_step() or ft_saf_start(); O(n log n) in all, no allocation.
 *
 * Return: 1 when the batch is ready, 0 when work is left, -FT_EEXIST
 * while a batch is in flight, -FT_ENOENT when no packet is queued.
 */
int ft_saf_prepare(struct ft_saf *s, u32 budget)
{
	u32 done = 0;

	if (s->running)
		return -FT_EEXIST;
	if (s->prep.phase == FT_SAF_PREP_IDLE) {
		if (!s->npend)
			return -FT_ENOENT;
		ft_saf_prep_begin(s, s->npend);
	}
	if (!budget)
		budget = 1;
	while (s->prep.phase != FT_SAF_PREP_READY && done < budget)
		done += ft_saf_prep_some(s, budget - done);
	return s->prep.phase == FT_SAF_PREP_READY;
}

/**
 * ft_saf_start() - start a batch with every queued packet.
 * @s: engine with no batch in flight.
 *
 * Draws ranks (rank discipline), paths and the hash coefficients, sorts
 * every initial queue (whose EOS is implicit at its end).  ft_saf_step()
 * calls it when it finds packets queued and no batch in flight; O(n log
 * n), no allocation.  A preparation under way (ft_saf_prepare()) is
 * finished and its batch started: the packets queued since wait.
 *
 * Return: 0, -FT_EEXIST while a batch is in flight, -FT_ENOENT when no
 * packet is queued.
 */
int ft_saf_start(struct ft_saf *s)
{
	const struct ft_topo *t = &s->topo;
	u32 l, n;
	int err;

	do {
		err = ft_saf_prepare(s, ~0U);
	} while (!err);
	if (err < 0)
		return err;
	n = s->prep.n;
	for (l = 0; l < t->n; l++)
		s->leaf_head[l] = s->leaf_off[l];
	memset(s->carried, 0, (size_t)s->nlinks * sizeof(u32));
	memset(&s->b, 0, sizeof(s->b));
	s->b.packets = n;
	s->pend_head = (u32)(ft_saf_pend_at(s, n) - s->pend);
	s->npend -= n;
	s->prep.phase = FT_SAF_PREP_IDLE;
	s->sinks_done = 0;
	s->running = 1;
	return 0;
}

/* Empty every queue, reset every node, free the batch's packets. */
static void ft_saf_reset(struct ft_saf *s)
{
	u32 i;

	for (i = 0; i < s->nnodes; i++)
		s->node[i].state = FT_SAF_ACTIVE;
	memset(s->eq, 0, (size_t)s->nedges * sizeof(*s->eq));
	for (i = 0; i < s->b.packets; i++)
		ft_saf_free_entry(s, s->batch[i]);
	s->running = 0;
}

/*
 * The batch is over: every queue is empty (@carried and @b stay until the
 * next batch starts).
 */
void ft_saf_finish(struct ft_saf *s)
{
	u32 i;

	for (i = 0; i < s->nedges; i++)
		ft_warn_on(s->eq[i].count);
	ft_saf_reset(s);
	s->b.done = 1;
	s->st.batches++;
}

/**
 * ft_saf_flush() - hand back every packet the engine holds and empty it.
 * @s: engine.
 * @fn: called (with @steps 0) for each packet not delivered, queued or in
 *      flight, so the caller can free what its cookie names (may be NULL).
 * @arg: its first argument.
 *
 * For a fabric going away or changing its parameters, or a batch that
 * stalled (no ghosts).  The batch in flight is abandoned, not counted;
 * a preparation under way is dropped with the packets it had.  Entries
 * reserved (ft_saf_reserve()) stay reserved.
 *
 * Return: the packets handed back.
 */
u32 ft_saf_flush(struct ft_saf *s, ft_saf_deliver_fn fn, void *arg)
{
	u32 i, n = 0;

	for (i = 0; i < s->p.max_pkts; i++) {
		if (s->pkt[i].state != FT_SAF_PKT_QUEUED &&
		    s->pkt[i].state != FT_SAF_PKT_BATCH)
			continue;
		n++;
		if (fn)
			fn(arg, &s->pkt[i], 0);
	}
	for (i = 0; i < s->npend; i++)
		ft_saf_free_entry(s, *ft_saf_pend_at(s, i));
	s->npend = 0;
	s->pend_head = 0;
	s->prep.phase = FT_SAF_PREP_IDLE;
	if (s->running)
		ft_saf_reset(s);
	return n;
}

static int ft_saf_fault(struct ft_saf_fault *f, u32 what, u32 edge, u32 node)
{
	if (f) {
		f->what = what;
		f->edge = edge;
		f->node = node;
	}
	return -FT_ERANGE;
}

/* One edge queue entering node @id: bounded, sorted, EOS last. */
static int ft_saf_check_queue(const struct ft_saf *s, u32 id, u32 e,
			      struct ft_saf_fault *f)
{
	const struct ft_saf_edge_queue *q = &s->eq[e];
	const u32 *r = ft_saf_ring(s, e);
	bool greedy = s->p.discipline != FT_SAF_RANK, eos = false;
	u64 key, prev = 0;
	u32 i, v, pi, ghosts = 0;

	if (q->count > s->p.q || q->head >= s->p.q)
		return ft_saf_fault(f, FT_SAF_F_OVERFULL, e, id);
	for (i = 0; i < q->count; i++) {
		v = r[(q->head + i) % s->p.q];
		if (eos)
			return ft_saf_fault(f, FT_SAF_F_AFTER_EOS, e, id);
		if (greedy && (v & FT_SAF_GHOST))
			return ft_saf_fault(f, FT_SAF_F_GREEDY, e, id);
		if (v == FT_SAF_EOS) {
			eos = true;
			if (!(q->flags & FT_SAF_EQ_CLOSED))
				return ft_saf_fault(f, FT_SAF_F_CLOSED, e, id);
			continue;
		}
		ghosts += !!(v & FT_SAF_GHOST);
		pi = v & ~FT_SAF_GHOST;
		if (pi >= s->p.max_pkts ||
		    s->pkt[pi].state != FT_SAF_PKT_BATCH)
			return ft_saf_fault(f, FT_SAF_F_SLOT, e, id);
		if (!(v & FT_SAF_GHOST) && s->pkt[pi].pos != s->node[id].level)
			return ft_saf_fault(f, FT_SAF_F_PLACE, e, id);
		key = greedy ? s->pkt[pi].since : ft_saf_key(s, v);
		if (i && key < prev)
			return ft_saf_fault(f, FT_SAF_F_UNSORTED, e, id);
		prev = key;
	}
	if (ghosts != q->ghosts)
		return ft_saf_fault(f, FT_SAF_F_SLOT, e, id);
	return 0;
}

/**
 * ft_saf_check() - verify the invariants between two steps.
 * @s: engine.
 * @f: out (may be NULL): the first broken invariant.
 *
 * Every edge queue holds at most q packets, sorted by key from head to
 * tail (Lemma 2.1; by arrival under FIFO/farthest-first), nothing behind
 * an EOS and an EOS only on a closed edge, only packets of the batch in
 * flight and each real one at the node of its level; a node that is done
 * has closed all its edges.  O(edges * q): for tests and debugging.
 *
 * Return: 0, or -FT_ERANGE with @f filled.
 */
int ft_saf_check(const struct ft_saf *s, struct ft_saf_fault *f)
{
	const struct ft_saf_node *v;
	u32 id, e, l;
	int err;

	ft_saf_fault(f, FT_SAF_F_NONE, ~0U, ~0U);
	for (id = 0; id < s->nnodes; id++) {
		v = &s->node[id];
		for (e = v->ein; e < v->ein + v->nein; e++) {
			err = ft_saf_check_queue(s, id, e, f);
			if (err)
				return err;
		}
		if (v->state != FT_SAF_DONE)
			continue;
		for (l = v->link; l < v->link + v->nlink; l++)
			for (e = 0; e < s->link[l].lanes; e++)
				if (!(s->eq[s->link[l].edge + e].flags &
				      FT_SAF_EQ_CLOSED))
					return ft_saf_fault(f, FT_SAF_F_CLOSED,
							    s->link[l].edge + e,
							    id);
	}
	return 0;
}
