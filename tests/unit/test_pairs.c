// SPDX-License-Identifier: GPL-2.0
/*
 * The pool of waiting pairs: a count that would overflow is refused with
 * nothing changed, and taking back a batch of adds in reverse order
 * (what the kernel does when one row of an injection cannot be queued)
 * leaves the pool exactly as it was, slot order included.
 */
#include "tap.h"
#include "harness.h"
#include "../../kmod/core/ft_pairs.h"
#include "../../kmod/core/ft_rand.h"

#include <stdlib.h>
#include <string.h>

#define CAP	64

struct pool_snap {
	struct ft_pairs hdr;
	struct ft_pair pair[CAP];
	u32 hnext[CAP];
	u64 since[CAP];
	u32 active[CAP], free[CAP], bucket[CAP];
};

static void take(struct pool_snap *s, const struct ft_pairs *q)
{
	s->hdr = *q;
	memcpy(s->pair, q->pair, sizeof(s->pair));
	memcpy(s->hnext, q->hnext, sizeof(s->hnext));
	memcpy(s->since, q->since, sizeof(s->since));
	memcpy(s->active, q->active, sizeof(s->active));
	memcpy(s->free, q->free, sizeof(s->free));
	memcpy(s->bucket, q->bucket, (q->hmask + 1) * sizeof(u32));
}

/* Same state: counts, active order, free stack, hash chains, and every
 * active pair's contents (free slots may hold stale bytes).
 */
static int same(const struct pool_snap *s, const struct ft_pairs *q)
{
	u32 i;

	if (s->hdr.nactive != q->nactive || s->hdr.nfree != q->nfree ||
	    s->hdr.queued != q->queued ||
	    memcmp(s->active, q->active, q->nactive * sizeof(u32)) ||
	    memcmp(s->free, q->free, q->nfree * sizeof(u32)) ||
	    memcmp(s->bucket, q->bucket, (q->hmask + 1) * sizeof(u32)))
		return 0;
	for (i = 0; i < q->nactive; i++) {
		u32 k = q->active[i];

		if (memcmp(&s->pair[k], &q->pair[k], sizeof(struct ft_pair)) ||
		    s->hnext[k] != q->hnext[k] || s->since[k] != q->since[k])
			return 0;
	}
	return 1;
}

/* Slots that drained in a cycle, in the order the callback saw them. */
struct drains {
	u32 slot[CAP];
	u32 n;
};

static void on_done(void *arg, u32 slot, const struct ft_pair *p, u32 n)
{
	struct drains *d = arg;

	(void)n;
	if (!p->queued)
		d->slot[d->n++] = slot;
}

/*
 * Cycles of GREEDY on a small fabric, with pairs added between them: the
 * pairs a cycle drained leave the active order, the others keep theirs,
 * and the drained slots go on the free stack in that order, whether
 * every active pair made an offer (a cycle's room sufficed) or not.
 */
static void test_compaction(u32 max_msgs)
{
	static const u32 m[2] = { 4, 4 }, w[2] = { 1, 4 }, c[2] = { 1, 2 };
	struct ft_fabric_params p;
	struct ft_cycle_result res;
	struct ft_fabric f;
	struct ft_pairs q;
	struct ft_rand r;
	struct drains d;
	u32 before[CAP], nbefore, i, j, k, cyc, slot, drained = 0;
	bool good = true;

	fabric_params(&p, 2, m, w, c);
	p.arb = FT_ARB_RANDOM;
	p.max_msgs = max_msgs;
	if (ft_fabric_init(&f, &p) || ft_pairs_init(&q, CAP)) {
		tap_ok(0, "a fabric and a pool");
		return;
	}
	ft_rand_seed(&r, max_msgs);
	for (cyc = 0; cyc < 500 && good; cyc++) {
		for (i = ft_rand_below(&r, 12); i-- && q.nactive < CAP;)
			ft_pairs_add(&q, ft_rand_below(&r, 16),
				     ft_rand_below(&r, 16), 0,
				     1 + ft_rand_below(&r, 3), cyc, &slot);
		nbefore = q.nactive;
		memcpy(before, q.active, nbefore * sizeof(u32));
		d.n = 0;
		if (ft_pairs_cycle(&q, &f, NULL, on_done, &d, &res)) {
			good = false;
			break;
		}
		drained += d.n;
		good &= q.nactive + d.n == nbefore && q.nfree >= d.n;
		for (i = 0, j = 0, k = 0; good && i < nbefore; i++) {
			if (k < d.n && before[i] == d.slot[k]) {
				good &= q.free[q.nfree - d.n + k] == d.slot[k];
				k++;
				continue;
			}
			good &= j < q.nactive && q.active[j++] == before[i];
		}
		good &= k == d.n;
	}
	tap_ok(good && drained > 100,
	       "cycles of at most %u messages: the drained leave the active order, the rest keep it (%u drained)",
	       max_msgs, drained);
	ft_pairs_destroy(&q);
	ft_fabric_destroy(&f);
}

/*
 * A cycle sized by ft_pairs_pool_msgs() for a pool of @cap pairs holds
 * every pair's offer: with all @cap slots waiting, each with more than a
 * cycle's worth, the first cycle offers a cycle's worth of each.
 */
static void test_max_msgs(u32 cap, u32 rule)
{
	static const u32 m[2] = { 4, 4 }, w[2] = { 1, 4 }, c[2] = { 3, 4 };
	const u32 per_pair = w[0] * c[0];
	struct ft_fabric_params p;
	struct ft_cycle_result res;
	struct ft_fabric f;
	struct ft_topo t;
	struct ft_pairs q;
	u32 max, i;
	bool good;

	fabric_params(&p, 2, m, w, c);
	p.arb = FT_ARB_RANDOM;
	p.inject.rule = rule;
	p.inject.r_q16 = 65536;
	if (ft_topo_init(&t, 2, m, w, c)) {
		tap_ok(0, "a topology");
		return;
	}
	max = ft_pairs_pool_msgs(&t, cap);
	p.max_msgs = max;
	if (ft_fabric_init(&f, &p) || ft_pairs_init(&q, cap)) {
		tap_ok(0, "a fabric and a pool");
		return;
	}
	for (i = 0; i < cap; i++)
		ft_pairs_add(&q, i % 16, (i / 16 + i) % 16, i / 256, per_pair + 2, 0, NULL);
	good = q.nactive == cap && !ft_pairs_cycle(&q, &f, NULL, NULL, NULL, &res);
	tap_ok(good && max == cap * per_pair &&
	       res.offered == cap * per_pair,
	       "a pool of %u pairs, rule %u: a cycle of %u messages, %u offered",
	       cap, rule, max, good ? res.offered : 0);
	ft_pairs_destroy(&q);
	ft_fabric_destroy(&f);
}

/* A cycle's deliveries, per pair slot, and whether any went to a held leaf. */
struct got {
	u32 n[CAP];
	const u8 *hold;
	bool to_held;
};

static void on_got(void *arg, u32 slot, const struct ft_pair *p, u32 n)
{
	struct got *g = arg;

	g->n[slot] += n;
	g->to_held |= g->hold && g->hold[p->dst];
}

/*
 * Holding leaves (ft_pairs_hold()): twin pools on twin fabrics, given the
 * same pairs, one with leaf 15 held while no pair ever goes there (so
 * its cycles take the general loop) and one without a hold array (the
 * short loops): the same deliveries, cycle by cycle, under each
 * injection rule; then leaves held and released at random: nothing goes
 * to a held leaf, what waits for one is counted as held, and everything
 * arrives once all are released.
 */
static void test_hold(enum ft_inject_rule rule, const u32 *c, u32 max_msgs)
{
	static const u32 m[2] = { 4, 4 }, w[2] = { 1, 4 };
	struct ft_fabric_params p;
	struct ft_cycle_result ra, rb;
	struct ft_fabric fa, fb;
	struct ft_pairs qa, qb;
	struct got ga, gb;
	struct ft_rand r;
	u8 hold[16] = { 0 };
	u64 added = 0, got = 0, held = 0;
	u32 i, cyc, a, b, k, slot, differ = 0, bad = 0;
	const char *rname = rule == FT_INJECT_ALL ? "greedy" :
			    rule == FT_INJECT_RANDOM ? "random" : "random'";
	char name[64];

	fabric_params(&p, 2, m, w, c);
	p.arb = FT_ARB_RANDOM;
	p.inject.rule = rule;
	p.max_msgs = max_msgs;
	if (ft_fabric_init(&fa, &p) || ft_fabric_init(&fb, &p) ||
	    ft_pairs_init(&qa, CAP) || ft_pairs_init(&qb, CAP)) {
		tap_ok(0, "two fabrics and two pools");
		return;
	}
	snprintf(name, sizeof(name), "%s, lanes %u,%u, cycles of %u", rname,
		 c[0], c[1], max_msgs);
	qb.hold = hold;
	tap_ok(ft_pairs_hold(&qb, 15, true) && !ft_pairs_hold(&qb, 15, true) &&
	       qb.nhold == 1 && !ft_pairs_hold(&qa, 3, true),
	       "%s: a hold changes state once; a pool without the array has none",
	       name);
	ft_rand_seed(&r, 11 + rule);
	for (cyc = 0; cyc < 400; cyc++) {
		for (i = ft_rand_below(&r, 6); i-- && qa.nactive < CAP - 1;) {
			a = ft_rand_below(&r, 16);
			b = ft_rand_below(&r, 15);
			k = 1 + ft_rand_below(&r, 3);
			ft_pairs_add(&qa, a, b, 0, k, cyc, &slot);
			ft_pairs_add(&qb, a, b, 0, k, cyc, &slot);
		}
		memset(&ga, 0, sizeof(ga));
		memset(&gb, 0, sizeof(gb));
		if (ft_pairs_cycle(&qa, &fa, NULL, on_got, &ga, &ra) ||
		    ft_pairs_cycle(&qb, &fb, NULL, on_got, &gb, &rb))
			break;
		differ += memcmp(ga.n, gb.n, sizeof(ga.n)) != 0 ||
			  ra.delivered != rb.delivered || rb.held;
	}
	tap_ok(cyc == 400 && !differ,
	       "%s: a hold on a leaf nobody sends to changes no delivery (%u of 400 cycles differ)",
	       name, differ);

	/* Holds that come and go; what waits already counts as added. */
	ft_pairs_hold(&qb, 15, false);
	added = qb.queued;
	for (cyc = 0; cyc < 1500 || (qb.queued && cyc < 100000); cyc++) {
		if (cyc < 1500) {
			for (i = ft_rand_below(&r, 6); i-- && qb.nactive < CAP - 1;) {
				k = 1 + ft_rand_below(&r, 3);
				if (!ft_pairs_add(&qb, ft_rand_below(&r, 16),
						  ft_rand_below(&r, 16), 0, k,
						  cyc, &slot))
					added += k;
			}
			a = ft_rand_below(&r, 16);
			ft_pairs_hold(&qb, a, !hold[a]);
		} else if (cyc == 1500) {
			for (a = 0; a < 16; a++)
				ft_pairs_hold(&qb, a, false);
		}
		memset(&gb, 0, sizeof(gb));
		gb.hold = hold;
		if (ft_pairs_cycle(&qb, &fb, NULL, on_got, &gb, &rb))
			break;
		bad += gb.to_held;
		got += rb.delivered;
		held += rb.held;
	}
	tap_ok(!bad && held > 0 && qb.nhold == 0 &&
	       got == added && qb.queued == 0,
	       "%s: nothing reaches a held leaf (%u cycles did), %llu message-cycles held, %llu of %llu arrive once released (cycle %u)",
	       name, bad, (unsigned long long)held, (unsigned long long)got,
	       (unsigned long long)added, cyc);
	ft_pairs_destroy(&qa);
	ft_pairs_destroy(&qb);
	ft_fabric_destroy(&fa);
	ft_fabric_destroy(&fb);
}

int main(void)
{
	struct ft_pairs q;
	struct pool_snap before;
	struct ft_rand r;
	u32 src[16], dst[16], cnt[16];
	int round, bad = 0, refused = 0;

	if (ft_pairs_init(&q, CAP))
		return 1;
	ft_rand_seed(&r, 5);

	/* Overflow: refused, nothing changed. */
	tap_ok(ft_pairs_add(&q, 1, 2, 0, 0xffffffffU, 0, NULL) == 0, "a pair takes 2^32 - 1 messages");
	take(&before, &q);
	tap_ok(ft_pairs_add(&q, 1, 2, 0, 1, 0, NULL) == -FT_ERANGE && same(&before, &q),
	       "one more is refused with nothing changed");
	tap_ok(ft_pairs_add(&q, 1, 2, FT_PAIRS_TAGS, 1, 0, NULL) == -FT_EINVAL &&
	       same(&before, &q), "a tag past FT_PAIRS_TAGS is refused with nothing changed");
	tap_ok(ft_pairs_add(&q, 1, 2, FT_PAIRS_TAGS - 1, 1, 0, NULL) == 0 &&
	       q.pair[q.active[q.nactive - 1]].tag == FT_PAIRS_TAGS - 1, "the last tag is kept whole");
	ft_pairs_unadd(&q, 1, 2, FT_PAIRS_TAGS - 1, 1);
	ft_pairs_unadd(&q, 1, 2, 0, 0xffffffffU);
	tap_ok(q.nactive == 0 && q.nfree == CAP && q.queued == 0,
	       "taking the add back returns the pair to the pool");

	/* Random batches on a random pool, taken back in reverse order. */
	for (round = 0; round < 2000; round++) {
		u32 k = 1 + ft_rand_below(&r, 16), i, n;

		for (i = 0; i < k && q.nactive < CAP - 16; i++)
			ft_pairs_add(&q, ft_rand_below(&r, 6), ft_rand_below(&r, 6),
				     ft_rand_below(&r, 2), 1 + ft_rand_below(&r, 5), round, NULL);
		take(&before, &q);
		for (n = 0; n < k; n++) {
			src[n] = ft_rand_below(&r, 8);
			dst[n] = ft_rand_below(&r, 8);
			cnt[n] = ft_rand_below(&r, 4) ? 1 + ft_rand_below(&r, 9) : 0xfffffff0U;
			if (ft_pairs_add(&q, src[n], dst[n], 1, cnt[n], round, NULL))
				break;
		}
		if (n < k)
			refused++;
		while (n--)
			ft_pairs_unadd(&q, src[n], dst[n], 1, cnt[n]);
		if (!same(&before, &q))
			bad++;
		/* Drain some, so pools of every size come up. */
		if (ft_rand_below(&r, 4) == 0) {
			ft_pairs_destroy(&q);
			ft_pairs_init(&q, CAP);
		}
	}
	tap_ok(!bad, "2000 batches taken back leave the pool exactly as it was (%d differ, %d hit an overflow)",
	       bad, refused);
	tap_ok(refused > 0, "some batches overflowed a pair's count");
	ft_pairs_destroy(&q);
	test_compaction(4096);
	test_compaction(6);
	test_max_msgs(1, FT_INJECT_ALL);
	test_max_msgs(37, FT_INJECT_ALL);
	test_max_msgs(CAP * 16, FT_INJECT_RANDOM);
	{
		/* A large fabric keeps its few cycles' worth (4 n w_1 c_1). */
		static const u32 m[2] = { 64, 64 }, w[2] = { 1, 64 }, c[2] = { 8, 8 };
		struct ft_topo t;

		tap_ok(!ft_topo_init(&t, 2, m, w, c) &&
		       ft_pairs_max_msgs(&t) == 4 * 4096 * 8 &&
		       ft_pairs_pool_msgs(&t, 1U << 20) == 4 * 4096 * 8 &&
		       ft_pairs_pool_msgs(&t, 100) == 100 * 8,
		       "4096 leaves of 8 lanes: 131072 messages a cycle, or what 100 pairs offer");
	}
	for (round = 0; round < 3; round++) {
		/* One lane (offers of one message each), then more lanes than
		 * a small cycle holds, so that its room runs out.
		 */
		static const u32 one[2] = { 1, 2 }, more[2] = { 3, 4 };
		static const enum ft_inject_rule rules[3] = {
			FT_INJECT_ALL, FT_INJECT_RANDOM, FT_INJECT_RANDOM_PRIME,
		};

		test_hold(rules[round], one, 4096);
		test_hold(rules[round], more, 8);
	}
	return tap_done();
}
