// SPDX-License-Identifier: GPL-2.0
/*
 * The wire format of fttraffic's messages: a header (flow, sequence
 * number, source, destination, send time) and a payload derived from the
 * flow and the sequence number, covered by one checksum so that a
 * receiver tells a damaged message from a good one without knowing what
 * was sent.
 */
#include <stddef.h>
#include <string.h>

#include "fttraffic.h"

/* FNV-1a, 32 bits: cheap and sensitive to every byte and its position. */
static uint32_t fnv1a(uint32_t h, const uint8_t *p, size_t n)
{
	while (n--) {
		h ^= *p++;
		h *= 16777619U;
	}
	return h;
}

static uint32_t checksum(const uint8_t *buf, uint32_t len)
{
	size_t at = offsetof(struct ftt_msg, csum);
	uint32_t h = fnv1a(2166136261U, buf, at);

	return fnv1a(h, buf + at + sizeof(uint32_t), len - at - sizeof(uint32_t));
}

void ftt_msg_fill(void *buf, uint32_t len, uint32_t flow, uint64_t seq, uint32_t src,
		  uint32_t dst, uint64_t now_ns)
{
	struct ftt_msg h = {
		.magic = FTT_MSG_MAGIC, .flow = flow, .seq = seq, .sent_ns = now_ns,
		.src = src, .dst = dst, .len = len,
	};
	uint8_t *p = buf;
	uint64_t x = ((uint64_t)flow << 32) ^ seq ^ 0x9e3779b97f4a7c15ULL;
	uint32_t i;

	for (i = sizeof(h); i < len; i++) {
		/* xorshift: a payload that differs for every message */
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		p[i] = (uint8_t)x;
	}
	memcpy(p, &h, sizeof(h));
	h.csum = checksum(p, len);
	memcpy(p + offsetof(struct ftt_msg, csum), &h.csum, sizeof(h.csum));
}

int ftt_msg_check(const void *buf, uint32_t got, struct ftt_msg *hdr)
{
	if (got < sizeof(*hdr))
		return -1;
	memcpy(hdr, buf, sizeof(*hdr));
	if (hdr->magic != FTT_MSG_MAGIC || hdr->len != got)
		return -1;
	return checksum(buf, got) == hdr->csum ? 0 : -1;
}
