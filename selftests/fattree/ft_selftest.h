/* SPDX-License-Identifier: GPL-2.0 */
/* Helpers shared by the fattree selftests: the module under test. */
#ifndef FT_SELFTEST_H
#define FT_SELFTEST_H

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/types.h>

/*
 * The harness kills a test after 30 s unless told otherwise. Under
 * software emulation on a busy 2-core host a test that takes a second on
 * hardware can take a minute (module loads, namespace set-up), so every
 * test gets 300 s; the suite's settings file still bounds each program.
 * Included after kselftest_harness.h, before the first TEST().
 */
#ifdef TEST_TIMEOUT_DEFAULT
#undef TEST_TIMEOUT_DEFAULT
#define TEST_TIMEOUT_DEFAULT 300
#endif

/* fattree.ko beside the test program, or $FATTREE_KO. */
const char *ft_module_path(void);
bool ft_module_loaded(void);
/* 0 or -errno of finit_module(2) / delete_module(2). */
int ft_module_load(const char *params);
int ft_module_unload(void);
/* Load the module unless it is loaded already. */
int ft_module_ensure(void);
/*
 * TEST_HARNESS_MAIN, with every test's timeout (300 s, above, unless TEST_F_TIMEOUT
 * says otherwise) multiplied by $FT_TIMEOUT_SCALE, a whole number (default
 * 1): the debug kernel lane (scripts/check-debug) runs the suite many times
 * slower, under KASAN, lockdep and kmemleak in an emulated machine.
 *
 * The harness's own TEST_HARNESS_MAIN is expanded, so each kernel's
 * harness keeps its main() (6.1's adds a constructor that 6.12's no longer
 * needs); only its call of test_harness_run() is redirected, by the
 * #define below, to ft_harness_run(), which scales the timeouts first. It
 * reads the fixture list and each test's timeout: the harness's data,
 * the same in 6.1's and 6.12's kselftest_harness.h.
 * Defined only where kselftest_harness.h was included first.
 */
#ifdef TEST_HARNESS_MAIN
static inline int ft_harness_run(int argc, char **argv)
{
	const char *e = getenv("FT_TIMEOUT_SCALE");
	int scale = e ? atoi(e) : 1;
	struct __fixture_metadata *f;
	struct __test_metadata *t;

	for (f = __fixture_list; scale > 1 && f; f = f->next)
		for (t = f->tests; t; t = t->next)
			t->timeout *= scale;
	return test_harness_run(argc, argv);
}
#define test_harness_run ft_harness_run
#define FT_HARNESS_MAIN TEST_HARNESS_MAIN
#endif

/* A number from sysfs, or -1. */
long long ft_sysfs_num(const char *path);
/* The first line of a sysfs file into @buf, or -errno. */
int ft_sysfs_str(const char *path, char *buf, size_t len);

/* What the kernel holds, after dropping caches and flushing per-CPU slabs. */
struct ft_mem {
	long long slab;		/* bytes of slab objects in use */
	long long vmalloc;	/* VmallocUsed, bytes */
};
int ft_mem_snapshot(struct ft_mem *m);
/*
 * The most VmallocUsed may differ between two snapshots with nothing
 * leaked: the kernel keeps up to two freed thread stacks per CPU (vmap
 * stacks of 16 KiB, 32 KiB under KASAN) for its next threads, and the
 * test's processes and the kernel's workers come and go.
 */
long long ft_mem_vmalloc_slack(void);
/* Pages the kernel has allocated since boot (/proc/vmstat pgalloc_*). */
long long ft_pages_allocated(void);

#endif /* FT_SELFTEST_H */

/* Fabric requests over the fattree family (see fabric_test.c). */
#include "ftnl.h"
#include "ftobj.h"
#include "linux/fattree_structs.h"

struct ft_spec {
	const char *name;
	uint32_t h;
	uint32_t m[8], w[8], lanes[8];
	int profile;		/* -1: none (lanes if set, else constant 1) */
	int path, injection, arbitration;	/* -1: kernel default */
	uint32_t backlog;	/* 0: kernel default */
	/* Store-and-forward mode and its parameters; -1: left out. */
	int mode, saf_q, saf_discipline, saf_ghosts;
	uint64_t period_ns;
	uint64_t seed;
};

struct ft_fabric_info {
	uint32_t leaves, levels, lanes[8];
	uint64_t cycle, queued, delivered, synth_queued, synth_delivered;
	uint64_t drained_cycle, offered, blocked;
	uint64_t failed_links, failure_held, circuits_cut, circuits;
};

/*
 * Fill @s with FT(levels, k): m = (k..k), w = (1, k..k), every optional
 * attribute left to the kernel's default, seed 1.
 */
void ft_spec_kary(struct ft_spec *s, const char *name, uint32_t levels, uint32_t k);
/*
 * Fill @s with Leiserson's binary fat-tree of 2^@levels leaves: m = 2 and
 * w = 1 at every level, capacities doubling towards the root.
 */
void ft_spec_binary(struct ft_spec *s, const char *name, uint32_t levels);
/* The module loaded (ft_module_ensure()) and @nl open on its family. */
int ft_open(struct ftnl *nl);
/*
 * A fixture's teardown: every fabric of this network namespace deleted,
 * whatever the test left, and @nl closed.
 */
void ft_close(struct ftnl *nl);
int ft_fabric_new(struct ftnl *nl, const struct ft_spec *s);
/*
 * A FABRIC_NEW request for fabric @name of shape (@h; @m; @w), for the
 * caller to add more attributes and send; NULL when out of memory.
 */
struct nl_msg *ft_fabric_new_msg(struct ftnl *nl, const char *name, uint32_t h,
				 const uint32_t *m, const uint32_t *w);
int ft_fabric_del(struct ftnl *nl, const char *name);
int ft_fabric_get(struct ftnl *nl, const char *name, struct ft_fabric_info *fi);
int ft_fabric_count(struct ftnl *nl);
/* A reply callback that counts the replies in the int at @arg. */
int ft_count_reply(struct nl_msg *msg, void *arg);

/* The names of this namespace's fabrics, the first FT_NAMES_MAX of them. */
#define FT_NAMES_MAX	16
struct ft_names {
	char name[FT_NAMES_MAX][FATTREE_NAME_LEN];
	int n;
};

/* A FABRIC_GET dump into @nm: 0 or -errno. */
int ft_fabric_names(struct ftnl *nl, struct ft_names *nm);
/* Delete every fabric of this namespace: 0 or the first -errno. */
int ft_fabrics_clear(struct ftnl *nl);
int ft_fabric_step(struct ftnl *nl, const char *name, uint32_t steps);
/* ftnl_batch(), its send buffer then raised past net.core.wmem_max (root may). */
struct nl_msg *ft_batch_big(struct ftnl *nl, uint8_t cmd, int name_type, const char *name,
			    int type, const void *v, uint32_t n, size_t size);
int ft_fabric_inject(struct ftnl *nl, const char *name,
		     const struct fattree_inject_row *rows, uint32_t n);
/*
 * Inject @n rows into fabric @name, step it @steps cycles and read it into
 * @fi: 0, or the -errno of the first of the three that failed.
 */
int ft_fabric_run(struct ftnl *nl, const char *name, const struct fattree_inject_row *rows,
		  uint32_t n, uint32_t steps, struct ft_fabric_info *fi);
/* A fabric's links and circuits: ftobj_links(), ftobj_circuits(). */

/*
 * The kernel's run against userspace's (replay_test.c): @cmd, an ftsim
 * replay, is run; its first line ("cycle C drained D delivered X") is
 * compared with @fi, each "link ..." line with the link of that id in @l
 * (@n links, l[i].id == i; its carried, max_cycle, saturated, blocked).
 * Returns the disagreements, 0 when none, a missing link one of them; -1
 * when @cmd did not run or exit with 0. @why says what differed, the
 * first few, a line each.
 */
int ft_replay_compare(const char *cmd, const struct ft_fabric_info *fi,
		      const struct ftobj_link *l, int n, char *why, size_t len);

/* Circuits and demand (see circuit_test.c). */
/* Admit @n circuits in one request; on a refusal *@bad (if set) is the
 * index of the entry the kernel pointed at, or -1.
 */
int ft_circuit_add(struct ftnl *nl, const char *name, const struct fattree_circuit *c,
		   uint32_t n, int *bad, size_t *msg_bytes);
int ft_circuit_del(struct ftnl *nl, const char *name, const struct fattree_pair *p,
		   uint32_t n);
/* The demand dump into a malloc'd array: the count or -errno. */
int ft_demand(struct ftnl *nl, const char *name, struct fattree_demand **out);
/* Wait for child @pid: its exit status, -1 when it did not exit (a signal). */
int ft_wait_exit(pid_t pid);

/* An optional u32 attribute of a request: left out when @v is negative. */
struct ft_u32_attr {
	int type;
	long long v;
};

/* Put those of the @n attributes @a that are not left out into @msg. */
void ft_put_u32s(struct nl_msg *msg, const struct ft_u32_attr *a, size_t n);

/* Move this process into the network namespace /run/netns/@ns: 0 or -errno. */
int ft_netns_enter(const char *ns);

/*
 * Who a test's child process becomes before its checks run: nobody (uid
 * and gid 65534, no supplementary groups), root without CAP_NET_ADMIN,
 * root of a user namespace of its own, root of a network namespace of its
 * own.
 */
enum ft_child_as {
	FT_AS_NOBODY,
	FT_AS_NO_NET_ADMIN,
	FT_AS_USERNS,
	FT_AS_NETNS,
};

/* What ft_child_run() returns when the child could not become @as. */
#define FT_CHILD_SETUP_FAILED	100

/*
 * Run @checks(@nl, @arg) in a child process that first becomes @as and
 * opens a socket @nl of its own on the family. Returns what @checks
 * returned (0 when every check passed, else a number, below
 * FT_CHILD_SETUP_FAILED, saying which failed), FT_CHILD_SETUP_FAILED when
 * the child could not become @as or open its socket, -1 when the child
 * did not exit (fork failed, or a signal).
 */
int ft_child_run(enum ft_child_as as, int (*checks)(struct ftnl *nl, void *arg), void *arg);
