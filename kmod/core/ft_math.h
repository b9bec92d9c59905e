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

#endif /* FT_MATH_H */
