/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The fabric's seeded PRNG (xoshiro256**, splitmix64 seeding).
 *
 * Written here rather than taken from the host so that a seed gives the
 * same delivery cycles in the kernel and in the offline simulator.
 */
#ifndef FT_RAND_H
#define FT_RAND_H

#include "ft_compat.h"

/**
 * struct ft_rand - xoshiro256** state.
 * @s: the 256-bit state; never all zero after ft_rand_seed().
 */
struct ft_rand {
	u64 s[4];
};

void ft_rand_seed(struct ft_rand *r, u64 seed);
u64 ft_rand_u64(struct ft_rand *r);
u32 ft_rand_u32(struct ft_rand *r);
u32 ft_rand_below(struct ft_rand *r, u32 n);
bool ft_rand_coin(struct ft_rand *r, u64 p_q32);
u64 ft_splitmix64(u64 *x);
void ft_rand_shuffle(struct ft_rand *r, u32 *v, u32 n);
void ft_rand_perm(struct ft_rand *r, u32 *v, u32 n);

#endif /* FT_RAND_H */
