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
 * The operation a family's pre_doit and post_doit are handed: a struct
 * genl_ops up to 6.1, a struct genl_split_ops from 6.2 on, when generic
 * netlink split each op into its do and dump halves. Both carry the op's
 * internal_flags.
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 2, 0)
#define ft_compat_genl_op	genl_split_ops
#else
#define ft_compat_genl_op	genl_ops
#endif

#endif /* _FATTREE_COMPAT_H */
