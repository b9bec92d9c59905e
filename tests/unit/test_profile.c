// SPDX-License-Identifier: GPL-2.0
/* Capacity profiles against the papers' formulas, and the congestion r. */
#include <math.h>
#include "tap.h"
#include "harness.h"
#include "../../kmod/core/ft_math.h"
#include "../../kmod/core/ft_profile.h"

static u32 two[FT_MAX_LEVELS] = { [0 ... FT_MAX_LEVELS - 1] = 2 };
static u32 one[FT_MAX_LEVELS] = { [0 ... FT_MAX_LEVELS - 1] = 1 };

/*
 * ceil(x) of a formula evaluated in long double.  Values within 1e-9 of
 * an integer are that integer (sqrt 2^(2j), cbrt 4^(3j) and friends are
 * exact; no irrational value here comes that close).
 */
static long long safe_ceil(long double x)
{
	long double r = roundl(x);

	if (fabsl(x - r) < 1e-9L)
		return (long long)r;
	return (long long)ceill(x);
}

/* Binary tree with h levels: our lanes c_(i+1) belong to channel level i
 * (S = 2^i leaves), Leiserson's k = h - i levels from the root.
 */
static int check_binary(const struct ft_profile *p, u32 h,
			long double (*formula)(const struct ft_profile *,
					       u32, u32), u32 *skipped)
{
	u32 lanes[FT_MAX_LEVELS], i;
	long long want;

	if (ft_profile_lanes(p, h, two, one, lanes))
		return 0;
	for (i = 0; i < h; i++) {
		want = safe_ceil(formula(p, h, i));
		if (fabsl(formula(p, h, i) - roundl(formula(p, h, i))) < 1e-9L)
			(*skipped)++;
		if (want < 1)
			want = 1;
		if ((long long)lanes[i] != want) {
			tap_diag("h %u level %u: got %u want %lld", h, i,
				 lanes[i], want);
			return 0;
		}
	}
	return 1;
}

static long double f_doubling(const struct ft_profile *p, u32 h, u32 i)
{
	(void)h;
	return p->base * powl(2, i);
}

static long double f_standard(const struct ft_profile *p, u32 h, u32 i)
{
	(void)h;
	return p->base * powl(2, i / 2);	/* 1, 1, 2, 2, 4, 4, ... */
}

static long double f_area(const struct ft_profile *p, u32 h, u32 i)
{
	(void)h;
	return p->base * powl(sqrtl(2), i);
}

static long double f_volume(const struct ft_profile *p, u32 h, u32 i)
{
	(void)h;
	return p->base * powl(cbrtl(4), i);
}

/* Leiserson: cap(k) = min{ceil(n / 2^k), ceil(w / 2^(2k/3))}. */
static long double f_universal(const struct ft_profile *p, u32 h, u32 i)
{
	u32 k = h - i;
	long double a = ceill(powl(2, h) / powl(2, k));
	long double b = p->root / powl(2, 2.0L * k / 3.0L);

	if (fabsl(b - roundl(b)) < 1e-9L)
		b = roundl(b);
	return fminl(a, ceill(b));
}

/* Profile @kind against @formula on binary trees of 1..8 levels, bases 1..3. */
static int check_bases(enum ft_profile_kind kind,
		       long double (*formula)(const struct ft_profile *, u32, u32),
		       u32 *skipped)
{
	struct ft_profile p = { .kind = kind };
	int good = 1;
	u32 h;

	for (h = 1; h <= 8; h++)
		for (p.base = 1; p.base <= 3; p.base++)
			good &= check_binary(&p, h, formula, skipped);
	return good;
}

static void test_binary(void)
{
	struct ft_profile p = { 0 };
	u32 h, skipped = 0, wroot;
	int good;

	tap_ok(check_bases(FT_PROFILE_DOUBLING, f_doubling, &skipped),
	       "doubling: b * 2^i on binary trees");
	p.kind = FT_PROFILE_STANDARD;
	p.base = 1;
	for (good = 1, h = 1; h <= 8; h++)
		good &= check_binary(&p, h, f_standard, &skipped);
	tap_ok(good, "standard: 1,1,2,2,4,4,... (x2 every other level)");
	tap_ok(check_bases(FT_PROFILE_AREA, f_area, &skipped), "area: ceil(b * sqrt(2)^i)");
	tap_ok(check_bases(FT_PROFILE_VOLUME, f_volume, &skipped),
	       "volume: ceil(b * cbrt(4)^i)");
	p.kind = FT_PROFILE_UNIVERSAL;
	for (good = 1, h = 1; h <= 12; h++)
		for (wroot = 1; wroot <= (1U << h); wroot++) {
			p.root = wroot;
			good &= check_binary(&p, h, f_universal, &skipped);
		}
	tap_ok(good, "universal(n, w): min{ceil(n/2^k), ceil(w/2^(2k/3))} "
	       "for every w <= n, n <= 4096");
}

static const u32 m4[3] = { 4, 4, 4 }, w1[3] = { 1, 1, 1 };
static const u32 w4[3] = { 1, 4, 4 };

/* @p's lanes on the 3-level 4-ary tree with @w parents a level: l0, l1, l2. */
static int lanes_are(const struct ft_profile *p, const u32 *w, u32 l0, u32 l1,
		     u32 l2)
{
	u32 lanes[FT_MAX_LEVELS];

	return !ft_profile_lanes(p, 3, m4, w, lanes) && lanes[0] == l0 &&
	       lanes[1] == l1 && lanes[2] == l2;
}

static void test_examples(void)
{
	struct ft_profile p = { .kind = FT_PROFILE_UNIVERSAL, .root = 16 };
	u32 lanes[FT_MAX_LEVELS];

	tap_ok(lanes_are(&p, w1, 1, 3, 7),
	       "universal(64, 16) on 4-ary: S = 1, 4, 16 -> 1, 3, 7 "
	       "(16 (S/64)^(2/3) rounded up)");
	p.kind = FT_PROFILE_DOUBLING;
	p.base = 1;
	tap_ok(lanes_are(&p, w4, 1, 1, 1),
	       "doubling on FT(3,4) is one lane per link (full bisection)");
	p.kind = FT_PROFILE_AREA;
	p.base = 2;
	/* caps ceil(2 sqrt S) = 2, 4, 8 over 1, 4, 16 links */
	tap_ok(lanes_are(&p, w4, 2, 1, 1),
	       "area(2) on FT(3,4): caps 2, 4, 8 -> lanes 2, 1, 1");
	p.kind = FT_PROFILE_CONSTANT;
	p.base = 3;
	tap_ok(lanes_are(&p, w4, 3, 3, 3), "constant(3): 3 lanes everywhere");
	p.base = 0;
	tap_ok(ft_profile_lanes(&p, 3, m4, w4, lanes) == -EINVAL,
	       "constant(0) refused");
	p.kind = FT_PROFILE_EXPLICIT;
	p.table[0] = 5;
	p.table[1] = 6;
	p.table[2] = 7;
	tap_ok(lanes_are(&p, w4, 5, 6, 7), "explicit table");
	p.kind = FT_PROFILE_DOUBLING;
	p.base = 65535;
	tap_ok(ft_profile_lanes(&p, 2, two, one, lanes) == -ERANGE,
	       "more than 65535 lanes refused");
	p.kind = FT_PROFILE_UNIVERSAL;
	p.root = 65;
	tap_ok(ft_profile_lanes(&p, 3, m4, w1, lanes) == -EINVAL,
	       "universal root capacity above n refused");
}

static void test_roots(void)
{
	u64 x, good = 1;

	for (x = 0; x < 100000; x++) {
		u64 q = ft_isqrt_ceil(x), c = ft_icbrt_ceil(x);

		good &= q * q >= x && (!q || (q - 1) * (q - 1) < x);
		good &= c * c * c >= x && (!c || (c - 1) * (c - 1) * (c - 1) < x);
	}
	good &= ft_isqrt_ceil(~0ULL) == 0x100000000ULL;
	good &= ft_icbrt_ceil(1ULL << 63) == 2097152;
	good &= ft_icbrt_ceil((1ULL << 63) + 1) == 2097153;
	tap_ok(good, "integer square and cube roots round up exactly");
	tap_ok(ft_mul_cmp(~0ULL, 3, ~0ULL - 1, 3) == 1 &&
	       ft_mul_cmp(1ULL << 40, 1ULL << 40, 1ULL << 41, 1ULL << 39) == 0,
	       "128-bit product comparison");
}

/* Reference r by bisection in long double. */
static double ref_r(const struct ft_topo *t)
{
	double lo = M_E, hi = 1000, mid, sum;
	u32 i, k;

	for (k = 0; k < 200; k++) {
		mid = (lo + hi) / 2;
		sum = 0;
		for (i = 1; i <= t->h; i++)
			sum += 2 * pow(M_E / mid, t->lanes[i]);
		if (sum <= 0.5)
			hi = mid;
		else
			lo = mid;
	}
	return hi;
}

/* r of the binary tree of 2^10 leaves (as in the notes) with profile
 * @kind's lanes (base 1), built in @t.
 */
static double binary_r(enum ft_profile_kind kind, struct ft_topo *t)
{
	struct ft_profile p = { .kind = kind, .base = 1 };
	u32 lanes[FT_MAX_LEVELS];

	ft_profile_lanes(&p, 10, two, one, lanes);
	ft_topo_init(t, 10, two, one, lanes);
	return ft_congestion_r(t) / 65536.0;
}

static void test_congestion(void)
{
	struct ft_topo t;
	double r;

	r = binary_r(FT_PROFILE_DOUBLING, &t);
	tap_ok(fabs(r - 13.2) < 0.1 && fabs(r - ref_r(&t)) < 0.001,
	       "r(doubling) = %.4f ~ 13.2", r);
	r = binary_r(FT_PROFILE_STANDARD, &t);
	tap_ok(fabs(r - 24.2) < 0.1 && fabs(r - ref_r(&t)) < 0.001,
	       "r(standard) = %.4f ~ 24.2", r);
	ft_topo_init(&t, 10, two, one, one);
	r = ft_congestion_r(&t) / 65536.0;
	tap_ok(fabs(r - 4 * M_E * 10) < 0.01,
	       "r(all capacities 1, n = 2^10) = %.3f = 4 e lg n", r);
}

int main(void)
{
	test_binary();
	test_examples();
	test_roots();
	test_congestion();
	return tap_done();
}
