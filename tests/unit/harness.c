// SPDX-License-Identifier: GPL-2.0
#include "harness.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void fabric_params(struct ft_fabric_params *p, u32 h, const u32 *m,
		   const u32 *w, const u32 *lanes)
{
	u32 i;

	memset(p, 0, sizeof(*p));
	p->h = h;
	p->profile.kind = FT_PROFILE_EXPLICIT;
	for (i = 0; i < h; i++) {
		p->m[i] = m[i];
		p->w[i] = w[i];
		p->profile.table[i] = lanes ? lanes[i] : 1;
	}
	p->path = FT_PATH_DMODK;
	p->arb = FT_ARB_FIXED;
	p->inject.rule = FT_INJECT_ALL;
	p->seed = 1;
	p->max_msgs = 4096;
}

__attribute__((format(printf, 3, 4)))
static int fail(char *why, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, len, fmt, ap);
	va_end(ap);
	return -1;
}

/* Link of level @lvl, direction @dir, that message @m uses at that stage. */
static u32 msg_link(const struct ft_topo *t, const struct ft_cycle_msg *m,
		    u32 lvl, u32 dir, u32 port)
{
	u32 leaf = dir == FT_UP ? m->src : m->dst;
	u32 y = dir == FT_UP ? m->y : m->y / t->w[lvl];
	u32 node = ft_topo_node(t, lvl - 1, leaf / t->mprod[lvl - 1], y);

	return ft_topo_dlink(t, lvl, node * t->w[lvl] + port, dir);
}

static u32 used(const struct ft_cycle_scratch *sc, u32 id)
{
	return sc->lc[id].carried - sc->lc[id].circuit;
}

/* A message stopped by a link must have found it full. */
static int check_blocked(const struct ft_fabric *f,
			 const struct ft_cycle_msg *m, char *why, size_t len)
{
	const struct ft_topo *t = &f->topo;
	const struct ft_cycle_scratch *sc = &f->scratch;
	u32 lvl, id, p;

	if (m->hops >= m->hh) {		/* down stage */
		lvl = 2 * m->hh - m->hops;
		id = msg_link(t, m, lvl, FT_DOWN, m->y % t->w[lvl]);
		if (used(sc, id) != ft_lanes_free(&f->lanes, id))
			return fail(why, len, "blocked down at %u with %u/%u",
				    id, used(sc, id),
				    ft_lanes_free(&f->lanes, id));
		return 0;
	}
	lvl = m->hops + 1;
	switch (ft_path_default(f->cfg.path)) {
	case FT_PATH_DMODK:
		id = msg_link(t, m, lvl, FT_UP,
			      ft_topo_dmodk_port(t, m->dst, lvl));
		if (used(sc, id) != ft_lanes_free(&f->lanes, id))
			return fail(why, len, "dmodk blocked up at free %u", id);
		break;
	case FT_PATH_FIRSTFREE:
		if (!sc->lc[msg_link(t, m, lvl, FT_UP, 0)].blocked)
			return fail(why, len, "firstfree block not on port 0");
		for (p = 0; p < t->w[lvl]; p++) {
			id = msg_link(t, m, lvl, FT_UP, p);
			if (used(sc, id) != ft_lanes_free(&f->lanes, id))
				return fail(why, len,
					    "firstfree blocked, port %u free",
					    p);
		}
		break;
	default:
		break;
	}
	return 0;
}

static int check_links(const struct ft_fabric *f, const struct ft_offer *off,
		       const struct ft_offer_circuit *oc, u32 noff,
		       const struct ft_cycle_result *res, char *why,
		       size_t len)
{
	const struct ft_cycle_scratch *sc = &f->scratch;
	u64 carried = 0, circ = 0, blocked = 0, want_circ = 0;
	u32 i, id;
	int err = 0;

	/* No bit past the last link. */
	if (sc->nlinks % 64 && sc->touched[sc->nlinks / 64] >> (sc->nlinks % 64))
		return fail(why, len, "a link past %u marked touched",
			    sc->nlinks);
	for (id = 0; id < sc->nlinks && !err; id++) {
		const struct ft_link_cycle *lc = &sc->lc[id];
		bool seen = sc->touched[id / 64] >> (id % 64) & 1;

		if (seen && !lc->carried && !lc->blocked)
			err = fail(why, len, "link %u marked, not used", id);
		else if (!seen && (lc->carried || lc->blocked))
			err = fail(why, len, "link %u used, not marked", id);
		else if (lc->carried > f->lanes.link[id].lanes)
			err = fail(why, len, "link %u carried %u > lanes %u",
				   id, lc->carried, f->lanes.link[id].lanes);
		else if (used(sc, id) > ft_lanes_free(&f->lanes, id))
			err = fail(why, len, "link %u used %u > free %u", id,
				   used(sc, id), ft_lanes_free(&f->lanes, id));
		carried += used(sc, id);
		circ += lc->circuit;
		blocked += lc->blocked;
	}
	if (err)
		return err;
	for (i = 0; i < noff; i++)
		if (oc && oc[i].lanes)
			want_circ += (u64)ft_min_u32(off[i].count,
						     oc[i].lanes) *
				     oc[i].path->n;
	for (i = 0; i < sc->nmsgs; i++)
		carried -= sc->msg[i].hops;
	if (carried)
		return fail(why, len, "link totals != sum of hops");
	if (circ != want_circ)
		return fail(why, len, "circuit carriage %llu != %llu",
			    (unsigned long long)circ,
			    (unsigned long long)want_circ);
	if (blocked != res->blocked)
		return fail(why, len, "blocked per link != result");
	return 0;
}

/* With dmodk every message's path is known: recount every link. */
static int check_dmodk(const struct ft_fabric *f, char *why, size_t len)
{
	const struct ft_topo *t = &f->topo;
	const struct ft_cycle_scratch *sc = &f->scratch;
	u32 *cnt = calloc(sc->nlinks, sizeof(u32));
	u32 port[FT_MAX_LEVELS], i, k, id;
	struct ft_path p;
	int err = 0;

	for (i = 0; i < sc->nmsgs; i++) {
		const struct ft_cycle_msg *m = &sc->msg[i];

		for (k = 1; k <= m->hh; k++)
			port[k - 1] = ft_topo_dmodk_port(t, m->dst, k);
		ft_topo_path(t, m->src, m->dst, port, &p);
		for (k = 0; k < m->hops; k++)
			cnt[p.link[k]]++;
	}
	for (id = 0; id < sc->nlinks && !err; id++)
		if (cnt[id] != used(sc, id))
			err = fail(why, len, "dmodk recount of %u: %u != %u",
				   id, cnt[id], used(sc, id));
	free(cnt);
	return err;
}

int check_cycle(const struct ft_fabric *f, const struct ft_offer *off,
		const struct ft_offer_circuit *oc, u32 noff,
		const struct ft_cycle_result *res, char *why, size_t len)
{
	const struct ft_cycle_scratch *sc = &f->scratch;
	u32 *alive = calloc(noff + 1, sizeof(u32));
	u64 offered = 0, delivered = 0;
	u32 i;
	int err = check_links(f, off, oc, noff, res, why, len);

	for (i = 0; i < sc->nmsgs && !err; i++) {
		const struct ft_cycle_msg *m = &sc->msg[i];
		bool dead = m->flags & FT_MSG_DEAD;

		if (i > m->first && (sc->msg[i - 1].flags & FT_MSG_DEAD) &&
		    !dead)
			err = fail(why, len, "pair order: msg %u overtook", i);
		else if (!dead && m->hops != 2 * m->hh)
			err = fail(why, len, "delivered msg %u short path", i);
		else if (dead && !(m->flags & FT_MSG_ORDER))
			err = check_blocked(f, m, why, len);
		if (!dead)
			alive[m->offer]++;
	}
	for (i = 0; i < noff && !err; i++) {
		u32 circ = ft_min_u32(off[i].count, oc ? oc[i].lanes : 0);

		offered += off[i].count;
		delivered += off[i].delivered;
		if (off[i].delivered != circ + alive[i])
			err = fail(why, len, "offer %u delivered %u != %u", i,
				   off[i].delivered, circ + alive[i]);
	}
	free(alive);
	if (err)
		return err;
	if (offered != res->offered || delivered != res->delivered ||
	    res->delivered + res->blocked + res->order_blocked +
	    res->uncarried + res->failed != res->offered)
		return fail(why, len, "cycle totals inconsistent");
	if (ft_path_default(f->cfg.path) == FT_PATH_DMODK)
		return check_dmodk(f, why, len);
	return 0;
}

int sim_init(struct sim *s, const struct ft_fabric_params *p,
	     const struct ft_demand *dm, u32 nd)
{
	u32 i;
	int err;

	memset(s, 0, sizeof(*s));
	err = ft_fabric_init(&s->f, p);
	if (err)
		return err;
	s->pair = calloc(nd + 1, sizeof(*s->pair));
	s->off = calloc(nd + 1, sizeof(*s->off));
	s->oc = calloc(nd + 1, sizeof(*s->oc));
	s->off_pair = calloc(nd + 1, sizeof(u32));
	s->npairs = nd;
	for (i = 0; i < nd; i++) {
		s->pair[i].src = dm[i].src;
		s->pair[i].dst = dm[i].dst;
		s->pair[i].queued = dm[i].count;
		s->backlog += dm[i].count;
	}
	return 0;
}

int sim_step(struct sim *s, struct ft_cycle_result *res)
{
	struct ft_inject *inj = &s->f.inject;
	u32 i, n = 0, k, budget = s->f.scratch.max_msgs;
	int err;

	ft_inject_begin(inj, s->backlog);
	for (i = 0; i < s->npairs; i++) {
		struct sim_pair *sp = &s->pair[i];
		u32 c;

		if (!sp->queued)
			continue;
		c = ft_inject_offer(inj, &s->f.rand, &sp->ips, sp->queued);
		if (!c)
			continue;
		/* Keep within the scratch: the rest wait (tests size it). */
		c = ft_min_u32(c, budget);
		budget -= c;
		s->off[n].src = sp->src;
		s->off[n].dst = sp->dst;
		s->off[n].count = c;
		s->oc[n].lanes = sp->clanes;
		s->oc[n].path = sp->clanes ? &sp->cpath : NULL;
		s->off[n].delivered = 0;
		s->off[n].lca = 0;	/* reused for another pair */
		s->off_pair[n++] = i;
	}
	err = ft_fabric_cycle(&s->f, s->off, s->oc, n, res);
	if (err)
		return err;
	if (check_cycle(&s->f, s->off, s->oc, n, res, s->why,
			sizeof(s->why)))
		s->violations++;
	for (k = 0; k < n; k++) {
		struct sim_pair *sp = &s->pair[s->off_pair[k]];

		ft_inject_pair_done(inj, &sp->ips, s->off[k].count,
				    s->off[k].delivered);
		sp->queued -= s->off[k].delivered;
		sp->sent_seq += s->off[k].delivered;
		s->backlog -= s->off[k].delivered;
		s->delivered += s->off[k].delivered;
	}
	ft_inject_end(inj);
	s->cycles++;
	return 0;
}

u64 sim_run(struct sim *s, u64 max_cycles)
{
	struct ft_cycle_result res;

	while (s->backlog && s->cycles < max_cycles)
		if (sim_step(s, &res))
			break;
	return s->cycles;
}

void sim_destroy(struct sim *s)
{
	ft_fabric_destroy(&s->f);
	free(s->pair);
	free(s->off);
	free(s->oc);
	free(s->off_pair);
	memset(s, 0, sizeof(*s));
}

/* A small random XGFT: h levels, m 2..4, w 1..3, lanes 1..3. */
void random_shape(struct ft_rand *r, u32 *h, u32 *m, u32 *w, u32 *lanes,
		  u32 max_h)
{
	u32 i;

	*h = 1 + ft_rand_below(r, max_h);
	for (i = 0; i < *h; i++) {
		m[i] = 2 + ft_rand_below(r, 3);
		w[i] = 1 + ft_rand_below(r, 3);
		lanes[i] = 1 + ft_rand_below(r, 3);
	}
}

/* A random_shape() topology in @t: ft_topo_init()'s result. */
int random_topo(struct ft_rand *r, struct ft_topo *t, u32 max_h)
{
	u32 h, m[FT_MAX_LEVELS], w[FT_MAX_LEVELS], c[FT_MAX_LEVELS];

	random_shape(r, &h, m, w, c, max_h);
	return ft_topo_init(t, h, m, w, c);
}

void random_params(struct ft_rand *r, struct ft_fabric_params *p, u32 max_h)
{
	u32 h, m[FT_MAX_LEVELS], w[FT_MAX_LEVELS], c[FT_MAX_LEVELS];

	random_shape(r, &h, m, w, c, max_h);
	fabric_params(p, h, m, w, c);
}
