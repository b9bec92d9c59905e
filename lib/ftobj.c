// SPDX-License-Identifier: GPL-2.0
/*
 * ftobj: typed decoders of the family's reply messages. One table per
 * attribute set says where each attribute lands in its struct and what
 * it must look like; one walker applies them all.
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <netlink/genl/genl.h>

#include "ftnl.h"
#include "ftobj.h"

enum fto_kind {
	FTO_NONE,	/* not decoded (requests only, or padding) */
	FTO_FLAG,	/* bool, no payload */
	FTO_U8,
	FTO_U32,
	FTO_U32W,	/* a u32 kept in a uint64_t counter slot */
	FTO_U64,
	FTO_STR,	/* NUL-terminated, into char[cap] */
	FTO_A8,		/* arrays: cap elements at off, their number at cnt */
	FTO_A32,
	FTO_A64,
	FTO_NEST,
};

struct fto_set;

struct fto_field {
	const char *name;
	enum fto_kind kind;
	size_t off, cnt;
	size_t cap;
	const struct fto_set *nest;
};

struct fto_set {
	const char *name;
	int maxattr;
	const struct fto_field *field;
	uint64_t required;
};

static _Thread_local char fto_err[160];

const char *ftobj_error(void)
{
	return fto_err;
}

void ftobj_error_clear(void)
{
	fto_err[0] = '\0';
}

static int fto_fail(const struct fto_set *s, int type, const char *why)
{
	snprintf(fto_err, sizeof(fto_err), "%s attribute %s (%d): %s", s->name,
		 s->field[type].name, type, why);
	return -EPROTO;
}

#define FLD(T, A, K, F) [A] = { #F, K, offsetof(T, F), 0, 0, NULL }
#define STR(T, A, F) [A] = { #F, FTO_STR, offsetof(T, F), 0, sizeof(((T *)0)->F), NULL }
#define ARR(T, A, K, F, N) \
	[A] = { #F, K, offsetof(T, F), offsetof(T, N), \
		sizeof(((T *)0)->F) / sizeof(((T *)0)->F[0]), NULL }
/* A counter kept at v[attr] of a by-attribute counter array. */
#define CNT(T, A, K, F) [A] = { F, K, offsetof(T, v) + (A) * sizeof(uint64_t), 0, 0, NULL }
#define BIT(A) (1ULL << (A))

#define S struct ftobj_stats
static const struct fto_field stats_fields[FATTREE_A_STATS_MAX + 1] = {
	CNT(S, FATTREE_A_STATS_QUEUED, FTO_U64, "queued"),
	CNT(S, FATTREE_A_STATS_OFFERED, FTO_U64, "offered"),
	CNT(S, FATTREE_A_STATS_DELIVERED, FTO_U64, "delivered"),
	CNT(S, FATTREE_A_STATS_BLOCKED, FTO_U64, "blocked"),
	CNT(S, FATTREE_A_STATS_SYNTH_QUEUED, FTO_U64, "synth-queued"),
	CNT(S, FATTREE_A_STATS_SYNTH_DELIVERED, FTO_U64, "synth-delivered"),
	CNT(S, FATTREE_A_STATS_DRAINED_CYCLE, FTO_U64, "drained-cycle"),
	CNT(S, FATTREE_A_STATS_CONTROL, FTO_U64, "control"),
	CNT(S, FATTREE_A_STATS_OVERRUNS, FTO_U64, "overruns"),
	CNT(S, FATTREE_A_STATS_CYCLE_NS, FTO_U64, "cycle-ns"),
	CNT(S, FATTREE_A_STATS_RUN_NS, FTO_U64, "run-ns"),
	CNT(S, FATTREE_A_STATS_FAILED_LINKS, FTO_U64, "failed-links"),
	CNT(S, FATTREE_A_STATS_FAILURE_HELD, FTO_U64, "failure-held"),
	CNT(S, FATTREE_A_STATS_CIRCUITS_CUT, FTO_U64, "circuits-cut"),
	CNT(S, FATTREE_A_STATS_CIRCUITS, FTO_U64, "circuits"),
};
#undef S

static const struct fto_set stats_set = {
	"stats", FATTREE_A_STATS_MAX, stats_fields, 0
};

#define S struct ftobj_saf
static const struct fto_field saf_fields[FATTREE_A_SAF_MAX + 1] = {
	CNT(S, FATTREE_A_SAF_POOL, FTO_U32W, "pool"),
	CNT(S, FATTREE_A_SAF_STEPS, FTO_U64, "steps"),
	CNT(S, FATTREE_A_SAF_BUSY_STEPS, FTO_U64, "busy-steps"),
	CNT(S, FATTREE_A_SAF_BATCHES, FTO_U64, "batches"),
	CNT(S, FATTREE_A_SAF_DELIVERED, FTO_U64, "delivered"),
	CNT(S, FATTREE_A_SAF_HOPS, FTO_U64, "hops"),
	CNT(S, FATTREE_A_SAF_GHOSTS, FTO_U64, "ghosts"),
	CNT(S, FATTREE_A_SAF_EOS, FTO_U64, "eos"),
	CNT(S, FATTREE_A_SAF_FDELAYS, FTO_U64, "fdelays"),
	CNT(S, FATTREE_A_SAF_EMPTY_WAITS, FTO_U64, "empty-waits"),
	CNT(S, FATTREE_A_SAF_STALLS, FTO_U64, "stalls"),
	CNT(S, FATTREE_A_SAF_RESCUES, FTO_U64, "rescues"),
	CNT(S, FATTREE_A_SAF_POOL_FULL, FTO_U64, "pool-full"),
	CNT(S, FATTREE_A_SAF_LATENCY_SUM, FTO_U64, "latency-sum"),
	CNT(S, FATTREE_A_SAF_LATENCY_MAX, FTO_U32W, "latency-max"),
	CNT(S, FATTREE_A_SAF_QMAX, FTO_U32W, "qmax"),
	CNT(S, FATTREE_A_SAF_BATCH_PACKETS, FTO_U32W, "batch-packets"),
	CNT(S, FATTREE_A_SAF_BATCH_DELIVERED, FTO_U32W, "batch-delivered"),
	CNT(S, FATTREE_A_SAF_BATCH_STEPS, FTO_U32W, "batch-steps"),
	CNT(S, FATTREE_A_SAF_BATCH_T, FTO_U32W, "batch-t"),
	CNT(S, FATTREE_A_SAF_BATCH_CONGESTION, FTO_U32W, "batch-congestion"),
	FLD(S, FATTREE_A_SAF_BATCH_DONE, FTO_FLAG, batch_done),
	ARR(S, FATTREE_A_SAF_LEVEL_QUEUES, FTO_A32, level_queues, nlevel_queues),
	ARR(S, FATTREE_A_SAF_LEVEL_OCC_MAX, FTO_A32, level_occ_max, nlevel_occ_max),
	ARR(S, FATTREE_A_SAF_LEVEL_OCC_SUM, FTO_A64, level_occ_sum, nlevel_occ_sum),
	CNT(S, FATTREE_A_SAF_WAITING, FTO_U32W, "waiting"),
};
#undef S

static const struct fto_set saf_set = { "saf", FATTREE_A_SAF_MAX, saf_fields, 0 };

#define S struct ftobj_fabric
static const struct fto_field fabric_fields[FATTREE_A_FABRIC_MAX + 1] = {
	STR(S, FATTREE_A_FABRIC_NAME, name),
	FLD(S, FATTREE_A_FABRIC_LEVELS, FTO_U32, levels),
	ARR(S, FATTREE_A_FABRIC_DOWN, FTO_A32, down, ndown),
	ARR(S, FATTREE_A_FABRIC_UP, FTO_A32, up, nup),
	ARR(S, FATTREE_A_FABRIC_LANES, FTO_A32, lanes, nlanes),
	FLD(S, FATTREE_A_FABRIC_PROFILE, FTO_U32, profile),
	FLD(S, FATTREE_A_FABRIC_PROFILE_BASE, FTO_U32, profile_base),
	FLD(S, FATTREE_A_FABRIC_PROFILE_ROOT, FTO_U32, profile_root),
	FLD(S, FATTREE_A_FABRIC_PATH, FTO_U32, path),
	FLD(S, FATTREE_A_FABRIC_INJECTION, FTO_U32, injection),
	FLD(S, FATTREE_A_FABRIC_ARBITRATION, FTO_U32, arbitration),
	FLD(S, FATTREE_A_FABRIC_PERIOD_NS, FTO_U64, period_ns),
	FLD(S, FATTREE_A_FABRIC_BACKLOG, FTO_U32, backlog),
	FLD(S, FATTREE_A_FABRIC_SEED, FTO_U64, seed),
	FLD(S, FATTREE_A_FABRIC_LEAVES, FTO_U32, leaves),
	FLD(S, FATTREE_A_FABRIC_CYCLE, FTO_U64, cycle),
	FLD(S, FATTREE_A_FABRIC_STEPS, FTO_U32, steps),
	[FATTREE_A_FABRIC_STATS] = { "stats", FTO_NEST, offsetof(S, stats), 0, 0, &stats_set },
	FLD(S, FATTREE_A_FABRIC_MODE, FTO_U32, mode),
	FLD(S, FATTREE_A_FABRIC_SAF_Q, FTO_U32, saf_q),
	FLD(S, FATTREE_A_FABRIC_SAF_DISCIPLINE, FTO_U32, saf_discipline),
	FLD(S, FATTREE_A_FABRIC_SAF_GHOSTS, FTO_U32, saf_ghosts),
	[FATTREE_A_FABRIC_SAF] = { "saf", FTO_NEST, offsetof(S, saf), 0, 0, &saf_set },
};
#undef S

static const struct fto_set fabric_set = {
	"fabric", FATTREE_A_FABRIC_MAX, fabric_fields, BIT(FATTREE_A_FABRIC_NAME)
};

#define S struct ftobj_link
static const struct fto_field link_fields[FATTREE_A_LINK_MAX + 1] = {
	FLD(S, FATTREE_A_LINK_ID, FTO_U32, id),
	FLD(S, FATTREE_A_LINK_LEVEL, FTO_U32, level),
	FLD(S, FATTREE_A_LINK_NODE, FTO_U32, node),
	FLD(S, FATTREE_A_LINK_PORT, FTO_U32, port),
	FLD(S, FATTREE_A_LINK_UP, FTO_FLAG, up),
	FLD(S, FATTREE_A_LINK_LANES, FTO_U32, lanes),
	FLD(S, FATTREE_A_LINK_RESERVED, FTO_U32, reserved),
	FLD(S, FATTREE_A_LINK_CARRIED, FTO_U64, carried),
	FLD(S, FATTREE_A_LINK_MAX_CYCLE, FTO_U32, max_cycle),
	FLD(S, FATTREE_A_LINK_SATURATED, FTO_U64, saturated),
	FLD(S, FATTREE_A_LINK_BLOCKED, FTO_U64, blocked),
	FLD(S, FATTREE_A_LINK_FAILED, FTO_U8, failed),
};
#undef S

static const struct fto_set link_set = {
	"link", FATTREE_A_LINK_MAX, link_fields,
	BIT(FATTREE_A_LINK_ID) | BIT(FATTREE_A_LINK_LEVEL) | BIT(FATTREE_A_LINK_NODE) |
	BIT(FATTREE_A_LINK_PORT)
};

#define S struct ftobj_link_set
static const struct fto_field link_set_fields[FATTREE_A_LINK_MAX + 1] = {
	FLD(S, FATTREE_A_LINK_CHANGED, FTO_U32, changed),
	FLD(S, FATTREE_A_LINK_CIRCUITS_CUT, FTO_U32, circuits_cut),
	FLD(S, FATTREE_A_LINK_FAILED_LINKS, FTO_U32, failed_links),
};
#undef S

static const struct fto_set link_set_set = {
	"link-set", FATTREE_A_LINK_MAX, link_set_fields,
	BIT(FATTREE_A_LINK_CHANGED) | BIT(FATTREE_A_LINK_CIRCUITS_CUT) |
	BIT(FATTREE_A_LINK_FAILED_LINKS)
};

#define S struct ftobj_leaf
static const struct fto_field leaf_fields[FATTREE_A_LEAF_MAX + 1] = {
	FLD(S, FATTREE_A_LEAF_INDEX, FTO_U32, index),
	FLD(S, FATTREE_A_LEAF_IFINDEX, FTO_U32, ifindex),
	STR(S, FATTREE_A_LEAF_IFNAME, ifname),
	FLD(S, FATTREE_A_LEAF_QUEUED, FTO_U64, queued),
	FLD(S, FATTREE_A_LEAF_SENT, FTO_U64, sent),
	FLD(S, FATTREE_A_LEAF_DELIVERED, FTO_U64, delivered),
	FLD(S, FATTREE_A_LEAF_BLOCKED, FTO_U64, blocked),
	FLD(S, FATTREE_A_LEAF_DROP_NOROUTE, FTO_U64, drop_noroute),
	FLD(S, FATTREE_A_LEAF_DROP_DOWN, FTO_U64, drop_down),
	FLD(S, FATTREE_A_LEAF_DROP_TEARDOWN, FTO_U64, drop_teardown),
	FLD(S, FATTREE_A_LEAF_CONTROL_TX, FTO_U64, control_tx),
	FLD(S, FATTREE_A_LEAF_CONTROL_RX, FTO_U64, control_rx),
	ARR(S, FATTREE_A_LEAF_LATENCY, FTO_A64, latency, nlatency),
};
#undef S

static const struct fto_set leaf_set = {
	"leaf", FATTREE_A_LEAF_MAX, leaf_fields, BIT(FATTREE_A_LEAF_INDEX)
};

#define S struct ftobj_circuit
static const struct fto_field circuit_fields[FATTREE_A_CIRCUIT_MAX + 1] = {
	FLD(S, FATTREE_A_CIRCUIT_SRC, FTO_U32, src),
	FLD(S, FATTREE_A_CIRCUIT_DST, FTO_U32, dst),
	FLD(S, FATTREE_A_CIRCUIT_LANES, FTO_U32, lanes),
	ARR(S, FATTREE_A_CIRCUIT_PORTS, FTO_A8, ports, nports),
	FLD(S, FATTREE_A_CIRCUIT_CREATED, FTO_U64, created),
	FLD(S, FATTREE_A_CIRCUIT_EXPIRES, FTO_U64, expires),
	FLD(S, FATTREE_A_CIRCUIT_CARRIED, FTO_U64, carried),
	FLD(S, FATTREE_A_CIRCUIT_IDLE, FTO_U64, idle),
};
#undef S

static const struct fto_set circuit_set = {
	"circuit", FATTREE_A_CIRCUIT_MAX, circuit_fields,
	BIT(FATTREE_A_CIRCUIT_SRC) | BIT(FATTREE_A_CIRCUIT_DST)
};

static const struct fto_field circuit_count_fields[FATTREE_A_CIRCUIT_MAX + 1] = {
	FLD(struct ftobj_circuit_count, FATTREE_A_CIRCUIT_COUNT, FTO_U32, count),
};

static const struct fto_set circuit_count_set = {
	"circuit", FATTREE_A_CIRCUIT_MAX, circuit_count_fields, BIT(FATTREE_A_CIRCUIT_COUNT)
};

#define S struct ftobj_demand
static const struct fto_field demand_fields[FATTREE_A_DEMAND_MAX + 1] = {
	STR(S, FATTREE_A_DEMAND_FABRIC, fabric),
	FLD(S, FATTREE_A_DEMAND_CYCLE, FTO_U64, cycle),
	FLD(S, FATTREE_A_DEMAND_LAST, FTO_FLAG, last),
};
#undef S

static const struct fto_set demand_set = {
	"demand", FATTREE_A_DEMAND_MAX, demand_fields, BIT(FATTREE_A_DEMAND_CYCLE)
};

#define S struct ftobj_info
static const struct fto_field info_fields[FATTREE_A_INFO_MAX + 1] = {
	STR(S, FATTREE_A_INFO_VERSION, version),
	FLD(S, FATTREE_A_INFO_GENL_VERSION, FTO_U32, genl_version),
	FLD(S, FATTREE_A_INFO_MAX_FABRICS, FTO_U32, max_fabrics),
	FLD(S, FATTREE_A_INFO_MAX_LEAVES, FTO_U32, max_leaves),
	FLD(S, FATTREE_A_INFO_MAX_LEVELS, FTO_U32, max_levels),
	FLD(S, FATTREE_A_INFO_MAX_LANES, FTO_U32, max_lanes),
};
#undef S

static const struct fto_set info_set = { "info", FATTREE_A_INFO_MAX, info_fields, 0 };

static size_t fto_elem(enum fto_kind k)
{
	return k == FTO_A8 ? 1 : k == FTO_A32 ? 4 : 8;
}

static int fto_walk(const struct fto_set *s, const struct nlattr *head, int len, void *obj);

/* One attribute into its field; -EPROTO when it has the wrong shape. */
static int fto_field(const struct fto_set *s, const struct nlattr *a, void *obj)
{
	int type = nla_type(a);
	const struct fto_field *f = &s->field[type];
	char *dst = (char *)obj + f->off;
	size_t len = (size_t)nla_len(a), want = 0;
	const char *p = nla_data(a);
	char why[64];
	uint32_t v32;

	switch (f->kind) {
	case FTO_NONE:
		return 0;
	case FTO_FLAG:
		want = 0;
		break;
	case FTO_U8:
		want = 1;
		break;
	case FTO_U32:
	case FTO_U32W:
		want = 4;
		break;
	case FTO_U64:
		want = 8;
		break;
	case FTO_STR:
		if (!len || p[len - 1] != '\0' || strlen(p) + 1 != len)
			return fto_fail(s, type, "not a NUL-terminated string");
		if (len > f->cap) {
			snprintf(why, sizeof(why), "string of %zu bytes, at most %zu", len, f->cap);
			return fto_fail(s, type, why);
		}
		memcpy(dst, p, len);
		return 0;
	case FTO_A8:
	case FTO_A32:
	case FTO_A64:
		if (len % fto_elem(f->kind) || len / fto_elem(f->kind) > f->cap) {
			snprintf(why, sizeof(why), "length %zu, not up to %zu elements of %zu bytes",
				 len, f->cap, fto_elem(f->kind));
			return fto_fail(s, type, why);
		}
		memcpy(dst, p, len);
		v32 = (uint32_t)(len / fto_elem(f->kind));
		memcpy((char *)obj + f->cnt, &v32, sizeof(v32));
		return 0;
	case FTO_NEST:
		return fto_walk(f->nest, nla_data(a), (int)len, dst);
	}
	if (len != want) {
		snprintf(why, sizeof(why), "length %zu, expected %zu", len, want);
		return fto_fail(s, type, why);
	}
	switch (f->kind) {
	case FTO_FLAG:
		*(bool *)dst = true;
		break;
	case FTO_U8:
		*(uint8_t *)dst = (uint8_t)*p;
		break;
	case FTO_U32:
		memcpy(dst, p, 4);
		break;
	case FTO_U32W:
		memcpy(&v32, p, 4);
		*(uint64_t *)dst = v32;
		break;
	default:
		/* u64 payloads are only 4-byte aligned in a message. */
		memcpy(dst, p, 8);
		break;
	}
	return 0;
}

/* Every attribute of @s in @head..+@len into @obj, whose ->has comes first. */
static int fto_walk(const struct fto_set *s, const struct nlattr *head, int len, void *obj)
{
	const struct nlattr *a;
	uint64_t has = 0, miss;
	int rem, type, err;

	nla_for_each_attr(a, head, len, rem) {
		type = nla_type(a);
		/* Attributes of a newer module than ours are skipped. */
		if (type > s->maxattr || s->field[type].kind == FTO_NONE)
			continue;
		err = fto_field(s, a, obj);
		if (err)
			return err;
		has |= BIT(type);
	}
	if (rem > 0) {
		snprintf(fto_err, sizeof(fto_err), "%s: %d trailing bytes after the attributes",
			 s->name, rem);
		return -EPROTO;
	}
	miss = s->required & ~has;
	if (miss)
		return fto_fail(s, __builtin_ctzll(miss), "missing");
	memcpy(obj, &has, sizeof(has));
	return 0;
}

static int fto_decode(const struct fto_set *s, struct nl_msg *msg, void *obj, size_t size)
{
	struct nlmsghdr *nlh = nlmsg_hdr(msg);

	memset(obj, 0, size);
	if (!genlmsg_valid_hdr(nlh, 0)) {
		snprintf(fto_err, sizeof(fto_err), "%s: message too short for its headers",
			 s->name);
		return -EPROTO;
	}
	return fto_walk(s, genlmsg_attrdata(nlmsg_data(nlh), 0),
			genlmsg_attrlen(nlmsg_data(nlh), 0), obj);
}

/* One public decoder per object: its attribute set and its struct. */
#define FTOBJ_DECODER(obj, set) \
	int ftobj_##obj##_decode(struct nl_msg *msg, struct ftobj_##obj *o) \
	{ \
		return fto_decode(&set, msg, o, sizeof(*o)); \
	}

FTOBJ_DECODER(fabric, fabric_set)
FTOBJ_DECODER(link, link_set)
FTOBJ_DECODER(link_set, link_set_set)
FTOBJ_DECODER(leaf, leaf_set)
FTOBJ_DECODER(circuit, circuit_set)
FTOBJ_DECODER(circuit_count, circuit_count_set)
FTOBJ_DECODER(demand, demand_set)
FTOBJ_DECODER(info, info_set)

const char *ftobj_stats_name(unsigned int attr)
{
	return attr <= FATTREE_A_STATS_MAX ? stats_fields[attr].name : NULL;
}

int ftobj_fabric_shape(const struct ftobj_fabric *f)
{
	uint32_t h = f->levels;

	if (!FTOBJ_HAS(f, FATTREE_A_FABRIC_LEVELS) || !h || h > FATTREE_MAX_LEVELS) {
		snprintf(fto_err, sizeof(fto_err), "fabric %s: no levels, or more than %d",
			 f->name, FATTREE_MAX_LEVELS);
		return -EPROTO;
	}
	if (f->ndown < h || f->nup < h || f->nlanes < h) {
		snprintf(fto_err, sizeof(fto_err),
			 "fabric %s: down, up or lanes has fewer than its %u levels", f->name, h);
		return -EPROTO;
	}
	return 0;
}


struct fto_one {
	const struct fto_set *s;
	void *obj;
	size_t size;
	bool seen;
};

static int fto_one_reply(struct nl_msg *msg, void *arg)
{
	struct fto_one *o = arg;

	o->seen = true;
	return fto_decode(o->s, msg, o->obj, o->size);
}

/* Send @msg (consumed; NULL: out of memory), its one reply into @obj. */
static int fto_get(struct ftnl *nl, struct nl_msg *msg, const struct fto_set *s, void *obj,
		   size_t size)
{
	struct fto_one o = { s, obj, size, false };
	int err;

	if (!msg)
		return -ENOMEM;
	err = ftnl_transact(nl, msg, fto_one_reply, &o);
	if (!err && !o.seen) {
		snprintf(fto_err, sizeof(fto_err), "%s: no reply", s->name);
		snprintf(nl->errmsg, sizeof(nl->errmsg), "%s", fto_err);
		return -EPROTO;
	}
	return err;
}

int ftobj_fabric_get(struct ftnl *nl, const char *name, struct ftobj_fabric *f)
{
	struct nl_msg *msg = ftnl_msg(nl, FATTREE_CMD_FABRIC_GET, 0);

	if (msg && nla_put_string(msg, FATTREE_A_FABRIC_NAME, name)) {
		nlmsg_free(msg);
		return -EMSGSIZE;
	}
	return fto_get(nl, msg, &fabric_set, f, sizeof(*f));
}

int ftobj_fabric_get_shape(struct ftnl *nl, const char *name, struct ftobj_fabric *f)
{
	int err = ftobj_fabric_get(nl, name, f);

	if (!err && ftobj_fabric_shape(f)) {
		snprintf(nl->errmsg, sizeof(nl->errmsg), "%s", fto_err);
		return -EPROTO;
	}
	return err;
}

int ftobj_info_get(struct ftnl *nl, struct ftobj_info *i)
{
	return fto_get(nl, ftnl_msg(nl, FATTREE_CMD_INFO_GET, 0), &info_set, i, sizeof(*i));
}

/* A dump's reply: one more object, decoded by the set in the array's ctx. */
static int fto_dump_reply(struct nl_msg *msg, void *arg)
{
	struct ftnl_array *a = arg;
	void *o = ftnl_array_next(a);

	return o ? fto_decode(a->ctx, msg, o, a->size) : -ENOMEM;
}

/* The dumps, each of one object of a fabric. */
#define FTOBJ_DUMP(fn, obj, cmd, attr) \
	int fn(struct ftnl *nl, const char *name, struct ftobj_##obj **out) \
	{ \
		return ftnl_dump_array(nl, cmd, attr, name, fto_dump_reply, &obj##_set, \
				       sizeof(**out), (void **)out); \
	}

FTOBJ_DUMP(ftobj_links, link, FATTREE_CMD_LINK_GET, FATTREE_A_LINK_FABRIC)
FTOBJ_DUMP(ftobj_leaves, leaf, FATTREE_CMD_LEAF_GET, FATTREE_A_LEAF_FABRIC)
FTOBJ_DUMP(ftobj_circuits, circuit, FATTREE_CMD_CIRCUIT_GET, FATTREE_A_CIRCUIT_FABRIC)
