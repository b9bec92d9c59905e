/* SPDX-License-Identifier: ((GPL-2.0 WITH Linux-syscall-note) OR BSD-3-Clause) */
/*
 * fattree: the user/kernel contract of the fat-tree fabric emulator.
 *
 * The generic netlink family is described in uapi/fattree.yaml; keep the
 * two in step. Numbering follows docs/design.md: leaves at level 0,
 * switches at levels 1..h; m[i] children per level-i switch, w[i] parents
 * per level-(i-1) node, lanes[i] lanes on each directed link between
 * levels i-1 and i (arrays are indexed from level 1).
 */
#ifndef _UAPI_LINUX_FATTREE_H
#define _UAPI_LINUX_FATTREE_H

#include <linux/types.h>

#define FATTREE_GENL_NAME	"fattree"
#define FATTREE_GENL_VERSION	1
#define FATTREE_MCGRP_DEMAND	"demand"

#define FATTREE_MAX_LEVELS	20	/* switch levels h of any fabric */
#define FATTREE_MAX_PARENTS	256	/* w_i, so a port fits a byte */

#define FATTREE_NAME_LEN	8	/* fabric names, NUL included */
#define FATTREE_MAX_BACKLOG	65536	/* packets a leaf may hold */
#define FATTREE_MAX_STEPS	1000000	/* cycles one FABRIC_STEP runs */

/* Path choice: how a message picks its up-ports. */
enum fattree_path {
	FATTREE_PATH_CIRCUIT,	/* only installed circuits carry messages */
	FATTREE_PATH_DMODK,	/* destination mod k */
	FATTREE_PATH_RANDOM,	/* uniform random up-port per level */
	FATTREE_PATH_FIRSTFREE,	/* first up-port with a free lane */
};

/* Injection: which waiting messages are offered each cycle. */
enum fattree_injection {
	FATTREE_INJECTION_ALL,		/* GREEDY */
	FATTREE_INJECTION_RANDOM,	/* RANDOM with its lambda_guess schedule */
	FATTREE_INJECTION_RANDOM_PRIME,	/* RANDOM' */
};

/* Arbitration on a congested link. */
enum fattree_arbitration {
	FATTREE_ARBITRATION_RANDOM,
	FATTREE_ARBITRATION_FIXED,
};

/* Capacity profiles: lanes per level from one rule. */
enum fattree_profile {
	FATTREE_PROFILE_CONSTANT,
	FATTREE_PROFILE_DOUBLING,
	FATTREE_PROFILE_STANDARD,
	FATTREE_PROFILE_AREA,
	FATTREE_PROFILE_VOLUME,
	FATTREE_PROFILE_UNIVERSAL,
	FATTREE_PROFILE_EXPLICIT,
};

/* Direction of a directed link (FATTREE_A_LINK_DIRECTION). */
enum fattree_link_dir {
	FATTREE_LINK_DIR_UP,
	FATTREE_LINK_DIR_DOWN,
};

/*
 * Why a directed link is failed: bits of FATTREE_A_LINK_FAILED in link
 * dumps (0: it works). A failed link carries nothing; it works again
 * when its last reason is gone.
 */
enum fattree_link_fail {
	FATTREE_LINK_FAIL_SELF = 1,	/* the link itself */
	FATTREE_LINK_FAIL_LOWER = 2,	/* the switch at its lower end */
	FATTREE_LINK_FAIL_UPPER = 4,	/* the switch at its upper end */
};

/* How a fabric moves messages; fixed when it is created. */
enum fattree_mode {
	FATTREE_MODE_CYCLE,	/* whole paths per delivery cycle (seeds 000/004) */
	FATTREE_MODE_SAF,	/* store-and-forward, one hop per step (seed 001) */
};

/* Forwarding order of a store-and-forward fabric. */
enum fattree_saf_discipline {
	FATTREE_SAF_DISCIPLINE_RANK,	/* random ranks, ghosts, EOS */
	FATTREE_SAF_DISCIPLINE_FIFO,	/* oldest arrival first */
	FATTREE_SAF_DISCIPLINE_FARTHEST, /* farthest to go first */
};

#define FATTREE_SAF_MAX_Q	64	/* packets an edge queue may hold */

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

/* Attributes of fabrics (FATTREE_CMD_FABRIC_*). */
enum {
	FATTREE_A_FABRIC_UNSPEC,
	FATTREE_A_FABRIC_PAD,
	FATTREE_A_FABRIC_NAME,		/* string, < FATTREE_NAME_LEN */
	FATTREE_A_FABRIC_LEVELS,	/* u32: h */
	FATTREE_A_FABRIC_DOWN,		/* binary u32[h]: m (children per switch) */
	FATTREE_A_FABRIC_UP,		/* binary u32[h]: w (parents per node) */
	FATTREE_A_FABRIC_LANES,		/* binary u32[h]: lanes per link, by level */
	FATTREE_A_FABRIC_PROFILE,	/* u32: enum fattree_profile */
	FATTREE_A_FABRIC_PROFILE_BASE,	/* u32: lanes at the leaves */
	FATTREE_A_FABRIC_PROFILE_ROOT,	/* u32: root capacity (universal) */
	FATTREE_A_FABRIC_PATH,		/* u32: enum fattree_path */
	FATTREE_A_FABRIC_INJECTION,	/* u32: enum fattree_injection */
	FATTREE_A_FABRIC_ARBITRATION,	/* u32: enum fattree_arbitration */
	FATTREE_A_FABRIC_PERIOD_NS,	/* u64: cycle period; 0 = manual steps */
	FATTREE_A_FABRIC_BACKLOG,	/* u32: packets a leaf may hold */
	FATTREE_A_FABRIC_SEED,		/* u64: seed of the fabric's PRNG */
	FATTREE_A_FABRIC_LEAVES,	/* u32: N (read) */
	FATTREE_A_FABRIC_CYCLE,		/* u64: delivery cycles run (read) */
	FATTREE_A_FABRIC_STEPS,		/* u32: cycles to run (FABRIC_STEP) */
	FATTREE_A_FABRIC_INJECT,	/* binary fattree_inject_row[], multi */
	FATTREE_A_FABRIC_STATS,		/* nest: FATTREE_A_STATS_* (read) */
	FATTREE_A_FABRIC_MODE,		/* u32: enum fattree_mode (NEW only) */
	FATTREE_A_FABRIC_SAF_Q,		/* u32: edge queue slots, 1..FATTREE_SAF_MAX_Q */
	FATTREE_A_FABRIC_SAF_DISCIPLINE, /* u32: enum fattree_saf_discipline */
	FATTREE_A_FABRIC_SAF_GHOSTS,	/* u32: 1 sends ghosts (default), 0 not */
	FATTREE_A_FABRIC_SAF,		/* nest: FATTREE_A_SAF_* (read) */

	__FATTREE_A_FABRIC_MAX,
	FATTREE_A_FABRIC_MAX = __FATTREE_A_FABRIC_MAX - 1
};

/* Fabric counters (nested in FATTREE_A_FABRIC_STATS), all u64. */
enum {
	FATTREE_A_STATS_UNSPEC,
	FATTREE_A_STATS_PAD,
	FATTREE_A_STATS_QUEUED,		/* messages waiting now */
	FATTREE_A_STATS_OFFERED,	/* offers made, all cycles */
	FATTREE_A_STATS_DELIVERED,	/* messages delivered */
	FATTREE_A_STATS_BLOCKED,	/* offers blocked */
	FATTREE_A_STATS_SYNTH_QUEUED,	/* synthetic messages waiting */
	FATTREE_A_STATS_SYNTH_DELIVERED,
	FATTREE_A_STATS_DRAINED_CYCLE,	/* cycle the last backlog drained */
	FATTREE_A_STATS_CONTROL,	/* control-class frames delivered */
	FATTREE_A_STATS_OVERRUNS,	/* timer periods missed and caught up */
	FATTREE_A_STATS_CYCLE_NS,	/* engine time spent in cycles */
	FATTREE_A_STATS_RUN_NS,		/* wall time the engine has run */
	FATTREE_A_STATS_FAILED_LINKS,	/* directed links failed now */
	FATTREE_A_STATS_FAILURE_HELD,	/* offers held for lack of a working path */
	FATTREE_A_STATS_CIRCUITS_CUT,	/* circuits torn down by link failures */
	FATTREE_A_STATS_CIRCUITS,	/* circuits installed now */

	__FATTREE_A_STATS_MAX,
	FATTREE_A_STATS_MAX = __FATTREE_A_STATS_MAX - 1
};

/* Attributes of directed links (FATTREE_CMD_LINK_GET dump). */
enum {
	FATTREE_A_LINK_UNSPEC,
	FATTREE_A_LINK_PAD,
	FATTREE_A_LINK_FABRIC,		/* string: fabric name (request filter) */
	FATTREE_A_LINK_ID,		/* u32: directed link id */
	FATTREE_A_LINK_LEVEL,		/* u32: i, the link joins i-1 and i */
	FATTREE_A_LINK_NODE,		/* u32: the lower node's index at i-1 */
	FATTREE_A_LINK_PORT,		/* u32: its up-port */
	FATTREE_A_LINK_UP,		/* flag: the upward direction */
	FATTREE_A_LINK_LANES,		/* u32 */
	FATTREE_A_LINK_RESERVED,	/* u32: lanes held by circuits */
	FATTREE_A_LINK_CARRIED,		/* u64: messages carried */
	FATTREE_A_LINK_MAX_CYCLE,	/* u32: most carried in one cycle */
	FATTREE_A_LINK_SATURATED,	/* u64: cycles it carried its lanes */
	FATTREE_A_LINK_BLOCKED,		/* u64: messages blocked there */
	FATTREE_A_LINK_FAILED,		/* u8: enum fattree_link_fail bits (dumps only) */
	FATTREE_A_LINK_DIRECTION,	/* u32: enum fattree_link_dir (LINK_SET: only this direction) */
	FATTREE_A_LINK_SWITCH_LEVEL,	/* u32: LINK_SET: a switch's level, 1..h (all its links) */
	FATTREE_A_LINK_SWITCH_NODE,	/* u32: LINK_SET: the switch's node index at that level */
	FATTREE_A_LINK_CHANGED,		/* u32: LINK_SET reply: links that failed or came back */
	FATTREE_A_LINK_CIRCUITS_CUT,	/* u32: LINK_SET reply: circuits torn down */
	FATTREE_A_LINK_FAILED_LINKS,	/* u32: LINK_SET reply: links failed in the fabric now */
	FATTREE_A_LINK_FAIL,		/* u8: LINK_SET, required: 1 fail, 0 restore */

	__FATTREE_A_LINK_MAX,
	FATTREE_A_LINK_MAX = __FATTREE_A_LINK_MAX - 1
};

/* Attributes of leaves (FATTREE_CMD_LEAF_GET dump). */
enum {
	FATTREE_A_LEAF_UNSPEC,
	FATTREE_A_LEAF_PAD,
	FATTREE_A_LEAF_FABRIC,		/* string: fabric name (request filter) */
	FATTREE_A_LEAF_INDEX,		/* u32 */
	FATTREE_A_LEAF_IFINDEX,		/* u32: in the device's namespace */
	FATTREE_A_LEAF_IFNAME,		/* string */
	FATTREE_A_LEAF_QUEUED,		/* u64: packets waiting now */
	FATTREE_A_LEAF_SENT,		/* u64: messages that left this leaf */
	FATTREE_A_LEAF_DELIVERED,	/* u64: messages that arrived here */
	FATTREE_A_LEAF_BLOCKED,		/* u64: offers of this leaf blocked */
	FATTREE_A_LEAF_DROP_NOROUTE,	/* u64: unicast to no leaf */
	FATTREE_A_LEAF_DROP_DOWN,	/* u64: arrived while the leaf was down */
	FATTREE_A_LEAF_DROP_TEARDOWN,	/* u64: dropped when the fabric went */
	FATTREE_A_LEAF_CONTROL_TX,	/* u64: control-class frames sent */
	FATTREE_A_LEAF_CONTROL_RX,	/* u64 */
	FATTREE_A_LEAF_LATENCY,		/* binary u64[]: delivered by log2 cycles */

	__FATTREE_A_LEAF_MAX,
	FATTREE_A_LEAF_MAX = __FATTREE_A_LEAF_MAX - 1
};

/* Attributes of circuits (FATTREE_CMD_CIRCUIT_*). */
enum {
	FATTREE_A_CIRCUIT_UNSPEC,
	FATTREE_A_CIRCUIT_PAD,
	FATTREE_A_CIRCUIT_FABRIC,	/* string: fabric name */
	FATTREE_A_CIRCUIT_ENTRY,	/* binary fattree_circuit[], multi (ADD) */
	FATTREE_A_CIRCUIT_PAIR,		/* binary fattree_pair[], multi (DEL) */
	FATTREE_A_CIRCUIT_SRC,		/* u32 (dump) */
	FATTREE_A_CIRCUIT_DST,		/* u32 */
	FATTREE_A_CIRCUIT_LANES,	/* u32 */
	FATTREE_A_CIRCUIT_PORTS,	/* binary u8[H]: P_1..P_H */
	FATTREE_A_CIRCUIT_CREATED,	/* u64: cycle it was admitted */
	FATTREE_A_CIRCUIT_EXPIRES,	/* u64: last cycle it serves, 0: none */
	FATTREE_A_CIRCUIT_CARRIED,	/* u64: messages carried */
	FATTREE_A_CIRCUIT_IDLE,		/* u64: cycles since it last carried */
	FATTREE_A_CIRCUIT_COUNT,	/* u32: circuits in the fabric (ADD/DEL reply) */

	__FATTREE_A_CIRCUIT_MAX,
	FATTREE_A_CIRCUIT_MAX = __FATTREE_A_CIRCUIT_MAX - 1
};

/*
 * Attributes of demand (FATTREE_CMD_DEMAND_GET and _NTF). A notification
 * announces a cycle's demand in one or more messages, the last with
 * FATTREE_A_DEMAND_LAST; an announcement without entries says that the
 * demand has drained.
 */
enum {
	FATTREE_A_DEMAND_UNSPEC,
	FATTREE_A_DEMAND_PAD,
	FATTREE_A_DEMAND_FABRIC,	/* string: fabric name */
	FATTREE_A_DEMAND_CYCLE,		/* u64: the fabric's cycle */
	FATTREE_A_DEMAND_ENTRY,		/* binary fattree_demand[1], multi: one a pair */
	FATTREE_A_DEMAND_LAST,		/* flag: an announcement's last message */

	__FATTREE_A_DEMAND_MAX,
	FATTREE_A_DEMAND_MAX = __FATTREE_A_DEMAND_MAX - 1
};

/* Attributes of FATTREE_CMD_INFO_GET replies: the module and its limits. */
enum {
	FATTREE_A_INFO_UNSPEC,
	FATTREE_A_INFO_VERSION,		/* string: module version */
	FATTREE_A_INFO_GENL_VERSION,	/* u32: FATTREE_GENL_VERSION */
	FATTREE_A_INFO_MAX_FABRICS,	/* u32: fabrics per network namespace */
	FATTREE_A_INFO_MAX_LEAVES,	/* u32: leaves in one fabric */
	FATTREE_A_INFO_MAX_LEVELS,	/* u32: switch levels h in one fabric */
	FATTREE_A_INFO_MAX_LANES,	/* u32: lanes on one directed link */

	__FATTREE_A_INFO_MAX,
	FATTREE_A_INFO_MAX = __FATTREE_A_INFO_MAX - 1
};

/*
 * Store-and-forward counters (nested in FATTREE_A_FABRIC_SAF). Levels are
 * those of the leveled network, 0..2h: level k <= h holds the up copies of
 * the fat-tree's level-k nodes, level k > h the down copies of its level
 * 2h - k nodes (chains included); the per-level arrays count the edge
 * queues entering each level. Mean occupancy of level k:
 * LEVEL_OCC_SUM[k] / (LEVEL_QUEUES[k] * BUSY_STEPS).
 */
enum {
	FATTREE_A_SAF_UNSPEC,
	FATTREE_A_SAF_PAD,
	FATTREE_A_SAF_POOL,		/* u32: packets the fabric holds at once */
	FATTREE_A_SAF_STEPS,		/* u64: steps run */
	FATTREE_A_SAF_BUSY_STEPS,	/* u64: of which with a batch in flight */
	FATTREE_A_SAF_BATCHES,		/* u64: batches completed */
	FATTREE_A_SAF_DELIVERED,	/* u64: packets delivered */
	FATTREE_A_SAF_HOPS,		/* u64: edges crossed by packets */
	FATTREE_A_SAF_GHOSTS,		/* u64: ghosts sent */
	FATTREE_A_SAF_EOS,		/* u64: end-of-stream tokens sent */
	FATTREE_A_SAF_FDELAYS,		/* u64: selections with no room ahead */
	FATTREE_A_SAF_EMPTY_WAITS,	/* u64: waits on an empty input (Lemma 2.2) */
	FATTREE_A_SAF_STALLS,		/* u64: steps of a batch that moved nothing */
	FATTREE_A_SAF_RESCUES,		/* u64: stalled batches finished with ghosts */
	FATTREE_A_SAF_POOL_FULL,	/* u64: transmits refused, the pool full */
	FATTREE_A_SAF_LATENCY_SUM,	/* u64: steps from batch start to delivery */
	FATTREE_A_SAF_LATENCY_MAX,	/* u32: most steps to deliver a packet */
	FATTREE_A_SAF_QMAX,		/* u32: most packets an edge queue held */
	FATTREE_A_SAF_BATCH_PACKETS,	/* u32: packets of the batch in flight or last */
	FATTREE_A_SAF_BATCH_DELIVERED,	/* u32: of which delivered */
	FATTREE_A_SAF_BATCH_STEPS,	/* u32: steps it has run */
	FATTREE_A_SAF_BATCH_T,		/* u32: steps to its last delivery (T) */
	FATTREE_A_SAF_BATCH_CONGESTION,	/* u32: its congestion c */
	FATTREE_A_SAF_BATCH_DONE,	/* flag: it completed */
	FATTREE_A_SAF_LEVEL_QUEUES,	/* binary u32[2h+1]: edge queues per level */
	FATTREE_A_SAF_LEVEL_OCC_MAX,	/* binary u32[2h+1]: most packets in one */
	FATTREE_A_SAF_LEVEL_OCC_SUM,	/* binary u64[2h+1]: packets held, summed */

	__FATTREE_A_SAF_MAX,
	FATTREE_A_SAF_MAX = __FATTREE_A_SAF_MAX - 1
};

#define FATTREE_LATENCY_BUCKETS	32	/* bucket b: 2^(b-1) <= cycles < 2^b */

enum {
	FATTREE_CMD_UNSPEC,
	FATTREE_CMD_INFO_GET,		/* read: module version and limits */
	FATTREE_CMD_FABRIC_NEW,		/* admin: create a fabric */
	FATTREE_CMD_FABRIC_DEL,		/* admin: delete a fabric */
	FATTREE_CMD_FABRIC_GET,		/* read: one fabric, or dump all */
	FATTREE_CMD_FABRIC_SET,		/* admin: change policies, period, seed */
	FATTREE_CMD_FABRIC_STEP,	/* admin: run N cycles (manual fabrics) */
	FATTREE_CMD_FABRIC_INJECT,	/* admin: queue synthetic messages */
	FATTREE_CMD_LINK_GET,		/* read: dump a fabric's directed links */
	FATTREE_CMD_LEAF_GET,		/* read: dump a fabric's leaves */
	FATTREE_CMD_CIRCUIT_ADD,	/* admin: admit a batch, all or nothing */
	FATTREE_CMD_CIRCUIT_DEL,	/* admin: delete a batch, all or nothing */
	FATTREE_CMD_CIRCUIT_GET,	/* read: dump a fabric's circuits */
	FATTREE_CMD_DEMAND_GET,		/* read: dump a fabric's demand */
	FATTREE_CMD_DEMAND_NTF,		/* notification on "demand" */
	FATTREE_CMD_LINK_SET,		/* admin: fail or restore links, or a switch's */
	FATTREE_CMD_STATS_RESET,	/* admin: zero a fabric's and its links' counters */

	__FATTREE_CMD_MAX,
	FATTREE_CMD_MAX = __FATTREE_CMD_MAX - 1
};

#endif /* _UAPI_LINUX_FATTREE_H */
