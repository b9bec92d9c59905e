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

/* Loads of m[a..b) into L->load; return the channels touched. */
static u32 leis_loads(struct leis *L, u32 a, u32 b)
{
	u32 i, c, nt = 0, x;

	for (x = a; x < b; x++) {
		const struct ft_sched_req *q = &L->msg[L->m[x]];
		u32 hh = L->out[L->m[x]].hh;

		for (i = 0; i < hh; i++) {
			c = chan(L->s, i, q->src, FT_UP);
			if (!L->load[c]++)
				L->touched[nt++] = c;
			c = chan(L->s, i, q->dst, FT_DOWN);
			if (!L->load[c]++)
				L->touched[nt++] = c;
		}
	}
	return nt;
}

static void leis_clear(struct leis *L, u32 nt)
{
	u32 j;

	for (j = 0; j < nt; j++)
		L->load[L->touched[j]] = 0;
}

static bool leis_one_cycle(struct leis *L, u32 a, u32 b)
{
	u32 nt = leis_loads(L, a, b), j;
	bool ok = true;

	for (j = 0; j < nt && ok; j++)
		ok = L->load[L->touched[j]] <= L->cap[L->touched[j]];
	leis_clear(L, nt);
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
static void leis_mate(struct leis *L, u32 a, u32 b, u32 hh, bool dst,
		      u32 *mate, u64 *keys)
{
	const struct ft_sched *s = L->s;
	u32 k = b - a, j, x, y, z, nk, key, *list = L->buf;

	for (x = 0; x < k; x++) {
		const struct ft_sched_req *q = &L->msg[L->m[a + x]];

		keys[x] = ((u64)(dst ? q->dst : q->src) << 32) | L->m[a + x];
		mate[L->m[a + x]] = SCHED_NONE;
	}
	qsort(keys, k, sizeof(*keys), cmp_u64);
	for (x = 0; x < k; x++)
		list[x] = (u32)keys[x];
	for (j = 0; j < hh; j++) {
		nk = 0;
		for (x = 0; x < k; x = y) {
			const struct ft_sched_req *q = &L->msg[list[x]];

			key = sched_div(&s->divm[j], dst ? q->dst : q->src);
			for (y = x + 1; y < k; y++) {
				q = &L->msg[list[y]];
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
static void leis_trace(struct leis *L, u32 x, bool via_dst)
{
	u32 c = 0, nx;

	while (x != SCHED_NONE && L->col[x] == SCHED_NONE) {
		L->col[x] = c;
		c ^= 1;
		nx = via_dst ? L->dmate[x] : L->smate[x];
		via_dst = !via_dst;
		x = nx;
	}
}

/* SPLIT-EVEN of m[a..b): colour-0 messages first; return the middle. */
static u32 leis_split_even(struct leis *L, u32 a, u32 b, u32 hh, u64 *keys)
{
	u32 x, id, mid, k0 = 0, k1 = 0;

	leis_mate(L, a, b, hh, false, L->smate, keys);
	leis_mate(L, a, b, hh, true, L->dmate, keys);
	for (x = a; x < b; x++)
		L->col[L->m[x]] = SCHED_NONE;
	/* Paths first, from an end: leave by the mate it has. */
	for (x = a; x < b; x++) {
		id = L->m[x];
		if (L->col[id] != SCHED_NONE)
			continue;
		if (L->smate[id] == SCHED_NONE)
			leis_trace(L, id, true);
		else if (L->dmate[id] == SCHED_NONE)
			leis_trace(L, id, false);
	}
	for (x = a; x < b; x++)
		if (L->col[L->m[x]] == SCHED_NONE)
			leis_trace(L, L->m[x], true);
	for (x = a; x < b; x++)
		if (!L->col[L->m[x]])
			k0++;
	mid = a + k0;
	for (x = a; x < b; x++) {
		id = L->m[x];
		if (L->col[id])
			L->buf[k0 + k1++] = id;
		else
			L->buf[x - a - k1] = id;
	}
	memcpy(L->m + a, L->buf, (size_t)(b - a) * sizeof(u32));
	return mid;
}

static int leis_add_part(struct leis *L, u32 a, u32 b, u32 hh)
{
	u32 nc;
	u32 *pa, *pb, *ph;

	if (L->nparts == L->partcap) {
		nc = L->partcap ? 2 * L->partcap : 64;
		pa = realloc(L->part_a, (size_t)nc * sizeof(u32));
		if (pa)
			L->part_a = pa;
		pb = realloc(L->part_b, (size_t)nc * sizeof(u32));
		if (pb)
			L->part_b = pb;
		ph = realloc(L->part_h, (size_t)nc * sizeof(u32));
		if (ph)
			L->part_h = ph;
		if (!pa || !pb || !ph)
			return -ENOMEM;
		L->partcap = nc;
	}
	L->part_a[L->nparts] = a;
	L->part_b[L->nparts] = b;
	L->part_h[L->nparts++] = hh;
	return 0;
}

static int leis_split(struct leis *L, u32 a, u32 b, u32 hh, u64 *keys)
{
	u32 mid;
	int err;

	if (a == b)
		return 0;
	if (leis_one_cycle(L, a, b))
		return leis_add_part(L, a, b, hh);
	mid = leis_split_even(L, a, b, hh, keys);
	if (mid == a || mid == b)	/* cannot happen: mates split */
		return -EINVAL;
	err = leis_split(L, a, mid, hh, keys);
	if (err)
		return err;
	return leis_split(L, mid, b, hh, keys);
}

/* Channel capacities: the free lanes of each channel's links. */
static void leis_caps(struct leis *L)
{
	const struct ft_sched *s = L->s;
	const struct ft_topo *t = &s->t;
	u32 i, u, p, d, c;

	for (i = 1; i <= t->h; i++)
		for (u = 0; u < t->nodes[i - 1]; u++)
			for (d = 0; d < 2; d++) {
				c = ((t->chan_base[i - 1] +
				      u / t->wprod[i - 1]) << 1) | d;
				for (p = 0; p < t->w[i]; p++)
					L->cap[c] += sched_free(s, i, u, p, d);
			}
}

/* First-fit packing of the parts into cycles; @cyc_of_part out. */
static int leis_compact(struct leis *L, u32 *cyc_of_part, u32 *ncyc)
{
	u32 *cl = NULL, nc = 0, k, c, j, nt;
	bool fits;

	if ((u64)L->nparts * L->nch > COMPACT_MAX_CELLS) {
		for (k = 0; k < L->nparts; k++)
			cyc_of_part[k] = k;
		*ncyc = L->nparts;
		return 0;
	}
	cl = calloc((size_t)L->nparts * L->nch + 1, sizeof(u32));
	if (!cl)
		return -ENOMEM;
	for (k = 0; k < L->nparts; k++) {
		nt = leis_loads(L, L->part_a[k], L->part_b[k]);
		for (c = 0; c < nc; c++) {
			u32 *row = cl + (size_t)c * L->nch;

			fits = true;
			for (j = 0; j < nt && fits; j++)
				fits = row[L->touched[j]] +
				       L->load[L->touched[j]] <=
				       L->cap[L->touched[j]];
			if (fits)
				break;
		}
		if (c == nc)
			nc++;
		for (j = 0; j < nt; j++)
			cl[(size_t)c * L->nch + L->touched[j]] +=
				L->load[L->touched[j]];
		leis_clear(L, nt);
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
static int leis_route(struct leis *L, u32 n, struct ft_sched_out *out,
		      u32 *ncyc, struct ft_sched_lstats *st)
{
	struct ft_sched *s = L->s;
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
			rq[j] = L->msg[idx[first[c] + j]];
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
			rq[j] = L->msg[spill[j]];
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

int ft_sched_leiserson(struct ft_sched *s, const struct ft_sched_req *msg,
		       u32 n, bool compact, struct ft_sched_out *out,
		       struct ft_sched_cycles *cyc, struct ft_sched_lstats *st)
{
	const struct ft_topo *t;
	struct ft_sched_lstats local;
	struct leis L = { .s = s, .msg = msg, .out = out };
	u32 j, i, hh, k, a, nt, c, ncyc = 0, *cyc_of_part = NULL;
	u64 *keys = NULL;
	bool w1 = true;
	int err = -ENOMEM;

	if (!s || (n && (!msg || !out)) || !cyc)
		return -EINVAL;
	memset(cyc, 0, sizeof(*cyc));
	if (!st)
		st = &local;
	memset(st, 0, sizeof(*st));
	st->lambda_cap = 1;
	t = &s->t;
	sched_counters(s);
	for (i = 1; i <= t->h; i++)
		w1 &= t->w[i] == 1;
	L.nch = ft_topo_channels_total(t);
	L.cap = calloc(L.nch, sizeof(u64));
	L.load = calloc(L.nch, sizeof(u32));
	L.touched = malloc(((size_t)n * 2 * t->h + 1) * sizeof(u32));
	L.m = malloc(((size_t)n + 1) * sizeof(u32));
	L.buf = malloc(((size_t)n + 1) * sizeof(u32));
	L.smate = malloc(((size_t)n + 1) * sizeof(u32));
	L.dmate = malloc(((size_t)n + 1) * sizeof(u32));
	L.col = malloc(((size_t)n + 1) * sizeof(u32));
	keys = malloc(((size_t)n + 1) * sizeof(u64));
	if (!L.cap || !L.load || !L.touched || !L.m || !L.buf || !L.smate ||
	    !L.dmate || !L.col || !keys)
		goto done;
	leis_caps(&L);
	/* Valid messages whose channels all have capacity, by level. */
	k = 0;
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
			if (!L.cap[chan(s, i, msg[j].src, FT_UP)]) {
				sched_refuse(&out[j], i + 1, FT_SCHED_AT_UP);
				break;
			}
			if (!L.cap[chan(s, i, msg[j].dst, FT_DOWN)]) {
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
			L.m[k++] = j;
	}
	/* lambda(M) over what can be scheduled. */
	nt = leis_loads(&L, 0, k);
	for (j = 0; j < nt; j++) {
		c = L.touched[j];
		if ((u64)L.load[c] * st->lambda_cap >
		    st->lambda_load * L.cap[c]) {
			st->lambda_load = L.load[c];
			st->lambda_cap = L.cap[c];
		}
	}
	leis_clear(&L, nt);
	st->lambda_ceil = (st->lambda_load + st->lambda_cap - 1) /
			  st->lambda_cap;
	/* Group by H (stable), then split every group. */
	a = 0;
	for (hh = 1; hh <= t->h; hh++) {
		u32 b = a, before = L.nparts;

		for (j = a; j < k; j++)
			if (out[L.m[j]].hh == hh) {
				u32 x = L.m[j];

				L.m[j] = L.m[b];
				L.m[b++] = x;
			}
		err = leis_split(&L, a, b, hh, keys);
		if (err)
			goto done;
		st->parts[hh] = L.nparts - before;
		if (st->parts[hh])
			st->levels++;
		a = b;
	}
	err = -ENOMEM;
	cyc_of_part = malloc(((size_t)L.nparts + 1) * sizeof(u32));
	if (!cyc_of_part)
		goto done;
	if (compact) {
		err = leis_compact(&L, cyc_of_part, &ncyc);
		if (err)
			goto done;
	} else {
		for (j = 0; j < L.nparts; j++)
			cyc_of_part[j] = j;
		ncyc = L.nparts;
	}
	for (j = 0; j < L.nparts; j++)
		for (i = L.part_a[j]; i < L.part_b[j]; i++)
			out[L.m[i]].cycle = cyc_of_part[j];
	/* H = 0 messages need no link: cycle 0. */
	for (j = 0; j < n; j++)
		if (out[j].status == FT_SCHED_GRANTED && !out[j].hh && !ncyc)
			ncyc = 1;
	if (!w1) {
		err = leis_route(&L, n, out, &ncyc, st);
		if (err)
			goto done;
	}
	err = leis_cycles(n, out, ncyc, cyc);
	if (err)
		ft_sched_cycles_free(cyc);
done:
	free(L.cap);
	free(L.load);
	free(L.touched);
	free(L.m);
	free(L.buf);
	free(L.smate);
	free(L.dmate);
	free(L.col);
	free(L.part_a);
	free(L.part_b);
	free(L.part_h);
	free(cyc_of_part);
	free(keys);
	return err;
}
