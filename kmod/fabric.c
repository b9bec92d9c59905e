// SPDX-License-Identifier: GPL-2.0
/*
 * fattree: fabrics, their lifetime and their namespaces.
 *
 * Each network namespace holds its own list of fabrics; a fabric is found
 * by name in the namespace of the request. Every limit is checked before
 * anything is allocated.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/idr.h>
#include <linux/kthread.h>
#include <linux/random.h>
#include <linux/rtnetlink.h>
#include <linux/slab.h>
#include <net/net_namespace.h>
#include <net/netns/generic.h>

#include "compat.h"
#include "fattree.h"

struct ft_net {
	struct mutex lock;		/* the list and every fabric on it */
	struct list_head fabrics;
	u32 nfabrics;
};

/*
 * How long one hold of rtnl may unregister leaves for: the batch size
 * follows what a batch took, between FT_UNREG_BATCH_MIN and
 * FT_UNREG_BATCH_MAX leaves. Below the minimum a batch costs about the
 * same (its RCU grace periods dominate: under the debug kernel one leaf
 * a batch still held rtnl up to 449 ms, and deleting 4,096 leaves took
 * 224 s), so smaller batches would only make a deletion longer.
 */
#define FT_UNREG_HOLD_NS	(25 * NSEC_PER_MSEC)
#define FT_UNREG_BATCH_MIN	8
#define FT_UNREG_BATCH_MAX	256

static unsigned int ft_net_id __read_mostly;
static DEFINE_IDA(ft_fab_ida);

static struct ft_net *ft_net(struct net *net)
{
	return net_generic(net, ft_net_id);
}

struct mutex *ft_net_lock(struct net *net)
{
	return &ft_net(net)->lock;
}

struct list_head *ft_net_fabrics(struct net *net)
{
	return &ft_net(net)->fabrics;
}

struct ft_fab *ft_fab_find(struct net *net, const char *name)
{
	struct ft_fab *fab;

	lockdep_assert_held(ft_net_lock(net));
	list_for_each_entry(fab, ft_net_fabrics(net), node)
		if (!strcmp(fab->name, name))
			return fab;
	return NULL;
}

/*
 * Pairs synthetic message sets may take, apart from the packets' pairs:
 * never more than the n^2 (source, destination) pairs there are, so that
 * a small fabric does not carry a pool of 65,536 pairs it cannot fill.
 */
static u32 ft_fab_synth_pairs(u32 n)
{
	return min_t(u64, (u64)n * n, ft_fab_inject_rows_max(n));
}

/*
 * Pairs that can be waiting at once: a leaf holds at most @backlog packets
 * (the transmit path refuses more), so it has at most that many pairs, and
 * never more than there are leaves to send to; plus the synthetic sets'
 * share. The pool is that size exactly: a packet never finds it full. A
 * shape whose pairs would pass FT_PAIRS_MAX is refused, not clamped.
 */
static u64 ft_fab_pair_cap(u32 n, u32 backlog)
{
	return (u64)n * min(backlog, n) + ft_fab_synth_pairs(n);
}

/*
 * Circuits a fabric can hold at once: several permutations' worth, and no
 * more than the n^2 pairs a circuit each can have.
 */
static u32 ft_fab_circuit_cap(u32 n)
{
	return min3((u64)max_t(u32, 8 * n, 4096), (u64)n * n,
		    (u64)FT_CIRCUITS_MAX);
}

/* Control-class frames the fabric may hold in receive queues (leaf.c). */
static u32 ft_fab_control_max(u32 n)
{
	return max_t(u32, FT_CONTROL_MIN, FT_CONTROL_PER_LEAF * n);
}

/*
 * What one leaf device costs the kernel besides the module's tables: the
 * net_device and its private part, its queues, its sysfs directory, IPv4
 * and IPv6 per-device state, its qdisc. Measured on Debian's 6.1 (4,096
 * leaves against 16, backlog 1, leaves down, MemFree): 46 KiB per leaf in
 * all, of which the module's own per-leaf tables are a few hundred bytes.
 */
#define FT_LEAF_KERNEL_BYTES	(44 * 1024)

/*
 * Bytes a fabric of this shape will allocate, leaves' devices included, and
 * the heads of the control-class clones it may hold (their data is shared).
 */
static u64 ft_fab_mem_estimate(const struct ft_topo *t, u32 max_msgs, u64 pairs)
{
	u64 dlinks = ft_topo_dlinks(t);

	return dlinks * (sizeof(struct ft_link) + sizeof(struct ft_link_hot) +
			 sizeof(struct ft_link_stats)) +
	       ft_cycle_scratch_size(t, max_msgs) +
	       ft_pairs_mem_size(pairs) + pairs * sizeof(struct sk_buff_head) +
	       ft_circuits_mem_size(ft_fab_circuit_cap(t->n)) +
	       FT_DEMAND_MAX * sizeof(struct ft_pairs_demand) +
	       (u64)t->n * (FT_LEAF_KERNEL_BYTES + 2 * sizeof(void *) + 1) +
	       FT_FDB_SETS * FT_FDB_WAYS * sizeof(struct ft_fdb_entry) +
	       (u64)ft_fab_control_max(t->n) * SKB_DATA_ALIGN(sizeof(struct sk_buff));
}

/*
 * The shape itself, before a profile is fitted to it, so that a refusal
 * names the limit it meets (not the capacity profile, which the engine's
 * own bounds on the shape refuse first): the levels against max_levels,
 * each level's m and w against their ranges, the leaves against
 * max_leaves (the product stops past U32_MAX, before it can overflow),
 * and the product of the w against the engine's FT_MAX_DLINKS. The
 * leaves go to *@leaves.
 */
static int ft_fab_check_shape(const struct ft_fab_params *p, u64 *leaves,
			      struct netlink_ext_ack *extack)
{
	u32 h = p->core.h, i;
	u64 n = 1, wp = 1;

	if (h > ft_limits.max_levels) {
		FT_ERR_MSG_FMT(extack,
			       "more levels than max_levels allows (ftctl info)",
			       "%u levels, more than max_levels %u allows",
			       h, ft_limits.max_levels);
		return -E2BIG;
	}
	for (i = 0; i < h; i++) {
		if (p->core.m[i] < 2 || p->core.m[i] > FT_MAX_M) {
			FT_ERR_MSG_FMT(extack,
				       "children per switch (m, kary's K) must be 2 to 65536",
				       "level %u: %u children per switch (m), need 2 to %u",
				       i + 1, p->core.m[i], FT_MAX_M);
			return -EINVAL;
		}
		if (!p->core.w[i] || p->core.w[i] > FT_MAX_W) {
			FT_ERR_MSG_FMT(extack,
				       "parents per node (w) must be 1 to 256",
				       "level %u: %u parents per node (w), need 1 to %u",
				       i + 1, p->core.w[i], FT_MAX_W);
			return -EINVAL;
		}
	}
	for (i = 0; i < h && n <= U32_MAX; i++)	/* m <= 2^16: n < 2^48 */
		n *= p->core.m[i];
	if (n > ft_limits.max_leaves) {
		if (i < h)	/* not multiplied out: at least n */
			FT_ERR_MSG_FMT(extack,
				       "more leaves than max_leaves allows (ftctl info)",
				       "over %llu leaves, more than max_leaves %u allows",
				       n, ft_limits.max_leaves);
		else
			FT_ERR_MSG_FMT(extack,
				       "more leaves than max_leaves allows (ftctl info)",
				       "%llu leaves, more than max_leaves %u allows",
				       n, ft_limits.max_leaves);
		return -E2BIG;
	}
	for (i = 0; i < h && wp <= FT_MAX_DLINKS; i++)
		wp *= p->core.w[i];
	if (wp > FT_MAX_DLINKS) {
		NL_SET_ERR_MSG_MOD(extack,
				   "the parents per node (w1 * ... * wH) pass the engine's 2^24 nodes");
		return -EINVAL;
	}
	*leaves = n;
	return 0;
}

/* Why ft_profile_lanes() refused a shape that ft_fab_check_shape() took. */
static void ft_fab_profile_err(const struct ft_fab_params *p, u64 leaves, int err,
			       struct netlink_ext_ack *extack)
{
	const struct ft_profile *prof = &p->core.profile;
	u32 i;

	if (err == -FT_ERANGE && prof->kind == FT_PROFILE_EXPLICIT) {
		for (i = 0; i < p->core.h && prof->table[i] <= FT_MAX_LANES; i++)
			;
		FT_ERR_MSG_FMT(extack,
			       "lanes: a level has more than max_lanes allows (ftctl info)",
			       "lanes: level %u has %u, more than max_lanes %u allows",
			       i + 1, i < p->core.h ? prof->table[i] : 0, ft_limits.max_lanes);
	} else if (err == -FT_ERANGE) {
		FT_ERR_MSG_FMT(extack,
			       "the capacity profile needs more lanes on a link than 65535",
			       "the capacity profile needs more lanes on a link than %u",
			       FT_MAX_LANES);
	} else if (prof->kind == FT_PROFILE_EXPLICIT) {
		for (i = 0; i < p->core.h && prof->table[i]; i++)
			;
		FT_ERR_MSG_FMT(extack,
			       "lanes: a level has 0 lanes, need at least 1",
			       "lanes: level %u has 0 lanes, need at least 1", i + 1);
	} else if (prof->kind == FT_PROFILE_UNIVERSAL) {
		FT_ERR_MSG_FMT(extack,
			       "universal profile: the root capacity R must be 1 to the leaves",
			       "universal profile: root R %u, need 1 to %llu (the leaves)",
			       prof->root, leaves);
	} else {
		NL_SET_ERR_MSG_MOD(extack, "capacity profile does not fit this shape");
	}
}

static int ft_fab_check_limits(struct ft_fab_params *p, struct ft_topo *t,
			       struct netlink_ext_ack *extack)
{
	u32 lanes[FT_MAX_LEVELS];
	u64 mem, leaves = 0;
	u32 i;
	int err;

	err = ft_fab_check_shape(p, &leaves, extack);
	if (err)
		return err;
	err = ft_profile_lanes(&p->core.profile, p->core.h, p->core.m,
			       p->core.w, lanes);
	if (err) {
		ft_fab_profile_err(p, leaves, err, extack);
		return err;
	}
	err = ft_topo_init(t, p->core.h, p->core.m, p->core.w, lanes);
	if (err) {
		NL_SET_ERR_MSG_MOD(extack,
				   "too many links: the shape passes the engine's 2^24 directed links or nodes");
		return err;
	}
	for (i = 1; i <= t->h; i++) {
		if (t->lanes[i] > ft_limits.max_lanes) {
			FT_ERR_MSG_FMT(extack,
				       "more lanes per link than max_lanes allows (ftctl info)",
				       "level %u: %u lanes per link, more than max_lanes %u allows",
				       i, t->lanes[i], ft_limits.max_lanes);
			return -E2BIG;
		}
	}
	if (p->mode == FATTREE_MODE_SAF) {
		/* Packets live in the store-and-forward engine: the cycle
		 * engine and the pair pool only keep their shape.
		 */
		p->core.max_msgs = 1;
		mem = ft_fab_saf_mem(t, p);
		if (!mem) {
			NL_SET_ERR_MSG_MOD(extack,
					   "too large a fabric for store-and-forward mode (edge queues or nodes past the engine's bounds)");
			return -E2BIG;
		}
		mem += ft_fab_mem_estimate(t, p->core.max_msgs, 1);
	} else {
		u64 pairs = ft_fab_pair_cap(t->n, p->backlog);

		if (pairs > FT_PAIRS_MAX) {
			NL_SET_ERR_MSG_MOD(extack,
					   "leaves x backlog pass the 4194304 waiting pairs a fabric holds: lower the backlog");
			return -E2BIG;
		}
		p->core.max_msgs = ft_pairs_pool_msgs(t, pairs);
		mem = ft_fab_mem_estimate(t, p->core.max_msgs, pairs);
	}
	if (mem > (u64)ft_limits.max_mem_mb << 20) {
		NL_SET_ERR_MSG_MOD(extack, "fabric needs more memory than max_fabric_mb allows");
		return -E2BIG;
	}
	return 0;
}

static void ft_fab_free(struct ft_fab *fab)
{
	ft_fab_saf_free(fab);
	kvfree(fab->pairs.hold);	/* the pool's, but ours to free */
	ft_pairs_destroy(&fab->pairs);
	ft_circuits_destroy(&fab->circ);
	ft_fabric_destroy(&fab->eng);
	kvfree(fab->demand);
	kvfree(fab->slotq);
	kvfree(fab->leaf);
	kvfree(fab->fdb);
	if (fab->id)
		ida_free(&ft_fab_ida, fab->id);
	kfree(fab);
}

static atomic64_t ft_fab_serials = ATOMIC64_INIT(0);

static struct ft_fab *ft_fab_alloc(struct net *net, const struct ft_fab_params *p,
				   u32 n)
{
	struct ft_fab *fab;
	/* A store-and-forward fabric queues nothing per pair. */
	u64 cap = p->mode == FATTREE_MODE_SAF ? 1 : ft_fab_pair_cap(n, p->backlog);
	u32 i;
	int id;

	fab = kzalloc(sizeof(*fab), FT_GFP_FABRIC);
	if (!fab)
		return NULL;
	/*
	 * The 16 bits of a leaf's MAC that name its fabric, shared by every
	 * namespace (max_fabrics bounds each namespace's fabrics, not all
	 * of them): when all 65,535 are in use, that is what is told.
	 */
	id = ida_alloc_range(&ft_fab_ida, 1, 0xffff, GFP_KERNEL);
	if (id < 0) {
		kfree(fab);
		return ERR_PTR(id);
	}
	fab->id = id;
	fab->serial = atomic64_inc_return(&ft_fab_serials);
	fab->net = net;
	fab->n = n;
	strscpy(fab->name, p->name, sizeof(fab->name));
	spin_lock_init(&fab->lock);
	mutex_init(&fab->step_lock);
	fab->path = p->path;
	fab->injection = p->injection;
	fab->arbitration = p->arbitration;
	fab->profile = p->profile;
	fab->backlog_max = p->backlog;
	fab->control_max = ft_fab_control_max(n);
	atomic_set(&fab->control_held, 0);
	spin_lock_init(&fab->fdb_lock);
	seqcount_spinlock_init(&fab->fdb_seq, &fab->fdb_lock);
	fab->fdb_salt = get_random_u32();
	fab->seed = p->core.seed;
	fab->synth_pairs_max = ft_fab_synth_pairs(n);

	if (ft_fabric_init(&fab->eng, &p->core) || ft_pairs_init(&fab->pairs, cap) ||
	    ft_circuits_init(&fab->circ, ft_fab_circuit_cap(n)))
		goto err;
	fab->circ.event = ft_engine_circuit_event;
	fab->circ.event_arg = fab;
	fab->demand_max = FT_DEMAND_MAX;
	fab->demand = kvcalloc(fab->demand_max, sizeof(*fab->demand), FT_GFP_FABRIC);
	if (!fab->demand)
		goto err;
	fab->slotq = kvcalloc(cap, sizeof(*fab->slotq), FT_GFP_FABRIC);
	fab->leaf = kvcalloc(n, sizeof(*fab->leaf), FT_GFP_FABRIC);
	/* Per leaf, whether its receive queue holds the fabric (leaf.c). */
	fab->pairs.hold = kvcalloc(n, sizeof(*fab->pairs.hold), FT_GFP_FABRIC);
	fab->fdb = kvcalloc(FT_FDB_SETS * FT_FDB_WAYS, sizeof(*fab->fdb),
			    FT_GFP_FABRIC);
	if (!fab->slotq || !fab->leaf || !fab->pairs.hold || !fab->fdb)
		goto err;
	for (i = 0; i < cap; i++)
		__skb_queue_head_init(&fab->slotq[i]);
	if (p->mode == FATTREE_MODE_SAF && ft_fab_saf_init(fab, p))
		goto err;
	return fab;
err:
	ft_fab_free(fab);
	return NULL;
}

/* Stop a fabric and drop the packets it holds; its leaves go on @kill
 * for ft_fab_unregister().
 */
static void ft_fab_teardown(struct ft_fab *fab, struct list_head *kill)
{
	ft_engine_stop(fab);
	ft_engine_drop_all(fab);
	ft_leaves_destroy(fab, kill);
}

/*
 * Unregister the devices on @kill in batches of about FT_UNREG_HOLD_NS
 * each: called and returning with rtnl held, which it drops between
 * batches so that other rtnl users wait for one batch, not for thousands
 * of leaves. A batch that took more than the aim halves the next, one
 * that took less than a quarter of it doubles it. A leaf still waiting its
 * turn is registered but out of its fabric's table, and its fabric is
 * dead: what it sends is dropped.
 */
static void ft_fab_unregister(struct list_head *kill)
{
	struct net_device *dev, *tmp;
	u32 n, batch_max = 16;
	u64 t0, took;

	ASSERT_RTNL();
	while (!list_empty(kill)) {
		LIST_HEAD(batch);

		n = 0;
		list_for_each_entry_safe(dev, tmp, kill, unreg_list) {
			list_move_tail(&dev->unreg_list, &batch);
			if (++n == batch_max)
				break;
		}
		t0 = ktime_get_ns();
		unregister_netdevice_many(&batch);
		took = ktime_get_ns() - t0;
		if (took > FT_UNREG_HOLD_NS)
			batch_max = max_t(u32, batch_max / 2, FT_UNREG_BATCH_MIN);
		else if (took < FT_UNREG_HOLD_NS / 4)
			batch_max = min_t(u32, batch_max * 2, FT_UNREG_BATCH_MAX);
		if (!list_empty(kill)) {
			rtnl_unlock();
			cond_resched();
			rtnl_lock();
		}
	}
}

/* Tear down one fabric no namespace lists any more, and free it. */
static void ft_fab_destroy(struct ft_fab *fab)
{
	LIST_HEAD(kill);

	rtnl_lock();
	ft_fab_teardown(fab, &kill);
	ft_fab_unregister(&kill);
	rtnl_unlock();
	ft_fab_free(fab);
}

int ft_fab_create(struct net *net, struct ft_fab_params *p,
		  struct netlink_ext_ack *extack)
{
	struct ft_net *fn = ft_net(net);
	struct ft_topo *t;
	struct ft_fab *fab;
	int err;

	lockdep_assert_held(&fn->lock);
	if (ft_fab_find(net, p->name)) {
		NL_SET_ERR_MSG_MOD(extack, "a fabric of that name exists");
		return -EEXIST;
	}
	if (fn->nfabrics >= ft_limits.max_fabrics) {
		NL_SET_ERR_MSG_MOD(extack, "this namespace holds max_fabrics fabrics already");
		return -ENOSPC;
	}
	t = kzalloc(sizeof(*t), GFP_KERNEL);
	if (!t)
		return -ENOMEM;
	err = ft_fab_check_limits(p, t, extack);
	if (err)
		goto out;

	err = -ENOMEM;
	fab = ft_fab_alloc(net, p, t->n);
	if (IS_ERR(fab)) {
		err = PTR_ERR(fab);
		if (err == -ENOSPC)
			NL_SET_ERR_MSG_MOD(extack,
					   "all 65535 fabric ids are in use (the namespaces' fabrics share them)");
		else
			NL_SET_ERR_MSG_MOD(extack, "not enough memory for the fabric ids");
		goto out;
	}
	if (!fab) {
		NL_SET_ERR_MSG_MOD(extack,
				   "not enough memory for the fabric (or over the memory cgroup's limit)");
		goto out;
	}
	err = ft_leaves_create(fab);
	if (err) {
		if (err == -EEXIST)
			NL_SET_ERR_MSG_MOD(extack, "a leaf's device name is taken");
		else
			NL_SET_ERR_MSG_MOD(extack, "cannot register the leaf devices");
		ft_fab_destroy(fab);
		goto out;
	}
	list_add_tail(&fab->node, &fn->fabrics);
	fn->nfabrics++;
	err = ft_engine_set_period(fab, p->period_ns);
	if (err) {
		/* Cannot start the timed engine: stay in manual stepping. */
		NL_SET_ERR_MSG_MOD(extack, "cannot start the cycle thread");
		err = 0;
	}
out:
	kfree(t);
	return err;
}

int ft_fab_delete(struct net *net, const char *name,
		  struct netlink_ext_ack *extack)
{
	struct ft_net *fn = ft_net(net);
	struct ft_fab *fab;

	lockdep_assert_held(&fn->lock);
	fab = ft_fab_find(net, name);
	if (!fab) {
		NL_SET_ERR_MSG_MOD(extack, "no fabric of that name in this namespace");
		return -ENOENT;
	}
	list_del(&fab->node);
	fn->nfabrics--;
	ft_fab_destroy(fab);
	return 0;
}

static int __net_init ft_net_init(struct net *net)
{
	struct ft_net *fn = ft_net(net);

	mutex_init(&fn->lock);
	INIT_LIST_HEAD(&fn->fabrics);
	return 0;
}

/* A namespace going away takes its fabrics, and their leaves, with it. */
static void __net_exit ft_net_exit_batch(struct list_head *net_list)
{
	struct ft_fab *fab, *tmp;
	LIST_HEAD(dead);
	LIST_HEAD(kill);
	struct net *net;

	list_for_each_entry(net, net_list, exit_list) {
		struct ft_net *fn = ft_net(net);

		mutex_lock(&fn->lock);
		list_splice_init(&fn->fabrics, &dead);
		fn->nfabrics = 0;
		mutex_unlock(&fn->lock);
	}
	if (list_empty(&dead))
		return;
	rtnl_lock();
	list_for_each_entry(fab, &dead, node)
		ft_fab_teardown(fab, &kill);
	ft_fab_unregister(&kill);
	rtnl_unlock();
	list_for_each_entry_safe(fab, tmp, &dead, node)
		ft_fab_free(fab);
}

static struct pernet_operations ft_net_ops = {
	.init = ft_net_init,
	.exit = ft_leaves_send_home,
	.exit_batch = ft_net_exit_batch,
	.id = &ft_net_id,
	.size = sizeof(struct ft_net),
};

int __init ft_fab_init(void)
{
	return register_pernet_device(&ft_net_ops);
}

void ft_fab_exit(void)
{
	unregister_pernet_device(&ft_net_ops);
}
