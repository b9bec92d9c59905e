/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Typed values read from the fuzzer's bytes, front to back. Past the end
 * every read gives 0, so any input is a complete (if dull) program.
 */
#ifndef FZ_BYTES_H
#define FZ_BYTES_H

#include <stddef.h>
#include <stdint.h>

struct fz_bytes {
	const uint8_t *p;
	size_t n;
};

static inline uint32_t fz_u8(struct fz_bytes *b)
{
	if (!b->n)
		return 0;
	b->n--;
	return *b->p++;
}

static inline uint32_t fz_u16(struct fz_bytes *b)
{
	uint32_t lo = fz_u8(b);

	return lo | fz_u8(b) << 8;
}

static inline uint32_t fz_u32(struct fz_bytes *b)
{
	uint32_t lo = fz_u16(b);

	return lo | fz_u16(b) << 16;
}

static inline uint64_t fz_u64(struct fz_bytes *b)
{
	uint64_t lo = fz_u32(b);

	return lo | (uint64_t)fz_u32(b) << 32;
}

/* A value in lo..hi (inclusive), from as few bytes as the span needs. */
static inline uint32_t fz_range(struct fz_bytes *b, uint32_t lo, uint32_t hi)
{
	uint64_t span = (uint64_t)hi - lo + 1;
	uint32_t v;

	if (span <= 0x100)
		v = fz_u8(b);
	else if (span <= 0x10000)
		v = fz_u16(b);
	else
		v = fz_u32(b);
	return lo + (uint32_t)(v % span);
}

static inline int fz_more(const struct fz_bytes *b)
{
	return b->n != 0;
}

#endif /* FZ_BYTES_H */
