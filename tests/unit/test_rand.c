// SPDX-License-Identifier: GPL-2.0
/* ft_rand: reference vectors, determinism, unbiased bounded draws. */
#include <string.h>
#include "tap.h"
#include "harness.h"
#include "../../kmod/core/ft_rand.h"

static void test_vectors(void)
{
	/* Published xoshiro256** outputs for state {1, 2, 3, 4}. */
	static const u64 want[] = { 11520ULL, 0ULL, 1509978240ULL,
				    1215971899390074240ULL };
	struct ft_rand r = { .s = { 1, 2, 3, 4 } };
	u64 x = 0;
	int i, good = 1;

	for (i = 0; i < 4; i++)
		good &= ft_rand_u64(&r) == want[i];
	tap_ok(good, "xoshiro256** reference vector");
	good = ft_splitmix64(&x) == 0xe220a8397b1dcdafULL;
	good &= ft_splitmix64(&x) == 0x6e789e6aa1b965f4ULL;
	good &= ft_splitmix64(&x) == 0x06c45d188009454fULL;
	tap_ok(good, "splitmix64 reference vector");
	ft_rand_seed(&r, 42);
	good = ft_rand_u64(&r) == 0x15780b2e0c2ec716ULL;
	good &= ft_rand_u64(&r) == 0x6104d9866d113a7eULL;
	good &= ft_rand_u64(&r) == 0xae17533239e499a1ULL;
	tap_ok(good, "seed 42 stream is fixed (same on every host)");
}

static void test_determinism(void)
{
	struct ft_rand a, b, c;
	int i, same = 1, differ = 0;

	ft_rand_seed(&a, 7);
	ft_rand_seed(&b, 7);
	ft_rand_seed(&c, 8);
	for (i = 0; i < 1000; i++) {
		u64 x = ft_rand_u64(&a);

		same &= x == ft_rand_u64(&b);
		differ += x != ft_rand_u64(&c);
	}
	tap_ok(same, "equal seeds give equal streams");
	tap_ok(differ > 990, "different seeds give different streams");
}

static void test_below(void)
{
	static const u32 ns[] = { 2, 3, 7, 10, 1000 };
	struct ft_rand r;
	u32 i, k, cnt[1000], low = 0, draws = 300000, bad = 0;
	int good = 1;

	ft_rand_seed(&r, 1);
	for (i = 0; i < 5; i++) {
		u32 n = ns[i];
		double chi = 0, e;

		memset(cnt, 0, sizeof(cnt));
		for (k = 0; k < draws; k++) {
			u32 v = ft_rand_below(&r, n);

			if (v >= n)
				bad++;
			else
				cnt[v]++;
		}
		e = (double)draws / n;
		for (k = 0; k < n; k++)
			chi += (cnt[k] - e) * (cnt[k] - e) / e;
		/* mean n - 1, sd sqrt(2 (n - 1)): 6 sd is a real failure */
		good &= chi < (n - 1) + 6 * __builtin_sqrt(2.0 * (n - 1)) + 10;
	}
	tap_ok(!bad, "ft_rand_below stays below n");
	tap_ok(good, "ft_rand_below is uniform (chi-square)");
	tap_ok(ft_rand_below(&r, 0) == 0 && ft_rand_below(&r, 1) == 0,
	       "ft_rand_below(0) and (1) are 0");
	/* n = 3 * 2^30: "x mod n" would give [0, 2^30) half the time. */
	for (k = 0; k < draws; k++)
		low += ft_rand_below(&r, 0xc0000000U) < 0x40000000U;
	tap_ok(low > draws * 0.32 && low < draws * 0.347,
	       "no modulo bias: P(v < 2^30 | n = 3 * 2^30) = %.4f ~ 1/3",
	       (double)low / draws);
}

static void test_coin(void)
{
	struct ft_rand r, r2;
	u32 k, heads = 0, n = 200000;
	int never = 1, always = 1;

	ft_rand_seed(&r, 3);
	r2 = r;
	for (k = 0; k < 100; k++) {
		never &= !ft_rand_coin(&r, 0);
		always &= ft_rand_coin(&r, FT_Q32_ONE);
	}
	tap_ok(never && always && r.s[0] == r2.s[0],
	       "coins of 0 and 1 are certain and draw nothing");
	for (k = 0; k < n; k++)
		heads += ft_rand_coin(&r, FT_Q32_ONE / 4);
	tap_ok(heads > n * 0.245 && heads < n * 0.255,
	       "coin of 1/4 lands %.4f", (double)heads / n);
}

/*
 * The shuffle every tool shares: all 24 orders of 4 values come out
 * equally often (chi-square, 23 degrees of freedom, 0.1 % level), a
 * permutation holds each value once, and a seed fixes the order.
 */
static void test_shuffle(void)
{
	enum { N = 4, ORDERS = 24, DRAWS = 240000 };
	u32 count[ORDERS] = { 0 }, v[N], w[64], seen[64], i, k, code;
	double chi = 0, e = (double)DRAWS / ORDERS;
	struct ft_rand r, r2;
	int once = 1;

	ft_rand_seed(&r, 11);
	for (k = 0; k < DRAWS; k++) {
		ft_rand_perm(&r, v, N);
		/* Lehmer code: v's rank among the 24 orders. */
		code = 0;
		for (i = 0; i < N; i++) {
			u32 j, smaller = 0;

			for (j = i + 1; j < N; j++)
				smaller += v[j] < v[i];
			code = code * (N - i) + smaller;
		}
		count[code]++;
	}
	for (k = 0; k < ORDERS; k++)
		chi += (count[k] - e) * (count[k] - e) / e;
	tap_ok(chi < 49.73, "ft_rand_perm is uniform over 4! orders (chi-square %.1f)",
	       chi);
	ft_rand_seed(&r, 5);
	ft_rand_seed(&r2, 5);
	ft_rand_perm(&r, w, 64);
	memset(seen, 0, sizeof(seen));
	for (i = 0; i < 64; i++)
		once &= w[i] < 64 && !seen[w[i]]++;
	ft_rand_perm(&r2, seen, 64);
	tap_ok(once && !memcmp(w, seen, sizeof(w)),
	       "ft_rand_perm holds each value once, the same for one seed");
	v[0] = 7;
	ft_rand_shuffle(&r, v, 1);
	ft_rand_shuffle(&r, v, 0);
	tap_ok(v[0] == 7 && r.s[0] == r2.s[0] && r.s[3] == r2.s[3],
	       "shuffling 0 or 1 values draws nothing");
}

int main(void)
{
	test_vectors();
	test_determinism();
	test_below();
	test_coin();
	test_shuffle();
	return tap_done();
}
