// SPDX-License-Identifier: GPL-2.0
/*
 * The rearrangeable scheduler.
 *
 * Exact pass (every request the same k lanes, free lanes F_i uniform on
 * level i): level by level, the requests still alive are the edges of a bipartite
 * multigraph whose left vertices are the source-side nodes of level i - 1
 * and right vertices the destination-side ones (a request's two nodes
 * share their Y, so the graph is a disjoint union over the upper
 * sub-trees: this is the recursion into sub-trees, done for all of them
 * at once).  With S_i = floor(F_i / k) slots of k lanes on every link and
 * maximum degree <= D = w_i * S_i it is D-edge-colourable (Koenig);
 * colour c is slot c mod S_i of port P_i = c / S_i on both the up link of
 * the left node and the down link of the right node, so every link
 * carries at most S_i requests, S_i * k <= F_i lanes.  (k = 1 is the
 * usual case; a batch of k-lane requests on k-lane links is the same
 * problem as one-lane requests on one-lane links.)  Colouring by alternating paths: an
 * edge (u, v) takes a colour a free at u; if a is busy at v, take b free
 * at v; if b is busy at u, swap a and b along the a/b path from v (it
 * cannot reach u in a bipartite graph) and take a.  On FT(l, k) with one
 * lane a permutation puts at most k edges on every vertex at every level,
 * so every permutation is granted.  A vertex above D (hot spots,
 * all-to-all, slimmed trees) first drops edges greedily in request order.
 *
 * Otherwise the main pass is LEVELWISE, farthest-first, with release on
 * failure.
 *
 * Then, for the requests still refused, within a search budget: any
 * free path (exhaustive search over the ports, pruned by the
 * availability of both links at each level), then a rearrangement: a
 * path whose blocked links are all freed by moving one granted request
 * of this batch, if that request finds another free path.
 */
#include "ft_sched_int.h"

/* Colour tables above this many entries: use the fallback instead. */
#define COLOUR_MAX_ENTRIES	(1U << 26)

struct colour {
	u32 d;
	u32 *sl;	/* left vertex u, colour c: edge or SCHED_NONE */
	u32 *sr;
	u64 *ml;	/* d <= 64: colours used at left vertex u, as bits */
	u64 *mr;
	u32 *eu;
	u32 *ev;
	u32 *col;
	u32 *path;
	u32 *path2;
};

static void colour_set(struct colour *g, u32 e, u32 c)
{
	g->col[e] = c;
	g->sl[(size_t)g->eu[e] * g->d + c] = e;
	g->sr[(size_t)g->ev[e] * g->d + c] = e;
	if (g->ml) {
		g->ml[g->eu[e]] |= 1ULL << c;
		g->mr[g->ev[e]] |= 1ULL << c;
	}
}

static void colour_clear(struct colour *g, u32 e)
{
	u32 c = g->col[e];

	g->sl[(size_t)g->eu[e] * g->d + c] = SCHED_NONE;
	g->sr[(size_t)g->ev[e] * g->d + c] = SCHED_NONE;
	if (g->ml) {
		g->ml[g->eu[e]] &= ~(1ULL << c);
		g->mr[g->ev[e]] &= ~(1ULL << c);
	}
}

/* The first colour free at both @u and @v, or SCHED_NONE. */
static u32 colour_common(const struct colour *g, u32 u, u32 v)
{
	const u32 *ru = g->sl + (size_t)u * g->d, *rv = g->sr + (size_t)v * g->d;
	u64 m;
	u32 c;

	if (g->ml) {
		m = ~(g->ml[u] | g->mr[v]);
		if (g->d < 64)
			m &= (1ULL << g->d) - 1;
		return m ? (u32)__builtin_ctzll(m) : SCHED_NONE;
	}
	for (c = 0; c < g->d; c++)
		if (ru[c] == SCHED_NONE && rv[c] == SCHED_NONE)
			return c;
	return SCHED_NONE;
}

/* The first colour free at vertex @x (@right: of the right side), or SCHED_NONE. */
static u32 colour_free(const struct colour *g, u32 x, bool right)
{
	const u32 *row = (right ? g->sr : g->sl) + (size_t)x * g->d;
	const u64 *m = right ? g->mr : g->ml;
	u32 c;

	if (m)
		return (u32)__builtin_ctzll(~m[x]);
	for (c = 0; c < g->d; c++)
		if (row[c] == SCHED_NONE)
			return c;
	return SCHED_NONE;
}

/* An alternating path being walked: at vertex @x, next colour @c. */
struct walk {
	u32 x, c, len;
	bool right;	/* @x is a right vertex */
	u32 *path;
};

/* One edge further along @w's a/b path; false at its end. */
static bool walk_step(const struct colour *g, struct walk *w, u32 a, u32 b)
{
	u32 f = (w->right ? g->sr : g->sl)[(size_t)w->x * g->d + w->c];

	if (f == SCHED_NONE)
		return false;
	w->path[w->len++] = f;
	w->x = w->right ? g->eu[f] : g->ev[f];
	w->right = !w->right;
	w->c = w->c == a ? b : a;
	return true;
}

/*
 * Colour edge @e; both its ends have fewer than d coloured edges.  A
 * colour free at both ends is taken as it is (most edges).  Else, with a
 * free at u and b free at v: swapping a and b along the a/b path from v
 * frees a at v, along the b/a path from u frees b at u (neither path can
 * reach the other end in a bipartite graph).  Both are walked in step
 * and the shorter one is swapped.
 */
static void colour_edge(struct colour *g, u32 e)
{
	u32 u = g->eu[e], v = g->ev[e], a, b, c, f, j;
	struct walk wv = { v, 0, 0, true, g->path };
	struct walk wu = { u, 0, 0, false, g->path2 };
	struct walk *w;

	c = colour_common(g, u, v);
	if (c != SCHED_NONE) {
		colour_set(g, e, c);
		return;
	}
	a = colour_free(g, u, false);
	b = colour_free(g, v, true);
	wv.c = a;
	wu.c = b;
	for (;;) {
		if (!walk_step(g, &wv, a, b)) {
			w = &wv;
			c = a;
			break;
		}
		if (!walk_step(g, &wu, a, b)) {
			w = &wu;
			c = b;
			break;
		}
	}
	for (j = 0; j < w->len; j++)
		colour_clear(g, w->path[j]);
	for (j = 0; j < w->len; j++) {
		f = w->path[j];
		colour_set(g, f, g->col[f] == a ? b : a);
	}
	colour_set(g, e, c);
}

/*
 * F_i when every link of level i has the same free lanes, else SCHED_NONE.
 * A level in bit mode is read from its vectors (its counters may be
 * stale): F_i is 1 if every port's bit is set, 0 if none is.
 */
static u32 uniform_free(const struct ft_sched *s, u32 i)
{
	u32 k, base = 2 * s->t.link_base[i], end = 2 * s->t.link_base[i + 1];
	u32 f = s->free[base], d, g;
	u64 bits = (u64)s->t.nodes[i - 1] * s->vb[i], pat, m, x;
	size_t j, words = sched_vec_words(s, i);

	if (s->bitmode[i]) {
		pat = sched_full_pattern(s, i);
		f = SCHED_NONE;
		for (d = 0; d < 2; d++)
			for (j = 0; j < words; j++) {
				/* The last word's bits past the last node. */
				m = j + 1 == words && bits % 64 ?
				    (1ULL << (bits % 64)) - 1 : ~0ULL;
				x = s->vec[i][d][j] & m;
				g = x == (sched_full_word(s, i, j, pat) & m) ?
				    1 : x ? SCHED_NONE : 0;
				if (g == SCHED_NONE || (f != SCHED_NONE && g != f))
					return SCHED_NONE;
				f = g;
			}
		return f;
	}
	for (k = base + 1; k < end; k++)
		if (s->free[k] != f)
			return SCHED_NONE;
	return f;
}

/*
 * Whether the exact pass applies: every request still refused wants the
 * same lanes k (into fl[0]) and every level it climbs has uniform free
 * lanes; fl[i] := the slots S_i = F_i / k of a link of level i.
 */
static bool exact_applies(const struct ft_sched *s,
			  const struct ft_sched_req *req, u32 n,
			  const struct ft_sched_out *out, u32 *fl)
{
	u32 j, i, hmax = 0, k = 0;

	for (j = 0; j < n; j++) {
		if (out[j].status != FT_SCHED_REFUSED)
			continue;
		if (k && req[j].lanes != k)
			return false;
		k = req[j].lanes;
		hmax = ft_max_u32(hmax, out[j].hh);
	}
	fl[0] = k ? k : 1;
	for (i = 1; i <= hmax; i++) {
		fl[i] = uniform_free(s, i);
		if (fl[i] != SCHED_NONE)
			fl[i] /= fl[0];
		if (fl[i] == SCHED_NONE ||
		    (u64)s->t.nodes[i - 1] * s->t.w[i] * fl[i] >
		    COLOUR_MAX_ENTRIES)
			return false;
	}
	return true;
}

/*
 * The lanes of level @i's coloured edges 0..k-1 (edge j is request
 * act[j]): @lanes of slot col mod S_i (@fl) of port col / S_i, which
 * fits by the colouring; sched_take_port() with the level's constants in
 * locals.  Returns the requests left for the next level, kept in act[].
 */
static u32 take_level(struct ft_sched *s, u32 i, const struct colour *g,
		      u32 fl, u32 lanes, struct ft_sched_out *out, u32 *y,
		      u32 *act, u32 k)
{
	u64 *vu = s->vec[i][FT_UP], *vd = s->vec[i][FT_DOWN], b;
	u32 j, r, p, w = s->t.w[i], vb = s->vb[i], keep = 0;
	bool bm = s->bitmode[i];

	for (j = 0; j < k; j++) {
		r = act[j];
		/* One lane per link (the usual case): the colour is the port. */
		p = fl == 1 ? g->col[j] : g->col[j] / fl;
		if (bm) {	/* one lane: as sched_take() in bit mode */
			b = (u64)g->eu[j] * vb + p;
			vu[b >> 6] &= ~(1ULL << (b & 63));
			b = (u64)g->ev[j] * vb + p;
			vd[b >> 6] &= ~(1ULL << (b & 63));
		} else {
			sched_take(s, i, g->eu[j], p, FT_UP, lanes);
			sched_take(s, i, g->ev[j], p, FT_DOWN, lanes);
		}
		out[r].port[i - 1] = (u16)p;
		y[r] = y[r] * w + p;
		if (out[r].hh == i)
			out[r].status = FT_SCHED_GRANTED;
		else
			act[keep++] = r;
	}
	if (bm && k)
		s->dirty[i] = true;
	return keep;
}

/*
 * The exact pass's fast copy: power-of-two shapes, every level it uses
 * in bit mode with one word per node (w_i <= 64) and all its lanes free
 * (F_i = 1, so D = w_i).  The same edges are kept and given the same
 * colours as in optimal_exact() (the same schedule; test_fastpath
 * compares the two), with the bookkeeping cut to what the masks give:
 *  - a vertex's degree is the number of colours it uses (each kept edge
 *    is coloured at once), so "degree < D" is "mask != all colours";
 *  - an a/b path ends where the vertex's mask lacks the next colour, so
 *    the edge-by-colour tables are never cleared;
 *  - swapping a path's colours keeps a and b in use at the vertices
 *    inside it and swaps them at its two ends: toggling both bits at
 *    both ends of every edge of the path does exactly that;
 *  - a level's lanes are taken per vertex (its mask cleared from its
 *    vector word), not per edge;
 *  - node numbers by shifts.
 */
struct xcolour {
	u64 *ml, *mr;	/* colours used at left/right vertex u */
	u32 lgd;	/* lg D: the tables' rows */
	u32 *sl, *sr;	/* (u << lgd | c): the edge, valid if c in ml[u] */
	u32 *eu, *ev, *col, *path, *path2;
};

static inline __attribute__((always_inline))
void xcolour_set(struct xcolour *g, u32 e, u32 u, u32 v, u32 c)
{
	g->col[e] = c;
	g->sl[u << g->lgd | c] = e;
	g->sr[v << g->lgd | c] = e;
	g->ml[u] |= 1ULL << c;
	g->mr[v] |= 1ULL << c;
}

/* walk_step() with the end found by the masks. */
static inline __attribute__((always_inline))
bool xwalk_step(const struct xcolour *g, struct walk *w, u32 a, u32 b)
{
	u32 f;

	if (!((w->right ? g->mr : g->ml)[w->x] >> w->c & 1))
		return false;
	f = (w->right ? g->sr : g->sl)[w->x << g->lgd | w->c];
	w->path[w->len++] = f;
	w->x = w->right ? g->eu[f] : g->ev[f];
	w->right = !w->right;
	w->c ^= a ^ b;
	return true;
}

/*
 * colour_edge() for (@u, @v) when no colour is free at both: the
 * shorter of the a/b path from v and the b/a path from u, walked in
 * step, swapped; returns the colour it freed at both ends.
 */
static __attribute__((noinline))
u32 xcolour_path(struct xcolour *g, u32 u, u32 v)
{
	u32 a = (u32)__builtin_ctzll(~g->ml[u]);
	u32 b = (u32)__builtin_ctzll(~g->mr[v]);
	struct walk wv = { v, a, 0, true, g->path };
	struct walk wu = { u, b, 0, false, g->path2 };
	u64 ab = 1ULL << a | 1ULL << b;
	struct walk *w;
	u32 c, f, j, nc;

	for (;;) {
		if (!xwalk_step(g, &wv, a, b)) {
			w = &wv;
			c = a;
			break;
		}
		if (!xwalk_step(g, &wu, a, b)) {
			w = &wu;
			c = b;
			break;
		}
	}
	for (j = 0; j < w->len; j++) {
		f = w->path[j];
		nc = g->col[f] ^ a ^ b;
		g->col[f] = nc;
		g->sl[g->eu[f] << g->lgd | nc] = f;
		g->sr[g->ev[f] << g->lgd | nc] = f;
		g->ml[g->eu[f]] ^= ab;
		g->mr[g->ev[f]] ^= ab;
	}
	return c;
}

/* The fast copy applies to levels 1..@hmax with slots @fl. */
static bool exact_fast_ok(const struct ft_sched *s,
			  const struct ft_sched_opts *o, const u32 *fl,
			  u32 hmax)
{
	u32 i;

	if (o->force_general || !s->pow2 || fl[0] != 1)
		return false;
	for (i = 1; i <= hmax; i++)
		if (!s->bitmode[i] || s->nw[i] != 1 || fl[i] != 1)
			return false;
	return true;
}

/*
 * Level @i of the fast copy over act[0..k): keeps and colours the
 * edges, takes their lanes, writes their ports; returns the requests
 * left for the next level, kept in act[].
 */
static u32 exact_fast_level(struct ft_sched *s, u32 i,
			    const struct ft_sched_req *req,
			    struct ft_sched_out *out, u32 *act, u32 k,
			    struct xcolour *g, u32 *dropped)
{
	const struct ft_topo *t = &s->t;
	u32 ms = (u32)__builtin_ctz(t->mprod[i - 1]);
	u32 ws = (u32)__builtin_ctz(t->wprod[i - 1]);
	u32 lw = (u32)__builtin_ctz(t->w[i]), nv = t->nodes[i - 1];
	u32 vs = (u32)__builtin_ctz(s->vb[i]), *y = s->y;
	u32 j, r, u, v, c, ne = 0, keep = 0, where;
	u64 *vu = s->vec[i][FT_UP], *vd = s->vec[i][FT_DOWN], mu, mv, m, b;
	u64 all = t->w[i] == 64 ? ~0ULL : (1ULL << t->w[i]) - 1;	/* D */

	g->lgd = lw;
	memset(g->ml, 0, nv * sizeof(u64));
	memset(g->mr, 0, nv * sizeof(u64));
	for (j = 0; j < k; j++) {
		r = act[j];
		u = (req[r].src >> ms << ws) | y[r];
		v = (req[r].dst >> ms << ws) | y[r];
		mu = g->ml[u];
		mv = g->mr[v];
		if (mu == all || mv == all) {	/* degree D already */
			where = mu != all ? FT_SCHED_AT_DOWN :
				mv != all ? FT_SCHED_AT_UP : FT_SCHED_AT_BOTH;
			sched_refuse(&out[r], i, where);
			sched_give_levels(s, req[r].src, req[r].dst,
					  out[r].port, i - 1, 1);
			(*dropped)++;
			continue;
		}
		m = ~(mu | mv) & all;
		c = m ? (u32)__builtin_ctzll(m) : xcolour_path(g, u, v);
		g->eu[ne] = u;
		g->ev[ne] = v;
		xcolour_set(g, ne++, u, v, c);
		act[keep++] = r;
	}
	for (u = 0; u < nv; u++) {	/* a vertex's colours are its ports */
		b = (u64)u << vs;
		vu[b >> 6] &= ~(g->ml[u] << (b & 63));
		vd[b >> 6] &= ~(g->mr[u] << (b & 63));
	}
	if (ne)
		s->dirty[i] = true;
	k = keep;
	keep = 0;
	for (j = 0; j < k; j++) {
		r = act[j];
		c = g->col[j];
		out[r].port[i - 1] = (u16)c;
		y[r] = y[r] << lw | c;
		if (out[r].hh == i)
			out[r].status = FT_SCHED_GRANTED;
		else
			act[keep++] = r;
	}
	return keep;
}

/*
 * The edge-colouring pass (the file's head) over the refused requests;
 * *@dropped counts those it refused.  Returns 1 when it took the fast
 * copy, 0 for the general one, or -ENOMEM.
 */
static int optimal_exact(struct ft_sched *s, const struct ft_sched_opts *o,
			 const struct ft_sched_req *req, u32 n,
			 struct ft_sched_out *out, const u32 *fl, u32 *dropped)
{
	const struct ft_topo *t = &s->t;
	u32 k = sched_order(s, o->order, req, n, out);
	u32 *act = s->order, *y = s->y, i, j, r, u, v, ne, keep, nv;
	u32 *degl, *degr, where, hmax = 0, maxnv = 0, wp;
	struct sched_div dv;
	u64 *ml, *mr;
	struct colour g = { 0 };
	size_t cells, maxcells = 0, ke = (size_t)k + 1;

	for (j = 0; j < k; j++) {
		y[act[j]] = 0;
		hmax = ft_max_u32(hmax, out[act[j]].hh);
	}
	/*
	 * Every table at its largest level's size, before any lane is
	 * taken: past this point nothing fails.
	 */
	for (i = 1; i <= hmax; i++) {
		maxnv = ft_max_u32(maxnv, t->nodes[i - 1]);
		cells = (size_t)t->nodes[i - 1] * t->w[i] * fl[i];
		maxcells = cells > maxcells ? cells : maxcells;
	}
	maxnv++;
	maxcells++;
	/* The scheduler's scratch, kept from one round to the next. */
	ml = sched_scratch(s, 2 * maxnv * sizeof(u64) +
			   (5 * ke + 2 * maxnv + 2 * maxcells) * sizeof(u32));
	if (!ml)
		return -ENOMEM;
	mr = ml + maxnv;
	g.eu = (u32 *)(mr + maxnv);
	g.ev = g.eu + ke;
	g.col = g.ev + ke;
	g.path = g.col + ke;
	g.path2 = g.path + ke;
	degl = g.path2 + ke;
	degr = degl + maxnv;
	g.sl = degr + maxnv;
	g.sr = g.sl + maxcells;
	if (exact_fast_ok(s, o, fl, hmax)) {
		struct xcolour x = { ml, mr, 0, g.sl, g.sr, g.eu, g.ev,
				     g.col, g.path, g.path2 };

		for (i = 1; k && i <= t->h; i++)
			k = exact_fast_level(s, i, req, out, act, k, &x,
					     dropped);
		return 1;
	}
	for (i = 1; k && i <= t->h; i++) {
		nv = t->nodes[i - 1];
		g.d = t->w[i] * fl[i];
		cells = (size_t)nv * g.d;
		memset(degl, 0, nv * sizeof(u32));
		memset(degr, 0, nv * sizeof(u32));
		g.ml = g.mr = NULL;
		/*
		 * One colour (w_i = 1, one lane: the leaf level of FT(l, k)):
		 * every edge kept gets colour 0, no table needed.
		 */
		if (g.d > 1 && g.d <= 64) {
			g.ml = ml;
			g.mr = mr;
			memset(ml, 0, nv * sizeof(u64));
			memset(mr, 0, nv * sizeof(u64));
		}
		if (g.d > 1) {
			memset(g.sl, 0xff, cells * sizeof(u32));
			memset(g.sr, 0xff, cells * sizeof(u32));
		}
		/* Keep a subgraph of degree <= d, greedily in request order. */
		ne = 0;
		keep = 0;
		dv = s->divm[i - 1];
		wp = t->wprod[i - 1];
		for (j = 0; j < k; j++) {
			r = act[j];
			u = sched_div(&dv, req[r].src) * wp + y[r];
			v = sched_div(&dv, req[r].dst) * wp + y[r];
			if (degl[u] >= g.d || degr[v] >= g.d) {
				where = degl[u] < g.d ? FT_SCHED_AT_DOWN :
					degr[v] < g.d ? FT_SCHED_AT_UP :
					FT_SCHED_AT_BOTH;
				sched_refuse(&out[r], i, where);
				/* Give back the lanes it took below. */
				sched_give_levels(s, req[r].src, req[r].dst,
						  out[r].port, i - 1, fl[0]);
				(*dropped)++;
				continue;
			}
			degl[u]++;
			degr[v]++;
			g.eu[ne] = u;
			g.ev[ne] = v;
			act[keep++] = r;
			if (g.d > 1)
				colour_edge(&g, ne);
			else
				g.col[ne] = 0;
			ne++;
		}
		k = keep;
		keep = 0;
		k = take_level(s, i, &g, fl[i], fl[0], out, y, act, k);
	}
	return 0;
}

/* The search and rearrangement passes. */
struct fill {
	struct ft_sched *s;
	const struct ft_sched_req *req;
	struct ft_sched_out *out;
	u32 stride;	/* 2h entries per request */
	u32 *head;	/* per directed link: first entry, or SCHED_NONE */
	u32 *nxt;	/* per entry: next entry on the same link */
	u32 *lnk;	/* per entry: its link */
	u32 budget;
	u32 vbudget;	/* search steps to re-route a moved request */
	u64 total;	/* steps left for the whole pass */
	u32 r;		/* the request being placed */
	u16 port[FT_MAX_LEVELS];
	u32 victim;
	u16 vport[FT_MAX_LEVELS];
};

/* Any path for request @r with the lanes free now: depth-first. */
static bool search_free(struct ft_sched *s, const struct ft_sched_req *rq,
			u32 hh, u32 i, u32 y, u16 *port, u32 *budget)
{
	u32 p, w = s->t.w[i], us, ds;

	if (i > hh)
		return true;
	us = sched_node(s, i, rq->src, y);
	ds = sched_node(s, i, rq->dst, y);
	for (p = 0; p < w && *budget; p++) {
		(*budget)--;
		if (sched_free(s, i, us, p, FT_UP) < rq->lanes ||
		    sched_free(s, i, ds, p, FT_DOWN) < rq->lanes)
			continue;
		port[i - 1] = (u16)p;
		if (search_free(s, rq, hh, i + 1, y * w + p, port, budget))
			return true;
	}
	return false;
}

static void occ_add(struct fill *f, u32 g)
{
	const struct ft_sched_req *rq = &f->req[g];
	struct ft_sched *s = f->s;
	u32 i, y = 0, e = g * f->stride, id;

	for (i = 1; i <= f->out[g].hh; i++) {
		id = sched_link(s, i, sched_node(s, i, rq->src, y),
				f->out[g].port[i - 1], FT_UP);
		f->lnk[e] = id;
		f->nxt[e] = f->head[id];
		f->head[id] = e++;
		id = sched_link(s, i, sched_node(s, i, rq->dst, y),
				f->out[g].port[i - 1], FT_DOWN);
		f->lnk[e] = id;
		f->nxt[e] = f->head[id];
		f->head[id] = e++;
		y = y * s->t.w[i] + f->out[g].port[i - 1];
	}
}

static void occ_del(struct fill *f, u32 g)
{
	u32 e, end = g * f->stride + 2 * f->out[g].hh, *pp;

	for (e = g * f->stride; e < end; e++) {
		pp = &f->head[f->lnk[e]];
		while (*pp != e)
			pp = &f->nxt[*pp];
		*pp = f->nxt[e];
	}
}

/* Link @id has @lanes free for the request once @victim (if any) leaves. */
static bool link_ok(const struct fill *f, u32 id, u32 lanes, u32 victim)
{
	u32 fr = f->s->free[id], e;

	if (fr >= lanes)
		return true;
	if (victim == SCHED_NONE)
		return false;
	for (e = f->head[id]; e != SCHED_NONE; e = f->nxt[e])
		if (e / f->stride == victim)
			return fr + f->req[victim].lanes >= lanes;
	return false;
}

/* Move f->victim off, put f->r on f->port, find the victim a new path. */
static bool try_move(struct fill *f)
{
	struct ft_sched *s = f->s;
	const struct ft_sched_req *rq = &f->req[f->r];
	const struct ft_sched_req *vq = &f->req[f->victim];
	struct ft_sched_out *vo = &f->out[f->victim];
	u32 budget = (u32)ft_min_u64(f->vbudget, f->total), i;
	u32 start = budget;
	bool found;
	u16 old[FT_MAX_LEVELS];

	memcpy(old, vo->port, sizeof(old));
	sched_give_levels(s, vq->src, vq->dst, old, vo->hh, vq->lanes);
	sched_take_path(s, rq->src, rq->dst, f->out[f->r].hh, f->port,
			rq->lanes);
	found = search_free(s, vq, vo->hh, 1, 0, f->vport, &budget);
	f->total -= start - budget;
	if (found) {
		occ_del(f, f->victim);
		for (i = 1; i <= vo->hh; i++)
			vo->port[i - 1] = f->vport[i - 1];
		sched_take_path(s, vq->src, vq->dst, vo->hh, vo->port,
				vq->lanes);
		occ_add(f, f->victim);
		return true;
	}
	sched_give_levels(s, rq->src, rq->dst, f->port, f->out[f->r].hh,
			  rq->lanes);
	sched_take_path(s, vq->src, vq->dst, vo->hh, old, vq->lanes);
	return false;
}

/* Paths for f->r that are free once at most one request moves. */
static bool search_move(struct fill *f, u32 i, u32 y, u32 victim)
{
	struct ft_sched *s = f->s;
	const struct ft_sched_req *rq = &f->req[f->r];
	u32 hh = f->out[f->r].hh, w, p, us, ds, up, dn, blocked, e, c;

	if (i > hh) {
		if (victim == SCHED_NONE)
			return false;	/* free paths were searched before */
		f->victim = victim;
		return try_move(f);
	}
	w = s->t.w[i];
	us = sched_node(s, i, rq->src, y);
	ds = sched_node(s, i, rq->dst, y);
	for (p = 0; p < w && f->budget; p++) {
		f->budget--;
		up = sched_link(s, i, us, p, FT_UP);
		dn = sched_link(s, i, ds, p, FT_DOWN);
		f->port[i - 1] = (u16)p;
		if (link_ok(f, up, rq->lanes, victim) &&
		    link_ok(f, dn, rq->lanes, victim)) {
			if (search_move(f, i + 1, y * w + p, victim))
				return true;
			continue;
		}
		/*
		 * Each request of this batch on a blocked link may move,
		 * unless every path to that link is forced (W_i = 1).
		 */
		if (victim != SCHED_NONE || s->t.wprod[i] == 1)
			continue;
		blocked = link_ok(f, up, rq->lanes, SCHED_NONE) ? dn : up;
		for (e = f->head[blocked]; e != SCHED_NONE && f->budget;
		     e = f->nxt[e]) {
			c = e / f->stride;
			if (!link_ok(f, up, rq->lanes, c) ||
			    !link_ok(f, dn, rq->lanes, c))
				continue;
			if (search_move(f, i + 1, y * w + p, c))
				return true;
			f->port[i - 1] = (u16)p;
		}
	}
	return false;
}

static int optimal_fill(struct ft_sched *s, const struct ft_sched_opts *o,
			const struct ft_sched_req *req, u32 n,
			struct ft_sched_out *out, struct ft_sched_stats *st)
{
	struct fill f = { .s = s, .req = req, .out = out };
	u32 k, j, r, budget, g;
	bool found;
	int err = -ENOMEM;

	f.total = 64ULL * n + 16ULL * o->rearrange;
	k = sched_order(s, o->order, req, n, out);
	for (j = 0; j < k && f.total; j++) {
		r = s->order[j];
		budget = (u32)ft_min_u64(o->rearrange, f.total);
		g = budget;
		found = search_free(s, &req[r], out[r].hh, 1, 0, out[r].port,
				    &budget);
		f.total -= g - budget;
		if (!found)
			continue;
		sched_take_path(s, req[r].src, req[r].dst, out[r].hh,
				out[r].port, req[r].lanes);
		out[r].status = FT_SCHED_GRANTED;
		out[r].fail_level = 0;
		out[r].fail_where = 0;
		st->filled++;
	}
	k = sched_order(s, o->order, req, n, out);
	if (!k)
		return 0;
	sched_counters(s);	/* link_ok() reads s->free directly */
	f.stride = 2 * s->t.h;
	f.head = malloc((size_t)s->ndl * sizeof(u32));
	f.nxt = malloc((size_t)n * f.stride * sizeof(u32));
	f.lnk = malloc((size_t)n * f.stride * sizeof(u32));
	if (!f.head || !f.nxt || !f.lnk)
		goto out;
	memset(f.head, 0xff, (size_t)s->ndl * sizeof(u32));
	for (g = 0; g < n; g++)
		if (out[g].status == FT_SCHED_GRANTED && out[g].hh)
			occ_add(&f, g);
	for (j = 0; j < k && f.total; j++) {
		r = s->order[j];
		f.r = r;
		f.budget = (u32)ft_min_u64(o->rearrange, f.total);
		f.vbudget = o->rearrange;
		g = f.budget;
		found = search_move(&f, 1, 0, SCHED_NONE);
		f.total -= ft_min_u64(f.total, g - f.budget);
		if (!found)
			continue;
		memcpy(out[r].port, f.port, out[r].hh * sizeof(u16));
		out[r].status = FT_SCHED_GRANTED;
		out[r].fail_level = 0;
		out[r].fail_where = 0;
		occ_add(&f, r);
		st->rearranged++;
	}
	err = 0;
out:
	free(f.head);
	free(f.nxt);
	free(f.lnk);
	return err;
}

static u32 count_granted(const struct ft_sched_out *out, u32 n)
{
	u32 j, g = 0;

	for (j = 0; j < n; j++)
		g += out[j].status == FT_SCHED_GRANTED;
	return g;
}

/* Give back the lanes of every granted request of @out. */
static void give_granted(struct ft_sched *s, const struct ft_sched_req *req,
			 u32 n, const struct ft_sched_out *out)
{
	u32 j;

	for (j = 0; j < n; j++)
		if (out[j].status == FT_SCHED_GRANTED && out[j].hh)
			sched_give_levels(s, req[j].src, req[j].dst,
					  out[j].port, out[j].hh,
					  req[j].lanes);
}

static int optimal_fallback(struct ft_sched *s, const struct ft_sched_opts *o,
			    const struct ft_sched_req *req, u32 n,
			    struct ft_sched_out *out)
{
	struct ft_sched_opts lw = *o;

	lw.order = FT_SCHED_ORDER_FARTHEST;
	lw.release_on_failure = true;
	lw.random_fit = false;
	return sched_levelwise(s, &lw, req, n, out);
}

/*
 * The exact pass, in @out; when it had to drop requests (not a
 * permutation), also the fallback from the same state, keeping whichever
 * granted more.
 */
static int optimal_best(struct ft_sched *s, const struct ft_sched_opts *o,
			const struct ft_sched_req *req, u32 n,
			struct ft_sched_out *out, const u32 *fl,
			struct ft_sched_stats *st)
{
	struct ft_sched_out *eo;
	u32 dropped = 0, j;
	int err;

	err = optimal_exact(s, o, req, n, out, fl, &dropped);
	st->exact = 1;
	st->fast = err > 0;
	if (err > 0)
		err = 0;
	if (err || !dropped)
		return err;
	/*
	 * Back to the lanes before the exact pass (its dropped requests
	 * gave theirs back already) and to @out as set up, for the
	 * fallback; the exact outcome is kept aside.  Out of memory:
	 * nothing taken, as if the exact pass had not run.
	 */
	eo = malloc(((size_t)n + 1) * sizeof(*eo));
	give_granted(s, req, n, out);
	if (eo)
		memcpy(eo, out, (size_t)n * sizeof(*eo));
	sched_setup(s, req, n, out);
	if (!eo)
		return -ENOMEM;
	err = optimal_fallback(s, o, req, n, out);
	if (err)
		goto done;
	if (count_granted(eo, n) >= count_granted(out, n)) {
		/* The fallback's refused requests hold nothing (release). */
		give_granted(s, req, n, out);
		for (j = 0; j < n; j++)
			if (eo[j].status == FT_SCHED_GRANTED && eo[j].hh)
				sched_take_path(s, req[j].src, req[j].dst,
						eo[j].hh, eo[j].port,
						req[j].lanes);
		memcpy(out, eo, (size_t)n * sizeof(*eo));
	} else {
		st->exact = 0;
		st->fast = 0;
	}
done:
	free(eo);
	return err;
}

int sched_optimal(struct ft_sched *s, const struct ft_sched_opts *o,
		  const struct ft_sched_req *req, u32 n,
		  struct ft_sched_out *out, struct ft_sched_stats *st)
{
	u32 fl[FT_MAX_LEVELS + 1];
	int err;

	if (exact_applies(s, req, n, out, fl))
		err = optimal_best(s, o, req, n, out, fl, st);
	else
		err = optimal_fallback(s, o, req, n, out);
	if (err || !o->rearrange)
		return err;
	return optimal_fill(s, o, req, n, out, st);
}
