// SPDX-License-Identifier: GPL-2.0
/*
 * Limits and isolation. With the module loaded under small limits, every
 * size limit is refused with its errno (E2BIG or ENOSPC, ERANGE or EINVAL
 * from an attribute policy) and an extended-ack message, before memory
 * is allocated for what was asked: the pages the kernel allocates for a
 * refused request (/proc/vmstat) are no more than for the same message
 * refused at once because it names no fabric, while an accepted fabric of
 * the same kind visibly allocates. A fabric in one network namespace is
 * invisible and untouchable from another, and its demand announcements
 * stay there. An unprivileged user, or root without CAP_NET_ADMIN, reads
 * everything but the demand (every pair's backlog, containers' leaves
 * included) and changes nothing: every change, and the demand, is EPERM.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>
#include <netlink/genl/ctrl.h>

#include "kselftest_harness.h"
#include "ft_selftest.h"

/* (max_fabric_mb leaves room for the largest shape these limits allow,
 * under a debug kernel's larger structures too; the max_fabric_mb case
 * finds its own edge.)
 */
#define LIMITS	"max_fabrics=3 max_leaves=64 max_levels=3 max_lanes=4 max_fabric_mb=64"

/* Load the module under LIMITS unless it already is. */
static int load_limited(void)
{
	if (ft_sysfs_num("/sys/module/fattree/parameters/max_fabrics") == 3 &&
	    ft_sysfs_num("/sys/module/fattree/parameters/max_levels") == 3)
		return 0;
	if (ft_module_loaded() && ft_module_unload())
		return -errno;
	return ft_module_load(LIMITS);
}

/* A FABRIC_NEW request of any shape, with a backlog when @backlog. */
static struct nl_msg *new_msg(struct ftnl *nl, const char *name, uint32_t h, const uint32_t *m,
			      const uint32_t *w, const uint32_t *lanes, uint32_t backlog)
{
	struct nl_msg *msg = ft_fabric_new_msg(nl, name, h, m, w);

	if (lanes)
		nla_put(msg, FATTREE_A_FABRIC_LANES, 4 * h, lanes);
	if (backlog)
		nla_put_u32(msg, FATTREE_A_FABRIC_BACKLOG, backlog);
	return msg;
}

/*
 * Send @msg and return the pages the kernel allocated meanwhile (the
 * smallest of three tries, each with a fresh message from @make); the
 * request's result goes to *@err.
 */
typedef struct nl_msg *(*make_fn)(struct ftnl *nl, void *arg);

static long long pages_for(struct ftnl *nl, make_fn make, void *arg, int *err)
{
	long long best = -1, before, after;
	int i;

	for (i = 0; i < 3; i++) {
		struct nl_msg *msg = make(nl, arg);

		before = ft_pages_allocated();
		*err = ftnl_transact(nl, msg, NULL, NULL);
		after = ft_pages_allocated();
		if (best < 0 || after - before < best)
			best = after - before;
	}
	return best;
}

struct shape {
	const char *name;
	uint32_t h, m[4], w[4], lanes[4], backlog;
};

static struct nl_msg *make_new(struct ftnl *nl, void *arg)
{
	struct shape *s = arg;

	return new_msg(nl, s->name, s->h, s->m, s->w, s->lanes[0] ? s->lanes : NULL, s->backlog);
}

/* Rows or circuits in one request, raised send buffer included. */
struct batch {
	const char *name;
	uint8_t cmd;
	int name_type, type;
	const void *v;
	uint32_t n;
	size_t size;
};

static struct nl_msg *make_batch(struct ftnl *nl, void *arg)
{
	struct batch *b = arg;

	return ft_batch_big(nl, b->cmd, b->name_type, b->name, b->type, b->v, b->n, b->size);
}

/*
 * The pages the kernel allocates for batch @b (its result in *@err) and,
 * in *@control, for the same batch naming no fabric, refused at once.
 */
static long long batch_pages(struct __test_metadata *_metadata, struct ftnl *nl,
			     struct batch *b, long long *control, int *err)
{
	struct batch missing = *b;

	missing.name = "nosuch";
	*control = pages_for(nl, make_batch, &missing, err);
	EXPECT_EQ(-ENOENT, *err);
	return pages_for(nl, make_batch, b, err);
}

FIXTURE(limits) {
	struct ftnl nl;
};

FIXTURE_SETUP(limits)
{
	ASSERT_EQ(0, load_limited());
	ASSERT_EQ(0, ftnl_open(&self->nl));
	ft_fabrics_clear(&self->nl);
}

/* The module goes, so that the tests after these load it as they like. */
FIXTURE_TEARDOWN(limits)
{
	ft_close(&self->nl);
	system("ip netns del ftlimA 2>/dev/null; ip netns del ftlimB 2>/dev/null");
	ft_module_unload();
}

/* Refused with @err, an extended-ack message mentioning @what, and
 * no more pages allocated than @control (plus a little).
 */
#define EXPECT_REFUSED(_err, _what, _pages, _control) do {				\
		EXPECT_EQ(_err, err);							\
		EXPECT_NE(NULL, strstr(self->nl.errmsg, _what)) {			\
			TH_LOG("extack: \"%s\"", self->nl.errmsg);			\
		}									\
		EXPECT_LE(_pages, (_control) + 16) {					\
			TH_LOG("%lld pages allocated, %lld for the control",		\
			       (long long)(_pages), (long long)(_control));		\
		}									\
	} while (0)

/*
 * Whether the running kernel has formatted extended-ack messages (6.2 on),
 * which the module's refusals then fill with their numbers.
 */
static bool fmt_msgs(void)
{
	struct utsname u;
	unsigned int major = 0, minor = 0;

	if (uname(&u) || sscanf(u.release, "%u.%u", &major, &minor) != 2)
		return false;
	return major > 6 || (major == 6 && minor >= 2);
}

/* Fabric @arg (a struct shape) made, the namespace's only one. */
static int fabric_made(struct ftnl *nl, void *arg)
{
	if (ftnl_transact(nl, make_new(nl, arg), NULL, NULL))
		return 1;
	return ft_fabric_count(nl) == 1 ? 0 : 2;
}

TEST_F(limits, max_fabrics_per_namespace)
{
	struct shape s = { .name = "a", .h = 1, .m = { 2 }, .w = { 1 } };
	long long pages, control;
	int err;

	ASSERT_EQ(0, ftnl_transact(&self->nl, make_new(&self->nl, &s), NULL, NULL));
	s.name = "b";
	ASSERT_EQ(0, ftnl_transact(&self->nl, make_new(&self->nl, &s), NULL, NULL));
	s.name = "c";
	ASSERT_EQ(0, ftnl_transact(&self->nl, make_new(&self->nl, &s), NULL, NULL));
	s.name = "a";		/* exists: refused before any allocation */
	control = pages_for(&self->nl, make_new, &s, &err);
	EXPECT_EQ(-EEXIST, err);
	s.name = "d";
	pages = pages_for(&self->nl, make_new, &s, &err);
	EXPECT_REFUSED(-ENOSPC, "max_fabrics", pages, control);
	EXPECT_EQ(3, ft_fabric_count(&self->nl));

	/* The limit is per namespace: another one has room of its own. */
	EXPECT_EQ(0, ft_child_run(FT_AS_NETNS, fabric_made, &s));
}

/*
 * Each shape refused names the limit it meets: under 6.1 by name, from 6.2
 * on (formatted messages) with the numbers. A shape past the engine's own
 * 2^20 leaves (kary 8 8 under max_leaves 4096) is still max_leaves, not
 * the capacity profile; a level's m or w out of range (kary 2 0) says so.
 */
TEST_F(limits, max_leaves_max_levels_max_lanes)
{
	struct shape ok = { .name = "big", .h = 2, .m = { 8, 8 }, .w = { 1, 4 }, .lanes = { 4, 4 } };
	static const struct {
		struct shape s;
		int err;
		const char *plain, *fmt;
	} refused[] = {
		{ { .name = "big", .h = 2, .m = { 256, 256 }, .w = { 1, 1 } }, -E2BIG,
		  "max_leaves", "65536 leaves, more than max_leaves 64 allows" },
		{ { .name = "big", .h = 1, .m = { 65 }, .w = { 1 } }, -E2BIG,
		  "max_leaves", "65 leaves, more than max_leaves 64 allows" },
		{ { .name = "big", .h = 2, .m = { 2048, 2048 }, .w = { 1, 1 } }, -E2BIG,
		  "max_leaves", "4194304 leaves, more than max_leaves 64 allows" },
		{ { .name = "big", .h = 4, .m = { 2, 2, 2, 2 }, .w = { 1, 2, 2, 2 } }, -E2BIG,
		  "max_levels", "4 levels, more than max_levels 3 allows" },
		{ { .name = "big", .h = 2, .m = { 8, 8 }, .w = { 1, 4 }, .lanes = { 4, 5 } }, -E2BIG,
		  "max_lanes", "level 2: 5 lanes per link, more than max_lanes 4 allows" },
		{ { .name = "big", .h = 2, .m = { 2, 0 }, .w = { 1, 2 } }, -EINVAL,
		  "children per switch", "level 2: 0 children per switch (m), need 2 to 65536" },
		{ { .name = "big", .h = 2, .m = { 2, 2 }, .w = { 0, 2 } }, -EINVAL,
		  "parents per node", "level 1: 0 parents per node (w), need 1 to 256" },
		{ { .name = "big", .h = 2, .m = { 2, 2 }, .w = { 1, 2 }, .lanes = { 1, 0 } }, -EINVAL,
		  "0 lanes", "lanes: level 2 has 0 lanes, need at least 1" },
	};
	struct shape control = refused[0].s;
	long long pages, base, made;
	unsigned int i;
	int err;

	control.name = "";	/* refused before the handler looks at the shape */
	base = pages_for(&self->nl, make_new, &control, &err);
	EXPECT_EQ(-EINVAL, err);

	for (i = 0; i < sizeof(refused) / sizeof(refused[0]); i++) {
		struct shape s = refused[i].s;

		pages = pages_for(&self->nl, make_new, &s, &err);
		EXPECT_REFUSED(refused[i].err, fmt_msgs() ? refused[i].fmt : refused[i].plain,
			       pages, base);
	}

	/* The instrument works: the largest fabric allowed allocates. */
	{
		long long before = ft_pages_allocated();

		ASSERT_EQ(0, ftnl_transact(&self->nl, make_new(&self->nl, &ok), NULL, NULL));
		made = ft_pages_allocated() - before;
		TH_LOG("refused: <= %lld pages; the largest fabric allowed (64 leaves, 4 lanes): %lld",
		       pages, made);
		EXPECT_GT(made, 256);
	}
}

/*
 * The memory estimate grows with the leaves (a leaf costs the kernel some
 * 46 KiB) and their pairs; a backlog past the leaves' count no longer
 * grows it (the pool holds what can wait). So: raise max_fabric_mb from 1
 * MiB until a 4-leaf fabric fits; at that limit a 64-leaf one (some 3 MiB
 * more) is refused, saying why, before anything is allocated.
 */
TEST_F(limits, max_fabric_mb)
{
	struct shape small = { .name = "a", .h = 1, .m = { 4 }, .w = { 1 } };
	struct shape s = { .name = "big", .h = 1, .m = { 64 }, .w = { 1 }, .backlog = 64 };
	struct shape control = s;
	long long pages, base;
	char params[64];
	int err = -1, mb;

	control.name = "";
	for (mb = 1; mb <= 64 && err; mb++) {
		ftnl_close(&self->nl);
		ASSERT_EQ(0, ft_module_unload());
		snprintf(params, sizeof(params), "max_fabric_mb=%d", mb);
		ASSERT_EQ(0, ft_module_load(params));
		ASSERT_EQ(0, ftnl_open(&self->nl));
		err = ftnl_transact(&self->nl, make_new(&self->nl, &small), NULL, NULL);
	}
	ASSERT_EQ(0, err) TH_LOG("a 4-leaf fabric did not fit in 64 MiB");
	TH_LOG("a 4-leaf fabric fits in %d MiB", mb - 1);
	base = pages_for(&self->nl, make_new, &control, &err);
	pages = pages_for(&self->nl, make_new, &s, &err);
	EXPECT_REFUSED(-E2BIG, "max_fabric_mb", pages, base);
	EXPECT_EQ(1, ft_fabric_count(&self->nl));
}

TEST_F(limits, attribute_ranges)
{
	struct shape s = { .name = "lim", .h = 1, .m = { 4 }, .w = { 1 } };
	struct shape levels21 = { .name = "lim", .h = 21, .m = { 2 }, .w = { 1 } };
	struct nl_msg *msg;
	int err;

	/* h beyond FATTREE_MAX_LEVELS, a backlog beyond 65536: the policy. */
	msg = new_msg(&self->nl, "lim", 21, levels21.m, levels21.w, NULL, 0);
	err = ftnl_transact(&self->nl, msg, NULL, NULL);
	EXPECT_EQ(-ERANGE, err);
	EXPECT_NE(0, strlen(self->nl.errmsg));
	EXPECT_GT(self->nl.err_offset, 0);
	msg = new_msg(&self->nl, "lim", 1, s.m, s.w, NULL, 65537);
	EXPECT_EQ(-ERANGE, ftnl_transact(&self->nl, msg, NULL, NULL));
	EXPECT_NE(0, strlen(self->nl.errmsg));

	ASSERT_EQ(0, ftnl_transact(&self->nl, make_new(&self->nl, &s), NULL, NULL));
	/* Steps: 1 to 10^6. */
	EXPECT_EQ(-ERANGE, ft_fabric_step(&self->nl, "lim", 1000001));
	EXPECT_NE(0, strlen(self->nl.errmsg));
	EXPECT_EQ(-ERANGE, ft_fabric_step(&self->nl, "lim", 0));
	/* A period of 0 (manual) or 1 us to 10 s. */
	msg = ftnl_msg(&self->nl, FATTREE_CMD_FABRIC_SET, 0);
	nla_put_string(msg, FATTREE_A_FABRIC_NAME, "lim");
	nla_put_u64(msg, FATTREE_A_FABRIC_PERIOD_NS, 999);
	EXPECT_EQ(-ERANGE, ftnl_transact(&self->nl, msg, NULL, NULL));
	EXPECT_NE(NULL, strstr(self->nl.errmsg, "period"));
}

TEST_F(limits, names_lengths_and_characters)
{
	struct shape s = { .name = "seven77", .h = 1, .m = { 64 }, .w = { 1 } };
	struct nl_msg *msg;
	char ifname[32];

	/* Seven characters: leaves "seven77-l0" .. "seven77-l63" fit IFNAMSIZ. */
	ASSERT_EQ(0, ftnl_transact(&self->nl, make_new(&self->nl, &s), NULL, NULL));
	snprintf(ifname, sizeof(ifname), "/sys/class/net/%s-l63", s.name);
	EXPECT_EQ(0, access(ifname, F_OK));
	/* Eight: the policy refuses it, pointing at the name. */
	s.name = "eight888";
	EXPECT_EQ(-EINVAL, ftnl_transact(&self->nl, make_new(&self->nl, &s), NULL, NULL));
	EXPECT_NE(0, strlen(self->nl.errmsg));
	EXPECT_GT(self->nl.err_offset, 0);
	s.name = "";
	EXPECT_EQ(-EINVAL, ftnl_transact(&self->nl, make_new(&self->nl, &s), NULL, NULL));
	EXPECT_NE(NULL, strstr(self->nl.errmsg, "empty"));
	/* A leading '-': every tool would take the name for an option. */
	s.name = "-x";
	EXPECT_EQ(-EINVAL, ftnl_transact(&self->nl, make_new(&self->nl, &s), NULL, NULL));
	EXPECT_NE(NULL, strstr(self->nl.errmsg, "cannot start with '-'")) {
		TH_LOG("\"-x\": \"%s\"", self->nl.errmsg);
	}
	EXPECT_GT(self->nl.err_offset, 0);
	/* Characters a device name cannot hold, and '%' (a format there). */
	{
		static const char *const bad[] = { "a%d", "b/c", "b c", "x:y", "t\tab" };
		unsigned int i;

		for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
			s.name = bad[i];
			EXPECT_EQ(-EINVAL, ftnl_transact(&self->nl, make_new(&self->nl, &s),
							 NULL, NULL));
			EXPECT_NE(NULL, strstr(self->nl.errmsg, "cannot hold")) {
				TH_LOG("\"%s\": \"%s\"", bad[i], self->nl.errmsg);
			}
		}
	}
	/* The same policy guards every command that names a fabric. */
	msg = ftnl_msg(&self->nl, FATTREE_CMD_LINK_GET, NLM_F_DUMP);
	nla_put_string(msg, FATTREE_A_LINK_FABRIC, "eight888");
	EXPECT_EQ(-EINVAL, ftnl_transact(&self->nl, msg, NULL, NULL));
	EXPECT_NE(0, strlen(self->nl.errmsg));
	EXPECT_EQ(-EINVAL, ft_fabric_del(&self->nl, "eight888"));
	EXPECT_EQ(1, ft_fabric_count(&self->nl));
	EXPECT_NE(0, access("/sys/class/net/a0-l0", F_OK));
}

TEST_F(limits, inject_batch_size)
{
	struct shape s = { .name = "lim", .h = 1, .m = { 4 }, .w = { 1 } };
	/* More rows than one request may carry (65536), all of 16 pairs. */
	uint32_t n = 65537 + 4096, i;
	struct fattree_inject_row *rows = calloc(n, sizeof(*rows));
	struct batch b = { "lim", FATTREE_CMD_FABRIC_INJECT, FATTREE_A_FABRIC_NAME,
			   FATTREE_A_FABRIC_INJECT, rows, n, sizeof(*rows) };
	struct fattree_inject_row big[2] = { { 0, 1, 0xffffffffU }, { 0, 1, 1 } };
	struct ft_fabric_info fi;
	long long pages, base;
	int err;

	ASSERT_NE(NULL, rows);
	for (i = 0; i < n; i++)
		rows[i] = (struct fattree_inject_row){ i % 4, (i / 4) % 4, 1 };
	ASSERT_EQ(0, ftnl_transact(&self->nl, make_new(&self->nl, &s), NULL, NULL));
	pages = batch_pages(_metadata, &self->nl, &b, &base, &err);
	EXPECT_REFUSED(-ENOSPC, "more rows than one inject request", pages, base);
	TH_LOG("%u rows (%zu KiB): %lld pages for the refusal, %lld for a missing fabric",
	       n, n * sizeof(*rows) >> 10, pages, base);
	/* As many rows as a request carries, of the 16 pairs there are. */
	b.n = 65536;
	EXPECT_EQ(0, ftnl_transact(&self->nl, make_batch(&self->nl, &b), NULL, NULL));
	EXPECT_EQ(0, ftnl_transact(&self->nl, make_batch(&self->nl, &b), NULL, NULL));
	ASSERT_EQ(0, ft_fabric_get(&self->nl, "lim", &fi));
	EXPECT_EQ(2 * 65536, fi.synth_queued);
	ASSERT_EQ(0, ft_fabric_del(&self->nl, "lim"));
	ASSERT_EQ(0, ftnl_transact(&self->nl, make_new(&self->nl, &s), NULL, NULL));
	/* A pair's count cannot overflow: the whole batch is refused. */
	EXPECT_EQ(-ERANGE, ft_fabric_inject(&self->nl, "lim", big, 2));
	EXPECT_NE(NULL, strstr(self->nl.errmsg, "2^32"));
	ASSERT_EQ(0, ft_fabric_get(&self->nl, "lim", &fi));
	EXPECT_EQ(0, fi.synth_queued);
	EXPECT_EQ(0, fi.queued);
	free(rows);
}

TEST_F(limits, circuit_batch_size)
{
	struct shape s = { .name = "lim", .h = 1, .m = { 4 }, .w = { 1 } };
	/* 100000 circuits: the table holds the 16 pairs there are. */
	uint32_t n = 100000, i;
	struct fattree_circuit *c = calloc(n, sizeof(*c));
	struct fattree_pair *p = calloc(n, sizeof(*p));
	struct batch b = { "lim", FATTREE_CMD_CIRCUIT_ADD, FATTREE_A_CIRCUIT_FABRIC,
			   FATTREE_A_CIRCUIT_ENTRY, c, n, sizeof(*c) };
	struct batch d = { "lim", FATTREE_CMD_CIRCUIT_DEL, FATTREE_A_CIRCUIT_FABRIC,
			   FATTREE_A_CIRCUIT_PAIR, p, n, sizeof(*p) };
	long long pages, base;
	int err;

	ASSERT_NE(NULL, c);
	ASSERT_NE(NULL, p);
	for (i = 0; i < n; i++) {
		c[i] = (struct fattree_circuit){ .src = i % 4, .dst = (i + 1) % 4, .lanes = 1 };
		p[i] = (struct fattree_pair){ i % 4, (i + 1) % 4 };
	}
	s.lanes[0] = 4;
	ASSERT_EQ(0, ftnl_transact(&self->nl, make_new(&self->nl, &s), NULL, NULL));
	pages = batch_pages(_metadata, &self->nl, &b, &base, &err);
	EXPECT_REFUSED(-E2BIG, "circuit table", pages, base);
	TH_LOG("%u circuits (%zu KiB): %lld pages for the refusal, %lld for a missing fabric",
	       n, n * sizeof(*c) >> 10, pages, base);
	pages = batch_pages(_metadata, &self->nl, &d, &base, &err);
	EXPECT_REFUSED(-E2BIG, "circuit table", pages, base);
	/* A table's worth is refused for want of lanes, not of room. */
	b.n = 4;
	EXPECT_EQ(0, ftnl_transact(&self->nl, make_batch(&self->nl, &b), NULL, NULL));
	free(c);
	free(p);
}

/* Demand announcements heard on a socket joined to the "demand" group. */
static struct nl_sock *demand_listener(void)
{
	struct nl_sock *sk = nl_socket_alloc();
	int grp;

	if (!sk || genl_connect(sk))
		return NULL;
	grp = genl_ctrl_resolve_grp(sk, FATTREE_GENL_NAME, FATTREE_MCGRP_DEMAND);
	if (grp < 0 || nl_socket_add_membership(sk, grp))
		return NULL;
	nl_socket_disable_seq_check(sk);
	nl_socket_set_nonblocking(sk);
	return sk;
}

/* Notifications waiting on @sk after @ms. */
static int heard(struct nl_sock *sk, int ms)
{
	int n = 0;

	usleep(ms * 1000);
	nl_socket_modify_cb(sk, NL_CB_VALID, NL_CB_CUSTOM, ft_count_reply, &n);
	while (nl_recvmsgs_default(sk) >= 0)
		;
	return n;
}

TEST_F(limits, namespaces_are_isolated)
{
	struct shape s = { .name = "iso", .h = 1, .m = { 4 }, .w = { 1 } };
	struct fattree_inject_row row = { 0, 1, 5 };
	struct fattree_circuit c = { .src = 0, .dst = 1, .lanes = 1 };
	struct fattree_pair p = { 0, 1 };
	struct ft_fabric_info fi;
	struct ftobj_circuit *ci = NULL;
	struct ftobj_link *l = NULL;
	struct fattree_demand *dm = NULL;
	struct nl_sock *here_l;
	struct nl_msg *msg;
	struct ftnl a;
	int n;
	pid_t pid;

	ASSERT_EQ(0, system("ip netns add ftlimA && ip netns add ftlimB"));
	/* "iso" in namespace A, stepped there by a child that listens for
	 * its demand; the same name is free in this one.
	 */
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		struct nl_sock *there;

		if (ft_netns_enter("ftlimA") || ftnl_open(&a) || !(there = demand_listener()))
			_exit(10);
		if (ftnl_transact(&a, make_new(&a, &s), NULL, NULL) ||
		    ft_fabric_inject(&a, "iso", &row, 1) || ft_fabric_step(&a, "iso", 1))
			_exit(11);
		_exit(heard(there, 300) > 0 ? 0 : 12);
	}
	here_l = demand_listener();
	ASSERT_NE(NULL, here_l);
	ASSERT_EQ(0, ft_wait_exit(pid)) TH_LOG("the fabric in A or its announcement failed");
	EXPECT_EQ(0, heard(here_l, 300)) TH_LOG("A's demand was announced here");

	/* Invisible from here: no get, no dump lists it, no dump of it. */
	EXPECT_EQ(-ENOENT, ft_fabric_get(&self->nl, "iso", &fi));
	EXPECT_EQ(0, ft_fabric_count(&self->nl));
	EXPECT_EQ(-ENOENT, ftobj_links(&self->nl, "iso", &l));
	EXPECT_EQ(-ENOENT, ftobj_circuits(&self->nl, "iso", &ci));
	EXPECT_EQ(-ENOENT, ft_demand(&self->nl, "iso", &dm));
	msg = ftnl_msg(&self->nl, FATTREE_CMD_LEAF_GET, NLM_F_DUMP);
	nla_put_string(msg, FATTREE_A_LEAF_FABRIC, "iso");
	EXPECT_EQ(-ENOENT, ftnl_transact(&self->nl, msg, NULL, NULL));
	/* Untouchable: every change names a fabric that is not here. */
	EXPECT_EQ(-ENOENT, ft_fabric_step(&self->nl, "iso", 1));
	EXPECT_NE(NULL, strstr(self->nl.errmsg, "namespace"));
	EXPECT_EQ(-ENOENT, ft_fabric_inject(&self->nl, "iso", &row, 1));
	EXPECT_EQ(-ENOENT, ft_circuit_add(&self->nl, "iso", &c, 1, NULL, NULL));
	EXPECT_EQ(-ENOENT, ft_circuit_del(&self->nl, "iso", &p, 1));
	msg = ftnl_msg(&self->nl, FATTREE_CMD_FABRIC_SET, 0);
	nla_put_string(msg, FATTREE_A_FABRIC_NAME, "iso");
	nla_put_u64(msg, FATTREE_A_FABRIC_SEED, 9);
	EXPECT_EQ(-ENOENT, ftnl_transact(&self->nl, msg, NULL, NULL));
	EXPECT_EQ(-ENOENT, ft_fabric_del(&self->nl, "iso"));
	/* A fabric of the same name here is another fabric. */
	ASSERT_EQ(0, ftnl_transact(&self->nl, make_new(&self->nl, &s), NULL, NULL));
	EXPECT_EQ(0, ft_fabric_step(&self->nl, "iso", 7));
	EXPECT_EQ(0, ft_fabric_del(&self->nl, "iso"));

	/* From namespace B as well; A's fabric is as A left it. */
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		struct ftnl b;

		if (ft_netns_enter("ftlimB") || ftnl_open(&b))
			_exit(10);
		if (ft_fabric_count(&b) != 0 || ft_fabric_del(&b, "iso") != -ENOENT ||
		    ft_fabric_step(&b, "iso", 1) != -ENOENT)
			_exit(11);
		if (ft_netns_enter("ftlimA") || ftnl_open(&a) || ft_fabric_get(&a, "iso", &fi))
			_exit(12);
		_exit(fi.cycle == 1 && fi.synth_queued + fi.synth_delivered == 5 ? 0 : 13);
	}
	EXPECT_EQ(0, ft_wait_exit(pid));
	nl_socket_free(here_l);
	free(l);
	free(ci);
	free(dm);
	n = ft_fabric_count(&self->nl);
	EXPECT_EQ(0, n);
}

/* Every change to fabric @arg refused with EPERM, every read answered. */
static int changes_refused(struct ftnl *nl, void *arg)
{
	const char *name = arg;
	struct shape s = { .name = "u0", .h = 1, .m = { 4 }, .w = { 1 } };
	struct fattree_inject_row row = { 0, 1, 5 };
	struct fattree_circuit c = { .src = 2, .dst = 3, .lanes = 1 };
	struct fattree_pair p = { 0, 1 };
	struct ftobj_circuit *ci = NULL;
	struct ftobj_link *l = NULL;
	struct fattree_demand *dm = NULL;
	struct ft_fabric_info fi;
	struct nl_msg *msg;
	int bad = 0;

	bad += ftnl_transact(nl, make_new(nl, &s), NULL, NULL) != -EPERM;
	bad += ft_fabric_del(nl, name) != -EPERM;
	msg = ftnl_msg(nl, FATTREE_CMD_FABRIC_SET, 0);
	nla_put_string(msg, FATTREE_A_FABRIC_NAME, name);
	nla_put_u64(msg, FATTREE_A_FABRIC_SEED, 9);
	bad += ftnl_transact(nl, msg, NULL, NULL) != -EPERM;
	bad += ft_fabric_step(nl, name, 1) != -EPERM;
	bad += ft_fabric_inject(nl, name, &row, 1) != -EPERM;
	bad += ft_circuit_add(nl, name, &c, 1, NULL, NULL) != -EPERM;
	bad += ft_circuit_del(nl, name, &p, 1) != -EPERM;
	/* Reads: open, but the demand: every pair's backlog (EPERM). */
	bad += 10 * (ft_fabric_get(nl, name, &fi) != 0 || ft_fabric_count(nl) != 1);
	bad += 10 * (ftobj_links(nl, name, &l) <= 0 || ftobj_circuits(nl, name, &ci) != 1);
	bad += ft_demand(nl, name, &dm) != -EPERM;
	bad += 10 * (ftnl_transact(nl, ftnl_msg(nl, FATTREE_CMD_INFO_GET, 0), NULL, NULL) != 0);
	free(l);
	free(ci);
	free(dm);
	ftnl_close(nl);
	return bad;
}

static void fabric_state(struct __test_metadata *_metadata, struct ftnl *nl,
			 struct ft_fabric_info *fi, int *ncirc)
{
	struct ftobj_circuit *ci = NULL;

	ASSERT_EQ(0, ft_fabric_get(nl, "lim", fi));
	*ncirc = ftobj_circuits(nl, "lim", &ci);
	free(ci);
}

/* Fabric "lim": a circuit 0 -> 1 and 5 messages of 0 -> 1 waiting. */
static void prepare(struct __test_metadata *_metadata, struct ftnl *nl)
{
	struct shape s = { .name = "lim", .h = 1, .m = { 4 }, .w = { 1 } };
	struct fattree_inject_row row = { 2, 3, 5 };
	struct fattree_circuit c = { .src = 0, .dst = 1, .lanes = 1 };

	ASSERT_EQ(0, ftnl_transact(nl, make_new(nl, &s), NULL, NULL));
	ASSERT_EQ(0, ft_circuit_add(nl, "lim", &c, 1, NULL, NULL));
	ASSERT_EQ(0, ft_fabric_inject(nl, "lim", &row, 1));
}

TEST_F(limits, unprivileged_reads_but_never_changes)
{
	struct ft_fabric_info a, b;
	int ca, cb, status;

	prepare(_metadata, &self->nl);
	fabric_state(_metadata, &self->nl, &a, &ca);
	status = ft_child_run(FT_AS_NOBODY, changes_refused, "lim");
	EXPECT_EQ(0, status) TH_LOG("%d refusals or reads went wrong", status);
	fabric_state(_metadata, &self->nl, &b, &cb);
	EXPECT_EQ(a.cycle, b.cycle);
	EXPECT_EQ(a.synth_queued, b.synth_queued);
	EXPECT_EQ(ca, cb);
	EXPECT_EQ(1, ft_fabric_count(&self->nl));
}

TEST_F(limits, root_without_cap_net_admin_changes_nothing)
{
	struct ft_fabric_info a, b;
	int ca, cb;

	prepare(_metadata, &self->nl);
	fabric_state(_metadata, &self->nl, &a, &ca);
	EXPECT_EQ(0, ft_child_run(FT_AS_NO_NET_ADMIN, changes_refused, "lim"));
	fabric_state(_metadata, &self->nl, &b, &cb);
	EXPECT_EQ(a.cycle, b.cycle);
	EXPECT_EQ(a.synth_queued, b.synth_queued);
	EXPECT_EQ(ca, cb);
}

FT_HARNESS_MAIN
