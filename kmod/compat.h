/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fattree: the kernel interfaces that differ between the kernels the
 * module is built for (Debian 12's 6.1 and 6.12). Every version test of
 * the module is here, and only where the interface itself changed.
 */
#ifndef _FATTREE_COMPAT_H
#define _FATTREE_COMPAT_H

#include <linux/netdevice.h>
#include <linux/version.h>
#include <net/genetlink.h>

/*
 * Lockless transmit: a feature bit up to 6.11, the dev->lltx flag from
 * 6.12 on (commit 00d066a4d4ed, "netdev_features: convert NETIF_F_LLTX
 * to dev->lltx"). Called from the device's setup.
 */
static inline void ft_compat_set_lltx(struct net_device *dev)
{
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 12, 0)
	dev->lltx = true;
#else
	dev->features |= NETIF_F_LLTX;
#endif
}

/*
 * The parsed attributes of a dump request: in struct genl_dumpit_info up
 * to 6.5, in the struct genl_info that genl_info_dump() returns from 6.6
 * on (net-next, August 2023: "genetlink: add struct genl_info to struct
 * genl_dumpit_info", after which the attrs member went away).
 */
static inline struct nlattr **ft_compat_dump_attrs(struct netlink_callback *cb)
{
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 6, 0)
	return genl_info_dump(cb)->attrs;
#else
	return genl_dumpit_info(cb)->attrs;
#endif
}

/*
 * Split ops: from 6.2 on a family may give the do and dump halves of each
 * command as struct genl_split_ops (family->split_ops), each with its own
 * policy and hooks, which is what ynl-gen-c writes (kmod/netlink_gen.c).
 * 6.1 has only struct genl_ops, one per command with one policy, and the
 * family's own pre_doit and post_doit: there the struct is defined here
 * as 6.2 has it, so that the generated table compiles, and
 * netlink_family.c makes 6.1's ops of it at init (FT_COMPAT_SPLIT_OPS 0).
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 2, 0)
#define FT_COMPAT_SPLIT_OPS	1
#else
#define FT_COMPAT_SPLIT_OPS	0

struct genl_split_ops {
	union {
		struct {
			int (*pre_doit)(const struct genl_split_ops *ops,
					struct sk_buff *skb,
					struct genl_info *info);
			int (*doit)(struct sk_buff *skb,
				    struct genl_info *info);
			void (*post_doit)(const struct genl_split_ops *ops,
					  struct sk_buff *skb,
					  struct genl_info *info);
		};
		struct {
			int (*start)(struct netlink_callback *cb);
			int (*dumpit)(struct sk_buff *skb,
				      struct netlink_callback *cb);
			int (*done)(struct netlink_callback *cb);
		};
	};
	const struct nla_policy *policy;
	unsigned int		maxattr;
	u8			cmd;
	u8			internal_flags;
	u8			flags;
	u8			validate;
};

/*
 * 6.1's struct nla_policy points at a full range through a pointer that
 * is not const, 6.12's through a const one, and ynl-gen-c makes the
 * ranges const: cast the qualifier away (the core only reads them).
 */
#undef NLA_POLICY_FULL_RANGE
#define NLA_POLICY_FULL_RANGE(tp, _range) {				\
	.type = NLA_ENSURE_UINT_OR_BINARY_TYPE(tp),			\
	.validation_type = NLA_VALIDATE_RANGE_PTR,			\
	.range = (struct netlink_range_validation *)(_range),		\
}
#endif

/*
 * The CAP_NET_ADMIN check of a multicast group at bind (genl_bind()): in
 * 6.7, and in 6.1's stable series since December 2023. A 6.1 from before
 * has no such flag, and there the groups stay open (fattree(4)).
 */
#ifdef GENL_MCAST_CAP_NET_ADMIN
#define FT_COMPAT_MCAST_ADMIN	GENL_MCAST_CAP_NET_ADMIN
#else
#define FT_COMPAT_MCAST_ADMIN	0
#endif

/*
 * Formatted extended-ack messages (at most 80 bytes, "fattree: " included):
 * from 6.2 on, "netlink: add support for formatted extack messages". 6.1
 * has only constant ones: there @plain, which names the limit without the
 * numbers, is told instead.
 */
#ifdef NL_SET_ERR_MSG_FMT_MOD
#define FT_ERR_MSG_FMT(extack, plain, fmt, ...) \
	NL_SET_ERR_MSG_FMT_MOD(extack, fmt, ##__VA_ARGS__)
#else
#define FT_ERR_MSG_FMT(extack, plain, fmt, ...) \
	NL_SET_ERR_MSG_MOD(extack, plain)
#endif

#endif /* _FATTREE_COMPAT_H */
