/* SPDX-License-Identifier: ((GPL-2.0 WITH Linux-syscall-note) OR BSD-3-Clause) */
/*
 * fattree: the user/kernel contract of the fat-tree fabric emulator.
 *
 * The generic netlink family is described in uapi/fattree.yaml; keep the
 * two in step.
 */
#ifndef _UAPI_LINUX_FATTREE_H
#define _UAPI_LINUX_FATTREE_H

#define FATTREE_GENL_NAME	"fattree"
#define FATTREE_GENL_VERSION	1

/* Attributes of FATTREE_CMD_INFO_GET replies: the module and its limits. */
enum {
	FATTREE_A_INFO_UNSPEC,
	FATTREE_A_INFO_VERSION,		/* string: module version */
	FATTREE_A_INFO_GENL_VERSION,	/* u32: FATTREE_GENL_VERSION */
	FATTREE_A_INFO_MAX_FABRICS,	/* u32: fabrics per network namespace */
	FATTREE_A_INFO_MAX_LEAVES,	/* u32: leaves in one fabric */
	FATTREE_A_INFO_MAX_LEVELS,	/* u32: switch levels h in one fabric */
	FATTREE_A_INFO_MAX_LANES,	/* u32: lanes on one directed link */

	__FATTREE_A_INFO_MAX,
	FATTREE_A_INFO_MAX = __FATTREE_A_INFO_MAX - 1
};

enum {
	FATTREE_CMD_UNSPEC,
	FATTREE_CMD_INFO_GET,		/* read: module version and limits */

	__FATTREE_CMD_MAX,
	FATTREE_CMD_MAX = __FATTREE_CMD_MAX - 1
};

#endif /* _UAPI_LINUX_FATTREE_H */
