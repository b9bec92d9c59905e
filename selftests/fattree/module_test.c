// SPDX-License-Identifier: GPL-2.0
/*
 * The module loads and unloads cleanly, registers and unregisters its
 * family, refuses bad parameters, and reports the limits it was given.
 */
#include <errno.h>

#include "kselftest_harness.h"
#include "ftnl.h"
#include "ft_selftest.h"
#include "linux/fattree.h"

static void unload_if_loaded(struct __test_metadata *_metadata)
{
	if (ft_module_loaded())
		ASSERT_EQ(0, ft_module_unload());
}

TEST(load_and_unload)
{
	struct ftnl nl;
	char state[32];

	unload_if_loaded(_metadata);
	ASSERT_EQ(0, ft_module_load(NULL));
	ASSERT_EQ(0, ft_sysfs_str("/sys/module/fattree/initstate", state, sizeof(state)));
	EXPECT_STREQ("live", state);
	ASSERT_EQ(0, ftnl_open(&nl));
	EXPECT_GT(nl.family, 0);
	ftnl_close(&nl);

	ASSERT_EQ(0, ft_module_unload());
	EXPECT_FALSE(ft_module_loaded());
	/* The family left with the module. */
	EXPECT_EQ(-ENOENT, ftnl_open(&nl));
}

TEST(second_load_refused)
{
	unload_if_loaded(_metadata);
	ASSERT_EQ(0, ft_module_load(NULL));
	EXPECT_EQ(-EEXIST, ft_module_load(NULL));
	EXPECT_TRUE(ft_module_loaded());
	ASSERT_EQ(0, ft_module_unload());
}

TEST(bad_parameters_refused)
{
	static const char *const bad[] = {
		"max_levels=99", "max_levels=0", "max_leaves=0",
		"max_leaves=65537", "max_fabrics=0", "max_lanes=70000",
	};
	size_t i;

	unload_if_loaded(_metadata);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		EXPECT_EQ(-EINVAL, ft_module_load(bad[i])) {
			TH_LOG("parameter %s was accepted", bad[i]);
		}
		EXPECT_FALSE(ft_module_loaded());
		if (ft_module_loaded())
			ft_module_unload();
	}
}

TEST(parameters_reported)
{
	struct ftobj_info i;
	struct ftnl nl;

	unload_if_loaded(_metadata);
	ASSERT_EQ(0, ft_module_load("max_fabrics=3 max_leaves=1024"));
	EXPECT_EQ(3, ft_sysfs_num("/sys/module/fattree/parameters/max_fabrics"));
	EXPECT_EQ(1024, ft_sysfs_num("/sys/module/fattree/parameters/max_leaves"));
	ASSERT_EQ(0, ftnl_open(&nl));
	EXPECT_EQ(0, ftobj_info_get(&nl, &i));
	EXPECT_TRUE(FTOBJ_HAS(&i, FATTREE_A_INFO_MAX_FABRICS) &&
		    FTOBJ_HAS(&i, FATTREE_A_INFO_MAX_LEAVES));
	EXPECT_EQ(3U, i.max_fabrics);
	EXPECT_EQ(1024U, i.max_leaves);
	ftnl_close(&nl);
	ASSERT_EQ(0, ft_module_unload());
}

FT_HARNESS_MAIN
