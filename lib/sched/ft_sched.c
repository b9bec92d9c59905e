// SPDX-License-Identifier: GPL-2.0
/*
 * The scheduler object: free lanes and their bit vectors, request order,
 * and the dispatch of one round.
 */
#include "ft_sched_int.h"

const char *const ft_sched_algo_names[FT_SCHED_NALGOS] = {
	[FT_SCHED_LEVELWISE] = "levelwise",
	[FT_SCHED_LOCAL_GREEDY] = "local-greedy",
	[FT_SCHED_LOCAL_RANDOM] = "local-random",
	[FT_SCHED_RANDOM] = "random",
	[FT_SCHED_OPTIMAL] = "optimal",
};

const char *const ft_sched_order_names[FT_SCHED_NORDERS] = {
	[FT_SCHED_ORDER_SOURCE] = "source",
	[FT_SCHED_ORDER_RANDOM] = "random",
	[FT_SCHED_ORDER_FARTHEST] = "farthest",
	[FT_SCHED_ORDER_GIVEN] = "given",
};

/* @name's index in @names[0..n-1], or -1. */
static int name_index(const char *name, const char *const *names, int n)
{
	int i;

	for (i = 0; name && i < n; i++)
		if (!strcmp(name, names[i]))
			return i;
	return -1;
}

const char *ft_sched_algo_name(enum ft_sched_algo a)
{
	return (unsigned int)a < FT_SCHED_NALGOS ? ft_sched_algo_names[a] : "?";
}

int ft_sched_algo_parse(const char *name)
{
	return name_index(name, ft_sched_algo_names, FT_SCHED_NALGOS);
}

const char *ft_sched_order_name(enum ft_sched_order o)
{
	return (unsigned int)o < FT_SCHED_NORDERS ? ft_sched_order_names[o] : "?";
}

int ft_sched_order_parse(const char *name)
{
	return name_index(name, ft_sched_order_names, FT_SCHED_NORDERS);
}

void ft_sched_opts_default(struct ft_sched_opts *o, enum ft_sched_algo algo)
{
	memset(o, 0, sizeof(*o));
	o->algo = algo;
	o->order = FT_SCHED_ORDER_SOURCE;
	o->seed = 1;
	o->rearrange = FT_SCHED_REARRANGE_DEFAULT;
}

struct ft_sched *ft_sched_create(const struct ft_topo *t)
{
	struct ft_sched *s;
	u32 i, d;

	if (!t || t->h < 1 || t->h > FT_MAX_LEVELS || !t->n ||
	    t->n > FT_MAX_LEAVES)
		return NULL;
	s = calloc(1, sizeof(*s));
	if (!s)
		return NULL;
	s->t = *t;
	s->ndl = ft_topo_dlinks(t);
	s->free = calloc(s->ndl, sizeof(*s->free));
	s->cnt = calloc((size_t)t->n + 1, sizeof(*s->cnt));
	if (!s->free || !s->cnt)
		goto fail;
	for (i = 0; i <= t->h; i++)
		sched_div_init(&s->divm[i], t->mprod[i]);
	s->pow2 = true;
	for (i = 1; i <= t->h; i++)
		s->pow2 &= !(t->m[i] & (t->m[i] - 1)) &&
			   !(t->w[i] & (t->w[i] - 1));
	/* H = the first level i with lg M_i >= the bit length of src ^ dst. */
	for (d = 0, i = 0; s->pow2 && d < 33; d++) {
		while (i < t->h && d > (u32)__builtin_ctz(t->mprod[i]))
			i++;
		s->hlev[d] = (u8)i;
	}
	s->words = true;
	for (i = 1; i <= t->h; i++) {
		s->nw[i] = (t->w[i] + 63) / 64;
		s->vb[i] = 1;
		while (s->vb[i] < t->w[i])
			s->vb[i] <<= 1;
		/* A word per node where it costs little: no shift or mask. */
		if (s->nw[i] > 1 || (t->w[i] > 1 && (t->w[i] > 8 ||
						     t->nodes[i - 1] <= 4096)))
			s->vb[i] = 64 * s->nw[i];
		s->words &= s->vb[i] == 64 * s->nw[i] ||
			    (i == 1 && t->w[1] == 1);
		s->wide |= s->nw[i] > 1;
		for (d = 0; d < 2; d++) {
			s->vec[i][d] = calloc(sched_vec_words(s, i),
					      sizeof(u64));
			if (!s->vec[i][d])
				goto fail;
		}
	}
	ft_sched_reset(s);
	return s;
fail:
	ft_sched_destroy(s);
	return NULL;
}

void ft_sched_destroy(struct ft_sched *s)
{
	u32 i;

	if (!s)
		return;
	for (i = 1; i <= FT_MAX_LEVELS; i++) {
		free(s->vec[i][0]);
		free(s->vec[i][1]);
	}
	free(s->free);
	free(s->cnt);
	free(s->order);
	free(s->tmp);
	free(s->y);
	free(s->scratch);
	free(s);
}

const struct ft_topo *ft_sched_topo(const struct ft_sched *s)
{
	return &s->t;
}

/* Write the counters of bit-mode level @i from its bits. */
static void sched_sync_level(struct ft_sched *s, u32 i)
{
	u32 u, p, d, base;

	for (u = 0; u < s->t.nodes[i - 1]; u++)
		for (p = 0; p < s->t.w[i]; p++) {
			base = (s->t.link_base[i] + u * s->t.w[i] + p) << 1;
			for (d = 0; d < 2; d++)
				s->free[base | d] = sched_bit(s, i, d, u, p);
		}
	s->dirty[i] = false;
}

void sched_sync(struct ft_sched *s)
{
	u32 i;

	for (i = 1; i <= s->t.h; i++)
		if (s->bitmode[i] && s->dirty[i])
			sched_sync_level(s, i);
}

void sched_to_counters(struct ft_sched *s, u32 i)
{
	if (s->bitmode[i] && s->dirty[i])
		sched_sync_level(s, i);
	s->bitmode[i] = false;
}

void sched_counters(struct ft_sched *s)
{
	u32 i;

	for (i = 1; i <= s->t.h; i++)
		sched_to_counters(s, i);
}

const u32 *ft_sched_free_lanes(struct ft_sched *s)
{
	sched_sync(s);
	return s->free;
}

/* Rebuild every bit vector from the counters; choose each level's mode. */
static void sched_rebuild(struct ft_sched *s)
{
	const struct ft_topo *t = &s->t;
	u32 i, d, u, p, w, k, max;

	for (i = 1; i <= t->h; i++) {
		w = t->w[i];
		max = 0;
		for (k = 2 * t->link_base[i]; k < 2 * t->link_base[i + 1]; k++)
			max = ft_max_u32(max, s->free[k]);
		s->bitmode[i] = false;
		s->dirty[i] = false;
		for (d = 0; d < 2; d++) {
			memset(s->vec[i][d], 0,
			       sched_vec_words(s, i) * sizeof(u64));
			for (u = 0; u < t->nodes[i - 1]; u++)
				for (p = 0; p < w; p++)
					if (sched_free(s, i, u, p, d))
						sched_bit_set(s, i, d, u, p);
		}
		s->bitmode[i] = max <= 1;
	}
}

/*
 * Every link free: the vectors are a repeated pattern; a level of one
 * lane goes to bit mode with its counters written back lazily.
 */
u64 sched_full_pattern(const struct ft_sched *s, u32 i)
{
	u64 pat = 0;
	u32 b;

	for (b = 0; b < 64; b += s->vb[i])
		pat |= (s->t.w[i] >= 64 ? ~0ULL : (1ULL << s->t.w[i]) - 1) << b;
	return pat;
}

u64 sched_full_word(const struct ft_sched *s, u32 i, size_t j, u64 pat)
{
	u32 b;

	if (s->nw[i] == 1)
		return pat;
	b = (u32)(j % s->nw[i]) * 64;
	return s->t.w[i] - b >= 64 ? ~0ULL : (1ULL << (s->t.w[i] - b)) - 1;
}

void ft_sched_reset(struct ft_sched *s)
{
	const struct ft_topo *t = &s->t;
	u32 i, k, d;
	size_t words, j;
	u64 pat;

	for (i = 1; i <= t->h; i++) {
		s->bitmode[i] = t->lanes[i] <= 1;
		s->dirty[i] = s->bitmode[i];
		if (!s->bitmode[i])
			for (k = 2 * t->link_base[i];
			     k < 2 * t->link_base[i + 1]; k++)
				s->free[k] = t->lanes[i];
		words = sched_vec_words(s, i);
		pat = sched_full_pattern(s, i);
		for (d = 0; d < 2; d++)
			for (j = 0; j < words; j++)
				s->vec[i][d][j] = sched_full_word(s, i, j, pat);
	}
}

int ft_sched_set_free(struct ft_sched *s, const u32 *free_lanes)
{
	if (!free_lanes)
		return -EINVAL;
	memcpy(s->free, free_lanes, (size_t)s->ndl * sizeof(u32));
	sched_rebuild(s);
	return 0;
}

int ft_sched_set_lanes(struct ft_sched *s, const struct ft_lanes *l)
{
	u32 k;

	if (!l || l->n != s->ndl)
		return -EINVAL;
	for (k = 0; k < s->ndl; k++)
		s->free[k] = ft_lanes_free(l, k);
	sched_rebuild(s);
	return 0;
}

u32 sched_common_level_div(const struct ft_sched *s, u32 src, u32 dst)
{
	u32 i = 0;

	while (sched_div(&s->divm[i], src) != sched_div(&s->divm[i], dst))
		i++;
	return i;
}

/* Check a caller's path and narrow its ports into @p16. */
static int sched_check_path(const struct ft_sched *s, u32 src, u32 dst,
			    const u32 *port, u32 lanes, u32 *hh, u16 *p16)
{
	u32 i;

	if (!port || src >= s->t.n || dst >= s->t.n || !lanes)
		return -EINVAL;
	*hh = sched_common_level(s, src, dst);
	for (i = 1; i <= *hh; i++) {
		if (port[i - 1] >= s->t.w[i])
			return -EINVAL;
		p16[i - 1] = (u16)port[i - 1];
	}
	return 0;
}

bool sched_take_fitting(struct ft_sched *s, u32 src, u32 dst, u32 hh,
			const u16 *port, u32 lanes)
{
	u32 i, y = 0, us[FT_MAX_LEVELS + 1], ds[FT_MAX_LEVELS + 1];

	for (i = 1; i <= hh; i++) {	/* each node once: check, then take */
		us[i] = sched_node(s, i, src, y);
		ds[i] = sched_node(s, i, dst, y);
		if (sched_free(s, i, us[i], port[i - 1], FT_UP) < lanes ||
		    sched_free(s, i, ds[i], port[i - 1], FT_DOWN) < lanes)
			return false;
		y = y * s->t.w[i] + port[i - 1];
	}
	for (i = 1; i <= hh; i++) {
		sched_take(s, i, us[i], port[i - 1], FT_UP, lanes);
		sched_take(s, i, ds[i], port[i - 1], FT_DOWN, lanes);
	}
	return true;
}

/*
 * Levels 1..@upto of the path through up-ports @port from @src to @dst,
 * both directions: its lanes taken, or given back.
 */
static inline void sched_path_lanes(struct ft_sched *s, u32 src, u32 dst,
				    const u16 *port, u32 upto, u32 lanes,
				    bool take)
{
	u32 i, y = 0, us, ds;

	for (i = 1; i <= upto; i++) {
		us = sched_node(s, i, src, y);
		ds = sched_node(s, i, dst, y);
		if (take) {
			sched_take(s, i, us, port[i - 1], FT_UP, lanes);
			sched_take(s, i, ds, port[i - 1], FT_DOWN, lanes);
		} else {
			sched_give(s, i, us, port[i - 1], FT_UP, lanes);
			sched_give(s, i, ds, port[i - 1], FT_DOWN, lanes);
		}
		y = y * s->t.w[i] + port[i - 1];
	}
}

void sched_take_path(struct ft_sched *s, u32 src, u32 dst, u32 hh,
		     const u16 *port, u32 lanes)
{
	sched_path_lanes(s, src, dst, port, hh, lanes, true);
}

void sched_give_levels(struct ft_sched *s, u32 src, u32 dst,
		       const u16 *port, u32 upto, u32 lanes)
{
	sched_path_lanes(s, src, dst, port, upto, lanes, false);
}

int ft_sched_take(struct ft_sched *s, u32 src, u32 dst, const u32 *port,
		  u32 lanes)
{
	u16 p16[FT_MAX_LEVELS];
	u32 hh;
	int err = sched_check_path(s, src, dst, port, lanes, &hh, p16);

	if (err)
		return err;
	return sched_take_fitting(s, src, dst, hh, p16, lanes) ? 0 : -ENOSPC;
}

int ft_sched_give(struct ft_sched *s, u32 src, u32 dst, const u32 *port,
		  u32 lanes)
{
	u16 p16[FT_MAX_LEVELS];
	u32 hh, i, y = 0;
	int err = sched_check_path(s, src, dst, port, lanes, &hh, p16);

	if (err)
		return err;
	if (lanes > FT_MAX_LANES)
		return -ERANGE;
	for (i = 1; i <= hh; i++) {
		if (sched_free(s, i, sched_node(s, i, src, y), port[i - 1],
			       FT_UP) > FT_MAX_LANES - lanes ||
		    sched_free(s, i, sched_node(s, i, dst, y), port[i - 1],
			       FT_DOWN) > FT_MAX_LANES - lanes)
			return -ERANGE;
		y = y * s->t.w[i] + port[i - 1];
	}
	sched_give_levels(s, src, dst, p16, hh, lanes);
	return 0;
}

u32 ft_sched_path_free(const struct ft_sched *s, u32 src, u32 dst,
		       const u32 *port)
{
	u16 p16[FT_MAX_LEVELS];
	u32 hh, i, y = 0, f = FT_MAX_LANES;

	if (sched_check_path(s, src, dst, port, 1, &hh, p16))
		return 0;
	for (i = 1; i <= hh; i++) {
		f = ft_min_u32(f, sched_free(s, i, sched_node(s, i, src, y),
					     p16[i - 1], FT_UP));
		f = ft_min_u32(f, sched_free(s, i, sched_node(s, i, dst, y),
					     p16[i - 1], FT_DOWN));
		y = y * s->t.w[i] + p16[i - 1];
	}
	return f;
}

void sched_avail(const struct ft_sched *s, u32 i, u32 dir, u32 node,
		 u32 lanes, u64 *v)
{
	u32 nw = s->nw[i], p, w = s->t.w[i];
	const u32 *f;

	if (lanes == 1) {
		if (nw == 1)
			v[0] = sched_word(s, i, dir, node);
		else
			memcpy(v, s->vec[i][dir] + (size_t)node * nw,
			       nw * sizeof(u64));
		return;
	}
	memset(v, 0, nw * sizeof(u64));
	if (s->bitmode[i])	/* no link has two lanes */
		return;
	f = s->free + ((s->t.link_base[i] + node * w) << 1) + dir;
	for (p = 0; p < w; p++)
		if (f[2 * p] >= lanes)
			v[p >> 6] |= 1ULL << (p & 63);
}

u32 sched_first(const u64 *v, u32 nw)
{
	u32 k;

	for (k = 0; k < nw; k++)
		if (v[k])
			return k * 64 + (u32)__builtin_ctzll(v[k]);
	return SCHED_NONE;
}

/* Bits set; the builtin is a library call unless the target has POPCNT. */
static inline u32 sched_popcount(u64 x)
{
#if defined(__POPCNT__) || !defined(__x86_64__)
	return (u32)__builtin_popcountll(x);
#else
	x = x - ((x >> 1) & 0x5555555555555555ULL);
	x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
	x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0fULL;
	return (u32)((x * 0x0101010101010101ULL) >> 56);
#endif
}

u32 sched_pick(struct ft_sched *s, const u64 *v, u32 nw)
{
	u32 k, c = 0, j;
	u64 x;

	if (nw == 1) {
		x = v[0];
		if (!x)
			return SCHED_NONE;
		if (!(x & (x - 1)))	/* one choice: no draw */
			return (u32)__builtin_ctzll(x);
		j = ft_rand_below(&s->rng, sched_popcount(x));
		while (j--)
			x &= x - 1;
		return (u32)__builtin_ctzll(x);
	}
	for (k = 0; k < nw; k++)
		c += sched_popcount(v[k]);
	if (!c)
		return SCHED_NONE;
	j = ft_rand_below(&s->rng, c);
	for (k = 0; k < nw; k++) {
		c = sched_popcount(v[k]);
		if (j >= c) {
			j -= c;
			continue;
		}
		x = v[k];
		while (j--)
			x &= x - 1;
		return k * 64 + (u32)__builtin_ctzll(x);
	}
	return SCHED_NONE;
}

int sched_grow_u32(u32 n, u32 **a, u32 **b, u32 **c)
{
	u32 **arr[3] = { a, b, c }, *p;
	int i, err = 0;

	/* each grows or stays whole: all three are tried */
	for (i = 0; i < 3; i++) {
		p = realloc(*arr[i], (size_t)n * sizeof(u32));
		if (p)
			*arr[i] = p;
		else
			err = -ENOMEM;
	}
	return err;
}

int sched_grow(struct ft_sched *s, u32 n)
{
	int err;

	if (!n)
		n = 1;
	if (n <= s->cap)
		return 0;
	err = sched_grow_u32(n, &s->order, &s->tmp, &s->y);
	if (!err)
		s->cap = n;
	return err;
}

void *sched_scratch(struct ft_sched *s, size_t bytes)
{
	void *p;

	if (bytes <= s->scratch_cap)
		return s->scratch;
	/* Nothing to keep: free first, so the two never coexist. */
	free(s->scratch);
	p = malloc(bytes);
	s->scratch = p;
	s->scratch_cap = p ? bytes : 0;
	return p;
}

/* Stable counting sort of @in[0..k) by @key(), into @outv. */
static void sched_csort(struct ft_sched *s, const u32 *in, u32 k, u32 *outv,
			const struct ft_sched_req *req,
			const struct ft_sched_out *out, bool by_height,
			u32 nkeys)
{
	u32 *cnt = s->cnt, j, key, sum = 0, c;

	memset(cnt, 0, (size_t)nkeys * sizeof(u32));
	for (j = 0; j < k; j++) {
		key = by_height ? s->t.h - out[in[j]].hh : req[in[j]].src;
		cnt[key]++;
	}
	for (j = 0; j < nkeys; j++) {
		c = cnt[j];
		cnt[j] = sum;
		sum += c;
	}
	for (j = 0; j < k; j++) {
		key = by_height ? s->t.h - out[in[j]].hh : req[in[j]].src;
		outv[cnt[key]++] = in[j];
	}
}

u32 sched_order(struct ft_sched *s, enum ft_sched_order o,
		const struct ft_sched_req *req, u32 n,
		const struct ft_sched_out *out)
{
	u32 k = 0, j, prev = 0;
	bool sorted = true;	/* by source already (the sorts are stable) */

	for (j = 0; j < n; j++)
		if (out[j].status == FT_SCHED_REFUSED) {
			sorted &= req[j].src >= prev;
			prev = req[j].src;
			s->tmp[k++] = j;
		}
	if (!k)		/* nothing to sort (nor to draw) */
		return 0;
	switch (o) {
	case FT_SCHED_ORDER_SOURCE:
		if (sorted)
			memcpy(s->order, s->tmp, (size_t)k * sizeof(u32));
		else
			sched_csort(s, s->tmp, k, s->order, req, out, false,
				    s->t.n);
		break;
	case FT_SCHED_ORDER_FARTHEST:
		if (!sorted) {
			sched_csort(s, s->tmp, k, s->order, req, out, false,
				    s->t.n);
			memcpy(s->tmp, s->order, (size_t)k * sizeof(u32));
		}
		sched_csort(s, s->tmp, k, s->order, req, out, true, s->t.h);
		break;
	case FT_SCHED_ORDER_RANDOM:
		memcpy(s->order, s->tmp, (size_t)k * sizeof(u32));
		ft_rand_shuffle(&s->rng, s->order, k);
		break;
	default:
		memcpy(s->order, s->tmp, (size_t)k * sizeof(u32));
		break;
	}
	return k;
}

void sched_refuse(struct ft_sched_out *out, u32 level, u32 where)
{
	out->status = FT_SCHED_REFUSED;
	out->fail_level = (u8)level;
	out->fail_where = (u8)where;
}

void sched_setup(const struct ft_sched *s, const struct ft_sched_req *req,
		 u32 n, struct ft_sched_out *out)
{
	u32 j;

	/*
	 * Every valid request with H >= 1 starts REFUSED with no failure
	 * recorded; the algorithm grants it or says where it failed.
	 */
	for (j = 0; j < n; j++) {
		memset(&out[j], 0, sizeof(out[j]));
		if (!sched_valid(s, &req[j])) {
			out[j].status = FT_SCHED_INVALID;
			continue;
		}
		out[j].hh = (u8)sched_common_level(s, req[j].src, req[j].dst);
		out[j].status = out[j].hh ? FT_SCHED_REFUSED : FT_SCHED_GRANTED;
	}
}

int ft_sched_run(struct ft_sched *s, const struct ft_sched_opts *o,
		 const struct ft_sched_req *req, u32 n,
		 struct ft_sched_out *out, struct ft_sched_stats *st)
{
	struct ft_sched_stats local;
	u32 j;
	int err;

	if (!s || !o || (n && (!req || !out)) ||
	    (unsigned int)o->algo >= FT_SCHED_NALGOS ||
	    (unsigned int)o->order >= FT_SCHED_NORDERS)
		return -EINVAL;
	if (!st)
		st = &local;
	memset(st, 0, sizeof(*st));
	st->requests = n;
	/*
	 * Requests already in order: setup and schedule in one pass, which
	 * checks source order as it goes (undoing itself when it finds
	 * none: then the requests are sorted below).
	 */
	if (sched_lw_fast_ok(s, o) &&
	    (o->order == FT_SCHED_ORDER_GIVEN ||
	     o->order == FT_SCHED_ORDER_SOURCE)) {
		if (sched_lw_fast_all(s, req, n,
				      o->order == FT_SCHED_ORDER_SOURCE, out, st))
			return 0;
		memset(st, 0, sizeof(*st));
		st->requests = n;
	}
	err = sched_grow(s, n);
	if (err)
		return err;
	ft_rand_seed(&s->rng, o->seed);
	sched_setup(s, req, n, out);
	switch (o->algo) {
	case FT_SCHED_LEVELWISE:
		st->fast = sched_lw_fast_ok(s, o);
		err = sched_levelwise(s, o, req, n, out);
		break;
	case FT_SCHED_LOCAL_GREEDY:
	case FT_SCHED_LOCAL_RANDOM:
		err = sched_local(s, o, req, n, out);
		break;
	case FT_SCHED_RANDOM:
		err = sched_random(s, o, req, n, out);
		break;
	default:
		err = sched_optimal(s, o, req, n, out, st);
		break;
	}
	st->requests = n;
	for (j = 0; j < n; j++)
		sched_count(st, &out[j], req[j].lanes);
	return err;
}
