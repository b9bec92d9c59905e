// SPDX-License-Identifier: GPL-2.0
/*
 * Leiserson's off-line schedule (seed 004, Theorem 1).
 *
 * Messages are grouped by their LCA level H.  A group is split by
 * SPLIT-EVEN until every part is a one-cycle set (every channel's load
 * at most its capacity); the parts of H = 1, 2, ... are the cycles.
 *
 * SPLIT-EVEN of a set whose messages all have their LCA at level H
 * (possibly at different LCA nodes), generalised from the binary tree's
 * "left to right through x" to m-ary subtrees: every message is a string
 * with a source end and a destination end.  Matching: source ends are
 * paired inside every leaf, then the leftovers (at most one per leaf)
 * inside every level-1 subtree, and so on up to the children of the LCAs;
 * the last leftovers are paired arbitrarily (no channel above level H - 1
 * is used).  Destination ends likewise.  Every message has at most one
 * source mate and one destination mate, so mates form paths and cycles
 * whose edges alternate between the two kinds: cycles are even.  Tracing
 * is their 2-colouring (starting at the ends of paths, then around
 * cycles): mates get different halves.  For a subtree T below the LCAs,
 * all of the set's sources in T cross T's up channel, and they are mated
 * in pairs inside T except at most one, so each half gets at most
 * ceil(load / 2) of that channel; the same for down channels.  Hence
 * after j splits every load is at most ceil(load / 2^j), and a group is
 * done after ceil(lg lambda) halvings: at most 2^ceil(lg lambda) < 2
 * lambda parts (one if lambda <= 1), and at most 2 ceil(lambda) per
 * level in all.  (Leiserson splits the two directions through x
 * separately and routes them together; here they are one set, as their
 * channels are disjoint.)
 *
 * With w = 1 a channel is one link and the cycles are routed as they
 * are.  With some w_i > 1 a channel is a bundle of links: each cycle's
 * messages are given ports by OPTIMAL on the free lanes, and those it
 * refuses spill into extra cycles at the end (OPTIMAL rounds until none
 * is left; a message that no round can place is refused).
 */
#include "ft_sched_int.h"

/* Dense per-cycle loads for the compaction above this: no compaction. */
#define COMPACT_MAX_CELLS	(1U << 26)

struct leis {
	struct ft_sched *s;
	const struct ft_sched_req *msg;
	const struct ft_sched_out *out;
	u32 nch;		/* channels, both directions */
	u64 *cap;		/* per channel: sum of its links' free lanes */
	u32 *load;		/* per channel, zero between uses */
	u32 *touched;
	u32 *m;			/* message indices, split in place */
	u32 *buf;
	u32 *smate;
	u32 *dmate;
	u32 *col;
	u32 *part_a;		/* parts: m[part_a[k]..part_b[k]), level */
	u32 *part_b;
	u32 *part_h;
	u32 nparts;
	u32 partcap;
};

static inline u32 chan(const struct ft_sched *s, u32 level, u32 leaf,
		       u32 dir)
{
	return ((s->t.chan_base[level] + sched_div(&s->divm[level], leaf))
		<< 1) | dir;
}

/* Loads of m[a..b) into ls->load; return the channels touched. */
static u32 leis_loads(struct leis *ls, u32 a, u32 b)
{
	u32 i, c, nt = 0, x;

	for (x = a; x < b; x++) {
		const struct ft_sched_req *q = &ls->msg[ls->m[x]];
		u32 hh = ls->out[ls->m[x]].hh;

		for (i = 0; i < hh; i++) {
			c = chan(ls->s, i, q->src, FT_UP);
			if (!ls->load[c]++)
				ls->touched[nt++] = c;
			c = chan(ls->s, i, q->dst, FT_DOWN);
			if (!ls->load[c]++)
				ls->touched[nt++] = c;
		}
	}
	return nt;
}

static void leis_clear(struct leis *ls, u32 nt)
{
	u32 j;

	for (j = 0; j < nt; j++)
		ls->load[ls->touched[j]] = 0;
}

static bool leis_one_cycle(struct leis *ls, u32 a, u32 b)
{
	u32 nt = leis_loads(ls, a, b), j;
	bool ok = true;

	for (j = 0; j < nt && ok; j++)
		ok = ls->load[ls->touched[j]] <= ls->cap[ls->touched[j]];
	leis_clear(ls, nt);
	return ok;
}

static int cmp_u64(const void *pa, const void *pb)
{
	u64 a = *(const u64 *)pa, b = *(const u64 *)pb;

	return a < b ? -1 : a > b;
}

/*
 * Pair the ends of m[a..b) at their @dst (or source) leaves, innermost
 * subtrees first, into @mate.
 */
static void leis_mate(struct leis *ls, u32 a, u32 b, u32 hh, bool dst,
		      u32 *mate, u64 *keys)
{
	const struct ft_sched *s = ls->s;
	u32 k = b - a, j, x, y, z, nk, key, *list = ls->buf;

	for (x = 0; x < k; x++) {
		const struct ft_sched_req *q = &ls->msg[ls->m[a + x]];

		keys[x] = ((u64)(dst ? q->dst : q->src) << 32) | ls->m[a + x];
		mate[ls->m[a + x]] = SCHED_NONE;
	}
	qsort(keys, k, sizeof(*keys), cmp_u64);
	for (x = 0; x < k; x++)
		list[x] = (u32)keys[x];
	for (j = 0; j < hh; j++) {
		nk = 0;
		for (x = 0; x < k; x = y) {
			const struct ft_sched_req *q = &ls->msg[list[x]];

			key = sched_div(&s->divm[j], dst ? q->dst : q->src);
			for (y = x + 1; y < k; y++) {
				q = &ls->msg[list[y]];
				if (sched_div(&s->divm[j],
					      dst ? q->dst : q->src) != key)
					break;
			}
			for (z = x; z + 1 < y; z += 2) {
				mate[list[z]] = list[z + 1];
				mate[list[z + 1]] = list[z];
			}
			if ((y - x) & 1)
				list[nk++] = list[y - 1];
		}
		k = nk;
	}
	for (z = 0; z + 1 < k; z += 2) {
		mate[list[z]] = list[z + 1];
		mate[list[z + 1]] = list[z];
	}
}

/* Colour the mate path or cycle through @x, entering it by neither mate. */
static void leis_trace(struct leis *ls, u32 x, bool via_dst)
{
	u32 c = 0, nx;

	while (x != SCHED_NONE && ls->col[x] == SCHED_NONE) {
		ls->col[x] = c;
		c ^= 1;
		nx = via_dst ? ls->dmate[x] : ls->smate[x];
		via_dst = !via_dst;
		x = nx;
	}
}

/* SPLIT-EVEN of m[a..b): colour-0 messages first; return the middle. */
static u32 leis_split_even(struct leis *ls, u32 a, u32 b, u32 hh, u64 *keys)
{
	u32 x, id, mid, k0 = 0, k1 = 0;

	leis_mate(ls, a, b, hh, false, ls->smate, keys);
	leis_mate(ls, a, b, hh, true, ls->dmate, keys);
	for (x = a; x < b; x++)
		ls->col[ls->m[x]] = SCHED_NONE;
	/* Paths first, from an end: leave by the mate it has. */
	for (x = a; x < b; x++) {
		id = ls->m[x];
		if (ls->col[id] != SCHED_NONE)
			continue;
		if (ls->smate[id] == SCHED_NONE)
			leis_trace(ls, id, true);
		else if (ls->dmate[id] == SCHED_NONE)
			leis_trace(ls, id, false);
	}
	for (x = a; x < b; x++)
		if (ls->col[ls->m[x]] == SCHED_NONE)
			leis_trace(ls, ls->m[x], true);
	for (x = a; x < b; x++)
		if (!ls->col[ls->m[x]])
			k0++;
	mid = a + k0;
	for (x = a; x < b; x++) {
		id = ls->m[x];
		if (ls->col[id])
			ls->buf[k0 + k1++] = id;
		else
			ls->buf[x - a - k1] = id;
	}
	memcpy(ls->m + a, ls->buf, (size_t)(b - a) * sizeof(u32));
	return mid;
}

static int leis_add_part(struct leis *ls, u32 a, u32 b, u32 hh)
{
	u32 nc;

	if (ls->nparts == ls->partcap) {
		nc = ls->partcap ? 2 * ls->partcap : 64;
		if (sched_grow_u32(nc, &ls->part_a, &ls->part_b, &ls->part_h))
			return -ENOMEM;
		ls->partcap = nc;
	}
	ls->part_a[ls->nparts] = a;
	ls->part_b[ls->nparts] = b;
	ls->part_h[ls->nparts++] = hh;
	return 0;
}

static int leis_split(struct leis *ls, u32 a, u32 b, u32 hh, u64 *keys)
{
	u32 mid;
	int err;

	if (a == b)
		return 0;
	if (leis_one_cycle(ls, a, b))
		return leis_add_part(ls, a, b, hh);
	mid = leis_split_even(ls, a, b, hh, keys);
	if (mid == a || mid == b)	/* cannot happen: mates split */
		return -EINVAL;
	err = leis_split(ls, a, mid, hh, keys);
	if (err)
		return err;
	return leis_split(ls, mid, b, hh, keys);
}

/* Channel capacities: the free lanes of each channel's links. */
static void leis_caps(struct leis *ls)
{
	const struct ft_sched *s = ls->s;
	const struct ft_topo *t = &s->t;
	u32 i, u, p, d, c;

	for (i = 1; i <= t->h; i++)
		for (u = 0; u < t->nodes[i - 1]; u++)
			for (d = 0; d < 2; d++) {
				c = ((t->chan_base[i - 1] +
				      u / t->wprod[i - 1]) << 1) | d;
				for (p = 0; p < t->w[i]; p++)
					ls->cap[c] += sched_free(s, i, u, p, d);
			}
}

/* First-fit packing of the parts into cycles; @cyc_of_part out. */
static int leis_compact(struct leis *ls, u32 *cyc_of_part, u32 *ncyc)
{
	u32 *cl = NULL, nc = 0, k, c, j, nt;
	bool fits;

	if ((u64)ls->nparts * ls->nch > COMPACT_MAX_CELLS) {
		for (k = 0; k < ls->nparts; k++)
			cyc_of_part[k] = k;
		*ncyc = ls->nparts;
		return 0;
	}
	cl = calloc((size_t)ls->nparts * ls->nch + 1, sizeof(u32));
	if (!cl)
		return -ENOMEM;
	for (k = 0; k < ls->nparts; k++) {
		nt = leis_loads(ls, ls->part_a[k], ls->part_b[k]);
		for (c = 0; c < nc; c++) {
			u32 *row = cl + (size_t)c * ls->nch;

			fits = true;
			for (j = 0; j < nt && fits; j++)
				fits = row[ls->touched[j]] +
				       ls->load[ls->touched[j]] <=
				       ls->cap[ls->touched[j]];
			if (fits)
				break;
		}
		if (c == nc)
			nc++;
		for (j = 0; j < nt; j++)
			cl[(size_t)c * ls->nch + ls->touched[j]] +=
				ls->load[ls->touched[j]];
		leis_clear(ls, nt);
		cyc_of_part[k] = c;
	}
	free(cl);
	*ncyc = nc;
	return 0;
}

/*
 * Some w_i > 1: give ports to every cycle's messages with an OPTIMAL
 * round on the free lanes; spill what does not fit into new cycles.
 */
static int leis_route(struct leis *ls, u32 n, struct ft_sched_out *out,
		      u32 *ncyc, struct ft_sched_lstats *st)
{
	struct ft_sched *s = ls->s;
	struct ft_sched_opts o;
	struct ft_sched_req *rq = NULL;
	struct ft_sched_out *ro = NULL;
	u32 *saved = NULL, *idx = NULL, *spill = NULL, *first = NULL;
	u32 c, j, k, nspill = 0, ns, granted, ncyc0 = *ncyc;
	int err = -ENOMEM;

	saved = malloc((size_t)s->ndl * sizeof(u32));
	rq = malloc((size_t)(n + 1) * sizeof(*rq));
	ro = malloc((size_t)(n + 1) * sizeof(*ro));
	idx = malloc((size_t)(n + 1) * sizeof(u32));
	spill = malloc((size_t)(n + 1) * sizeof(u32));
	first = calloc((size_t)ncyc0 + 2, sizeof(u32));
	if (!saved || !rq || !ro || !idx || !spill || !first)
		goto done;
	memcpy(saved, s->free, (size_t)s->ndl * sizeof(u32));
	ft_sched_opts_default(&o, FT_SCHED_OPTIMAL);
	/* Bucket the messages with links by cycle. */
	for (j = 0; j < n; j++)
		if (out[j].status == FT_SCHED_GRANTED && out[j].hh)
			first[out[j].cycle + 2]++;
	for (c = 0; c < ncyc0; c++)
		first[c + 2] += first[c + 1];
	for (j = 0; j < n; j++)
		if (out[j].status == FT_SCHED_GRANTED && out[j].hh)
			idx[first[out[j].cycle + 1]++] = j;
	for (c = 0; c < ncyc0; c++) {
		k = first[c + 1] - first[c];
		for (j = 0; j < k; j++)
			rq[j] = ls->msg[idx[first[c] + j]];
		ft_sched_set_free(s, saved);
		err = ft_sched_run(s, &o, rq, k, ro, NULL);
		if (err)
			goto done;
		for (j = 0; j < k; j++) {
			if (ro[j].status == FT_SCHED_GRANTED)
				memcpy(out[idx[first[c] + j]].port,
				       ro[j].port, sizeof(ro[j].port));
			else
				spill[nspill++] = idx[first[c] + j];
		}
	}
	st->spilled = nspill;
	ns = nspill;
	while (ns) {
		for (j = 0; j < ns; j++)
			rq[j] = ls->msg[spill[j]];
		ft_sched_set_free(s, saved);
		err = ft_sched_run(s, &o, rq, ns, ro, NULL);
		if (err)
			goto done;
		granted = 0;
		k = 0;
		for (j = 0; j < ns; j++) {
			if (ro[j].status == FT_SCHED_GRANTED) {
				memcpy(out[spill[j]].port, ro[j].port,
				       sizeof(ro[j].port));
				out[spill[j]].cycle = *ncyc;
				granted++;
			} else {
				spill[k++] = spill[j];
			}
		}
		if (!granted) {
			/* Nothing fits even on an empty fabric: refuse. */
			for (j = 0; j < ns; j++) {
				sched_refuse(&out[spill[j]], ro[j].fail_level,
					     ro[j].fail_where);
				out[spill[j]].cycle = 0;
				st->refused++;
			}
			break;
		}
		(*ncyc)++;
		ns = k;
	}
	err = 0;
done:
	if (saved) {
		ft_sched_set_free(s, saved);
		free(saved);
	}
	free(rq);
	free(ro);
	free(idx);
	free(spill);
	free(first);
	return err;
}

static int leis_cycles(u32 n, const struct ft_sched_out *out, u32 ncyc,
		       struct ft_sched_cycles *cyc)
{
	u32 j, c;

	cyc->n = ncyc;
	cyc->nmsg = 0;
	cyc->start = calloc((size_t)ncyc + 2, sizeof(u32));
	cyc->msg = malloc(((size_t)n + 1) * sizeof(u32));
	if (!cyc->start || !cyc->msg)
		return -ENOMEM;
	for (j = 0; j < n; j++)
		if (out[j].status == FT_SCHED_GRANTED)
			cyc->start[out[j].cycle + 2]++;
	for (c = 0; c < ncyc; c++)
		cyc->start[c + 2] += cyc->start[c + 1];
	for (j = 0; j < n; j++)
		if (out[j].status == FT_SCHED_GRANTED)
			cyc->msg[cyc->start[out[j].cycle + 1]++] = j;
	cyc->nmsg = cyc->start[ncyc];
	return 0;
}

void ft_sched_cycles_free(struct ft_sched_cycles *c)
{
	if (!c)
		return;
	free(c->start);
	free(c->msg);
	memset(c, 0, sizeof(*c));
}

static void leis_free(struct leis *ls)
{
	free(ls->cap);
	free(ls->load);
	free(ls->touched);
	free(ls->m);
	free(ls->buf);
	free(ls->smate);
	free(ls->dmate);
	free(ls->col);
	free(ls->part_a);
	free(ls->part_b);
	free(ls->part_h);
}

/* The state's arrays for @n messages, and each channel's capacity. */
static int leis_alloc(struct leis *ls, u32 n)
{
	const struct ft_topo *t = &ls->s->t;

	ls->nch = ft_topo_channels_total(t);
	ls->cap = calloc(ls->nch, sizeof(u64));
	ls->load = calloc(ls->nch, sizeof(u32));
	ls->touched = malloc(((size_t)n * 2 * t->h + 1) * sizeof(u32));
	ls->m = malloc(((size_t)n + 1) * sizeof(u32));
	ls->buf = malloc(((size_t)n + 1) * sizeof(u32));
	ls->smate = malloc(((size_t)n + 1) * sizeof(u32));
	ls->dmate = malloc(((size_t)n + 1) * sizeof(u32));
	ls->col = malloc(((size_t)n + 1) * sizeof(u32));
	if (!ls->cap || !ls->load || !ls->touched || !ls->m || !ls->buf ||
	    !ls->smate || !ls->dmate || !ls->col)
		return -ENOMEM;
	leis_caps(ls);
	return 0;
}

/*
 * Phase 1: valid messages whose channels all have capacity go into m[],
 * those with a common level above the leaves; the rest are refused or
 * invalid in @out. Returns how many went in.
 */
static u32 leis_admit(struct leis *ls, u32 n, struct ft_sched_out *out,
		      struct ft_sched_lstats *st)
{
	struct ft_sched *s = ls->s;
	const struct ft_sched_req *msg = ls->msg;
	u32 j, i, hh, k = 0;

	for (j = 0; j < n; j++) {
		memset(&out[j], 0, sizeof(out[j]));
		if (!sched_valid(s, &msg[j]) || msg[j].lanes != 1) {
			out[j].status = FT_SCHED_INVALID;
			continue;
		}
		hh = sched_common_level(s, msg[j].src, msg[j].dst);
		out[j].hh = (u8)hh;
		out[j].status = FT_SCHED_GRANTED;
		for (i = 0; i < hh; i++) {
			if (!ls->cap[chan(s, i, msg[j].src, FT_UP)]) {
				sched_refuse(&out[j], i + 1, FT_SCHED_AT_UP);
				break;
			}
			if (!ls->cap[chan(s, i, msg[j].dst, FT_DOWN)]) {
				sched_refuse(&out[j], i + 1,
					     FT_SCHED_AT_DOWN);
				break;
			}
		}
		if (out[j].status != FT_SCHED_GRANTED) {
			st->refused++;
			continue;
		}
		if (hh)
			ls->m[k++] = j;
	}
	return k;
}

/* Phase 2: lambda(M), the load factor of the @k admitted messages. */
static void leis_lambda(struct leis *ls, u32 k, struct ft_sched_lstats *st)
{
	u32 j, c, nt = leis_loads(ls, 0, k);

	for (j = 0; j < nt; j++) {
		c = ls->touched[j];
		if ((u64)ls->load[c] * st->lambda_cap >
		    st->lambda_load * ls->cap[c]) {
			st->lambda_load = ls->load[c];
			st->lambda_cap = ls->cap[c];
		}
	}
	leis_clear(ls, nt);
	st->lambda_ceil = (st->lambda_load + st->lambda_cap - 1) /
			  st->lambda_cap;
}

/*
 * Phase 3: group the @k admitted messages by common level (stably), then
 * split every group into one-cycle parts.
 */
static int leis_parts(struct leis *ls, u32 k, const struct ft_sched_out *out,
		      u64 *keys, struct ft_sched_lstats *st)
{
	u32 hh, j, a = 0;
	int err;

	for (hh = 1; hh <= ls->s->t.h; hh++) {
		u32 b = a, before = ls->nparts;

		for (j = a; j < k; j++)
			if (out[ls->m[j]].hh == hh) {
				u32 x = ls->m[j];

				ls->m[j] = ls->m[b];
				ls->m[b++] = x;
			}
		err = leis_split(ls, a, b, hh, keys);
		if (err)
			return err;
		st->parts[hh] = ls->nparts - before;
		if (st->parts[hh])
			st->levels++;
		a = b;
	}
	return 0;
}

/*
 * Phase 4: a cycle for every part (one each, or packed when @compact),
 * written into @out; returns the number of cycles in @ncyc.
 */
static int leis_assign(struct leis *ls, u32 n, bool compact,
		       struct ft_sched_out *out, u32 *ncyc)
{
	u32 j, i, *cyc_of_part;
	int err = 0;

	cyc_of_part = malloc(((size_t)ls->nparts + 1) * sizeof(u32));
	if (!cyc_of_part)
		return -ENOMEM;
	if (compact) {
		err = leis_compact(ls, cyc_of_part, ncyc);
	} else {
		for (j = 0; j < ls->nparts; j++)
			cyc_of_part[j] = j;
		*ncyc = ls->nparts;
	}
	if (!err) {
		for (j = 0; j < ls->nparts; j++)
			for (i = ls->part_a[j]; i < ls->part_b[j]; i++)
				out[ls->m[i]].cycle = cyc_of_part[j];
		/* H = 0 messages need no link: cycle 0. */
		for (j = 0; j < n; j++)
			if (out[j].status == FT_SCHED_GRANTED && !out[j].hh && !*ncyc)
				*ncyc = 1;
	}
	free(cyc_of_part);
	return err;
}

int ft_sched_leiserson(struct ft_sched *s, const struct ft_sched_req *msg,
		       u32 n, bool compact, struct ft_sched_out *out,
		       struct ft_sched_cycles *cyc, struct ft_sched_lstats *st)
{
	struct ft_sched_lstats local;
	struct leis ls = { .s = s, .msg = msg, .out = out };
	u32 i, k, ncyc = 0;
	u64 *keys = NULL;
	bool w1 = true;
	int err;

	if (!s || (n && (!msg || !out)) || !cyc)
		return -EINVAL;
	memset(cyc, 0, sizeof(*cyc));
	if (!st)
		st = &local;
	memset(st, 0, sizeof(*st));
	st->lambda_cap = 1;
	sched_counters(s);
	for (i = 1; i <= s->t.h; i++)
		w1 &= s->t.w[i] == 1;
	err = leis_alloc(&ls, n);
	keys = malloc(((size_t)n + 1) * sizeof(u64));
	if (err || !keys) {
		err = -ENOMEM;
		goto done;
	}
	k = leis_admit(&ls, n, out, st);
	leis_lambda(&ls, k, st);
	err = leis_parts(&ls, k, out, keys, st);
	if (!err)
		err = leis_assign(&ls, n, compact, out, &ncyc);
	/* Phase 5: with several up-ports, route every cycle's messages. */
	if (!err && !w1)
		err = leis_route(&ls, n, out, &ncyc, st);
	if (!err) {
		err = leis_cycles(n, out, ncyc, cyc);
		if (err)
			ft_sched_cycles_free(cyc);
	}
done:
	leis_free(&ls);
	free(keys);
	return err;
}
