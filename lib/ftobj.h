/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ftobj: the family's objects as C structs, decoded from reply messages
 * in one place, so that no program walks FATTREE_A_* attributes itself.
 *
 * Every decoder checks each attribute it knows against the spec's type
 * (a u32 is 4 bytes, a string ends in NUL, an array is a whole number of
 * elements that fits its field), marks it present in ->has (bit
 * FATTREE_A_<SET>_<NAME>; FTOBJ_HAS() tests it) and requires the
 * attributes that identify the object. A malformed message gives -EPROTO
 * and ftobj_error() says which attribute and why; the struct then holds
 * nothing that can be trusted.
 */
#ifndef FTOBJ_H
#define FTOBJ_H

#include <stdbool.h>
#include <stdint.h>
#include <netlink/msg.h>

#include "linux/fattree.h"
#include "linux/fattree_structs.h"

#define FTOBJ_HAS(o, attr)	(((o)->has >> (attr)) & 1)

/* Counters of a fabric (FATTREE_A_FABRIC_STATS), by FATTREE_A_STATS_*. */
struct ftobj_stats {
	uint64_t has;
	uint64_t v[FATTREE_A_STATS_MAX + 1];
};

/* Store-and-forward levels: up and down queues of every level and the leaves. */
#define FTOBJ_SAF_LEVELS	(2 * FATTREE_MAX_LEVELS + 1)

/* Store-and-forward counters (FATTREE_A_FABRIC_SAF), by FATTREE_A_SAF_*. */
struct ftobj_saf {
	uint64_t has;
	uint64_t v[FATTREE_A_SAF_MAX + 1];	/* u32 and u64 counters alike */
	bool batch_done;
	uint32_t nlevel_queues, nlevel_occ_max, nlevel_occ_sum;
	uint32_t level_queues[FTOBJ_SAF_LEVELS];
	uint32_t level_occ_max[FTOBJ_SAF_LEVELS];
	uint64_t level_occ_sum[FTOBJ_SAF_LEVELS];
};

/* A FABRIC_GET reply (one per fabric in a dump). Requires name. */
struct ftobj_fabric {
	uint64_t has;
	char name[FATTREE_NAME_LEN];
	uint32_t levels, leaves, backlog, steps;
	uint32_t profile, profile_base, profile_root;
	uint32_t path, injection, arbitration, mode;
	uint32_t saf_q, saf_discipline, saf_ghosts;
	uint64_t period_ns, seed, cycle;
	uint32_t ndown, nup, nlanes;
	uint32_t down[FATTREE_MAX_LEVELS], up[FATTREE_MAX_LEVELS];
	uint32_t lanes[FATTREE_MAX_LEVELS];
	struct ftobj_stats stats;
	struct ftobj_saf saf;
};

/*
 * A fabric's shape, h levels with down, up and lanes for each: what a
 * scheduler needs. 0, or -EPROTO (levels missing, 0 or above the
 * maximum, or an array shorter than h).
 */
int ftobj_fabric_shape(const struct ftobj_fabric *f);

/* A LINK_GET dump's directed link. Requires id, level, node and port. */
struct ftobj_link {
	uint64_t has;
	uint32_t id, level, node, port, lanes, reserved, max_cycle;
	uint64_t carried, saturated, blocked;
	bool up;
	uint8_t failed;			/* enum fattree_link_fail bits */
};

/* A LINK_SET reply. Requires all three. */
struct ftobj_link_set {
	uint64_t has;
	uint32_t changed, circuits_cut, failed_links;
};

/* A LEAF_GET dump's leaf. Requires index. */
struct ftobj_leaf {
	uint64_t has;
	uint32_t index, ifindex;
	char ifname[16];			/* IFNAMSIZ */
	uint64_t queued, sent, delivered, blocked;
	uint64_t drop_noroute, drop_down, drop_teardown, control_tx, control_rx;
	uint32_t nlatency;
	uint64_t latency[FATTREE_LATENCY_BUCKETS];
};

/* A CIRCUIT_GET dump's circuit. Requires src and dst. */
struct ftobj_circuit {
	uint64_t has;
	uint32_t src, dst, lanes;
	uint64_t created, expires, carried, idle;
	uint32_t nports;
	uint8_t ports[2 * FATTREE_MAX_LEVELS];
};

/* A CIRCUIT_ADD or _DEL reply: how many circuits it changed. Requires count. */
struct ftobj_circuit_count {
	uint64_t has;
	uint32_t count;
};

/*
 * A DEMAND_GET dump message or a DEMAND_NTF notification, without its
 * entries (ftnl_each_demand() walks those). Requires cycle.
 */
struct ftobj_demand {
	uint64_t has;
	char fabric[FATTREE_NAME_LEN];
	uint64_t cycle;
	bool last;
};

/* The INFO_GET reply. Requires nothing: an old module may lack any. */
struct ftobj_info {
	uint64_t has;
	char version[64];
	uint32_t genl_version, max_fabrics, max_leaves, max_levels, max_lanes;
};

/* Each returns 0 or -EPROTO (see above); @msg is a whole reply message. */
int ftobj_fabric_decode(struct nl_msg *msg, struct ftobj_fabric *f);
int ftobj_link_decode(struct nl_msg *msg, struct ftobj_link *l);
int ftobj_link_set_decode(struct nl_msg *msg, struct ftobj_link_set *r);
int ftobj_leaf_decode(struct nl_msg *msg, struct ftobj_leaf *l);
int ftobj_circuit_decode(struct nl_msg *msg, struct ftobj_circuit *c);
int ftobj_circuit_count_decode(struct nl_msg *msg, struct ftobj_circuit_count *c);
int ftobj_demand_decode(struct nl_msg *msg, struct ftobj_demand *d);
int ftobj_info_decode(struct nl_msg *msg, struct ftobj_info *i);

/*
 * Requests that answer in these objects, sent through ftnl. Each returns a
 * negative errno (-EPROTO for a reply that would not decode), else:
 * ftobj_fabric_get() and ftobj_info_get() 0 with the object filled
 * (-EPROTO if no reply came); the dumps the number of objects, *@out
 * holding them (the caller frees it).
 */
struct ftnl;
int ftobj_fabric_get(struct ftnl *nl, const char *name, struct ftobj_fabric *f);
/* The same, refused (-EPROTO, why in @nl's errmsg) unless its shape is whole. */
int ftobj_fabric_get_shape(struct ftnl *nl, const char *name, struct ftobj_fabric *f);
int ftobj_info_get(struct ftnl *nl, struct ftobj_info *i);
int ftobj_links(struct ftnl *nl, const char *name, struct ftobj_link **out);
int ftobj_leaves(struct ftnl *nl, const char *name, struct ftobj_leaf **out);
int ftobj_circuits(struct ftnl *nl, const char *name, struct ftobj_circuit **out);

/* The spec's name of counter @attr of struct ftobj_stats ("synth-queued"), or NULL. */
const char *ftobj_stats_name(unsigned int attr);

/* What the last failed decode of this thread found wrong; "" if none. */
const char *ftobj_error(void);
void ftobj_error_clear(void);

#endif /* FTOBJ_H */
