/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The only door between the engine core and its host.
 *
 * The core (kmod/core) is compiled twice: into fattree.ko and into the
 * userspace tools and tests.  Core files include nothing but this header
 * and other core headers; this header picks the kernel or the libc
 * flavour of the few primitives the core needs: fixed-width types, zeroed
 * allocation, memset/memcpy, 64-bit division, overflow checks, errno
 * values and a "can't happen" warning.
 */
#ifndef FT_COMPAT_H
#define FT_COMPAT_H

#ifdef __KERNEL__
#include "ft_compat_kernel.h"
#else
#include "ft_compat_user.h"
#endif

/* The errno values the core returns: both flavours' errno.h spell them. */
#define FT_EINVAL	EINVAL
#define FT_ENOMEM	ENOMEM
#define FT_ERANGE	ERANGE
#define FT_ENOSPC	ENOSPC
#define FT_E2BIG	E2BIG
#define FT_EEXIST	EEXIST
#define FT_ENOENT	ENOENT

/*
 * How far ahead the per-cycle loops prefetch what they will touch in
 * arrays indexed at random (pairs, links, messages).
 */
#define FT_PREFETCH_AHEAD	8

/* Q32 fixed point: probabilities, 1.0 == FT_Q32_ONE (needs 33 bits). */
#define FT_Q32_ONE	0x100000000ULL
/* Q16 fixed point: load-factor guesses and the RANDOM constants. */
#define FT_Q16_SHIFT	16
#define FT_Q16_ONE	0x10000U

static inline u32 ft_min_u32(u32 a, u32 b)
{
	return a < b ? a : b;
}

static inline u32 ft_max_u32(u32 a, u32 b)
{
	return a > b ? a : b;
}

static inline u64 ft_min_u64(u64 a, u64 b)
{
	return a < b ? a : b;
}

static inline u64 ft_max_u64(u64 a, u64 b)
{
	return a > b ? a : b;
}

/* Overflow-checked u64 multiply: true on overflow (then *r is garbage). */
static inline bool ft_mul_ovf_u64(u64 a, u64 b, u64 *r)
{
	return __builtin_mul_overflow(a, b, r);
}

#endif /* FT_COMPAT_H */
