// SPDX-License-Identifier: GPL-2.0
/*
 * Level-wise scheduling (seed 002, Figure 7), level-major as in the
 * paper's batch: level i is scheduled for every request still alive
 * before level i + 1 ("a new set of sources for level h+1 are created
 * from the set of scheduled sources at level h").  The fast path comes
 * first (its x86-64 copies must be defined before their first use), the
 * general path, sched_levelwise(), last.
 */
#include "ft_sched_int.h"

#define VEC_WORDS	(FT_MAX_W / 64)

/*
 * The fast path: one lane per link (every level in bit mode), first fit,
 * no release.  Without release a request's choice at level i depends
 * only on the level-i vectors, which only the level-i choices of the
 * requests before it have changed, so serving each request through all
 * its levels before the next one gives exactly the level-major decisions
 * of sched_levelwise() below, in one pass.
 */
bool sched_lw_fast_ok(const struct ft_sched *s, const struct ft_sched_opts *o)
{
	u32 i;

	if (o->algo != FT_SCHED_LEVELWISE || o->random_fit ||
	    o->release_on_failure || o->force_general)
		return false;
	for (i = 1; i <= s->t.h; i++)
		if (!s->bitmode[i])
			return false;
	return true;
}

/*
 * Per-level constants, copied to the stack so that the stores into the
 * vectors and @out cannot make the compiler reload them per request.
 */
struct lw_level {
	u64 *vec[2];
	bool words;		/* vb = 64 nw: whole words per node */
	u32 nw;			/* words per node when w_i > 64 */
	u64 mask;		/* the vb low bits */
	u32 vshift;		/* lg vb */
	u32 mshift, wshift;	/* pow2: lg M_(i-1), lg W_(i-1) */
	u32 pshift;		/* pow2: lg w_i */
	struct sched_div div;	/* by M_(i-1) */
	u32 wprod, w;
};

static void lw_levels(const struct ft_sched *s, struct lw_level *lv)
{
	const struct ft_topo *t = &s->t;
	u32 i;

	for (i = 1; i <= t->h; i++) {
		lv[i].vec[FT_UP] = s->vec[i][FT_UP];
		lv[i].vec[FT_DOWN] = s->vec[i][FT_DOWN];
		lv[i].words = s->vb[i] == 64 * s->nw[i];
		lv[i].nw = s->nw[i];
		lv[i].mask = s->vb[i] >= 64 ? ~0ULL : (1ULL << s->vb[i]) - 1;
		lv[i].vshift = (u32)__builtin_ctz(s->vb[i]);
		lv[i].mshift = (u32)__builtin_ctz(t->mprod[i - 1]);
		lv[i].wshift = (u32)__builtin_ctz(t->wprod[i - 1]);
		lv[i].pshift = (u32)__builtin_ctz(t->w[i]);
		lv[i].div = s->divm[i - 1];
		lv[i].wprod = t->wprod[i - 1];
		lv[i].w = t->w[i];
	}
}

/* Level-(i-1) node on @leaf's side: sched_node() by shifts if @pow2. */
static inline __attribute__((always_inline))
u32 lw_node(const struct lw_level *l, u32 leaf, u32 y, bool pow2)
{
	if (pow2)
		return (leaf >> l->mshift << l->wshift) | y;
	return sched_div(&l->div, leaf) * l->wprod + y;
}

/*
 * The up words of the first switch level a request reaches (@at) and,
 * when w_1 = 1, of the leaf level (@leaf_at), as they are now (NULL:
 * none yet); memory may be behind until lw_flush().  In source order the
 * next request usually leaves from the same switch: taking its port from
 * this copy, not from memory, keeps a store-to-load forwarding off the
 * chain that links one request to the next, and saves the store.  Only
 * the fast path reads these vectors while it runs.
 */
struct lw_cache {
	u64 *at, *leaf_at;
	u64 word, leaf_word;
};

/*
 * The word at @w through the cache (@at, @word), which is written back
 * only when another word is wanted (lw_flush() at the end): in source
 * order consecutive requests share their source's words, so most
 * requests store nothing there.
 */
static inline __attribute__((always_inline))
u64 lw_cached(u64 **at, u64 *word, u64 *w)
{
	if (__builtin_expect(w != *at, 0)) {
		if (*at)
			**at = *word;
		*at = w;
		*word = *w;
	}
	return *word;
}

static void lw_flush(struct lw_cache *c)
{
	if (c->at)
		*c->at = c->word;
	if (c->leaf_at)
		*c->leaf_at = c->leaf_word;
	c->at = c->leaf_at = NULL;
}

/*
 * Level @l for (@src, @dst) with up-port choices @y so far: takes the
 * first port free both ways and returns it, or SCHED_NONE with *@where.
 * With whole words per node (@words known, else the level's) the
 * vectors are used as they are, nw words of them if @wide (one word
 * and @c: the up word through the cache @c); packed, the
 * AND is done in the up word's bit position, so the up word's chain from
 * one request to the next (same source switch, in source order) is
 * still and, lowest bit, xor.
 */
static inline __attribute__((always_inline))
u32 lw_level(const struct lw_level *l, u32 src, u32 dst, u32 y,
	     u32 *where, bool pow2, bool words, bool wide, struct lw_cache *c)
{
	u64 ub, db, *uw, *dw, u = 0, d = 0, dv, a = 0, bit, ua = 0, da = 0;
	u32 us, ds, nw = wide ? l->nw : 1, k;

	if (words || l->words) {
		uw = l->vec[FT_UP] + (size_t)lw_node(l, src, y, pow2) * nw;
		dw = l->vec[FT_DOWN] + (size_t)lw_node(l, dst, y, pow2) * nw;
		if (c && !wide) {	/* one word: the up word may be cached */
			d = *dw;
			u = lw_cached(&c->at, &c->word, uw);
			a = u & d;
			if (!a) {
				*where = !u ? FT_SCHED_AT_UP :
					 !d ? FT_SCHED_AT_DOWN :
					      FT_SCHED_AT_BOTH;
				return SCHED_NONE;
			}
			bit = a & -a;
			c->word = u ^ bit;
			*dw = d ^ bit;
			return (u32)__builtin_ctzll(a);
		}
		for (k = 0; k < nw && !a; k++) {
			u = uw[k];
			d = dw[k];
			a = u & d;
			ua |= u;
			da |= d;
		}
		if (!a) {
			*where = !ua ? FT_SCHED_AT_UP : !da ? FT_SCHED_AT_DOWN :
							      FT_SCHED_AT_BOTH;
			return SCHED_NONE;
		}
		bit = a & -a;
		uw[k - 1] = u ^ bit;
		dw[k - 1] = d ^ bit;
		return (k - 1) * 64 + (u32)__builtin_ctzll(a);
	}
	ub = (u64)lw_node(l, src, y, pow2) << l->vshift;
	db = (u64)lw_node(l, dst, y, pow2) << l->vshift;
	uw = l->vec[FT_UP] + (ub >> 6);
	dw = l->vec[FT_DOWN] + (db >> 6);
	us = ub & 63;
	ds = db & 63;
	u = *uw;
	d = *dw;
	dv = (d >> ds) & l->mask;
	a = u & (dv << us);
	if (!a) {
		*where = !((u >> us) & l->mask) ? FT_SCHED_AT_UP :
			 !dv ? FT_SCHED_AT_DOWN : FT_SCHED_AT_BOTH;
		return SCHED_NONE;
	}
	bit = a & -a;
	*uw = u ^ bit;
	*dw = d ^ (bit >> us << ds);
	return (u32)__builtin_ctzll(a) - us;
}

/*
 * (@src, @dst), one lane, H = @hh >= 1: takes its links and writes its
 * ports (into @port, or with @pw as 16-bit fields of *@pw, H <= 4);
 * returns 0 when granted, else the level where it failed with *@where.  A constant @hmax >= hh (the tree's h) unrolls the loop over
 * levels, which also frees the registers it would spill.
 */
static inline __attribute__((always_inline))
u32 lw_fast_req(const struct lw_level *lv, u32 src, u32 dst, u32 hh,
		u16 *port, u64 *pw, u32 *where, bool pow2, bool leaf1, bool words,
		bool wide, u32 hmax, struct lw_cache *c)
{
	u32 i, y = 0, p;
	u64 *uw, *dw, u, d, ub, db;

	if (leaf1) {	/* w_1 = 1: one bit per leaf, P_1 = 0 */
		uw = lv[1].vec[FT_UP] + (src >> 6);
		u = c ? lw_cached(&c->leaf_at, &c->leaf_word, uw) : *uw;
		dw = lv[1].vec[FT_DOWN] + (dst >> 6);
		d = *dw;
		ub = 1ULL << (src & 63);
		db = 1ULL << (dst & 63);
		if (!(u & ub) || !(d & db)) {
			*where = u & ub ? FT_SCHED_AT_DOWN : FT_SCHED_AT_UP;
			return 1;
		}
		if (c)
			c->leaf_word = u ^ ub;
		else
			*uw = u ^ ub;
		*dw = d ^ db;
	}
	if (hmax && hh > hmax)
		__builtin_unreachable();
#pragma GCC unroll 4
	for (i = 1 + leaf1; i <= hh; i++) {
		p = lw_level(&lv[i], src, dst, y, where, pow2, words, wide,
			     i == 1U + leaf1 ? c : NULL);
		if (p == SCHED_NONE)
			return i;
		if (pw)
			*pw |= (u64)p << 16 * (i - 1);
		else
			port[i - 1] = (u16)p;
		y = pow2 ? (y << lv[i].pshift) | p : y * lv[i].w + p;
	}
	return 0;
}

/* H of (@src, @dst): by a table on the bit length of src ^ dst if @pow2. */
static inline __attribute__((always_inline))
u32 lw_common_level(const struct ft_sched *s, u32 src, u32 dst, bool pow2)
{
	if (pow2)
		return sched_hlev(s, src, dst);
	return sched_common_level_div(s, src, dst);
}

/* The outcome's first 16 bytes as two words: LW_PACKED lays them out. */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define LW_PACKED	1
_Static_assert(offsetof(struct ft_sched_out, hh) == 1 &&
	       offsetof(struct ft_sched_out, fail_level) == 2 &&
	       offsetof(struct ft_sched_out, fail_where) == 3 &&
	       offsetof(struct ft_sched_out, cycle) == 4 &&
	       offsetof(struct ft_sched_out, port) == 8,
	       "struct ft_sched_out as lw_put() writes it");
#else
#define LW_PACKED	0
#endif

/*
 * @o := status, H, failure (@w0: one byte each from the lowest), cycle
 * 0, ports 1-4 (@pw) and the rest 0, in whole-word stores: the fields
 * one by one after a clear cost twice the stores.
 */
static inline __attribute__((always_inline))
void lw_put(struct ft_sched_out *o, u64 w0, u64 pw)
{
	memcpy(o, &w0, sizeof(w0));
	memcpy(o->port, &pw, sizeof(pw));
	memset(o->port + 4, 0, sizeof(o->port) - 4 * sizeof(o->port[0]));
}

/*
 * One request @q of a pass with the setup (lw_fast() with @act NULL)
 * into @o: invalid requests and refusals counted in @st.  With @packed
 * (H <= 4) the outcome is built in registers and put whole.
 */
static inline __attribute__((always_inline))
void lw_one(const struct lw_level *lv, const struct ft_sched_req *q,
	    struct ft_sched_out *o, struct ft_sched_stats *st, u32 leaves,
	    const struct ft_sched *s, bool pow2, bool leaf1, bool words,
	    bool wide, u32 hmax, bool packed, struct lw_cache *c)
{
	u32 hh, f, where = 0;
	u64 pw = 0;

	if (!packed)
		memset(o, 0, sizeof(*o));
	if (q->src >= leaves || q->dst >= leaves || !q->lanes) {
		st->invalid++;
		if (packed)
			lw_put(o, FT_SCHED_INVALID, 0);
		else
			o->status = FT_SCHED_INVALID;
		return;
	}
	hh = lw_common_level(s, q->src, q->dst, pow2);
	if (!packed)
		o->hh = (u8)hh;
	if (!hh) {	/* granted, no links */
		st->lanes_granted += q->lanes - 1;
		f = 0;
	} else if (q->lanes != 1) {	/* no link has two lanes */
		f = 1;
		where = FT_SCHED_AT_UP;
	} else {
		f = lw_fast_req(lv, q->src, q->dst, hh, o->port,
				packed ? &pw : NULL, &where, pow2, leaf1,
				words, wide, hmax, c);
	}
	if (f) {
		st->refused++;
		if (where == FT_SCHED_AT_UP)
			st->fail_up[f]++;
		else
			st->fail_down[f]++;
	}
	if (!packed) {
		if (f)
			sched_refuse(o, f, where);
		return;
	}
	lw_put(o, (u64)hh << 8 |
	       (f ? FT_SCHED_REFUSED | f << 16 | where << 24 : 0), pw);
}

/*
 * Gives back what the fast path took for @req[0..n): every level of a
 * granted request, the levels below the failure of a refused one.  Each
 * bit was set before it was cleared, so the vectors are as they were.
 */
static __attribute__((noinline, cold))
void lw_undo(struct ft_sched *s, const struct ft_sched_req *req,
	     const struct ft_sched_out *out, u32 n)
{
	u32 j, upto;

	for (j = 0; j < n; j++) {
		if (out[j].status == FT_SCHED_GRANTED)
			upto = out[j].hh;
		else if (out[j].status == FT_SCHED_REFUSED)
			upto = out[j].fail_level - 1U;
		else
			continue;
		sched_give_levels(s, req[j].src, req[j].dst, out[j].port, upto,
				  1);
	}
}

/*
 * The end of a fast pass over @n requests (@act as in lw_fast()), its
 * cached words written back: undone if @undo (sources out of order),
 * else the totals.
 */
static bool lw_end(struct ft_sched *s, const struct ft_sched_req *req,
		   u32 n, const u32 *act, bool undo,
		   const struct ft_sched_out *out, struct ft_sched_stats *st)
{
	u32 j;

	if (undo) {	/* for the sorting path */
		lw_undo(s, req, out, n);
		return false;
	}
	/* Bit mode: the counters are stale (at worst needlessly synced). */
	for (j = 1; n && j <= s->t.h; j++)
		s->dirty[j] = true;
	if (!act) {	/* every granted request with H >= 1 has one lane */
		st->granted = n - st->refused - st->invalid;
		st->lanes_granted += st->granted;
		st->fast = 1;
	}
	return true;
}

/*
 * The fast path over @n requests: @act NULL, in array order with the
 * setup and totals of ft_sched_run() done here (into @st), and with
 * @by_src checking on the way that the sources ascend (false when they
 * do not: nothing is changed then but @out and @st); else over
 * act[0..n), set up by ft_sched_run(), which also counts.  The loop keeps
 * no counter of its own (registers are short, a spill costs more than
 * the count): refusals and invalid requests, the rare cases, are counted
 * in @st, the rest is derived at the end.
 */
static inline __attribute__((always_inline))
bool lw_fast(struct ft_sched *s, const struct ft_sched_req *req, u32 n,
	     const u32 *act, bool by_src, struct ft_sched_out *out,
	     struct ft_sched_stats *st, bool pow2, bool leaf1, bool words,
	     bool wide, u32 hmax)
{
	struct lw_level lv[FT_MAX_LEVELS + 1];
	struct lw_cache c = { NULL, NULL, 0, 0 };
	u32 j, leaves = s->t.n, prev = 0;
	bool down = false;

	lw_levels(s, lv);
	for (j = 0; !act && j < n; j++) {
		/* Out of source order: a flag, not a branch, in the loop. */
		down |= req[j].src < prev;
		prev = req[j].src;
		lw_one(lv, &req[j], &out[j], st, leaves, s, pow2, leaf1, words,
		       wide, hmax, LW_PACKED && hmax && hmax <= 4,
		       words ? &c : NULL);
	}
	for (j = 0; act && j < n; j++) {
		const struct ft_sched_req *q = &req[act[j]];
		struct ft_sched_out *o = &out[act[j]];
		u32 where = 0, f = 1;

		if (q->lanes == 1)	/* else no link has two lanes */
			f = lw_fast_req(lv, q->src, q->dst, o->hh, o->port,
					NULL, &where, pow2, leaf1, words, wide,
					hmax, words ? &c : NULL);
		else
			where = FT_SCHED_AT_UP;
		if (f)
			sched_refuse(o, f, where);
		else
			o->status = FT_SCHED_GRANTED;
	}
	lw_flush(&c);
	return lw_end(s, req, n, act, by_src && down, out, st);
}

/*
 * A request lw_ft() leaves to lw_one(): invalid, H = 0 or more than one
 * lane.  None of them touches a vector, so lw_ft()'s cached words stay
 * right.
 */
static __attribute__((noinline))
void lw_odd(const struct ft_sched *s, const struct ft_sched_req *q,
	    struct ft_sched_out *o, struct ft_sched_stats *st)
{
	lw_one(NULL, q, o, st, s->t.n, s, s->pow2, false, false, false, 0,
	       false, NULL);
}

/*
 * The up word at @uw (*@u) and the down word at @dw (*@d) ANDed: when
 * some port is free in both, the lowest is taken from both.
 */
static inline __attribute__((always_inline))
u64 lw_word(u64 *uw, u64 *dw, u64 *u, u64 *d)
{
	u64 a, bit;

	*u = *uw;
	*d = *dw;
	a = *u & *d;
	if (a) {
		bit = a & -a;
		*uw = *u ^ bit;
		*dw = *d ^ bit;
	}
	return a;
}

/*
 * The window of lw_ft1() over the @nw > 1 up words of the source's
 * switch: its first word with a free port (the last if none), at index
 * kb, cached as lw_cache caches one word; the words below it are 0.
 */
struct lw_win {
	u64 *at;	/* the word in the vector */
	u64 word;
	u64 *down;	/* the down vector from word kb (dst's words + kb) */
	u32 kb;
};

/*
 * The window's word of the switch at @ub (its first word with a free
 * port, the last if none), @word written back to @at (if any) first.
 * Out of line (it runs once per 64 requests at most), and with no
 * address of the window passed, so that the loop keeps it in registers.
 */
static __attribute__((noinline))
u64 *lw_window_at(u64 *at, u64 word, u64 *ub, u32 nw)
{
	u32 k = 0;

	if (at)
		*at = word;
	while (k + 1 < nw && !ub[k])
		k++;
	return ub + k;
}

/* @wn := the window of the switch at @ub (down vectors @dv). */
static inline __attribute__((always_inline))
void lw_window(struct lw_win *wn, u64 *ub, u64 *dv, u32 nw)
{
	wn->at = lw_window_at(wn->at, wn->word, ub, nw);
	wn->kb = (u32)(wn->at - ub);
	wn->word = *wn->at;
	wn->down = dv + wn->kb;
}

/*
 * lw_word() over the @nw > 1 words of a switch: the up words through
 * the window @wn, the down words at dv + @dn.  Up ports are taken lowest
 * first, so the words below the window's are 0 and most often the first
 * port free both ways is in the window's word (89 % of the requests of
 * a random permutation on FT(2,256), 93 % on FT(2,128)): one AND and a
 * well predicted branch, as with one word, and the words above it only
 * when it has none.  Selecting the word without a branch (by the borrow
 * of a multi-word negation, or over a window of two words) puts more
 * steps on the chain from one request to the next of the same switch,
 * and was slower.  Returns the AND that gave port *@p, or 0 with *@u
 * and *@d the ORs of the up and down words.
 */
static inline __attribute__((always_inline))
u64 lw_wide(struct lw_win *wn, u64 *dv, size_t dn, u32 nw, u32 *p, u64 *u,
	    u64 *d)
{
	u32 kb = wn->kb, j;
	u64 a = wn->word & wn->down[dn], *ub, *dw;

	if (__builtin_expect(a != 0, 1)) {
		wn->word ^= a & -a;
		wn->down[dn] ^= a & -a;
		*p = kb * 64 + (u32)__builtin_ctzll(a);
		if (__builtin_expect(!wn->word, 0))
			lw_window(wn, wn->at - kb, dv, nw);
		return a;
	}
	ub = wn->at - kb;
	dw = dv + dn;
	for (j = kb + 1; j < nw; j++) {
		a = ub[j] & dw[j];
		if (a) {
			ub[j] ^= a & -a;
			dw[j] ^= a & -a;
			*p = j * 64 + (u32)__builtin_ctzll(a);
			return a;
		}
	}
	*u = *d = 0;
	for (j = 0; j < nw; j++) {
		*u |= ub[j];
		*d |= dw[j];
	}
	*u |= wn->word;
	return 0;
}

/*
 * The leaf level of lw_ft()/lw_ft1() (w_1 = 1, one bit per leaf): the
 * source's up word is *@uw (cached), the destination's down word in @d1.
 * False, with *@where, when either bit is taken.
 */
static inline __attribute__((always_inline))
bool lw_leaf(u64 *uw, u64 *d1, u32 src, u32 dst, u32 *where)
{
	u64 u = *uw, *dw = d1 + (dst >> 6), d = *dw;

	if (!(u >> (src & 63) & d >> (dst & 63) & 1)) {
		*where = u >> (src & 63) & 1 ? FT_SCHED_AT_DOWN :
					      FT_SCHED_AT_UP;
		return false;
	}
	*uw = u ^ 1ULL << (src & 63);
	*dw = d ^ 1ULL << (dst & 63);
	return true;
}

/*
 * @o := refused at level @f (@where), H @hh, ports so far @pw; counted
 * in @fup or @fdown (their sum is the refusals).
 */
static inline __attribute__((always_inline))
void lw_refused(struct ft_sched_out *o, u32 hh, u32 f, u32 where, u64 pw,
		u32 *fup, u32 *fdown)
{
	if (where == FT_SCHED_AT_UP)
		fup[f]++;
	else
		fdown[f]++;
	lw_put(o, (u64)hh << 8 | FT_SCHED_REFUSED | f << 16 |
	       (u64)where << 24, pw);
}

/* lw_end() for lw_ft()/lw_ft1(), with their refusals per level. */
static bool lw_ft_end(struct ft_sched *s, const struct ft_sched_req *req,
		      u32 n, bool undo, struct ft_sched_out *out,
		      struct ft_sched_stats *st, u32 h, const u32 *fup,
		      const u32 *fdown)
{
	u32 k;

	for (k = 1; k <= h; k++) {
		st->fail_up[k] += fup[k];
		st->fail_down[k] += fdown[k];
		st->refused += fup[k] + fdown[k];
	}
	return lw_end(s, req, n, NULL, undo, out, st);
}

/*
 * lw_fast() for FT(3, k)-like trees: power-of-two shapes, w_1 = 1, one
 * word per switch; requests in array order with the setup (@act NULL).
 * lw_ft1() below takes the cases with m_2 = w_2 (and h = 2); this one
 * the others.  The same steps with every constant in a register: H by
 * comparing src ^ dst with M_1 and M_2 (no table), level 2's node
 * src / M_1 (W_1 = 1, P_1 = 0), level 3's (src / M_2) W_2 + P_2.
 */
static inline __attribute__((always_inline))
bool lw_ft(struct ft_sched *s, const struct ft_sched_req *req, u32 n,
	   bool by_src, struct ft_sched_out *out, struct ft_sched_stats *st,
	   u32 h)
{
	u64 *u1 = s->vec[1][FT_UP], *d1 = s->vec[1][FT_DOWN];
	u64 *u2 = s->vec[2][FT_UP], *d2 = s->vec[2][FT_DOWN];
	u64 *u3 = h == 3 ? s->vec[3][FT_UP] : NULL;
	u64 *d3 = h == 3 ? s->vec[3][FT_DOWN] : NULL;
	u32 m1 = (u32)__builtin_ctz(s->t.mprod[1]), leaves = s->t.n;
	u32 m2 = h == 3 ? (u32)__builtin_ctz(s->t.mprod[2]) : 0;
	u32 w2 = (u32)__builtin_ctz(s->t.w[2]), prev = 0, j;
	u32 fup[4] = { 0 }, fdown[4] = { 0 };
	struct lw_cache c = { NULL, NULL, 0, 0 };
	bool down = false;

	for (j = 0; j < n; j++) {
		u32 src = req[j].src, dst = req[j].dst, x = src ^ dst;
		u32 hh, f, where, p;
		u64 pw = 0, u, d, a;

		down |= src < prev;
		prev = src;
		/* One test for the rare cases (leaves is a power of two). */
		if (__builtin_expect(((src | dst) & ~(leaves - 1)) |
				     (req[j].lanes ^ 1) | (x == 0), 0)) {
			lw_odd(s, &req[j], &out[j], st);
			continue;
		}
		hh = 1 + (x >> m1 != 0) + (h == 3 && x >> m2 != 0);
		/* Level 1: one bit per leaf. */
		lw_cached(&c.leaf_at, &c.leaf_word, u1 + (src >> 6));
		if (!lw_leaf(&c.leaf_word, d1, src, dst, &where)) {
			f = 1;
			goto refused;
		}
		if (hh == 1)
			goto granted;
		/* Level 2: the source's switch word cached. */
		lw_cached(&c.at, &c.word, u2 + (src >> m1));
		a = lw_word(&c.word, d2 + (dst >> m1), &u, &d);
		if (!a) {
			f = 2;
			goto failed;
		}
		p = (u32)__builtin_ctzll(a);
		pw = (u64)p << 16;
		if (h == 2 || hh == 2)
			goto granted;
		a = lw_word(u3 + ((src >> m2 << w2) | p),
			    d3 + ((dst >> m2 << w2) | p), &u, &d);
		if (!a) {
			f = 3;
			goto failed;
		}
		pw |= (u64)__builtin_ctzll(a) << 32;
granted:
		lw_put(&out[j], (u64)hh << 8, pw);
		continue;
failed:
		where = !u ? FT_SCHED_AT_UP : !d ? FT_SCHED_AT_DOWN :
					       FT_SCHED_AT_BOTH;
refused:
		lw_refused(&out[j], hh, f, where, pw, fup, fdown);
	}
	lw_flush(&c);
	return lw_ft_end(s, req, n, by_src && down, out, st, h, fup, fdown);
}

/*
 * lw_ft() with, when h = 3, m_2 = w_2 as in FT(3, k), with fewer values
 * live in the loop, so that the constants stay in registers.
 *  - The source's cached words (the leaf word, the level-2 word) and
 *    its level-3 up vector (u3p, one word per port) change only when
 *    src >> g does (g = min(6, lg M_1): the group of sources sharing
 *    all three), so one test per request covers them: src past the
 *    group's end with @by_src (the sources ascend), else outside it.
 *  - H by a table on the bit length of src ^ dst, on the stack (no
 *    register for it); H = 0 joins the rare cases.
 *  - The destination's level-3 node, (dst >> lg M_2 << lg W_2) | P_2,
 *    is its level-2 node with the low lg w_2 bits replaced by P_2 (since
 *    M_2 = M_1 w_2 and W_2 = w_2).
 *  - With @by_src (a constant) the first source below the one before
 *    ends the pass: it is undone anyway.
 *  - h = 2 with @nw = 2 or 4 words per switch (128 or 256 ports, a
 *    constant): the source's up words through a window of one word
 *    (lw_wide()).  @lgm1: lg M_1 when the caller knows it as a constant
 *    (M_1 = 64 nw in FT(2, 64 nw)), else 0.
 */
static inline __attribute__((always_inline))
bool lw_ft1(struct ft_sched *s, const struct ft_sched_req *req, u32 n,
	    bool by_src, struct ft_sched_out *out, struct ft_sched_stats *st,
	    u32 h, u32 nw, u32 lgm1)
{
	const struct ft_sched_req *q, *end = req + n;
	struct ft_sched_out *o = out;
	u64 *u1 = s->vec[1][FT_UP], *d1 = s->vec[1][FT_DOWN];
	u64 *u2 = s->vec[2][FT_UP], *d2 = s->vec[2][FT_DOWN];
	u64 *u3 = h == 3 ? s->vec[3][FT_UP] : NULL;
	u64 *d3 = h == 3 ? s->vec[3][FT_DOWN] : NULL, *u3p = u3;
	u32 m1 = lgm1 ? lgm1 : (u32)__builtin_ctz(s->t.mprod[1]);
	u32 nmask = ~(s->t.n - 1);
	u32 m2 = h == 3 ? (u32)__builtin_ctz(s->t.mprod[2]) : 0;
	u32 w2 = (u32)__builtin_ctz(s->t.wprod[2]), g = m1 < 6 ? m1 : 6;
	u32 prev = 0, gbase = 0, gspan = 1U << g, glim = gspan, k;
	u32 fup[4] = { 0 }, fdown[4] = { 0 };
	u64 himask = ~(((u64)1 << w2) - 1);
	/* Group 0's words to start with (written back as they are). */
	struct lw_cache c = { nw == 1 ? u2 : NULL, u1, nw == 1 ? *u2 : 0, *u1 };
	struct lw_win wn = { NULL, 0, NULL, 0 };
	bool down = false;
	u8 hl[32];

	if (nw > 1)
		lw_window(&wn, u2, d2, nw);

	/* By leading zeros: hl[z] = H for the bit length 31 - z. */
	for (k = 0; k < 32; k++)
		hl[k] = s->hlev[31 - k];
	for (q = req; q < end; q++, o++) {
		u32 src = q->src, dst = q->dst, x = src ^ dst;
		/* The bit length of x, with no branch for x = 0. */
		u32 hh = hl[(u32)__builtin_clz(x << 1 | 1)], f, where, p, i2;
		u64 pw = 0, u, d, a;

		if (by_src && __builtin_expect(src < prev, 0)) {
			down = true;
			n = (u32)(q - req);	/* the requests lw_end() undoes */
			break;
		}
		prev = src;
		/* One test for the rare cases (leaves is a power of two). */
		if (__builtin_expect(((src | dst) & nmask) | (q->lanes ^ 1),
				     0) || !hh) {
			lw_odd(s, q, o, st);
			continue;
		}
		if (__builtin_expect(by_src ? src >= glim :
				     src - gbase >= gspan, 0)) {
			gbase = src >> g << g;
			glim = gbase + gspan;
			lw_cached(&c.leaf_at, &c.leaf_word, u1 + (src >> 6));
			if (nw == 1)
				lw_cached(&c.at, &c.word, u2 + (src >> m1));
			else if (wn.at - wn.kb != u2 + (size_t)(src >> m1) * nw)
				lw_window(&wn, u2 + (size_t)(src >> m1) * nw,
					  d2, nw);
			if (h == 3)
				u3p = u3 + ((size_t)(src >> m2) << w2);
		}
		/* Level 1: one bit per leaf. */
		if (!lw_leaf(&c.leaf_word, d1, src, dst, &where)) {
			f = 1;
			goto refused;
		}
		if (hh == 1)
			goto granted;
		/* Level 2: the source's switch word cached. */
		i2 = dst >> m1;
		if (nw == 1)
			a = lw_word(&c.word, d2 + i2, &u, &d);
		else
			a = lw_wide(&wn, d2, (size_t)i2 * nw, nw, &p, &u, &d);
		if (!a) {
			f = 2;
			goto failed;
		}
		if (nw == 1)
			p = (u32)__builtin_ctzll(a);
		pw = (u64)p << 16;
		if (h == 2 || hh == 2)
			goto granted;
		a = lw_word(u3p + p, d3 + ((i2 & himask) | p), &u, &d);
		if (!a) {
			f = 3;
			goto failed;
		}
		pw |= (u64)__builtin_ctzll(a) << 32;
granted:
		lw_put(o, (u64)hh << 8, pw);
		continue;
failed:
		where = !u ? FT_SCHED_AT_UP : !d ? FT_SCHED_AT_DOWN :
					       FT_SCHED_AT_BOTH;
refused:
		lw_refused(o, hh, f, where, pw, fup, fdown);
	}
	lw_flush(&c);
	if (nw > 1)
		*wn.at = wn.word;
	return lw_ft_end(s, req, n, down, out, st, h, fup, fdown);
}

/*
 * lw_ft1() for h = 2, @nw = 2 or 4 words per switch and lg M_1 = @lgm1,
 * a copy for each order.
 */
static inline __attribute__((always_inline))
bool lw_ft_wide(struct ft_sched *s, const struct ft_sched_req *req, u32 n,
		bool by_src, struct ft_sched_out *out,
		struct ft_sched_stats *st, u32 nw, u32 lgm1)
{
	return by_src ? lw_ft1(s, req, n, true, out, st, 2, nw, lgm1) :
			lw_ft1(s, req, n, false, out, st, 2, nw, lgm1);
}

/*
 * x86-64: a second copy for CPUs with BMI2 (x86-64-v3), chosen when the
 * program is loaded: its shifts take their count from any register, so
 * fewer values are spilled.  FT_SCHED_NO_CLONES builds the portable copy
 * alone (tests run it too).
 */
#if defined(__x86_64__) && !defined(FT_SCHED_NO_CLONES) && \
	defined(__has_attribute)
#if __has_attribute(target_clones)
#define LW_CLONES __attribute__((target_clones("arch=x86-64-v3", "default")))
#endif
#endif
#ifndef LW_CLONES
#define LW_CLONES
#endif

LW_CLONES
static bool lw_fast_all(struct ft_sched *s, const struct ft_sched_req *req,
			u32 n, bool by_src, struct ft_sched_out *out,
			struct ft_sched_stats *st)
{
	bool leaf1 = s->t.w[1] == 1, ft = s->pow2 && leaf1 && s->words;

	/* Seed 002's FT(l, w), l = 3 or 2, w <= 64, are the first cases. */
	if (LW_PACKED && ft && !s->wide && s->t.h == 3 &&
	    s->t.m[2] == s->t.w[2])
		return by_src ? lw_ft1(s, req, n, true, out, st, 3, 1, 0) :
				lw_ft1(s, req, n, false, out, st, 3, 1, 0);
	if (LW_PACKED && ft && !s->wide && s->t.h == 2)
		return by_src ? lw_ft1(s, req, n, true, out, st, 2, 1, 0) :
				lw_ft1(s, req, n, false, out, st, 2, 1, 0);
	if (LW_PACKED && ft && !s->wide && s->t.h == 3)
		return lw_ft(s, req, n, by_src, out, st, 3);
	/*
	 * w_2 = 128, 256: FT(2, w_2) (M_1 = w_2) with both orders and
	 * lg M_1 constants, other such trees with them as variables (one
	 * copy each: a copy per order, here, moved FT(2, 256)'s loop
	 * enough to cost it 3 %).
	 */
	if (LW_PACKED && ft && s->t.h == 2 && s->nw[2] == 2 &&
	    s->t.mprod[1] == 128)
		return lw_ft_wide(s, req, n, by_src, out, st, 2, 7);
	if (LW_PACKED && ft && s->t.h == 2 && s->nw[2] == 4 &&
	    s->t.mprod[1] == 256)
		return lw_ft_wide(s, req, n, by_src, out, st, 4, 8);
	if (LW_PACKED && ft && s->t.h == 2 && s->nw[2] == 2)
		return lw_ft1(s, req, n, by_src, out, st, 2, 2, 0);
	if (LW_PACKED && ft && s->t.h == 2 && s->nw[2] == 4)
		return lw_ft1(s, req, n, by_src, out, st, 2, 4, 0);
	if (ft && s->t.h == 2)	/* FT(2, w), w = 128, 256 */
		return lw_fast(s, req, n, NULL, by_src, out, st, true, true,
			       true, true, 2);
	return lw_fast(s, req, n, NULL, by_src, out, st, s->pow2, leaf1,
		       s->words, s->wide, 0);
}

/* Exported plainly: clang makes copies of static functions only. */
bool sched_lw_fast_all(struct ft_sched *s, const struct ft_sched_req *req,
		       u32 n, bool by_src, struct ft_sched_out *out,
		       struct ft_sched_stats *st)
{
	return lw_fast_all(s, req, n, by_src, out, st);
}

LW_CLONES
static void lw_fast_order(struct ft_sched *s, const struct ft_sched_req *req,
			  const u32 *act, u32 k, struct ft_sched_out *out)
{
	lw_fast(s, req, k, act, false, out, NULL, s->pow2, s->t.w[1] == 1,
		s->words, s->wide, 0);
}

/*
 * Of the ports in @cand (a free lane on node @us's up link and @ds's down
 * link of level @i, a counted level), those with @lanes free both ways;
 * with @first only the lowest of them.
 */
static u64 lw_ports_with(const struct ft_sched *s, u32 i, u32 us, u32 ds,
			 u32 lanes, u64 cand, bool first)
{
	const u32 *fu = s->free + ((s->t.link_base[i] + us * s->t.w[i]) << 1) + FT_UP;
	const u32 *fd = s->free + ((s->t.link_base[i] + ds * s->t.w[i]) << 1) + FT_DOWN;
	u64 m = 0, b;
	u32 p;

	for (; cand; cand &= cand - 1) {
		p = (u32)__builtin_ctzll(cand);
		if (fu[2 * p] < lanes || fd[2 * p] < lanes)
			continue;
		b = 1ULL << p;
		if (first)
			return b;
		m |= b;
	}
	return m;
}

int sched_levelwise(struct ft_sched *s, const struct ft_sched_opts *o,
		    const struct ft_sched_req *req, u32 n,
		    struct ft_sched_out *out)
{
	const struct ft_topo *t = &s->t;
	u32 k = sched_order(s, o->order, req, n, out);
	u32 *act = s->order, *y = s->y;
	u64 uv[VEC_WORDS], dv[VEC_WORDS], a;
	u32 i, j, keep, r, us, ds, p, nw, q, where;
	const struct ft_sched_req *rq;

	if (sched_lw_fast_ok(s, o)) {
		lw_fast_order(s, req, act, k, out);
		return 0;
	}
	for (j = 0; j < k; j++)
		y[act[j]] = 0;
	for (i = 1; k && i <= t->h; i++) {
		nw = s->nw[i];
		keep = 0;
		for (j = 0; j < k; j++) {
			r = act[j];
			rq = &req[r];
			us = sched_node(s, i, rq->src, y[r]);
			ds = sched_node(s, i, rq->dst, y[r]);
			if (nw == 1 && (rq->lanes == 1 || !s->bitmode[i])) {
				/* The paper's case: one AND of two words. */
				uv[0] = sched_word(s, i, FT_UP, us);
				dv[0] = sched_word(s, i, FT_DOWN, ds);
				a = uv[0] & dv[0];
				/*
				 * More lanes: of those ports, the ones whose
				 * counters have them both ways (the ports
				 * sched_avail() would give, without reading
				 * every port's counters twice).
				 */
				if (rq->lanes > 1)
					a = lw_ports_with(s, i, us, ds, rq->lanes, a,
							  !o->random_fit);
				if (!a)
					p = SCHED_NONE;
				else if (o->random_fit)
					p = sched_pick(s, &a, 1);
				else
					p = (u32)__builtin_ctzll(a);
				if (p == SCHED_NONE && rq->lanes > 1) {	/* for @where */
					sched_avail(s, i, FT_UP, us, rq->lanes, uv);
					sched_avail(s, i, FT_DOWN, ds, rq->lanes, dv);
				}
			} else {
				sched_avail(s, i, FT_UP, us, rq->lanes, uv);
				sched_avail(s, i, FT_DOWN, ds, rq->lanes, dv);
				for (q = 0; q < nw; q++)
					dv[q] &= uv[q];
				p = o->random_fit ? sched_pick(s, dv, nw) :
						    sched_first(dv, nw);
				if (p == SCHED_NONE)	/* for @where below */
					sched_avail(s, i, FT_DOWN, ds,
						    rq->lanes, dv);
			}
			if (p == SCHED_NONE) {
				where = sched_first(uv, nw) == SCHED_NONE ?
					FT_SCHED_AT_UP :
					sched_first(dv, nw) == SCHED_NONE ?
					FT_SCHED_AT_DOWN : FT_SCHED_AT_BOTH;
				sched_refuse(&out[r], i, where);
				if (o->release_on_failure)
					sched_give_levels(s, rq->src, rq->dst,
							  out[r].port, i - 1,
							  rq->lanes);
				continue;
			}
			if (!sched_take_port(s, i, us, ds, p, rq->lanes, &out[r], &y[r]))
				act[keep++] = r;
		}
		k = keep;
	}
	return 0;
}
