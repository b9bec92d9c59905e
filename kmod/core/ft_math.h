/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Integer stand-ins for the papers' real numbers.
 *
 * The kernel has no floating point, so √2 and ∛4 growth, lg n and the
 * congestion parameter r are computed with exact integer roots and Q32
 * fixed point; both builds therefore agree to the bit.
 */
#ifndef FT_MATH_H
#define FT_MATH_H

#include "ft_compat.h"

u32 ft_ilog2_floor(u64 x);
u32 ft_ilog2_ceil(u64 x);
u64 ft_isqrt_ceil(u64 x);
u64 ft_icbrt_ceil(u64 x);
u64 ft_div_ceil64(u64 a, u64 b);
u64 ft_pow_q32(u64 x_q32, u64 e);
int ft_mul_cmp(u64 a, u64 b, u64 c, u64 d);

/*
 * Division by an invariant divisor d, 1 <= d <= 2^24, as a multiply and a
 * shift: exact for every dividend below 2^24 (FT_RECIP_BITS), which holds
 * every leaf, node label and Y of a topology (ft_topo.h's bounds).  With
 * l = ceil(lg d) and mul = ceil(2^(24 + l) / d), mul * d - 2^(24 + l) < d
 * <= 2^l, so floor(x * mul / 2^(24 + l)) = floor(x / d) for x < 2^24
 * (Granlund and Montgomery 1994, theorem 4.2); mul < 2^25 + 1 and the
 * product stays below 2^50.
 */
#define FT_RECIP_BITS	24

struct ft_recip {
	u32 mul;
	u32 shift;
};

void ft_recip_init(struct ft_recip *r, u32 d);

static inline u32 ft_recip_div(const struct ft_recip *r, u32 x)
{
	return (u32)(((u64)x * r->mul) >> r->shift);
}

#endif /* FT_MATH_H */
