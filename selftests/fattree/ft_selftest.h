/* SPDX-License-Identifier: GPL-2.0 */
/* Helpers shared by the fattree selftests: the module under test. */
#ifndef FT_SELFTEST_H
#define FT_SELFTEST_H

#include <stdbool.h>
#include <stdint.h>

/* fattree.ko beside the test program, or $FATTREE_KO. */
const char *ft_module_path(void);
bool ft_module_loaded(void);
/* 0 or -errno of finit_module(2) / delete_module(2). */
int ft_module_load(const char *params);
int ft_module_unload(void);
/* Load the module unless it is loaded already. */
int ft_module_ensure(void);
/* A number from sysfs, or -1. */
long long ft_sysfs_num(const char *path);
/* The first line of a sysfs file into @buf, or -errno. */
int ft_sysfs_str(const char *path, char *buf, size_t len);

#endif /* FT_SELFTEST_H */
