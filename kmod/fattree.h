/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fattree: types shared by the files of the fattree module.
 */
#ifndef _FATTREE_H
#define _FATTREE_H

#include <linux/types.h>

#define FATTREE_VERSION		"0.1.0"

/* Hard ceilings; the module parameters may only lower them. */
#define FATTREE_HARD_MAX_FABRICS	1024
#define FATTREE_HARD_MAX_LEAVES		65536
#define FATTREE_HARD_MAX_LEVELS		8
#define FATTREE_HARD_MAX_LANES		65535

/* Limits in force, fixed at module load (the parameters are read-only). */
struct ft_limits {
	u32 max_fabrics;
	u32 max_leaves;
	u32 max_levels;
	u32 max_lanes;
};

extern struct ft_limits ft_limits;

int ft_genl_init(void);
void ft_genl_exit(void);

#endif /* _FATTREE_H */
