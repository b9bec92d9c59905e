// SPDX-License-Identifier: GPL-2.0
/*
 * Circuits: batches admitted all or nothing, duplicates, table room,
 * deletion, leases, and a random sequence checked against a shadow model.
 */
#include "tap.h"
#include "harness.h"
#include "../../kmod/core/ft_circuits.h"
#include "../../kmod/core/ft_fail.h"
#include "../../kmod/core/ft_rand.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#ifdef __SANITIZE_ADDRESS__
#define SANITIZED " (ASan+UBSan build)"
#else
#define SANITIZED ""
#endif

/* Everything a refused batch or deletion must leave as it was. */
#define SNAP_REGIONS	6

struct snap {
	struct ft_circuits hdr;
	void *copy[SNAP_REGIONS];
};

/* The arrays behind @cs and @l, and their sizes: what a snap copies. */
static void snap_regions(const struct ft_circuits *cs, const struct ft_lanes *l,
			 const void **p, size_t *n)
{
	p[0] = l->link;
	n[0] = l->n * sizeof(*l->link);
	p[1] = cs->c;
	n[1] = cs->cap * sizeof(*cs->c);
	p[2] = cs->bucket;
	n[2] = (cs->hmask + 1) * sizeof(u32);
	p[3] = cs->active;
	n[3] = cs->cap * sizeof(u32);
	p[4] = cs->where;
	n[4] = cs->cap * sizeof(u32);
	p[5] = cs->free;
	n[5] = cs->cap * sizeof(u32);
}

static void snap_take(struct snap *s, const struct ft_circuits *cs,
		      const struct ft_lanes *l)
{
	const void *p[SNAP_REGIONS];
	size_t n[SNAP_REGIONS];
	int i;

	s->hdr = *cs;
	snap_regions(cs, l, p, n);
	for (i = 0; i < SNAP_REGIONS; i++) {
		s->copy[i] = malloc(n[i] ? n[i] : 1);
		memcpy(s->copy[i], p[i], n[i]);
	}
}

static int snap_same(const struct snap *s, const struct ft_circuits *cs,
		     const struct ft_lanes *l)
{
	const void *p[SNAP_REGIONS];
	size_t n[SNAP_REGIONS];
	int i;

	if (memcmp(&s->hdr, cs, sizeof(*cs)))
		return 0;
	snap_regions(cs, l, p, n);
	for (i = 0; i < SNAP_REGIONS; i++)
		if (memcmp(s->copy[i], p[i], n[i]))
			return 0;
	return 1;
}

static void snap_free(struct snap *s)
{
	int i;

	for (i = 0; i < SNAP_REGIONS; i++)
		free(s->copy[i]);
}

/*
 * The table's own consistency, and for every link: the lanes of the
 * circuits over it add up to its reserved lanes, at most its lanes.
 */
static int consistent(const struct ft_circuits *cs, const struct ft_lanes *l,
		      char *why, size_t len)
{
	u64 *sum = calloc(l->n, sizeof(*sum));
	u32 i, k, s, chained = 0;
	int ok = 0;

	if (cs->n + cs->nfree != cs->cap) {
		snprintf(why, len, "n %u + nfree %u != cap", cs->n, cs->nfree);
		goto out;
	}
	for (i = 0; i < cs->n; i++) {
		s = cs->active[i];
		if (s >= cs->cap || cs->where[s] != i || !cs->c[s].lanes ||
		    ft_circuits_find(cs, cs->c[s].src, cs->c[s].dst) !=
		    &cs->c[s]) {
			snprintf(why, len, "active[%u] = %u inconsistent", i, s);
			goto out;
		}
		for (k = 0; k < cs->c[s].path.n; k++)
			sum[cs->c[s].path.link[k]] += cs->c[s].lanes;
	}
	for (i = 0; i < cs->nfree; i++) {
		s = cs->free[i];
		if (s >= cs->cap || cs->c[s].lanes ||
		    cs->where[s] != FT_CIRCUIT_NONE) {
			snprintf(why, len, "free slot %u in use", s);
			goto out;
		}
	}
	for (i = 0; i <= cs->hmask; i++)
		for (s = cs->bucket[i]; s != FT_CIRCUIT_NONE;
		     s = cs->c[s].hnext)
			if (++chained > cs->n)
				break;
	if (chained != cs->n) {
		snprintf(why, len, "%u hashed, %u active", chained, cs->n);
		goto out;
	}
	for (i = 0; i < l->n; i++)
		if (sum[i] != l->link[i].reserved) {
			snprintf(why, len, "link %u: circuits %llu, reserved %u",
				 i, (unsigned long long)sum[i],
				 l->link[i].reserved);
			goto out;
		}
	if (ft_lanes_check(l) != -1) {
		snprintf(why, len, "link %lld over-reserved",
			 (long long)ft_lanes_check(l));
		goto out;
	}
	ok = 1;
out:
	free(sum);
	return ok;
}

static struct ft_circuit_req req3(u32 src, u32 dst, u32 lanes, u32 p2,
				  u32 p3)
{
	struct ft_circuit_req r = {
		.src = src, .dst = dst, .lanes = lanes,
		.port = { 0, (u8)p2, (u8)p3 },
	};

	return r;
}

static int all_full(const struct ft_lanes *l)
{
	u32 i;

	for (i = 0; i < l->n; i++)
		if (l->link[i].reserved != l->link[i].lanes)
			return 0;
	return 1;
}

static int none_reserved(const struct ft_lanes *l)
{
	u32 i;

	for (i = 0; i < l->n; i++)
		if (l->link[i].reserved)
			return 0;
	return 1;
}

/* FT(3,4) = XGFT(3; 4,4,4; 1,4,4), one lane per directed link. */
static void ft34(struct ft_topo *t, struct ft_lanes *l)
{
	static const u32 m[3] = { 4, 4, 4 }, w[3] = { 1, 4, 4 };
	static const u32 c[3] = { 1, 1, 1 };

	ft_topo_init(t, 3, m, w, c);
	ft_lanes_init(l, t);
}

/*
 * Shift by 32 on FT(3,4): leaf s goes up through P_2 = x_1(s),
 * P_3 = x_2(s). Every directed link carries exactly one circuit.
 */
static void shift32(struct ft_circuit_req *req)
{
	u32 s;

	for (s = 0; s < 64; s++)
		req[s] = req3(s, (s + 32) % 64, 1, s % 4, s / 4 % 4);
}

static void test_basics(void)
{
	struct ft_circuits cs;

	tap_ok(ft_circuits_init(&cs, 0) == -EINVAL && !cs.c,
	       "init: 0 slots refused");
	tap_ok(ft_circuits_init(&cs, FT_CIRCUITS_MAX + 1) == -EINVAL,
	       "init: more than FT_CIRCUITS_MAX refused");
	tap_ok(ft_circuits_mem_size(FT_CIRCUITS_MAX + 1) == (size_t)-1 &&
	       ft_circuits_mem_size(1000) >= 1000 * sizeof(struct ft_circuit),
	       "mem_size: covers the slots, (size_t)-1 above the maximum");
	tap_ok(!ft_circuits_init(&cs, 5) && cs.cap == 5 && !cs.n &&
	       cs.nfree == 5 && cs.free[4] == 0 && cs.hmask == 7,
	       "init: 5 free slots, slot 0 on top, 8 buckets");
	tap_ok(!ft_circuits_find(&cs, 0, 1), "empty table finds nothing");
	ft_circuits_destroy(&cs);
	ft_circuits_destroy(&cs);
	tap_ok(!cs.c && !cs.cap && !ft_circuits_find(&cs, 0, 1),
	       "destroy is idempotent; a destroyed table finds nothing");
}

/*
 * The 64 requests of @req that fill FT(3,4) exactly, with one more from
 * leaf 0 at @at (the request there moved to the end): refused, naming
 * @want, nothing changed (@sn). @req is as it was on return.
 */
static int extra_refused(struct ft_circuits *cs, const struct ft_topo *t,
			 struct ft_lanes *l, struct ft_circuit_req *req, u32 at,
			 u32 want, const struct snap *sn)
{
	u32 bad = ~0U;
	int refused;

	req[64] = req[at];
	req[at] = req3(0, 33, 1, 3, 3);
	refused = ft_circuits_add(cs, t, l, req, 65, 0, &bad) == -ENOSPC &&
		  bad == want && snap_same(sn, cs, l);
	req[at] = req[64];
	return refused;
}

static void test_exact(void)
{
	static const u32 tip[] = { 0, 17, 40, 63 };
	struct ft_circuit_req req[65];
	struct ft_circuits cs;
	struct ft_topo t;
	struct ft_lanes l;
	struct snap sn;
	char why[256] = "";
	u32 bad, i, s;
	int good;

	ft34(&t, &l);
	ft_circuits_init(&cs, 128);
	shift32(req);
	snap_take(&sn, &cs, &l);
	for (good = 1, i = 0; i < 4; i++) {
		req[tip[i]].lanes = 2;
		bad = ~0U;
		good &= ft_circuits_add(&cs, &t, &l, req, 64, 0, &bad) ==
			-ENOSPC && bad == tip[i] && snap_same(&sn, &cs, &l);
		req[tip[i]].lanes = 1;
	}
	tap_ok(good, "FT(3,4) shift 32 with one lane more on request 0, 17, 40 or 63: refused naming it, nothing changed");

	/* An extra pair over leaf 0's full links, first or in the middle. */
	tap_ok(extra_refused(&cs, &t, &l, req, 0, 1, &sn),
	       "an extra circuit first: the original from leaf 0 tips it over (bad 1)");
	tap_ok(extra_refused(&cs, &t, &l, req, 30, 30, &sn),
	       "an extra circuit at 30: it tips it over (bad 30)");
	snap_free(&sn);

	tap_ok(!ft_circuits_add(&cs, &t, &l, req, 64, 7, &bad) && cs.n == 64,
	       "the capacity-exact batch is admitted");
	tap_ok(all_full(&l), "every directed link holds exactly its lanes");
	tap_ok(consistent(&cs, &l, why, sizeof(why)), "consistent %s", why);
	for (good = 1, i = 0; i < 64; i++) {
		const struct ft_circuit *c = ft_circuits_find(&cs, i,
							      (i + 32) % 64);

		good &= c && c == &cs.c[i] && cs.active[i] == i &&
			c->lanes == 1 && !c->expires && c->created == 7 &&
			c->last_used == 7 && !c->carried && c->path.n == 6 &&
			c->port[1] == i % 4 && c->port[2] == i / 4 % 4;
	}
	tap_ok(good, "each found in slot = admission index, fields set");
	req[0] = req3(0, 0, 9, 0, 0);
	req[1] = req3(5, 5, 1, 0, 0);
	tap_ok(!ft_circuits_add(&cs, &t, &l, req, 2, 7, &bad) && cs.n == 66 &&
	       ft_circuits_find(&cs, 5, 5)->path.n == 0 && all_full(&l),
	       "src == dst circuits need no link: admitted on a full fabric");
	for (good = 1, s = 0; s < 64; s++) {
		u32 p[2] = { s, (s + 32) % 64 };

		good &= !ft_circuits_del(&cs, &l, p, 1, &bad);
	}
	tap_ok(good && cs.n == 2 && none_reserved(&l) &&
	       consistent(&cs, &l, why, sizeof(why)),
	       "deleted one by one: no lane reserved %s", why);
	ft_circuits_destroy(&cs);
	ft_lanes_destroy(&l);
}

static void test_fig4(void)
{
	struct ft_circuit_req req[2];
	struct ft_circuits cs;
	struct ft_topo t;
	struct ft_lanes l;
	struct snap sn;
	u32 bad, pairs[4] = { 0, 32, 4, 33 };
	const struct ft_circuit *a, *b;

	/* SW(0,0) and SW(0,1) to SW(0,8): leaves 0 -> 32 and 4 -> 33. */
	ft34(&t, &l);
	ft_circuits_init(&cs, 16);
	req[0] = req3(0, 32, 1, 0, 0);
	req[1] = req3(4, 33, 1, 1, 0);
	tap_ok(!ft_circuits_add(&cs, &t, &l, req, 2, 0, &bad) && cs.n == 2,
	       "Fig. 4 with P_0 = 0 and 1: both admitted");
	a = ft_circuits_find(&cs, 0, 32);
	b = ft_circuits_find(&cs, 4, 33);
	tap_ok(a && b && a->path.link[4] != b->path.link[4] &&
	       l.link[a->path.link[4]].reserved == 1 &&
	       l.link[b->path.link[4]].reserved == 1,
	       "they come down SW(0,8)'s links 0 and 1");
	tap_ok(!ft_circuits_del(&cs, &l, pairs, 2, &bad) && !cs.n &&
	       none_reserved(&l), "both deleted in one batch");
	req[1] = req3(4, 33, 1, 0, 0);
	snap_take(&sn, &cs, &l);
	bad = ~0U;
	tap_ok(ft_circuits_add(&cs, &t, &l, req, 2, 0, &bad) == -ENOSPC &&
	       bad == 1 && snap_same(&sn, &cs, &l),
	       "Fig. 4 with P_0 = 0 and 0: the second refused, nothing changed");
	snap_free(&sn);
	ft_circuits_destroy(&cs);
	ft_lanes_destroy(&l);
}

static void test_invalid(void)
{
	struct ft_circuit_req req[5], r;
	struct ft_circuits cs;
	struct ft_topo t;
	struct ft_lanes l;
	struct snap sn;
	char why[256] = "";
	u32 bad, i, k;
	int good = 1;
	const struct ft_circuit *c;
	const char *what[] = {
		"src 64", "dst 64", "lanes 0", "lanes FT_MAX_LANES + 1",
		"P_1 = 1 >= w_1", "P_2 = 4 >= w_2", "P_3 = 4 >= w_3",
	};

	ft34(&t, &l);
	ft_circuits_init(&cs, 16);
	req[0] = req3(1, 2, 1, 0, 0);
	tap_ok(!ft_circuits_add(&cs, &t, &l, req, 1, 0, &bad),
	       "one circuit installed");
	snap_take(&sn, &cs, &l);
	for (k = 0; k < 7; k++) {
		for (i = 0; i < 5; i++)
			req[i] = req3(10 + i, 50 - i, 1, i % 4, 0);
		r = req3(20, 40, 1, 0, 0);
		switch (k) {
		case 0: r.src = 64; break;
		case 1: r.dst = 64; break;
		case 2: r.lanes = 0; break;
		case 3: r.lanes = FT_MAX_LANES + 1; break;
		case 4: r.port[0] = 1; break;
		case 5: r.port[1] = 4; break;
		case 6: r.port[2] = 4; break;
		}
		req[k % 5] = r;
		bad = ~0U;
		if (!tap_ok(ft_circuits_add(&cs, &t, &l, req, 5, 0, &bad) ==
			    -EINVAL && bad == k % 5 && snap_same(&sn, &cs, &l),
			    "%s at %u: -EINVAL naming it, nothing changed",
			    what[k], k % 5))
			good = 0;
	}
	/* Well-formedness is checked for the whole batch first. */
	req[0] = req3(1, 2, 1, 0, 0);
	req[1] = req3(3, 4, 0, 0, 0);
	bad = ~0U;
	tap_ok(ft_circuits_add(&cs, &t, &l, req, 2, 0, &bad) == -EINVAL &&
	       bad == 1 && snap_same(&sn, &cs, &l),
	       "a malformed request is reported before an earlier duplicate");
	/* Ports beyond H are ignored and not stored. */
	req[0] = req3(8, 9, 1, 200, 99);
	req[0].port[5] = 77;
	req[1] = req3(16, 20, 1, 3, 250);
	tap_ok(!ft_circuits_add(&cs, &t, &l, req, 2, 0, &bad),
	       "ports above the common level are ignored (H = 1 and 2)");
	c = ft_circuits_find(&cs, 8, 9);
	good = c && c->path.n == 2 && c->lanes == 1;
	for (i = 0; c && i < FT_MAX_LEVELS; i++)
		good &= !c->port[i];
	c = ft_circuits_find(&cs, 16, 20);
	good &= c && c->path.n == 4 && c->port[1] == 3 && !c->port[2];
	tap_ok(good, "stored ports are P_1..P_H, the rest zero");
	tap_ok(consistent(&cs, &l, why, sizeof(why)), "consistent %s", why);
	snap_free(&sn);
	ft_circuits_destroy(&cs);
	ft_lanes_destroy(&l);
}

static void test_dup_and_room(void)
{
	/* Batches of two on a table of 4 holding 3, each refused whole. */
	static const struct {
		u32 s0, d0, s1, d1;
		int err;
		const char *what;
	} refused[] = {
		{ 2, 3, 1, 0, -EEXIST,
		  "a pair that has a circuit: -EEXIST naming it, nothing changed" },
		{ 2, 3, 2, 3, -EEXIST, "a pair twice in a batch: -EEXIST naming the second" },
		{ 2, 3, 4, 3, -ENOSPC, "one slot left, two asked: -ENOSPC naming the second" },
		{ 2, 3, 7, 7, -EEXIST,
		  "a duplicate before the table runs out is the one reported" },
		/* leaf 0's up link is taken */
		{ 0, 2, 5, 6, -ENOSPC, "table room is checked before lanes" },
	};
	struct ft_circuit_req req[4];
	struct ft_circuits cs;
	struct ft_topo t;
	struct ft_lanes l;
	struct snap sn;
	size_t i;
	u32 bad;

	ft34(&t, &l);
	ft_circuits_init(&cs, 4);
	req[0] = req3(0, 1, 1, 0, 0);
	req[1] = req3(1, 0, 1, 0, 0);
	req[2] = req3(7, 7, 1, 0, 0);
	tap_ok(!ft_circuits_add(&cs, &t, &l, req, 3, 0, &bad) && cs.n == 3,
	       "3 circuits in a table of 4 (pairs are directed)");
	snap_take(&sn, &cs, &l);
	for (i = 0; i < sizeof(refused) / sizeof(refused[0]); i++) {
		req[0] = req3(refused[i].s0, refused[i].d0, 1, 0, 0);
		req[1] = req3(refused[i].s1, refused[i].d1, 1, 0, 0);
		bad = ~0U;
		tap_ok(ft_circuits_add(&cs, &t, &l, req, 2, 0, &bad) == refused[i].err &&
		       bad == 1 && snap_same(&sn, &cs, &l), "%s", refused[i].what);
	}
	tap_ok(ft_circuits_add(&cs, &t, &l, req, 1, 0, &bad) == -ENOSPC &&
	       bad == 0 && snap_same(&sn, &cs, &l),
	       "lanes short on one link: -ENOSPC, nothing changed");
	req[0] = req3(5, 6, 1, 0, 0);
	tap_ok(!ft_circuits_add(&cs, &t, &l, req, 1, 0, &bad) &&
	       cs.n == 4 && !cs.nfree && cs.c[3].src == 5,
	       "the last slot (3) filled");
	tap_ok(ft_circuits_add(&cs, &t, &l, req, 0, 0, &bad) == 0,
	       "an empty batch is admitted on a full table");
	snap_free(&sn);
	ft_circuits_destroy(&cs);
	ft_lanes_destroy(&l);
}

/* One refusal of ft_circuits_admit(): its error, kind and request. */
static int refused(int err, const struct ft_circuits_refusal *rf, int want,
		   enum ft_circuits_why why, u32 bad)
{
	return err == want && rf->why == why && rf->bad == bad;
}

/*
 * Batches refused by ft_circuits_admit() on FT(3,4) with a table of 4
 * holding (0, 1): requests (src, dst, lanes) on P_i = 0, with leaf 5's
 * up link failed or not.
 */
static const struct admit_case {
	u32 req[4][3];
	u32 n;
	bool leaf5_failed;
	int err;
	enum ft_circuits_why why;
	u32 bad;
	const char *what;
} admit_cases[] = {
	{ { { 70, 1, 1 }, { 5, 5, 1 } }, 2, false, -EINVAL, FT_CIRCUITS_SAME_LEAF, 1,
	  "a leaf joined to itself, before an earlier bad leaf" },
	{ { { 2, 3, 0 }, { 4, 5, 1 }, { 6, 7, 1 }, { 8, 9, 1 } }, 4, false,
	  -E2BIG, FT_CIRCUITS_NO_ROOM, 0,
	  "4 asked, 3 slots free: no room, before bad lanes" },
	{ { { 2, 3, 0 }, { 4, 5, 1 } }, 2, false, -EINVAL, FT_CIRCUITS_BAD, 0,
	  "lanes 0 is a bad request" },
	{ { { 2, 3, 1 }, { 0, 1, 1 } }, 2, false, -EEXIST, FT_CIRCUITS_EXISTS, 1,
	  "a pair that has a circuit" },
	{ { { 2, 3, 1 }, { 0, 2, 1 } }, 2, false, -ENOSPC, FT_CIRCUITS_LANES, 1,
	  "a working link short of lanes (leaf 0's up link is taken)" },
	{ { { 2, 3, 1 }, { 5, 6, 1 } }, 2, true, -ENOSPC, FT_CIRCUITS_FAILED, 1,
	  "a path across a failed link is told apart" },
	{ { { 2, 3, 1 }, { 0, 2, 1 } }, 2, true, -ENOSPC, FT_CIRCUITS_LANES, 1,
	  "with a link failed elsewhere, a full one is still full" },
};

/*
 * The rules of a batch from outside (the kernel's CIRCUIT_ADD), each
 * refusal of its own kind, in their order, nothing changed.
 */
static void test_admit(void)
{
	const struct admit_case *ac;
	struct ft_circuits_refusal rf;
	struct ft_circuit_req req[4];
	struct ft_circuits cs;
	struct ft_topo t;
	struct ft_lanes l;
	struct snap sn;
	u32 leaf5, i, k;
	int err;

	ft34(&t, &l);
	ft_circuits_init(&cs, 4);
	err = ft_circuits_batch(&cs, 0, &rf);
	tap_ok(refused(err, &rf, -EINVAL, FT_CIRCUITS_EMPTY, 0),
	       "batch: an empty one is refused");
	err = ft_circuits_batch(&cs, 5, &rf);
	tap_ok(refused(err, &rf, -E2BIG, FT_CIRCUITS_TOO_MANY, 0),
	       "batch: more than the table's slots is refused");
	err = ft_circuits_batch(&cs, 4, &rf);
	tap_ok(refused(err, &rf, 0, FT_CIRCUITS_OK, 0),
	       "batch: as many as the slots is taken");
	req[0] = req3(0, 1, 1, 0, 0);
	err = ft_circuits_admit(&cs, &t, &l, req, 1, 0, &rf);
	tap_ok(refused(err, &rf, 0, FT_CIRCUITS_OK, 0) && cs.n == 1,
	       "admit: one circuit installed");

	leaf5 = ft_topo_link(&t, 1, 5, 0, FT_UP);
	for (k = 0; k < sizeof(admit_cases) / sizeof(admit_cases[0]); k++) {
		ac = &admit_cases[k];
		for (i = 0; i < ac->n; i++)
			req[i] = req3(ac->req[i][0], ac->req[i][1], ac->req[i][2],
				      0, 0);
		ft_fail_link(&l, &t, leaf5, FT_FAIL_SELF, ac->leaf5_failed);
		snap_take(&sn, &cs, &l);
		err = ft_circuits_admit(&cs, &t, &l, req, ac->n, 0, &rf);
		tap_ok(refused(err, &rf, ac->err, ac->why, ac->bad) &&
		       snap_same(&sn, &cs, &l), "admit: %s", ac->what);
		snap_free(&sn);
	}
	ft_fail_link(&l, &t, leaf5, FT_FAIL_SELF, false);
	req[0] = req3(2, 3, 1, 0, 0);
	req[1] = req3(5, 6, 1, 0, 0);
	err = ft_circuits_admit(&cs, &t, &l, req, 2, 7, &rf);
	tap_ok(refused(err, &rf, 0, FT_CIRCUITS_OK, 0) && cs.n == 3 &&
	       ft_circuits_find(&cs, 5, 6)->created == 7,
	       "admit: restored, the batch is admitted");
	ft_circuits_destroy(&cs);
	ft_lanes_destroy(&l);
}

static void test_del(void)
{
	struct ft_circuit_req req[3];
	struct ft_circuits cs;
	struct ft_topo t;
	struct ft_lanes l;
	struct snap sn;
	char why[256] = "";
	u32 bad, pairs[6];

	ft34(&t, &l);
	ft_circuits_init(&cs, 8);
	req[0] = req3(0, 63, 1, 1, 2);
	req[1] = req3(10, 11, 1, 0, 0);
	req[2] = req3(20, 60, 1, 3, 3);
	ft_circuits_add(&cs, &t, &l, req, 3, 0, &bad);
	snap_take(&sn, &cs, &l);
	pairs[0] = 0; pairs[1] = 63; pairs[2] = 63; pairs[3] = 0;
	bad = ~0U;
	tap_ok(ft_circuits_del(&cs, &l, pairs, 2, &bad) == -ENOENT &&
	       bad == 1 && snap_same(&sn, &cs, &l),
	       "del: a pair without a circuit refused naming it, nothing changed");
	pairs[2] = 10; pairs[3] = 11; pairs[4] = 0; pairs[5] = 63;
	bad = ~0U;
	tap_ok(ft_circuits_del(&cs, &l, pairs, 3, &bad) == -ENOENT &&
	       bad == 2 && snap_same(&sn, &cs, &l),
	       "del: a pair named twice is without one the second time");
	tap_ok(!ft_circuits_del(&cs, &l, pairs, 0, &bad) &&
	       snap_same(&sn, &cs, &l), "del: an empty batch changes nothing");
	tap_ok(!ft_circuits_del(&cs, &l, pairs, 2, &bad) && cs.n == 1 &&
	       !ft_circuits_find(&cs, 0, 63) && !ft_circuits_find(&cs, 10, 11) &&
	       ft_circuits_find(&cs, 20, 60) && cs.active[0] == 2 &&
	       consistent(&cs, &l, why, sizeof(why)),
	       "del: two deleted, the third moved to the front %s", why);
	tap_ok(cs.nfree == 7 && cs.free[6] == 1 && cs.free[5] == 0,
	       "freed slots are reused last freed first");
	req[0] = req3(0, 63, 1, 1, 2);
	tap_ok(!ft_circuits_add(&cs, &t, &l, req, 1, 0, &bad) &&
	       ft_circuits_find(&cs, 0, 63) == &cs.c[1],
	       "a deleted pair can be added again");
	snap_free(&sn);
	ft_circuits_destroy(&cs);
	ft_lanes_destroy(&l);
}

static void test_leases(void)
{
	struct ft_circuit_req req[3];
	struct ft_circuits cs;
	struct ft_topo t;
	struct ft_lanes l;
	char why[256] = "";
	u32 bad;
	const struct ft_circuit *a;

	ft34(&t, &l);
	ft_circuits_init(&cs, 8);
	req[0] = req3(0, 63, 1, 0, 0);
	req[0].lease = 5;
	req[1] = req3(1, 62, 1, 1, 1);
	req[2] = req3(2, 61, 1, 2, 2);
	req[2].lease = 6;
	ft_circuits_add(&cs, &t, &l, req, 3, 10, &bad);
	a = ft_circuits_find(&cs, 0, 63);
	tap_ok(a && a->expires == 15 && !ft_circuits_find(&cs, 1, 62)->expires,
	       "lease 5 at cycle 10 expires at 15; lease 0 never");
	tap_ok(ft_circuits_expire(&cs, &l, 14) == 0 && cs.n == 3,
	       "nothing expires at 14");
	tap_ok(ft_circuits_expire(&cs, &l, 15) == 1 && cs.n == 2 &&
	       !ft_circuits_find(&cs, 0, 63) &&
	       !l.link[ft_topo_dlink(&t, 1, 0, FT_UP)].reserved &&
	       consistent(&cs, &l, why, sizeof(why)),
	       "lease 5 expires at 15, its lanes freed %s", why);
	tap_ok(ft_circuits_expire(&cs, &l, 100) == 1 && cs.n == 1 &&
	       ft_circuits_expire(&cs, &l, ~0ULL) == 0 &&
	       ft_circuits_find(&cs, 1, 62),
	       "a late expire takes the rest; lease 0 stays");
	req[0].lease = 10;
	ft_circuits_add(&cs, &t, &l, req, 1, ~0ULL - 3, &bad);
	tap_ok(ft_circuits_find(&cs, 0, 63)->expires == ~0ULL,
	       "expiry saturates instead of wrapping to 'never'");
	ft_circuits_destroy(&cs);
	ft_lanes_destroy(&l);
}

/* What the table told its event hook, in order. */
struct heard {
	u32 n;
	u32 src[8], dst[8], lanes[8];
	enum ft_circuit_event what[8];
};

static void hear(void *arg, const struct ft_circuit *c,
		 enum ft_circuit_event what)
{
	struct heard *h = arg;

	if (h->n < 8) {
		h->src[h->n] = c->src;
		h->dst[h->n] = c->dst;
		h->lanes[h->n] = c->lanes;
		h->what[h->n] = what;
	}
	h->n++;
}

static int heard_is(const struct heard *h, u32 i, u32 src, u32 dst, u32 lanes,
		    enum ft_circuit_event what)
{
	return i < h->n && h->src[i] == src && h->dst[i] == dst &&
	       h->lanes[i] == lanes && h->what[i] == what;
}

/*
 * The event hook hears each circuit installed (once admitted, in request
 * order), deleted, expired and cut, each once and with the circuit as it
 * was; a refused batch tells it nothing.
 */
static void test_events(void)
{
	struct ft_circuit_req req[3];
	struct heard h = { 0 };
	struct ft_circuits cs;
	struct ft_topo t;
	struct ft_lanes l;
	u32 bad, pairs[2] = { 10, 11 };

	ft34(&t, &l);
	ft_circuits_init(&cs, 8);
	cs.event = hear;
	cs.event_arg = &h;
	req[0] = req3(0, 63, 1, 1, 2);
	req[0].lease = 5;
	req[1] = req3(10, 11, 1, 0, 0);
	req[2] = req3(20, 60, 1, 3, 3);
	tap_ok(!ft_circuits_add(&cs, &t, &l, req, 3, 0, &bad) && h.n == 3 &&
	       heard_is(&h, 0, 0, 63, 1, FT_CIRCUIT_INSTALLED) &&
	       heard_is(&h, 1, 10, 11, 1, FT_CIRCUIT_INSTALLED) &&
	       heard_is(&h, 2, 20, 60, 1, FT_CIRCUIT_INSTALLED),
	       "events: three installed, in request order");
	tap_ok(ft_circuits_add(&cs, &t, &l, req, 1, 0, &bad) == -EEXIST &&
	       h.n == 3, "events: a refused batch tells nothing");
	tap_ok(!ft_circuits_del(&cs, &l, pairs, 1, &bad) && h.n == 4 &&
	       heard_is(&h, 3, 10, 11, 1, FT_CIRCUIT_DELETED),
	       "events: one deleted");
	tap_ok(ft_circuits_expire(&cs, &l, 5) == 1 && h.n == 5 &&
	       heard_is(&h, 4, 0, 63, 1, FT_CIRCUIT_EXPIRED),
	       "events: one expired with its lease");
	ft_fail_link(&l, &t, cs.c[cs.active[0]].path.link[0], FT_FAIL_SELF, true);
	tap_ok(ft_circuits_cut(&cs, &l) == 1 && h.n == 6 &&
	       heard_is(&h, 5, 20, 60, 1, FT_CIRCUIT_CUT) && !cs.n,
	       "events: one cut by a failed link on its path");
	ft_circuits_destroy(&cs);
	ft_lanes_destroy(&l);
}

/* Shadow model of the random test. */
struct shadow {
	u32 src, dst, lanes;
	u64 expires;
};

static int shadow_find(const struct shadow *sh, u32 nsh, u32 src, u32 dst)
{
	u32 i;

	for (i = 0; i < nsh; i++)
		if (sh[i].src == src && sh[i].dst == dst)
			return i;
	return -1;
}

static void random_req(struct ft_rand *r, const struct ft_topo *t,
		       struct ft_circuit_req *q, int sloppy)
{
	u32 i;

	memset(q, 0, sizeof(*q));
	q->src = ft_rand_below(r, t->n);
	q->dst = ft_rand_below(r, t->n);
	q->lanes = 1 + ft_rand_below(r, 2);
	q->lease = ft_rand_below(r, 2) ? 1 + ft_rand_below(r, 20) : 0;
	for (i = 1; i <= t->h; i++)
		q->port[i - 1] = ft_rand_below(r, t->w[i]);
	if (sloppy && !ft_rand_below(r, 40)) {
		switch (ft_rand_below(r, 3)) {
		case 0: q->src = t->n; break;
		case 1: q->lanes = 0; break;
		case 2: q->port[t->h - 1] = t->w[t->h]; break;
		}
	}
}

/* The answer ft_circuits_add() must give, worked out independently. */
static int oracle_add(const struct ft_topo *t, const struct ft_lanes *l,
		      const struct shadow *sh, u32 nsh, u32 cap,
		      const struct ft_circuit_req *q, u32 n, u32 *bad)
{
	u32 *res = malloc(l->n * sizeof(u32));
	u32 i, j, k, hh, port[FT_MAX_LEVELS];
	struct ft_path p;
	int err = 0;

	for (i = 0; i < n; i++) {
		if (q[i].src >= t->n || q[i].dst >= t->n || !q[i].lanes ||
		    q[i].lanes > FT_MAX_LANES)
			goto inval;
		hh = ft_topo_common_level(t, q[i].src, q[i].dst);
		for (k = 0; k < hh; k++)
			if (q[i].port[k] >= t->w[k + 1])
				goto inval;
	}
	for (i = 0; i < n; i++) {
		if (shadow_find(sh, nsh, q[i].src, q[i].dst) >= 0)
			goto exist;
		for (j = 0; j < i; j++)
			if (q[j].src == q[i].src && q[j].dst == q[i].dst)
				goto exist;
		if (nsh + i >= cap)
			goto nospc;
	}
	for (k = 0; k < l->n; k++)
		res[k] = l->link[k].reserved;
	for (i = 0; i < n; i++) {
		for (k = 0; k < FT_MAX_LEVELS; k++)
			port[k] = q[i].port[k];
		ft_topo_path(t, q[i].src, q[i].dst, port, &p);
		for (k = 0; k < p.n; k++)
			if (res[p.link[k]] + q[i].lanes >
			    l->link[p.link[k]].lanes)
				goto nospc;
		for (k = 0; k < p.n; k++)
			res[p.link[k]] += q[i].lanes;
	}
	goto out;
inval:
	err = -EINVAL;
	goto out;
exist:
	err = -EEXIST;
	goto out;
nospc:
	err = -ENOSPC;
out:
	free(res);
	*bad = i;
	return err;
}

static int same_as_shadow(const struct ft_circuits *cs,
			  const struct shadow *sh, u32 nsh)
{
	const struct ft_circuit *c;
	u32 i;

	if (cs->n != nsh)
		return 0;
	for (i = 0; i < nsh; i++) {
		c = ft_circuits_find(cs, sh[i].src, sh[i].dst);
		if (!c || c->lanes != sh[i].lanes || c->expires != sh[i].expires)
			return 0;
	}
	return 1;
}

static void test_random(void)
{
	static const u32 cap = 48;
	struct ft_circuit_req q[8];
	struct shadow sh[48];
	struct ft_circuits cs;
	struct ft_topo t;
	struct ft_lanes l;
	struct ft_rand r;
	struct snap sn;
	u32 trial, op, n, i, nsh, bad, xbad, pairs[16];
	u64 now;
	int err, xerr, j, good = 1;
	unsigned int nadd = 0, nrefused = 0, ndel = 0, nexp = 0;
	unsigned int ninval = 0, nexist = 0, nlate = 0;
	char why[256] = "";

	ft_rand_seed(&r, 2024);
	for (trial = 0; trial < 60 && good; trial++) {
		if (random_topo(&r, &t, 4) || ft_lanes_init(&l, &t))
			continue;
		ft_circuits_init(&cs, cap);
		nsh = 0;
		now = 0;
		for (op = 0; op < 400 && good; op++) {
			snap_take(&sn, &cs, &l);
			switch (ft_rand_below(&r, 4)) {
			case 0:
			case 1:
				n = 1 + ft_rand_below(&r, 8);
				for (i = 0; i < n; i++)
					random_req(&r, &t, &q[i], 1);
				if (n > 1 && !ft_rand_below(&r, 10))
					q[n - 1] = q[0];
				xerr = oracle_add(&t, &l, sh, nsh, cap, q, n,
						  &xbad);
				bad = ~0U;
				err = ft_circuits_add(&cs, &t, &l, q, n, now,
						      &bad);
				if (err != xerr || (err && bad != xbad)) {
					snprintf(why, sizeof(why),
						 "add: %d bad %u, expected %d bad %u",
						 err, bad, xerr, xbad);
					good = 0;
				} else if (err) {
					nrefused++;
					ninval += err == -EINVAL;
					nexist += err == -EEXIST;
					/* Refused after reserving for others. */
					nlate += err == -ENOSPC && bad &&
						 n <= cs.nfree;
					if (!snap_same(&sn, &cs, &l)) {
						snprintf(why, sizeof(why),
							 "refused add changed state");
						good = 0;
					}
				} else {
					nadd += n;
					for (i = 0; i < n; i++, nsh++) {
						sh[nsh].src = q[i].src;
						sh[nsh].dst = q[i].dst;
						sh[nsh].lanes = q[i].lanes;
						sh[nsh].expires = q[i].lease ?
							now + q[i].lease : 0;
					}
				}
				break;
			case 2:
				n = ft_rand_below(&r, 5);
				xerr = 0;
				for (i = 0; i < n; i++) {
					if (nsh && ft_rand_below(&r, 8)) {
						j = ft_rand_below(&r, nsh);
						pairs[2 * i] = sh[j].src;
						pairs[2 * i + 1] = sh[j].dst;
					} else {
						pairs[2 * i] =
							ft_rand_below(&r, t.n);
						pairs[2 * i + 1] =
							ft_rand_below(&r, t.n);
					}
				}
				/* Expected: first pair missing or repeated. */
				for (i = 0; i < n && !xerr; i++) {
					if (shadow_find(sh, nsh, pairs[2 * i],
							pairs[2 * i + 1]) < 0)
						xerr = -ENOENT;
					for (j = 0; j < (int)i; j++)
						if (pairs[2 * j] == pairs[2 * i] &&
						    pairs[2 * j + 1] ==
						    pairs[2 * i + 1])
							xerr = -ENOENT;
				}
				xbad = i - 1;
				bad = ~0U;
				err = ft_circuits_del(&cs, &l, pairs, n, &bad);
				if (err != xerr || (err && bad != xbad) ||
				    (err && !snap_same(&sn, &cs, &l))) {
					snprintf(why, sizeof(why),
						 "del: %d bad %u, expected %d bad %u",
						 err, bad, xerr, xbad);
					good = 0;
					break;
				}
				for (i = 0; !err && i < n; i++, ndel++) {
					j = shadow_find(sh, nsh, pairs[2 * i],
							pairs[2 * i + 1]);
					sh[j] = sh[--nsh];
				}
				break;
			default:
				now += ft_rand_below(&r, 4);
				n = ft_circuits_expire(&cs, &l, now);
				for (i = 0, xbad = 0; i < nsh; )
					if (sh[i].expires &&
					    sh[i].expires <= now) {
						sh[i] = sh[--nsh];
						xbad++;
					} else {
						i++;
					}
				nexp += n;
				if (n != xbad) {
					snprintf(why, sizeof(why),
						 "expire: %u, expected %u",
						 n, xbad);
					good = 0;
				}
				break;
			}
			snap_free(&sn);
			if (good && !same_as_shadow(&cs, sh, nsh)) {
				snprintf(why, sizeof(why), "table != shadow");
				good = 0;
			}
			if (good && !consistent(&cs, &l, why, sizeof(why)))
				good = 0;
		}
		if (!good)
			tap_diag("trial %u op %u: h %u", trial, op, t.h);
		ft_circuits_destroy(&cs);
		ft_lanes_destroy(&l);
	}
	tap_diag("random: %u admitted, %u batches refused (%u -EINVAL, %u -EEXIST, %u short of lanes after reserving for earlier requests), %u deleted, %u expired",
		 nadd, nrefused, ninval, nexist, nlate, ndel, nexp);
	tap_ok(good && nadd > 1000 && ninval > 100 && nexist > 100 &&
	       nlate > 100 && ndel > 100 && nexp > 100,
	       "random adds, deletes, expires: answers as predicted, refusals change nothing, circuits' lanes sum to reserved on every link %s",
	       why);
}

/*
 * Colour the edges of a bipartite multigraph of maximum degree @k with
 * @k colours (Konig; alternating-path recolouring).
 */
struct bip {
	u32 nv, k;
	int *at;	/* at[(side * nv + v) * k + colour] = edge, or -1 */
	u32 *end;	/* end[2 * e + side] */
	u32 *col;
};

static int *bip_at(struct bip *g, u32 side, u32 v, u32 c)
{
	return &g->at[((size_t)side * g->nv + v) * g->k + c];
}

static void bip_colour(struct bip *g, u32 e)
{
	u32 u = g->end[2 * e], v = g->end[2 * e + 1], a = 0, b = 0, x, side;
	u32 path[4096], np = 0, i, cur;
	int f;

	while (*bip_at(g, 0, u, a) >= 0)
		a++;
	while (*bip_at(g, 1, v, b) >= 0)
		b++;
	if (*bip_at(g, 1, v, a) >= 0) {
		/* Swap a and b on the a/b path from v; it cannot reach u. */
		for (cur = v, side = 1, x = a;
		     (f = *bip_at(g, side, cur, x)) >= 0;
		     x = x == a ? b : a) {
			path[np++] = f;
			side ^= 1;
			cur = g->end[2 * f + side];
		}
		for (i = 0; i < np; i++) {
			*bip_at(g, 0, g->end[2 * path[i]], g->col[path[i]]) = -1;
			*bip_at(g, 1, g->end[2 * path[i] + 1],
				g->col[path[i]]) = -1;
		}
		for (i = 0; i < np; i++) {
			g->col[path[i]] = g->col[path[i]] == a ? b : a;
			*bip_at(g, 0, g->end[2 * path[i]], g->col[path[i]]) =
				path[i];
			*bip_at(g, 1, g->end[2 * path[i] + 1],
				g->col[path[i]]) = path[i];
		}
	}
	g->col[e] = a;
	*bip_at(g, 0, u, a) = e;
	*bip_at(g, 1, v, a) = e;
}

/*
 * Route @perm on FT(3,16) with one circuit per directed link: P_2 by
 * colouring (source leaf switch, destination leaf switch) pairs, then
 * P_3 within each P_2 by colouring (source subtree, destination subtree).
 */
static void route_ft3(const u32 *perm, u32 n, struct ft_circuit_req *q)
{
	struct bip g = { .nv = 256, .k = 16 };
	u32 s, d, e, lvl;

	g.at = malloc(2 * 256 * 16 * sizeof(int));
	g.end = malloc(2 * n * sizeof(u32));
	g.col = malloc(n * sizeof(u32));
	for (s = 0; s < n; s++)
		q[s] = req3(s, perm[s], 1, 0, 0);
	for (lvl = 2; lvl <= 3; lvl++) {
		memset(g.at, 0xff, 2 * 256 * 16 * sizeof(int));
		for (s = 0; s < n; s++) {
			d = perm[s];
			e = s;
			if (lvl == 2 && s / 16 != d / 16) {
				g.end[2 * e] = s / 16;
				g.end[2 * e + 1] = d / 16;
			} else if (lvl == 3 && s / 256 != d / 256) {
				g.end[2 * e] = s / 256 * 16 + q[s].port[1];
				g.end[2 * e + 1] = d / 256 * 16 + q[s].port[1];
			} else {
				continue;
			}
			bip_colour(&g, e);
		}
		for (s = 0; s < n; s++)
			if (s / (lvl == 2 ? 16 : 256) !=
			    perm[s] / (lvl == 2 ? 16 : 256))
				q[s].port[lvl - 1] = g.col[s];
	}
	free(g.at);
	free(g.end);
	free(g.col);
}

static void test_big(void)
{
	static const u32 m[3] = { 16, 16, 16 }, w[3] = { 1, 16, 16 };
	static const u32 c[3] = { 1, 1, 1 };
	struct ft_circuit_req *q = malloc(4096 * sizeof(*q));
	u32 *perm = malloc(4096 * sizeof(u32)), *pairs;
	struct ft_circuits cs;
	struct ft_topo t;
	struct ft_lanes l;
	struct ft_rand r;
	struct timespec t0, t1;
	char why[256] = "";
	u32 i, j, x, last, bad = ~0U, full = 0;
	int err;

	ft_topo_init(&t, 3, m, w, c);
	ft_lanes_init(&l, &t);
	tap_ok(!ft_circuits_init(&cs, 8192), "FT(3,16): table of 8192");
	ft_rand_seed(&r, 4096);
	for (i = 0; i < 4096; i++)
		perm[i] = i;
	for (i = 4095; i > 0; i--) {
		j = ft_rand_below(&r, i + 1);
		x = perm[i];
		perm[i] = perm[j];
		perm[j] = x;
	}
	route_ft3(perm, 4096, q);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	err = ft_circuits_add(&cs, &t, &l, q, 4096, 0, &bad);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	tap_diag("4096 circuits admitted in %.3f ms%s",
		 (t1.tv_sec - t0.tv_sec) * 1e3 +
		 (t1.tv_nsec - t0.tv_nsec) / 1e6, SANITIZED);
	tap_ok(!err && cs.n == 4096,
	       "a whole random permutation of FT(3,16) in one batch (err %d bad %u)",
	       err, bad);
	for (i = 0; i < l.n; i++)
		full += l.link[i].reserved == 1;
	tap_diag("%u of %u directed links full", full, l.n);
	tap_ok(consistent(&cs, &l, why, sizeof(why)), "consistent %s", why);
	for (last = 4095; perm[last] == last; last--)
		;
	q[last].lanes = 2;
	pairs = malloc(2 * 4096 * sizeof(u32));
	for (i = 0; i < 4096; i++) {
		pairs[2 * i] = i;
		pairs[2 * i + 1] = perm[i];
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	err = ft_circuits_del(&cs, &l, pairs, 4096, &bad);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	tap_diag("4096 circuits deleted in %.3f ms",
		 (t1.tv_sec - t0.tv_sec) * 1e3 +
		 (t1.tv_nsec - t0.tv_nsec) / 1e6);
	tap_ok(!err && !cs.n && none_reserved(&l), "all deleted in one batch");
	err = ft_circuits_add(&cs, &t, &l, q, 4096, 0, &bad);
	tap_ok(err == -ENOSPC && bad == last && !cs.n && none_reserved(&l) &&
	       cs.nfree == 8192,
	       "the same with one lane more on the last: refused, all undone");
	free(pairs);
	free(perm);
	free(q);
	ft_circuits_destroy(&cs);
	ft_lanes_destroy(&l);
}

int main(void)
{
	test_basics();
	test_exact();
	test_fig4();
	test_invalid();
	test_dup_and_room();
	test_admit();
	test_del();
	test_leases();
	test_events();
	test_random();
	test_big();
	return tap_done();
}
