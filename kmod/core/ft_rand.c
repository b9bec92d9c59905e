// SPDX-License-Identifier: GPL-2.0
/*
 * Xoshiro256** (Blackman & Vigna), seeded through splitmix64.
 */
#include "ft_rand.h"

static inline u64 ft_rotl64(u64 x, unsigned int k)
{
	return (x << k) | (x >> (64 - k));
}

/**
 * ft_splitmix64() - one step of splitmix64.
 * @x: the generator state, advanced in place.
 *
 * Return: the next output; used to expand a 64-bit seed into 256 bits.
 */
u64 ft_splitmix64(u64 *x)
{
	u64 z;

	*x += 0x9e3779b97f4a7c15ULL;
	z = *x;
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/**
 * ft_rand_seed() - (re)start the generator from a 64-bit seed.
 * @r: generator.
 * @seed: any value; equal seeds give equal streams on every host.
 */
void ft_rand_seed(struct ft_rand *r, u64 seed)
{
	u64 x = seed;
	int i;

	for (i = 0; i < 4; i++)
		r->s[i] = ft_splitmix64(&x);
	/* splitmix64 is a bijection of a counter: four zeros cannot occur. */
}

/*
 * One xoshiro256** step of state @s: the generator's own, or a copy in
 * locals that a loop keeps in registers (ft_rand_shuffle()).
 */
static __always_inline u64 ft_xoshiro(u64 *s)
{
	u64 res = ft_rotl64(s[1] * 5, 7) * 9;
	u64 t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = ft_rotl64(s[3], 45);
	return res;
}

/**
 * ft_rand_u64() - next 64 random bits.
 * @r: generator.
 *
 * Return: the next xoshiro256** output.
 */
u64 ft_rand_u64(struct ft_rand *r)
{
	return ft_xoshiro(r->s);
}

/**
 * ft_rand_u32() - next 32 random bits (the high half, the better bits).
 * @r: generator.
 *
 * Return: a uniform 32-bit value.
 */
u32 ft_rand_u32(struct ft_rand *r)
{
	return (u32)(ft_rand_u64(r) >> 32);
}

/* ft_rand_below() on state @s (see ft_xoshiro()). */
static __always_inline u32 ft_below(u64 *s, u32 n)
{
	u64 m;
	u32 lo, thresh;

	if (n <= 1)
		return 0;
	m = (ft_xoshiro(s) >> 32) * n;
	lo = (u32)m;
	if (lo < n) {
		thresh = (u32)(-n) % n;
		while (lo < thresh) {
			m = (ft_xoshiro(s) >> 32) * n;
			lo = (u32)m;
		}
	}
	return (u32)(m >> 32);
}

/**
 * ft_rand_below() - uniform integer in [0, n) without modulo bias.
 * @r: generator.
 * @n: bound; 0 and 1 both give 0 without consuming randomness.
 *
 * Lemire's multiply-and-reject: one multiply in the common case, and the
 * rare rejection keeps every value exactly equally likely.
 *
 * Return: the value.
 */
u32 ft_rand_below(struct ft_rand *r, u32 n)
{
	return ft_below(r->s, n);
}

/**
 * ft_rand_coin() - Bernoulli trial.
 * @r: generator.
 * @p_q32: success probability in Q32; FT_Q32_ONE or more always succeeds
 *         and 0 never does, in both cases without consuming randomness.
 *
 * Return: true with probability p_q32 / 2^32.
 */
bool ft_rand_coin(struct ft_rand *r, u64 p_q32)
{
	if (p_q32 >= FT_Q32_ONE)
		return true;
	if (!p_q32)
		return false;
	return ft_rand_u32(r) < p_q32;
}

/**
 * ft_rand_shuffle() - uniform permutation of @v in place (Fisher-Yates).
 * @r: generator.
 * @v: the values.
 * @n: how many.
 *
 * Every tool that shuffles draws through here, from the last slot down,
 * so that one seed gives the same order in the kernel and in each tool.
 */
void ft_rand_shuffle(struct ft_rand *r, u32 *v, u32 n)
{
	/* the state in locals: the stores to @v could alias r->s */
	u64 s[4] = { r->s[0], r->s[1], r->s[2], r->s[3] };
	u32 i, j, t;

	for (i = n; i > 1; i--) {
		j = ft_below(s, i);
		t = v[i - 1];
		v[i - 1] = v[j];
		v[j] = t;
	}
	memcpy(r->s, s, sizeof(s));
}

/**
 * ft_rand_perm() - a uniform permutation of 0..@n-1.
 * @r: generator.
 * @v: where it goes, @n entries.
 * @n: its size.
 */
void ft_rand_perm(struct ft_rand *r, u32 *v, u32 n)
{
	u32 i;

	for (i = 0; i < n; i++)
		v[i] = i;
	ft_rand_shuffle(r, v, n);
}
