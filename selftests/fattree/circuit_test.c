// SPDX-License-Identifier: GPL-2.0
/*
 * Circuits and demand: on a circuit fabric traffic waits, announced as
 * demand with a growing age, until a circuit carries it; batches are
 * admitted all or nothing (a capacity-exact one fits, one lane more is
 * refused with nothing changed and the entry named); a whole 4096-leaf
 * permutation fits one transaction; leases end on time; after any adds
 * and deletes every link's reserved lanes are its circuits' lanes and
 * never more than it has (recomputed from the dumps with the engine
 * core's own topology code); ARP and ping work on a circuit fabric.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <netlink/genl/ctrl.h>

#include "kselftest_harness.h"
#include "ft_selftest.h"
#include "ft_reserve.h"
#include "ft_topo.h"

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* The core's topology for FT(levels, k), to recompute paths. */
static void kary_topo(struct ft_topo *t, uint32_t levels, uint32_t k, uint32_t lanes)
{
	u32 m[FT_MAX_LEVELS], w[FT_MAX_LEVELS], c[FT_MAX_LEVELS];
	uint32_t i;

	for (i = 0; i < levels; i++) {
		m[i] = k;
		w[i] = i ? k : 1;
		c[i] = lanes;
	}
	ft_topo_init(t, levels, m, w, c);
}

/* A circuit with destination-mod-k ports: P_i = digit i - 1 of dst. */
static struct fattree_circuit dmodk_circuit(const struct ft_topo *t, uint32_t s, uint32_t d,
					    uint32_t lanes)
{
	struct fattree_circuit c = { .src = s, .dst = d, .lanes = lanes };
	uint32_t i;

	for (i = 1; i <= t->h; i++)
		c.port[i - 1] = ft_topo_dmodk_port(t, d, i);
	return c;
}

FIXTURE(circuit) {
	struct ftnl nl;
	struct ft_spec s;
	struct ft_topo t;
};

FIXTURE_SETUP(circuit)
{
	ASSERT_EQ(0, ft_open(&self->nl));
	ft_spec_kary(&self->s, "c0", 2, 4);
	self->s.path = FATTREE_PATH_CIRCUIT;
	kary_topo(&self->t, 2, 4, 1);
}

FIXTURE_TEARDOWN(circuit)
{
	system("ip netns del ctA 2>/dev/null; ip netns del ctB 2>/dev/null");
	ft_close(&self->nl);
}

TEST_F(circuit, waits_as_demand_then_flows)
{
	struct fattree_inject_row row = { 0, 13, 6 };
	struct fattree_circuit c = dmodk_circuit(&self->t, 0, 13, 2);
	struct ft_fabric_info fi;
	struct fattree_demand *d = NULL;
	int n;

	self->s.lanes[0] = 2;
	self->s.lanes[1] = 2;
	ASSERT_EQ(0, ft_fabric_new(&self->nl, &self->s));
	ASSERT_EQ(0, ft_fabric_inject(&self->nl, "c0", &row, 1));
	ASSERT_EQ(0, ft_fabric_step(&self->nl, "c0", 3));
	/* Each pair once in the demand, whatever its flows. */
	n = ft_demand(&self->nl, "c0", &d);
	ASSERT_EQ(1, n);
	EXPECT_EQ(0, d[0].src);
	EXPECT_EQ(13, d[0].dst);
	EXPECT_EQ(6, d[0].backlog);
	EXPECT_EQ(0, d[0].circuit_lanes);
	EXPECT_EQ(3, d[0].age);
	free(d);
	ASSERT_EQ(0, ft_fabric_step(&self->nl, "c0", 4));
	ASSERT_EQ(1, ft_demand(&self->nl, "c0", &d));
	EXPECT_EQ(7, d[0].age);
	free(d);
	ASSERT_EQ(0, ft_fabric_get(&self->nl, "c0", &fi));
	EXPECT_EQ(0, fi.delivered);

	/* A 2-lane circuit: two messages a cycle, so three cycles. */
	ASSERT_EQ(0, ft_circuit_add(&self->nl, "c0", &c, 1, NULL, NULL));
	ASSERT_EQ(1, ft_demand(&self->nl, "c0", &d));	/* 6 > 2 lanes */
	EXPECT_EQ(2, d[0].circuit_lanes);
	free(d);
	ASSERT_EQ(0, ft_fabric_step(&self->nl, "c0", 3));
	ASSERT_EQ(0, ft_fabric_get(&self->nl, "c0", &fi));
	EXPECT_EQ(6, fi.synth_delivered);
	EXPECT_EQ(10, fi.drained_cycle);
	EXPECT_EQ(0, ft_demand(&self->nl, "c0", &d));
	free(d);
}

TEST_F(circuit, capacity_exact_batch_and_one_lane_more)
{
	struct fattree_circuit c[16];
	struct ftobj_link *l = NULL;
	int i, n, bad, full = 0;

	ASSERT_EQ(0, ft_fabric_new(&self->nl, &self->s));
	/* Shift by 4 with dmodk ports uses every link it touches once. */
	for (i = 0; i < 16; i++)
		c[i] = dmodk_circuit(&self->t, i, (i + 4) % 16, 1);
	c[7].lanes = 2;
	EXPECT_EQ(-ENOSPC, ft_circuit_add(&self->nl, "c0", c, 16, &bad, NULL));
	EXPECT_EQ(7, bad);
	EXPECT_NE(0, strlen(self->nl.errmsg));
	/* Nothing changed. */
	n = ftobj_links(&self->nl, "c0", &l);
	ASSERT_GT(n, 0);
	for (i = 0; i < n; i++)
		EXPECT_EQ(0, l[i].reserved);
	free(l);

	c[7].lanes = 1;
	ASSERT_EQ(0, ft_circuit_add(&self->nl, "c0", c, 16, &bad, NULL));
	n = ftobj_links(&self->nl, "c0", &l);
	for (i = 0; i < n; i++)
		full += l[i].reserved == l[i].lanes && l[i].lanes;
	free(l);
	/* 16 up and 16 down links at level 1, 16 and 16 at level 2. */
	EXPECT_EQ(64, full);
	EXPECT_EQ(0, ft_check_reservations(&self->nl, "c0", &self->t));
}

TEST_F(circuit, bad_entries_refused_and_named)
{
	struct fattree_circuit c[3];
	int bad;

	ASSERT_EQ(0, ft_fabric_new(&self->nl, &self->s));
	c[0] = dmodk_circuit(&self->t, 0, 5, 1);
	c[1] = dmodk_circuit(&self->t, 1, 99, 1);	/* no leaf 99 */
	c[2] = dmodk_circuit(&self->t, 2, 6, 1);
	EXPECT_EQ(-EINVAL, ft_circuit_add(&self->nl, "c0", c, 3, &bad, NULL));
	EXPECT_EQ(1, bad);
	c[1] = dmodk_circuit(&self->t, 1, 9, 1);
	c[1].port[1] = 4;				/* w_2 = 4 */
	EXPECT_EQ(-EINVAL, ft_circuit_add(&self->nl, "c0", c, 3, &bad, NULL));
	EXPECT_EQ(1, bad);
	c[1] = c[0];					/* the same pair twice */
	EXPECT_EQ(-EEXIST, ft_circuit_add(&self->nl, "c0", c, 3, &bad, NULL));
	EXPECT_EQ(1, bad);
	c[1] = dmodk_circuit(&self->t, 4, 4, 1);	/* a leaf to itself */
	EXPECT_EQ(-EINVAL, ft_circuit_add(&self->nl, "c0", c, 3, &bad, NULL));
	EXPECT_EQ(1, bad);
	EXPECT_EQ(0, ft_check_reservations(&self->nl, "c0", &self->t));
}

TEST_F(circuit, leases_end_on_time)
{
	struct fattree_circuit c = dmodk_circuit(&self->t, 3, 12, 1);
	struct ftobj_circuit *ci = NULL;

	c.lease = 5;
	ASSERT_EQ(0, ft_fabric_new(&self->nl, &self->s));
	ASSERT_EQ(0, ft_fabric_step(&self->nl, "c0", 2));
	ASSERT_EQ(0, ft_circuit_add(&self->nl, "c0", &c, 1, NULL, NULL));
	ASSERT_EQ(1, ftobj_circuits(&self->nl, "c0", &ci));
	EXPECT_EQ(2, ci[0].created);
	EXPECT_EQ(7, ci[0].expires);
	free(ci);
	ASSERT_EQ(0, ft_fabric_step(&self->nl, "c0", 4));	/* cycle 6 */
	EXPECT_EQ(1, ftobj_circuits(&self->nl, "c0", &ci));
	free(ci);
	ASSERT_EQ(0, ft_fabric_step(&self->nl, "c0", 1));	/* cycle 7: its last */
	EXPECT_EQ(0, ftobj_circuits(&self->nl, "c0", &ci));
	free(ci);
	EXPECT_EQ(0, ft_check_reservations(&self->nl, "c0", &self->t));
}

TEST_F(circuit, reservations_consistent_after_random_changes)
{
	struct fattree_circuit c;
	struct fattree_pair p;
	int i, added = 0, refused = 0;

	self->s.lanes[0] = 2;
	self->s.lanes[1] = 2;
	kary_topo(&self->t, 2, 4, 2);
	ASSERT_EQ(0, ft_fabric_new(&self->nl, &self->s));
	srand(11);
	for (i = 0; i < 400; i++) {
		uint32_t s = rand() % 16, d = rand() % 16;

		if (rand() % 3) {
			c = dmodk_circuit(&self->t, s, d, 1 + rand() % 2);
			c.port[1] = rand() % 4;
			if (ft_circuit_add(&self->nl, "c0", &c, 1, NULL, NULL))
				refused++;
			else
				added++;
		} else {
			p = (struct fattree_pair){ s, d };
			ft_circuit_del(&self->nl, "c0", &p, 1);
		}
		if (i % 50 == 49)
			ASSERT_EQ(0, ft_check_reservations(&self->nl, "c0", &self->t));
	}
	TH_LOG("%d admitted, %d refused", added, refused);
	EXPECT_GT(added, 20);
	EXPECT_GT(refused, 20);
}

TEST_F_TIMEOUT(circuit, whole_4096_permutation_in_one_batch, 120)
{
	struct fattree_circuit *c = calloc(4096, sizeof(*c));
	struct ftobj_circuit *ci = NULL;
	struct ft_topo t;
	size_t bytes = 0;
	double t0, t1;
	int i, bad;

	ft_spec_kary(&self->s, "c0", 3, 16);
	self->s.path = FATTREE_PATH_CIRCUIT;
	kary_topo(&t, 3, 16, 1);
	ASSERT_EQ(0, ft_fabric_new(&self->nl, &self->s));
	/* A shift with destination-mod-k ports is free of conflicts. */
	for (i = 0; i < 4096; i++)
		c[i] = dmodk_circuit(&t, i, (i + 1000) % 4096, 1);
	t0 = now_s();
	ASSERT_EQ(0, ft_circuit_add(&self->nl, "c0", c, 4096, &bad, &bytes));
	t1 = now_s();
	TH_LOG("4096 circuits admitted in one request of %zu bytes in %.1f ms",
	       bytes, (t1 - t0) * 1e3);
	EXPECT_EQ(4096, ftobj_circuits(&self->nl, "c0", &ci));
	free(ci);
	EXPECT_EQ(0, ft_check_reservations(&self->nl, "c0", &t));
	free(c);
}

TEST_F(circuit, demand_is_announced)
{
	struct fattree_inject_row row = { 2, 9, 3 };
	struct nl_sock *sk = nl_socket_alloc();
	int grp, got = 0, tries;

	ASSERT_NE(NULL, sk);
	ASSERT_EQ(0, genl_connect(sk));
	grp = genl_ctrl_resolve_grp(sk, FATTREE_GENL_NAME, FATTREE_MCGRP_DEMAND);
	ASSERT_GE(grp, 0);
	ASSERT_EQ(0, nl_socket_add_membership(sk, grp));
	nl_socket_disable_seq_check(sk);
	ASSERT_EQ(0, ft_fabric_new(&self->nl, &self->s));
	ASSERT_EQ(0, ft_fabric_inject(&self->nl, "c0", &row, 1));
	ASSERT_EQ(0, ft_fabric_step(&self->nl, "c0", 4));
	for (tries = 0; tries < 5 && !got; tries++) {
		unsigned char *buf = NULL;
		struct sockaddr_nl who;
		struct nlmsghdr *h;
		int len;

		len = nl_recv(sk, &who, &buf, NULL);
		for (h = (struct nlmsghdr *)buf; len > 0 && nlmsg_ok(h, len); h = nlmsg_next(h, &len)) {
			struct nl_msg *m = nlmsg_convert(h);
			struct fattree_demand *d = NULL;
			struct ftobj_demand dm;
			long n;

			if (!m)
				continue;
			n = ftobj_demand_decode(m, &dm) ? -EPROTO : ftnl_demand_entries(m, &d);
			nlmsg_free(m);
			if (n <= 0)
				continue;
			EXPECT_STREQ("c0", dm.fabric);
			EXPECT_TRUE(dm.last);
			EXPECT_EQ(2, d->src);
			EXPECT_EQ(9, d->dst);
			EXPECT_EQ(3, d->backlog);
			EXPECT_EQ(4, d->age);
			free(d);
			got = 1;
		}
		free(buf);
	}
	EXPECT_TRUE(got);
	nl_socket_free(sk);
}

TEST_F_TIMEOUT(circuit, arp_and_ping_on_a_circuit_fabric, 90)
{
	struct fattree_circuit c[2];
	struct fattree_demand *d = NULL;
	int n;

	self->s.period_ns = 100000;
	ASSERT_EQ(0, ft_fabric_new(&self->nl, &self->s));
	ASSERT_EQ(0, system("ip netns add ctA; ip netns add ctB; "
			    "ip link set c0-l0 netns ctA; ip link set c0-l13 netns ctB; "
			    "ip -n ctA addr add 10.98.0.1/24 dev c0-l0; "
			    "ip -n ctB addr add 10.98.0.2/24 dev c0-l13; "
			    "ip -n ctA link set c0-l0 up; ip -n ctB link set c0-l13 up"));
	/* No circuit: the echo request waits, but the neighbour resolved. */
	EXPECT_NE(0, system("ip netns exec ctA ping -q -c 1 -W 1 10.98.0.2 >/dev/null"));
	EXPECT_EQ(0, system("ip -n ctA neigh show 10.98.0.2 | grep -q lladdr"));
	n = ft_demand(&self->nl, "c0", &d);
	EXPECT_GE(n, 1);
	if (n >= 1) {
		EXPECT_EQ(0, d[0].src);
		EXPECT_EQ(13, d[0].dst);
	}
	free(d);
	c[0] = dmodk_circuit(&self->t, 0, 13, 1);
	c[1] = dmodk_circuit(&self->t, 13, 0, 1);
	ASSERT_EQ(0, ft_circuit_add(&self->nl, "c0", c, 2, NULL, NULL));
	EXPECT_EQ(0, system("ip netns exec ctA ping -q -c 3 -i 0.2 -W 2 10.98.0.2 >/dev/null"));
}

FT_HARNESS_MAIN
