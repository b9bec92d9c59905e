/* SPDX-License-Identifier: ((GPL-2.0 WITH Linux-syscall-note) OR BSD-3-Clause) */
/*
 * fattree: the structs carried in binary attributes of the "fattree"
 * generic netlink family, as uapi/fattree.yaml defines them.
 *
 * Everything else of the family (names, numbers, enums, consts) is in
 * <linux/fattree.h>, generated from the spec by the kernel's ynl-gen-c
 * (scripts/ynl-gen), which renders no structs: these are written by hand,
 * and tests/tools/ynl-spec checks their layout against the spec's (ynl
 * packs a struct without padding, so none may have a hole).
 */
#ifndef _UAPI_LINUX_FATTREE_STRUCTS_H
#define _UAPI_LINUX_FATTREE_STRUCTS_H

#include <linux/types.h>
#include <linux/fattree.h>

/* One row of synthetic messages (FATTREE_A_FABRIC_INJECT). */
struct fattree_inject_row {
	__u32 src;
	__u32 dst;
	__u32 count;
};

/*
 * One circuit of a FATTREE_CMD_CIRCUIT_ADD batch: the path from @src up
 * through up-ports port[0..H-1] (P_1..P_H) to the common level H, then the
 * one way down to @dst; @lanes reserved on each of its links.
 */
struct fattree_circuit {
	__u32 src;
	__u32 dst;
	__u32 lanes;
	__u32 lease;			/* cycles it lives; 0: until deleted */
	__u8 port[FATTREE_MAX_LEVELS];
};

/* A (source, destination) pair: FATTREE_CMD_CIRCUIT_DEL batches. */
struct fattree_pair {
	__u32 src;
	__u32 dst;
};

/*
 * A pair in demand: messages waiting and no circuit, or more than its
 * circuit carries in a cycle (FATTREE_A_DEMAND_ENTRY). Its packets and
 * synthetic messages are counted together.
 */
struct fattree_demand {
	__u32 src;
	__u32 dst;
	__u32 backlog;			/* messages waiting */
	__u32 circuit_lanes;		/* lanes of its circuit, 0: none */
	__u64 age;			/* cycles since the pair began waiting */
};

#endif /* _UAPI_LINUX_FATTREE_STRUCTS_H */
