/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Store-and-forward engine internals shared by ft_saf.c (the leveled
 * network, batches, checks) and ft_saf_step.c (one step): edge queue
 * rings, keys, the heap.
 */
#ifndef FT_SAF_INT_H
#define FT_SAF_INT_H

#include "ft_saf.h"

#define FT_SAF_NONE	0xffffffffU	/* no edge, no ghost */
#define FT_SAF_ID_MASK	(FT_SAF_MAX_PKTS - 1)
#define FT_SAF_KEY_EOS	(~0ULL)

static inline u32 *ft_saf_ring(const struct ft_saf *s, u32 e)
{
	return &s->slot[(size_t)e * s->p.q];
}

/* The head slot of edge queue @e (it must hold something). */
static inline u32 ft_saf_head(const struct ft_saf *s, u32 e)
{
	return ft_saf_ring(s, e)[s->eq[e].head];
}

static inline bool ft_saf_is_ghost(u32 v)
{
	return v != FT_SAF_EOS && (v & FT_SAF_GHOST);
}

/* Append @v at the tail of @e. */
static inline void ft_saf_push(struct ft_saf *s, u32 e, u32 v)
{
	struct ft_saf_edge_queue *q = &s->eq[e];
	u32 i = q->head + q->count;

	if (i >= s->p.q)
		i -= s->p.q;
	ft_saf_ring(s, e)[i] = v;
	q->count++;
	q->ghosts += ft_saf_is_ghost(v);
}

/* Drop the head of @e. */
static inline void ft_saf_pop(struct ft_saf *s, u32 e)
{
	struct ft_saf_edge_queue *q = &s->eq[e];

	q->ghosts -= ft_saf_is_ghost(ft_saf_ring(s, e)[q->head]);
	q->head = q->head + 1U == s->p.q ? 0 : q->head + 1;
	q->count--;
}

/* Key of a slot value: its packet's, a ghost's one more, EOS above all. */
static inline u64 ft_saf_key(const struct ft_saf *s, u32 v)
{
	if (v == FT_SAF_EOS)
		return FT_SAF_KEY_EOS;
	if (v & FT_SAF_GHOST)
		return s->pkt[v & ~FT_SAF_GHOST].key | 1;
	return s->pkt[v].key;
}

/* The id part of a key: the packet's place in its batch's add order. */
static inline u32 ft_saf_key_id(u64 key)
{
	return (u32)(key >> FT_SAF_KEY_ID) & FT_SAF_ID_MASK;
}

/*
 * Real edges (not chain padding) still to cross by a packet of common
 * level @hh waiting at a node of level @pos.
 */
static inline u32 ft_saf_remaining(const struct ft_saf *s, u32 hh, u32 pos)
{
	if (pos <= hh)
		return 2 * hh - pos;
	if (pos < s->depth - hh)
		return hh;
	return s->depth - pos;
}

/*
 * Greedy priority of @pk at a node of level @pos: arrival (then id) for
 * FIFO, farthest real distance first (then arrival) for farthest-first.
 */
static inline u64 ft_saf_prio(const struct ft_saf *s,
			      const struct ft_saf_pkt *pk, u32 pos)
{
	u64 age = (u64)pk->since << 23 | ft_saf_key_id(pk->key);

	if (s->p.discipline == FT_SAF_FIFO)
		return age;
	return (u64)(s->depth - ft_saf_remaining(s, pk->hh, pos)) << 56 | age;
}

void ft_saf_heap_sift(struct ft_saf_he *hp, u32 i, u32 n);
void ft_saf_heapify(struct ft_saf_he *hp, u32 n);
void ft_saf_heap_pop(struct ft_saf_he *hp, u32 *n);
void ft_saf_finish(struct ft_saf *s);

#endif /* FT_SAF_INT_H */
