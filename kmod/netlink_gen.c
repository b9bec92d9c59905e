// SPDX-License-Identifier: ((GPL-2.0 WITH Linux-syscall-note) OR BSD-3-Clause)
/* Do not edit directly, auto-generated from: */
/*	uapi/fattree.yaml */
/* YNL-GEN kernel source */

#include <net/netlink.h>
#include <net/genetlink.h>

#include "netlink_gen.h"

#include <uapi/linux/fattree.h>

/* Integer value ranges */
static const struct netlink_range_validation fattree_a_fabric_profile_base_range = {
	.min	= 1ULL,
	.max	= U16_MAX,
};

static const struct netlink_range_validation fattree_a_fabric_backlog_range = {
	.min	= 1ULL,
	.max	= FATTREE_MAX_BACKLOG,
};

static const struct netlink_range_validation fattree_a_fabric_steps_range = {
	.min	= 1ULL,
	.max	= FATTREE_MAX_STEPS,
};

/* FATTREE_CMD_FABRIC_NEW - do */
static const struct nla_policy fattree_fabric_new_nl_policy[FATTREE_A_FABRIC_SAF_GHOSTS + 1] = {
	[FATTREE_A_FABRIC_NAME] = { .type = NLA_NUL_STRING, .len = 7, },
	[FATTREE_A_FABRIC_LEVELS] = NLA_POLICY_RANGE(NLA_U32, 1, FATTREE_MAX_LEVELS),
	[FATTREE_A_FABRIC_DOWN] = { .type = NLA_BINARY, },
	[FATTREE_A_FABRIC_UP] = { .type = NLA_BINARY, },
	[FATTREE_A_FABRIC_LANES] = { .type = NLA_BINARY, },
	[FATTREE_A_FABRIC_PROFILE] = NLA_POLICY_MAX(NLA_U32, 6),
	[FATTREE_A_FABRIC_PROFILE_BASE] = NLA_POLICY_FULL_RANGE(NLA_U32, &fattree_a_fabric_profile_base_range),
	[FATTREE_A_FABRIC_PROFILE_ROOT] = { .type = NLA_U32, },
	[FATTREE_A_FABRIC_PATH] = NLA_POLICY_MAX(NLA_U32, 5),
	[FATTREE_A_FABRIC_INJECTION] = NLA_POLICY_MAX(NLA_U32, 2),
	[FATTREE_A_FABRIC_ARBITRATION] = NLA_POLICY_MAX(NLA_U32, 1),
	[FATTREE_A_FABRIC_PERIOD_NS] = { .type = NLA_U64, },
	[FATTREE_A_FABRIC_BACKLOG] = NLA_POLICY_FULL_RANGE(NLA_U32, &fattree_a_fabric_backlog_range),
	[FATTREE_A_FABRIC_SEED] = { .type = NLA_U64, },
	[FATTREE_A_FABRIC_MODE] = NLA_POLICY_MAX(NLA_U32, 1),
	[FATTREE_A_FABRIC_SAF_Q] = { .type = NLA_U32, },
	[FATTREE_A_FABRIC_SAF_DISCIPLINE] = NLA_POLICY_MAX(NLA_U32, 2),
	[FATTREE_A_FABRIC_SAF_GHOSTS] = NLA_POLICY_MAX(NLA_U32, 1),
};

/* FATTREE_CMD_FABRIC_DEL - do */
static const struct nla_policy fattree_fabric_del_nl_policy[FATTREE_A_FABRIC_NAME + 1] = {
	[FATTREE_A_FABRIC_NAME] = { .type = NLA_NUL_STRING, .len = 7, },
};

/* FATTREE_CMD_FABRIC_GET - do */
static const struct nla_policy fattree_fabric_get_do_nl_policy[FATTREE_A_FABRIC_NAME + 1] = {
	[FATTREE_A_FABRIC_NAME] = { .type = NLA_NUL_STRING, .len = 7, },
};

/* FATTREE_CMD_FABRIC_GET - dump */
static const struct nla_policy fattree_fabric_get_dump_nl_policy[FATTREE_A_FABRIC_NAME + 1] = {
	[FATTREE_A_FABRIC_NAME] = { .type = NLA_NUL_STRING, .len = 7, },
};

/* FATTREE_CMD_FABRIC_SET - do */
static const struct nla_policy fattree_fabric_set_nl_policy[FATTREE_A_FABRIC_SAF_GHOSTS + 1] = {
	[FATTREE_A_FABRIC_NAME] = { .type = NLA_NUL_STRING, .len = 7, },
	[FATTREE_A_FABRIC_PATH] = NLA_POLICY_MAX(NLA_U32, 5),
	[FATTREE_A_FABRIC_INJECTION] = NLA_POLICY_MAX(NLA_U32, 2),
	[FATTREE_A_FABRIC_ARBITRATION] = NLA_POLICY_MAX(NLA_U32, 1),
	[FATTREE_A_FABRIC_PERIOD_NS] = { .type = NLA_U64, },
	[FATTREE_A_FABRIC_SEED] = { .type = NLA_U64, },
	[FATTREE_A_FABRIC_MODE] = NLA_POLICY_MAX(NLA_U32, 1),
	[FATTREE_A_FABRIC_SAF_Q] = { .type = NLA_U32, },
	[FATTREE_A_FABRIC_SAF_DISCIPLINE] = NLA_POLICY_MAX(NLA_U32, 2),
	[FATTREE_A_FABRIC_SAF_GHOSTS] = NLA_POLICY_MAX(NLA_U32, 1),
};

/* FATTREE_CMD_FABRIC_STEP - do */
static const struct nla_policy fattree_fabric_step_nl_policy[FATTREE_A_FABRIC_STEPS + 1] = {
	[FATTREE_A_FABRIC_NAME] = { .type = NLA_NUL_STRING, .len = 7, },
	[FATTREE_A_FABRIC_STEPS] = NLA_POLICY_FULL_RANGE(NLA_U32, &fattree_a_fabric_steps_range),
};

/* FATTREE_CMD_FABRIC_INJECT - do */
static const struct nla_policy fattree_fabric_inject_nl_policy[FATTREE_A_FABRIC_INJECT + 1] = {
	[FATTREE_A_FABRIC_NAME] = { .type = NLA_NUL_STRING, .len = 7, },
	[FATTREE_A_FABRIC_INJECT] = { .type = NLA_BINARY, },
};

/* FATTREE_CMD_LINK_GET - dump */
static const struct nla_policy fattree_link_get_nl_policy[FATTREE_A_LINK_FABRIC + 1] = {
	[FATTREE_A_LINK_FABRIC] = { .type = NLA_NUL_STRING, .len = 7, },
};

/* FATTREE_CMD_LEAF_GET - dump */
static const struct nla_policy fattree_leaf_get_nl_policy[FATTREE_A_LEAF_FABRIC + 1] = {
	[FATTREE_A_LEAF_FABRIC] = { .type = NLA_NUL_STRING, .len = 7, },
};

/* FATTREE_CMD_CIRCUIT_ADD - do */
static const struct nla_policy fattree_circuit_add_nl_policy[FATTREE_A_CIRCUIT_ENTRY + 1] = {
	[FATTREE_A_CIRCUIT_FABRIC] = { .type = NLA_NUL_STRING, .len = 7, },
	[FATTREE_A_CIRCUIT_ENTRY] = { .type = NLA_BINARY, },
};

/* FATTREE_CMD_CIRCUIT_DEL - do */
static const struct nla_policy fattree_circuit_del_nl_policy[FATTREE_A_CIRCUIT_PAIR + 1] = {
	[FATTREE_A_CIRCUIT_FABRIC] = { .type = NLA_NUL_STRING, .len = 7, },
	[FATTREE_A_CIRCUIT_PAIR] = { .type = NLA_BINARY, },
};

/* FATTREE_CMD_CIRCUIT_GET - dump */
static const struct nla_policy fattree_circuit_get_nl_policy[FATTREE_A_CIRCUIT_FABRIC + 1] = {
	[FATTREE_A_CIRCUIT_FABRIC] = { .type = NLA_NUL_STRING, .len = 7, },
};

/* FATTREE_CMD_DEMAND_GET - dump */
static const struct nla_policy fattree_demand_get_nl_policy[FATTREE_A_DEMAND_FABRIC + 1] = {
	[FATTREE_A_DEMAND_FABRIC] = { .type = NLA_NUL_STRING, .len = 7, },
};

/* FATTREE_CMD_LINK_SET - do */
static const struct nla_policy fattree_link_set_nl_policy[FATTREE_A_LINK_FAIL + 1] = {
	[FATTREE_A_LINK_FABRIC] = { .type = NLA_NUL_STRING, .len = 7, },
	[FATTREE_A_LINK_ID] = { .type = NLA_U32, },
	[FATTREE_A_LINK_LEVEL] = NLA_POLICY_RANGE(NLA_U32, 1, FATTREE_MAX_LEVELS),
	[FATTREE_A_LINK_NODE] = { .type = NLA_U32, },
	[FATTREE_A_LINK_PORT] = NLA_POLICY_MAX(NLA_U32, U8_MAX),
	[FATTREE_A_LINK_DIRECTION] = NLA_POLICY_MAX(NLA_U32, 1),
	[FATTREE_A_LINK_SWITCH_LEVEL] = NLA_POLICY_RANGE(NLA_U32, 1, FATTREE_MAX_LEVELS),
	[FATTREE_A_LINK_SWITCH_NODE] = { .type = NLA_U32, },
	[FATTREE_A_LINK_FAIL] = NLA_POLICY_MAX(NLA_U8, 1),
};

/* FATTREE_CMD_STATS_RESET - do */
static const struct nla_policy fattree_stats_reset_nl_policy[FATTREE_A_FABRIC_NAME + 1] = {
	[FATTREE_A_FABRIC_NAME] = { .type = NLA_NUL_STRING, .len = 7, },
};

/* Ops table for fattree */
const struct genl_split_ops fattree_nl_ops[16] = {
	{
		.cmd		= FATTREE_CMD_INFO_GET,
		.pre_doit	= ft_nl_pre_doit,
		.doit		= fattree_nl_info_get_doit,
		.flags		= GENL_CMD_CAP_DO,
	},
	{
		.cmd		= FATTREE_CMD_FABRIC_NEW,
		.pre_doit	= ft_nl_pre_doit_lock,
		.doit		= fattree_nl_fabric_new_doit,
		.post_doit	= ft_nl_post_doit_unlock,
		.policy		= fattree_fabric_new_nl_policy,
		.maxattr	= FATTREE_A_FABRIC_SAF_GHOSTS,
		.flags		= GENL_ADMIN_PERM | GENL_CMD_CAP_DO,
	},
	{
		.cmd		= FATTREE_CMD_FABRIC_DEL,
		.pre_doit	= ft_nl_pre_doit_lock,
		.doit		= fattree_nl_fabric_del_doit,
		.post_doit	= ft_nl_post_doit_unlock,
		.policy		= fattree_fabric_del_nl_policy,
		.maxattr	= FATTREE_A_FABRIC_NAME,
		.flags		= GENL_ADMIN_PERM | GENL_CMD_CAP_DO,
	},
	{
		.cmd		= FATTREE_CMD_FABRIC_GET,
		.pre_doit	= ft_nl_pre_doit_fabric,
		.doit		= fattree_nl_fabric_get_doit,
		.post_doit	= ft_nl_post_doit_unlock,
		.policy		= fattree_fabric_get_do_nl_policy,
		.maxattr	= FATTREE_A_FABRIC_NAME,
		.flags		= GENL_CMD_CAP_DO,
	},
	{
		.cmd		= FATTREE_CMD_FABRIC_GET,
		.start		= ft_nl_dump_start,
		.dumpit		= fattree_nl_fabric_get_dumpit,
		.policy		= fattree_fabric_get_dump_nl_policy,
		.maxattr	= FATTREE_A_FABRIC_NAME,
		.flags		= GENL_CMD_CAP_DUMP,
	},
	{
		.cmd		= FATTREE_CMD_FABRIC_SET,
		.pre_doit	= ft_nl_pre_doit_fabric,
		.doit		= fattree_nl_fabric_set_doit,
		.post_doit	= ft_nl_post_doit_unlock,
		.policy		= fattree_fabric_set_nl_policy,
		.maxattr	= FATTREE_A_FABRIC_SAF_GHOSTS,
		.flags		= GENL_ADMIN_PERM | GENL_CMD_CAP_DO,
	},
	{
		.cmd		= FATTREE_CMD_FABRIC_STEP,
		.pre_doit	= ft_nl_pre_doit_fabric,
		.doit		= fattree_nl_fabric_step_doit,
		.post_doit	= ft_nl_post_doit_unlock,
		.policy		= fattree_fabric_step_nl_policy,
		.maxattr	= FATTREE_A_FABRIC_STEPS,
		.flags		= GENL_ADMIN_PERM | GENL_CMD_CAP_DO,
	},
	{
		.cmd		= FATTREE_CMD_FABRIC_INJECT,
		.pre_doit	= ft_nl_pre_doit_fabric,
		.doit		= fattree_nl_fabric_inject_doit,
		.post_doit	= ft_nl_post_doit_unlock,
		.policy		= fattree_fabric_inject_nl_policy,
		.maxattr	= FATTREE_A_FABRIC_INJECT,
		.flags		= GENL_ADMIN_PERM | GENL_CMD_CAP_DO,
	},
	{
		.cmd		= FATTREE_CMD_LINK_GET,
		.start		= ft_nl_dump_start,
		.dumpit		= fattree_nl_link_get_dumpit,
		.policy		= fattree_link_get_nl_policy,
		.maxattr	= FATTREE_A_LINK_FABRIC,
		.flags		= GENL_CMD_CAP_DUMP,
	},
	{
		.cmd		= FATTREE_CMD_LEAF_GET,
		.start		= ft_nl_dump_start,
		.dumpit		= fattree_nl_leaf_get_dumpit,
		.policy		= fattree_leaf_get_nl_policy,
		.maxattr	= FATTREE_A_LEAF_FABRIC,
		.flags		= GENL_CMD_CAP_DUMP,
	},
	{
		.cmd		= FATTREE_CMD_CIRCUIT_ADD,
		.pre_doit	= ft_nl_pre_doit_fabric,
		.doit		= fattree_nl_circuit_add_doit,
		.post_doit	= ft_nl_post_doit_unlock,
		.policy		= fattree_circuit_add_nl_policy,
		.maxattr	= FATTREE_A_CIRCUIT_ENTRY,
		.flags		= GENL_ADMIN_PERM | GENL_CMD_CAP_DO,
	},
	{
		.cmd		= FATTREE_CMD_CIRCUIT_DEL,
		.pre_doit	= ft_nl_pre_doit_fabric,
		.doit		= fattree_nl_circuit_del_doit,
		.post_doit	= ft_nl_post_doit_unlock,
		.policy		= fattree_circuit_del_nl_policy,
		.maxattr	= FATTREE_A_CIRCUIT_PAIR,
		.flags		= GENL_ADMIN_PERM | GENL_CMD_CAP_DO,
	},
	{
		.cmd		= FATTREE_CMD_CIRCUIT_GET,
		.start		= ft_nl_dump_start,
		.dumpit		= fattree_nl_circuit_get_dumpit,
		.policy		= fattree_circuit_get_nl_policy,
		.maxattr	= FATTREE_A_CIRCUIT_FABRIC,
		.flags		= GENL_CMD_CAP_DUMP,
	},
	{
		.cmd		= FATTREE_CMD_DEMAND_GET,
		.start		= ft_nl_dump_start,
		.dumpit		= fattree_nl_demand_get_dumpit,
		.policy		= fattree_demand_get_nl_policy,
		.maxattr	= FATTREE_A_DEMAND_FABRIC,
		.flags		= GENL_UNS_ADMIN_PERM | GENL_CMD_CAP_DUMP,
	},
	{
		.cmd		= FATTREE_CMD_LINK_SET,
		.pre_doit	= ft_nl_pre_doit_fabric,
		.doit		= fattree_nl_link_set_doit,
		.post_doit	= ft_nl_post_doit_unlock,
		.policy		= fattree_link_set_nl_policy,
		.maxattr	= FATTREE_A_LINK_FAIL,
		.flags		= GENL_ADMIN_PERM | GENL_CMD_CAP_DO,
	},
	{
		.cmd		= FATTREE_CMD_STATS_RESET,
		.pre_doit	= ft_nl_pre_doit_fabric,
		.doit		= fattree_nl_stats_reset_doit,
		.post_doit	= ft_nl_post_doit_unlock,
		.policy		= fattree_stats_reset_nl_policy,
		.maxattr	= FATTREE_A_FABRIC_NAME,
		.flags		= GENL_ADMIN_PERM | GENL_CMD_CAP_DO,
	},
};

static const struct genl_multicast_group fattree_nl_mcgrps[] = {
	[FATTREE_NLGRP_DEMAND] = { "demand", },
};
