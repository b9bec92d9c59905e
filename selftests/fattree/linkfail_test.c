// SPDX-License-Identifier: GPL-2.0
/*
 * Link failures over netlink: LINK_SET refuses every malformed request
 * with an extended ack and changes nothing; dumps and the fabric's
 * counters report failed links and why; a link failed by itself and with
 * a switch comes back only when both are restored; dmodk goes around a
 * failed link; pairs without a path wait (counted) and arrive once it is
 * restored; circuits across a failed link are torn down, their pairs are
 * in demand again and new ones across it are refused; STATS_RESET zeroes
 * the counters and nothing else; changes need CAP_NET_ADMIN.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "ft_selftest.h"

/* LS() gives every field a default and lets the caller override some. */
#pragma GCC diagnostic ignored "-Woverride-init"

/* A LINK_SET request: -1 leaves an attribute out. */
struct ls {
	long long id, level, node, port, dir, swl, swn, fail;
	const char *fabric;
};

#define LS(...) ((struct ls){ .id = -1, .level = -1, .node = -1, .port = -1, .dir = -1, \
			      .swl = -1, .swn = -1, .fail = 1, .fabric = "lf", __VA_ARGS__ })

/* A LINK_SET reply: the links changed, circuits cut, links now failed. */
static int ls_reply(struct nl_msg *msg, void *arg)
{
	return ftobj_link_set_decode(msg, arg);
}

static int link_set(struct ftnl *nl, struct ls a, struct ftobj_link_set *r)
{
	/* The u32 attributes, in the order they are put. */
	const struct ft_u32_attr u32s[] = {
		{ FATTREE_A_LINK_ID, a.id },
		{ FATTREE_A_LINK_LEVEL, a.level },
		{ FATTREE_A_LINK_NODE, a.node },
		{ FATTREE_A_LINK_PORT, a.port },
		{ FATTREE_A_LINK_DIRECTION, a.dir },
		{ FATTREE_A_LINK_SWITCH_LEVEL, a.swl },
		{ FATTREE_A_LINK_SWITCH_NODE, a.swn },
	};
	struct nl_msg *msg = ftnl_msg(nl, FATTREE_CMD_LINK_SET, 0);
	struct ftobj_link_set dummy;

	if (!msg)
		return -ENOMEM;
	if (!r)
		r = &dummy;
	memset(r, 0, sizeof(*r));
	if (a.fabric)
		nla_put_string(msg, FATTREE_A_LINK_FABRIC, a.fabric);
	ft_put_u32s(msg, u32s, ARRAY_SIZE(u32s));
	if (a.fail >= 0)
		nla_put_u8(msg, FATTREE_A_LINK_FAIL, a.fail);
	return ftnl_transact(nl, msg, ls_reply, r);
}

/* Directed link id in FT(2,4): level 1 has 16 links, level 2 16 more. */
static uint32_t lid(uint32_t level, uint32_t node, uint32_t port, int down)
{
	uint32_t phys = level == 1 ? node : 16 + node * 4 + port;

	return 2 * phys + !!down;
}

static int stats_reset(struct ftnl *nl, const char *name)
{
	struct nl_msg *msg = ftnl_msg(nl, FATTREE_CMD_STATS_RESET, 0);

	if (!msg)
		return -ENOMEM;
	nla_put_string(msg, FATTREE_A_FABRIC_NAME, name);
	return ftnl_transact(nl, msg, NULL, NULL);
}

/* Failed links of the dump, with their bits in @bits (64 entries). */
static int failed_links(struct ftnl *nl, uint8_t *bits, uint32_t *lanes)
{
	struct ftobj_link *l = NULL;
	int n, i, nf = 0;

	n = ftobj_links(nl, "lf", &l);
	if (n < 0)
		return n;
	for (i = 0; i < n && l[i].id < 64; i++) {
		bits[l[i].id] = l[i].failed;
		if (lanes)
			lanes[l[i].id] = l[i].lanes;
		nf += !!l[i].failed;
	}
	free(l);
	return nf;
}

FIXTURE(linkfail) {
	struct ftnl nl;
	struct ft_spec s;
};

FIXTURE_SETUP(linkfail)
{
	ASSERT_EQ(0, ft_open(&self->nl));
	ft_fabric_del(&self->nl, "lf");
	ft_spec_kary(&self->s, "lf", 2, 4);
	self->s.path = FATTREE_PATH_DMODK;
	self->s.arbitration = FATTREE_ARBITRATION_FIXED;
}

FIXTURE_TEARDOWN(linkfail)
{
	ft_close(&self->nl);
}

TEST_F(linkfail, malformed_requests_refused)
{
	struct ftnl *nl = &self->nl;
	struct ft_fabric_info fi;
	uint8_t bits[64] = { 0 };
	struct nl_msg *msg;

	ASSERT_EQ(0, ft_fabric_new(nl, &self->s));
	EXPECT_EQ(-EINVAL, link_set(nl, LS(.id = 0, .fail = -1), NULL));
	EXPECT_EQ(-EINVAL, link_set(nl, LS(), NULL));
	EXPECT_NE(NULL, strstr(nl->errmsg, "name one link"));
	EXPECT_EQ(-EINVAL, link_set(nl, LS(.id = 3, .swl = 2, .swn = 0), NULL));
	EXPECT_NE(NULL, strstr(nl->errmsg, "name one link"));
	EXPECT_EQ(-EINVAL, link_set(nl, LS(.id = 3, .dir = 0), NULL));
	EXPECT_EQ(-ERANGE, link_set(nl, LS(.id = 64), NULL));
	EXPECT_NE(NULL, strstr(nl->errmsg, "no directed link"));
	EXPECT_EQ(-ERANGE, link_set(nl, LS(.level = 3, .node = 0, .port = 0), NULL));
	EXPECT_NE(NULL, strstr(nl->errmsg, "levels"));
	EXPECT_GT(0, link_set(nl, LS(.level = 0, .node = 0, .port = 0), NULL));
	EXPECT_NE(0, nl->errmsg[0]);
	EXPECT_EQ(-ERANGE, link_set(nl, LS(.level = 2, .node = 4, .port = 0), NULL));
	EXPECT_NE(NULL, strstr(nl->errmsg, "no node"));
	EXPECT_EQ(-ERANGE, link_set(nl, LS(.level = 2, .node = 0, .port = 4), NULL));
	EXPECT_NE(NULL, strstr(nl->errmsg, "up-ports"));
	EXPECT_EQ(-ERANGE, link_set(nl, LS(.level = 1, .node = 0, .port = 1), NULL));
	EXPECT_EQ(-EINVAL, link_set(nl, LS(.level = 2, .node = 0), NULL));
	EXPECT_EQ(-ERANGE, link_set(nl, LS(.swl = 2, .swn = 4), NULL));
	EXPECT_NE(NULL, strstr(nl->errmsg, "no switch"));
	EXPECT_EQ(-ERANGE, link_set(nl, LS(.swl = 3, .swn = 0), NULL));
	EXPECT_EQ(-EINVAL, link_set(nl, LS(.swl = 2), NULL));
	EXPECT_GT(0, link_set(nl, LS(.id = 0, .fail = 2), NULL));
	EXPECT_NE(0, nl->errmsg[0]);
	EXPECT_GT(0, link_set(nl, LS(.id = 0, .dir = 2), NULL));
	EXPECT_EQ(-ENOENT, link_set(nl, LS(.id = 0, .fabric = "nosuch"), NULL));
	EXPECT_NE(NULL, strstr(nl->errmsg, "no fabric"));
	/* An attribute that does not belong to LINK_SET. */
	msg = ftnl_msg(nl, FATTREE_CMD_LINK_SET, 0);
	ASSERT_NE(NULL, msg);
	nla_put_string(msg, FATTREE_A_LINK_FABRIC, "lf");
	nla_put_u32(msg, FATTREE_A_LINK_ID, 0);
	nla_put_u8(msg, FATTREE_A_LINK_FAIL, 1);
	nla_put_u64(msg, FATTREE_A_LINK_CARRIED, 5);
	EXPECT_EQ(-EINVAL, ftnl_transact(nl, msg, NULL, NULL));
	/* Failed is the dumps' reasons, not a request's fail. */
	msg = ftnl_msg(nl, FATTREE_CMD_LINK_SET, 0);
	ASSERT_NE(NULL, msg);
	nla_put_string(msg, FATTREE_A_LINK_FABRIC, "lf");
	nla_put_u32(msg, FATTREE_A_LINK_ID, 0);
	nla_put_u8(msg, FATTREE_A_LINK_FAILED, FATTREE_LINK_FAIL_SELF);
	EXPECT_EQ(-EINVAL, ftnl_transact(nl, msg, NULL, NULL));
	EXPECT_NE(0, nl->errmsg[0]);
	/* Nothing changed. */
	EXPECT_EQ(0, failed_links(nl, bits, NULL));
	ASSERT_EQ(0, ft_fabric_get(nl, "lf", &fi));
	EXPECT_EQ(0, fi.failed_links);
	EXPECT_EQ(-ENOENT, stats_reset(nl, "nosuch"));
}

TEST_F(linkfail, dumps_report_failures_and_reasons)
{
	struct ftnl *nl = &self->nl;
	struct ft_fabric_info fi;
	uint8_t bits[64];
	uint32_t lanes[64], d;
	struct ftobj_link_set r;

	ASSERT_EQ(0, ft_fabric_new(nl, &self->s));
	ASSERT_EQ(0, link_set(nl, LS(.level = 2, .node = 1, .port = 2), &r));
	EXPECT_EQ(2, r.changed);
	EXPECT_EQ(2, r.failed_links);
	EXPECT_EQ(0, r.circuits_cut);
	EXPECT_EQ(2, failed_links(nl, bits, lanes));
	EXPECT_EQ(FATTREE_LINK_FAIL_SELF, bits[lid(2, 1, 2, 0)]);
	EXPECT_EQ(FATTREE_LINK_FAIL_SELF, bits[lid(2, 1, 2, 1)]);
	EXPECT_EQ(0, lanes[lid(2, 1, 2, 0)]);
	EXPECT_EQ(1, lanes[lid(2, 1, 3, 0)]);
	ASSERT_EQ(0, ft_fabric_get(nl, "lf", &fi));
	EXPECT_EQ(2, fi.failed_links);
	/* Again: nothing changes. One direction by id. */
	ASSERT_EQ(0, link_set(nl, LS(.level = 2, .node = 1, .port = 2), &r));
	EXPECT_EQ(0, r.changed);
	ASSERT_EQ(0, link_set(nl, LS(.level = 2, .node = 0, .port = 0, .dir = 0), &r));
	EXPECT_EQ(1, r.changed);
	EXPECT_EQ(3, r.failed_links);
	ASSERT_EQ(0, link_set(nl, LS(.id = lid(2, 0, 0, 0), .fail = 0), &r));
	EXPECT_EQ(1, r.changed);
	EXPECT_EQ(2, r.failed_links);

	/* Top switch 1: the links of its 4 children through their port 1. */
	ASSERT_EQ(0, link_set(nl, LS(.swl = 2, .swn = 1), &r));
	EXPECT_EQ(8, r.changed);
	EXPECT_EQ(10, failed_links(nl, bits, NULL));
	for (d = 0; d < 4; d++) {
		EXPECT_EQ(FATTREE_LINK_FAIL_UPPER, bits[lid(2, d, 1, 0)]);
		EXPECT_EQ(FATTREE_LINK_FAIL_UPPER, bits[lid(2, d, 1, 1)]);
	}
	/* A link of it failed by itself too stays failed with the switch back. */
	ASSERT_EQ(0, link_set(nl, LS(.level = 2, .node = 2, .port = 1), &r));
	EXPECT_EQ(0, r.changed);
	EXPECT_EQ(0, failed_links(nl, bits, NULL) - 10);
	EXPECT_EQ(FATTREE_LINK_FAIL_SELF | FATTREE_LINK_FAIL_UPPER, bits[lid(2, 2, 1, 0)]);
	ASSERT_EQ(0, link_set(nl, LS(.swl = 2, .swn = 1, .fail = 0), &r));
	EXPECT_EQ(6, r.changed);
	EXPECT_EQ(4, r.failed_links);
	EXPECT_EQ(4, failed_links(nl, bits, NULL));
	EXPECT_EQ(FATTREE_LINK_FAIL_SELF, bits[lid(2, 2, 1, 1)]);
	ASSERT_EQ(0, link_set(nl, LS(.level = 2, .node = 2, .port = 1, .fail = 0), &r));
	EXPECT_EQ(2, r.changed);

	/* Leaf switch 0: its 4 leaves' links below, its 4 up links above. */
	ASSERT_EQ(0, link_set(nl, LS(.swl = 1, .swn = 0), &r));
	EXPECT_EQ(16, r.changed);
	EXPECT_EQ(18, failed_links(nl, bits, NULL));
	EXPECT_EQ(FATTREE_LINK_FAIL_UPPER, bits[lid(1, 3, 0, 1)]);
	EXPECT_EQ(FATTREE_LINK_FAIL_LOWER, bits[lid(2, 0, 3, 0)]);
	ASSERT_EQ(0, link_set(nl, LS(.swl = 1, .swn = 0, .fail = 0), &r));
	ASSERT_EQ(0, link_set(nl, LS(.level = 2, .node = 1, .port = 2, .fail = 0), &r));
	EXPECT_EQ(0, r.failed_links);
	EXPECT_EQ(0, failed_links(nl, bits, lanes));
	for (d = 0; d < 64; d++)
		EXPECT_EQ(1, lanes[d]);
}

TEST_F(linkfail, dmodk_goes_around_a_failed_link)
{
	struct fattree_inject_row rows[] = { { 1, 14, 20 }, { 2, 6, 20 } };
	struct ftnl *nl = &self->nl;
	struct ftobj_link *l = NULL;
	struct ft_fabric_info fi;
	uint64_t around = 0;
	int n, i;

	ASSERT_EQ(0, ft_fabric_new(nl, &self->s));
	/* Both pairs' dmodk port at level 2 is 2, from leaf switch 0. */
	ASSERT_EQ(0, link_set(nl, LS(.level = 2, .node = 0, .port = 2), NULL));
	ASSERT_EQ(0, ft_fabric_run(nl, "lf", rows, 2, 60, &fi));
	EXPECT_EQ(40, fi.synth_delivered);
	EXPECT_EQ(0, fi.failure_held);
	n = ftobj_links(nl, "lf", &l);
	ASSERT_EQ(64, n);
	for (i = 0; i < n; i++) {
		if (l[i].id == lid(2, 0, 2, 0) || l[i].id == lid(2, 0, 2, 1)) {
			EXPECT_EQ(0, l[i].carried);
		} else if (l[i].level == 2 && l[i].node == 0 && l[i].up) {
			around += l[i].carried;
		}
	}
	EXPECT_EQ(40, around);
	free(l);
}

TEST_F(linkfail, pairs_without_a_path_wait_then_arrive)
{
	struct fattree_inject_row rows[] = { { 0, 5, 10 }, { 5, 0, 10 }, { 1, 5, 10 } };
	struct ftnl *nl = &self->nl;
	struct fattree_demand *dm = NULL;
	struct ft_fabric_info fi;
	int n, i, seen = 0;

	ASSERT_EQ(0, ft_fabric_new(nl, &self->s));
	/* Leaf 0's only link, both ways. */
	ASSERT_EQ(0, link_set(nl, LS(.level = 1, .node = 0, .port = 0), NULL));
	ASSERT_EQ(0, ft_fabric_run(nl, "lf", rows, 3, 30, &fi));
	EXPECT_EQ(10, fi.synth_delivered);
	EXPECT_EQ(20, fi.synth_queued);
	EXPECT_EQ(60, fi.failure_held);	/* one offer each, 30 cycles */
	n = ft_demand(nl, "lf", &dm);
	for (i = 0; i < n; i++)
		seen += dm[i].backlog == 10 && (dm[i].src == 0 || dm[i].dst == 0);
	EXPECT_EQ(2, seen);
	free(dm);
	ASSERT_EQ(0, link_set(nl, LS(.level = 1, .node = 0, .port = 0, .fail = 0), NULL));
	ASSERT_EQ(0, ft_fabric_step(nl, "lf", 30));
	ASSERT_EQ(0, ft_fabric_get(nl, "lf", &fi));
	EXPECT_EQ(30, fi.synth_delivered);
	EXPECT_EQ(0, fi.synth_queued);
}

TEST_F(linkfail, circuits_across_a_failure_are_torn_down)
{
	struct fattree_circuit c[3] = {
		{ .src = 0, .dst = 13, .lanes = 1, .port = { 0, 1 } },
		{ .src = 1, .dst = 14, .lanes = 1, .port = { 0, 2 } },
		{ .src = 4, .dst = 9, .lanes = 1, .port = { 0, 1 } },
	};
	struct fattree_inject_row row = { 0, 13, 3 };
	struct ftnl *nl = &self->nl;
	struct ftobj_circuit *ci = NULL;
	struct fattree_demand *dm = NULL;
	struct ft_fabric_info fi;
	struct ftobj_link_set r;
	int n, i, in_demand = 0;

	self->s.path = FATTREE_PATH_CIRCUIT;
	ASSERT_EQ(0, ft_fabric_new(nl, &self->s));
	ASSERT_EQ(0, ft_circuit_add(nl, "lf", c, 3, NULL, NULL));
	ASSERT_EQ(0, link_set(nl, LS(.level = 2, .node = 0, .port = 1), &r));
	EXPECT_EQ(1, r.circuits_cut);
	n = ftobj_circuits(nl, "lf", &ci);
	ASSERT_EQ(2, n);
	for (i = 0; i < n; i++)
		EXPECT_NE(0, ci[i].src);
	free(ci);
	ASSERT_EQ(0, ft_fabric_get(nl, "lf", &fi));
	EXPECT_EQ(1, fi.circuits_cut);
	EXPECT_EQ(2, fi.circuits);
	/* Its pair is in demand again once it has messages. */
	ASSERT_EQ(0, ft_fabric_inject(nl, "lf", &row, 1));
	n = ft_demand(nl, "lf", &dm);
	for (i = 0; i < n; i++)
		in_demand += dm[i].src == 0 && dm[i].dst == 13 && !dm[i].circuit_lanes;
	EXPECT_EQ(1, in_demand);
	free(dm);
	/* Not across the failed link; around it, yes. */
	EXPECT_EQ(-ENOSPC, ft_circuit_add(nl, "lf", c, 1, NULL, NULL));
	EXPECT_NE(NULL, strstr(nl->errmsg, "crosses a failed link"));
	c[0].port[1] = 0;
	ASSERT_EQ(0, ft_circuit_add(nl, "lf", c, 1, NULL, NULL));
	ASSERT_EQ(0, ft_fabric_step(nl, "lf", 5));
	ASSERT_EQ(0, ft_fabric_get(nl, "lf", &fi));
	EXPECT_EQ(3, fi.synth_delivered);
	/* A whole top switch: the circuit through port 2 goes. */
	ASSERT_EQ(0, link_set(nl, LS(.swl = 2, .swn = 2), &r));
	EXPECT_EQ(1, r.circuits_cut);
	ASSERT_EQ(0, ft_fabric_get(nl, "lf", &fi));
	EXPECT_EQ(2, fi.circuits_cut);
	EXPECT_EQ(2, fi.circuits);
}

TEST_F(linkfail, stats_reset_zeroes_counters_only)
{
	struct fattree_inject_row row = { 0, 15, 10 };
	struct ftnl *nl = &self->nl;
	struct ftobj_link *l = NULL;
	struct ft_fabric_info fi;
	uint64_t carried = 0;
	int n, i;

	ASSERT_EQ(0, ft_fabric_new(nl, &self->s));
	ASSERT_EQ(0, ft_fabric_inject(nl, "lf", &row, 1));
	ASSERT_EQ(0, ft_fabric_step(nl, "lf", 4));
	ASSERT_EQ(0, stats_reset(nl, "lf"));
	ASSERT_EQ(0, ft_fabric_get(nl, "lf", &fi));
	EXPECT_EQ(0, fi.delivered);
	EXPECT_EQ(0, fi.offered);
	EXPECT_EQ(0, fi.synth_delivered);
	EXPECT_EQ(6, fi.synth_queued);
	EXPECT_EQ(6, fi.queued);
	EXPECT_EQ(4, fi.cycle);
	n = ftobj_links(nl, "lf", &l);
	for (i = 0; i < n; i++)
		carried += l[i].carried + l[i].saturated + l[i].blocked + l[i].max_cycle;
	free(l);
	EXPECT_EQ(0, carried);
	ASSERT_EQ(0, ft_fabric_step(nl, "lf", 10));
	ASSERT_EQ(0, ft_fabric_get(nl, "lf", &fi));
	EXPECT_EQ(6, fi.synth_delivered);
	EXPECT_EQ(0, fi.synth_queued);
}

/* As nobody: every change refused, the dump still answered. */
static int changes_refused(struct ftnl *nl, void *arg)
{
	uint8_t bits[64];

	(void)arg;
	if (link_set(nl, LS(.id = 0), NULL) != -EPERM)
		return 1;
	if (link_set(nl, LS(.swl = 1, .swn = 0), NULL) != -EPERM)
		return 2;
	if (stats_reset(nl, "lf") != -EPERM)
		return 3;
	if (failed_links(nl, bits, NULL) != 0)
		return 4;
	return 0;
}

TEST_F(linkfail, changes_refused_to_unprivileged)
{
	ASSERT_EQ(0, ft_fabric_new(&self->nl, &self->s));
	EXPECT_EQ(0, ft_child_run(FT_AS_NOBODY, changes_refused, NULL));
}

FT_HARNESS_MAIN
