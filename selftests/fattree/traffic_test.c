// SPDX-License-Identifier: GPL-2.0
/*
 * Real packets through a fabric: leaves moved into network namespaces
 * resolve each other and ping; a UDP stream arrives whole and in order;
 * on a manual fabric nothing arrives until stepped; a sender that fills
 * the fabric is held back (its socket says EAGAIN) instead of losing
 * packets; a leaf whose namespace goes away comes back to the initial
 * namespace; the module unloads with fabrics and traffic present.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "ft_selftest.h"

#define PORT	5099

static int sh(const char *fmt, ...)
{
	char cmd[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	return system(cmd);
}

/* Leaf @leaf of fabric "tr" into namespace @ns with address 10.99.0.@host. */
/*
 * (With a FIFO in front of the leaf: Debian's default qdisc, fq_codel,
 * drops what waits behind a stopped queue for long, which a loaded
 * emulated machine makes happen; what is tested is that the fabric loses
 * nothing, as docs/usage.md advises for lossless runs.)
 */
static int place_leaf(int leaf, const char *ns, int host)
{
	return sh("ip netns add %s 2>/dev/null; ip link set tr-l%d netns %s && "
		  "ip -n %s addr add 10.99.0.%d/24 dev tr-l%d && "
		  "ip netns exec %s tc qdisc replace dev tr-l%d root pfifo limit 10000 && "
		  "ip -n %s link set tr-l%d up && ip -n %s link set lo up",
		  ns, leaf, ns, ns, host, leaf, ns, leaf, ns, leaf, ns);
}

/* A receiver in @ns: counts datagrams carrying 0, 1, 2, ... in order and
 * exits with 0 when it saw @n of them, 1 on a gap or reordering, 2 on a
 * timeout of @secs.
 */
static pid_t receiver(const char *ns, int n, int secs)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons(PORT) };
	int s, rcvbuf = 8 << 20, expect = 0;
	struct timeval tv = { .tv_sec = secs };
	pid_t pid = fork();
	uint32_t seq;

	if (pid)
		return pid;
	if (ft_netns_enter(ns))
		_exit(10);
	s = socket(AF_INET, SOCK_DGRAM, 0);
	setsockopt(s, SOL_SOCKET, SO_RCVBUFFORCE, &rcvbuf, sizeof(rcvbuf));
	setsockopt(s, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	if (s < 0 || bind(s, (struct sockaddr *)&a, sizeof(a)))
		_exit(11);
	while (expect < n) {
		if (recv(s, &seq, sizeof(seq), 0) != sizeof(seq)) {
			fprintf(stderr, "# receiver: timed out waiting for %d\n", expect);
			_exit(2);
		}
		if (seq != (uint32_t)expect++) {
			fprintf(stderr, "# receiver: got %u, expected %d\n", seq, expect - 1);
			_exit(1);
		}
	}
	_exit(0);
}

/* Send @n numbered datagrams from @ns to 10.99.0.@host; blocking. */
static int send_seq(const char *ns, int host, int n, int nonblock)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons(PORT) };
	int s, i;

	if (ft_netns_enter(ns))
		return -1;
	a.sin_addr.s_addr = htonl(0x0a630000 | host);
	s = socket(AF_INET, SOCK_DGRAM | (nonblock ? SOCK_NONBLOCK : 0), 0);
	if (s < 0)
		return -1;
	for (i = 0; i < n; i++) {
		uint32_t seq = i;

		if (sendto(s, &seq, sizeof(seq), 0, (struct sockaddr *)&a, sizeof(a)) < 0)
			break;
	}
	close(s);
	return i;
}

FIXTURE(traffic) {
	struct ftnl nl;
	struct ft_spec s;
};

FIXTURE_SETUP(traffic)
{
	ASSERT_EQ(0, ft_open(&self->nl));
	ft_spec_kary(&self->s, "tr", 2, 4);
}

FIXTURE_TEARDOWN(traffic)
{
	sh("ip netns del ftA 2>/dev/null; ip netns del ftB 2>/dev/null");
	ft_close(&self->nl);
}

TEST_F_TIMEOUT(traffic, ping_between_namespaces, 90)
{
	self->s.period_ns = 100000;	/* 100 us */
	ASSERT_EQ(0, ft_fabric_new(&self->nl, &self->s));
	ASSERT_EQ(0, place_leaf(0, "ftA", 1));
	ASSERT_EQ(0, place_leaf(13, "ftB", 2));
	EXPECT_EQ(0, sh("ip netns exec ftA ping -q -c 3 -i 0.2 -W 5 10.99.0.2 >/dev/null"));
}

TEST_F_TIMEOUT(traffic, udp_stream_whole_and_in_order, 120)
{
	struct ft_fabric_info fi;
	pid_t rx;

	self->s.period_ns = 50000;	/* 50 us */
	ASSERT_EQ(0, ft_fabric_new(&self->nl, &self->s));
	ASSERT_EQ(0, place_leaf(2, "ftA", 1));
	ASSERT_EQ(0, place_leaf(9, "ftB", 2));
	/* Resolve the neighbour first so the stream starts at once. */
	ASSERT_EQ(0, sh("ip netns exec ftA ping -q -c 1 -W 5 10.99.0.2 >/dev/null"));
	rx = receiver("ftB", 3000, 60);
	usleep(200000);
	ASSERT_EQ(3000, send_seq("ftA", 2, 3000, 0));
	EXPECT_EQ(0, ft_wait_exit(rx));
	ASSERT_EQ(0, ft_fabric_get(&self->nl, "tr", &fi));
	EXPECT_GE(fi.delivered, 3000);
}

TEST_F(traffic, manual_fabric_delivers_only_when_stepped)
{
	struct ft_fabric_info fi;
	pid_t rx, tx;

	ASSERT_EQ(0, ft_fabric_new(&self->nl, &self->s));
	ASSERT_EQ(0, place_leaf(0, "ftA", 1));
	ASSERT_EQ(0, place_leaf(15, "ftB", 2));
	rx = receiver("ftB", 20, 30);
	usleep(200000);
	tx = fork();
	if (!tx)
		_exit(send_seq("ftA", 2, 20, 0) == 20 ? 0 : 1);
	ASSERT_EQ(0, ft_wait_exit(tx));
	usleep(300000);
	/* Queued, not moved: the receiver has nothing yet. */
	ASSERT_EQ(0, ft_fabric_get(&self->nl, "tr", &fi));
	EXPECT_EQ(0, fi.cycle);
	EXPECT_EQ(20, fi.queued);
	EXPECT_EQ(0, waitpid(rx, NULL, WNOHANG));
	ASSERT_EQ(0, ft_fabric_step(&self->nl, "tr", 25));
	EXPECT_EQ(0, ft_wait_exit(rx));
	ASSERT_EQ(0, ft_fabric_get(&self->nl, "tr", &fi));
	EXPECT_EQ(0, fi.queued);
	EXPECT_EQ(20, fi.delivered);
}

TEST_F_TIMEOUT(traffic, full_fabric_holds_sender_back_without_loss, 120)
{
	struct ft_fabric_info fi;
	int sent;
	pid_t rx;

	ASSERT_EQ(0, ft_fabric_new(&self->nl, &self->s));
	ASSERT_EQ(0, place_leaf(1, "ftA", 1));
	ASSERT_EQ(0, place_leaf(6, "ftB", 2));
	rx = receiver("ftB", 100000, 60);
	usleep(200000);
	/* Nothing moves: a non-blocking sender runs into a full send buffer. */
	sent = send_seq("ftA", 2, 100000, 1);
	TH_LOG("the sender was held back after %d datagrams", sent);
	ASSERT_GT(sent, 64);
	ASSERT_LT(sent, 100000);
	ASSERT_EQ(0, ft_fabric_get(&self->nl, "tr", &fi));
	EXPECT_EQ(64, fi.queued);	/* the leaf's backlog bound */
	/* Step until everything the sender got rid of has arrived. */
	while (fi.delivered < (uint64_t)sent && fi.cycle < 100000) {
		ASSERT_EQ(0, ft_fabric_step(&self->nl, "tr", 500));
		ASSERT_EQ(0, ft_fabric_get(&self->nl, "tr", &fi));
	}
	EXPECT_EQ((uint64_t)sent, fi.delivered) {
		TH_LOG("cycle %llu queued %llu offered %llu blocked %llu delivered %llu",
		       (unsigned long long)fi.cycle, (unsigned long long)fi.queued,
		       (unsigned long long)fi.offered, (unsigned long long)fi.blocked,
		       (unsigned long long)fi.delivered);
	}
	kill(rx, SIGTERM);
	waitpid(rx, NULL, 0);
	/* Nothing was dropped in front of the fabric either: not by the
	 * device, not by its qdisc.
	 */
	EXPECT_EQ(0, sh("ip -n ftA -s link show tr-l1 | awk '/TX:/{getline; exit $4 != 0}'"));
	EXPECT_EQ(0, sh("tc -n ftA -s qdisc show dev tr-l1 | "
			"awk '/dropped/{sub(\",\", \"\", $7); if ($7 != 0) bad = 1} END {exit bad}'"));
}

TEST_F(traffic, leaf_returns_when_its_namespace_goes)
{
	ASSERT_EQ(0, ft_fabric_new(&self->nl, &self->s));
	ASSERT_EQ(0, place_leaf(3, "ftA", 1));
	EXPECT_NE(0, access("/sys/class/net/tr-l3", F_OK));
	ASSERT_EQ(0, sh("ip netns del ftA"));
	usleep(500000);
	EXPECT_EQ(0, access("/sys/class/net/tr-l3", F_OK));
	/* And it still goes with its fabric. */
	ASSERT_EQ(0, ft_fabric_del(&self->nl, "tr"));
	EXPECT_NE(0, access("/sys/class/net/tr-l3", F_OK));
}

TEST_F(traffic, unload_with_fabric_and_traffic)
{
	pid_t tx;

	self->s.period_ns = 200000;
	ASSERT_EQ(0, ft_fabric_new(&self->nl, &self->s));
	ASSERT_EQ(0, place_leaf(0, "ftA", 1));
	ASSERT_EQ(0, place_leaf(7, "ftB", 2));
	tx = fork();
	if (!tx)
		_exit(send_seq("ftA", 2, 1000000, 0) > 0 ? 0 : 1);
	usleep(500000);
	ftnl_close(&self->nl);
	ASSERT_EQ(0, ft_module_unload());
	EXPECT_FALSE(ft_module_loaded());
	kill(tx, SIGKILL);
	waitpid(tx, NULL, 0);
	ASSERT_EQ(0, ft_module_load(NULL));
	ASSERT_EQ(0, ftnl_open(&self->nl));
}

FT_HARNESS_MAIN
