// SPDX-License-Identifier: GPL-2.0
/*
 * Fabrics: created and deleted in several shapes with their leaf devices,
 * dumped whole or by name, malformed requests refused with an explanation and no state change,
 * changes refused to unprivileged users, and the delivery-cycle engine
 * under synthetic load: nothing moves until stepped, no link ever carries
 * more than its lanes, a saturated link carries exactly its lanes, a
 * one-cycle message set crosses in one cycle, nothing is lost.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "ft_selftest.h"

static int ifexists(const char *name)
{
	char path[128];

	snprintf(path, sizeof(path), "/sys/class/net/%s", name);
	return access(path, F_OK) == 0;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

FIXTURE(fabric) {
	struct ftnl nl;
	struct ft_spec s;
};

FIXTURE_SETUP(fabric)
{
	ASSERT_EQ(0, ft_open(&self->nl));
	ft_spec_kary(&self->s, "t0", 3, 4);
}

FIXTURE_TEARDOWN(fabric)
{
	ft_close(&self->nl);
}

TEST_F(fabric, ft34_create_and_delete)
{
	struct ft_fabric_info fi;

	ASSERT_EQ(0, ft_fabric_new(&self->nl, &self->s));
	ASSERT_EQ(0, ft_fabric_get(&self->nl, "t0", &fi));
	EXPECT_EQ(64, fi.leaves);
	EXPECT_EQ(3, fi.levels);
	EXPECT_EQ(0, fi.cycle);
	EXPECT_TRUE(ifexists("t0-l0"));
	EXPECT_TRUE(ifexists("t0-l63"));
	EXPECT_FALSE(ifexists("t0-l64"));
	EXPECT_EQ(1, ft_fabric_count(&self->nl));
	ASSERT_EQ(0, ft_fabric_del(&self->nl, "t0"));
	EXPECT_FALSE(ifexists("t0-l0"));
	EXPECT_EQ(0, ft_fabric_count(&self->nl));
	EXPECT_EQ(-ENOENT, ft_fabric_del(&self->nl, "t0"));
}

TEST_F(fabric, binary_tree_with_doubling_profile)
{
	struct ft_fabric_info fi;

	/* Leiserson's binary fat-tree of 16 leaves, capacities doubling. */
	ft_spec_binary(&self->s, "t0", 4);
	ASSERT_EQ(0, ft_fabric_new(&self->nl, &self->s));
	ASSERT_EQ(0, ft_fabric_get(&self->nl, "t0", &fi));
	EXPECT_EQ(16, fi.leaves);
	EXPECT_EQ(1, fi.lanes[0]);
	EXPECT_EQ(2, fi.lanes[1]);
	EXPECT_EQ(4, fi.lanes[2]);
	EXPECT_EQ(8, fi.lanes[3]);
}

TEST_F(fabric, large_1024_leaves)
{
	struct ft_fabric_info fi;
	double t0, t1, t2;

	ft_spec_kary(&self->s, "t0", 2, 32);
	t0 = now_s();
	ASSERT_EQ(0, ft_fabric_new(&self->nl, &self->s));
	t1 = now_s();
	ASSERT_EQ(0, ft_fabric_get(&self->nl, "t0", &fi));
	EXPECT_EQ(1024, fi.leaves);
	EXPECT_TRUE(ifexists("t0-l1023"));
	ASSERT_EQ(0, ft_fabric_del(&self->nl, "t0"));
	t2 = now_s();
	TH_LOG("1024 leaves: created in %.3f s, deleted in %.3f s", t1 - t0, t2 - t1);
}

/* Inject @n rows in one request, past net.core.wmem_max as root may. */
static int inject_big(struct ftnl *nl, const char *name,
		      const struct fattree_inject_row *rows, uint32_t n)
{
	struct nl_msg *msg = ft_batch_big(nl, FATTREE_CMD_FABRIC_INJECT, FATTREE_A_FABRIC_NAME,
					  name, FATTREE_A_FABRIC_INJECT, rows, n, sizeof(*rows));

	return msg ? ftnl_transact(nl, msg, NULL, NULL) : -ENOMEM;
}

/*
 * The synthetic share of the pair pool is counted in pairs, exactly: rows
 * of pairs already waiting add messages, not pairs. 1024 leaves: a share
 * of 65536 pairs, fewer than the 1048576 there are.
 */
TEST_F(fabric, inject_counts_new_pairs)
{
	const uint32_t n = 65536;
	struct fattree_inject_row *rows = calloc(n, sizeof(*rows));
	struct fattree_inject_row more[2] = { { 0, 0, 1 }, { 0, 64, 1 } };
	struct ft_fabric_info fi;
	uint32_t i;

	ASSERT_NE(NULL, rows);
	/* Every source to destinations 0..63: 65536 pairs. */
	for (i = 0; i < n; i++)
		rows[i] = (struct fattree_inject_row){ i % 1024, i / 1024, 1 };
	ft_spec_kary(&self->s, "lim", 2, 32);
	ASSERT_EQ(0, ft_fabric_new(&self->nl, &self->s));
	EXPECT_EQ(0, inject_big(&self->nl, "lim", rows, n));
	/* The same pairs again: all waiting already, so all admitted. */
	EXPECT_EQ(0, inject_big(&self->nl, "lim", rows, n));
	/* One more pair does not fit; the batch is taken back whole. */
	EXPECT_EQ(-ENOSPC, ft_fabric_inject(&self->nl, "lim", more, 2));
	EXPECT_NE(NULL, strstr(self->nl.errmsg, "synthetic pairs")) {
		TH_LOG("extack: \"%s\"", self->nl.errmsg);
	}
	ASSERT_EQ(0, ft_fabric_get(&self->nl, "lim", &fi));
	EXPECT_EQ(2 * n, fi.synth_queued);
	EXPECT_EQ(2 * n, fi.queued);
	/* Its first row alone is of a waiting pair. */
	EXPECT_EQ(0, ft_fabric_inject(&self->nl, "lim", more, 1));
	EXPECT_EQ(0, ft_fabric_del(&self->nl, "lim"));
	free(rows);
}

/*
 * A batch that fits whatever it names goes in 1024 rows at a time, the
 * fabric's lock let go between them: on a running fabric the cycles carry
 * the first rows while the last go in, and every message arrives once.
 */
TEST_F_TIMEOUT(fabric, inject_while_cycling, 180)
{
	const uint32_t n = 65536;
	struct fattree_inject_row *rows = calloc(n, sizeof(*rows));
	struct ft_fabric_info fi = { 0 };
	double t0;
	uint32_t i;

	ASSERT_NE(NULL, rows);
	/* 64 shifts of the 1024 leaves, 2 messages a pair. */
	for (i = 0; i < n; i++)
		rows[i] = (struct fattree_inject_row){ i % 1024, (i % 1024 + 1 + i / 1024) % 1024, 2 };
	ft_spec_kary(&self->s, "run", 2, 32);
	self->s.period_ns = 1000000;
	ASSERT_EQ(0, ft_fabric_new(&self->nl, &self->s));
	ASSERT_EQ(0, inject_big(&self->nl, "run", rows, n));
	ASSERT_EQ(0, ft_fabric_get(&self->nl, "run", &fi));
	TH_LOG("%llu delivered when the request returned, at cycle %llu",
	       (unsigned long long)fi.synth_delivered, (unsigned long long)fi.cycle);
	t0 = now_s();
	do {
		ASSERT_EQ(0, ft_fabric_get(&self->nl, "run", &fi));
		if (fi.synth_delivered == 2ULL * n)
			break;
		usleep(100000);
	} while (now_s() - t0 < 150);
	EXPECT_EQ(2ULL * n, fi.synth_delivered);
	EXPECT_EQ(0, fi.synth_queued);
	EXPECT_EQ(0, fi.queued);
	TH_LOG("%u rows of 2 messages delivered by cycle %llu, in %.1f s", n,
	       (unsigned long long)fi.cycle, now_s() - t0);
	EXPECT_EQ(0, ft_fabric_del(&self->nl, "run"));
	free(rows);
}

TEST_F(fabric, dump_of_missing_fabric_refused)
{
	struct ftobj_link *l = NULL;

	EXPECT_EQ(-ENOENT, ftobj_links(&self->nl, "nosuch", &l));
	EXPECT_EQ(NULL, l);
	EXPECT_NE(NULL, strstr(self->nl.errmsg, "no fabric"));
}

/* A link dump whose fabric is replaced by another of its name after the
 * dump's first message: the rest must not come from the newcomer.
 */
struct recreate {
	struct ft_spec *s;
	int msgs, err;
	unsigned int recreated;
};

static int recreate_once(struct nl_msg *msg, void *arg)
{
	struct recreate *r = arg;
	struct ftnl nl;

	(void)msg;
	if (r->msgs++)
		return 0;
	r->err = ftnl_open(&nl);
	if (!r->err)
		r->err = ft_fabric_del(&nl, r->s->name);
	if (!r->err)
		r->err = ft_fabric_new(&nl, r->s);
	r->recreated = !r->err;
	ftnl_close(&nl);
	return 0;
}

TEST_F(fabric, dump_ends_when_its_fabric_is_recreated)
{
	struct recreate r = { .s = &self->s };
	struct ftobj_link *l = NULL;
	struct nl_msg *msg;
	int n;

	/* FT(3,4): 384 directed links, several parts of a dump. */
	ASSERT_EQ(0, ft_fabric_new(&self->nl, &self->s));
	n = ftobj_links(&self->nl, "t0", &l);
	free(l);
	ASSERT_EQ(384, n);
	msg = ftnl_msg(&self->nl, FATTREE_CMD_LINK_GET, NLM_F_DUMP);
	ASSERT_NE(NULL, msg);
	nla_put_string(msg, FATTREE_A_LINK_FABRIC, "t0");
	EXPECT_EQ(-ENOENT, ftnl_transact(&self->nl, msg, recreate_once, &r));
	EXPECT_EQ(0, r.err);
	EXPECT_TRUE(r.recreated);
	EXPECT_LT(r.msgs, 384);
	EXPECT_NE(NULL, strstr(self->nl.errmsg, "went away during the dump"));
	TH_LOG("%d links dumped before the fabric was replaced; then: %s", r.msgs,
	       self->nl.errmsg);
}

/* A fabric-get dump's reply: its fabric's name, appended to @arg. */
static int dumped_name(struct nl_msg *msg, void *arg)
{
	struct ftobj_fabric f;

	if (ftobj_fabric_decode(msg, &f))
		return -EPROTO;
	strcat(arg, f.name);
	strcat(arg, " ");
	return 0;
}

static int dump_names(struct ftnl *nl, const char *name, char *names)
{
	struct nl_msg *msg = ftnl_msg(nl, FATTREE_CMD_FABRIC_GET, NLM_F_DUMP);

	if (!msg)
		return -ENOMEM;
	names[0] = 0;
	if (name)
		nla_put_string(msg, FATTREE_A_FABRIC_NAME, name);
	return ftnl_transact(nl, msg, dumped_name, names);
}

/* A dump takes every fabric of the namespace, or the one it names. */
TEST_F(fabric, dump_by_name_keeps_that_fabric)
{
	struct ft_spec s1;
	char names[64];

	ft_spec_kary(&s1, "t1", 1, 2);
	ASSERT_EQ(0, ft_fabric_new(&self->nl, &self->s));
	ASSERT_EQ(0, ft_fabric_new(&self->nl, &s1));
	EXPECT_EQ(0, dump_names(&self->nl, NULL, names));
	EXPECT_STREQ("t0 t1 ", names);
	EXPECT_EQ(0, dump_names(&self->nl, "t1", names));
	EXPECT_STREQ("t1 ", names);
	EXPECT_EQ(0, dump_names(&self->nl, "t0", names));
	EXPECT_STREQ("t0 ", names);
	EXPECT_EQ(0, dump_names(&self->nl, "nosuch", names));
	EXPECT_STREQ("", names);
}

TEST_F(fabric, duplicate_name_refused)
{
	ASSERT_EQ(0, ft_fabric_new(&self->nl, &self->s));
	EXPECT_EQ(-EEXIST, ft_fabric_new(&self->nl, &self->s));
	EXPECT_NE(0, strlen(self->nl.errmsg));
	EXPECT_EQ(1, ft_fabric_count(&self->nl));
}

/* Each malformed request is refused, explained, and leaves nothing. */
TEST_F(fabric, malformed_requests_refused)
{
	struct ft_spec s;
	struct nl_msg *msg;

	s = self->s;
	s.m[1] = 1;			/* a switch with one child */
	EXPECT_EQ(-EINVAL, ft_fabric_new(&self->nl, &s));
	EXPECT_NE(0, strlen(self->nl.errmsg));

	s = self->s;
	s.w[2] = 0;			/* a node without parents */
	EXPECT_EQ(-EINVAL, ft_fabric_new(&self->nl, &s));

	s = self->s;
	s.name = "much-too-long";	/* > FATTREE_NAME_LEN - 1 */
	EXPECT_EQ(-EINVAL, ft_fabric_new(&self->nl, &s));
	EXPECT_GT(self->nl.err_offset, 0);

	s = self->s;
	s.period_ns = 5;		/* below 1 us */
	EXPECT_EQ(-ERANGE, ft_fabric_new(&self->nl, &s));
	EXPECT_NE(NULL, strstr(self->nl.errmsg, "period"));

	s = self->s;
	s.path = 9;			/* no such path choice */
	EXPECT_EQ(-ERANGE, ft_fabric_new(&self->nl, &s));
	EXPECT_GT(self->nl.err_offset, 0);

	ft_spec_kary(&s, "t1", 3, 32);	/* 32768 leaves > max_leaves */
	EXPECT_EQ(-E2BIG, ft_fabric_new(&self->nl, &s));
	EXPECT_NE(NULL, strstr(self->nl.errmsg, "max_leaves"));

	/* h says 3, the arrays hold 2 levels. */
	msg = ftnl_msg(&self->nl, FATTREE_CMD_FABRIC_NEW, 0);
	nla_put_string(msg, FATTREE_A_FABRIC_NAME, "t1");
	nla_put_u32(msg, FATTREE_A_FABRIC_LEVELS, 3);
	nla_put(msg, FATTREE_A_FABRIC_DOWN, 8, self->s.m);
	nla_put(msg, FATTREE_A_FABRIC_UP, 12, self->s.w);
	EXPECT_EQ(-EINVAL, ftnl_transact(&self->nl, msg, NULL, NULL));
	EXPECT_NE(NULL, strstr(self->nl.errmsg, "per level"));

	/* A required attribute missing. */
	msg = ftnl_msg(&self->nl, FATTREE_CMD_FABRIC_NEW, 0);
	nla_put_string(msg, FATTREE_A_FABRIC_NAME, "t1");
	EXPECT_EQ(-EINVAL, ftnl_transact(&self->nl, msg, NULL, NULL));

	/* An attribute that does not belong to the command. */
	msg = ftnl_msg(&self->nl, FATTREE_CMD_FABRIC_DEL, 0);
	nla_put_string(msg, FATTREE_A_FABRIC_NAME, "t1");
	nla_put_u32(msg, FATTREE_A_FABRIC_LEVELS, 3);
	EXPECT_EQ(-EINVAL, ftnl_transact(&self->nl, msg, NULL, NULL));

	EXPECT_EQ(0, ft_fabric_count(&self->nl));
	EXPECT_FALSE(ifexists("t1-l0"));
}

/*
 * Fabric t0 made here, then @checks run by a child that becomes @as: t0
 * is still here afterwards, with its leaves, the namespace's only fabric.
 * (The fixture keeps root for its teardown; only the child drops it.)
 */
static void t0_survives(struct __test_metadata *_metadata, struct ftnl *nl,
			struct ft_spec *s, enum ft_child_as as,
			int (*checks)(struct ftnl *nl, void *arg))
{
	ASSERT_EQ(0, ft_fabric_new(nl, s));
	EXPECT_EQ(0, ft_child_run(as, checks, s));
	EXPECT_EQ(1, ft_fabric_count(nl));
	EXPECT_TRUE(ifexists("t0-l63"));
}

/*
 * From a child without CAP_NET_ADMIN in the initial namespace: every
 * change to fabric t0 is refused, reads are answered.
 */
static int changes_refused(struct ftnl *nl, void *arg)
{
	const struct ft_spec *s = arg;
	struct fattree_inject_row row = { 0, 1, 1 };
	struct ft_fabric_info fi;

	if (ft_fabric_new(nl, s) != -EPERM)
		return 1;
	if (ft_fabric_del(nl, "t0") != -EPERM)
		return 2;
	if (ft_fabric_step(nl, "t0", 1) != -EPERM)
		return 3;
	if (ft_fabric_inject(nl, "t0", &row, 1) != -EPERM)
		return 4;
	/* Reads stay open. */
	if (ft_fabric_get(nl, "t0", &fi) || fi.leaves != 64)
		return 5;
	return 0;
}

TEST_F(fabric, changes_refused_to_unprivileged)
{
	t0_survives(_metadata, &self->nl, &self->s, FT_AS_NOBODY, changes_refused);
}

/* Root inside a new user namespace holds CAP_NET_ADMIN only there: no
 * change is allowed, since the family wants it in the initial namespace.
 */
TEST_F(fabric, changes_refused_from_user_namespace)
{
	t0_survives(_metadata, &self->nl, &self->s, FT_AS_USERNS, changes_refused);
}

/* From a network namespace of its own: no fabric t0, and the name is free. */
static int t0_not_here(struct ftnl *nl, void *arg)
{
	const struct ft_spec *s = arg;
	struct ft_fabric_info fi;

	if (ft_fabric_count(nl) != 0)
		return 1;
	if (ft_fabric_get(nl, "t0", &fi) != -ENOENT)
		return 2;
	if (ft_fabric_del(nl, "t0") != -ENOENT)
		return 3;
	if (ft_fabric_new(nl, s) || ft_fabric_count(nl) != 1)
		return 4;
	if (access("/sys/class/net/t0-l0", F_OK))
		return 5;
	/* Leaving the namespace takes this fabric with it. */
	return 0;
}

/* Fabrics belong to a network namespace: another one neither sees nor
 * touches them, and may use the same name for its own.
 */
TEST_F(fabric, fabrics_are_per_network_namespace)
{
	t0_survives(_metadata, &self->nl, &self->s, FT_AS_NETNS, t0_not_here);
}

TEST_F(fabric, manual_fabric_moves_only_when_stepped)
{
	struct fattree_inject_row rows[] = { { 0, 63, 5 }, { 1, 2, 5 } };
	struct ft_fabric_info fi;

	ASSERT_EQ(0, ft_fabric_new(&self->nl, &self->s));
	ASSERT_EQ(0, ft_fabric_inject(&self->nl, "t0", rows, 2));
	usleep(200000);
	ASSERT_EQ(0, ft_fabric_get(&self->nl, "t0", &fi));
	EXPECT_EQ(0, fi.cycle);
	EXPECT_EQ(10, fi.synth_queued);
	EXPECT_EQ(0, fi.delivered);
	ASSERT_EQ(0, ft_fabric_step(&self->nl, "t0", 1));
	ASSERT_EQ(0, ft_fabric_get(&self->nl, "t0", &fi));
	EXPECT_EQ(1, fi.cycle);
	/* Lanes 1: each pair crosses at most one message per cycle. */
	EXPECT_EQ(2, fi.delivered);
	EXPECT_EQ(0, ft_fabric_step(&self->nl, "t0", 10));
	ASSERT_EQ(0, ft_fabric_get(&self->nl, "t0", &fi));
	EXPECT_EQ(10, fi.synth_delivered);
	EXPECT_EQ(0, fi.synth_queued);
	EXPECT_EQ(5, fi.drained_cycle);
}

/* A hot spot from the whole tree: no link ever carries more than its
 * lanes in a cycle, and every message arrives. (Messages that win lanes
 * upstream and lose downstream waste them, as in the papers' model, so
 * the hot link is not full in every cycle.)
 */
TEST_F(fabric, saturation_capped_by_lanes)
{
	struct fattree_inject_row rows[63];
	struct ft_fabric_info fi;
	struct ftobj_link *l;
	uint64_t hot_carried = 0, hot_saturated = 0;
	int n, i;

	self->s.lanes[0] = 2;
	self->s.lanes[1] = 2;
	self->s.lanes[2] = 2;
	ASSERT_EQ(0, ft_fabric_new(&self->nl, &self->s));
	for (i = 0; i < 63; i++)
		rows[i] = (struct fattree_inject_row){ i + 1, 0, 4 };
	ASSERT_EQ(0, ft_fabric_run(&self->nl, "t0", rows, 63, 200, &fi));
	EXPECT_EQ(252, fi.synth_delivered);
	n = ftobj_links(&self->nl, "t0", &l);
	ASSERT_GT(n, 0);
	for (i = 0; i < n; i++) {
		EXPECT_LE(l[i].max_cycle, l[i].lanes);
		EXPECT_LE(l[i].carried, (uint64_t)l[i].lanes * fi.cycle);
		/* Leaf 0's down link: level 1, node 0, port 0. */
		if (l[i].level == 1 && l[i].node == 0 && !l[i].up) {
			hot_carried = l[i].carried;
			hot_saturated = l[i].saturated;
		}
	}
	EXPECT_EQ(252, hot_carried);
	EXPECT_GE(hot_saturated, 1);
	EXPECT_LE(hot_saturated * 2, hot_carried);
	free(l);
}

/* Three leaves under one leaf switch send to a fourth: the destination's
 * down link is the only bottleneck and carries exactly its lanes in every
 * cycle until the set drains.
 */
TEST_F(fabric, saturated_link_carries_exactly_its_lanes)
{
	struct fattree_inject_row rows[] = { { 1, 0, 4 }, { 2, 0, 4 }, { 3, 0, 4 } };
	struct ft_fabric_info fi;
	struct ftobj_link *l;
	int n, i, found = 0;

	self->s.lanes[0] = 2;
	self->s.lanes[1] = 2;
	self->s.lanes[2] = 2;
	ASSERT_EQ(0, ft_fabric_new(&self->nl, &self->s));
	ASSERT_EQ(0, ft_fabric_run(&self->nl, "t0", rows, 3, 20, &fi));
	EXPECT_EQ(12, fi.synth_delivered);
	EXPECT_EQ(6, fi.drained_cycle);
	n = ftobj_links(&self->nl, "t0", &l);
	ASSERT_GT(n, 0);
	for (i = 0; i < n; i++) {
		if (l[i].level == 1 && l[i].node == 0 && !l[i].up) {
			found = 1;
			EXPECT_EQ(12, l[i].carried);
			EXPECT_EQ(6, l[i].saturated);
			EXPECT_EQ(2, l[i].max_cycle);
		}
	}
	EXPECT_TRUE(found);
	free(l);
}

/* On a w = 1 binary tree with doubling capacities every permutation has
 * lambda <= 1: it must cross in exactly one cycle, whatever the policy.
 */
TEST_F(fabric, one_cycle_set_crosses_in_one_cycle)
{
	struct fattree_inject_row rows[64];
	struct ft_fabric_info fi;
	int path, arb, i;

	for (path = FATTREE_PATH_DMODK; path <= FATTREE_PATH_FIRSTFREE; path++) {
		for (arb = 0; arb <= 1; arb++) {
			struct ft_spec s;

			ft_spec_binary(&s, "t1", 6);
			s.path = path;
			s.arbitration = arb;
			s.seed = 7 + path;
			ASSERT_EQ(0, ft_fabric_new(&self->nl, &s));
			for (i = 0; i < 64; i++)	/* bit reversal */
				rows[i] = (struct fattree_inject_row){
					i, ((i & 1) << 5) | ((i & 2) << 3) | ((i & 4) << 1) |
					   ((i & 8) >> 1) | ((i & 16) >> 3) | ((i & 32) >> 5), 1 };
			ASSERT_EQ(0, ft_fabric_run(&self->nl, "t1", rows, 64, 1, &fi));
			EXPECT_EQ(64, fi.synth_delivered) {
				TH_LOG("path %d arbitration %d", path, arb);
			}
			ASSERT_EQ(0, ft_fabric_del(&self->nl, "t1"));
		}
	}
}

/* Random traffic with every policy: whatever is blocked is delivered
 * later, and every message is delivered.
 */
TEST_F(fabric, nothing_lost_under_every_policy)
{
	struct fattree_inject_row rows[200];
	struct ft_fabric_info fi;
	int inj, i;

	srand(5);
	for (i = 0; i < 200; i++)
		rows[i] = (struct fattree_inject_row){ rand() % 64, rand() % 64, 1 + rand() % 5 };
	for (inj = 0; inj <= FATTREE_INJECTION_RANDOM_PRIME; inj++) {
		uint64_t total = 0;

		self->s.injection = inj;
		self->s.path = FATTREE_PATH_RANDOM;
		for (i = 0; i < 200; i++)
			total += rows[i].count;
		ASSERT_EQ(0, ft_fabric_new(&self->nl, &self->s));
		ASSERT_EQ(0, ft_fabric_run(&self->nl, "t0", rows, 200, 5000, &fi));
		EXPECT_EQ(total, fi.synth_delivered) {
			TH_LOG("injection %d: %llu of %llu after %llu cycles", inj,
			       (unsigned long long)fi.synth_delivered,
			       (unsigned long long)total, (unsigned long long)fi.cycle);
		}
		EXPECT_EQ(0, fi.synth_queued);
		ASSERT_EQ(0, ft_fabric_del(&self->nl, "t0"));
	}
}

TEST_F(fabric, timed_fabric_runs_and_refuses_steps)
{
	struct ft_fabric_info fi;

	self->s.period_ns = 1000000;	/* 1 ms */
	ASSERT_EQ(0, ft_fabric_new(&self->nl, &self->s));
	usleep(300000);
	ASSERT_EQ(0, ft_fabric_get(&self->nl, "t0", &fi));
	EXPECT_GT(fi.cycle, 50);
	EXPECT_EQ(-EBUSY, ft_fabric_step(&self->nl, "t0", 1));
	EXPECT_NE(NULL, strstr(self->nl.errmsg, "period"));
}

FT_HARNESS_MAIN
