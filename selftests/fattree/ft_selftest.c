// SPDX-License-Identifier: GPL-2.0
/* Helpers shared by the fattree selftests: the module under test. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "ft_selftest.h"

const char *ft_module_path(void)
{
	const char *p = getenv("FATTREE_KO");

	return p && *p ? p : "./fattree.ko";
}

bool ft_module_loaded(void)
{
	return access("/sys/module/fattree", F_OK) == 0;
}

int ft_module_load(const char *params)
{
	int fd, ret;

	fd = open(ft_module_path(), O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	ret = syscall(SYS_finit_module, fd, params ? params : "", 0);
	ret = ret ? -errno : 0;
	close(fd);
	return ret;
}

int ft_module_unload(void)
{
	return syscall(SYS_delete_module, "fattree", O_NONBLOCK) ? -errno : 0;
}

int ft_module_ensure(void)
{
	int err;

	if (ft_module_loaded())
		return 0;
	err = ft_module_load(NULL);
	return err == -EEXIST ? 0 : err;
}

int ft_sysfs_str(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");

	if (!f)
		return -errno;
	if (!fgets(buf, (int)len, f)) {
		fclose(f);
		return -EIO;
	}
	fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

long long ft_sysfs_num(const char *path)
{
	char buf[64], *end;
	long long v;

	if (ft_sysfs_str(path, buf, sizeof(buf)))
		return -1;
	v = strtoll(buf, &end, 0);
	return *end ? -1 : v;
}
