/* SPDX-License-Identifier: ((GPL-2.0 WITH Linux-syscall-note) OR BSD-3-Clause) */
/* Do not edit directly, auto-generated from: */
/*	uapi/fattree.yaml */
/* YNL-GEN kernel header */

#ifndef _LINUX_FATTREE_GEN_H
#define _LINUX_FATTREE_GEN_H

#include <net/netlink.h>
#include <net/genetlink.h>

#include <uapi/linux/fattree.h>

/* Ops table for fattree */
extern const struct genl_split_ops fattree_nl_ops[16];

int ft_nl_pre_doit(const struct genl_split_ops *ops, struct sk_buff *skb,
		   struct genl_info *info);
int ft_nl_pre_doit_lock(const struct genl_split_ops *ops, struct sk_buff *skb,
			struct genl_info *info);
int ft_nl_pre_doit_fabric(const struct genl_split_ops *ops,
			  struct sk_buff *skb, struct genl_info *info);
void
ft_nl_post_doit_unlock(const struct genl_split_ops *ops, struct sk_buff *skb,
		       struct genl_info *info);
int ft_nl_dump_start(struct netlink_callback *cb);

int fattree_nl_info_get_doit(struct sk_buff *skb, struct genl_info *info);
int fattree_nl_fabric_new_doit(struct sk_buff *skb, struct genl_info *info);
int fattree_nl_fabric_del_doit(struct sk_buff *skb, struct genl_info *info);
int fattree_nl_fabric_get_doit(struct sk_buff *skb, struct genl_info *info);
int fattree_nl_fabric_get_dumpit(struct sk_buff *skb,
				 struct netlink_callback *cb);
int fattree_nl_fabric_set_doit(struct sk_buff *skb, struct genl_info *info);
int fattree_nl_fabric_step_doit(struct sk_buff *skb, struct genl_info *info);
int fattree_nl_fabric_inject_doit(struct sk_buff *skb, struct genl_info *info);
int fattree_nl_link_get_dumpit(struct sk_buff *skb,
			       struct netlink_callback *cb);
int fattree_nl_leaf_get_dumpit(struct sk_buff *skb,
			       struct netlink_callback *cb);
int fattree_nl_circuit_add_doit(struct sk_buff *skb, struct genl_info *info);
int fattree_nl_circuit_del_doit(struct sk_buff *skb, struct genl_info *info);
int fattree_nl_circuit_get_dumpit(struct sk_buff *skb,
				  struct netlink_callback *cb);
int fattree_nl_demand_get_dumpit(struct sk_buff *skb,
				 struct netlink_callback *cb);
int fattree_nl_link_set_doit(struct sk_buff *skb, struct genl_info *info);
int fattree_nl_stats_reset_doit(struct sk_buff *skb, struct genl_info *info);

enum {
	FATTREE_NLGRP_DEMAND,
};

#endif /* _LINUX_FATTREE_GEN_H */
