// SPDX-License-Identifier: GPL-2.0
/*
 * Harness: delivery cycles (kmod/core ft_cycle through ft_fabric, and
 * ft_pairs), with circuits.
 *
 * A small fabric (any path choice, arbitration, injection rule, seed and
 * scratch size) and a circuit table, then operations from the bytes:
 * admit or delete circuits, and run cycles. Direct mode offers arbitrary
 * (source, destination, count) sets to ft_fabric_cycle(), a pair's
 * circuit lanes shared among its offers, and expects exactly the refusals
 * ft_cycle_run() documents. Pairs mode queues messages per (source,
 * destination, flow) in ft_pairs and lets ft_pairs_cycle() choose the
 * offers, release ended leases and return drained pairs. After every
 * cycle: the lanes invariant and the totals (fz_check_cycle()), the
 * circuits' reservations (fz_check_circuits()), and in pairs mode every
 * message accounted for against a model of the queues, and the demand
 * listing. Every input runs twice and must leave the same per-link
 * totals, queues and circuits: a run is a function of the seed.
 */
#include <stdint.h>

#include "ft_pairs.h"
#include "fz_check.h"
#include "fz_shape.h"
#include "fz_trap.h"

#define FLOWS		3
#define MAX_OFFERS	16
#define MAX_BATCH	6
#define MAX_OPS		48

static const struct fz_limits lim = { .h = 3, .m = 4, .w = 3, .lanes = 3, .n = 32 };

struct rig {
	struct ft_fabric f;
	struct ft_circuits cs;
	struct fz_model md;
	struct ft_pairs q;
	bool pairs;		/* pairs mode */
	u32 *model;		/* pairs mode: queued per (src, dst, flow) */
	u32 nmodel;		/* its non-zero entries */
	struct ft_lanes before;	/* lanes as the last cycle saw them */
};

static u32 *slot(struct rig *r, u32 src, u32 dst, u32 tag)
{
	return &r->model[((size_t)src * r->f.topo.n + dst) * FLOWS + tag];
}

static u32 leaf(struct fz_bytes *b, const struct rig *r)
{
	return fz_range(b, 0, r->f.topo.n - 1);
}

/* --- circuits --- */

static void op_circuits_add(struct fz_bytes *b, struct rig *r)
{
	struct ft_circuit_req req[MAX_BATCH];
	u32 n = fz_range(b, 1, MAX_BATCH), i, k, bad;

	memset(req, 0, sizeof(req));
	for (i = 0; i < n; i++) {
		req[i].src = leaf(b, r);
		req[i].dst = leaf(b, r);
		req[i].lanes = fz_range(b, 1, lim.lanes);
		req[i].lease = fz_range(b, 0, 6);
		for (k = 0; k < r->f.topo.h; k++)
			req[i].port[k] = (u8)fz_range(b, 0, r->f.topo.w[k + 1] - 1);
	}
	ft_circuits_add(&r->cs, &r->f.topo, &r->f.lanes, req, n, r->f.cycle, &bad);
}

static void op_circuits_del(struct fz_bytes *b, struct rig *r)
{
	const struct ft_circuit *c;
	u32 pair[2], bad;

	if (!r->cs.n)
		return;
	c = &r->cs.c[r->cs.active[fz_range(b, 0, r->cs.n - 1)]];
	pair[0] = c->src;
	pair[1] = c->dst;
	FZ_CHECK(!ft_circuits_del(&r->cs, &r->f.lanes, pair, 1, &bad),
		 "deleting the circuit of %u -> %u", pair[0], pair[1]);
}

/* --- direct mode: offers straight to the cycle --- */

/* Under path choice circuit only a leaf's messages to itself contend. */
static u32 contending(const struct rig *r, const struct ft_offer *o,
		      const struct ft_offer_circuit *oc)
{
	return r->f.cfg.path == FT_PATH_CIRCUIT && o->src != o->dst ? 0 :
	       o->count - ft_min_u32(o->count, oc->lanes);
}

/* A pair's offers share its circuit: each gets what the earlier ones left. */
static void attach_circuit(const struct rig *r, const struct ft_offer *off,
			   struct ft_offer_circuit *oc, u32 i)
{
	const struct ft_circuit *c = ft_circuits_find(&r->cs, off[i].src, off[i].dst);
	u32 used = 0, k;

	if (!c)
		return;
	for (k = 0; k < i; k++)
		if (off[k].src == off[i].src && off[k].dst == off[i].dst)
			used += ft_min_u32(off[k].count, oc[k].lanes);
	if (used < c->lanes) {
		oc[i].lanes = c->lanes - used;
		oc[i].path = &c->path;
	}
}

static void op_direct_cycle(struct fz_bytes *b, struct rig *r)
{
	struct ft_offer off[MAX_OFFERS];
	struct ft_offer_circuit oc[MAX_OFFERS];
	u32 noff = fz_range(b, 0, MAX_OFFERS), i, n = r->f.topo.n;
	u64 cycle = r->f.cycle, total = 0;
	struct ft_cycle_result res;
	int err, want = 0;

	memset(off, 0, sizeof(off));
	memset(oc, 0, sizeof(oc));
	for (i = 0; i < noff; i++) {
		off[i].src = fz_u8(b) % 32 ? leaf(b, r) : fz_u32(b);
		off[i].dst = fz_u8(b) % 32 ? leaf(b, r) : fz_u32(b);
		off[i].count = fz_u8(b) % 16 ? fz_range(b, 0, 6) :
			       fz_range(b, 0, 2 * r->f.scratch.max_msgs);
		if (off[i].src >= n || off[i].dst >= n)
			want = -FT_EINVAL;
		else
			attach_circuit(r, off, oc, i);
		total += contending(r, &off[i], &oc[i]);
	}
	if (!want && total > r->f.scratch.max_msgs)
		want = -FT_E2BIG;
	err = ft_fabric_cycle(&r->f, off, oc, noff, &res);
	FZ_CHECK(err == want, "a cycle of %u offers: %d, expected %d", noff, err, want);
	if (err) {
		FZ_CHECK(r->f.cycle == cycle, "a refused cycle was counted");
		return;
	}
	fz_check_cycle(&r->f, &r->f.lanes, off, oc, noff, &res, &r->md);
	ft_circuits_expire(&r->cs, &r->f.lanes, r->f.cycle);
}

/* --- pairs mode: queues, and the cycle choosing the offers --- */

static void op_pairs_add(struct fz_bytes *b, struct rig *r)
{
	u32 src = leaf(b, r), dst = leaf(b, r), tag = fz_range(b, 0, FLOWS - 1);
	u32 count = fz_u8(b) % 16 ? fz_range(b, 1, 8) : fz_range(b, 1, UINT32_MAX);
	u32 *m = slot(r, src, dst, tag), s;
	int err, want = 0;

	if (!*m && r->nmodel == r->q.cap)
		want = -FT_ENOSPC;
	else if (*m > UINT32_MAX - count)
		want = -FT_ERANGE;
	err = ft_pairs_add(&r->q, src, dst, tag, count, r->f.cycle, &s);
	FZ_CHECK(err == want, "adding %u to %u -> %u flow %u (%u queued): %d, expected %d",
		 count, src, dst, tag, *m, err, want);
	if (err)
		return;
	FZ_CHECK(r->q.pair[s].src == src && r->q.pair[s].dst == dst &&
		 r->q.pair[s].tag == tag, "slot %u is another pair", s);
	r->nmodel += !*m;
	*m += count;
}

static void on_delivered(void *arg, u32 s, const struct ft_pair *p, u32 n)
{
	struct rig *r = arg;
	u32 *m = slot(r, p->src, p->dst, p->tag);

	FZ_CHECK(s < r->q.cap && n && n <= *m && p->queued == *m - n,
		 "%u -> %u flow %u: %u delivered, %u left, %u were queued", p->src,
		 p->dst, p->tag, n, p->queued, *m);
	*m -= n;
	r->nmodel -= !*m;
}

/* The demand listing: every pair short of lanes once, with its backlog. */
static void check_demand(struct rig *r)
{
	struct ft_pairs_demand out[4];
	u32 pos = 0, got, i, k, t, listed = 0, want = 0, n = r->f.topo.n;
	const struct ft_circuit *c;
	u64 backlog;

	do {
		/* At most 4 entries, and 3 or 8 pairs looked at: both bounds. */
		got = ft_pairs_demand(&r->q, &r->cs, FLOWS, r->f.cycle, &pos, out, 4,
				      pos % 2 ? 3 : 8);
		for (k = 0; k < got; k++) {
			FZ_CHECK(out[k].src < n && out[k].dst < n && out[k].src != out[k].dst,
				 "demand of no pair, or of a leaf to itself");
			c = ft_circuits_find(&r->cs, out[k].src, out[k].dst);
			for (backlog = 0, t = 0; t < FLOWS; t++)
				backlog += *slot(r, out[k].src, out[k].dst, t);
			/* the listing saturates at U32_MAX */
			FZ_CHECK(out[k].backlog == ft_min_u64(backlog, UINT32_MAX) &&
				 out[k].circuit_lanes == (c ? c->lanes : 0) &&
				 backlog > out[k].circuit_lanes && out[k].age <= r->f.cycle,
				 "demand %u -> %u: backlog %u of %llu, circuit %u",
				 out[k].src, out[k].dst, out[k].backlog,
				 (unsigned long long)backlog, out[k].circuit_lanes);
		}
		listed += got;
	} while (pos < r->q.nactive);
	FZ_CHECK(pos == r->q.nactive, "the demand listing stopped at %u of %u", pos,
		 r->q.nactive);
	/* A leaf's messages to itself need no circuit: never in demand. */
	for (i = 0; i < n * n; i++) {
		if (i / n == i % n)
			continue;
		c = ft_circuits_find(&r->cs, i / n, i % n);
		for (backlog = 0, t = 0; t < FLOWS; t++)
			backlog += r->model[(size_t)i * FLOWS + t];
		want += backlog > (c ? c->lanes : 0);
	}
	FZ_CHECK(listed == want, "%u pairs in demand listed, %u are", listed, want);
}

static void check_queues(struct rig *r)
{
	u64 sum = 0;
	u32 k;
	const struct ft_pair *p;

	FZ_CHECK(r->q.nactive == r->nmodel && r->q.nactive + r->q.nfree == r->q.cap,
		 "%u active pairs, %u in the model, %u free of %u", r->q.nactive,
		 r->nmodel, r->q.nfree, r->q.cap);
	for (k = 0; k < r->q.nactive; k++) {
		p = &r->q.pair[r->q.active[k]];
		FZ_CHECK(p->queued && p->queued == *slot(r, p->src, p->dst, p->tag),
			 "%u -> %u flow %u: %u queued, model %u", p->src, p->dst,
			 p->tag, p->queued, *slot(r, p->src, p->dst, p->tag));
		sum += p->queued;
	}
	FZ_CHECK(r->q.queued == sum, "%llu queued in all, pairs hold %llu",
		 (unsigned long long)r->q.queued, (unsigned long long)sum);
}

static void op_pairs_cycle(struct rig *r)
{
	struct ft_cycle_result res;
	u64 queued = r->q.queued;
	int err;

	memcpy(r->before.link, r->f.lanes.link, r->f.lanes.n * sizeof(*r->before.link));
	err = ft_pairs_cycle(&r->q, &r->f, &r->cs, on_delivered, r, &res);
	FZ_CHECK(!err, "ft_pairs_cycle: %d", err);
	fz_check_cycle(&r->f, &r->before, r->q.off, r->q.noff_circ, r->q.noff,
		       &res, &r->md);
	FZ_CHECK(r->q.queued == queued - res.delivered, "%llu queued after %u of %llu",
		 (unsigned long long)r->q.queued, res.delivered,
		 (unsigned long long)queued);
	check_queues(r);
	check_demand(r);
}

/* --- set up --- */

static void rig_init(struct fz_bytes *b, struct rig *r)
{
	struct ft_fabric_params p = { 0 };
	u32 lanes[FT_MAX_LEVELS];
	int err;

	memset(r, 0, sizeof(*r));
	r->pairs = fz_u8(b) & 1;
	p.h = fz_shape(b, &lim, p.m, p.w, lanes);
	p.profile.kind = FT_PROFILE_EXPLICIT;
	memcpy(p.profile.table, lanes, sizeof(lanes));
	p.path = fz_range(b, 0, FT_PATH_NR - 1);
	p.arb = fz_range(b, 0, FT_ARB_NR - 1);
	p.inject.rule = fz_range(b, 0, FT_INJECT_NR - 1);
	if (fz_u8(b) & 1) {	/* RANDOM's constants: r 1..4, k1, k2 up to 16 */
		p.inject.r_q16 = fz_range(b, FT_Q16_ONE, 4 * FT_Q16_ONE);
		p.inject.k1_q16 = fz_range(b, 0, 16 * FT_Q16_ONE);
		p.inject.k2_q16 = fz_range(b, 0, 16 * FT_Q16_ONE);
	}
	p.seed = fz_u64(b);
	p.max_msgs = fz_range(b, 1, 64);
	err = ft_fabric_init(&r->f, &p);
	FZ_CHECK(!err, "ft_fabric_init of a valid small fabric: %d", err);
	if (!fz_model_init(&r->md, p.h, p.m, p.w, lanes) ||
	    ft_circuits_init(&r->cs, fz_range(b, 1, 16)) ||
	    ft_pairs_init(&r->q, fz_range(b, 1, 24)) ||
	    ft_lanes_init(&r->before, &r->f.topo))
		fz_fail("setting up a small fabric");
	r->model = calloc((size_t)r->f.topo.n * r->f.topo.n * FLOWS, sizeof(u32));
	if (!r->model)
		abort();
}

static void rig_destroy(struct rig *r)
{
	free(r->model);
	ft_lanes_destroy(&r->before);
	ft_pairs_destroy(&r->q);
	ft_circuits_destroy(&r->cs);
	ft_fabric_destroy(&r->f);
}

/* FNV-1a over what a run leaves: per-link totals, queues, circuits. */
static u64 mix(u64 h, u64 v)
{
	u32 k;

	for (k = 0; k < 8; k++, v >>= 8)
		h = (h ^ (v & 0xff)) * 0x100000001b3ULL;
	return h;
}

static u64 digest(const struct rig *r)
{
	const struct ft_link_stats *st;
	const struct ft_circuit *c;
	u64 h = mix(0xcbf29ce484222325ULL, r->f.cycle);
	u32 k;

	for (k = 0; k < r->f.lanes.n; k++) {
		st = &r->f.stats[k];
		h = mix(mix(mix(mix(h, st->carried), st->blocked), st->saturated),
			st->max_cycle);
	}
	for (k = 0; k < r->q.nactive; k++)
		h = mix(mix(h, r->q.active[k]), r->q.pair[r->q.active[k]].queued);
	for (k = 0; k < r->cs.n; k++) {
		c = &r->cs.c[r->cs.active[k]];
		h = mix(mix(mix(h, c->src), c->dst), c->carried);
	}
	return h;
}

static u64 run(const uint8_t *data, size_t size)
{
	struct fz_bytes b = { data, size };
	struct rig r;
	u64 h;
	u32 op;

	rig_init(&b, &r);
	for (op = 0; op < MAX_OPS && fz_more(&b); op++) {
		switch (fz_u8(&b) % 6) {
		case 0:
			op_circuits_add(&b, &r);
			break;
		case 1:
			op_circuits_del(&b, &r);
			break;
		case 2:
		case 3:
			if (r.pairs)
				op_pairs_add(&b, &r);
			else
				op_direct_cycle(&b, &r);
			break;
		default:
			if (r.pairs)
				op_pairs_cycle(&r);
			else
				op_direct_cycle(&b, &r);
			break;
		}
		fz_check_circuits(&r.cs, &r.f.lanes, &r.md);
	}
	h = digest(&r);
	rig_destroy(&r);
	return h;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* A run is a function of the seed and the operations (ftsim replay
	 * and the kernel must agree): twice the same input, one history.
	 */
	FZ_CHECK(run(data, size) == run(data, size),
		 "the same input gave two different histories");
	return 0;
}
