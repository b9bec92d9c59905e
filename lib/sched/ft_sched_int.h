/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Internals shared by the scheduling library's files.
 *
 * Free lanes of every directed link are kept as seed 002's availability
 * bit vectors: per level i and direction, vb[i] bits per level-(i-1)
 * node u (a power of two >= w_i; a whole word when w_i > 8 or the level
 * is small, and whole words when w_i > 64), bit p of
 * node u set when the link through u's up-port p has a free lane.  A
 * level whose links all have at most one free lane is in bit mode: the
 * bits are the truth and the counters (@free) are written back only when
 * someone reads them (sched_sync()).  Other levels keep the counters as
 * the truth and the bits in step (bit = counter >= 1); a request for
 * more than one lane derives its bits from the counters.  Every change
 * goes through sched_take()/sched_give().
 */
#ifndef FT_SCHED_INT_H
#define FT_SCHED_INT_H

#include "ft_sched.h"
#include "../../kmod/core/ft_rand.h"

#define SCHED_NONE	0xffffffffU

/* Exact x / d for x < 2^21 (leaf numbers) by multiply and shift. */
struct sched_div {
	u64 mul;
	u32 shift;
};

struct ft_sched {
	struct ft_topo t;
	u32 ndl;
	u32 *free;
	u64 *vec[FT_MAX_LEVELS + 1][2];
	u32 nw[FT_MAX_LEVELS + 1];	/* words per node vector, w > 64 */
	u32 vb[FT_MAX_LEVELS + 1];	/* bits per node in @vec */
	bool bitmode[FT_MAX_LEVELS + 1];
	bool dirty[FT_MAX_LEVELS + 1];	/* bit mode: @free is stale */
	struct sched_div divm[FT_MAX_LEVELS + 1];	/* by M_i, i = 0..h */
	struct ft_rand rng;
	/* Every m_i and w_i a power of two: node numbers by shifts. */
	bool pow2;
	/* vb = 64 nw at every level but a single-port leaf level (w_1 = 1). */
	bool words;
	/* Some level has w_i > 64 (nw > 1). */
	bool wide;
	/* pow2: H of (src, dst) by the bit length of src ^ dst. */
	u8 hlev[33];

	/* Per-request work arrays, grown on demand to @cap entries. */
	u32 cap;
	u32 *order;
	u32 *tmp;
	u32 *y;
	u32 *cnt;	/* t.n + 1 counters for the counting sorts */
	/* Scratch of one round (sched_scratch()), kept for the next. */
	void *scratch;
	size_t scratch_cap;
};

static inline void sched_div_init(struct sched_div *d, u32 div)
{
	u32 l = 0;

	while ((1ULL << l) < div)
		l++;
	d->shift = 21 + l;
	d->mul = ((1ULL << d->shift) + div - 1) / div;
}

static inline u32 sched_div(const struct sched_div *d, u32 x)
{
	return (u32)((x * d->mul) >> d->shift);
}

/* Level-(i-1) node on @leaf's side whose up-port choices so far are @y. */
static inline u32 sched_node(const struct ft_sched *s, u32 i, u32 leaf, u32 y)
{
	return sched_div(&s->divm[i - 1], leaf) * s->t.wprod[i - 1] + y;
}

static inline u32 sched_link(const struct ft_sched *s, u32 i, u32 node,
			     u32 port, u32 dir)
{
	return ((s->t.link_base[i] + node * s->t.w[i] + port) << 1) | dir;
}

/* Words of one direction's vectors of level @i. */
static inline size_t sched_vec_words(const struct ft_sched *s, u32 i)
{
	return ((u64)s->t.nodes[i - 1] * s->vb[i] + 63) / 64;
}

static inline u64 sched_bitno(const struct ft_sched *s, u32 i, u32 node,
			      u32 port)
{
	return (u64)node * s->vb[i] + port;
}

static inline bool sched_bit(const struct ft_sched *s, u32 i, u32 dir,
			     u32 node, u32 port)
{
	u64 b = sched_bitno(s, i, node, port);

	return (s->vec[i][dir][b >> 6] >> (b & 63)) & 1;
}

static inline void sched_bit_set(struct ft_sched *s, u32 i, u32 dir,
				 u32 node, u32 port)
{
	u64 b = sched_bitno(s, i, node, port);

	s->vec[i][dir][b >> 6] |= 1ULL << (b & 63);
}

static inline void sched_bit_clear(struct ft_sched *s, u32 i, u32 dir,
				   u32 node, u32 port)
{
	u64 b = sched_bitno(s, i, node, port);

	s->vec[i][dir][b >> 6] &= ~(1ULL << (b & 63));
}

/* The vector of @node (w_i <= 64): bit p = port p has a free lane. */
static inline u64 sched_word(const struct ft_sched *s, u32 i, u32 dir,
			     u32 node)
{
	u64 b = (u64)node * s->vb[i];
	u64 x = s->vec[i][dir][b >> 6] >> (b & 63);

	return s->vb[i] == 64 ? x : x & ((1ULL << s->vb[i]) - 1);
}

/* Every port of level @i free: the word of each node when w_i <= 64. */
u64 sched_full_pattern(const struct ft_sched *s, u32 i);
/* Word @j of level @i's vectors with every port free; @pat as above. */
u64 sched_full_word(const struct ft_sched *s, u32 i, size_t j, u64 pat);
void sched_to_counters(struct ft_sched *s, u32 i);
void sched_sync(struct ft_sched *s);
/* Every level in counter mode (@free exact from now on). */
void sched_counters(struct ft_sched *s);

static inline void sched_take(struct ft_sched *s, u32 i, u32 node, u32 port,
			      u32 dir, u32 lanes)
{
	u32 id;

	if (s->bitmode[i]) {	/* lanes is 1: the caller saw the bit */
		sched_bit_clear(s, i, dir, node, port);
		s->dirty[i] = true;
		return;
	}
	id = sched_link(s, i, node, port, dir);
	s->free[id] -= lanes;
	if (!s->free[id])
		sched_bit_clear(s, i, dir, node, port);
}

/*
 * One level of a level-by-level path: take up-port @p of level @i at the
 * source's switch @us and the destination's @ds, record it in @o and in
 * @y (the node numbering's running index). True when level @i is the
 * request's common level: its path is whole and it is granted.
 */
static inline bool sched_take_port(struct ft_sched *s, u32 i, u32 us, u32 ds,
				   u32 p, u32 lanes, struct ft_sched_out *o,
				   u32 *y)
{
	sched_take(s, i, us, p, FT_UP, lanes);
	sched_take(s, i, ds, p, FT_DOWN, lanes);
	o->port[i - 1] = (u16)p;
	*y = *y * s->t.w[i] + p;
	if (o->hh != i)
		return false;
	o->status = FT_SCHED_GRANTED;
	return true;
}

static inline void sched_give(struct ft_sched *s, u32 i, u32 node, u32 port,
			      u32 dir, u32 lanes)
{
	u32 id;

	if (s->bitmode[i]) {
		if (lanes == 1 && !sched_bit(s, i, dir, node, port)) {
			sched_bit_set(s, i, dir, node, port);
			s->dirty[i] = true;
			return;
		}
		sched_to_counters(s, i);	/* more than one lane */
	}
	id = sched_link(s, i, node, port, dir);
	s->free[id] += lanes;
	if (s->free[id])
		sched_bit_set(s, i, dir, node, port);
}

static inline u32 sched_free(const struct ft_sched *s, u32 i, u32 node,
			     u32 port, u32 dir)
{
	if (s->bitmode[i])
		return sched_bit(s, i, dir, node, port);
	return s->free[sched_link(s, i, node, port, dir)];
}

/*
 * Availability of the ports of node @node at level @i (links to level i)
 * in direction @dir for @lanes lanes, into @v (nw[i] words).
 */
void sched_avail(const struct ft_sched *s, u32 i, u32 dir, u32 node,
		 u32 lanes, u64 *v);
/* Lowest set bit of @v (@nw words), or SCHED_NONE. */
u32 sched_first(const u64 *v, u32 nw);
/* A uniform set bit of @v, or SCHED_NONE. */
u32 sched_pick(struct ft_sched *s, const u64 *v, u32 nw);

/* Request @r is well formed. */
static inline bool sched_valid(const struct ft_sched *s,
			       const struct ft_sched_req *r)
{
	return r->src < s->t.n && r->dst < s->t.n && r->lanes >= 1;
}

/* Give back the lanes of levels 1..@upto of a path (both directions). */
void sched_give_levels(struct ft_sched *s, u32 src, u32 dst,
		       const u16 *port, u32 upto, u32 lanes);
/* Take the path's @lanes if all its links have them, else nothing. */
bool sched_take_fitting(struct ft_sched *s, u32 src, u32 dst, u32 hh,
			const u16 *port, u32 lanes);
/* Take the path's lanes (caller checked that it fits). */
void sched_take_path(struct ft_sched *s, u32 src, u32 dst, u32 hh,
		     const u16 *port, u32 lanes);

/* Common level H of (@src, @dst) by divisions. */
u32 sched_common_level_div(const struct ft_sched *s, u32 src, u32 dst);

/* H of (@src, @dst) when s->pow2: by the bit length of src ^ dst. */
static inline u32 sched_hlev(const struct ft_sched *s, u32 src, u32 dst)
{
	u32 x = src ^ dst;

	return s->hlev[x ? 32 - __builtin_clz(x) : 0];
}

/* Common level H of (@src, @dst). */
static inline u32 sched_common_level(const struct ft_sched *s, u32 src,
				     u32 dst)
{
	if (s->pow2)
		return sched_hlev(s, src, dst);
	return sched_common_level_div(s, src, dst);
}
int sched_grow(struct ft_sched *s, u32 n);
/*
 * Three parallel arrays *@a, *@b, *@c grown to @n values each: 0, or
 * -ENOMEM with each of them grown or left as it was (whole either way).
 */
int sched_grow_u32(u32 n, u32 **a, u32 **b, u32 **c);
/* @bytes of scratch (contents undefined, 8-byte aligned), or NULL. */
void *sched_scratch(struct ft_sched *s, size_t bytes);
/* s->order[0..k) := the valid requests with H >= 1 in order @o. */
u32 sched_order(struct ft_sched *s, enum ft_sched_order o,
		const struct ft_sched_req *req, u32 n,
		const struct ft_sched_out *out);

void sched_refuse(struct ft_sched_out *out, u32 level, u32 where);
/* @out[0..n) as every algorithm starts: H, INVALID, GRANTED if H = 0. */
void sched_setup(const struct ft_sched *s, const struct ft_sched_req *req,
		 u32 n, struct ft_sched_out *out);

/* Add one request's outcome to the round's totals. */
static inline void sched_count(struct ft_sched_stats *st,
			       const struct ft_sched_out *out, u32 lanes)
{
	switch (out->status) {
	case FT_SCHED_GRANTED:
		st->granted++;
		st->lanes_granted += lanes;
		break;
	case FT_SCHED_INVALID:
		st->invalid++;
		break;
	default:
		st->refused++;
		if (out->fail_where == FT_SCHED_AT_UP)
			st->fail_up[out->fail_level]++;
		else
			st->fail_down[out->fail_level]++;
		break;
	}
}

int sched_levelwise(struct ft_sched *s, const struct ft_sched_opts *o,
		    const struct ft_sched_req *req, u32 n,
		    struct ft_sched_out *out);
/* @o may take the level-wise fast path on @s's free lanes. */
bool sched_lw_fast_ok(const struct ft_sched *s, const struct ft_sched_opts *o);
/*
 * The fast path on requests in the order given, setup included: fills
 * all of @out[0..n) and @st (the caller zeroed it).  With @by_src the
 * sources must ascend: false when they do not, and then the free lanes
 * are as they were (@out and @st are not).
 */
bool sched_lw_fast_all(struct ft_sched *s, const struct ft_sched_req *req,
		       u32 n, bool by_src, struct ft_sched_out *out,
		       struct ft_sched_stats *st);
int sched_local(struct ft_sched *s, const struct ft_sched_opts *o,
		const struct ft_sched_req *req, u32 n,
		struct ft_sched_out *out);
int sched_random(struct ft_sched *s, const struct ft_sched_opts *o,
		 const struct ft_sched_req *req, u32 n,
		 struct ft_sched_out *out);
int sched_optimal(struct ft_sched *s, const struct ft_sched_opts *o,
		  const struct ft_sched_req *req, u32 n,
		  struct ft_sched_out *out, struct ft_sched_stats *st);

#endif /* FT_SCHED_INT_H */
