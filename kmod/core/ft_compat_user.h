/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Userspace flavour of the core's primitives.
 *
 * Types come from the compiler's predefined macros so that the core
 * never spells the libc names; the behaviour must stay bit-for-bit the
 * same as the kernel flavour (integer arithmetic only).
 */
#ifndef FT_COMPAT_USER_H
#define FT_COMPAT_USER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <stdio.h>
#include <sys/cdefs.h>	/* __always_inline, as the kernel spells it */

typedef __UINT8_TYPE__ u8;
typedef __UINT16_TYPE__ u16;
typedef __UINT32_TYPE__ u32;
typedef __UINT64_TYPE__ u64;
typedef __INT8_TYPE__ s8;
typedef __INT16_TYPE__ s16;
typedef __INT32_TYPE__ s32;
typedef __INT64_TYPE__ s64;

static inline void *ft_zalloc(size_t size)
{
	return calloc(1, size ? size : 1);
}

static inline void ft_free(void *p)
{
	free(p);
}

static inline u64 ft_div64(u64 a, u64 b)
{
	return a / b;
}

/* Index of the lowest set bit of @x, which is not 0. */
static inline u32 ft_ctz64(u64 x)
{
	return (u32)__builtin_ctzll(x);
}

/* Set bits of @x. */
static inline u32 ft_popcount64(u64 x)
{
	return (u32)__builtin_popcountll(x);
}

/* noinline (the name is left alone: lib/sched spells the attribute out) */
#define ft_noinline __attribute_noinline__

/* A hint: the cache line of @p is wanted soon, to read or to write. */
static inline void ft_prefetch(const void *p)
{
	__builtin_prefetch(p, 0);
}

static inline void ft_prefetchw(const void *p)
{
	__builtin_prefetch(p, 1);
}

/* Like WARN_ON_ONCE(): report, evaluate to the condition, keep going. */
#define ft_warn_on(cond) ({						\
	bool __ft_c = !!(cond);						\
	if (__ft_c)							\
		fprintf(stderr, "%s:%d: ft_warn_on(%s)\n",		\
			__FILE__, __LINE__, #cond);			\
	__ft_c;								\
})

#endif /* FT_COMPAT_USER_H */
