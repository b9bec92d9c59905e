// SPDX-License-Identifier: GPL-2.0
/*
 * fattree: emulation of a fat-tree interconnect on one Linux host.
 *
 * This file holds the module's entry points and its limits. fabric.c keeps
 * the fabrics of each namespace, leaf.c their leaf devices, engine.c their
 * delivery cycles, netlink.c the generic netlink family; core/ is the
 * engine core shared with userspace.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/moduleparam.h>

#include "fattree.h"

static unsigned int max_fabrics = 64;
module_param(max_fabrics, uint, 0444);
MODULE_PARM_DESC(max_fabrics, "Most fabrics per network namespace (default 64)");

static unsigned int max_leaves = 4096;
module_param(max_leaves, uint, 0444);
MODULE_PARM_DESC(max_leaves, "Most leaves in one fabric (default 4096)");

static unsigned int max_levels = FATTREE_HARD_MAX_LEVELS;
module_param(max_levels, uint, 0444);
MODULE_PARM_DESC(max_levels, "Most switch levels in one fabric (default 20)");

static unsigned int max_lanes = 1024;
module_param(max_lanes, uint, 0444);
MODULE_PARM_DESC(max_lanes, "Most lanes on one directed link (default 1024)");

static unsigned int max_fabric_mb = 1024;
module_param(max_fabric_mb, uint, 0444);
MODULE_PARM_DESC(max_fabric_mb, "Most memory one fabric may take, MiB (default 1024)");

struct ft_limits ft_limits;

/* Refuse to load with a limit of zero or above its hard ceiling. */
static int ft_limit_check(const char *name, unsigned int val, u32 ceiling)
{
	if (val >= 1 && val <= ceiling)
		return 0;
	pr_err("%s=%u is out of range [1, %u]\n", name, val, ceiling);
	return -EINVAL;
}

static int ft_limits_init(void)
{
	int err;

	err = ft_limit_check("max_fabrics", max_fabrics, FATTREE_HARD_MAX_FABRICS);
	err = err ?: ft_limit_check("max_leaves", max_leaves, FATTREE_HARD_MAX_LEAVES);
	err = err ?: ft_limit_check("max_levels", max_levels, FATTREE_HARD_MAX_LEVELS);
	err = err ?: ft_limit_check("max_lanes", max_lanes, FATTREE_HARD_MAX_LANES);
	err = err ?: ft_limit_check("max_fabric_mb", max_fabric_mb, FATTREE_HARD_MAX_MEM_MB);
	if (err)
		return err;

	ft_limits.max_fabrics = max_fabrics;
	ft_limits.max_leaves = max_leaves;
	ft_limits.max_levels = max_levels;
	ft_limits.max_lanes = max_lanes;
	ft_limits.max_mem_mb = max_fabric_mb;
	return 0;
}

static int __init ft_module_init(void)
{
	int err;

	err = ft_limits_init();
	if (err)
		return err;

	err = ft_rtnl_init();
	if (err)
		return err;
	err = ft_fab_init();
	if (err)
		goto err_rtnl;
	err = ft_genl_init();
	if (err) {
		pr_err("cannot register the generic netlink family: %d\n", err);
		goto err_fab;
	}
	return 0;
err_fab:
	ft_fab_exit();
err_rtnl:
	ft_rtnl_exit();
	return err;
}

/*
 * The cycle threads go first: they announce demand on the family's group,
 * and nothing may be sent there once the family is gone (its group number
 * is free for anyone to join or another family to take). Then no request
 * can arrive (unregistering waits for those under way, the only other
 * senders), and every namespace's fabrics are torn down, leaves
 * included, before their link kind goes.
 */
static void __exit ft_module_exit(void)
{
	ft_engine_stop_all();
	ft_genl_exit();
	ft_fab_exit();
	ft_rtnl_exit();
}

module_init(ft_module_init);
module_exit(ft_module_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Fat-tree interconnect emulator");
MODULE_VERSION(FATTREE_VERSION);
