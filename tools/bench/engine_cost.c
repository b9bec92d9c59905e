// SPDX-License-Identifier: GPL-2.0
/*
 * engine_cost: what one full-backlog delivery cycle of the engine core
 * costs, the kernel's per-cycle driver (ft_pairs_cycle() with the
 * fabric's empty circuit table) run natively in userspace.
 *
 * The fabric is the k-ary n-tree FT(l, k) of seed 002 (m = k on every
 * level, w = (1, k, ..., k)), one lane per link, path choice dmodk,
 * random arbitration, injection all; the sizes are its leaves k^l. Every
 * leaf starts with --pairs pairs of --depth messages each, to seeded
 * random destinations; when a pair drains, its source gets a new one to
 * a fresh random destination, so every leaf has pairs waiting in every
 * cycle. Only the calls to ft_pairs_cycle() are timed; the refill and
 * the checksum are not.
 *
 * One JSON object per size on stdout (or a table without --json): the
 * median ns per cycle, that per offer, offers and deliveries per cycle,
 * and a checksum of every cycle's offers and deliveries (a fixed number
 * of cycles: --warmup, then --cycles timed ones). The checksum is a function of the
 * engine's decisions alone: two builds of the engine that decide alike
 * print the same one (scripts/bench/engine compares them).
 *
 * The program uses only the engine's public interface (ft_fabric,
 * ft_pairs, ft_circuits), so scripts/bench/engine builds this one file
 * against the engine of another git revision to time both in one run.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ft_pairs.h"
#include "ftunits.h"

#define MAX_SIZES	16
#define WHY_LEN		128

struct args {
	u32 k;
	u32 sizes[MAX_SIZES];
	u32 nsizes;
	u32 pairs;
	u32 depth;
	u32 warmup;
	u32 cycles;
	u64 seed;
	int json;
};

/*
 * Each leaf's current destinations (@pairs of them, all different), and
 * the pairs that drained in the last cycle: their sources get new ones.
 */
struct refill {
	u32 pairs;
	u32 *cur;
	u32 *src;
	u32 *dst;
	u32 n;
};

static void on_done(void *arg, u32 slot, const struct ft_pair *p, u32 delivered)
{
	struct refill *r = arg;

	(void)slot;
	(void)delivered;
	if (!p->queued) {
		r->src[r->n] = p->src;
		r->dst[r->n++] = p->dst;
	}
}

/* splitmix64: the destinations' own generator, apart from the engine's. */
static u64 next_rand(u64 *s)
{
	u64 z = (*s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static u32 random_dst(u64 *s, u32 n, u32 src)
{
	u32 d = (u32)(next_rand(s) % (n - 1));

	return d >= src ? d + 1 : d;
}

static u64 fnv(u64 h, u32 v)
{
	u32 i;

	for (i = 0; i < 4; i++) {
		h ^= (v >> (8 * i)) & 0xff;
		h *= 0x100000001b3ULL;
	}
	return h;
}

static u64 now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (u64)ts.tv_sec * 1000000000ULL + (u64)ts.tv_nsec;
}

struct point {
	u32 leaves;
	u32 levels;
	u64 cycles;
	u64 offers;
	u64 delivered;
	u64 ns;
	u64 median_ns;
	u64 sum;
};

static int cmp_u64(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

static int levels_of(u32 k, u32 n)
{
	u32 l = 0;
	u64 v = 1;

	while (v < n) {
		v *= k;
		l++;
	}
	return v == n && l >= 1 && l <= FT_MAX_LEVELS ? (int)l : -1;
}

/*
 * A new pair of @depth messages from @src in place of its pair to @old
 * (FT_PAIR_NONE: in an empty place), to a destination it has no pair to.
 */
static int add_pair(struct ft_pairs *q, struct refill *r, u64 *rs, u32 n,
		    u32 src, u32 old, u32 depth, u64 now)
{
	u32 *cur = &r->cur[(size_t)src * r->pairs], d, j, at = r->pairs;

	for (j = 0; j < r->pairs; j++)
		if (cur[j] == old && at == r->pairs)
			at = j;
	if (at == r->pairs)
		return -1;
	do {
		d = random_dst(rs, n, src);
		for (j = 0; j < r->pairs && cur[j] != d; j++)
			;
	} while (j < r->pairs);
	cur[at] = d;
	return ft_pairs_add(q, src, d, 0, depth, now, NULL);
}

static int measure(const struct args *a, u32 n, struct point *pt)
{
	struct ft_fabric_params p;
	struct ft_fabric *fab = calloc(1, sizeof(*fab));
	struct ft_circuits circ;
	struct ft_cycle_result res;
	struct ft_pairs q;
	struct ft_topo t;
	u32 ones[FT_MAX_LEVELS];
	struct refill r = {
		.pairs = a->pairs,
		.cur = malloc((size_t)n * a->pairs * sizeof(u32)),
		.src = calloc((size_t)n * a->pairs, sizeof(u32)),
		.dst = calloc((size_t)n * a->pairs, sizeof(u32)),
	};
	u64 rs = a->seed, sum = 0xcbf29ce484222325ULL, cyc;
	/* About 2^22 offers' worth of cycles unless told. */
	u32 ncyc = a->cycles ? a->cycles : ft_max_u32(21, (1U << 20) / n);
	u64 *lap = calloc(ncyc, sizeof(u64));
	u32 i, j, lvl;
	int l = levels_of(a->k, n), rc = -1;

	memset(pt, 0, sizeof(*pt));
	memset(&q, 0, sizeof(q));
	memset(&circ, 0, sizeof(circ));
	if (l < 0 || n <= a->pairs) {
		fprintf(stderr, "engine_cost: %u leaves is not a power of %u above the pairs per leaf\n",
			n, a->k);
		goto out;
	}
	memset(&p, 0, sizeof(p));
	p.h = (u32)l;
	for (lvl = 0; lvl < p.h; lvl++) {
		p.m[lvl] = a->k;
		p.w[lvl] = lvl ? a->k : 1;
	}
	p.profile.kind = FT_PROFILE_CONSTANT;
	p.profile.base = 1;
	p.path = FT_PATH_DMODK;
	p.arb = FT_ARB_RANDOM;
	p.inject.rule = FT_INJECT_ALL;
	p.seed = a->seed;
	if (!fab || !r.cur || !r.src || !r.dst || !lap)
		goto oom;
	memset(r.cur, 0xff, (size_t)n * a->pairs * sizeof(u32));
	/* The scratch the kernel gives a fabric of this shape. */
	for (lvl = 0; lvl < p.h; lvl++)
		ones[lvl] = 1;
	if (ft_topo_init(&t, p.h, p.m, p.w, ones))
		goto out;
	p.max_msgs = ft_pairs_max_msgs(&t);
	if (ft_fabric_init(fab, &p)) {
		fprintf(stderr, "engine_cost: cannot make FT(%d,%u)\n", l, a->k);
		free(fab);
		fab = NULL;
		goto out;
	}
	if (ft_pairs_init(&q, n * a->pairs) ||
	    ft_circuits_init(&circ, 8 * n > 4096 ? 8 * n : 4096))
		goto oom;
	for (j = 0; j < a->pairs; j++)
		for (i = 0; i < n; i++)
			if (add_pair(&q, &r, &rs, n, i, FT_PAIR_NONE,
				     a->depth, 0))
				goto oom;
	pt->leaves = n;
	pt->levels = (u32)l;
	for (cyc = 0;; cyc++) {
		u64 t1, t2;
		int err;

		if (cyc == a->warmup + ncyc)
			break;
		r.n = 0;
		t1 = now_ns();
		err = ft_pairs_cycle(&q, fab, &circ, on_done, &r, &res);
		t2 = now_ns();
		if (err) {
			fprintf(stderr, "engine_cost: cycle failed (%d)\n", err);
			goto out;
		}
		for (i = 0; i < q.noff; i++) {
			const struct ft_offer *o = &q.off[i];

			sum = fnv(fnv(fnv(sum, o->src), o->dst),
				  o->count << 16 | o->delivered);
		}
		sum = fnv(sum, res.delivered);
		if (cyc >= a->warmup) {
			pt->cycles++;
			pt->offers += q.noff;
			pt->delivered += res.delivered;
			pt->ns += t2 - t1;
			lap[cyc - a->warmup] = t2 - t1;
		}
		for (i = 0; i < r.n; i++)
			if (add_pair(&q, &r, &rs, n, r.src[i], r.dst[i],
				     a->depth, fab->cycle))
				goto oom;
	}
	pt->sum = sum;
	qsort(lap, ncyc, sizeof(*lap), cmp_u64);
	pt->median_ns = lap[ncyc / 2];
	rc = 0;
	goto out;
oom:
	fprintf(stderr, "engine_cost: %u leaves: out of memory\n", n);
out:
	ft_circuits_destroy(&circ);
	ft_pairs_destroy(&q);
	if (fab)
		ft_fabric_destroy(fab);
	free(fab);
	free(lap);
	free(r.cur);
	free(r.src);
	free(r.dst);
	return rc;
}

/*
 * The median cycle stands for the size (a cycle the scheduler cut into
 * is an outlier, on a shared machine); per offer is that over the mean
 * offers of a cycle.
 */
static void print_point(const struct args *a, const struct point *pt)
{
	double c = pt->cycles ? (double)pt->cycles : 1;
	double opc = pt->offers / c;
	double per_offer = opc > 0 ? pt->median_ns / opc : 0;

	if (a->json) {
		printf("{\"leaves\":%u,\"shape\":\"kary:%u:%u\",\"k\":%u,\"levels\":%u,"
		       "\"pairs_per_leaf\":%u,\"depth\":%u,\"seed\":%" PRIu64 ","
		       "\"cycles\":%" PRIu64 ",\"offers_per_cycle\":%.1f,"
		       "\"delivered_per_cycle\":%.1f,\"ns_per_cycle\":%" PRIu64 ","
		       "\"mean_ns_per_cycle\":%.1f,\"ns_per_offer\":%.2f,"
		       "\"checksum\":\"%016" PRIx64 "\"}\n",
		       pt->leaves, pt->levels, a->k, a->k, pt->levels, a->pairs,
		       a->depth, a->seed, pt->cycles, opc, pt->delivered / c,
		       pt->median_ns, pt->ns / c, per_offer, pt->sum);
	} else {
		printf("%7u  FT(%u,%u)  %7" PRIu64 "  %10.1f  %10.1f  %12" PRIu64 "  %8.2f  %016" PRIx64 "\n",
		       pt->leaves, pt->levels, a->k, pt->cycles, opc,
		       pt->delivered / c, pt->median_ns, per_offer, pt->sum);
	}
	fflush(stdout);
}

static void usage(FILE *f)
{
	fprintf(f,
		"usage: engine_cost [--leaves N,N,...] [--k K] [--pairs P] [--depth D]\n"
		"                   [--cycles C] [--warmup W] [--seed S] [--json]\n"
		"Times full-backlog delivery cycles of the engine core on FT(l, K)\n"
		"(dmodk, one lane, random arbitration, injection all).\n"
		"  --leaves   sizes, powers of K (default 64,256,1024,4096,16384)\n"
		"  --k        switch radix K (default 4)\n"
		"  --pairs    pairs waiting per leaf (default 4)\n"
		"  --depth    messages per new pair (default 8)\n"
		"  --cycles   timed cycles per size (default max(20, 2^19 / leaves))\n"
		"  --warmup   untimed cycles first (default 10)\n"
		"  --seed     seed of the destinations and the engine (default 1)\n"
		"  --json     one JSON object per size\n");
}

/* A whole number from @min to @max into *@out, or -1 and why not. */
static int range_u32(const char *arg, u32 min, u32 max, u32 *out, char *why)
{
	u64 v;

	if (ft_parse_range(arg, min, max, &v, why, WHY_LEN))
		return -1;
	*out = (u32)v;
	return 0;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "leaves", required_argument, NULL, 'n' },
		{ "k", required_argument, NULL, 'k' },
		{ "pairs", required_argument, NULL, 'p' },
		{ "depth", required_argument, NULL, 'd' },
		{ "cycles", required_argument, NULL, 'c' },
		{ "warmup", required_argument, NULL, 'w' },
		{ "seed", required_argument, NULL, 's' },
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct args a = {
		.k = 4, .sizes = { 64, 256, 1024, 4096, 16384 }, .nsizes = 5,
		.pairs = 4, .depth = 8, .warmup = 10, .seed = 1,
	};
	struct point pt;
	unsigned int ns;
	char why[WHY_LEN] = "";
	int c, li = 0, bad = 0;
	u32 i;

	while ((c = getopt_long(argc, argv, "", opts, &li)) != -1) {
		switch (c) {
		case 'n':
			bad |= ft_parse_u32_list(optarg, 4, FT_MAX_LEAVES, a.sizes,
						 0, MAX_SIZES, &ns, why,
						 sizeof(why));
			a.nsizes = ns;
			break;
		case 'k':
			bad |= range_u32(optarg, 2, FT_MAX_W, &a.k, why);
			break;
		case 'p':
			bad |= range_u32(optarg, 1, 64, &a.pairs, why);
			break;
		case 'd':
			bad |= range_u32(optarg, 1, 1U << 20, &a.depth, why);
			break;
		case 'c':
			bad |= range_u32(optarg, 1, 1U << 30, &a.cycles, why);
			break;
		case 'w':
			bad |= range_u32(optarg, 0, 1U << 20, &a.warmup, why);
			break;
		case 's':
			bad |= ft_parse_range(optarg, 0, UINT64_MAX, &a.seed,
					      why, sizeof(why));
			break;
		case 'j':
			a.json = 1;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
		if (bad) {
			fprintf(stderr, "engine_cost: --%s %s: %s\n",
				opts[li].name, optarg, why);
			return 2;
		}
	}
	if (optind != argc) {
		usage(stderr);
		return 2;
	}
	if (!a.json)
		printf(" leaves  shape     cycles  offers/cyc  deliv/cyc  median ns/cyc  ns/offer  checksum\n");
	for (i = 0; i < a.nsizes; i++) {
		if (measure(&a, a.sizes[i], &pt))
			return 1;
		print_point(&a, &pt);
	}
	return 0;
}
