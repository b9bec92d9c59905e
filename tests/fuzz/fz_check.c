// SPDX-License-Identifier: GPL-2.0
/*
 * The engine core's invariants (see fz_check.h).
 */
#include "fz_check.h"
#include "fz_trap.h"

void fz_check_circuits(const struct ft_circuits *cs, const struct ft_lanes *l,
		       const struct fz_model *md)
{
	u64 *sum = calloc(l->n ? l->n : 1, sizeof(*sum));
	u32 port[FT_MAX_LEVELS], k, i, s;
	const struct ft_circuit *c;
	char why[160];

	if (!sum)
		abort();
	FZ_CHECK(cs->n + cs->nfree == cs->cap, "%u circuits + %u free slots of %u",
		 cs->n, cs->nfree, cs->cap);
	for (k = 0; k < cs->n; k++) {
		s = cs->active[k];
		FZ_CHECK(s < cs->cap && cs->where[s] == k, "active[%u] = %u", k, s);
		c = &cs->c[s];
		FZ_CHECK(c->lanes >= 1 && ft_circuits_find(cs, c->src, c->dst) == c,
			 "circuit %u -> %u not found, or 0 lanes", c->src, c->dst);
		for (i = 0; i < FT_MAX_LEVELS; i++)
			port[i] = c->port[i];
		FZ_CHECK(!fz_model_path(md, c->src, c->dst, port, &c->path, why,
					sizeof(why)),
			 "circuit %u -> %u: %s", c->src, c->dst, why);
		for (i = 0; i < c->path.n; i++)
			sum[c->path.link[i]] += c->lanes;
	}
	for (i = 0; i < l->n; i++)
		FZ_CHECK(l->link[i].reserved == sum[i] &&
			 l->link[i].reserved <= l->link[i].lanes,
			 "link %u: %u lanes, %u reserved, circuits hold %llu", i,
			 l->link[i].lanes, l->link[i].reserved,
			 (unsigned long long)sum[i]);
	FZ_CHECK(ft_lanes_check(l) == -1, "ft_lanes_check");
	free(sum);
}

static void fz_check_links(const struct ft_fabric *f, const struct ft_lanes *l)
{
	const struct ft_link_cycle *lc;
	const struct ft_link *k;
	u32 i;

	for (i = 0; i < l->n; i++) {
		lc = &f->scratch.lc[i];
		k = &l->link[i];
		FZ_CHECK(lc->carried <= k->lanes && lc->circuit <= k->reserved &&
			 lc->carried - lc->circuit <= ft_lanes_free(l, i),
			 "link %u carried %u (%u on circuits) with %u lanes, %u reserved",
			 i, lc->carried, lc->circuit, k->lanes, k->reserved);
		FZ_CHECK(f->stats[i].max_cycle <= k->lanes,
			 "link %u: %u in one cycle, %u lanes", i,
			 f->stats[i].max_cycle, k->lanes);
	}
}

void fz_check_cycle(const struct ft_fabric *f, const struct ft_lanes *l,
		    const struct ft_offer *off, const struct ft_offer_circuit *oc,
		    u32 noff, const struct ft_cycle_result *res,
		    const struct fz_model *md)
{
	u64 offered = 0, delivered = 0, circ = 0, hops = 0, chops = 0, carried = 0;
	u64 beyond = 0;		/* delivered beyond circuits, between two leaves */
	u32 i, c, hh;

	fz_check_links(f, l);
	for (i = 0; i < noff; i++) {
		c = ft_min_u32(off[i].count, oc ? oc[i].lanes : 0);
		hh = fz_model_common(md, off[i].src, off[i].dst);
		FZ_CHECK(off[i].delivered >= c && off[i].delivered <= off[i].count,
			 "offer %u (%u -> %u): %u delivered of %u, circuit %u", i,
			 off[i].src, off[i].dst, off[i].delivered, off[i].count,
			 c);
		offered += off[i].count;
		delivered += off[i].delivered;
		circ += c;
		if (off[i].src != off[i].dst)
			beyond += off[i].delivered - c;
		hops += (u64)off[i].delivered * 2 * hh;
		chops += (u64)c * 2 * hh;
	}
	for (i = 0; i < f->lanes.n; i++) {
		carried += f->scratch.lc[i].carried;
		chops -= f->scratch.lc[i].circuit;
	}
	FZ_CHECK(res->offered == offered && res->delivered == delivered &&
		 res->circuit == circ,
		 "totals: offered %u/%llu delivered %u/%llu circuit %u/%llu",
		 res->offered, (unsigned long long)offered, res->delivered,
		 (unsigned long long)delivered, res->circuit,
		 (unsigned long long)circ);
	FZ_CHECK((u64)res->delivered + res->blocked + res->order_blocked +
		 res->uncarried == res->offered,
		 "%u offered: %u delivered, %u blocked, %u behind, %u uncarried",
		 res->offered, res->delivered, res->blocked, res->order_blocked,
		 res->uncarried);
	/* A leaf's messages to itself cross no link and need no circuit. */
	FZ_CHECK(f->cfg.path != FT_PATH_CIRCUIT || !beyond,
		 "path circuit delivered %llu beyond circuits", (unsigned long long)beyond);
	FZ_CHECK(carried >= hops && !chops,
		 "links carried %llu, deliveries crossed %llu (circuits off by %lld)",
		 (unsigned long long)carried, (unsigned long long)hops,
		 (long long)chops);
}
