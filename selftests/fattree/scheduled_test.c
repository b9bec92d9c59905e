// SPDX-License-Identifier: GPL-2.0
/*
 * Path choice scheduled (and scheduled-random) in the kernel: a pair
 * without a circuit takes its default path (where a circuit fabric holds
 * it); with one it rides the circuit, and once the circuit is deleted or
 * its lease ends it takes its default path again, nothing lost and no
 * cycle wasted; lanes a circuit holds are never taken by default
 * traffic, which waits (blocked, in demand) while they are held, or
 * under scheduled-random climbs elsewhere; a failed link under a circuit
 * and default traffic cuts the circuit and loses nothing; real datagrams
 * arrive whole and in order across every switch-over; the kernel and a
 * userspace replay (ftsim replay --circuits) agree link for link. After
 * every run no link carried more than its lanes in any cycle.
 *
 * FT(2,4) throughout but for the replay: leaf 0 to leaf 5 climbs to root
 * 1 by d-mod-k (5 mod 4), to root 3 on the circuits here.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "ft_selftest.h"
#include "ft_reserve.h"
#include "ft_topo.h"
#include "ftnames.h"

#define FAB	"sc"

/* Leaf 0 to leaf 5: its d-mod-k up-ports, and a circuit's. */
static const u32 dmodk_0_5[2] = { 0, 1 }, circ_0_5[2] = { 0, 3 };

/* FT(levels, 4) with @lanes[i] lanes at level i + 1, as the core sees it. */
static void topo(struct ft_topo *t, uint32_t levels, const uint32_t *lanes)
{
	u32 m[FT_MAX_LEVELS], w[FT_MAX_LEVELS], c[FT_MAX_LEVELS];
	uint32_t i;

	for (i = 0; i < levels; i++) {
		m[i] = 4;
		w[i] = i ? 4 : 1;
		c[i] = lanes[i];
	}
	ft_topo_init(t, levels, m, w, c);
}

static struct ft_path path_of(const struct ft_topo *t, u32 src, u32 dst, const u32 *port)
{
	struct ft_path p;

	ft_topo_path(t, src, dst, port, &p);
	return p;
}

static struct fattree_circuit circuit(u32 src, u32 dst, u32 lanes, u32 lease, const u32 *port)
{
	return (struct fattree_circuit){ .src = src, .dst = dst, .lanes = lanes,
					 .lease = lease, .port = { port[0], port[1] } };
}

/* The link dump, each link at its id: the count or -errno. */
static int links(struct ftnl *nl, const char *name, struct ftobj_link **out)
{
	int n = ftobj_links(nl, name, out), i;

	for (i = 0; i < n; i++)
		if ((*out)[i].id != (uint32_t)i)
			return -EPROTO;
	return n;
}

/*
 * Links that carried more in one cycle than the lanes they were built
 * with (a failed link has 0 lanes now, not then).
 */
static int links_over(const struct ftobj_link *l, int n, const struct ft_topo *t)
{
	int i, over = 0;

	for (i = 0; i < n; i++)
		over += l[i].level < 1 || l[i].level > t->h ||
			l[i].max_cycle > t->lanes[l[i].level];
	return over;
}

/* What the links of a path carried at its hops 1 .. n - 2 (above the leaves' links). */
static uint64_t above_leaves(const struct ftobj_link *l, const struct ft_path *p, uint64_t *min)
{
	uint64_t sum = 0;
	uint32_t j;

	*min = UINT64_MAX;
	for (j = 1; j + 1 < p->n; j++) {
		sum += l[p->link[j]].carried;
		if (l[p->link[j]].carried < *min)
			*min = l[p->link[j]].carried;
	}
	return sum;
}

static int link_set_reply(struct nl_msg *msg, void *arg)
{
	return ftobj_link_set_decode(msg, arg);
}

/* Fail (or restore) one directed link; the reply in @r. */
static int link_fail(struct ftnl *nl, uint32_t id, int fail, struct ftobj_link_set *r)
{
	struct nl_msg *msg = ftnl_msg(nl, FATTREE_CMD_LINK_SET, 0);

	if (!msg)
		return -ENOMEM;
	memset(r, 0, sizeof(*r));
	nla_put_string(msg, FATTREE_A_LINK_FABRIC, FAB);
	nla_put_u32(msg, FATTREE_A_LINK_ID, id);
	nla_put_u8(msg, FATTREE_A_LINK_FAIL, fail);
	return ftnl_transact(nl, msg, link_set_reply, r);
}

FIXTURE(sched) {
	struct ftnl nl;
	struct ft_spec s;
	struct ft_topo t;
	struct ft_path dp, cp;	/* leaf 0 to 5: d-mod-k, the circuits' */
};

FIXTURE_SETUP(sched)
{
	ASSERT_EQ(0, ft_open(&self->nl));
	ft_fabric_del(&self->nl, FAB);
}

FIXTURE_TEARDOWN(sched)
{
	system("ip netns del scA 2>/dev/null; ip netns del scB 2>/dev/null");
	ft_close(&self->nl);
}

/* A manual FT(2,4) fabric "sc" of path @path, lanes @c1 and @c2. */
static int fabric(FIXTURE_DATA(sched) *self, int path, uint32_t c1, uint32_t c2)
{
	const uint32_t lanes[2] = { c1, c2 };

	ft_spec_kary(&self->s, FAB, 2, 4);
	self->s.path = path;
	self->s.lanes[0] = c1;
	self->s.lanes[1] = c2;
	topo(&self->t, 2, lanes);
	self->dp = path_of(&self->t, 0, 5, dmodk_0_5);
	self->cp = path_of(&self->t, 0, 5, circ_0_5);
	return ft_fabric_new(&self->nl, &self->s);
}

TEST_F(sched, no_circuit_default_path_where_circuit_fabric_holds)
{
	struct fattree_inject_row row = { 0, 5, 10 };
	struct fattree_demand *d = NULL;
	struct ft_fabric_info fi;
	struct ftobj_link *l = NULL;
	struct ft_path dp;
	uint64_t total = 0;
	uint32_t j;
	int n, i;

	ASSERT_EQ(0, fabric(self, FATTREE_PATH_SCHEDULED, 1, 1));
	ASSERT_EQ(0, ft_fabric_run(&self->nl, FAB, &row, 1, 12, &fi));
	EXPECT_EQ(10, fi.synth_delivered);
	EXPECT_EQ(10, fi.drained_cycle);	/* one lane: one a cycle */
	EXPECT_EQ(0, fi.circuits);
	n = links(&self->nl, FAB, &l);
	ASSERT_EQ(64, n);
	dp = self->dp;
	for (j = 0; j < dp.n; j++)
		EXPECT_EQ(10, l[dp.link[j]].carried);
	for (i = 0; i < n; i++)
		total += l[i].carried;
	EXPECT_EQ(10 * dp.n, total);		/* on no other link */
	EXPECT_EQ(0, links_over(l, n, &self->t));
	free(l);

	/* The same on a circuit fabric: nothing moves, the pair is demand. */
	ASSERT_EQ(0, ft_fabric_del(&self->nl, FAB));
	ASSERT_EQ(0, fabric(self, FATTREE_PATH_CIRCUIT, 1, 1));
	ASSERT_EQ(0, ft_fabric_run(&self->nl, FAB, &row, 1, 12, &fi));
	EXPECT_EQ(0, fi.synth_delivered);
	EXPECT_EQ(10, fi.synth_queued);
	ASSERT_EQ(1, ft_demand(&self->nl, FAB, &d));
	EXPECT_EQ(0, d[0].src);
	EXPECT_EQ(5, d[0].dst);
	EXPECT_EQ(10, d[0].backlog);
	free(d);
}

/*
 * Leaves' links of one lane: whichever path, one message a cycle, so 30
 * messages take 30 cycles whatever the switch-overs, and each path's
 * links above the leaves show how many took it.
 */
TEST_F(sched, circuit_carries_then_default_path_after_delete)
{
	struct fattree_inject_row row = { 0, 5, 30 };
	struct fattree_circuit c = circuit(0, 5, 1, 0, circ_0_5);
	struct fattree_pair p = { 0, 5 };
	struct ftobj_circuit *ci = NULL;
	struct ftobj_link *l = NULL;
	struct ft_fabric_info fi;
	const struct ft_path *dp = &self->dp, *cp = &self->cp;
	uint64_t min;
	int n;

	ASSERT_EQ(0, fabric(self, FATTREE_PATH_SCHEDULED, 1, 1));
	ASSERT_EQ(0, ft_fabric_run(&self->nl, FAB, &row, 1, 5, &fi));
	EXPECT_EQ(5, fi.synth_delivered);

	ASSERT_EQ(0, ft_circuit_add(&self->nl, FAB, &c, 1, NULL, NULL));
	ASSERT_EQ(0, ft_fabric_step(&self->nl, FAB, 10));
	ASSERT_EQ(1, ftobj_circuits(&self->nl, FAB, &ci));
	EXPECT_EQ(10, ci[0].carried);
	free(ci);
	ASSERT_EQ(64, links(&self->nl, FAB, &l));
	EXPECT_EQ(10, above_leaves(l, dp, &min));	/* 5 a link, as before */
	EXPECT_EQ(5, min);
	EXPECT_EQ(20, above_leaves(l, cp, &min));	/* the circuit's 10 */
	EXPECT_EQ(10, min);
	free(l);

	ASSERT_EQ(0, ft_circuit_del(&self->nl, FAB, &p, 1));
	ASSERT_EQ(0, ft_fabric_step(&self->nl, FAB, 20));
	ASSERT_EQ(0, ft_fabric_get(&self->nl, FAB, &fi));
	EXPECT_EQ(30, fi.synth_delivered);
	EXPECT_EQ(0, fi.synth_queued);
	EXPECT_EQ(30, fi.drained_cycle);
	EXPECT_EQ(0, fi.circuits);
	n = links(&self->nl, FAB, &l);
	ASSERT_EQ(64, n);
	EXPECT_EQ(40, above_leaves(l, dp, &min));	/* 5 + 15 */
	EXPECT_EQ(20, min);
	EXPECT_EQ(20, above_leaves(l, cp, &min));
	EXPECT_EQ(30, l[dp->link[0]].carried);	/* the leaves' links: all 30 */
	EXPECT_EQ(30, l[dp->link[3]].carried);
	EXPECT_EQ(0, links_over(l, n, &self->t));
	free(l);
	EXPECT_EQ(0, ft_check_reservations(&self->nl, FAB, &self->t));
}

TEST_F(sched, lease_end_returns_pair_to_default_path)
{
	struct fattree_inject_row row = { 0, 5, 30 };
	struct fattree_circuit c = circuit(0, 5, 1, 6, circ_0_5);
	struct ftobj_circuit *ci = NULL;
	struct ftobj_link *l = NULL;
	struct ft_fabric_info fi;
	const struct ft_path *dp = &self->dp, *cp = &self->cp;
	uint64_t min;
	int n;

	ASSERT_EQ(0, fabric(self, FATTREE_PATH_SCHEDULED, 1, 1));
	ASSERT_EQ(0, ft_fabric_run(&self->nl, FAB, &row, 1, 5, &fi));
	/* Admitted at cycle 5, it serves cycles 6 to 11. */
	ASSERT_EQ(0, ft_circuit_add(&self->nl, FAB, &c, 1, NULL, NULL));
	ASSERT_EQ(1, ftobj_circuits(&self->nl, FAB, &ci));
	EXPECT_EQ(11, ci[0].expires);
	free(ci);
	ASSERT_EQ(0, ft_fabric_step(&self->nl, FAB, 6));
	EXPECT_EQ(0, ftobj_circuits(&self->nl, FAB, &ci));
	free(ci);
	ASSERT_EQ(0, ft_fabric_step(&self->nl, FAB, 20));
	ASSERT_EQ(0, ft_fabric_get(&self->nl, FAB, &fi));
	EXPECT_EQ(30, fi.synth_delivered);
	EXPECT_EQ(30, fi.drained_cycle);
	n = links(&self->nl, FAB, &l);
	ASSERT_EQ(64, n);
	EXPECT_EQ(12, above_leaves(l, cp, &min));	/* 6 cycles on the circuit */
	EXPECT_EQ(6, min);
	EXPECT_EQ(48, above_leaves(l, dp, &min));	/* 5 before, 19 after */
	EXPECT_EQ(24, min);
	EXPECT_EQ(0, links_over(l, n, &self->t));
	free(l);
	EXPECT_EQ(0, ft_check_reservations(&self->nl, FAB, &self->t));
}

/*
 * Leaf 0's idle circuit to leaf 5 on its d-mod-k path holds the one lane
 * of leaf switch 0's up link to root 1, which leaf 1's d-mod-k path to
 * leaf 9 needs: leaf 1's messages wait there (blocked, in demand) while
 * it holds, and flow once it is deleted.
 */
TEST_F(sched, reserved_lanes_hold_back_default_traffic)
{
	struct fattree_inject_row row = { 1, 9, 5 };
	struct fattree_circuit c = circuit(0, 5, 1, 0, dmodk_0_5);
	struct fattree_pair p = { 0, 5 };
	struct fattree_demand *d = NULL;
	struct ftobj_link *l = NULL;
	struct ft_fabric_info fi;
	struct ft_path xp;
	uint64_t total = 0;
	int n, i;

	ASSERT_EQ(0, fabric(self, FATTREE_PATH_SCHEDULED, 1, 1));
	xp = path_of(&self->t, 1, 9, dmodk_0_5);	/* 9 mod 4 = 1 too */
	ASSERT_EQ(0, ft_circuit_add(&self->nl, FAB, &c, 1, NULL, NULL));
	ASSERT_EQ(0, ft_fabric_run(&self->nl, FAB, &row, 1, 10, &fi));
	EXPECT_EQ(0, fi.synth_delivered);
	EXPECT_GE(fi.blocked, 10);
	n = links(&self->nl, FAB, &l);
	ASSERT_EQ(64, n);
	EXPECT_EQ(1, l[xp.link[1]].reserved);
	EXPECT_EQ(1, l[xp.link[1]].lanes);
	EXPECT_GE(l[xp.link[1]].blocked, 10);
	/* A lane of leaf 1's link a cycle, then stopped: no further. */
	EXPECT_EQ(10, l[xp.link[0]].carried);
	for (i = 0; i < n; i++)
		total += l[i].carried;
	EXPECT_EQ(10, total);
	free(l);
	ASSERT_EQ(1, ft_demand(&self->nl, FAB, &d));
	EXPECT_EQ(1, d[0].src);
	EXPECT_EQ(9, d[0].dst);
	EXPECT_EQ(5, d[0].backlog);
	EXPECT_EQ(0, d[0].circuit_lanes);
	free(d);

	ASSERT_EQ(0, ft_circuit_del(&self->nl, FAB, &p, 1));
	ASSERT_EQ(0, ft_fabric_step(&self->nl, FAB, 6));
	ASSERT_EQ(0, ft_fabric_get(&self->nl, FAB, &fi));
	EXPECT_EQ(5, fi.synth_delivered);
	EXPECT_EQ(15, fi.drained_cycle);
	n = links(&self->nl, FAB, &l);
	ASSERT_EQ(64, n);
	EXPECT_EQ(5, l[xp.link[1]].carried);
	EXPECT_EQ(0, links_over(l, n, &self->t));
	free(l);
}

/*
 * scheduled-random: the same idle circuit; two pairs whose random paths
 * could climb to root 1 from leaf switch 0 climb to the other roots and
 * never touch the circuit's links; all arrive.
 */
TEST_F(sched, random_default_paths_avoid_reserved_lanes)
{
	struct fattree_inject_row rows[] = { { 1, 9, 40 }, { 2, 13, 40 } };
	struct fattree_circuit c = circuit(0, 5, 1, 0, dmodk_0_5);
	struct ftobj_link *l = NULL;
	struct ft_fabric_info fi;
	struct ft_path cp;
	uint64_t used = 0;
	uint32_t j;
	int n, k;

	ASSERT_EQ(0, fabric(self, FATTREE_PATH_SCHEDULED_RANDOM, 1, 1));
	cp = self->dp;		/* the circuit is on leaf 0's d-mod-k path */
	ASSERT_EQ(0, ft_circuit_add(&self->nl, FAB, &c, 1, NULL, NULL));
	ASSERT_EQ(0, ft_fabric_inject(&self->nl, FAB, rows, 2));
	for (k = 0; k < 20; k++) {
		ASSERT_EQ(0, ft_fabric_step(&self->nl, FAB, 50));
		ASSERT_EQ(0, ft_fabric_get(&self->nl, FAB, &fi));
		if (!fi.synth_queued)
			break;
	}
	EXPECT_EQ(80, fi.synth_delivered);
	n = links(&self->nl, FAB, &l);
	ASSERT_EQ(64, n);
	for (j = 1; j + 1 < cp.n; j++) {
		EXPECT_EQ(0, l[cp.link[j]].carried);
		EXPECT_EQ(1, l[cp.link[j]].reserved);
	}
	/* More than one root carried them: the paths were random. */
	for (j = 0; j < 4; j++) {
		const u32 port[2] = { 0, j };
		struct ft_path rp = path_of(&self->t, 1, 9, port);

		used += l[rp.link[1]].carried != 0;
	}
	EXPECT_GT(used, 1);
	EXPECT_EQ(0, links_over(l, n, &self->t));
	free(l);
	EXPECT_EQ(0, ft_check_reservations(&self->nl, FAB, &self->t));
}

/*
 * Leaves' links 2 lanes, roots' 2: leaf 0 to 5 holds a 1-lane circuit
 * through root 3 and sends beside it; leaf 1 to 5 goes by d-mod-k through
 * root 1. Root 1's link down to leaf 5's switch fails: the default traffic
 * goes round it and the circuit stays. Then root 3's link down fails: the
 * circuit is cut and its pair falls back to its default path. Nothing
 * crosses a failed link, all 120 arrive.
 */
TEST_F(sched, failed_link_under_circuit_and_default_traffic)
{
	struct fattree_inject_row rows[] = { { 0, 5, 60 }, { 1, 5, 60 } };
	struct fattree_circuit c = circuit(0, 5, 1, 0, circ_0_5);
	struct ftobj_link *l = NULL;
	struct ft_fabric_info fi;
	struct ftobj_link_set r;
	uint64_t at_dp, at_cp;
	const struct ft_path *dp = &self->dp, *cp = &self->cp;
	int n, k;

	ASSERT_EQ(0, fabric(self, FATTREE_PATH_SCHEDULED, 2, 2));
	ASSERT_EQ(0, ft_circuit_add(&self->nl, FAB, &c, 1, NULL, NULL));
	ASSERT_EQ(0, ft_fabric_run(&self->nl, FAB, rows, 2, 1, &fi));
	EXPECT_EQ(2, fi.synth_delivered);	/* the circuit's, and one by root 1 */

	ASSERT_EQ(0, link_fail(&self->nl, dp->link[2], 1, &r));
	EXPECT_EQ(0, r.circuits_cut);
	ASSERT_EQ(64, links(&self->nl, FAB, &l));
	at_dp = l[dp->link[2]].carried;
	free(l);
	ASSERT_EQ(0, ft_fabric_step(&self->nl, FAB, 5));
	ASSERT_EQ(0, ft_fabric_get(&self->nl, FAB, &fi));
	EXPECT_EQ(1, fi.circuits);
	EXPECT_GE(fi.synth_delivered, 2 + 5 * 2);

	ASSERT_EQ(0, link_fail(&self->nl, cp->link[2], 1, &r));
	EXPECT_EQ(1, r.circuits_cut);
	EXPECT_EQ(2, r.failed_links);
	ASSERT_EQ(64, links(&self->nl, FAB, &l));
	at_cp = l[cp->link[2]].carried;
	EXPECT_GT(at_cp, 0);
	free(l);
	ASSERT_EQ(0, ft_fabric_get(&self->nl, FAB, &fi));
	EXPECT_EQ(0, fi.circuits);
	EXPECT_EQ(1, fi.circuits_cut);
	for (k = 0; k < 10 && fi.synth_queued; k++) {
		ASSERT_EQ(0, ft_fabric_step(&self->nl, FAB, 20));
		ASSERT_EQ(0, ft_fabric_get(&self->nl, FAB, &fi));
	}
	EXPECT_EQ(120, fi.synth_delivered);
	EXPECT_EQ(0, fi.synth_queued);
	n = links(&self->nl, FAB, &l);
	ASSERT_EQ(64, n);
	EXPECT_EQ(at_dp, l[dp->link[2]].carried);	/* nothing on a failed link */
	EXPECT_EQ(at_cp, l[cp->link[2]].carried);
	EXPECT_EQ(0, links_over(l, n, &self->t));
	free(l);
	EXPECT_EQ(0, ft_check_reservations(&self->nl, FAB, &self->t));
}

/*
 * Real datagrams, numbered, from leaf 0 to leaf 5 of a manual fabric:
 * 8 cycles on the default path, 8 on a circuit, 8 on the default path
 * after it is deleted, 6 on a circuit with a lease of 6, the last 10 on
 * the default path: udp_pair's receiver sees all 40, in order.
 */
TEST_F_TIMEOUT(sched, datagrams_in_order_across_switch_overs, 120)
{
	struct fattree_circuit c = circuit(0, 5, 1, 0, circ_0_5);
	struct fattree_pair p = { 0, 5 };
	struct ftobj_link *l = NULL;
	struct ft_fabric_info fi;
	const struct ft_path *dp = &self->dp, *cp = &self->cp;
	char line[256] = "";
	uint64_t min;
	FILE *u;
	int k;

	ASSERT_EQ(0, fabric(self, FATTREE_PATH_SCHEDULED, 1, 1));
	ASSERT_EQ(0, system("ip netns add scA && ip netns add scB && "
			    "ip link set sc-l0 netns scA && ip link set sc-l5 netns scB && "
			    "ip -n scA addr add 10.96.0.1/24 dev sc-l0 && "
			    "ip -n scB addr add 10.96.0.2/24 dev sc-l5 && "
			    "tc -n scA qdisc replace dev sc-l0 root pfifo limit 10000 && "
			    "ip -n scA link set sc-l0 up && ip -n scB link set sc-l5 up"));
	u = popen("./udp_pair scA scB 10.96.0.2 40 64", "r");
	ASSERT_NE(NULL, u);
	/* All 40 in the fabric (neighbours resolve outside the lanes). */
	for (k = 0; k < 300; k++) {
		ASSERT_EQ(0, ft_fabric_get(&self->nl, FAB, &fi));
		if (fi.queued == 40)
			break;
		usleep(100000);
	}
	ASSERT_EQ(40, fi.queued);
	ASSERT_EQ(0, ft_fabric_step(&self->nl, FAB, 8));
	ASSERT_EQ(0, ft_circuit_add(&self->nl, FAB, &c, 1, NULL, NULL));
	ASSERT_EQ(0, ft_fabric_step(&self->nl, FAB, 8));
	ASSERT_EQ(0, ft_circuit_del(&self->nl, FAB, &p, 1));
	ASSERT_EQ(0, ft_fabric_step(&self->nl, FAB, 8));
	c.lease = 6;
	ASSERT_EQ(0, ft_circuit_add(&self->nl, FAB, &c, 1, NULL, NULL));
	ASSERT_EQ(0, ft_fabric_step(&self->nl, FAB, 20));
	if (!fgets(line, sizeof(line), u))
		line[0] = '\0';
	EXPECT_EQ(0, pclose(u));
	EXPECT_NE(NULL, strstr(line, "sent 40 received 40 lost 0 reordered 0")) {
		TH_LOG("udp_pair: %s", line);
	}
	ASSERT_EQ(0, ft_fabric_get(&self->nl, FAB, &fi));
	EXPECT_EQ(40, fi.delivered);
	EXPECT_EQ(0, fi.queued);
	EXPECT_EQ(40, fi.drained_cycle);	/* no cycle lost at a switch-over */
	ASSERT_EQ(64, links(&self->nl, FAB, &l));
	EXPECT_EQ(28, above_leaves(l, cp, &min));	/* 8 + 6 on circuits */
	EXPECT_EQ(14, min);
	EXPECT_EQ(52, above_leaves(l, dp, &min));	/* 8 + 8 + 10 */
	EXPECT_EQ(26, min);
	EXPECT_EQ(0, links_over(l, 64, &self->t));
	free(l);
}

/*
 * The kernel and ftsim replay run the same rows with the same circuits
 * (installed before the first cycle, leases of 20 to 250 cycles, so pairs
 * switch back to their default paths mid-run) and the same seed, and
 * must agree on every link's counters and the cycle the set drained.
 */
#define NROWS	300
#define STEPS	400
#define NCIRC	40

FIXTURE(sched_replay) {
	struct ftnl nl;
	char rows_file[64], circ_file[64];
	struct fattree_inject_row rows[NROWS];
	struct fattree_circuit c[NCIRC];
	int nc;
	uint64_t total;
	struct ft_topo t;
};

FIXTURE_VARIANT(sched_replay) {
	int path;
};

FIXTURE_VARIANT_ADD(sched_replay, scheduled) { .path = FATTREE_PATH_SCHEDULED };
FIXTURE_VARIANT_ADD(sched_replay, scheduled_random) { .path = FATTREE_PATH_SCHEDULED_RANDOM };

/* Circuits for the rows' pairs, random ports and leases, that fit together. */
static int pick_circuits(FIXTURE_DATA(sched_replay) *self, FILE *f)
{
	static const u32 leases[] = { 20, 60, 120, 250 };
	uint32_t *resv = calloc(ft_topo_dlinks(&self->t), sizeof(*resv));
	struct fattree_circuit *c;
	uint32_t i, j, k, hh, lvl, local, dir;
	u32 port[FT_MAX_LEVELS];
	struct ft_path p;
	int fits;

	if (!resv)
		return -1;
	for (i = 0; i < NROWS && self->nc < NCIRC; i++) {
		const struct fattree_inject_row *r = &self->rows[i];

		for (fits = r->src != r->dst, k = 0; fits && k < (uint32_t)self->nc; k++)
			fits = self->c[k].src != r->src || self->c[k].dst != r->dst;
		hh = ft_topo_common_level(&self->t, r->src, r->dst);
		for (j = 0; j < FT_MAX_LEVELS; j++)
			port[j] = j < hh ? rand() % self->t.w[j + 1] : 0;
		if (!fits || ft_topo_path(&self->t, r->src, r->dst, port, &p))
			continue;
		for (j = 0; fits && j < p.n; j++) {
			ft_topo_dlink_decode(&self->t, p.link[j], &lvl, &local, &dir);
			fits = resv[p.link[j]] < self->t.lanes[lvl];
		}
		if (!fits)
			continue;
		for (j = 0; j < p.n; j++)
			resv[p.link[j]]++;
		c = &self->c[self->nc++];
		*c = (struct fattree_circuit){ .src = r->src, .dst = r->dst, .lanes = 1,
					       .lease = leases[rand() % 4] };
		fprintf(f, "%u %u 1 %u ", c->src, c->dst, c->lease);
		for (j = 0; j < hh; j++) {
			c->port[j] = port[j];
			fprintf(f, "%s%u", j ? "," : "", port[j]);
		}
		fprintf(f, "\n");
	}
	free(resv);
	return 0;
}

FIXTURE_SETUP(sched_replay)
{
	static const uint32_t lanes[3] = { 2, 1, 2 };
	FILE *f;
	int i;

	ASSERT_EQ(0, ft_open(&self->nl));
	ft_fabric_del(&self->nl, "sr");
	topo(&self->t, 3, lanes);
	srand(44);
	snprintf(self->rows_file, sizeof(self->rows_file), "/tmp/ft-sched-rows-%d", getpid());
	snprintf(self->circ_file, sizeof(self->circ_file), "/tmp/ft-sched-circ-%d", getpid());
	f = fopen(self->rows_file, "w");
	ASSERT_NE(NULL, f);
	for (i = 0; i < NROWS; i++) {
		self->rows[i] = (struct fattree_inject_row){ rand() % 64, rand() % 64,
							     1 + rand() % 4 };
		self->total += self->rows[i].count;
		fprintf(f, "%u %u %u\n", self->rows[i].src, self->rows[i].dst,
			self->rows[i].count);
	}
	fclose(f);
	f = fopen(self->circ_file, "w");
	ASSERT_NE(NULL, f);
	ASSERT_EQ(0, pick_circuits(self, f));
	fclose(f);
	ASSERT_GE(self->nc, 20);
}

FIXTURE_TEARDOWN(sched_replay)
{
	unlink(self->rows_file);
	unlink(self->circ_file);
	ft_close(&self->nl);
}

TEST_F(sched_replay, kernel_equals_userspace)
{
	struct ftobj_circuit *ci = NULL;
	struct ftobj_link *l = NULL;
	char cmd[512], why[1024];
	struct ft_fabric_info fi;
	uint64_t on_circuits = 0;
	struct ft_spec s;
	int n, i, reserved = 0;

	ft_spec_kary(&s, "sr", 3, 4);
	s.lanes[0] = 2;
	s.lanes[1] = 1;
	s.lanes[2] = 2;
	s.path = variant->path;
	s.seed = 0x5eed;
	ASSERT_EQ(0, ft_fabric_new(&self->nl, &s));
	ASSERT_EQ(0, ft_fabric_inject(&self->nl, "sr", self->rows, NROWS));
	ASSERT_EQ(0, ft_circuit_add(&self->nl, "sr", self->c, self->nc, NULL, NULL));
	/* At cycle 10 every circuit still holds, and they carry. */
	ASSERT_EQ(0, ft_fabric_step(&self->nl, "sr", 10));
	ASSERT_EQ(self->nc, ftobj_circuits(&self->nl, "sr", &ci));
	for (i = 0; i < self->nc; i++)
		on_circuits += ci[i].carried;
	free(ci);
	EXPECT_GT(on_circuits, 0);
	ASSERT_EQ(0, ft_fabric_step(&self->nl, "sr", STEPS - 10));
	ASSERT_EQ(0, ft_fabric_get(&self->nl, "sr", &fi));
	EXPECT_EQ(self->total, fi.synth_delivered);
	EXPECT_EQ(0, fi.circuits);		/* every lease ended */
	n = links(&self->nl, "sr", &l);
	ASSERT_GT(n, 0);
	for (i = 0; i < n; i++)
		reserved += l[i].reserved != 0;
	EXPECT_EQ(0, reserved);
	EXPECT_EQ(0, links_over(l, n, &self->t));

	snprintf(cmd, sizeof(cmd),
		 "./ftsim replay --shape kary:3:4 --lanes 2,1,2 --path %s --seed %d "
		 "--rows %s --circuits %s --steps %d",
		 ftn_path_names[s.path], 0x5eed, self->rows_file, self->circ_file, STEPS);
	EXPECT_EQ(0, ft_replay_compare(cmd, &fi, l, n, why, sizeof(why))) {
		TH_LOG("%s", why);
	}
	TH_LOG("%d circuits, %" PRIu64 " messages on them by cycle 10, drained at %" PRIu64,
	       self->nc, on_circuits, fi.drained_cycle);
	free(l);
}

FT_HARNESS_MAIN
