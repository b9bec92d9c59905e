/* SPDX-License-Identifier: ((GPL-2.0 WITH Linux-syscall-note) OR BSD-3-Clause) */
/*
 * fattree: what rtnetlink says of a leaf device. A leaf's IFLA_LINKINFO
 * has IFLA_INFO_KIND "fattree" and, under IFLA_INFO_DATA, the attributes
 * below (`ip -d link show` prints the kind; a netlink library decodes the
 * rest). The fabric itself is driven over generic netlink (linux/fattree.h).
 */
#ifndef _UAPI_LINUX_IF_FATTREE_H
#define _UAPI_LINUX_IF_FATTREE_H

#define FATTREE_LINK_KIND	"fattree"

enum {
	IFLA_FATTREE_UNSPEC,
	IFLA_FATTREE_FABRIC,		/* string: the fabric's name */
	IFLA_FATTREE_FABRIC_ID,		/* u32: its id, bytes 1-2 of the MAC */
	IFLA_FATTREE_LEAF,		/* u32: the leaf's index in the fabric */
	__IFLA_FATTREE_MAX
};

#define IFLA_FATTREE_MAX	(__IFLA_FATTREE_MAX - 1)

#endif /* _UAPI_LINUX_IF_FATTREE_H */
