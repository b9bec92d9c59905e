/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Kernel flavour of the core's primitives.
 *
 * Only ft_zalloc() may sleep; it is used at fabric creation, never in
 * the per-cycle path, which may run from a timer (softirq).
 */
#ifndef FT_COMPAT_KERNEL_H
#define FT_COMPAT_KERNEL_H

#include <linux/types.h>
#include <linux/errno.h>
#include <linux/string.h>
#include <linux/slab.h>
#include <linux/math64.h>
#include <linux/bug.h>
#include <linux/prefetch.h>
#include <linux/bitops.h>

/*
 * A fabric's memory is charged to the memory cgroup of the process that
 * creates it, and a charge over the cgroup's limit fails the creation
 * (ENOMEM) instead of waking the OOM killer or warning: the size comes from
 * a request, as alloc_netdev() does for a device's memory.
 */
#define FT_GFP_FABRIC	(GFP_KERNEL_ACCOUNT | __GFP_RETRY_MAYFAIL | __GFP_NOWARN)

static inline void *ft_zalloc(size_t size)
{
	return kvzalloc(size, FT_GFP_FABRIC);
}

static inline void ft_free(void *p)
{
	kvfree(p);
}

/* 64-by-64 division: only at setup or once per cycle, never per message. */
static inline u64 ft_div64(u64 a, u64 b)
{
	return div64_u64(a, b);
}

#define ft_warn_on(cond)	WARN_ON_ONCE(cond)

/* Index of the lowest set bit of @x, which is not 0. */
static inline u32 ft_ctz64(u64 x)
{
	return __ffs64(x);
}

/* Set bits of @x. */
static inline u32 ft_popcount64(u64 x)
{
	return hweight64(x);
}

/* A hint: the cache line of @p is wanted soon, to read or to write. */
#define ft_noinline noinline

static inline void ft_prefetch(const void *p)
{
	prefetch(p);
}

static inline void ft_prefetchw(const void *p)
{
	prefetchw(p);
}

#endif /* FT_COMPAT_KERNEL_H */
