/* SPDX-License-Identifier: GPL-2.0 */
/* Shared helpers of the scheduling library's benchmarks (not tests). */
#ifndef FT_SCHED_BENCH_H
#define FT_SCHED_BENCH_H

#include <stdlib.h>
#include <time.h>

#include "../../kmod/core/ft_compat.h"

static inline u64 now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (u64)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

static inline int cmp_u64(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

#endif
