// SPDX-License-Identifier: GPL-2.0
/* Helpers shared by the fattree selftests: the module under test. */
#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <grp.h>
#include <inttypes.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include <linux/capability.h>

#include "ft_selftest.h"
#include "ftshape.h"

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

int ft_open(struct ftnl *nl)
{
	int err = ft_module_ensure();

	return err ? err : ftnl_open(nl);
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

static void write_file(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);

	if (fd < 0)
		return;
	if (write(fd, s, strlen(s)) < 0)
		fd = -fd;	/* nothing to do: a cache that cannot shrink */
	close(fd < 0 ? -fd : fd);
}

/*
 * The page cache and reclaimable slabs are dropped and every cache's
 * per-CPU slabs flushed, so that active objects are objects in use.
 */
int ft_mem_snapshot(struct ft_mem *m)
{
	char line[512], name[64];
	long long active, total, size;
	glob_t g;
	size_t i;
	FILE *f;

	write_file("/proc/sys/vm/drop_caches", "3");
	if (!glob("/sys/kernel/slab/*/shrink", 0, NULL, &g)) {
		for (i = 0; i < g.gl_pathc; i++)
			write_file(g.gl_pathv[i], "1");
		globfree(&g);
	}
	memset(m, 0, sizeof(*m));
	f = fopen("/proc/slabinfo", "r");
	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "%63s %lld %lld %lld", name, &active, &total, &size) == 4)
			m->slab += active * size;
	fclose(f);
	f = fopen("/proc/meminfo", "r");
	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "VmallocUsed: %lld kB", &size) == 1)
			m->vmalloc = size * 1024;
	fclose(f);
	return 0;
}

long long ft_mem_vmalloc_slack(void)
{
	long cpus = sysconf(_SC_NPROCESSORS_CONF);

	return 2LL * (cpus > 0 ? cpus : 1) * (32 << 10);
}

long long ft_pages_allocated(void)
{
	char line[256];
	long long v, sum = 0;
	FILE *f = fopen("/proc/vmstat", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, "pgalloc_", 8) && sscanf(strchr(line, ' '), "%lld", &v) == 1)
			sum += v;
	fclose(f);
	return sum;
}

void ft_spec_kary(struct ft_spec *s, const char *name, uint32_t levels, uint32_t k)
{
	struct ft_shape sh;

	ft_shape_kary(&sh, levels, k);
	memset(s, 0, sizeof(*s));
	s->name = name;
	s->h = levels;
	memcpy(s->m, sh.m, levels * sizeof(*s->m));
	memcpy(s->w, sh.w, levels * sizeof(*s->w));
	s->profile = s->path = s->injection = s->arbitration = -1;
	s->mode = s->saf_q = s->saf_discipline = s->saf_ghosts = -1;
	s->seed = 1;
}

void ft_spec_binary(struct ft_spec *s, const char *name, uint32_t levels)
{
	uint32_t i;

	ft_spec_kary(s, name, levels, 2);
	for (i = 0; i < levels; i++)
		s->w[i] = 1;
	s->profile = FATTREE_PROFILE_DOUBLING;
}

void ft_put_u32s(struct nl_msg *msg, const struct ft_u32_attr *a, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (a[i].v >= 0)
			nla_put_u32(msg, a[i].type, a[i].v);
}

struct nl_msg *ft_fabric_new_msg(struct ftnl *nl, const char *name, uint32_t h,
				 const uint32_t *m, const uint32_t *w)
{
	struct nl_msg *msg = ftnl_msg(nl, FATTREE_CMD_FABRIC_NEW, 0);

	if (!msg)
		return NULL;
	nla_put_string(msg, FATTREE_A_FABRIC_NAME, name);
	nla_put_u32(msg, FATTREE_A_FABRIC_LEVELS, h);
	nla_put(msg, FATTREE_A_FABRIC_DOWN, h * 4, m);
	nla_put(msg, FATTREE_A_FABRIC_UP, h * 4, w);
	return msg;
}

int ft_fabric_new(struct ftnl *nl, const struct ft_spec *s)
{
	const struct ft_u32_attr u32s[] = {
		{ FATTREE_A_FABRIC_PROFILE, s->profile },
		{ FATTREE_A_FABRIC_PATH, s->path },
		{ FATTREE_A_FABRIC_INJECTION, s->injection },
		{ FATTREE_A_FABRIC_ARBITRATION, s->arbitration },
		{ FATTREE_A_FABRIC_BACKLOG, s->backlog ? (long long)s->backlog : -1 },
		{ FATTREE_A_FABRIC_MODE, s->mode },
		{ FATTREE_A_FABRIC_SAF_Q, s->saf_q },
		{ FATTREE_A_FABRIC_SAF_DISCIPLINE, s->saf_discipline },
		{ FATTREE_A_FABRIC_SAF_GHOSTS, s->saf_ghosts },
	};
	struct nl_msg *msg = ft_fabric_new_msg(nl, s->name, s->h, s->m, s->w);

	if (!msg)
		return -ENOMEM;
	if (s->lanes[0])
		nla_put(msg, FATTREE_A_FABRIC_LANES, s->h * 4, s->lanes);
	ft_put_u32s(msg, u32s, sizeof(u32s) / sizeof(u32s[0]));
	if (s->period_ns)
		nla_put_u64(msg, FATTREE_A_FABRIC_PERIOD_NS, s->period_ns);
	nla_put_u64(msg, FATTREE_A_FABRIC_SEED, s->seed);
	return ftnl_transact(nl, msg, NULL, NULL);
}

static struct nl_msg *ft_named(struct ftnl *nl, uint8_t cmd, const char *name)
{
	struct nl_msg *msg = ftnl_msg(nl, cmd, 0);

	if (msg && name)
		nla_put_string(msg, FATTREE_A_FABRIC_NAME, name);
	return msg;
}

int ft_fabric_del(struct ftnl *nl, const char *name)
{
	return ftnl_transact(nl, ft_named(nl, FATTREE_CMD_FABRIC_DEL, name), NULL, NULL);
}

static int ft_fabric_reply(struct nl_msg *msg, void *arg)
{
	struct ft_fabric_info *fi = arg;
	struct ftobj_fabric f;
	const uint64_t *st = f.stats.v;
	int err;

	err = ftobj_fabric_decode(msg, &f);
	if (err)
		return err;
	memset(fi, 0, sizeof(*fi));
	fi->leaves = f.leaves;
	fi->levels = f.levels;
	memcpy(fi->lanes, f.lanes, (f.nlanes < 8 ? f.nlanes : 8) * sizeof(*f.lanes));
	fi->cycle = f.cycle;
	fi->queued = st[FATTREE_A_STATS_QUEUED];
	fi->delivered = st[FATTREE_A_STATS_DELIVERED];
	fi->offered = st[FATTREE_A_STATS_OFFERED];
	fi->blocked = st[FATTREE_A_STATS_BLOCKED];
	fi->synth_queued = st[FATTREE_A_STATS_SYNTH_QUEUED];
	fi->synth_delivered = st[FATTREE_A_STATS_SYNTH_DELIVERED];
	fi->drained_cycle = st[FATTREE_A_STATS_DRAINED_CYCLE];
	fi->failed_links = st[FATTREE_A_STATS_FAILED_LINKS];
	fi->failure_held = st[FATTREE_A_STATS_FAILURE_HELD];
	fi->circuits_cut = st[FATTREE_A_STATS_CIRCUITS_CUT];
	fi->circuits = st[FATTREE_A_STATS_CIRCUITS];
	return 0;
}

int ft_fabric_get(struct ftnl *nl, const char *name, struct ft_fabric_info *fi)
{
	return ftnl_transact(nl, ft_named(nl, FATTREE_CMD_FABRIC_GET, name),
			     ft_fabric_reply, fi);
}

int ft_count_reply(struct nl_msg *msg, void *arg)
{
	(void)msg;
	(*(int *)arg)++;
	return 0;
}

int ft_fabric_count(struct ftnl *nl)
{
	int n = 0, err;

	err = ftnl_transact(nl, ftnl_msg(nl, FATTREE_CMD_FABRIC_GET, NLM_F_DUMP),
			    ft_count_reply, &n);
	return err ? err : n;
}

static int ft_names_reply(struct nl_msg *msg, void *arg)
{
	struct ft_names *nm = arg;
	struct ftobj_fabric f;

	if (ftobj_fabric_decode(msg, &f))
		return -EPROTO;
	if (nm->n < FT_NAMES_MAX)
		snprintf(nm->name[nm->n++], FATTREE_NAME_LEN, "%s", f.name);
	return 0;
}

int ft_fabric_names(struct ftnl *nl, struct ft_names *nm)
{
	nm->n = 0;
	return ftnl_transact(nl, ftnl_msg(nl, FATTREE_CMD_FABRIC_GET, NLM_F_DUMP),
			     ft_names_reply, nm);
}

int ft_fabrics_clear(struct ftnl *nl)
{
	struct ft_names nm;
	int i, err;

	/* A dump names FT_NAMES_MAX at most: again until it names fewer. */
	do {
		err = ft_fabric_names(nl, &nm);
		for (i = 0; !err && i < nm.n; i++)
			err = ft_fabric_del(nl, nm.name[i]);
	} while (!err && nm.n == FT_NAMES_MAX);
	return err;
}

void ft_close(struct ftnl *nl)
{
	ft_fabrics_clear(nl);
	ftnl_close(nl);
}

int ft_fabric_step(struct ftnl *nl, const char *name, uint32_t steps)
{
	struct nl_msg *msg = ft_named(nl, FATTREE_CMD_FABRIC_STEP, name);

	if (!msg)
		return -ENOMEM;
	nla_put_u32(msg, FATTREE_A_FABRIC_STEPS, steps);
	return ftnl_transact(nl, msg, NULL, NULL);
}

struct nl_msg *ft_batch_big(struct ftnl *nl, uint8_t cmd, int name_type, const char *name,
			    int type, const void *v, uint32_t n, size_t size)
{
	/* After ftnl_batch(), which sets the buffer within wmem_max. */
	struct nl_msg *msg = ftnl_batch(nl, cmd, name_type, name, type, v, n, size);
	int big = 64 << 20;

	setsockopt(nl_socket_get_fd(nl->sk), SOL_SOCKET, SO_SNDBUFFORCE, &big, sizeof(big));
	return msg;
}

int ft_fabric_inject(struct ftnl *nl, const char *name,
		     const struct fattree_inject_row *rows, uint32_t n)
{
	struct nl_msg *msg = ftnl_batch(nl, FATTREE_CMD_FABRIC_INJECT, FATTREE_A_FABRIC_NAME,
					name, FATTREE_A_FABRIC_INJECT, rows, n, sizeof(*rows));

	return msg ? ftnl_transact(nl, msg, NULL, NULL) : -ENOMEM;
}

int ft_fabric_run(struct ftnl *nl, const char *name, const struct fattree_inject_row *rows,
		  uint32_t n, uint32_t steps, struct ft_fabric_info *fi)
{
	int err = ft_fabric_inject(nl, name, rows, n);

	err = err ?: ft_fabric_step(nl, name, steps);
	return err ?: ft_fabric_get(nl, name, fi);
}

int ft_circuit_add(struct ftnl *nl, const char *name, const struct fattree_circuit *c,
		   uint32_t n, int *bad, size_t *msg_bytes)
{
	struct nl_msg *msg = ftnl_batch(nl, FATTREE_CMD_CIRCUIT_ADD, FATTREE_A_CIRCUIT_FABRIC,
					name, FATTREE_A_CIRCUIT_ENTRY, c, n, sizeof(*c));
	struct nlattr *a;
	char *base;
	int err, rem, k = 0;

	if (!msg)
		return -ENOMEM;
	if (msg_bytes)
		*msg_bytes = nlmsg_hdr(msg)->nlmsg_len;
	/* Where each entry sits, to map the kernel's offset back to it. */
	base = (char *)nlmsg_hdr(msg);
	if (bad)
		*bad = -1;
	{
		int off_first[64], cnt[64], na = 0;

		nla_for_each_attr(a, genlmsg_attrdata(nlmsg_data(nlmsg_hdr(msg)), 0),
				  genlmsg_attrlen(nlmsg_data(nlmsg_hdr(msg)), 0), rem) {
			if (nla_type(a) != FATTREE_A_CIRCUIT_ENTRY || na == 64)
				continue;
			off_first[na] = (char *)nla_data(a) - base;
			cnt[na++] = nla_len(a) / sizeof(*c);
		}
		err = ftnl_transact(nl, msg, NULL, NULL);
		if (err && bad && nl->err_offset >= 0) {
			for (int i = 0; i < na; i++) {
				int rel = nl->err_offset - off_first[i];

				if (rel >= 0 && rel < cnt[i] * (int)sizeof(*c)) {
					*bad = k + rel / (int)sizeof(*c);
					break;
				}
				k += cnt[i];
			}
		}
	}
	return err;
}

int ft_circuit_del(struct ftnl *nl, const char *name, const struct fattree_pair *p,
		   uint32_t n)
{
	struct nl_msg *msg = ftnl_batch(nl, FATTREE_CMD_CIRCUIT_DEL, FATTREE_A_CIRCUIT_FABRIC,
					name, FATTREE_A_CIRCUIT_PAIR, p, n, sizeof(*p));

	return msg ? ftnl_transact(nl, msg, NULL, NULL) : -ENOMEM;
}

int ft_demand(struct ftnl *nl, const char *name, struct fattree_demand **out)
{
	return ftnl_demand(nl, name, out);
}

int ft_wait_exit(pid_t pid)
{
	int status;

	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

int ft_netns_enter(const char *ns)
{
	char path[128];
	int fd, err;

	snprintf(path, sizeof(path), "/run/netns/%s", ns);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	err = setns(fd, CLONE_NEWNET) ? -errno : 0;
	close(fd);
	return err;
}

/* Drop CAP_NET_ADMIN from the effective and permitted sets. */
static int drop_net_admin(void)
{
	struct __user_cap_header_struct h = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct d[2];
	uint32_t bit = 1U << (CAP_NET_ADMIN % 32);

	if (syscall(SYS_capget, &h, d))
		return -1;
	d[CAP_NET_ADMIN / 32].effective &= ~bit;
	d[CAP_NET_ADMIN / 32].permitted &= ~bit;
	return syscall(SYS_capset, &h, d) ? -1 : 0;
}

static int become(enum ft_child_as as)
{
	switch (as) {
	case FT_AS_NOBODY:
		return setgroups(0, NULL) || setgid(65534) || setuid(65534) ? -1 : 0;
	case FT_AS_NO_NET_ADMIN:
		return drop_net_admin();
	case FT_AS_USERNS:
		return unshare(CLONE_NEWUSER);
	case FT_AS_NETNS:
		return unshare(CLONE_NEWNET);
	}
	return -1;
}

int ft_child_run(enum ft_child_as as, int (*checks)(struct ftnl *nl, void *arg), void *arg)
{
	struct ftnl nl;
	pid_t pid = fork();
	int ret;

	if (pid < 0)
		return -1;
	if (pid)
		return ft_wait_exit(pid);
	if (become(as) || ftnl_open(&nl))
		_exit(FT_CHILD_SETUP_FAILED);
	ret = checks(&nl, arg);
	ftnl_close(&nl);
	_exit(ret);
}

int ft_replay_compare(const char *cmd, const struct ft_fabric_info *fi,
		      const struct ftobj_link *l, int n, char *why, size_t len)
{
	uint64_t cycle, drained, delivered, carried, saturated, blocked;
	int seen = 0, bad = 0, status;
	char line[256];
	size_t off = 0;
	unsigned int id, max;
	FILE *p = popen(cmd, "r");

	why[0] = '\0';
	if (!p)
		return -1;
	if (!fgets(line, sizeof(line), p) ||
	    sscanf(line, "cycle %" SCNu64 " drained %" SCNu64 " delivered %" SCNu64,
		   &cycle, &drained, &delivered) != 3) {
		pclose(p);
		snprintf(why, len, "no first line from: %s", cmd);
		return -1;
	}
	if (fi->cycle != cycle || fi->drained_cycle != drained ||
	    fi->synth_delivered != delivered) {
		bad++;
		off += snprintf(why + off, len - off,
				"cycle/drained/delivered: kernel %" PRIu64 "/%" PRIu64 "/%" PRIu64
				" userspace %" PRIu64 "/%" PRIu64 "/%" PRIu64 "\n",
				fi->cycle, fi->drained_cycle, fi->synth_delivered,
				cycle, drained, delivered);
	}
	while (fgets(line, sizeof(line), p)) {
		if (sscanf(line, "link %u carried %" SCNu64 " max %u saturated %" SCNu64
			   " blocked %" SCNu64, &id, &carried, &max, &saturated, &blocked) != 5)
			continue;
		seen++;
		if ((int)id < n && l[id].id == id && l[id].carried == carried &&
		    l[id].max_cycle == max && l[id].saturated == saturated &&
		    l[id].blocked == blocked)
			continue;
		if (bad++ < 5 && off < len && (int)id < n)
			off += snprintf(why + off, len - off,
					"link %u: kernel %" PRIu64 "/%u/%" PRIu64 "/%" PRIu64
					" userspace %" PRIu64 "/%u/%" PRIu64 "/%" PRIu64 "\n", id,
					l[id].carried, l[id].max_cycle, l[id].saturated,
					l[id].blocked, carried, max, saturated, blocked);
	}
	status = pclose(p);
	if (seen != n && off < len) {
		bad++;
		snprintf(why + off, len - off, "%d links from userspace, %d in the kernel\n",
			 seen, n);
	}
	return status ? -1 : bad;
}
