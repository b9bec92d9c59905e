// SPDX-License-Identifier: GPL-2.0
/*
 * Exact integer roots, logarithms and Q32 powers.
 */
#include "ft_math.h"

/**
 * ft_ilog2_floor() - floor(log2 x).
 * @x: value, at least 1 (0 gives 0).
 *
 * Return: the index of the highest set bit.
 */
u32 ft_ilog2_floor(u64 x)
{
	u32 l = 0;

	while (x > 1) {
		x >>= 1;
		l++;
	}
	return l;
}

/**
 * ft_ilog2_ceil() - ceil(log2 x).
 * @x: value, at least 1 (0 and 1 give 0).
 *
 * Return: the smallest l with 2^l >= x.
 */
u32 ft_ilog2_ceil(u64 x)
{
	if (x <= 1)
		return 0;
	return ft_ilog2_floor(x - 1) + 1;
}

/**
 * ft_isqrt_ceil() - smallest q with q * q >= x.
 * @x: value.
 *
 * Return: ceil(sqrt(x)), exactly.
 */
u64 ft_isqrt_ceil(u64 x)
{
	u64 lo = 0, hi = 0x100000000ULL, mid, sq;

	/* Invariant: lo*lo < x <= hi*hi (or x == 0 and the answer is 0). */
	if (!x)
		return 0;
	while (hi - lo > 1) {
		mid = lo + (hi - lo) / 2;
		if (!ft_mul_ovf_u64(mid, mid, &sq) && sq < x)
			lo = mid;
		else
			hi = mid;
	}
	return hi;
}

/**
 * ft_icbrt_ceil() - smallest q with q * q * q >= x.
 * @x: value.
 *
 * Return: ceil(cbrt(x)), exactly.
 */
u64 ft_icbrt_ceil(u64 x)
{
	u64 lo = 0, hi = 2642246, mid, sq, cube;	/* 2642246^3 > 2^64 */

	if (!x)
		return 0;
	while (hi - lo > 1) {
		mid = lo + (hi - lo) / 2;
		if (!ft_mul_ovf_u64(mid, mid, &sq) &&
		    !ft_mul_ovf_u64(sq, mid, &cube) && cube < x)
			lo = mid;
		else
			hi = mid;
	}
	return hi;
}

/**
 * ft_div_ceil64() - ceil(a / b).
 * @a: dividend.
 * @b: divisor, not 0.
 *
 * Return: the rounded-up quotient.
 */
u64 ft_div_ceil64(u64 a, u64 b)
{
	u64 q = ft_div64(a, b);

	return q * b < a ? q + 1 : q;
}

/**
 * ft_pow_q32() - x^e for a Q32 fraction x <= 1, by squaring.
 * @x_q32: base in Q32, at most FT_Q32_ONE.
 * @e: exponent.
 *
 * Products round down, so the result never exceeds the true power.
 *
 * Return: x^e in Q32.
 */
u64 ft_pow_q32(u64 x_q32, u64 e)
{
	u64 acc = FT_Q32_ONE;

	if (x_q32 >= FT_Q32_ONE)
		return FT_Q32_ONE;
	/* Both factors stay below 2^32 + 1, so products fit in 64 bits. */
	while (e) {
		if (e & 1)
			acc = (acc * x_q32) >> 32;
		e >>= 1;
		if (e)
			x_q32 = (x_q32 * x_q32) >> 32;
		if (!acc)
			break;
	}
	return acc;
}

/* Full 128-bit product of two u64, in 32-bit limbs (no __int128). */
static void ft_mul_wide(u64 a, u64 b, u64 *hi, u64 *lo)
{
	u64 al = (u32)a, ah = a >> 32, bl = (u32)b, bh = b >> 32;
	u64 ll = al * bl, lh = al * bh, hl = ah * bl, hh = ah * bh;
	u64 mid = (ll >> 32) + (u32)lh + (u32)hl;

	*lo = (mid << 32) | (u32)ll;
	*hi = hh + (lh >> 32) + (hl >> 32) + (mid >> 32);
}

/**
 * ft_mul_cmp() - compare a * b with c * d without overflow.
 * @a: first factor of the left product.
 * @b: second factor of the left product.
 * @c: first factor of the right product.
 * @d: second factor of the right product.
 *
 * Used to compare load factors load / cap as fractions.
 *
 * Return: -1, 0 or 1 as a * b is less than, equal to or above c * d.
 */
int ft_mul_cmp(u64 a, u64 b, u64 c, u64 d)
{
	u64 h1, l1, h2, l2;

	ft_mul_wide(a, b, &h1, &l1);
	ft_mul_wide(c, d, &h2, &l2);
	if (h1 != h2)
		return h1 < h2 ? -1 : 1;
	if (l1 != l2)
		return l1 < l2 ? -1 : 1;
	return 0;
}

/**
 * ft_recip_init() - prepare division by @d (see ft_math.h).
 * @r: out.
 * @d: divisor, 1..2^FT_RECIP_BITS.
 */
void ft_recip_init(struct ft_recip *r, u32 d)
{
	u32 l = ft_ilog2_ceil(d);

	r->shift = FT_RECIP_BITS + l;
	r->mul = (u32)ft_div_ceil64(1ULL << r->shift, d);
}
