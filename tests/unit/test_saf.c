// SPDX-License-Identifier: GPL-2.0
/*
 * Store-and-forward engine (seed 001): the leveled network, the paper's
 * invariants checked after every step independently of the engine's own
 * bookkeeping (every edge queue sorted by key and never above q, nothing
 * behind an EOS, every packet in exactly one place), every packet
 * delivered once and intact, T against c + L + lg N, Lemma 2.2, paths and
 * congestion against ft_topo, batches, pair order, determinism.
 */
#include "tap.h"
#include "harness.h"
#include "../../kmod/core/ft_saf.h"
#include "../../kmod/core/ft_math.h"

/* A fabric shape for the tests. */
struct shape {
	const char *name;
	u32 h;
	u32 m[4];
	u32 w[4];
	enum ft_profile_kind prof;
	u32 base;
};

static const struct shape shapes[] = {
	{ "binary 16 doubling", 4, { 2, 2, 2, 2 }, { 1, 1, 1, 1 },
	  FT_PROFILE_DOUBLING, 1 },
	{ "binary 8 thin", 3, { 2, 2, 2 }, { 1, 1, 1 }, FT_PROFILE_CONSTANT, 1 },
	{ "4-ary 16 area:2 (section 7)", 2, { 4, 4 }, { 1, 1 },
	  FT_PROFILE_AREA, 2 },
	{ "4-ary 64 area:2 (section 7)", 3, { 4, 4, 4 }, { 1, 1, 1 },
	  FT_PROFILE_AREA, 2 },
	{ "FT(2,4)", 2, { 4, 4 }, { 1, 4 }, FT_PROFILE_CONSTANT, 1 },
	{ "FT(3,4)", 3, { 4, 4, 4 }, { 1, 4, 4 }, FT_PROFILE_CONSTANT, 1 },
	{ "XGFT(2; 8,4; 1,2) slim", 2, { 8, 4 }, { 1, 2 },
	  FT_PROFILE_STANDARD, 1 },
	{ "XGFT(3; 3,2,3; 2,2,1)", 3, { 3, 2, 3 }, { 2, 2, 1 },
	  FT_PROFILE_CONSTANT, 2 },
};

#define NSHAPES		(sizeof(shapes) / sizeof(shapes[0]))
#define MAX_PKTS	4096

static int make_topo(struct ft_topo *t, const struct shape *sh)
{
	struct ft_profile pr = { .kind = sh->prof, .base = sh->base };
	u32 lanes[FT_MAX_LEVELS];

	if (ft_profile_lanes(&pr, sh->h, sh->m, sh->w, lanes))
		return -1;
	return ft_topo_init(t, sh->h, sh->m, sh->w, lanes);
}

static void params(struct ft_saf_params *p, u32 q, u32 disc, u32 ghosts,
		   u32 picks, u32 path, u32 ranks, u64 seed)
{
	memset(p, 0, sizeof(*p));
	p->q = q;
	p->discipline = disc;
	p->ghosts = ghosts;
	p->picks = picks;
	p->path = path;
	p->ranks = ranks;
	p->max_pkts = MAX_PKTS;
	p->seed = seed;
}

/* One test run: the engine, its memory and what the test knows. */
struct run {
	struct ft_saf s;
	void *mem;
	u32 n;			/* packets */
	u32 src[MAX_PKTS];
	u32 dst[MAX_PKTS];
	u32 id[MAX_PKTS];	/* pool index */
	u32 got[MAX_PKTS];	/* deliveries */
	u32 steps[MAX_PKTS];	/* steps to deliver */
	u64 last_key[1024];	/* per destination: last key delivered */
	u32 last_cookie[1024 * 4];	/* per pair (small n): last cookie + 1 */
	u32 bad_intact;
	u32 bad_order;		/* final queue not in key order */
	u32 bad_pair;		/* a pair's packets out of order */
	u32 pair_check;
	char why[256];
};

static void on_deliver(void *arg, const struct ft_saf_pkt *p, u32 steps)
{
	struct run *r = arg;
	u32 k = (u32)p->cookie, pair;

	if (k >= r->n || p->src != r->src[k] || p->dst != r->dst[k]) {
		r->bad_intact++;
		return;
	}
	r->got[k]++;
	r->steps[k] = steps;
	if (r->s.p.discipline == FT_SAF_RANK) {
		if (p->key < r->last_key[p->dst])
			r->bad_order++;
		r->last_key[p->dst] = p->key;
	}
	if (r->pair_check) {
		pair = p->src * r->s.topo.n + p->dst;
		if (r->last_cookie[pair] > k + 1)
			r->bad_pair++;
		r->last_cookie[pair] = k + 1;
	}
}

static int run_init(struct run *r, const struct ft_topo *t,
		    const struct ft_saf_params *p)
{
	size_t sz = ft_saf_mem_size(t, p);

	memset(r, 0, sizeof(*r));
	r->mem = sz ? malloc(sz) : NULL;
	if (!r->mem)
		return -1;
	return ft_saf_init(&r->s, t, p, r->mem, sz);
}

static int run_add(struct run *r, u32 src, u32 dst)
{
	if (r->n == MAX_PKTS)
		return -1;
	r->src[r->n] = src;
	r->dst[r->n] = dst;
	if (ft_saf_add(&r->s, src, dst, r->n, &r->id[r->n]))
		return -1;
	r->n++;
	return 0;
}

__attribute__((format(printf, 2, 3)))
static int fail(struct run *r, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(r->why, sizeof(r->why), fmt, ap);
	va_end(ap);
	return -1;
}

/* Key of a slot value, computed here, not by the engine. */
static u64 slot_key(const struct ft_saf *s, u32 v)
{
	if (v == FT_SAF_EOS)
		return ~0ULL;
	return s->pkt[v & ~FT_SAF_GHOST].key + !!(v & FT_SAF_GHOST);
}

/*
 * The invariants between two steps, from the raw state: every edge queue
 * at most q, sorted by key (rank) or arrival (greedy), nothing behind an
 * EOS, ghosts counted right; every packet of the batch in exactly one
 * place (an initial queue, one edge queue, or delivered once).
 */
static int check_state(struct run *r, u8 *seen)
{
	const struct ft_saf *s = &r->s;
	u32 l, e, i, v, pi, ghosts, leaf, k;
	u64 key, prev;
	int rank = s->p.discipline == FT_SAF_RANK, eos;

	memset(seen, 0, s->p.max_pkts);
	for (l = 0; l < s->nlinks; l++) {
		for (e = s->link[l].edge; e < s->link[l].edge + s->link[l].lanes;
		     e++) {
			const struct ft_saf_edge_queue *q = &s->eq[e];

			if (q->count > s->p.q)
				return fail(r, "edge %u holds %u > q = %u", e,
					    q->count, s->p.q);
			prev = 0;
			eos = 0;
			ghosts = 0;
			for (i = 0; i < q->count; i++) {
				v = s->slot[e * s->p.q + (q->head + i) % s->p.q];
				if (eos)
					return fail(r, "edge %u: a packet behind EOS", e);
				if (v == FT_SAF_EOS) {
					eos = 1;
					if (!rank)
						return fail(r, "EOS under a greedy discipline");
					continue;
				}
				if (v & FT_SAF_GHOST) {
					ghosts++;
					if (!rank || !s->p.ghosts)
						return fail(r, "edge %u: unexpected ghost", e);
				}
				pi = v & ~FT_SAF_GHOST;
				if (pi >= s->p.max_pkts ||
				    s->pkt[pi].state != FT_SAF_PKT_BATCH)
					return fail(r, "edge %u: slot %#x is no packet in flight",
						    e, v);
				key = rank ? slot_key(s, v) : s->pkt[pi].since;
				if (i && key < prev)
					return fail(r, "edge %u: not sorted at slot %u", e, i);
				prev = key;
				if (!(v & FT_SAF_GHOST)) {
					if (seen[pi]++)
						return fail(r, "packet %u in two places", pi);
					if (s->pkt[pi].pos != s->node[s->link[l].to].level)
						return fail(r, "packet %u at level %u, node level %u",
							    pi, s->pkt[pi].pos,
							    s->node[s->link[l].to].level);
				}
			}
			if (ghosts != q->ghosts)
				return fail(r, "edge %u: %u ghosts, counted %u", e,
					    ghosts, q->ghosts);
		}
	}
	if (!s->running)
		return 0;
	for (leaf = 0; leaf < s->topo.n; leaf++) {
		for (k = s->leaf_head[leaf]; k < s->leaf_off[leaf + 1]; k++) {
			pi = s->batch[k];
			if (seen[pi]++)
				return fail(r, "packet %u in two places", pi);
			if (k > s->leaf_head[leaf] && rank &&
			    s->pkt[pi].key < s->pkt[s->batch[k - 1]].key)
				return fail(r, "initial queue %u not sorted", leaf);
		}
	}
	for (k = 0; k < s->b.packets; k++) {
		pi = s->batch[k];
		if (s->pkt[pi].state == FT_SAF_PKT_DELIVERED)
			seen[pi]++;
		if (seen[pi] != 1)
			return fail(r, "packet %u in %u places", pi, seen[pi]);
	}
	return 0;
}

/* Step to the end of the batch; checks after every step. */
static int run_batch(struct run *r, u32 max_steps)
{
	struct ft_saf_step_result res;
	struct ft_saf_fault f;
	u8 *seen = malloc(r->s.p.max_pkts);
	u32 i;
	int rc = -1;

	if (!seen)
		return fail(r, "out of memory");
	for (i = 0; i < max_steps; i++) {
		ft_saf_step(&r->s, on_deliver, r, &res);
		if (ft_saf_check(&r->s, &f)) {
			fail(r, "ft_saf_check: fault %u at edge %u node %u after step %u",
			     f.what, f.edge, f.node, i + 1);
			goto out;
		}
		if (check_state(r, seen))
			goto out;
		if (res.done || res.stalled) {
			rc = 0;
			goto out;
		}
	}
	fail(r, "not done after %u steps", max_steps);
out:
	free(seen);
	return rc;
}

static void run_free(struct run *r)
{
	free(r->mem);
	r->mem = NULL;
}

static u32 bitrev(u32 x, u32 bits)
{
	u32 y = 0, i;

	for (i = 0; i < bits; i++)
		y |= ((x >> i) & 1) << (bits - 1 - i);
	return y;
}

enum pattern { PAT_PERM, PAT_BITREV, PAT_KPERM, PAT_HOTSPOT, PAT_SELF,
	       PAT_N };
static const char *const pat_name[PAT_N] = {
	"random permutation", "bit-reversal", "3 permutations", "hot spot",
	"self",
};

static int add_pattern(struct run *r, struct ft_rand *g, u32 pat)
{
	u32 n = r->s.topo.n, perm[1024], i, k, bits = ft_ilog2_ceil(n);

	switch (pat) {
	case PAT_BITREV:
		for (i = 0; i < n; i++)
			if (run_add(r, i, bitrev(i, bits)))
				return -1;
		return 0;
	case PAT_HOTSPOT:
		for (i = 0; i < n; i++)
			if (run_add(r, i, 0) || run_add(r, i, 0) ||
			    run_add(r, i, ft_rand_below(g, n)))
				return -1;
		return 0;
	case PAT_SELF:
		for (i = 0; i < n; i++)
			if (run_add(r, i, i))
				return -1;
		return 0;
	default:
		for (k = 0; k < (pat == PAT_KPERM ? 3U : 1U); k++) {
			ft_rand_perm(g, perm, n);
			for (i = 0; i < n; i++)
				if (run_add(r, i, perm[i]))
					return -1;
		}
		return 0;
	}
}

/* Up-ports of packet @k as the engine's policy gives them. */
static void ports_of(const struct ft_saf *s, u32 route, u32 dst, u32 hh,
		     u32 *port)
{
	const struct ft_topo *t = &s->topo;
	u32 i;

	for (i = 1; i <= hh; i++)
		port[i - 1] = s->p.path == FT_SAF_PATH_DMODK ?
			      ft_topo_dmodk_port(t, dst, i) :
			      (route / t->wprod[i - 1]) % t->w[i];
}

/*
 * Independent congestion: each packet's fat-tree path from ft_topo_path()
 * and the node where it turns; the load of every directed link must be
 * what the engine's link carried, and c = max ceil(load / edges) over
 * links and chains must be the engine's.  Non-adaptive paths only; needs
 * the routes, so it runs right after the batch starts.
 */
struct expect {
	u32 *load;		/* per directed link */
	u32 *turn;		/* per (level, node) */
	u32 turn_base[FT_MAX_LEVELS + 1];
	u32 c;
	u32 node_c;		/* most packets through one fat-tree node */
};

static int expect_paths(struct run *r, struct expect *x)
{
	const struct ft_saf *s = &r->s;
	const struct ft_topo *t = &s->topo;
	u32 port[FT_MAX_LEVELS], k, i, node, hh, tot = 0, lanes, dl;
	u32 *through;
	struct ft_path path;

	memset(x, 0, sizeof(*x));
	for (i = 0; i <= t->h; i++) {
		x->turn_base[i] = tot;
		tot += t->nodes[i];
	}
	x->load = calloc(ft_topo_dlinks(t), sizeof(u32));
	x->turn = calloc(tot, sizeof(u32));
	through = calloc(2 * tot, sizeof(u32));
	if (!x->load || !x->turn || !through)
		return fail(r, "out of memory");
	for (k = 0; k < r->n; k++) {
		const struct ft_saf_pkt *pk = &s->pkt[r->id[k]];

		hh = ft_topo_common_level(t, r->src[k], r->dst[k]);
		if (pk->hh != hh)
			return fail(r, "packet %u: H %u, want %u", k, pk->hh, hh);
		ports_of(s, pk->route, r->dst[k], hh, port);
		if (ft_topo_path(t, r->src[k], r->dst[k], port, &path))
			return fail(r, "packet %u: no path", k);
		for (i = 0; i < path.n; i++)
			x->load[path.link[i]]++;
		node = r->src[k];
		through[node]++;
		for (i = 1; i <= hh; i++) {
			node = ft_topo_up(t, i, node, port[i - 1]);
			through[x->turn_base[i] + node]++;
		}
		x->turn[x->turn_base[hh] + node]++;
		/* the down side: the same switches below the turn (Theorem 2) */
		for (i = hh; i-- > 0;) {
			node = ft_topo_node(t, i, r->dst[k] / t->mprod[i],
					    (node % t->wprod[i + 1]) / t->w[i + 1]);
			through[tot + x->turn_base[i] + node]++;
		}
	}
	for (dl = 0; dl < ft_topo_dlinks(t); dl++) {
		u32 lvl, local, dir;

		ft_topo_dlink_decode(t, dl, &lvl, &local, &dir);
		lanes = t->lanes[lvl];
		x->c = ft_max_u32(x->c, (x->load[dl] + lanes - 1) / lanes);
	}
	for (i = 0; i < t->h; i++) {
		lanes = ft_saf_chain_lanes(t, i);
		for (node = 0; node < t->nodes[i]; node++)
			x->c = ft_max_u32(x->c, (x->turn[x->turn_base[i] + node] +
						 lanes - 1) / lanes);
	}
	for (i = 0; i < 2 * tot; i++)
		x->node_c = ft_max_u32(x->node_c, through[i]);
	free(through);
	return 0;
}

/* The engine's links carried what the paths say. */
static int check_carried(struct run *r, const struct expect *x)
{
	const struct ft_saf *s = &r->s;
	u32 l;

	for (l = 0; l < s->nlinks; l++) {
		if (s->link[l].dlink == FT_SAF_CHAIN)
			continue;
		if (s->carried[l] != x->load[s->link[l].dlink])
			return fail(r, "link %u (dlink %u) carried %u, path load %u",
				    l, s->link[l].dlink, s->carried[l],
				    x->load[s->link[l].dlink]);
	}
	if (s->b.congestion != x->c)
		return fail(r, "congestion %u, paths give %u", s->b.congestion,
			    x->c);
	return 0;
}

/* What the whole sweep found. */
struct tally {
	u32 runs;
	u32 failed;
	u32 stalled;		/* ghosts off only */
	u32 bad_stall;		/* a stall with ghosts, or greedy */
	u32 bad_lemma22;
	u32 bad_bound;
	u32 bad_stats;
	u32 bad_paths;
	double worst_ratio;	/* T / (c + L + lg N): ghosts, q >= 2, picks 0 */
	char worst[320];
	char first[512];
};

/* The tally's checks, each a count of the runs that broke it. */
static const struct {
	size_t off;		/* of its counter in struct tally */
	const char *what;	/* its TAP line, given the count */
} checks[] = {
	{ offsetof(struct tally, failed), "every run: invariants after every step, every packet delivered once and intact, final queues in key order, pairs in order (%u failed)" },
	{ offsetof(struct tally, bad_stall), "no stall with ghosts or under FIFO/farthest-first (%u)" },
	{ offsetof(struct tally, bad_lemma22), "Lemma 2.2: with ghosts and q >= 2 no node waits on an empty link after step = its level (%u)" },
	{ offsetof(struct tally, bad_stats), "counters: L hops per packet, one EOS per edge, no ghost when off, occupancy <= q (%u)" },
	{ offsetof(struct tally, bad_paths), "links carry the loads of ft_topo_path(); congestion c as the paths give it (%u)" },
	{ offsetof(struct tally, bad_bound), "L + 1 <= T, c <= T, T <= 8 (c + L + lg N) (per node for picks 1) (%u)" },
};

#define NCHECKS		(sizeof(checks) / sizeof(checks[0]))

static u32 broke(const struct tally *ty, size_t i)
{
	return *(const u32 *)((const char *)ty + checks[i].off);
}

static void note(struct tally *ty, u32 *counter, const char *what,
		 const char *ctx, const char *why)
{
	(*counter)++;
	if (!ty->first[0])
		snprintf(ty->first, sizeof(ty->first), "%s: %s: %s", what, ctx,
			 why);
}

/* One run: shape, pattern, parameters; every check. */
static void sweep_one(struct tally *ty, const struct shape *sh, u32 pat,
		      const struct ft_saf_params *p, u64 seed)
{
	static struct run r;
	struct ft_topo t;
	struct expect x = { 0 };
	struct ft_rand g;
	char ctx[256];
	u32 k, T, L, lg, cnt;
	double ratio;
	int adaptive = p->path == FT_SAF_PATH_FIRSTFREE;

	snprintf(ctx, sizeof(ctx), "%s, %s, q %u, disc %u, ghosts %u, picks %u, path %u, ranks %u, seed %llu",
		 sh->name, pat_name[pat], p->q, p->discipline, p->ghosts,
		 p->picks, p->path, p->ranks, (unsigned long long)seed);
	ty->runs++;
	if (make_topo(&t, sh) || run_init(&r, &t, p)) {
		note(ty, &ty->failed, "init", ctx, "refused");
		run_free(&r);
		return;
	}
	ft_rand_seed(&g, seed);
	r.pair_check = p->discipline == FT_SAF_RANK &&
		       p->ranks == FT_SAF_RANKS_PAIR && t.n <= 64;
	if (add_pattern(&r, &g, pat) || ft_saf_start(&r.s)) {
		note(ty, &ty->failed, "add", ctx, "refused");
		goto out;
	}
	if (!adaptive && expect_paths(&r, &x)) {
		note(ty, &ty->bad_paths, "paths", ctx, r.why);
		goto out;
	}
	if (run_batch(&r, 20000)) {
		note(ty, &ty->failed, "run", ctx, r.why);
		goto out;
	}
	if (r.s.b.stalled) {
		if (p->ghosts && p->discipline == FT_SAF_RANK)
			note(ty, &ty->bad_stall, "stall", ctx, "stalled with ghosts");
		else if (p->discipline != FT_SAF_RANK)
			note(ty, &ty->bad_stall, "stall", ctx, "greedy stalled");
		else
			ty->stalled++;
		goto out;
	}
	for (k = 0; k < r.n; k++)
		if (r.got[k] != 1)
			break;
	if (k < r.n || r.bad_intact || r.bad_order || r.bad_pair) {
		snprintf(r.why, sizeof(r.why), "packet %u delivered %u times; intact %u, order %u, pair %u",
			 k, k < r.n ? r.got[k] : 1, r.bad_intact, r.bad_order,
			 r.bad_pair);
		note(ty, &ty->failed, "delivery", ctx, r.why);
		goto out;
	}
	T = r.s.b.last;
	L = ft_saf_depth(&t);
	lg = ft_ilog2_ceil(r.n);
	cnt = r.s.st.eos != (p->discipline == FT_SAF_RANK ? r.s.nedges : 0);
	if (r.s.st.hops != (u64)r.n * L || r.s.st.delivered != r.n || cnt ||
	    r.s.st.qmax > p->q || r.s.b.packets != r.n ||
	    ((!p->ghosts || p->discipline) && r.s.st.ghosts)) {
		snprintf(r.why, sizeof(r.why), "hops %llu, delivered %llu, eos %llu of %u edges, qmax %u, ghosts %llu",
			 (unsigned long long)r.s.st.hops,
			 (unsigned long long)r.s.st.delivered,
			 (unsigned long long)r.s.st.eos, r.s.nedges, r.s.st.qmax,
			 (unsigned long long)r.s.st.ghosts);
		note(ty, &ty->bad_stats, "stats", ctx, r.why);
	}
	for (k = 0; k <= L; k++)
		if (r.s.st.level[k].occ_max > p->q)
			note(ty, &ty->bad_stats, "level", ctx, "occupancy above q");
	if (p->discipline == FT_SAF_RANK && p->ghosts && p->q >= 2 &&
	    r.s.st.empty_waits)
		note(ty, &ty->bad_lemma22, "Lemma 2.2", ctx,
		     "a node waited on an empty link after its warm-up");
	if (!adaptive && check_carried(&r, &x))
		note(ty, &ty->bad_paths, "paths", ctx, r.why);
	/*
	 * T: at least L + 1 steps (L edges, then the final queue) and c;
	 * at most a small multiple of c + L + lg N.  The paper's node
	 * (picks 1) crosses one packet per step, so its c is per node.
	 */
	ratio = (double)T / (r.s.b.congestion + L + lg);
	if (p->picks == 1)
		ratio = adaptive ? 0 : (double)T / (x.node_c + L + lg);
	if (T < L + 1 || T < r.s.b.congestion || ratio > 8) {
		snprintf(r.why, sizeof(r.why), "T %u, c %u, L %u, lg N %u",
			 T, r.s.b.congestion, L, lg);
		note(ty, &ty->bad_bound, "T", ctx, r.why);
	}
	if (p->discipline == FT_SAF_RANK && p->ghosts && !p->picks &&
	    p->q >= 2 && ratio > ty->worst_ratio) {
		ty->worst_ratio = ratio;
		snprintf(ty->worst, sizeof(ty->worst), "%s: T %u c %u L %u lg %u",
			 ctx, T, r.s.b.congestion, L, lg);
	}
out:
	free(x.load);
	free(x.turn);
	run_free(&r);
}

/* Every shape and pattern under a rotation of every parameter value. */
static void test_sweep(void)
{
	static const u32 qs[] = { 1, 2, 3, 4, 8 };
	struct ft_saf_params p;
	struct tally ty = { 0 };
	struct ft_topo t;
	u32 si, pat, k, rot = 0, q, disc, ghosts, picks, path, ranks;
	size_t i;

	for (si = 0; si < NSHAPES; si++) {
		make_topo(&t, &shapes[si]);
		for (pat = 0; pat < PAT_N; pat++) {
			if (pat == PAT_BITREV && (t.n & (t.n - 1)))
				continue;
			for (k = 0; k < 12; k++, rot++) {
				q = qs[rot % 5];
				disc = k < 8 ? FT_SAF_RANK : 1 + k % 2;
				ghosts = k % 4 != 3;
				picks = k == 5 ? 1 : (k == 6 ? 3 : 0);
				path = (rot / 5) % FT_SAF_PATH_NR;
				ranks = (rot / 3) % FT_SAF_RANKS_NR;
				params(&p, q, disc, ghosts, picks, path, ranks,
				       rot);
				sweep_one(&ty, &shapes[si], pat, &p, 1000 + rot);
			}
		}
	}
	tap_diag("%u runs on %zu shapes; ghosts off stalled %u times; worst T / (c + L + lg N) with ghosts %.2f",
		 ty.runs, NSHAPES, ty.stalled, ty.worst_ratio);
	tap_diag("worst: %s", ty.worst);
	if (ty.first[0])
		tap_diag("first problem: %s", ty.first);
	for (i = 0; i < NCHECKS; i++)
		tap_ok(!broke(&ty, i), checks[i].what, broke(&ty, i));
	tap_ok(ty.worst_ratio > 0 && ty.worst_ratio < 3,
	       "random-rank with ghosts, q >= 2: T / (c + L + lg N) at most %.2f < 3",
	       ty.worst_ratio);
}

/* Larger random permutations and bit-reversals, both disciplines. */
static void test_large(void)
{
	static const struct shape big[] = {
		{ "4-ary 256 area:2", 4, { 4, 4, 4, 4 }, { 1, 1, 1, 1 },
		  FT_PROFILE_AREA, 2 },
		{ "FT(2,16)", 2, { 16, 16 }, { 1, 16 }, FT_PROFILE_CONSTANT, 1 },
	};
	struct ft_saf_params p;
	struct tally ty = { 0 };
	u32 si, pat, disc, q;
	size_t i;
	int every = 1;

	for (si = 0; si < 2; si++)
		for (pat = PAT_PERM; pat <= PAT_BITREV; pat++)
			for (disc = 0; disc < FT_SAF_DISC_NR; disc++)
				for (q = 2; q <= 4; q += 2) {
					params(&p, q, disc, 1, 0,
					       FT_SAF_PATH_HASH,
					       FT_SAF_RANKS_PACKET, q + disc);
					sweep_one(&ty, &big[si], pat, &p, 7 + si);
				}
	if (ty.first[0])
		tap_diag("first problem: %s", ty.first);
	for (i = 0; i < NCHECKS; i++)
		every &= !broke(&ty, i);
	tap_ok(every,
	       "256 leaves: permutation and bit-reversal, rank/FIFO/farthest, q 2 and 4: every check (%u runs, worst ratio %.2f)",
	       ty.runs, ty.worst_ratio);
}

/* One packet alone crosses exactly L edges in L steps, then is delivered. */
static void test_alone(void)
{
	static struct run r;
	struct ft_saf_params p;
	struct ft_topo t;
	u32 si, s, d, disc, ok = 1, runs = 0;

	for (si = 0; si < NSHAPES; si++) {
		make_topo(&t, &shapes[si]);
		for (disc = 0; disc < FT_SAF_DISC_NR; disc++) {
			params(&p, 2, disc, 1, 0, (si + disc) % FT_SAF_PATH_NR,
			       FT_SAF_RANKS_PACKET, si);
			if (run_init(&r, &t, &p)) {
				ok = 0;
				continue;
			}
			for (s = 0; s < t.n; s += 1 + t.n / 8) {
				for (d = 0; d < t.n; d += 1 + t.n / 7) {
					r.n = 0;
					memset(r.got, 0, sizeof(r.got));
					memset(r.last_key, 0, sizeof(r.last_key));
					run_add(&r, s, d);
					runs++;
					if (run_batch(&r, 1000) || r.got[0] != 1 ||
					    r.steps[0] != 2 * t.h + 1) {
						if (ok)
							tap_diag("%s %u->%u: %s steps %u",
								 shapes[si].name, s, d,
								 r.why, r.steps[0]);
						ok = 0;
					}
				}
			}
			run_free(&r);
		}
	}
	tap_ok(ok, "a packet alone (self included) arrives after exactly L + 1 = 2h + 1 steps, every discipline (%u runs)",
	       runs);
}

static void test_counts(void)
{
	static const u32 two[] = { 2, 2 }, one[] = { 1, 1 };
	struct ft_saf_params p;
	struct ft_topo t;
	static struct run r;
	int ok;

	ft_topo_init(&t, 2, two, one, one);
	params(&p, 2, FT_SAF_RANK, 1, 0, FT_SAF_PATH_HASH,
	       FT_SAF_RANKS_PACKET, 1);
	ok = !run_init(&r, &t, &p);
	/*
	 * binary 4: sources 4, up 2, top 1, down 2, sinks 4; leaf chains of
	 * 3 nodes (4 x 3), level-1 chains of 1 node (2 x 1): 27 nodes.
	 * Edges: 6 up + 6 down + leaf chains 4 x 4 + level-1 chains of 2
	 * hops x 2 lanes (m_1 c_1) x 2 = 36.
	 */
	tap_ok(ok && r.s.nnodes == 27 && r.s.nedges == 36 && r.s.depth == 4 &&
	       r.s.lvl_node[5] == 27 && r.s.lvl_node[1] == 4,
	       "binary 4: 27 nodes, 36 edges, depth L = 4 (nodes %u, edges %u)",
	       r.s.nnodes, r.s.nedges);
	ok &= r.s.st.level[1].queues == 4 + 4 &&
	      r.s.st.level[2].queues == 2 + 4 + 4 &&
	      r.s.st.level[4].queues == 4 + 4;
	tap_ok(ok, "edge queues per level: 1: 4 up + 4 leaf chain; 2: 2 up + 4 leaf chain + 2 x 2 chain; 4: 4 down + 4 leaf chain");
	run_free(&r);
}

static void test_params(void)
{
	static const u32 two[] = { 2, 2 }, one[] = { 1, 1 };
	struct ft_saf_params p, b;
	struct ft_topo t;
	struct ft_saf s;
	size_t sz;
	void *mem;
	int ok = 1;

	ft_topo_init(&t, 2, two, one, one);
	params(&p, 2, FT_SAF_RANK, 1, 0, FT_SAF_PATH_HASH,
	       FT_SAF_RANKS_PACKET, 1);
	ok &= !ft_saf_params_check(&t, &p) && ft_saf_mem_size(&t, &p) > 0;
	b = p;
	b.q = 0;
	ok &= ft_saf_params_check(&t, &b) == -FT_EINVAL && !ft_saf_mem_size(&t, &b);
	b.q = FT_SAF_MAX_Q + 1;
	ok &= ft_saf_params_check(&t, &b) == -FT_EINVAL;
	b.q = FT_SAF_MAX_Q;
	ok &= !ft_saf_params_check(&t, &b);
	tap_ok(ok, "q: 0 and %u refused, 1..%u accepted", FT_SAF_MAX_Q + 1,
	       FT_SAF_MAX_Q);
	ok = 1;
	b = p;
	b.discipline = FT_SAF_DISC_NR;
	ok &= ft_saf_params_check(&t, &b) == -FT_EINVAL;
	b = p;
	b.path = FT_SAF_PATH_NR;
	ok &= ft_saf_params_check(&t, &b) == -FT_EINVAL;
	b = p;
	b.ranks = FT_SAF_RANKS_NR;
	ok &= ft_saf_params_check(&t, &b) == -FT_EINVAL;
	b = p;
	b.ghosts = 2;
	ok &= ft_saf_params_check(&t, &b) == -FT_EINVAL;
	b = p;
	b.rank_range = FT_SAF_MAX_RANK + 1;
	ok &= ft_saf_params_check(&t, &b) == -FT_EINVAL;
	b = p;
	b.max_pkts = 0;
	ok &= ft_saf_params_check(&t, &b) == -FT_EINVAL;
	b.max_pkts = FT_SAF_MAX_PKTS + 1;
	ok &= ft_saf_params_check(&t, &b) == -FT_EINVAL;
	tap_ok(ok, "bad discipline, path, ranks, ghosts, rank range, pool size refused");
	sz = ft_saf_mem_size(&t, &p);
	mem = malloc(sz);
	ok = ft_saf_init(&s, &t, &p, mem, sz - 1) == -FT_EINVAL &&
	     ft_saf_init(&s, &t, &p, NULL, sz) == -FT_EINVAL &&
	     !ft_saf_init(&s, &t, &p, mem, sz);
	ok &= ft_saf_add(&s, 4, 0, 0, NULL) == -FT_EINVAL &&
	      ft_saf_add(&s, 0, 4, 0, NULL) == -FT_EINVAL &&
	      ft_saf_start(&s) == -FT_ENOENT;
	tap_ok(ok, "init refuses too little memory; add refuses a bad leaf; start with nothing queued is -ENOENT");
	free(mem);
}

static void count_steps(void *arg, const struct ft_saf_pkt *p, u32 steps)
{
	(void)p;
	(void)steps;
	(*(u32 *)arg)++;
}

/*
 * An engine of 16 leaves (4-ary, 2 levels) with a pool of 40, ranks by
 * pair, q @q and seed @seed, in @s; returns its memory.
 */
static void *small_engine(struct ft_saf *s, struct ft_saf_params *p, u32 q,
			  u64 seed)
{
	static const u32 m[] = { 4, 4 }, w[] = { 1, 1 }, c[] = { 2, 4 };
	struct ft_topo t;
	size_t sz;
	void *mem;

	ft_topo_init(&t, 2, m, w, c);
	params(p, q, FT_SAF_RANK, 1, 0, FT_SAF_PATH_HASH, FT_SAF_RANKS_PAIR,
	       seed);
	p->max_pkts = 40;
	sz = ft_saf_mem_size(&t, p);
	mem = malloc(sz);
	if (mem)
		ft_saf_init(s, &t, p, mem, sz);
	return mem;
}

/* Batches: adds while one is in flight, auto-start, a full pool. */
static void test_batches(void)
{
	struct ft_saf_step_result res;
	struct ft_saf_params p;
	struct ft_saf s;
	struct ft_rand g;
	u32 got = 0, i, k, batches = 0, steps = 0, added = 0;
	void *mem;
	int ok = 1, full = 0, busy = 1;

	mem = small_engine(&s, &p, 3, 3);
	ft_rand_seed(&g, 5);
	ft_saf_step(&s, count_steps, &got, &res);
	ok &= !res.started && !res.done && !s.running && s.st.steps == 1 &&
	      !s.st.busy_steps;
	for (k = 0; k < 2000; k++) {
		/* a few packets per step, whatever the engine is doing */
		for (i = ft_rand_below(&g, 7); i > 0; i--) {
			if (ft_saf_add(&s, ft_rand_below(&g, 16),
				       ft_rand_below(&g, 16), added, NULL)) {
				full++;
				continue;
			}
			added++;
		}
		if (s.running && ft_saf_start(&s) != -FT_EEXIST)
			busy = 0;
		ft_saf_step(&s, count_steps, &got, &res);
		batches += res.done;
		steps++;
		if (res.stalled)
			ok = 0;
	}
	while ((s.running || s.npend) && steps < 10000) {
		ft_saf_step(&s, count_steps, &got, &res);
		batches += res.done;
		steps++;
	}
	tap_ok(ok && got == added && s.st.delivered == added &&
	       s.st.added == added && s.st.batches == batches && batches > 10 &&
	       s.nfree == p.max_pkts && !s.npend,
	       "batches back to back: %u packets added while batches run, all delivered in %u batches, pool whole again",
	       added, batches);
	tap_ok(full > 0, "a full pool refuses with -ENOSPC (%d times) and loses nothing",
	       full);
	tap_ok(busy, "start while a batch is in flight is -EEXIST");
	free(mem);
}

/* Same seed, same run; other seed, other ranks. */
static void test_determinism(void)
{
	static struct run a, b;
	struct ft_saf_params p;
	struct ft_topo t;
	struct ft_rand g;
	int same = 1, differ = 0;
	u32 k;

	make_topo(&t, &shapes[5]);
	params(&p, 2, FT_SAF_RANK, 1, 0, FT_SAF_PATH_RANDOM,
	       FT_SAF_RANKS_PACKET, 11);
	run_init(&a, &t, &p);
	run_init(&b, &t, &p);
	ft_rand_seed(&g, 1);
	add_pattern(&a, &g, PAT_KPERM);
	ft_rand_seed(&g, 1);
	add_pattern(&b, &g, PAT_KPERM);
	run_batch(&a, 10000);
	run_batch(&b, 10000);
	same = a.s.b.last == b.s.b.last && a.s.st.ghosts == b.s.st.ghosts &&
	       a.s.st.fdelays == b.s.st.fdelays &&
	       !memcmp(a.steps, b.steps, sizeof(a.steps));
	run_free(&b);
	p.seed = 12;
	run_init(&b, &t, &p);
	ft_rand_seed(&g, 1);
	add_pattern(&b, &g, PAT_KPERM);
	ft_saf_start(&b.s);
	for (k = 0; k < b.n; k++)
		differ += b.s.pkt[b.id[k]].route != a.s.pkt[a.id[k]].route;
	tap_ok(same, "same seed: same T, ghosts, f-delays and steps of every packet");
	tap_ok(differ > 0, "another seed: other paths (%d of %u differ)", differ,
	       b.n);
	run_free(&a);
	run_free(&b);
}

/* path(x) is a function of the destination; ranks by pair are too. */
static void test_hash(void)
{
	static struct run r;
	struct ft_saf_params p;
	struct ft_topo t;
	struct ft_rand g;
	u32 i, k, ok = 1, spread[16] = { 0 }, used = 0;

	make_topo(&t, &shapes[5]);	/* FT(3,4): W_h = 16 */
	params(&p, 2, FT_SAF_RANK, 1, 0, FT_SAF_PATH_HASH, FT_SAF_RANKS_PAIR, 4);
	run_init(&r, &t, &p);
	ft_rand_seed(&g, 2);
	add_pattern(&r, &g, PAT_KPERM);
	add_pattern(&r, &g, PAT_HOTSPOT);
	ft_saf_start(&r.s);
	for (i = 0; i < r.n; i++) {
		const struct ft_saf_pkt *a = &r.s.pkt[r.id[i]];

		ok &= a->route < t.wprod[t.h];
		spread[a->route % 16]++;
		for (k = 0; k < i; k++) {
			const struct ft_saf_pkt *b = &r.s.pkt[r.id[k]];

			if (a->dst == b->dst)
				ok &= a->route == b->route;
			if (a->dst == b->dst && a->src == b->src)
				ok &= a->key >> FT_SAF_KEY_RANK ==
				      b->key >> FT_SAF_KEY_RANK;
		}
	}
	for (i = 0; i < 16; i++)
		used += !!spread[i];
	tap_ok(ok && used >= 8,
	       "path(x): one label per destination, below W_h, %u of 16 top labels used; a pair's packets share a rank",
	       used);
	run_free(&r);
}

static void count_flushed(void *arg, const struct ft_saf_pkt *p, u32 steps)
{
	struct run *r = arg;

	if (steps || p->cookie >= r->n || r->got[p->cookie])
		r->bad_intact++;
	r->got[p->cookie] += 100;
}

/*
 * Without ghosts a node can wait for good: a stall is a fixpoint, and
 * ft_saf_flush() hands back exactly the packets not delivered.
 */
static void test_stall(void)
{
	static struct run r;
	struct ft_saf_step_result res;
	struct ft_saf_params p;
	struct ft_topo t;
	struct ft_rand g;
	u32 seed, stalls = 0, frozen = 1, k, back, flushed = 1;

	make_topo(&t, &shapes[5]);
	for (seed = 0; seed < 6; seed++) {
		params(&p, 2, FT_SAF_RANK, 0, 0, FT_SAF_PATH_HASH,
		       FT_SAF_RANKS_PACKET, seed);
		run_init(&r, &t, &p);
		ft_rand_seed(&g, seed);
		add_pattern(&r, &g, PAT_HOTSPOT);
		if (!run_batch(&r, 10000) && r.s.b.stalled) {
			u64 hops = r.s.st.hops;

			stalls++;
			for (k = 0; k < 5; k++) {
				ft_saf_step(&r.s, on_deliver, &r, &res);
				frozen &= res.stalled && r.s.st.hops == hops;
			}
			/* one more packet waits for the next batch */
			run_add(&r, 1, 2);
			back = ft_saf_flush(&r.s, count_flushed, &r);
			for (k = 0; k < r.n; k++)
				flushed &= r.got[k] == 1 || r.got[k] == 100;
			flushed &= back == r.n - r.s.b.delivered &&
				   !r.bad_intact && !r.s.running &&
				   !r.s.npend && r.s.nfree == r.s.p.max_pkts;
			/* and the engine runs again */
			r.n = 0;
			memset(r.got, 0, sizeof(r.got));
			memset(r.last_key, 0, sizeof(r.last_key));
			run_add(&r, 3, 60);
			flushed &= !run_batch(&r, 100) && r.got[0] == 1;
		}
		run_free(&r);
	}
	tap_ok(frozen && stalls > 0, "ghosts off: a stalled batch stays stalled (%u stalls in 6 hot-spot runs on FT(3,4), q 2)",
	       stalls);
	tap_ok(flushed, "ft_saf_flush() hands back every packet not delivered (in flight or queued) once, empties the engine, which runs again");
}

/*
 * The kernel's answer to a stall without ghosts: ghosts on for the rest
 * of the batch.  A stalled state is sorted and bounded like any other, so
 * Lemma 2.2 takes over and the batch completes, every packet once and
 * pairs in order (ranks per pair).
 */
static void test_rescue(void)
{
	static const u32 qs[] = { 1, 2, 3 };
	static struct run r;
	struct ft_saf_params p;
	struct ft_topo t;
	struct ft_rand g;
	u32 si, seed, qi, stalls = 0, rescued = 0, k, pat;
	char why[320] = "";

	for (si = 0; si < NSHAPES; si++) {
		make_topo(&t, &shapes[si]);
		for (qi = 0; qi < 3; qi++) {
			for (seed = 0; seed < 8; seed++) {
				pat = seed % 2 ? PAT_HOTSPOT : PAT_KPERM;
				params(&p, qs[qi], FT_SAF_RANK, 0, 0,
				       seed % FT_SAF_PATH_NR, FT_SAF_RANKS_PAIR,
				       seed);
				if (run_init(&r, &t, &p))
					continue;
				r.pair_check = t.n <= 64;
				ft_rand_seed(&g, seed);
				if (add_pattern(&r, &g, pat) ||
				    run_batch(&r, 20000)) {
					snprintf(why, sizeof(why), "%s q %u seed %u: %s",
						 shapes[si].name, qs[qi], seed, r.why);
					run_free(&r);
					continue;
				}
				if (r.s.b.stalled && !r.s.b.done) {
					stalls++;
					r.s.p.ghosts = 1;
					r.s.b.stalled = 0;
					if (run_batch(&r, 20000) || !r.s.b.done ||
					    r.s.b.stalled) {
						snprintf(why, sizeof(why), "%s q %u seed %u: rescue: %s",
							 shapes[si].name, qs[qi], seed,
							 r.why);
					} else {
						for (k = 0; k < r.n; k++)
							if (r.got[k] != 1)
								break;
						if (k == r.n && !r.bad_intact &&
						    !r.bad_order && !r.bad_pair)
							rescued++;
						else
							snprintf(why, sizeof(why), "%s q %u seed %u: packet %u got %u, pair %u",
								 shapes[si].name, qs[qi], seed,
								 k, k < r.n ? r.got[k] : 1,
								 r.bad_pair);
					}
				}
				run_free(&r);
			}
		}
	}
	if (why[0])
		tap_diag("%s", why);
	tap_ok(stalls > 0 && rescued == stalls,
	       "ghosts off: every stalled batch completes once ghosts are turned on (%u of %u)",
	       rescued, stalls);
}

/*
 * A random input for a batch: packets from anywhere to anywhere, or most
 * from a few sources (long initial queues, sorted in many pieces).
 */
static int add_random(struct run *r, struct ft_rand *g, u32 n)
{
	u32 nl = r->s.topo.n, few = ft_rand_below(g, 2), i, src;

	for (i = 0; i < n; i++) {
		src = few ? ft_rand_below(g, nl < 3 ? nl : 3) :
			    ft_rand_below(g, nl);
		if (run_add(r, src, ft_rand_below(g, nl)))
			return -1;
	}
	return 0;
}

/* The batch in flight of @a and of @b: the same packets, places, keys. */
static int same_batch(const struct ft_saf *a, const struct ft_saf *b)
{
	u32 k;

	if (a->b.packets != b->b.packets ||
	    memcmp(a->leaf_off, b->leaf_off, (a->topo.n + 1) * sizeof(u32)) ||
	    memcmp(a->batch, b->batch, a->b.packets * sizeof(u32)) ||
	    memcmp(&a->rand, &b->rand, sizeof(a->rand)))
		return 0;
	for (k = 0; k < a->b.packets; k++) {
		const struct ft_saf_pkt *x = &a->pkt[a->batch[k]];
		const struct ft_saf_pkt *y = &b->pkt[b->batch[k]];

		if (x->key != y->key || x->route != y->route ||
		    x->hh != y->hh || x->cookie != y->cookie ||
		    x->state != FT_SAF_PKT_BATCH || y->state != FT_SAF_PKT_BATCH)
			return 0;
	}
	return 1;
}

/*
 * A batch prepared in pieces of random budgets (ft_saf_prepare()) is the
 * batch ft_saf_start() makes in one go: same order, ranks, keys, routes
 * and draws, then the same run.  Packets added between the pieces wait
 * for the next batch, which delivers them: none is lost, none twice.
 */
static void test_prepare(void)
{
	static struct run a, b;
	struct ft_saf_params p;
	struct ft_topo t;
	struct ft_rand g, cut;
	u32 run, n, extra, pieces, k, most = 0;
	u32 same = 1, later = 1, all = 1, runs = 0, calls = 0;
	char why[600] = "";
	int rc;

	ft_rand_seed(&cut, 99);
	for (run = 0; run < 48; run++) {
		make_topo(&t, &shapes[run % NSHAPES]);
		params(&p, 1 + run % 3, run % FT_SAF_DISC_NR, 1, run % 2,
		       (run / 3) % FT_SAF_PATH_NR, (run / 2) % FT_SAF_RANKS_NR,
		       run);
		if (run_init(&a, &t, &p) || run_init(&b, &t, &p))
			continue;
		ft_rand_seed(&g, run);
		n = 1 + ft_rand_below(&g, 1200);
		add_random(&a, &g, n);
		ft_rand_seed(&g, run);
		ft_rand_below(&g, 1200);
		add_random(&b, &g, n);
		ft_saf_start(&a.s);
		/* b: in pieces, packets added between them */
		extra = 0;
		pieces = 0;
		do {
			rc = ft_saf_prepare(&b.s, 1 + ft_rand_below(&cut, 64));
			pieces++;
			if (rc == 0 && !ft_rand_below(&cut, 8) &&
			    !run_add(&b, ft_rand_below(&cut, t.n),
				     ft_rand_below(&cut, t.n)))
				extra++;
		} while (rc == 0);
		calls += pieces;
		if (pieces > most)
			most = pieces;
		rc = ft_saf_start(&b.s);
		runs++;
		if (rc || !same_batch(&a.s, &b.s)) {
			same = 0;
			snprintf(why, sizeof(why), "run %u: %u packets, %u pieces: another batch",
				 run, n, pieces);
		}
		if (b.s.npend != extra || b.s.b.packets != n)
			later = 0;
		if (run_batch(&a, 20000) || run_batch(&b, 20000) ||
		    memcmp(a.steps, b.steps, n * sizeof(u32)) ||
		    a.s.b.last != b.s.b.last) {
			same = 0;
			snprintf(why, sizeof(why), "run %u: %s%s", run, a.why,
				 b.why);
		}
		/* the packets added meanwhile: the next batch */
		if (extra && (run_batch(&b, 20000) || b.s.b.packets != extra))
			later = 0;
		for (k = 0; k < b.n; k++)
			all &= b.got[k] == 1;
		all &= !b.bad_intact && !b.s.npend && !b.s.running &&
		       b.s.nfree == p.max_pkts && b.s.st.delivered == b.n;
		run_free(&a);
		run_free(&b);
	}
	if (why[0])
		tap_diag("%s", why);
	tap_ok(same && runs == 48,
	       "a batch prepared in pieces (%u calls, up to %u for one batch) is the one-shot batch: order, keys, routes, draws, then every step (%u runs)",
	       calls, most, runs);
	tap_ok(later, "packets added during a preparation wait for the next batch");
	tap_ok(all, "... which delivers them: every packet once, the pool whole again");
}

/*
 * ft_saf_flush() during a preparation hands back every packet once, the
 * prepared and those queued after, and the engine runs again.
 */
static void test_prepare_flush(void)
{
	static struct run r;
	struct ft_saf_params p;
	struct ft_topo t;
	struct ft_rand g;
	u32 k, back, ok = 1, budget;

	make_topo(&t, &shapes[5]);
	for (budget = 1; budget < 5000; budget *= 7) {
		params(&p, 2, FT_SAF_RANK, 1, 0, FT_SAF_PATH_RANDOM,
		       FT_SAF_RANKS_PACKET, budget);
		run_init(&r, &t, &p);
		ft_rand_seed(&g, budget);
		add_random(&r, &g, 900);
		ok &= ft_saf_prepare(&r.s, budget) == 0;
		add_random(&r, &g, 100);
		back = ft_saf_flush(&r.s, count_flushed, &r);
		for (k = 0; k < r.n; k++)
			ok &= r.got[k] == 100;
		ok &= back == 1000 && !r.bad_intact && !r.s.running &&
		      !r.s.npend && r.s.nfree == p.max_pkts &&
		      r.s.prep.phase == FT_SAF_PREP_IDLE;
		r.n = 0;
		memset(r.got, 0, sizeof(r.got));
		add_random(&r, &g, 50);
		ok &= !run_batch(&r, 5000) && r.s.b.packets == 50;
		for (k = 0; k < r.n; k++)
			ok &= r.got[k] == 1;
		run_free(&r);
	}
	tap_ok(ok, "a flush during a preparation hands back every packet once, prepared or queued after; the engine runs again");
}

/*
 * Reserved entries: ft_saf_add() leaves them, ft_saf_add_reserved() takes
 * only them, a batch that ends meanwhile frees into the common part, and
 * the free stack stays a set of distinct entries.
 */
static void test_reserve(void)
{
	struct ft_saf_step_result res;
	struct ft_saf_params p;
	struct ft_saf s;
	u32 got = 0, i, ok = 1, plain = 0, taken = 0;
	u8 seen[40] = { 0 };
	void *mem;

	mem = small_engine(&s, &p, 2, 1);
	/* 10 in flight, then 30 reserved of the 30 left */
	for (i = 0; i < 10; i++)
		ok &= !ft_saf_add(&s, i, 15 - i, i, NULL);
	ft_saf_step(&s, count_steps, &got, &res);
	ok &= ft_saf_reserve(&s, 31) == -FT_ENOSPC && s.nfree == 30 && !s.nres;
	ok &= !ft_saf_reserve(&s, 30) && !s.nfree && s.nres == 30;
	ok &= ft_saf_add(&s, 1, 2, 99, NULL) == -FT_ENOSPC;
	/* the batch ends: its 10 entries are anyone's */
	while (s.running)
		ft_saf_step(&s, count_steps, &got, &res);
	ok &= s.nfree == 10 && s.nres == 30;
	while (!ft_saf_add(&s, 2, 3, 100 + plain, NULL))
		plain++;
	while (!ft_saf_add_reserved(&s, 3, 4, 200 + taken, NULL))
		taken++;
	ok &= plain == 10 && taken == 30 && !s.nfree && !s.nres &&
	      s.npend == 40;
	ok &= ft_saf_add_reserved(&s, 16, 0, 0, NULL) == -FT_EINVAL;
	while (s.running || s.npend)
		ft_saf_step(&s, count_steps, &got, &res);
	ok &= got == 50 && s.nfree == 40;
	/* reserve, use some, give the rest back */
	ok &= !ft_saf_reserve(&s, 25) && !ft_saf_add_reserved(&s, 0, 1, 0, NULL);
	ft_saf_unreserve(&s, 24);
	ok &= s.nfree == 39 && !s.nres && s.npend == 1;
	ft_saf_flush(&s, NULL, NULL);
	for (i = 0; i < s.nfree; i++)
		ok &= s.free[i] < 40 && !seen[s.free[i]]++;
	tap_ok(ok && s.nfree == 40,
	       "reserved entries: plain adds leave them, reserved adds take only them, batches free into the common part, the free stack stays whole");
	free(mem);
}

int main(void)
{
	test_params();
	test_counts();
	test_alone();
	test_sweep();
	test_large();
	test_batches();
	test_determinism();
	test_hash();
	test_stall();
	test_rescue();
	test_prepare();
	test_prepare_flush();
	test_reserve();
	return tap_done();
}
