// SPDX-License-Identifier: GPL-2.0
/*
 * The traffic patterns' one home (lib/ftpattern): on many shapes
 * (binary:N, kary:L:K, odd numbers of address bits among them: 8, 32,
 * 128, 512 leaves) every permutation pattern is a permutation, bit-reversal
 * and transpose are what ftpattern.h defines (checked digit by digit
 * here), and the tools' own code paths give the library's destinations:
 * ftsim's ftsim_pattern_dsts() (sched and cycles) and fttraffic's
 * ftt_pattern_build() for the same seed. (fttraffic's old hot-spot, now
 * hot-uniform: test_ftlib.)
 */
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "ftsim.h"
#include "fttraffic.h"
#include "ft_rand.h"

static const char *const shapes[] = {
	"binary:2", "binary:4", "binary:8", "binary:16", "binary:32", "binary:64",
	"binary:128", "binary:256", "binary:512", "binary:1024",
	"kary:3:2", "kary:7:2", "kary:9:2", "kary:2:3", "kary:3:3", "kary:4:3",
	"kary:2:4", "kary:3:4", "kary:2:5", "kary:2:6", "kary:2:8", "kary:3:8",
	"kary:2:16",
};
#define NSHAPES (sizeof(shapes) / sizeof(shapes[0]))

/* The permutations: each leaf sends to one leaf and receives from one. */
static const enum ft_pattern perms[] = {
	FT_PATTERN_PERMUTATION, FT_PATTERN_BIT_REVERSAL, FT_PATTERN_TRANSPOSE,
	FT_PATTERN_SHIFT, FT_PATTERN_STRIDE, FT_PATTERN_TORNADO, FT_PATTERN_NEIGHBOUR,
};
#define NPERMS (sizeof(perms) / sizeof(perms[0]))

/* The patterns ftsim sched and cycles take from ftsim_pattern_dsts(). */
static const enum ft_pattern ftsim_pats[] = {
	FT_PATTERN_PERMUTATION, FT_PATTERN_BIT_REVERSAL, FT_PATTERN_TRANSPOSE,
	FT_PATTERN_SHIFT, FT_PATTERN_HOT_SPOT, FT_PATTERN_UNIFORM,
};
#define NFTSIM (sizeof(ftsim_pats) / sizeof(ftsim_pats[0]))

static int shape_of(const char *word, struct ftsim_shape *sh, struct ft_pattern_shape *ps)
{
	if (ftsim_parse_shape("test", "--shape", word, sh)) {
		tap_diag("%s: not a shape", word);
		return -1;
	}
	ftsim_pattern_shape(sh, ps);
	return 0;
}

static bool is_permutation(const uint32_t *v, uint32_t n)
{
	bool ok = true;
	uint8_t *seen = calloc(n, 1);
	uint32_t i;

	for (i = 0; i < n && seen; i++) {
		ok &= v[i] < n && !seen[v[i]];
		if (v[i] < n)
			seen[v[i]] = 1;
	}
	free(seen);
	return ok && seen;
}

/* @x's @nd digits in radix @r, the lowest first, into @d. */
static void digits(uint32_t x, uint32_t r, uint32_t nd, uint32_t *d)
{
	for (uint32_t i = 0; i < nd; i++, x /= r)
		d[i] = x % r;
}

static uint32_t number(const uint32_t *d, uint32_t r, uint32_t nd)
{
	uint32_t x = 0;

	for (uint32_t i = nd; i-- > 0;)
		x = x * r + d[i];
	return x;
}

/*
 * Bit-reversal and transpose against the header's words, on the digits
 * themselves: digit j of the reversal is digit nd-1-j; transpose puts the
 * low lo = floor(nd/2) digits on top (digit lo + j of i is digit j of the
 * destination, digit j < lo of i is digit nd - lo + j).
 */
static bool digit_patterns_hold(const struct ft_pattern_shape *ps, const uint32_t *rev,
				const uint32_t *tr)
{
	uint32_t r = ps->radix, nd = ps->digits, lo = nd / 2, d[32], e[32], i, j;

	for (i = 0; i < ps->n; i++) {
		digits(i, r, nd, d);
		for (j = 0; j < nd; j++)
			e[j] = d[nd - 1 - j];
		if (rev[i] != number(e, r, nd))
			return false;
		for (j = 0; j < nd; j++)
			e[j] = j < nd - lo ? d[lo + j] : d[j - (nd - lo)];
		if (tr[i] != number(e, r, nd))
			return false;
	}
	return true;
}

static void test_permutations(void)
{
	struct ft_pattern_args a = { .k = 3 };
	uint32_t s, p, *v = NULL, *rev = NULL, *tr = NULL;
	unsigned int perm_bad = 0, perm_runs = 0, digit_bad = 0, digit_shapes = 0;
	struct ft_pattern_shape ps;
	struct ft_pattern_rng rng;
	struct ftsim_shape sh;
	struct ft_rand r;

	for (s = 0; s < NSHAPES; s++) {
		if (shape_of(shapes[s], &sh, &ps))
			continue;
		v = realloc(v, ps.n * sizeof(*v));
		rev = realloc(rev, ps.n * sizeof(*rev));
		tr = realloc(tr, ps.n * sizeof(*tr));
		ft_rand_seed(&r, s + 1);
		rng = FT_PATTERN_RNG(&r);
		for (p = 0; p < NPERMS; p++) {
			a.derange = false;
			if (!ft_pattern_fits(perms[p], &ps))
				continue;
			perm_runs++;
			if (ft_pattern_dsts(perms[p], &ps, &a, &rng, v) || !is_permutation(v, ps.n)) {
				tap_diag("%s: %s is not a permutation", shapes[s],
					 ft_pattern_name(perms[p]));
				perm_bad++;
			}
		}
		a.derange = true;
		if (ft_pattern_dsts(FT_PATTERN_PERMUTATION, &ps, &a, &rng, v) ||
		    !is_permutation(v, ps.n)) {
			perm_bad++;
		} else {
			for (p = 0; p < ps.n; p++)
				perm_bad += v[p] == p;
		}
		if (!ps.digits) {
			tap_diag("%s: no digits", shapes[s]);
			digit_bad++;
			continue;
		}
		digit_shapes++;
		ft_pattern_dsts(FT_PATTERN_BIT_REVERSAL, &ps, &a, &rng, rev);
		ft_pattern_dsts(FT_PATTERN_TRANSPOSE, &ps, &a, &rng, tr);
		if (!digit_patterns_hold(&ps, rev, tr)) {
			tap_diag("%s: bit-reversal or transpose off their definition", shapes[s]);
			digit_bad++;
		}
	}
	tap_ok(!perm_bad, "%u runs of the permutation patterns on %zu shapes: each a permutation"
	       " (derangements without fixed points)", perm_runs, NSHAPES);
	tap_ok(!digit_bad, "bit-reversal and transpose reverse / rotate the address digits on"
	       " %u shapes", digit_shapes);
	free(v);
	free(rev);
	free(tr);
}

/* The digits: bits on power-of-two leaves, else base K; none on mixed shapes. */
static void test_digits(void)
{
	struct ft_pattern_shape ps;
	struct ftsim_shape sh;
	uint32_t v[8];

	shape_of("kary:3:4", &sh, &ps);
	tap_ok(ps.radix == 2 && ps.digits == 6, "kary:3:4: 6 binary digits (64 leaves)");
	shape_of("kary:2:3", &sh, &ps);
	tap_ok(ps.radix == 3 && ps.digits == 2, "kary:2:3: 2 base-3 digits");
	shape_of("xgft:2:3,2:1,1", &sh, &ps);
	tap_ok(!ps.digits && !ft_pattern_fits(FT_PATTERN_TRANSPOSE, &ps) &&
	       ft_pattern_dsts(FT_PATTERN_BIT_REVERSAL, &ps, &(struct ft_pattern_args){ 0 },
			       NULL, v) == -1,
	       "xgft:2:3,2:1,1 (6 leaves, mixed arity): no digits, bit-reversal and transpose refused");
	shape_of("binary:8", &sh, &ps);
	ft_pattern_dsts(FT_PATTERN_TRANSPOSE, &ps, &(struct ft_pattern_args){ 0 }, NULL, v);
	tap_ok(v[1] == 4 && v[2] == 1 && v[4] == 2 && v[3] == 5 && v[6] == 3,
	       "transpose on 8 leaves: the low bit to the top (1->4, 2->1, 4->2, 3->5, 6->3)");
}

/* ftsim sched's and cycles' destinations are the library's, draw for draw. */
static void test_ftsim(void)
{
	unsigned int runs = 0, bad = 0;
	struct ft_pattern_shape ps;
	struct ft_pattern_rng rng;
	struct ftsim_shape sh;
	struct ft_rand r1, r2;
	uint32_t s, p, *v = NULL, *w = NULL;

	for (s = 0; s < NSHAPES; s++) {
		if (shape_of(shapes[s], &sh, &ps))
			continue;
		v = realloc(v, ps.n * sizeof(*v));
		w = realloc(w, ps.n * sizeof(*w));
		for (p = 0; p < NFTSIM; p++) {
			struct ft_pattern_args a = { .k = ps.n / 2, .hot_pct = 30 };

			ft_rand_seed(&r1, 77 + s);
			ft_rand_seed(&r2, 77 + s);
			rng = FT_PATTERN_RNG(&r2);
			runs++;
			if (ftsim_pattern_dsts(ftsim_pats[p], &sh, 30, &r1, v) ||
			    ft_pattern_dsts(ftsim_pats[p], &ps, &a, &rng, w) ||
			    memcmp(v, w, ps.n * sizeof(*v)) || ft_rand_u64(&r1) != ft_rand_u64(&r2)) {
				tap_diag("ftsim %s on %s differs", ft_pattern_name(ftsim_pats[p]),
					 shapes[s]);
				bad++;
			}
		}
	}
	tap_ok(!bad, "ftsim_pattern_dsts() is the library's on %u shape and pattern pairs", runs);
	free(v);
	free(w);
}

/* fttraffic's set of @pat on shape @sh, against the library's dst[] for @a. */
static bool fttraffic_same(const char *word, enum ft_pattern pat, const struct ftsim_shape *sh,
			   const struct ft_pattern_shape *ps, const struct ft_pattern_args *a,
			   double hot_fraction)
{
	struct ftt_pattern p = {
		.name = word, .n = sh->n, .m1 = sh->m[0], .levels = sh->h, .m = sh->m,
		.count = 1, .seed = 9, .shift = a->k, .root = a->root,
		.hot_fraction = hot_fraction, .no_fixed_points = a->derange,
	};
	struct ft_pattern_rng rng;
	uint32_t *v = malloc(ps->n * sizeof(*v)), i, k = 0;
	struct ft_rand r;
	struct ftt_set s = { 0 };
	char err[256];
	bool ok;

	ft_rand_seed(&r, 9);
	rng = FT_PATTERN_RNG(&r);
	ok = v && !ft_pattern_dsts(pat, ps, a, &rng, v) &&
	     !ftt_pattern_build(&p, &s, err, sizeof(err));
	for (i = 0; ok && i < ps->n; i++) {
		if (v[i] == i)
			continue;
		ok = k < s.nflows && s.flow[k].src == i && s.flow[k].dst == v[i] &&
		     s.flow[k].count == 1;
		k++;
	}
	ok = ok && k == s.nflows;
	ftt_set_free(&s);
	free(v);
	return ok;
}

static void test_fttraffic(void)
{
	static const struct {
		const char *word;
		enum ft_pattern p;
		bool derange;
		double hot;
	} t[] = {
		{ "permutation", FT_PATTERN_PERMUTATION, false, 0 },
		{ "permutation", FT_PATTERN_PERMUTATION, true, 0 },
		{ "bit-reversal", FT_PATTERN_BIT_REVERSAL, false, 0 },
		{ "transpose", FT_PATTERN_TRANSPOSE, false, 0 },
		{ "shift", FT_PATTERN_SHIFT, false, 0 },
		{ "stride", FT_PATTERN_STRIDE, false, 0 },
		{ "tornado", FT_PATTERN_TORNADO, false, 0 },
		{ "neighbour", FT_PATTERN_NEIGHBOUR, false, 0 },
		{ "uniform", FT_PATTERN_HOT_UNIFORM, false, 0 },
		{ "hot-uniform", FT_PATTERN_HOT_UNIFORM, false, 0.3 },
		{ "hot-spot", FT_PATTERN_HOT_UNIFORM, false, 0.3 },
	};
	unsigned int runs = 0, bad = 0;
	struct ft_pattern_shape ps;
	struct ftsim_shape sh;
	uint32_t s, k;

	for (s = 0; s < NSHAPES; s++) {
		if (shape_of(shapes[s], &sh, &ps))
			continue;
		for (k = 0; k < sizeof(t) / sizeof(t[0]); k++) {
			struct ft_pattern_args a = {
				.k = 5, .derange = t[k].derange, .root = ps.n - 1,
				.hot_q32 = (uint64_t)(t[k].hot * 4294967296.0),
			};

			if (!ft_pattern_fits(t[k].p, &ps))
				continue;
			runs++;
			if (!fttraffic_same(t[k].word, t[k].p, &sh, &ps, &a, t[k].hot)) {
				tap_diag("fttraffic %s on %s differs", t[k].word, shapes[s]);
				bad++;
			}
		}
	}
	tap_ok(!bad, "fttraffic's sets are the library's on %u shape and pattern pairs", runs);
}

int main(void)
{
	test_permutations();
	test_digits();
	test_ftsim();
	test_fttraffic();
	return tap_done();
}
