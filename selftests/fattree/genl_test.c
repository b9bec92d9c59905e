// SPDX-License-Identifier: GPL-2.0
/*
 * The "fattree" generic netlink family: it resolves, INFO_GET answers with
 * the module's version and limits, reads are open to everyone, and
 * malformed requests are refused with an explanation.
 */
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "ftnl.h"
#include "ft_selftest.h"
#include "linux/fattree.h"

struct info {
	struct ftobj_info i;
	int replies;
};

static int info_reply(struct nl_msg *msg, void *arg)
{
	struct info *in = arg;
	int a;

	if (ftobj_info_decode(msg, &in->i))
		return -EINVAL;
	/* every attribute of the set, none left out */
	for (a = FATTREE_A_INFO_VERSION; a <= FATTREE_A_INFO_MAX; a++)
		if (!FTOBJ_HAS(&in->i, a))
			return -ENODATA;
	in->replies++;
	return 0;
}

FIXTURE(genl) {
	struct ftnl nl;
};

FIXTURE_SETUP(genl)
{
	ASSERT_EQ(0, ft_open(&self->nl));
}

FIXTURE_TEARDOWN(genl)
{
	ftnl_close(&self->nl);
}

TEST_F(genl, family_resolves)
{
	EXPECT_GT(self->nl.family, 0);
	EXPECT_EQ(FATTREE_GENL_VERSION, self->nl.family_version);
}

TEST_F(genl, info_answers)
{
	struct info in = { 0 };
	char version[64];

	ASSERT_EQ(0, ftnl_transact(&self->nl, ftnl_msg(&self->nl, FATTREE_CMD_INFO_GET, 0),
				   info_reply, &in));
	ASSERT_EQ(1, in.replies);
	ASSERT_EQ(0, ft_sysfs_str("/sys/module/fattree/version", version, sizeof(version)));
	EXPECT_STREQ(version, in.i.version);
	EXPECT_EQ(FATTREE_GENL_VERSION, in.i.genl_version);
	EXPECT_EQ(ft_sysfs_num("/sys/module/fattree/parameters/max_fabrics"), in.i.max_fabrics);
	EXPECT_EQ(ft_sysfs_num("/sys/module/fattree/parameters/max_leaves"), in.i.max_leaves);
	EXPECT_EQ(ft_sysfs_num("/sys/module/fattree/parameters/max_levels"), in.i.max_levels);
	EXPECT_EQ(ft_sysfs_num("/sys/module/fattree/parameters/max_lanes"), in.i.max_lanes);
}

TEST_F(genl, unknown_command_refused)
{
	EXPECT_EQ(-EOPNOTSUPP,
		  ftnl_transact(&self->nl, ftnl_msg(&self->nl, FATTREE_CMD_MAX + 7, 0),
				NULL, NULL));
	/* 0: the command enum leaves it unnamed. */
	EXPECT_EQ(-EOPNOTSUPP,
		  ftnl_transact(&self->nl, ftnl_msg(&self->nl, 0, 0), NULL, NULL));
}

TEST_F(genl, info_refuses_attributes)
{
	struct nl_msg *msg = ftnl_msg(&self->nl, FATTREE_CMD_INFO_GET, 0);

	ASSERT_NE(NULL, msg);
	ASSERT_EQ(0, nla_put_u32(msg, FATTREE_A_INFO_MAX_LEAVES, 7));
	EXPECT_EQ(-EINVAL, ftnl_transact(&self->nl, msg, NULL, NULL));
	/* The refusal explains itself and points at the attribute. */
	EXPECT_NE(0, strlen(self->nl.errmsg));
	EXPECT_GT(self->nl.err_offset, 0);
}

TEST_F(genl, reserved_header_refused)
{
	struct nl_msg *msg = ftnl_msg(&self->nl, FATTREE_CMD_INFO_GET, 0);

	ASSERT_NE(NULL, msg);
	((struct genlmsghdr *)nlmsg_data(nlmsg_hdr(msg)))->reserved = 1;
	EXPECT_EQ(-EINVAL, ftnl_transact(&self->nl, msg, NULL, NULL));
	EXPECT_NE(NULL, strstr(self->nl.errmsg, "reserved"));
}

TEST(read_open_to_unprivileged)
{
	struct info in = { 0 };
	struct ftnl nl;

	ASSERT_EQ(0, ft_module_ensure());
	/* This test runs in its own forked process: drop root for good. */
	ASSERT_EQ(0, setgid(65534));
	ASSERT_EQ(0, setuid(65534));
	ASSERT_NE(0, geteuid());
	ASSERT_EQ(0, ftnl_open(&nl));
	EXPECT_EQ(0, ftnl_transact(&nl, ftnl_msg(&nl, FATTREE_CMD_INFO_GET, 0),
				   info_reply, &in));
	EXPECT_EQ(1, in.replies);
	ftnl_close(&nl);
}

FT_HARNESS_MAIN
