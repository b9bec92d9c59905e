// SPDX-License-Identifier: GPL-2.0
/*
 * Harness: the circuit table (kmod/core ft_circuits) under arbitrary
 * batches.
 *
 * A small fabric and a table of 1..48 slots, then operations from the
 * bytes at an advancing cycle count: admit a batch (requests mostly well
 * formed, sometimes with leaves out of range, 0 or too many lanes, ports
 * beyond w_i, pairs that have a circuit or come twice), delete a batch
 * (pairs with circuits, without, twice), expire leases. Every result is
 * the one a model of the three admission passes predicts, error and
 * offending index; a refused batch leaves the table byte for byte as it
 * was; an admitted one installs exactly its circuits; and after every
 * operation each link's reserved lanes are the sum of its circuits'
 * lanes, never above its lanes (fz_check_circuits()).
 */
#include <stdint.h>

#include "ft_circuits.h"
#include "fz_check.h"
#include "fz_shape.h"
#include "fz_trap.h"

#define MAX_BATCH	12
#define MAX_OPS		64

static const struct fz_limits lim = { .h = 4, .m = 4, .w = 4, .lanes = 3, .n = 64 };

struct table {
	struct ft_topo t;
	struct fz_model md;
	struct ft_lanes l;
	struct ft_circuits cs;
	u64 now;
};

/* A copy of everything a refused batch must leave as it was. */
struct snap {
	struct ft_circuits cs;
	struct ft_circuit *c;
	u32 *arrays;		/* bucket, active, where, free */
	struct ft_link *link;
};

static void snap_take(struct snap *s, const struct table *tb)
{
	const struct ft_circuits *cs = &tb->cs;
	size_t nb = cs->hmask + 1;

	s->cs = *cs;
	s->c = malloc(cs->cap * sizeof(*s->c));
	s->arrays = malloc((nb + 3 * cs->cap) * sizeof(u32));
	s->link = malloc(tb->l.n * sizeof(*s->link));
	if (!s->c || !s->arrays || !s->link)
		abort();
	memcpy(s->c, cs->c, cs->cap * sizeof(*s->c));
	memcpy(s->arrays, cs->bucket, nb * sizeof(u32));
	memcpy(s->arrays + nb, cs->active, cs->cap * sizeof(u32));
	memcpy(s->arrays + nb + cs->cap, cs->where, cs->cap * sizeof(u32));
	memcpy(s->arrays + nb + 2 * cs->cap, cs->free, cs->cap * sizeof(u32));
	memcpy(s->link, tb->l.link, tb->l.n * sizeof(*s->link));
}

static bool snap_same(const struct snap *s, const struct table *tb)
{
	const struct ft_circuits *cs = &tb->cs;
	size_t nb = cs->hmask + 1;

	return cs->n == s->cs.n && cs->nfree == s->cs.nfree &&
	       !memcmp(cs->c, s->c, cs->cap * sizeof(*s->c)) &&
	       !memcmp(cs->bucket, s->arrays, nb * sizeof(u32)) &&
	       !memcmp(cs->active, s->arrays + nb, cs->cap * sizeof(u32)) &&
	       !memcmp(cs->where, s->arrays + nb + cs->cap, cs->cap * sizeof(u32)) &&
	       !memcmp(cs->free, s->arrays + nb + 2 * cs->cap, cs->cap * sizeof(u32)) &&
	       !memcmp(tb->l.link, s->link, tb->l.n * sizeof(*s->link));
}

static void snap_free(struct snap *s)
{
	free(s->c);
	free(s->arrays);
	free(s->link);
}

static void ports_of(const struct ft_circuit_req *r, u32 *port)
{
	u32 i;

	for (i = 0; i < FT_MAX_LEVELS; i++)
		port[i] = r->port[i];
}

static bool malformed(const struct table *tb, const struct ft_circuit_req *r)
{
	u32 i, hh;

	if (r->src >= tb->t.n || r->dst >= tb->t.n || !r->lanes ||
	    r->lanes > FT_MAX_LANES)
		return true;
	hh = fz_model_common(&tb->md, r->src, r->dst);
	for (i = 1; i <= hh; i++)
		if (r->port[i - 1] >= tb->t.w[i])
			return true;
	return false;
}

/* Pass 3 of the model: lanes reserved path by path, in request order. */
static int expect_lanes(const struct table *tb, const struct ft_circuit_req *req,
			u32 n, u32 *bad)
{
	u64 *held = calloc(tb->l.n, sizeof(*held)), id[2 * FT_MAX_LEVELS];
	u32 port[FT_MAX_LEVELS], i, k, len;
	int err = 0;

	if (!held)
		abort();
	for (i = 0; i < tb->l.n; i++)
		held[i] = tb->l.link[i].reserved;
	for (i = 0; i < n && !err; i++) {
		ports_of(&req[i], port);
		len = fz_model_links(&tb->md, req[i].src, req[i].dst, port, id);
		for (k = 0; k < len; k++)
			if (tb->l.link[id[k]].lanes < held[id[k]] + req[i].lanes)
				err = -FT_ENOSPC;
		for (k = 0; k < len; k++)
			held[id[k]] += req[i].lanes;
		*bad = i;
	}
	free(held);
	return err;
}

/* What ft_circuits_add() must answer, from a model of its passes. */
static int expect_add(const struct table *tb, const struct ft_circuit_req *req,
		      u32 n, u32 *bad)
{
	u32 i, j;
	bool twice;

	for (*bad = 0; *bad < n; ++*bad)
		if (malformed(tb, &req[*bad]))
			return -FT_EINVAL;
	for (i = 0; i < n; i++) {
		*bad = i;
		twice = ft_circuits_find(&tb->cs, req[i].src, req[i].dst);
		for (j = 0; j < i; j++)
			twice |= req[j].src == req[i].src && req[j].dst == req[i].dst;
		if (twice)
			return -FT_EEXIST;
		if (i >= tb->cs.nfree)
			return -FT_ENOSPC;
	}
	return expect_lanes(tb, req, n, bad);
}

static void installed(const struct table *tb, const struct ft_circuit_req *r)
{
	const struct ft_circuit *c = ft_circuits_find(&tb->cs, r->src, r->dst);
	u32 hh = fz_model_common(&tb->md, r->src, r->dst), i;
	u64 expires = !r->lease ? 0 : tb->now > UINT64_MAX - r->lease ?
		      UINT64_MAX : tb->now + r->lease;

	FZ_CHECK(c && c->lanes == r->lanes && c->expires == expires &&
		 c->created == tb->now && !c->carried,
		 "admitted %u -> %u: lanes %u expires %llu", r->src, r->dst,
		 c ? c->lanes : 0, c ? (unsigned long long)c->expires : 0ULL);
	for (i = 0; i < FT_MAX_LEVELS; i++)
		FZ_CHECK(c->port[i] == (i < hh ? r->port[i] : 0),
			 "admitted %u -> %u: port %u is %u", r->src, r->dst, i,
			 c->port[i]);
}

static u32 pick_leaf(struct fz_bytes *b, const struct table *tb)
{
	return fz_u8(b) % 8 ? fz_range(b, 0, tb->t.n - 1) : fz_u32(b);
}

/* A pair: a circuit's (so that EEXIST and deletion happen) or any. */
static void pick_pair(struct fz_bytes *b, const struct table *tb, u32 *src,
		      u32 *dst)
{
	const struct ft_circuit *c;

	if (tb->cs.n && fz_u8(b) & 1) {
		c = &tb->cs.c[tb->cs.active[fz_range(b, 0, tb->cs.n - 1)]];
		*src = c->src;
		*dst = c->dst;
		return;
	}
	*src = pick_leaf(b, tb);
	*dst = pick_leaf(b, tb);
}

static void op_add(struct fz_bytes *b, struct table *tb)
{
	struct ft_circuit_req req[MAX_BATCH];
	u32 n = fz_range(b, 0, MAX_BATCH), i, k, bad = ~0U, ebad = ~0U;
	struct snap s;
	int err, want;

	memset(req, 0, sizeof(req));
	for (i = 0; i < n; i++) {
		pick_pair(b, tb, &req[i].src, &req[i].dst);
		req[i].lanes = fz_u8(b) % 16 ? fz_range(b, 0, lim.lanes + 1) : fz_u32(b);
		req[i].lease = fz_u8(b) % 8 ? fz_range(b, 0, 4) : fz_u32(b);
		for (k = 0; k < tb->t.h; k++)
			req[i].port[k] = (u8)(fz_u8(b) % 16 ? fz_range(b, 0, tb->t.w[k + 1] - 1) :
					      fz_u8(b));
	}
	want = expect_add(tb, req, n, &ebad);
	snap_take(&s, tb);
	err = ft_circuits_add(&tb->cs, &tb->t, &tb->l, req, n, tb->now, &bad);
	FZ_CHECK(err == want && (!err || bad == ebad),
		 "admitting %u: %d at request %u, expected %d at %u", n, err, bad,
		 want, ebad);
	if (err)
		FZ_CHECK(snap_same(&s, tb), "a refused batch (%d) changed the table", err);
	else
		for (i = 0; i < n; i++)
			installed(tb, &req[i]);
	FZ_CHECK(err || tb->cs.n == s.cs.n + n, "%u circuits after adding %u to %u",
		 tb->cs.n, n, s.cs.n);
	snap_free(&s);
}

static void op_del(struct fz_bytes *b, struct table *tb)
{
	u32 pairs[2 * MAX_BATCH], n = fz_range(b, 0, MAX_BATCH), i, j;
	u32 bad = ~0U, ebad = ~0U;
	struct snap s;
	int err, want = 0;

	for (i = 0; i < n; i++)
		pick_pair(b, tb, &pairs[2 * i], &pairs[2 * i + 1]);
	for (i = 0; i < n && !want; i++) {
		bool gone = !ft_circuits_find(&tb->cs, pairs[2 * i], pairs[2 * i + 1]);

		for (j = 0; j < i; j++)
			gone |= pairs[2 * j] == pairs[2 * i] &&
				pairs[2 * j + 1] == pairs[2 * i + 1];
		if (gone) {
			want = -FT_ENOENT;
			ebad = i;
		}
	}
	snap_take(&s, tb);
	err = ft_circuits_del(&tb->cs, &tb->l, pairs, n, &bad);
	FZ_CHECK(err == want && (!err || bad == ebad),
		 "deleting %u: %d at pair %u, expected %d at %u", n, err, bad, want,
		 ebad);
	if (err)
		FZ_CHECK(snap_same(&s, tb), "a refused deletion changed the table");
	else
		for (i = 0; i < n; i++)
			FZ_CHECK(!ft_circuits_find(&tb->cs, pairs[2 * i], pairs[2 * i + 1]),
				 "%u -> %u still there", pairs[2 * i], pairs[2 * i + 1]);
	FZ_CHECK(err || tb->cs.n + n == s.cs.n, "%u circuits after deleting %u of %u",
		 tb->cs.n, n, s.cs.n);
	snap_free(&s);
}

static void op_expire(struct table *tb)
{
	const struct ft_circuit *c;
	u32 k, due = 0, gone;

	for (k = 0; k < tb->cs.n; k++) {
		c = &tb->cs.c[tb->cs.active[k]];
		due += c->expires && c->expires <= tb->now;
	}
	gone = ft_circuits_expire(&tb->cs, &tb->l, tb->now);
	FZ_CHECK(gone == due, "expired %u of %u due at %llu", gone, due,
		 (unsigned long long)tb->now);
	for (k = 0; k < tb->cs.n; k++) {
		c = &tb->cs.c[tb->cs.active[k]];
		FZ_CHECK(!c->expires || c->expires > tb->now, "a lease outlived itself");
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fz_bytes b = { data, size };
	struct table tb;
	u64 step;
	u32 op;

	fz_shape_topo(&b, &lim, &tb.t);
	if (!fz_model_init(&tb.md, tb.t.h, &tb.t.m[1], &tb.t.w[1], &tb.t.lanes[1]) ||
	    ft_lanes_init(&tb.l, &tb.t) || ft_circuits_init(&tb.cs, fz_range(&b, 1, 48)))
		fz_fail("setting up a small fabric");
	tb.now = 0;
	for (op = 0; op < MAX_OPS && fz_more(&b); op++) {
		switch (fz_u8(&b) % 5) {
		case 0:
		case 1:
			op_add(&b, &tb);
			break;
		case 2:
			op_del(&b, &tb);
			break;
		case 3:
			op_expire(&tb);
			break;
		default:
			/* Time moves on; now and then to the end of time. */
			step = fz_u8(&b) ? fz_u8(&b) : fz_u64(&b);
			tb.now = tb.now > UINT64_MAX - step ? UINT64_MAX : tb.now + step;
			break;
		}
		fz_check_circuits(&tb.cs, &tb.l, &tb.md);
	}
	ft_circuits_destroy(&tb.cs);
	ft_lanes_destroy(&tb.l);
	return 0;
}
