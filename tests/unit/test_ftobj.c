// SPDX-License-Identifier: GPL-2.0
/*
 * ftobj's typed decoders on reply messages built here with libnl as the
 * kernel lays them out, and on malformed ones: a missing required
 * attribute, a wrong length, an unterminated string, an array too long,
 * a bad nested counter. Each malformed one must give -EPROTO and an
 * error that names the attribute.
 */
#include <errno.h>
#include <string.h>
#include <netlink/genl/genl.h>

#include "tap.h"
#include "ftobj.h"
#include "linux/fattree.h"

static struct nl_msg *reply(uint8_t cmd)
{
	struct nl_msg *msg = nlmsg_alloc();

	genlmsg_put(msg, 0, 0, 0x20, 0, NLM_F_MULTI, cmd, 1);
	return msg;
}

/* The error names @what (an attribute, "missing", a length...). */
static int says(const char *what)
{
	return strstr(ftobj_error(), what) != NULL;
}

static void link_msg_body(struct nl_msg *msg)
{
	nla_put_u32(msg, FATTREE_A_LINK_ID, 17);
	nla_put_u32(msg, FATTREE_A_LINK_LEVEL, 2);
	nla_put_u32(msg, FATTREE_A_LINK_NODE, 5);
	nla_put_u32(msg, FATTREE_A_LINK_PORT, 1);
}

static void test_link(void)
{
	struct nl_msg *msg = reply(FATTREE_CMD_LINK_GET);
	struct ftobj_link l;
	int err;

	link_msg_body(msg);
	nla_put_flag(msg, FATTREE_A_LINK_UP);
	nla_put_u32(msg, FATTREE_A_LINK_LANES, 4);
	nla_put_u32(msg, FATTREE_A_LINK_RESERVED, 3);
	/* a u32 first leaves the u64 only 4-byte aligned, as in the kernel's */
	nla_put_u64(msg, FATTREE_A_LINK_CARRIED, 0x100000002ULL);
	nla_put_u32(msg, FATTREE_A_LINK_MAX_CYCLE, 9);
	nla_put_u8(msg, FATTREE_A_LINK_FAILED, 5);
	nla_put_u32(msg, FATTREE_A_LINK_MAX + 7, 1);	/* newer module: skipped */
	err = ftobj_link_decode(msg, &l);
	tap_ok(!err && l.id == 17 && l.level == 2 && l.node == 5 && l.port == 1 &&
	       l.up && l.lanes == 4 && l.reserved == 3 && l.carried == 0x100000002ULL &&
	       l.max_cycle == 9 && l.failed == 5, "link: every field decoded (%d)", err);
	tap_ok(FTOBJ_HAS(&l, FATTREE_A_LINK_LANES) && !FTOBJ_HAS(&l, FATTREE_A_LINK_BLOCKED),
	       "link: has marks present attributes only");
	nlmsg_free(msg);
}

static void test_link_set(void)
{
	struct nl_msg *msg = reply(FATTREE_CMD_LINK_SET);
	struct ftobj_link_set r;
	int err;

	nla_put_u32(msg, FATTREE_A_LINK_CHANGED, 2);
	nla_put_u32(msg, FATTREE_A_LINK_CIRCUITS_CUT, 1);
	err = ftobj_link_set_decode(msg, &r);
	tap_ok(err == -EPROTO && says("failed_links") && says("missing"),
	       "link set: reply without failed-links refused: %s", ftobj_error());
	nla_put_u32(msg, FATTREE_A_LINK_FAILED_LINKS, 6);
	err = ftobj_link_set_decode(msg, &r);
	tap_ok(!err && r.changed == 2 && r.circuits_cut == 1 && r.failed_links == 6,
	       "link set: changed, cut, failed (%d)", err);
	nlmsg_free(msg);
}

static void test_circuit(void)
{
	static const uint8_t ports[3] = { 1, 0, 3 };
	struct nl_msg *msg = reply(FATTREE_CMD_CIRCUIT_GET);
	struct ftobj_circuit c;
	struct ftobj_circuit_count n;
	int err;

	nla_put_string(msg, FATTREE_A_CIRCUIT_FABRIC, "f0");
	nla_put_u32(msg, FATTREE_A_CIRCUIT_SRC, 3);
	nla_put_u32(msg, FATTREE_A_CIRCUIT_DST, 12);
	nla_put_u32(msg, FATTREE_A_CIRCUIT_LANES, 2);
	nla_put(msg, FATTREE_A_CIRCUIT_PORTS, sizeof(ports), ports);
	nla_put_u64(msg, FATTREE_A_CIRCUIT_CREATED, 10);
	nla_put_u64(msg, FATTREE_A_CIRCUIT_EXPIRES, 0);
	nla_put_u64(msg, FATTREE_A_CIRCUIT_CARRIED, 77);
	nla_put_u64(msg, FATTREE_A_CIRCUIT_IDLE, 4);
	err = ftobj_circuit_decode(msg, &c);
	tap_ok(!err && c.src == 3 && c.dst == 12 && c.lanes == 2 && c.nports == 3 &&
	       !memcmp(c.ports, ports, 3) && c.created == 10 && c.carried == 77 &&
	       c.idle == 4 && FTOBJ_HAS(&c, FATTREE_A_CIRCUIT_EXPIRES),
	       "circuit: every field decoded (%d)", err);
	nlmsg_free(msg);

	msg = reply(FATTREE_CMD_CIRCUIT_ADD);
	nla_put_u32(msg, FATTREE_A_CIRCUIT_COUNT, 3);
	err = ftobj_circuit_count_decode(msg, &n);
	tap_ok(!err && n.count == 3, "circuit count: 3 (%d)", err);
	nlmsg_free(msg);
}

static void test_leaf(void)
{
	uint64_t lat[4] = { 0 };
	struct nl_msg *msg = reply(FATTREE_CMD_LEAF_GET);
	struct ftobj_leaf l;
	int err;

	lat[0] = 5;
	lat[3] = 0x200000001ULL;
	nla_put_u32(msg, FATTREE_A_LEAF_INDEX, 7);
	nla_put_u32(msg, FATTREE_A_LEAF_IFINDEX, 42);
	nla_put_string(msg, FATTREE_A_LEAF_IFNAME, "ft0l7");
	nla_put_u64(msg, FATTREE_A_LEAF_SENT, 100);
	nla_put_u64(msg, FATTREE_A_LEAF_DROP_TEARDOWN, 2);
	nla_put(msg, FATTREE_A_LEAF_LATENCY, sizeof(lat), lat);
	err = ftobj_leaf_decode(msg, &l);
	tap_ok(!err && l.index == 7 && l.ifindex == 42 && !strcmp(l.ifname, "ft0l7") &&
	       l.sent == 100 && l.drop_teardown == 2 && l.nlatency == 4 && l.latency[0] == 5 &&
	       l.latency[3] == 0x200000001ULL, "leaf: every field decoded (%d)", err);
	nlmsg_free(msg);
}

static void put_fabric(struct nl_msg *msg, uint32_t h)
{
	static const uint32_t m[3] = { 4, 4, 4 }, w[3] = { 1, 2, 2 }, lanes[3] = { 1, 2, 4 };

	nla_put_string(msg, FATTREE_A_FABRIC_NAME, "f0");
	nla_put_u32(msg, FATTREE_A_FABRIC_LEVELS, h);
	nla_put(msg, FATTREE_A_FABRIC_DOWN, sizeof(m), m);
	nla_put(msg, FATTREE_A_FABRIC_UP, sizeof(w), w);
	nla_put(msg, FATTREE_A_FABRIC_LANES, sizeof(lanes), lanes);
}

static void test_fabric(void)
{
	static const uint32_t lq[2] = { 3, 4 };
	static const uint64_t lsum[2] = { 30, 0x400000000ULL };
	struct nl_msg *msg = reply(FATTREE_CMD_FABRIC_GET);
	struct ftobj_fabric f;
	struct nlattr *nest;
	int err;

	put_fabric(msg, 3);
	nla_put_u32(msg, FATTREE_A_FABRIC_LEAVES, 64);
	nla_put_u32(msg, FATTREE_A_FABRIC_PATH, FATTREE_PATH_RANDOM);
	nla_put_u64(msg, FATTREE_A_FABRIC_PERIOD_NS, 1000000);
	nla_put_u64(msg, FATTREE_A_FABRIC_CYCLE, 5);
	nest = nla_nest_start(msg, FATTREE_A_FABRIC_STATS);
	nla_put_u64(msg, FATTREE_A_STATS_DELIVERED, 99);
	nla_put_u64(msg, FATTREE_A_STATS_RUN_NS, 1234);
	nla_nest_end(msg, nest);
	nest = nla_nest_start(msg, FATTREE_A_FABRIC_SAF);
	nla_put_u32(msg, FATTREE_A_SAF_POOL, 512);
	nla_put_u64(msg, FATTREE_A_SAF_HOPS, 8);
	nla_put_flag(msg, FATTREE_A_SAF_BATCH_DONE);
	nla_put(msg, FATTREE_A_SAF_LEVEL_QUEUES, sizeof(lq), lq);
	nla_put(msg, FATTREE_A_SAF_LEVEL_OCC_SUM, sizeof(lsum), lsum);
	nla_nest_end(msg, nest);
	err = ftobj_fabric_decode(msg, &f);
	tap_ok(!err && !strcmp(f.name, "f0") && f.levels == 3 && f.ndown == 3 &&
	       f.up[2] == 2 && f.lanes[2] == 4 && f.leaves == 64 &&
	       f.path == FATTREE_PATH_RANDOM && f.period_ns == 1000000 && f.cycle == 5 &&
	       !ftobj_fabric_shape(&f), "fabric: fields and shape decoded (%d)", err);
	tap_ok(f.stats.v[FATTREE_A_STATS_DELIVERED] == 99 &&
	       f.stats.v[FATTREE_A_STATS_RUN_NS] == 1234 &&
	       FTOBJ_HAS(&f.stats, FATTREE_A_STATS_RUN_NS) &&
	       !FTOBJ_HAS(&f.stats, FATTREE_A_STATS_QUEUED),
	       "fabric: counters by their attribute, with has");
	tap_ok(f.saf.v[FATTREE_A_SAF_POOL] == 512 && f.saf.v[FATTREE_A_SAF_HOPS] == 8 &&
	       f.saf.batch_done && f.saf.nlevel_queues == 2 && f.saf.level_queues[1] == 4 &&
	       f.saf.nlevel_occ_sum == 2 && f.saf.level_occ_sum[1] == 0x400000000ULL &&
	       FTOBJ_HAS(&f, FATTREE_A_FABRIC_SAF),
	       "fabric: store-and-forward counters and level arrays");
	nlmsg_free(msg);

	/* one level more than the arrays hold: not a shape */
	msg = reply(FATTREE_CMD_FABRIC_GET);
	put_fabric(msg, 4);
	err = ftobj_fabric_decode(msg, &f);
	tap_ok(!err && ftobj_fabric_shape(&f) == -EPROTO && says("fewer than its 4 levels"),
	       "fabric: arrays shorter than levels are no shape: %s", ftobj_error());
	nlmsg_free(msg);

	/* a bad counter inside the nest names the nest's set */
	msg = reply(FATTREE_CMD_FABRIC_GET);
	put_fabric(msg, 3);
	nest = nla_nest_start(msg, FATTREE_A_FABRIC_STATS);
	nla_put_u32(msg, FATTREE_A_STATS_QUEUED, 1);
	nla_nest_end(msg, nest);
	err = ftobj_fabric_decode(msg, &f);
	tap_ok(err == -EPROTO && says("stats attribute queued") && says("expected 8"),
	       "fabric: 4-byte counter in stats refused: %s", ftobj_error());
	nlmsg_free(msg);
}

static void fabric_body(struct nl_msg *msg)
{
	put_fabric(msg, 3);
}

/* One attribute of a reply: @len bytes at @data. */
struct attr {
	int type;
	int len;
	const void *data;
};

/*
 * A malformed reply: the valid attributes @body puts (if set), then up to
 * three more; it must be refused with -EPROTO and an error that says
 * @says and @says_too (if set).
 */
struct malformed {
	const char *what;
	uint8_t cmd;
	void (*body)(struct nl_msg *msg);
	struct attr put[3];
	const char *says, *says_too;
};

static const uint32_t three = 3, four = 4, five = 5, seven = 7;
static const uint64_t u64_three = 3;
static const uint8_t many_ports[2 * FATTREE_MAX_LEVELS + 1];
static const uint64_t long_latency[FATTREE_LATENCY_BUCKETS + 1];

static const struct malformed malformed[] = {
	{ "link: missing port", FATTREE_CMD_LINK_GET, NULL,
	  { { FATTREE_A_LINK_ID, 4, &seven }, { FATTREE_A_LINK_LEVEL, 4, &three },
	    { FATTREE_A_LINK_NODE, 4, &five } }, "port", "missing" },
	{ "link: 2-byte lanes", FATTREE_CMD_LINK_GET, link_msg_body,
	  { { FATTREE_A_LINK_LANES, 2, &four } }, "lanes", "length 2, expected 4" },
	{ "link: flag with payload", FATTREE_CMD_LINK_GET, link_msg_body,
	  { { FATTREE_A_LINK_UP, 4, &seven } }, "up", NULL },
	{ "circuit: missing dst", FATTREE_CMD_CIRCUIT_GET, NULL,
	  { { FATTREE_A_CIRCUIT_SRC, 4, &three } }, "dst", "missing" },
	{ "circuit: more ports than fit", FATTREE_CMD_CIRCUIT_GET, NULL,
	  { { FATTREE_A_CIRCUIT_SRC, 4, &three }, { FATTREE_A_CIRCUIT_DST, 4, &four },
	    { FATTREE_A_CIRCUIT_PORTS, sizeof(many_ports), many_ports } },
	  "ports", "length 41" },
	{ "circuit count: a u64 count", FATTREE_CMD_CIRCUIT_ADD, NULL,
	  { { FATTREE_A_CIRCUIT_COUNT, 8, &u64_three } }, "count", "length 8, expected 4" },
	{ "leaf: unterminated ifname", FATTREE_CMD_LEAF_GET, NULL,
	  { { FATTREE_A_LEAF_INDEX, 4, &seven }, { FATTREE_A_LEAF_IFNAME, 5, "ft0l7" } },
	  "ifname", "NUL" },
	{ "leaf: ifname too long", FATTREE_CMD_LEAF_GET, NULL,
	  { { FATTREE_A_LEAF_INDEX, 4, &seven },
	    { FATTREE_A_LEAF_IFNAME, 28, "a-name-longer-than-ifnamsiz" } },
	  "ifname", "at most 16" },
	{ "leaf: torn histogram", FATTREE_CMD_LEAF_GET, NULL,
	  { { FATTREE_A_LEAF_INDEX, 4, &seven }, { FATTREE_A_LEAF_LATENCY, 12, long_latency } },
	  "latency", NULL },
	{ "leaf: histogram too long", FATTREE_CMD_LEAF_GET, NULL,
	  { { FATTREE_A_LEAF_INDEX, 4, &seven },
	    { FATTREE_A_LEAF_LATENCY, sizeof(long_latency), long_latency } },
	  "latency", NULL },
	{ "fabric: no name", FATTREE_CMD_FABRIC_GET, NULL,
	  { { FATTREE_A_FABRIC_LEVELS, 4, &three } }, "name", "missing" },
	{ "fabric: torn down array", FATTREE_CMD_FABRIC_GET, fabric_body,
	  { { FATTREE_A_FABRIC_DOWN, 6, "abcdef" } }, "down", "length 6" },
};

/* Decode @msg as the object that answers its command. */
static int decode(struct nl_msg *msg, uint8_t cmd)
{
	union {
		struct ftobj_link link;
		struct ftobj_circuit circuit;
		struct ftobj_circuit_count count;
		struct ftobj_leaf leaf;
		struct ftobj_fabric fabric;
	} o;

	switch (cmd) {
	case FATTREE_CMD_LINK_GET:
		return ftobj_link_decode(msg, &o.link);
	case FATTREE_CMD_CIRCUIT_GET:
		return ftobj_circuit_decode(msg, &o.circuit);
	case FATTREE_CMD_CIRCUIT_ADD:
		return ftobj_circuit_count_decode(msg, &o.count);
	case FATTREE_CMD_LEAF_GET:
		return ftobj_leaf_decode(msg, &o.leaf);
	default:
		return ftobj_fabric_decode(msg, &o.fabric);
	}
}

static void test_malformed(void)
{
	const struct malformed *c;
	struct nl_msg *msg;
	unsigned int i, k;
	int err;

	for (i = 0; i < sizeof(malformed) / sizeof(malformed[0]); i++) {
		c = &malformed[i];
		msg = reply(c->cmd);
		if (c->body)
			c->body(msg);
		for (k = 0; k < 3 && c->put[k].type; k++)
			nla_put(msg, c->put[k].type, c->put[k].len, c->put[k].data);
		err = decode(msg, c->cmd);
		tap_ok(err == -EPROTO && says(c->says) && (!c->says_too || says(c->says_too)),
		       "%s refused: %s", c->what, ftobj_error());
		nlmsg_free(msg);
	}
}

static void test_demand_info(void)
{
	struct nl_msg *msg = reply(FATTREE_CMD_DEMAND_NTF);
	struct ftobj_demand d;
	struct ftobj_info i;
	int err;

	nla_put_string(msg, FATTREE_A_DEMAND_FABRIC, "f1");
	err = ftobj_demand_decode(msg, &d);
	tap_ok(err == -EPROTO && says("cycle") && says("missing"),
	       "demand: no cycle refused: %s", ftobj_error());
	nla_put_u64(msg, FATTREE_A_DEMAND_CYCLE, 300);
	nla_put_flag(msg, FATTREE_A_DEMAND_LAST);
	err = ftobj_demand_decode(msg, &d);
	tap_ok(!err && !strcmp(d.fabric, "f1") && d.cycle == 300 && d.last,
	       "demand: fabric, cycle, last (%d)", err);
	nlmsg_free(msg);

	msg = reply(FATTREE_CMD_INFO_GET);
	err = ftobj_info_decode(msg, &i);
	tap_ok(!err && !i.has && !i.version[0], "info: empty reply is no error (%d)", err);
	nla_put_string(msg, FATTREE_A_INFO_VERSION, "0.1.0");
	nla_put_u32(msg, FATTREE_A_INFO_MAX_LEVELS, FATTREE_MAX_LEVELS);
	err = ftobj_info_decode(msg, &i);
	tap_ok(!err && !strcmp(i.version, "0.1.0") && i.max_levels == FATTREE_MAX_LEVELS,
	       "info: version and limits (%d)", err);
	nlmsg_free(msg);
}

static void test_truncated(void)
{
	struct nl_msg *msg = reply(FATTREE_CMD_LINK_GET);
	struct ftobj_link l;
	int err;

	link_msg_body(msg);
	/* cut the last attribute in half: the message says less than it holds */
	nlmsg_hdr(msg)->nlmsg_len -= 4;
	err = ftobj_link_decode(msg, &l);
	tap_ok(err == -EPROTO && says("trailing"), "a torn message refused: %s",
	       ftobj_error());
	nlmsg_hdr(msg)->nlmsg_len = NLMSG_HDRLEN + 2;
	err = ftobj_link_decode(msg, &l);
	tap_ok(err == -EPROTO && says("headers"), "a message shorter than its headers: %s",
	       ftobj_error());
	nlmsg_free(msg);
}

int main(void)
{
	test_link();
	test_link_set();
	test_circuit();
	test_leaf();
	test_fabric();
	test_demand_info();
	test_truncated();
	test_malformed();
	return tap_done();
}
