// SPDX-License-Identifier: GPL-2.0
/*
 * One scheduling round as a function of the fabric's state (ft_round.h):
 * fattreed's rounds and ftsim's scheduled policy.
 */
#include <stdlib.h>
#include <string.h>

#include "ft_round.h"
#include "../../kmod/core/ft_load.h"

#define NONE	0xffffffffU

/* What a round does with a circuit in place. */
enum held_what {
	H_KEEP,
	H_RELEASE,
	H_SHRINK,
	H_GROW,
	H_MOVE,
	H_PINNED,	/* no lease, or not on this topology: never resized */
};

/* A pair in demand. */
struct rpair {
	u32 src;
	u32 dst;
	u32 backlog;
	u32 held;	/* its circuit's index in the input, or NONE */
	u64 age;
	u32 want;	/* lanes it wants */
	u32 lanes;	/* a new circuit's lanes (0: none) */
	u32 ask;	/* step 5: lanes asked in this pass */
	bool sel;
	u32 port[FT_MAX_LEVELS];	/* a new or moved circuit's ports */
};

struct ft_round {
	struct ft_topo t;
	struct ft_sched *s;
	u32 ndl;
	u32 nchan;
	u64 *load;	/* per directed link, or per channel: offered, FX units */
	u32 *cfree;	/* per channel: free lanes of its links */
	u64 *leaf;	/* per leaf: offered from it, then offered to it */
	u32 cap;	/* entries of the arrays below */
	struct rpair *pair;
	u32 *order;	/* selected pairs by weight */
	u32 *hidx;	/* held circuits by pair */
	u8 *hwhat;
	u32 *hlanes;	/* a replacement's lanes */
	u32 *hpair;	/* the pair in demand of a held circuit, or NONE */
	struct ft_sched_req *req;
	struct ft_sched_out *out;
	u32 *rmap;	/* request -> pair */
	u32 *del;
	struct ft_circuit_req *add;
};

void ft_round_held_of(struct ft_round_held *h, const struct ft_circuit *c, u64 now)
{
	*h = (struct ft_round_held){
		.src = c->src, .dst = c->dst, .lanes = c->lanes,
		.created = c->created, .expires = c->expires,
		.carried = c->carried, .idle = now - c->last_used,
	};
	memcpy(h->port, c->port, sizeof(h->port));
}

u32 ft_round_idle(const struct ft_round_opts *o)
{
	if (o->idle != FT_ROUND_IDLE_AUTO)
		return o->idle;
	return o->path == FT_PATH_CIRCUIT ? FT_ROUND_IDLE_CIRCUIT : FT_ROUND_IDLE_SCHEDULED;
}

void ft_round_opts_default(struct ft_round_opts *o, enum ft_sched_algo algo)
{
	memset(o, 0, sizeof(*o));
	ft_sched_opts_default(&o->sched, algo);
	o->sched.order = FT_SCHED_ORDER_GIVEN;
	o->path = FT_PATH_CIRCUIT;
	o->lease = 64;
	o->idle = FT_ROUND_IDLE_AUTO;
	o->colliding = true;
}

struct ft_round *ft_round_create(const struct ft_topo *t)
{
	struct ft_round *r = calloc(1, sizeof(*r));

	if (!r)
		return NULL;
	r->t = *t;
	r->s = ft_sched_create(t);
	r->ndl = ft_topo_dlinks(t);
	r->nchan = ft_topo_channels_total(t);
	r->load = calloc(r->ndl > r->nchan ? r->ndl : r->nchan, sizeof(u64));
	r->cfree = calloc(r->nchan ? r->nchan : 1, sizeof(u32));
	r->leaf = calloc(2 * (size_t)t->n, sizeof(u64));
	if (!r->s || !r->load || !r->cfree || !r->leaf) {
		ft_round_destroy(r);
		return NULL;
	}
	return r;
}

static void round_free_arrays(struct ft_round *r)
{
	free(r->pair);
	free(r->order);
	free(r->hidx);
	free(r->hwhat);
	free(r->hlanes);
	free(r->hpair);
	free(r->req);
	free(r->out);
	free(r->rmap);
	free(r->del);
	free(r->add);
}

void ft_round_destroy(struct ft_round *r)
{
	if (!r)
		return;
	ft_sched_destroy(r->s);
	free(r->load);
	free(r->cfree);
	free(r->leaf);
	round_free_arrays(r);
	free(r);
}

/* Room for @n pairs and circuits (demand plus held). */
static int round_grow(struct ft_round *r, u32 n)
{
	if (!n)
		n = 1;
	if (n <= r->cap)
		return 0;
	round_free_arrays(r);
	r->cap = 0;
	r->pair = malloc((size_t)n * sizeof(*r->pair));
	r->order = malloc((size_t)n * sizeof(u32));
	r->hidx = malloc((size_t)n * sizeof(u32));
	r->hwhat = malloc(n);
	r->hlanes = malloc((size_t)n * sizeof(u32));
	r->hpair = malloc((size_t)n * sizeof(u32));
	r->req = malloc((size_t)n * sizeof(*r->req));
	r->out = malloc((size_t)n * sizeof(*r->out));
	r->rmap = malloc((size_t)n * sizeof(u32));
	r->del = malloc((size_t)n * 2 * sizeof(u32));
	r->add = malloc((size_t)n * sizeof(*r->add));
	if (!r->pair || !r->order || !r->hidx || !r->hwhat || !r->hlanes ||
	    !r->hpair || !r->req || !r->out || !r->rmap || !r->del || !r->add)
		return -ENOMEM;
	r->cap = n;
	return 0;
}

/* qsort()'s comparators see no context: the held circuits being sorted. */
static _Thread_local const struct ft_round_held *sort_held;

static int cmp_pair(u32 as, u32 ad, u32 bs, u32 bd)
{
	if (as != bs)
		return as < bs ? -1 : 1;
	return ad < bd ? -1 : ad > bd;
}

static int by_held_pair(const void *a, const void *b)
{
	const struct ft_round_held *x = &sort_held[*(const u32 *)a];
	const struct ft_round_held *y = &sort_held[*(const u32 *)b];
	int c = cmp_pair(x->src, x->dst, y->src, y->dst);

	return c ? c : cmp_pair(*(const u32 *)a, 0, *(const u32 *)b, 0);
}

static int by_pair(const void *a, const void *b)
{
	const struct rpair *x = a, *y = b;

	return cmp_pair(x->src, x->dst, y->src, y->dst);
}

static _Thread_local const struct rpair *sort_pairs;

/* The heaviest backlog first, then the oldest, then by pair. */
static int by_weight(const void *a, const void *b)
{
	const struct rpair *x = &sort_pairs[*(const u32 *)a];
	const struct rpair *y = &sort_pairs[*(const u32 *)b];

	if (x->backlog != y->backlog)
		return x->backlog > y->backlog ? -1 : 1;
	if (x->age != y->age)
		return x->age > y->age ? -1 : 1;
	return cmp_pair(x->src, x->dst, y->src, y->dst);
}

/* The held circuit of (@src, @dst), or NONE. */
static u32 find_held(const struct ft_round *r, const struct ft_round_held *h,
		     u32 nheld, u32 src, u32 dst)
{
	u32 lo = 0, hi = nheld, mid;
	int c;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		c = cmp_pair(h[r->hidx[mid]].src, h[r->hidx[mid]].dst, src, dst);
		if (!c)
			return r->hidx[mid];
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NONE;
}

static void held_ports(const struct ft_round_held *h, u32 *port)
{
	u32 i;

	for (i = 0; i < FT_MAX_LEVELS; i++)
		port[i] = h->port[i];
}

/* A circuit in place that this topology can take: its ports in range. */
static bool held_fits(const struct ft_topo *t, const struct ft_round_held *h)
{
	u32 i, hh;

	if (h->src >= t->n || h->dst >= t->n || h->src == h->dst || !h->lanes)
		return false;
	hh = ft_topo_common_level(t, h->src, h->dst);
	for (i = 1; i <= hh; i++)
		if (h->port[i - 1] >= t->w[i])
			return false;
	return true;
}

/* The most lanes a circuit of (@src, @dst) can hold: its links' lanes. */
static u32 path_lanes(const struct ft_topo *t, u32 src, u32 dst)
{
	u32 i, hh = ft_topo_common_level(t, src, dst), l = FT_MAX_LANES;

	for (i = 1; i <= hh; i++)
		l = ft_min_u32(l, t->lanes[i]);
	return l;
}

/* Level of the k-th link of a path of @hh levels (up 1..H, down H..1). */
static inline u32 path_level(u32 k, u32 hh)
{
	return k < hh ? k + 1 : 2 * hh - k;
}

/* Channel of directed link @id (ft_load.h's numbering). */
static u32 link_channel(const struct ft_topo *t, u32 id)
{
	u32 lvl, local, dir;

	ft_topo_dlink_decode(t, id, &lvl, &local, &dir);
	return ft_load_channel(t, lvl - 1, local / t->w[lvl] / t->wprod[lvl - 1],
			       dir);
}

/*
 * The links (d-mod-k) or channels (otherwise) of @p's default path at
 * the levels a scheduler could change, into @id with the lanes of one of
 * their links (@cap); returns how many.
 */
static u32 default_units(const struct ft_topo *t, const struct rpair *p,
			 bool dmodk, u32 *id, u32 *cap)
{
	u32 hh = ft_topo_common_level(t, p->src, p->dst), i, k, lvl, n = 0;
	u32 port[FT_MAX_LEVELS] = { 0 };
	struct ft_path path;

	if (dmodk) {
		for (i = 1; i <= hh; i++)
			port[i - 1] = ft_topo_dmodk_port(t, p->dst, i);
		if (ft_topo_path(t, p->src, p->dst, port, &path))
			return 0;
		for (k = 0; k < path.n; k++) {
			lvl = path_level(k, hh);
			if (t->wprod[lvl] > 1) {
				id[n] = path.link[k];
				cap[n++] = t->lanes[lvl];
			}
		}
		return n;
	}
	for (i = 0; i < hh; i++) {
		if (t->wprod[i + 1] <= 1)
			continue;
		id[n] = ft_load_channel(t, i, p->src / t->mprod[i], FT_UP);
		cap[n++] = t->lanes[i + 1];
		id[n] = ft_load_channel(t, i, p->dst / t->mprod[i], FT_DOWN);
		cap[n++] = t->lanes[i + 1];
	}
	return n;
}

/* What pair @p offers its default path: its backlog beyond its circuit. */
static u32 excess(const struct rpair *p, const struct ft_round_held *held)
{
	u32 l = p->held == NONE ? 0 : held[p->held].lanes;

	return p->backlog > l ? p->backlog - l : 0;
}

/* Fixed point of the collision test: lanes in 1/FX. */
#define FX	1024ULL

/* The free lanes of @leaf's own links (level 1) in direction @dir. */
static u64 leaf_free(const struct ft_topo *t, const u32 *fr, u32 leaf, u32 dir)
{
	u64 f = 0;
	u32 p;

	for (p = 0; p < t->w[1]; p++)
		f += fr[ft_topo_link(t, 1, leaf, p, dir)];
	return f;
}

/*
 * What pair @p can offer a cycle, FX units: its excess, shared with the
 * other pairs of its source and of its destination by their leaves' own
 * links (r->leaf: what every leaf's pairs offer from it, then to it). A
 * hot spot's pairs offer the hot leaf's link between them, not each its
 * lanes: the links above it carry no more than it takes.
 */
static u64 offer(const struct ft_round *r, const u32 *fr, const struct rpair *p,
		 const struct ft_round_held *held)
{
	const struct ft_topo *t = &r->t;
	u64 f = ft_min_u64(excess(p, held), (u64)t->lanes[1] * t->w[1]) * FX;
	u64 out = r->leaf[p->src], in = r->leaf[t->n + p->dst];
	u64 cs = leaf_free(t, fr, p->src, FT_UP) * FX, cd = leaf_free(t, fr, p->dst, FT_DOWN) * FX;

	if (out > cs)
		f = f * cs / out;
	if (in > cd)
		f = f * cd / in;
	return f;
}

/*
 * Step 3's collision test, into each pair's @sel (true: it collides);
 * returns how many do.  See ft_round.h.
 */
static u32 mark_colliding(struct ft_round *r, const struct ft_round_opts *o,
			  const struct ft_round_held *held, u32 np)
{
	const struct ft_topo *t = &r->t;
	const u32 *fr = ft_sched_free_lanes(r->s);
	bool dmodk = ft_path_default(o->path) == FT_PATH_DMODK;
	u32 id[FT_PATH_MAX], cap[FT_PATH_MAX], j, k, n, ncoll = 0;
	const u32 *room = dmodk ? fr : r->cfree;
	u64 e, *f = r->leaf;

	memset(r->load, 0, (size_t)(dmodk ? r->ndl : r->nchan) * sizeof(u64));
	if (!dmodk) {
		memset(r->cfree, 0, (size_t)r->nchan * sizeof(u32));
		for (k = 0; k < r->ndl; k++)
			r->cfree[link_channel(t, k)] += fr[k];
	}
	memset(f, 0, 2 * (size_t)t->n * sizeof(u64));
	for (j = 0; j < np; j++) {
		e = ft_min_u64(excess(&r->pair[j], held), (u64)t->lanes[1] * t->w[1]) * FX;
		f[r->pair[j].src] += e;
		f[t->n + r->pair[j].dst] += e;
	}
	for (j = 0; j < np; j++) {
		e = offer(r, fr, &r->pair[j], held);
		n = default_units(t, &r->pair[j], dmodk, id, cap);
		for (k = 0; k < n; k++)
			r->load[id[k]] += dmodk ? ft_min_u64(e, cap[k] * FX) : e;
	}
	/*
	 * d-mod-k: a link offered more than it has free. Random: a channel
	 * offered more than one of its links' lanes (random ports can put
	 * that on one link) or than its links have free.
	 */
	for (j = 0; j < np; j++) {
		r->pair[j].sel = false;
		n = default_units(t, &r->pair[j], dmodk, id, cap);
		for (k = 0; k < n && !r->pair[j].sel; k++)
			r->pair[j].sel = r->load[id[k]] > room[id[k]] * FX ||
					 (!dmodk && r->load[id[k]] > cap[k] * FX);
		ncoll += r->pair[j].sel;
	}
	return ncoll;
}

/* The demand, each pair between two leaves once, into r->pair. */
static u32 read_demand(struct ft_round *r, const struct ft_round_in *in)
{
	struct rpair *p = r->pair;
	u32 j, k, np = 0;

	for (j = 0; j < in->ndemand; j++) {
		const struct ft_pairs_demand *d = &in->demand[j];

		if (d->src >= r->t.n || d->dst >= r->t.n || d->src == d->dst ||
		    !d->backlog)
			continue;
		memset(&p[np], 0, sizeof(p[np]));
		p[np].src = d->src;
		p[np].dst = d->dst;
		p[np].backlog = d->backlog;
		p[np].age = d->age;
		np++;
	}
	qsort(p, np, sizeof(*p), by_pair);
	for (j = 0, k = 0; j < np; j++) {	/* listed twice: the larger */
		if (k && !cmp_pair(p[k - 1].src, p[k - 1].dst, p[j].src, p[j].dst)) {
			p[k - 1].backlog = ft_max_u32(p[k - 1].backlog, p[j].backlog);
			p[k - 1].age = ft_max_u64(p[k - 1].age, p[j].age);
			continue;
		}
		p[k++] = p[j];
	}
	return k;
}

/*
 * Steps 1 and 2: release the idle circuits, shrink those whose pairs are
 * not in demand and carried at most half their lanes' worth.
 */
static void release_and_shrink(struct ft_round *r, const struct ft_round_opts *o,
			       const struct ft_round_in *in,
			       struct ft_round_stats *st)
{
	u32 j, port[FT_MAX_LEVELS], idle = ft_round_idle(o);
	const struct ft_round_held *h;
	u64 age, need;

	for (j = 0; j < in->nheld; j++) {
		h = &in->held[j];
		if (r->hwhat[j] == H_PINNED && !held_fits(&r->t, h))
			continue;
		held_ports(h, port);
		if (idle && h->idle >= idle) {
			r->hwhat[j] = H_RELEASE;
			ft_sched_give(r->s, h->src, h->dst, port, h->lanes);
			st->released++;
			continue;
		}
		if (r->hwhat[j] != H_KEEP || r->hpair[j] != NONE ||
		    in->now < h->created + FT_ROUND_SHRINK_AGE)
			continue;
		age = in->now - h->created;
		need = h->carried / age + (h->carried % age != 0);
		need = need ? need : 1;
		if (2 * need > h->lanes)
			continue;
		ft_sched_give(r->s, h->src, h->dst, port, h->lanes - (u32)need);
		r->hwhat[j] = H_SHRINK;
		r->hlanes[j] = (u32)need;
		st->shrunk++;
	}
}

/* Step 5: new circuits, by weight, asked for their lanes, then half. */
static int new_circuits(struct ft_round *r, const struct ft_round_opts *o,
			u32 nsel, struct ft_round_stats *st)
{
	u32 j, k, n = 0, limit = o->max_requests ? o->max_requests : NONE;
	struct rpair *p;
	int err;

	for (j = 0; j < nsel && st->requests < limit; j++) {
		p = &r->pair[r->order[j]];
		if (p->held != NONE)
			continue;
		p->ask = p->want;
		r->rmap[n++] = r->order[j];
		st->requests++;
		st->lanes_wanted += p->want;
	}
	while (n) {
		for (j = 0; j < n; j++) {
			p = &r->pair[r->rmap[j]];
			r->req[j] = (struct ft_sched_req){ p->src, p->dst, p->ask };
		}
		err = ft_sched_run(r->s, &o->sched, r->req, n, r->out,
				   st->passes ? NULL : &st->sched);
		if (err)
			return err;
		st->passes++;
		for (j = 0, k = 0; j < n; j++) {
			p = &r->pair[r->rmap[j]];
			if (r->out[j].status == FT_SCHED_GRANTED) {
				p->lanes = p->ask;
				ft_sched_ports(&r->out[j], p->port);
				st->granted++;
				continue;
			}
			if (r->out[j].status != FT_SCHED_REFUSED || p->ask == 1)
				continue;
			p->ask /= 2;
			r->rmap[k++] = r->rmap[j];
		}
		n = k;
	}
	return 0;
}

/* Steps 6 and 7: more lanes for the circuits of pairs that want more. */
static int grow_held(struct ft_round *r, const struct ft_round_opts *o,
		     const struct ft_round_in *in, u32 nsel,
		     struct ft_round_stats *st)
{
	struct ft_sched_opts so = o->sched;
	const struct ft_round_held *h;
	struct ft_sched_req rq;
	struct ft_sched_out ro;
	u32 j, x, ask, port[FT_MAX_LEVELS];
	struct rpair *p;
	int err;

	so.release_on_failure = true;	/* a refusal keeps nothing */
	for (j = 0; j < nsel; j++) {
		p = &r->pair[r->order[j]];
		if (p->held == NONE || r->hwhat[p->held] != H_KEEP)
			continue;
		h = &in->held[p->held];
		if (p->want <= h->lanes)
			continue;
		held_ports(h, port);
		x = ft_min_u32(p->want - h->lanes,
			       ft_sched_path_free(r->s, h->src, h->dst, port));
		if (x && !ft_sched_take(r->s, h->src, h->dst, port, x)) {
			r->hwhat[p->held] = H_GROW;
			r->hlanes[p->held] = h->lanes + x;
			st->grown++;
		}
		if (p->want < 2 * r->hlanes[p->held])
			continue;
		/* Move: its lanes back, a path with more, or its own again. */
		ft_sched_give(r->s, h->src, h->dst, port, r->hlanes[p->held]);
		for (ask = p->want; ask >= 2 * r->hlanes[p->held]; ask /= 2) {
			rq = (struct ft_sched_req){ p->src, p->dst, ask };
			err = ft_sched_run(r->s, &so, &rq, 1, &ro, NULL);
			if (err)
				return err;
			if (ro.status == FT_SCHED_GRANTED)
				break;
		}
		if (ask >= 2 * r->hlanes[p->held]) {
			st->grown -= r->hwhat[p->held] == H_GROW;
			r->hwhat[p->held] = H_MOVE;
			r->hlanes[p->held] = ask;
			ft_sched_ports(&ro, p->port);
			st->moved++;
		} else if (ft_sched_take(r->s, h->src, h->dst, port,
					 r->hlanes[p->held])) {
			return -EINVAL;	/* cannot happen: nothing was kept */
		}
	}
	return 0;
}

/* Step 8: each new circuit takes what its path still has, up to its want. */
static void top_up(struct ft_round *r, u32 nsel, struct ft_round_stats *st)
{
	u32 j, x;
	struct rpair *p;

	for (j = 0; j < nsel; j++) {
		p = &r->pair[r->order[j]];
		if (!p->lanes || p->lanes >= p->want)
			continue;
		x = ft_min_u32(p->want - p->lanes,
			       ft_sched_path_free(r->s, p->src, p->dst, p->port));
		if (x && !ft_sched_take(r->s, p->src, p->dst, p->port, x))
			p->lanes += x;
	}
	for (j = 0; j < nsel; j++)
		st->lanes_granted += r->pair[r->order[j]].lanes;
}

static struct ft_circuit_req *emit_add(struct ft_round *r, u32 *nadd, u32 src,
				       u32 dst, u32 lanes, u32 lease)
{
	struct ft_circuit_req *c = &r->add[(*nadd)++];

	memset(c, 0, sizeof(*c));
	c->src = src;
	c->dst = dst;
	c->lanes = lanes;
	c->lease = lease;
	return c;
}

/* The deletions and the batch, from what each circuit and pair became. */
static void emit(struct ft_round *r, const struct ft_round_opts *o,
		 const struct ft_round_in *in, u32 nsel, struct ft_round_out *out)
{
	const struct ft_round_held *h;
	struct ft_circuit_req *c;
	u32 j, i, nd = 0, na = 0;
	const struct rpair *p;

	for (j = 0; j < in->nheld; j++) {
		h = &in->held[j];
		if (r->hwhat[j] == H_KEEP || r->hwhat[j] == H_PINNED)
			continue;
		r->del[2 * nd] = h->src;
		r->del[2 * nd++ + 1] = h->dst;
		if (r->hwhat[j] == H_RELEASE)
			continue;
		c = emit_add(r, &na, h->src, h->dst, r->hlanes[j], o->lease);
		for (i = 0; i < FT_MAX_LEVELS; i++)
			c->port[i] = r->hwhat[j] == H_MOVE ?
				     (u8)r->pair[r->hpair[j]].port[i] : h->port[i];
	}
	for (j = 0; j < nsel; j++) {
		p = &r->pair[r->order[j]];
		if (!p->lanes)
			continue;
		c = emit_add(r, &na, p->src, p->dst, p->lanes, o->lease);
		for (i = 0; i < FT_MAX_LEVELS; i++)
			c->port[i] = (u8)p->port[i];
	}
	out->del = r->del;
	out->ndel = nd;
	out->add = r->add;
	out->nadd = na;
	out->st.held = in->nheld - out->st.released + out->st.granted;
}

int ft_round_run(struct ft_round *r, const struct ft_round_opts *o,
		 const struct ft_round_in *in, struct ft_round_out *out)
{
	struct ft_round_stats *st = &out->st;
	u32 j, np, nsel = 0, lmax;
	struct rpair *p;
	bool filter;
	int err;

	memset(out, 0, sizeof(*out));
	if (!r || !o || !in || !in->free || !o->lease ||
	    (in->ndemand && !in->demand) || (in->nheld && !in->held) ||
	    (unsigned int)o->sched.algo >= FT_SCHED_NALGOS ||
	    (unsigned int)o->sched.order >= FT_SCHED_NORDERS ||
	    (unsigned int)o->path >= FT_PATH_NR)
		return -EINVAL;
	if ((u64)in->ndemand + in->nheld >= NONE)
		return -EINVAL;
	err = round_grow(r, in->ndemand + in->nheld);
	if (err)
		return err;
	err = ft_sched_set_free(r->s, in->free);
	if (err)
		return err;
	st->demand = in->ndemand;

	/* Circuits in place by pair; the pairs in demand; each to the other. */
	for (j = 0; j < in->nheld; j++) {
		r->hidx[j] = j;
		r->hpair[j] = NONE;
		r->hlanes[j] = in->held[j].lanes;
		r->hwhat[j] = !held_fits(&r->t, &in->held[j]) ||
			      !in->held[j].expires ? H_PINNED : H_KEEP;
	}
	sort_held = in->held;
	qsort(r->hidx, in->nheld, sizeof(u32), by_held_pair);
	np = read_demand(r, in);
	st->pairs = np;
	for (j = 0; j < np; j++) {
		p = &r->pair[j];
		p->held = find_held(r, in->held, in->nheld, p->src, p->dst);
		if (p->held != NONE)
			r->hpair[p->held] = j;
	}
	release_and_shrink(r, o, in, st);

	/* Step 3: which pairs, by weight. */
	filter = o->path != FT_PATH_CIRCUIT;
	if (filter && o->colliding)
		st->colliding = mark_colliding(r, o, in->held, np);
	for (j = 0; j < np; j++) {
		p = &r->pair[j];
		if (p->held != NONE && r->hwhat[p->held] != H_KEEP)
			continue;	/* released idle, no lease, or unknown */
		if (filter && (p->backlog <= o->threshold ||
			       (o->colliding && !p->sel)))
			continue;
		lmax = path_lanes(&r->t, p->src, p->dst);
		if (o->max_lanes)
			lmax = ft_min_u32(lmax, o->max_lanes);
		p->want = ft_min_u32(p->backlog, lmax);
		p->lanes = 0;
		r->order[nsel++] = j;
	}
	st->selected = nsel;
	sort_pairs = r->pair;
	qsort(r->order, nsel, sizeof(u32), by_weight);

	err = new_circuits(r, o, nsel, st);
	if (!err)
		err = grow_held(r, o, in, nsel, st);
	if (err)
		return err;
	top_up(r, nsel, st);
	emit(r, o, in, nsel, out);
	return 0;
}
