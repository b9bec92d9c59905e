// SPDX-License-Identifier: GPL-2.0
/*
 * One delivery cycle: priority order, then stage-by-stage
 * contention for lanes.
 */
#include "ft_cycle.h"

/* Words of a bitmap of @bits bits (touched links, offers that delivered). */
static size_t ft_cycle_touched_words(size_t bits)
{
	return (bits + 63) / 64;
}

/**
 * ft_cycle_scratch_size() - bytes of working memory for ft_cycle_run().
 * @t: topology.
 * @max_msgs: most contending messages in one cycle, 1..FT_CYCLE_MAX_MSGS.
 *
 * 8 bytes and a bit per directed link plus 60 bytes and a bit per
 * message.
 *
 * Return: the size, or 0 if @max_msgs is out of range.
 */
size_t ft_cycle_scratch_size(const struct ft_topo *t, u32 max_msgs)
{
	size_t links = ft_topo_dlinks(t);

	if (!max_msgs || max_msgs > FT_CYCLE_MAX_MSGS)
		return 0;
	return links * sizeof(struct ft_link_cycle) +
	       ft_cycle_touched_words(links) * sizeof(u64) +
	       ft_cycle_touched_words(max_msgs) * sizeof(u64) +
	       (size_t)max_msgs * (sizeof(struct ft_cycle_msg) +
				   sizeof(struct ft_cycle_live) +
				   2 * sizeof(u32));
}

/**
 * ft_cycle_scratch_init() - carve the working memory into its arrays.
 * @sc: scratch descriptor to fill.
 * @t: topology.
 * @max_msgs: as passed to ft_cycle_scratch_size().
 * @mem: block of @size bytes, 8-byte aligned (e.g. from ft_zalloc()).
 * @size: at least ft_cycle_scratch_size(@t, @max_msgs).
 *
 * Return: 0 or -FT_EINVAL.
 */
int ft_cycle_scratch_init(struct ft_cycle_scratch *sc,
			  const struct ft_topo *t, u32 max_msgs,
			  void *mem, size_t size)
{
	size_t need = ft_cycle_scratch_size(t, max_msgs);
	struct ft_cycle_level *lv;
	u8 *p = mem;
	u32 i;

	if (!need || !mem || size < need)
		return -FT_EINVAL;
	memset(sc->lv, 0, sizeof(sc->lv));
	for (i = 1; i <= t->h; i++) {
		lv = &sc->lv[i];
		lv->link_base = t->link_base[i];
		lv->w = t->w[i];
		lv->wprod = t->wprod[i - 1];
		lv->wup = t->wprod[i];
		lv->lanes = t->lanes[i];
		ft_recip_init(&lv->by_mprod, t->mprod[i - 1]);
		ft_recip_init(&lv->by_wprod, t->wprod[i - 1]);
		ft_recip_init(&lv->by_w, t->w[i]);
		ft_recip_init(&lv->by_m, t->m[i]);
	}
	sc->max_msgs = max_msgs;
	sc->nlinks = ft_topo_dlinks(t);
	sc->nmsgs = 0;
	sc->lc = (struct ft_link_cycle *)p;
	p += sc->nlinks * sizeof(*sc->lc);
	sc->touched = (u64 *)p;
	p += ft_cycle_touched_words(sc->nlinks) * sizeof(u64);
	sc->got = (u64 *)p;
	sc->got_n = 0;
	p += ft_cycle_touched_words(max_msgs) * sizeof(u64);
	sc->msg = (struct ft_cycle_msg *)p;
	p += (size_t)max_msgs * sizeof(*sc->msg);
	sc->live = (struct ft_cycle_live *)p;
	p += (size_t)max_msgs * sizeof(*sc->live);
	sc->ord = (u32 *)p;
	p += (size_t)max_msgs * sizeof(u32);
	sc->pidx = (u32 *)p;
	memset(sc->lc, 0, sc->nlinks * sizeof(*sc->lc));
	memset(sc->touched, 0,
	       ft_cycle_touched_words(sc->nlinks) * sizeof(u64));
	return 0;
}

/* Bit @i of the bitmap @map (touched links, offers that delivered). */
static __always_inline void ft_cycle_mark(u64 *map, u32 i)
{
	map[i / 64] |= 1ULL << (i % 64);
}

/*
 * Counters of link @id, marked touched: a bit per link, so that the reset
 * and the accounting visit the touched links in ascending order, which the
 * hardware prefetches, instead of in the cycle's random order.
 */
static struct ft_link_cycle *ft_cycle_touch(struct ft_cycle_scratch *sc,
					    u32 id)
{
	ft_cycle_mark(sc->touched, id);
	return &sc->lc[id];
}

/* Free lanes of @id not yet taken by an earlier message this cycle. */
static bool ft_cycle_has_lane(const struct ft_cycle_cfg *cfg,
			      const struct ft_cycle_scratch *sc, u32 id)
{
	const struct ft_link_cycle *lc = &sc->lc[id];

	/* ft_lanes_free(), from the packed copy */
	return lc->carried - lc->circuit < cfg->lanes->hot[id].free;
}

/*
 * Link @id for a message at its stage: true, and one lane of it taken,
 * if a free lane was left; else false (the caller blocks the message).
 */
static bool ft_cycle_take(const struct ft_cycle_cfg *cfg,
			  struct ft_cycle_scratch *sc, u32 id)
{
	if (!ft_cycle_has_lane(cfg, sc, id))
		return false;
	ft_cycle_touch(sc, id)->carried++;
	return true;
}

/* One more message of offer @i delivered (ft_cycle_scratch's @got). */
static __always_inline void ft_cycle_got(struct ft_cycle_scratch *sc,
					 struct ft_offer *off, u32 i)
{
	off[i].delivered++;
	if (sc->got_n)
		ft_cycle_mark(sc->got, i);
}

static bool ft_offer_before(const struct ft_offer *off, u32 a, u32 b)
{
	if (off[a].src != off[b].src)
		return off[a].src < off[b].src;
	if (off[a].dst != off[b].dst)
		return off[a].dst < off[b].dst;
	return a < b;
}

static void ft_sift_down(const struct ft_offer *off, u32 *v, u32 i, u32 n)
{
	u32 c, tmp;

	for (;;) {
		c = 2 * i + 1;
		if (c >= n)
			return;
		if (c + 1 < n && ft_offer_before(off, v[c], v[c + 1]))
			c++;
		if (!ft_offer_before(off, v[i], v[c]))
			return;
		tmp = v[i];
		v[i] = v[c];
		v[c] = tmp;
		i = c;
	}
}

/* Heapsort: in place and O(n log n) worst case, no recursion, no memory. */
static void ft_sort_offers(const struct ft_offer *off, u32 *v, u32 n)
{
	u32 i, tmp;

	for (i = 0; i < n; i++)
		if (i && ft_offer_before(off, v[i], v[i - 1]))
			break;
	if (i == n)
		return;		/* the usual case: pairs come sorted */
	for (i = n / 2; i-- > 0;)
		ft_sift_down(off, v, i, n);
	for (i = n; i-- > 1;) {
		tmp = v[0];
		v[0] = v[i];
		v[i] = tmp;
		ft_sift_down(off, v, 0, i);
	}
}

/* Lanes of the circuit of offer @i (@oc may be NULL: none has one). */
static u32 ft_cycle_clanes(const struct ft_offer_circuit *oc, u32 i)
{
	return oc ? oc[i].lanes : 0;
}

/*
 * Messages of @o, offer @i, that contend for free lanes (beyond its
 * circuit). Under path choice circuit only a leaf's messages to itself
 * do: they cross no link, so no circuit can carry them, and none is
 * needed.
 */
static u32 ft_cycle_contending(const struct ft_cycle_cfg *cfg,
			       const struct ft_offer *o,
			       const struct ft_offer_circuit *oc, u32 i)
{
	u32 circ = ft_min_u32(o->count, ft_cycle_clanes(oc, i));

	if (cfg->path == FT_PATH_CIRCUIT && o->src != o->dst)
		return 0;
	return o->count - circ;
}

/* The circuit of an offer: its path within the links, its lanes in range. */
static bool ft_cycle_bad_circuit(const struct ft_offer_circuit *c, u32 nlinks)
{
	u32 k;

	if (!c->path || c->path->n > FT_PATH_MAX || c->lanes > FT_MAX_LANES)
		return true;
	for (k = 0; k < c->path->n; k++)
		if (c->path->link[k] >= nlinks)
			return true;
	return false;
}

/* What every cycle checks of its configuration. */
static int ft_cycle_validate_cfg(const struct ft_cycle_cfg *cfg,
				 const struct ft_cycle_scratch *sc)
{
	if (cfg->path >= FT_PATH_NR || cfg->arb >= FT_ARB_NR ||
	    sc->nlinks != ft_topo_dlinks(cfg->topo) ||
	    cfg->lanes->n != sc->nlinks)
		return -FT_EINVAL;
	return 0;
}

/* The offers checked; *@circuits: some offer has a circuit. */
static int ft_cycle_validate(const struct ft_cycle_cfg *cfg,
			     const struct ft_offer *off,
			     const struct ft_offer_circuit *oc, u32 noff,
			     const struct ft_cycle_scratch *sc, bool *circuits)
{
	const struct ft_topo *t = cfg->topo;
	u32 i, n = t->n, lca = t->h + 1;
	const struct ft_offer *o;
	u64 total = 0;
	bool bad = false;

	*circuits = false;
	if (ft_cycle_validate_cfg(cfg, sc))
		return -FT_EINVAL;
	for (i = 0; i < noff; i++) {
		o = &off[i];
		/* one test per offer for the usual case, without branches */
		bad |= (o->src >= n) | (o->dst >= n) | (o->lca > lca);
		total += o->count;
		if (ft_cycle_clanes(oc, i)) {
			*circuits = true;
			if (ft_cycle_bad_circuit(&oc[i], sc->nlinks))
				return -FT_EINVAL;
			total -= ft_min_u32(o->count, oc[i].lanes);
		}
	}
	if (bad)
		return -FT_EINVAL;
	/* Under path choice circuit only a leaf's messages to itself contend. */
	if (cfg->path == FT_PATH_CIRCUIT)
		for (total = 0, i = 0; i < noff; i++)
			total += ft_cycle_contending(cfg, &off[i], oc, i);
	return total > sc->max_msgs ? -FT_E2BIG : 0;
}

/*
 * Circuit messages hold reserved lanes: they cross without contention.
 * Returns how many of @o's messages its circuit @c carries.
 */
static u32 ft_cycle_circuit(const struct ft_offer *o,
			    const struct ft_offer_circuit *c,
			    struct ft_cycle_scratch *sc)
{
	struct ft_link_cycle *lc;
	u32 k, circ = ft_min_u32(o->count, c->lanes);

	if (!circ)
		return 0;
	for (k = 0; k < c->path->n; k++) {
		lc = ft_cycle_touch(sc, c->path->link[k]);
		lc->carried += (u16)circ;
		lc->circuit += (u16)circ;
	}
	return circ;
}

/**
 * ft_cycle_common_level() - ft_topo_common_level() by the scratch's
 * multiplications instead of divisions.
 * @sc: scratch from ft_cycle_scratch_init().
 * @src: source leaf.
 * @dst: destination leaf.
 *
 * Return: H, 0..h.
 */
u32 ft_cycle_common_level(const struct ft_cycle_scratch *sc, u32 src, u32 dst)
{
	u32 i = 0;

	while (src != dst) {
		i++;
		src = ft_recip_div(&sc->lv[i].by_m, src);
		dst = ft_recip_div(&sc->lv[i].by_m, dst);
	}
	return i;
}

/* Common level of offer @o: the caller's, else worked out. */
static u32 ft_cycle_lca(const struct ft_cycle_scratch *sc,
			const struct ft_offer *o)
{
	return o->lca ? o->lca - 1U : ft_cycle_common_level(sc, o->src, o->dst);
}

/*
 * Carry the circuits' messages, then lay the contending messages out,
 * pairs in priority order of pairs. A pair whose every minimal path
 * crosses a failed link does not contend: its messages wait, counted in
 * @res->failed. Returns the pairs laid out.  The totals are kept in
 * locals, which the stores to the messages cannot alias.
 */
static u32 ft_cycle_layout(const struct ft_cycle_cfg *cfg,
			   struct ft_offer *off,
			   const struct ft_offer_circuit *oc, u32 noff,
			   struct ft_cycle_scratch *sc,
			   struct ft_cycle_result *res)
{
	const struct ft_topo *t = cfg->topo;
	const struct ft_lanes *l = cfg->lanes;
	bool fixed = cfg->arb == FT_ARB_FIXED;
	bool only = cfg->path == FT_PATH_CIRCUIT;
	struct ft_cycle_msg *msg = sc->msg;
	u32 i, np = 0, n = 0, c, hh, circ;
	u32 offered = 0, circuit = 0, uncarried = 0, failed = 0;
	struct ft_offer *o;

	for (i = 0; i < noff; i++) {
		o = &off[i];
		circ = ft_cycle_clanes(oc, i) ?
		       ft_cycle_circuit(o, &oc[i], sc) : 0;
		o->delivered = circ;
		if (circ && sc->got_n)
			ft_cycle_mark(sc->got, i);
		offered += o->count;
		circuit += circ;
		c = o->count - circ;
		if (only && o->src != o->dst) {
			uncarried += c;
			continue;
		}
		if (!c)
			continue;
		hh = ft_cycle_lca(sc, o);
		if (l->nfailed &&
		    !ft_fail_route(t, l, o->src, o->dst, hh, 0, 0)) {
			failed += c;
			continue;
		}
		/* Random priority ranks later: the offers' order will do. */
		if (fixed)
			sc->pidx[np] = i;
		else
			n = ft_cycle_lay(msg, n, o, i, c, hh);
		np++;
	}
	res->offered += offered;
	res->circuit += circuit;
	res->uncarried += uncarried;
	res->failed += failed;
	if (fixed) {
		ft_sort_offers(off, sc->pidx, np);
		for (i = 0; i < np; i++) {
			o = &off[sc->pidx[i]];
			n = ft_cycle_lay(msg, n, o, sc->pidx[i],
					 ft_cycle_contending(cfg, o, oc,
							     sc->pidx[i]),
					 ft_cycle_lca(sc, o));
		}
	}
	sc->nmsgs = n;
	return np;
}

/*
 * ft_cycle_layout() for random priority when no offer has a circuit, no
 * link is failed and the path choice is not circuit: every offered
 * message contends, in the offers' order.
 */
static u32 ft_cycle_layout_plain(struct ft_offer *off, u32 noff,
				 struct ft_cycle_scratch *sc,
				 struct ft_cycle_result *res)
{
	struct ft_cycle_msg *msg = sc->msg;
	u32 i, np = 0, n = 0, c, offered = 0;
	struct ft_offer *o;

	for (i = 0; i < noff; i++) {
		o = &off[i];
		o->delivered = 0;
		c = o->count;
		offered += c;
		if (!c)
			continue;
		n = ft_cycle_lay(msg, n, o, i, c, ft_cycle_lca(sc, o));
		np++;
	}
	res->offered += offered;
	sc->nmsgs = n;
	return np;
}

/*
 * Random priority: a uniform permutation (Fisher-Yates), then each pair's
 * slots are handed to its messages in sequence order.  Every message
 * still gets a uniformly random rank among the other pairs' messages,
 * and a pair's earlier message always outranks its later ones.  When
 * every pair offers one message (@npairs == messages) the slots are the
 * permutation itself.
 */
static void ft_cycle_order(const struct ft_cycle_cfg *cfg,
			   struct ft_cycle_scratch *sc, u32 npairs)
{
	u32 n = sc->nmsgs, j, f;

	for (j = 0; j < n; j++)
		sc->ord[j] = j;
	if (cfg->arb != FT_ARB_RANDOM || n < 2)
		return;
	ft_rand_shuffle(cfg->rand, sc->ord, n);
	if (npairs == n)
		return;
	/* msg[first].y counts the pair's slots handed out so far. */
	for (j = 0; j < n; j++) {
		f = sc->msg[sc->ord[j]].first;
		sc->ord[j] = f + sc->msg[f].y++;
	}
	for (j = 0; j < n; j++)
		sc->msg[j].y = 0;
}

/* The messages in priority order, as the stages read them. */
static void ft_cycle_live_init(struct ft_cycle_scratch *sc)
{
	const struct ft_cycle_msg *m;
	struct ft_cycle_live *v;
	u32 j;

	for (j = 0; j < sc->nmsgs; j++) {
		if (j + FT_PREFETCH_AHEAD < sc->nmsgs)
			ft_prefetch(&sc->msg[sc->ord[j + FT_PREFETCH_AHEAD]]);
		m = &sc->msg[sc->ord[j]];
		v = &sc->live[j];
		v->k = sc->ord[j];
		v->src = m->src;
		v->dst = m->dst;
		v->y = 0;
		v->hh = m->hh;
		v->lead = m->first == v->k;
	}
}

/*
 * Message @v is stopped at link @id (or behind its pair if @id < 0) in
 * the stage of @lvl, @dir: its record gets where it got to.
 */
static __always_inline void
ft_cycle_block(struct ft_cycle_scratch *sc, const struct ft_cycle_live *v,
	       u32 lvl, u32 dir, s64 id, struct ft_cycle_result *res)
{
	struct ft_cycle_msg *m = &sc->msg[v->k];
	struct ft_cycle_msg *f = &sc->msg[m->first];

	m->flags |= FT_MSG_DEAD;
	m->y = v->y;
	/* up to level lvl - 1, or up to H and down to lvl */
	m->hops = (u8)(dir == FT_UP ? lvl - 1 : 2 * v->hh - lvl);
	f->cut = ft_min_u32(f->cut, v->k);
	f->cutstage = (u8)ft_min_u32(f->cutstage, m->hops);
	if (id < 0) {
		m->flags |= FT_MSG_ORDER;
		res->order_blocked++;
		return;
	}
	m->at = (u32)id;
	ft_cycle_touch(sc, (u32)id)->blocked++;
	res->blocked++;
}

/*
 * Up-port of @m at @lvl when some link is failed: the policy's choice
 * among the ports from which the path can still be completed (there is
 * one: the pair had a path when laid out, and every port taken since
 * kept one). dmodk takes its port or the next usable one after it;
 * random draws uniformly among the usable ones (exactly as without
 * failures when all are usable); firstfree the first usable one with a
 * free lane, else the first usable one.
 */
static u32 ft_cycle_up_port_failed(const struct ft_cycle_cfg *cfg,
				   const struct ft_cycle_scratch *sc,
				   const struct ft_cycle_live *m, u32 lvl,
				   u32 base)
{
	const struct ft_topo *t = cfg->topo;
	const struct ft_lanes *l = cfg->lanes;
	u32 w = t->w[lvl], p, k, n = 0, first = w;

	switch (ft_path_default(cfg->path)) {
	case FT_PATH_RANDOM:
		for (p = 0; p < w; p++)
			n += ft_fail_port_ok(t, l, m->src, m->dst, m->hh, lvl,
					     m->y, p);
		if (!n || n == w)
			return ft_rand_below(cfg->rand, w);
		k = ft_rand_below(cfg->rand, n);
		for (p = 0; p < w; p++)
			if (ft_fail_port_ok(t, l, m->src, m->dst, m->hh, lvl,
					    m->y, p) && !k--)
				return p;
		return 0;
	case FT_PATH_FIRSTFREE:
		for (p = 0; p < w; p++) {
			if (!ft_fail_port_ok(t, l, m->src, m->dst, m->hh, lvl,
					     m->y, p))
				continue;
			if (ft_cycle_has_lane(cfg, sc, base + 2 * p))
				return p;
			if (first == w)
				first = p;
		}
		return first < w ? first : 0;
	default:
		k = ft_topo_dmodk_port(t, m->dst, lvl);
		for (n = 0; n < w; n++) {
			p = (k + n) % w;
			if (ft_fail_port_ok(t, l, m->src, m->dst, m->hh, lvl,
					    m->y, p))
				return p;
		}
		return k;
	}
}

/* ft_topo_dmodk_port(): (dst div W_(lvl-1)) mod w_lvl, by @lv's tables. */
static u32 ft_cycle_dmodk(const struct ft_cycle_level *lv, u32 dst)
{
	u32 q = ft_recip_div(&lv->by_wprod, dst);

	return q - ft_recip_div(&lv->by_w, q) * lv->w;
}

static u32 ft_cycle_up_port(const struct ft_cycle_cfg *cfg,
			    const struct ft_cycle_scratch *sc,
			    const struct ft_cycle_live *m, u32 lvl, u32 base)
{
	const struct ft_topo *t = cfg->topo;
	u32 p;

	if (cfg->lanes->nfailed)
		return ft_cycle_up_port_failed(cfg, sc, m, lvl, base);
	switch (ft_path_default(cfg->path)) {
	case FT_PATH_RANDOM:
		return ft_rand_below(cfg->rand, t->w[lvl]);
	case FT_PATH_FIRSTFREE:
		/* Local information only: the lanes of this switch's ports. */
		for (p = 0; p < t->w[lvl]; p++)
			if (ft_cycle_has_lane(cfg, sc, base + 2 * p))
				return p;
		return 0;	/* all full: blocked, charged to port 0 */
	default:
		return ft_cycle_dmodk(&sc->lv[lvl], m->dst);
	}
}

/*
 * The link that message @v crosses at the stage of @lvl, @dir, but for
 * its port *@p: that of the level-(lvl - 1) node (X, Y) on the message's
 * side, X its leaf's subtree there, is physical link node * w + p of the
 * level (ft_topo_node(), ft_topo_dlink()).  Up, the node is where it is
 * (*@p is 0: the policy picks the port); down, it is the node below, *@y
 * its Y, and *@p the port it came up by (Theorem 2: down through the
 * same port numbers).
 */
static u32 ft_cycle_node_link(const struct ft_cycle_level *lv,
			      const struct ft_cycle_live *v, u32 dir, u32 *y,
			      u32 *p)
{
	u32 x;

	if (dir == FT_UP) {
		x = ft_recip_div(&lv->by_mprod, v->src);
		*y = v->y;
		*p = 0;
		return (lv->link_base + (x * lv->wprod + v->y) * lv->w) << 1;
	}
	*y = ft_recip_div(&lv->by_w, v->y);
	*p = v->y - *y * lv->w;
	x = ft_recip_div(&lv->by_mprod, v->dst);
	return ((lv->link_base + (x * lv->wprod + *y) * lv->w) << 1) | FT_DOWN;
}

/* Message @v tries its link of level @lvl, direction @dir: true if it won. */
static bool ft_cycle_step(const struct ft_cycle_cfg *cfg,
			  struct ft_cycle_scratch *sc, struct ft_cycle_live *v,
			  u32 lvl, u32 dir, struct ft_cycle_result *res)
{
	const struct ft_cycle_level *lv = &sc->lv[lvl];
	u32 p, y, id;

	id = ft_cycle_node_link(lv, v, dir, &y, &p);
	if (dir == FT_UP) {
		p = ft_cycle_up_port(cfg, sc, v, lvl, id);
		y = v->y * lv->w + p;
	}
	id += 2 * p;	/* port p's link: physical + p, same direction */
	if (!ft_cycle_take(cfg, sc, id)) {
		ft_cycle_block(sc, v, lvl, dir, id, res);
		return false;
	}
	v->y = y;
	return true;
}

/*
 * Ask for the cache lines of the link that message @v will try at this
 * stage (its node's port 0 when the policy picks the port as it goes),
 * a few messages before it tries it: the links are scattered over
 * arrays larger than the caches.
 */
static void ft_cycle_prefetch(const struct ft_cycle_cfg *cfg,
			      const struct ft_cycle_scratch *sc,
			      const struct ft_cycle_live *v, u32 lvl, u32 dir)
{
	const struct ft_cycle_level *lv = &sc->lv[lvl];
	u32 id, y, p;

	if (v->hh < lvl)
		return;
	id = ft_cycle_node_link(lv, v, dir, &y, &p);
	if (dir == FT_UP && ft_path_default(cfg->path) == FT_PATH_DMODK &&
	    !cfg->lanes->nfailed)
		p = ft_cycle_dmodk(lv, v->dst);
	id += 2 * p;
	ft_prefetchw(&sc->lc[id]);
	ft_prefetch(&cfg->lanes->hot[id]);
}

/*
 * One stage over the live messages in priority order, compacting them
 * as messages die; those whose path does not reach @lvl wait.
 */
static void ft_cycle_stage(const struct ft_cycle_cfg *cfg,
			   struct ft_cycle_scratch *sc, u32 *live, u32 lvl,
			   u32 dir, struct ft_cycle_result *res)
{
	struct ft_cycle_live *v = sc->live;
	u32 j, keep = 0;

	for (j = 0; j < *live; j++) {
		if (j + FT_PREFETCH_AHEAD < *live)
			ft_cycle_prefetch(cfg, sc, &v[j + FT_PREFETCH_AHEAD],
					  lvl, dir);
		if (v[j].hh < lvl) {
			v[keep++] = v[j];
			continue;
		}
		/*
		 * An earlier message of the pair was blocked: this one may
		 * not overtake it.  Earlier ones of the pair go on (they come
		 * first in every stage, so they are never behind a later
		 * one), and a pair's first message is behind none.
		 */
		if (!v[j].lead &&
		    v[j].k > sc->msg[sc->msg[v[j].k].first].cut) {
			ft_cycle_block(sc, &v[j], lvl, dir, -1, res);
			continue;
		}
		if (ft_cycle_step(cfg, sc, &v[j], lvl, dir, res))
			v[keep++] = v[j];
	}
	*live = keep;
}

/*
 * Link @id of level @l at a message's stage: a lane of it taken if one is
 * left (true), else one more message refused there (false); touched
 * either way.  @uniform: no link has reserved lanes, none failed and no
 * message rides a circuit this cycle, so every link of @l has @l->lanes
 * free lanes and no circuit messages: neither the link's lanes nor its
 * circuit counter need reading, and a link whose lane a message found
 * taken was marked touched by that message.
 */
static __always_inline bool
ft_cycle_try(struct ft_link_cycle *lc, const struct ft_link_hot *hot,
	     u64 *touched, const struct ft_cycle_level *l, u32 id,
	     bool uniform)
{
	struct ft_link_cycle *c = &lc[id];

	if (uniform) {
		/* the bit set again rather than a branch taken at random */
		ft_cycle_mark(touched, id);
		if (c->carried >= l->lanes) {
			c->blocked++;
			return false;
		}
		c->carried++;
		return true;
	}
	ft_cycle_mark(touched, id);
	if ((u32)(c->carried - c->circuit) >= hot[id].free) {
		c->blocked++;
		return false;
	}
	c->carried++;
	return true;
}

/* Message @k, whose pair's first is @f, stopped at stage @s with Y @y. */
static __always_inline void
ft_cycle_stop(struct ft_cycle_msg *m, struct ft_cycle_msg *f, u32 k, u32 s,
	      u32 y)
{
	m->flags = FT_MSG_DEAD;
	m->y = y;
	m->hops = (u8)s;
	f->cut = ft_min_u32(f->cut, k);
	f->cutstage = (u8)ft_min_u32(f->cutstage, s);
}

/*
 * Stage 0 of the dmodk walk for every message, in priority order: the
 * links out of the leaves, which no other stage contends for.  A message
 * whose pair's previous message stopped here stops here too (behind it);
 * the survivors' indices are compacted to the front of @sc->ord, still in
 * priority order, and their count returned.  Adds to *@n the messages
 * delivered (those to their own leaf) and to *@behind those held behind
 * their pair.
 *
 * A later message of a pair stopping here must not shorten the walk of
 * the pair's earlier messages that went on (the walk message by message
 * never showed it to them): such a pair's first message gets its cut now
 * but its @cutstage 0 only after the walk, from the list in @sc->pidx
 * (*@npend entries), which the layout no longer needs.
 *
 * @lay: every offer is of one message, not laid out yet (FT_CYCLE_SINGLE):
 * the record of the message of rank j (offer @sc->ord[j]'s) is @msg[j],
 * written here, whole, from the offer, in sequence, instead of being
 * written in offer order first and read and written again here in
 * priority order (at random).
 */
static __always_inline u32
ft_cycle_walk_leaves(const struct ft_cycle_cfg *cfg,
		     struct ft_cycle_scratch *sc, struct ft_offer *off,
		     u32 *npend, u32 *n, u32 *behind, bool uniform, bool w1,
		     bool lay)
{
	const struct ft_cycle_level *l = &sc->lv[1];
	struct ft_link_cycle *lc = sc->lc, *c;
	const struct ft_link_hot *hot = cfg->lanes->hot;
	u64 *touched = sc->touched;
	struct ft_cycle_msg *msg = sc->msg, *m;
	u32 *ord = sc->ord, *pend = sc->pidx;
	u32 nmsgs = sc->nmsgs, j, k, o, id, q, live = 0, np = 0, nb = 0;
	u32 nd = 0;
	u32 base = l->link_base, w = l->w, lanes = l->lanes;
	u32 src, dst, hh, first;
	struct ft_recip by_w = l->by_w;
	bool won;

	for (j = 0; j < nmsgs; j++) {
		if (j + FT_PREFETCH_AHEAD < nmsgs) {
			k = ord[j + FT_PREFETCH_AHEAD];
			if (lay)
				ft_prefetch(&off[k]);
			else
				ft_prefetchw(&msg[k]);
		}
		o = ord[j];
		/* laid out here: the record of rank j, written in sequence */
		k = lay ? j : o;
		m = &msg[k];
		if (lay) {
			src = off[o].src;
			dst = off[o].dst;
			hh = off[o].lca - 1U;
			first = k;
		} else {
			src = m->src;
			dst = m->dst;
			hh = m->hh;
			first = m->first;
		}
		if (!hh) {		/* to itself: there */
			if (lay)
				ft_cycle_lay(msg, k, &off[o], o, 1, 0);
			ft_cycle_got(sc, off, m->offer);
			nd++;
			continue;
		}
		if (first != k && (msg[k - 1].flags & FT_MSG_DEAD)) {
			/* behind: the first's cut and cutstage are set */
			m->flags = FT_MSG_DEAD | FT_MSG_ORDER;
			nb++;
			continue;
		}
		/* the leaf's up link by port dst mod w_1 (X = leaf, Y = 0) */
		if (w1) {
			id = (base + src) << 1;
		} else {
			q = ft_recip_div(&by_w, dst);
			id = (base + src * w + dst - q * w) << 1;
		}
		if (uniform) {
			/*
			 * Without branches: most messages of a busy cycle
			 * lose here, in random order.
			 */
			c = &lc[id];
			won = c->carried < lanes;
			ft_cycle_mark(touched, id);
			c->carried += won;
			c->blocked += !won;
		} else {
			won = ft_cycle_try(lc, hot, touched, l, id, false);
		}
		ord[live] = k;
		live += won;
		if (lay) {
			/* the whole record at once, as ft_cycle_lay() and below */
			*m = (struct ft_cycle_msg){
				.src = src, .dst = dst, .first = k, .offer = o,
				.cut = won ? ~0U : k, .at = won ? ~0U : id,
				.hh = (u8)hh, .flags = won ? 0 : FT_MSG_DEAD,
				.cutstage = won ? 0xff : 0,
			};
			continue;
		}
		if (first == k) {
			/* a winner's record is left as laid out */
			m->flags = won ? 0 : FT_MSG_DEAD;
			m->at = won ? ~0U : id;
			m->cut = won ? ~0U : k;
			m->cutstage = won ? 0xff : 0;
			continue;
		}
		if (won)
			continue;
		m->flags = FT_MSG_DEAD;
		m->at = id;
		msg[first].cut = ft_min_u32(msg[first].cut, k);
		pend[np++] = first;
	}
	*npend = np;
	*n += nd;
	*behind += nb;
	return live;
}

/*
 * Stage 0 when every link has its lanes (ft_cycle_try()), and else; a
 * copy of each for a leaf with one up-port (w_1 = 1, as in k-ary n-trees):
 * its link is the leaf's own; and when every link has its lanes, a copy
 * of those that lays the messages out (@lay, FT_CYCLE_SINGLE).
 */
static ft_noinline u32 ft_cycle_leaves_uniform(const struct ft_cycle_cfg *cfg,
					       struct ft_cycle_scratch *sc,
					       struct ft_offer *off, u32 *npend,
					       u32 *n, u32 *behind, bool lay)
{
	if (sc->lv[1].w == 1 && lay)
		return ft_cycle_walk_leaves(cfg, sc, off, npend, n, behind,
					    true, true, true);
	if (sc->lv[1].w == 1)
		return ft_cycle_walk_leaves(cfg, sc, off, npend, n, behind,
					    true, true, false);
	if (lay)
		return ft_cycle_walk_leaves(cfg, sc, off, npend, n, behind,
					    true, false, true);
	return ft_cycle_walk_leaves(cfg, sc, off, npend, n, behind, true,
				    false, false);
}

static ft_noinline u32 ft_cycle_leaves_lanes(const struct ft_cycle_cfg *cfg,
					     struct ft_cycle_scratch *sc,
					     struct ft_offer *off, u32 *npend,
					     u32 *n, u32 *behind)
{
	return ft_cycle_walk_leaves(cfg, sc, off, npend, n, behind, false,
				    false, false);
}

/*
 * The dmodk walk's next step up, to level @lvl: *@x, the message's source
 * subtree, *@q, its destination's quotient by W_(lvl-1), and *@y, the Y of
 * its node, go from level @lvl - 1 to @lvl.  Returns the up link's id.
 */
static __always_inline u32 ft_cycle_up_id(const struct ft_cycle_level *lv,
					  u32 lvl, u32 *x, u32 *q, u32 *y)
{
	const struct ft_cycle_level *l = &lv[lvl];
	u32 qn = ft_recip_div(&l->by_w, *q);

	*x = ft_recip_div(&lv[lvl - 1].by_m, *x);
	*y = *y * l->w + *q - qn * l->w;
	*q = qn;
	return (l->link_base + *x * l->wup + *y) << 1;
}

/*
 * The walk of dmodk without failed links (see ft_cycle_walk()): stage 0
 * for every message first (ft_cycle_walk_leaves(), most messages of a
 * busy cycle stop there), then each survivor's other stages, message by
 * message in priority order.  The ports depend only on the destination
 * and the way down reuses the way up's nodes and ports (Theorem 2), so
 * the Y of each level of the path is worked out once, going up; X and
 * the quotient of the destination go up a level at a time.  The loops
 * keep in locals what they read more than once: a store through a
 * message or a link counter may alias anything under the kernel's
 * -fno-strict-aliasing.  @uniform: see ft_cycle_try(); @lay: see
 * ft_cycle_walk_leaves() (only with @uniform).  Returns the messages
 * delivered.
 */
static __always_inline u32
ft_cycle_walk_dmodk(const struct ft_cycle_cfg *cfg,
		    struct ft_cycle_scratch *sc, struct ft_offer *off,
		    struct ft_cycle_result *res, bool uniform, bool lay)
{
	u32 ys[FT_MAX_LEVELS + 1];	/* Y of the path's node of level i */
	struct ft_link_cycle *lc = sc->lc;
	const struct ft_link_hot *hot = cfg->lanes->hot;
	u64 *touched = sc->touched;
	struct ft_cycle_msg *msg = sc->msg, *m, *f;
	const struct ft_cycle_level *lv = sc->lv, *l;
	const u32 *ord = sc->ord;
	u32 j, k, lvl, hh, s, stop, y, id, x, q, live, npend;
	u32 nmsgs = sc->nmsgs, n = 0, behind = 0;

	if (uniform)
		live = ft_cycle_leaves_uniform(cfg, sc, off, &npend, &n,
					       &behind, lay);
	else
		live = ft_cycle_leaves_lanes(cfg, sc, off, &npend, &n,
					     &behind);
	ys[0] = 0;
	for (j = 0; j < live; j++) {
		/* laid out in priority order, the records come in sequence */
		if (!lay && j + FT_PREFETCH_AHEAD < live)
			ft_prefetchw(&msg[ord[j + FT_PREFETCH_AHEAD]]);
		k = ord[j];
		m = &msg[k];
		f = &msg[m->first];
		hh = m->hh;
		stop = f == m ? 2 * hh : ft_min_u32(2 * hh, f->cutstage);
		/* stage 0, crossed: up from the leaf by port dst mod w_1 */
		q = ft_recip_div(&lv[1].by_w, m->dst);
		y = m->dst - q * lv[1].w;
		ys[1] = y;
		x = m->src;
		for (s = 1, lvl = 2; lvl <= hh; lvl++, s++) {
			if (s == stop)
				goto behind;
			l = &lv[lvl];
			ys[lvl] = ys[lvl - 1];
			id = ft_cycle_up_id(lv, lvl, &x, &q, &ys[lvl]);
			if (!ft_cycle_try(lc, hot, touched, l, id, uniform))
				goto blocked;
			y = ys[lvl];
		}
		for (lvl = hh; lvl >= 1; lvl--, s++) {
			if (s == stop)
				goto behind;
			l = &lv[lvl];
			x = ft_recip_div(&l->by_mprod, m->dst);
			id = ((l->link_base + x * l->wup + ys[lvl]) << 1) |
			     FT_DOWN;
			if (!ft_cycle_try(lc, hot, touched, l, id, uniform))
				goto blocked;
			y = ys[lvl - 1];
		}
		m->y = y;
		m->hops = (u8)s;
		ft_cycle_got(sc, off, m->offer);
		n++;
		continue;
blocked:
		ft_cycle_stop(m, f, k, s, y);
		m->at = id;
		continue;
behind:
		ft_cycle_stop(m, f, k, s, y);
		m->flags |= FT_MSG_ORDER;
		behind++;
	}
	while (npend--)
		msg[sc->pidx[npend]].cutstage = 0;
	res->order_blocked += behind;
	res->blocked += nmsgs - n - behind;	/* stopped at a link */
	return n;
}

/*
 * The two copies of the dmodk walk, each a function of its own: inlined
 * into ft_cycle_run() they would share its registers.
 */
static ft_noinline u32 ft_cycle_walk_uniform(const struct ft_cycle_cfg *cfg,
					     struct ft_cycle_scratch *sc,
					     struct ft_offer *off,
					     struct ft_cycle_result *res,
					     bool lay)
{
	return ft_cycle_walk_dmodk(cfg, sc, off, res, true, lay);
}

static ft_noinline u32 ft_cycle_walk_lanes(const struct ft_cycle_cfg *cfg,
					   struct ft_cycle_scratch *sc,
					   struct ft_offer *off,
					   struct ft_cycle_result *res)
{
	return ft_cycle_walk_dmodk(cfg, sc, off, res, false, false);
}

/* Level and direction of stage @s (0..2H-1) of a message whose H is @hh. */
static u32 ft_cycle_stage_of(u32 s, u32 hh, u32 *dir)
{
	*dir = s < hh ? FT_UP : FT_DOWN;
	return s < hh ? s + 1 : 2 * hh - s;
}

/* Any other default path but random, or failed links: stage by stage. */
static u32 ft_cycle_cross(const struct ft_cycle_cfg *cfg,
			  struct ft_cycle_scratch *sc, struct ft_cycle_live *v,
			  u32 stop, struct ft_cycle_result *res)
{
	u32 s, lvl, dir;

	for (s = 0; s < stop; s++) {
		lvl = ft_cycle_stage_of(s, v->hh, &dir);
		if (!ft_cycle_step(cfg, sc, v, lvl, dir, res))
			break;
	}
	return s;
}

/*
 * The stages message by message.  Without random port draws (a default
 * path other than random), whether a message gets a lane of a link
 * depends only on the messages ranked before it that reached that link:
 * each directed link belongs to one stage, firstfree looks only at the
 * links of the stage it is choosing in, and a pair's messages are ranked
 * in sequence.  So each message may cross all its stages before the next
 * one starts, with the decisions of the stage-by-stage walk and none of
 * its passes over the live messages.  A later message of a pair stops
 * at the first stage at which an earlier one was blocked (@cutstage), as
 * the stages would hold it there.  Returns the messages delivered.
 */
static u32 ft_cycle_walk(const struct ft_cycle_cfg *cfg,
			 struct ft_cycle_scratch *sc, struct ft_offer *off,
			 struct ft_cycle_result *res)
{
	struct ft_cycle_live v;
	struct ft_cycle_msg *m;
	u32 j, s, stop, lvl, dir, n = 0;

	for (j = 0; j < sc->nmsgs; j++) {
		if (j + 2 * FT_PREFETCH_AHEAD < sc->nmsgs)
			ft_prefetchw(&sc->msg[sc->ord[j + 2 * FT_PREFETCH_AHEAD]]);
		if (j + FT_PREFETCH_AHEAD < sc->nmsgs) {
			m = &sc->msg[sc->ord[j + FT_PREFETCH_AHEAD]];
			v.src = m->src;
			v.dst = m->dst;
			v.y = 0;
			v.hh = m->hh;
			ft_cycle_prefetch(cfg, sc, &v, 1, FT_UP);
		}
		v.k = sc->ord[j];
		m = &sc->msg[v.k];
		v.src = m->src;
		v.dst = m->dst;
		v.y = 0;
		v.hh = m->hh;
		v.lead = m->first == v.k;
		stop = 2 * v.hh;
		if (!v.lead)
			stop = ft_min_u32(stop, sc->msg[m->first].cutstage);
		s = ft_cycle_cross(cfg, sc, &v, stop, res);
		if (s < stop)
			continue;	/* stopped at a link */
		if (s < 2U * v.hh) {	/* behind its pair */
			lvl = ft_cycle_stage_of(s, v.hh, &dir);
			ft_cycle_block(sc, &v, lvl, dir, -1, res);
			continue;
		}
		m->y = v.y;
		m->hops = (u8)s;
		ft_cycle_got(sc, off, m->offer);
		n++;
	}
	return n;
}

/*
 * The last cycle's link counters zeroed, and its touched bitmap.  When
 * more than a quarter of the links were touched, as on a busy fabric
 * (two fifths at 4,096 leaves), all of them at once: one long memset()
 * streams over the lines without reading them first, where zeroing the
 * touched ones waits for each line that the cycle's other arrays evicted.
 */
static void ft_cycle_reset(struct ft_cycle_scratch *sc)
{
	u32 k, nt = 0, words = ft_cycle_touched_words(sc->nlinks);
	u64 bits;

	for (k = 0; k < words; k++)
		nt += ft_popcount64(sc->touched[k]);
	if (nt > sc->nlinks / 4) {
		memset(sc->lc, 0, sc->nlinks * sizeof(*sc->lc));
		memset(sc->touched, 0, words * sizeof(u64));
		return;
	}
	for (k = 0; k < words; k++) {
		bits = sc->touched[k];
		/*
		 * A word's 64 links fill eight cache lines: with more than
		 * eight of them touched, zero them all at once rather than
		 * one by one.
		 */
		if (ft_popcount64(bits) > 8 && 64 * k + 64 <= sc->nlinks)
			memset(&sc->lc[64 * k], 0, 64 * sizeof(*sc->lc));
		else
			for (; bits; bits &= bits - 1)
				memset(&sc->lc[64 * k + ft_ctz64(bits)], 0,
				       sizeof(*sc->lc));
		sc->touched[k] = 0;
	}
}

/*
 * ft_cycle_run() once the offers are known good; @laid: what of their
 * messages the caller laid out (ft_cycle_run_plain()).
 */
static int ft_cycle_exec(const struct ft_cycle_cfg *cfg,
			 struct ft_offer *off,
			 const struct ft_offer_circuit *oc, u32 noff,
			 struct ft_cycle_scratch *sc,
			 struct ft_cycle_result *res, bool circuits,
			 enum ft_cycle_laid laid)
{
	u32 k, live, lvl, np, h = cfg->topo->h;
	/* the path of the messages that contend (not on a circuit) */
	enum ft_path_choice path = ft_path_default(cfg->path);
	/* dmodk's stage 0, links all with their lanes, lays them out */
	bool uniform = !cfg->lanes->nfailed && !cfg->lanes->nreserved;
	bool lay = laid == FT_CYCLE_SINGLE && path == FT_PATH_DMODK &&
		   uniform && ft_cycle_plain(cfg);
	struct ft_cycle_msg *m;

	ft_cycle_reset(sc);
	memset(res, 0, sizeof(*res));
	/* a bit per offer while there are bits for them all */
	sc->got_n = noff <= sc->max_msgs ? noff : 0;
	memset(sc->got, 0, ft_cycle_touched_words(sc->got_n) * sizeof(u64));

	if (laid == FT_CYCLE_LAID) {
		res->offered = sc->nmsgs;
		np = noff;
	} else if (lay) {
		res->offered = noff;
		sc->nmsgs = noff;
		np = noff;
	} else if (!circuits && ft_cycle_plain(cfg)) {
		np = ft_cycle_layout_plain(off, noff, sc, res);
	} else {
		np = ft_cycle_layout(cfg, off, oc, noff, sc, res);
	}
	ft_cycle_order(cfg, sc, np);
	if (path == FT_PATH_DMODK && !cfg->lanes->nfailed) {
		/* a copy of the walk for links that all have their lanes */
		if (cfg->lanes->nreserved || res->circuit)
			k = ft_cycle_walk_lanes(cfg, sc, off, res);
		else
			k = ft_cycle_walk_uniform(cfg, sc, off, res, lay);
		res->delivered = res->circuit + k;
		return 0;
	}
	if (path != FT_PATH_RANDOM) {
		res->delivered = res->circuit + ft_cycle_walk(cfg, sc, off, res);
		return 0;
	}
	/* Random ports are drawn stage by stage, in priority order. */
	ft_cycle_live_init(sc);
	live = sc->nmsgs;
	for (lvl = 1; lvl <= h; lvl++)
		ft_cycle_stage(cfg, sc, &live, lvl, FT_UP, res);
	for (lvl = h; lvl >= 1; lvl--)
		ft_cycle_stage(cfg, sc, &live, lvl, FT_DOWN, res);

	for (k = 0; k < live; k++) {
		m = &sc->msg[sc->live[k].k];
		m->y = sc->live[k].y;
		m->hops = (u8)(2 * m->hh);
		ft_cycle_got(sc, off, m->offer);
	}
	res->delivered = res->circuit + live;
	return 0;
}

/**
 * ft_cycle_run() - run one delivery cycle.
 * @cfg: fabric shape, lanes, generator and policies.
 * @off: @noff offers; sets @delivered.  A pair may have several offers
 *       (e.g. separate flows): each keeps its own order.
 * @oc: per offer, its pair's circuit (its @lanes 0 when it has none), or
 *      NULL when no offer has one.
 * @noff: offers.
 * @sc: scratch from ft_cycle_scratch_init() for this topology; on
 *      return it describes this cycle (links touched and their counters,
 *      the messages) until the next call.
 * @res: out, this cycle's totals.
 *
 * Never allocates or sleeps.  Fixed priority ranks pairs by ascending
 * (source, destination); random priority draws a fresh rank per message.
 * Random draws (ranks, then ports) come from @cfg->rand in a fixed
 * order, so one seed gives one history on every host.
 *
 * Return: 0; -FT_EINVAL for a bad offer or config, -FT_E2BIG if more
 * messages contend than the scratch holds.  On error nothing changed
 * except that the previous cycle's link counters were not yet reset.
 */
int ft_cycle_run(const struct ft_cycle_cfg *cfg, struct ft_offer *off,
		 const struct ft_offer_circuit *oc, u32 noff,
		 struct ft_cycle_scratch *sc, struct ft_cycle_result *res)
{
	bool circuits;
	int err = ft_cycle_validate(cfg, off, oc, noff, sc, &circuits);

	if (err)
		return err;
	return ft_cycle_exec(cfg, off, oc, noff, sc, res, circuits,
			     FT_CYCLE_UNLAID);
}

/**
 * ft_cycle_run_plain() - ft_cycle_run() for offers made within the
 * fabric, which it does not check one by one.
 * @cfg: as for ft_cycle_run().
 * @off: @noff offers, each of at least one message, with its source and
 *       destination below n, its @lca right, no circuit,
 *       @delivered 0, and all of them at most @sc->max_msgs messages
 *       (ft_pairs_cycle() makes such offers).
 * @noff: offers.
 * @sc: as for ft_cycle_run().
 * @res: out, this cycle's totals.
 * @laid: FT_CYCLE_LAID: the caller has laid the offers' messages out in
 *        @sc as well, offer by offer (ft_cycle_lay(), then @nmsgs), which
 *        it may do only when ft_cycle_plain(@cfg); FT_CYCLE_SINGLE: each
 *        offer is of one message, not laid out; FT_CYCLE_UNLAID: the
 *        cycle lays the messages out.
 *
 * Saves ft_cycle_run()'s passes over the offers to check them and to lay
 * them out: the caller does it as it makes them, or the cycle as it
 * ranks them (single messages under dmodk).
 *
 * Return: 0, or -FT_EINVAL for a bad config.
 */
int ft_cycle_run_plain(const struct ft_cycle_cfg *cfg, struct ft_offer *off,
		       u32 noff, struct ft_cycle_scratch *sc,
		       struct ft_cycle_result *res, enum ft_cycle_laid laid)
{
	int err = ft_cycle_validate_cfg(cfg, sc);

	if (err)
		return err;
	if (laid == FT_CYCLE_LAID && !ft_cycle_plain(cfg))
		laid = FT_CYCLE_UNLAID;
	return ft_cycle_exec(cfg, off, NULL, noff, sc, res, false, laid);
}

/* Link @id's counters of the last cycle @lc added to its totals @st. */
static __always_inline void ft_cycle_add(const struct ft_link_cycle *lc,
					 struct ft_link_stats *st, u32 lanes)
{
	st->carried += lc->carried;
	st->blocked += lc->blocked;
	st->max_cycle = ft_max_u32(st->max_cycle, lc->carried);
	/* no branch: about as often taken as not */
	st->saturated += lanes && lc->carried >= lanes;
}

/*
 * ft_cycle_account() of the touched links in [@from, @to), which all have
 * @lanes lanes: those of a level while no link is failed.
 */
static void ft_cycle_account_level(const struct ft_cycle_scratch *sc,
				   struct ft_link_stats *st, u32 from, u32 to,
				   u32 lanes)
{
	u32 k, id;
	u64 bits;

	for (k = from / 64; 64 * k < to; k++) {
		bits = sc->touched[k];
		if (64 * k < from)
			bits &= ~0ULL << (from - 64 * k);
		if (to - 64 * k < 64)
			bits &= (1ULL << (to - 64 * k)) - 1;
		for (; bits; bits &= bits - 1) {
			id = 64 * k + ft_ctz64(bits);
			ft_cycle_add(&sc->lc[id], &st[id], lanes);
		}
	}
}

/**
 * ft_cycle_account() - add the last cycle to running per-link totals.
 * @sc: scratch after ft_cycle_run().
 * @l: lane state (a link is saturated when it carried all its lanes).
 * @st: per-link totals, indexed by directed link id.
 *
 * Visits only the links the cycle touched, in ascending order.  While no
 * link is failed every link has its level's lanes, which are then not
 * read link by link.
 */
void ft_cycle_account(const struct ft_cycle_scratch *sc,
		      const struct ft_lanes *l, struct ft_link_stats *st)
{
	u32 k, id, lvl, words = ft_cycle_touched_words(sc->nlinks);
	u64 bits;

	if (!l->nfailed) {
		for (lvl = 1; lvl < FT_MAX_LEVELS && sc->lv[lvl + 1].w; lvl++)
			ft_cycle_account_level(sc, st, 2 * sc->lv[lvl].link_base,
					       2 * sc->lv[lvl + 1].link_base,
					       sc->lv[lvl].lanes);
		ft_cycle_account_level(sc, st, 2 * sc->lv[lvl].link_base,
				       sc->nlinks, sc->lv[lvl].lanes);
		return;
	}
	for (k = 0; k < words; k++) {
		for (bits = sc->touched[k]; bits; bits &= bits - 1) {
			id = 64 * k + ft_ctz64(bits);
			ft_cycle_add(&sc->lc[id], &st[id], l->hot[id].lanes);
		}
	}
}
