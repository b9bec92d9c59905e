/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fattree: types shared by the files of the fattree module.
 */
#ifndef _FATTREE_H
#define _FATTREE_H

#include <linux/hrtimer.h>
#include <linux/if_ether.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/netdevice.h>
#include <linux/skbuff.h>
#include <linux/spinlock.h>
#include <linux/types.h>
#include <linux/workqueue.h>
#include <uapi/linux/fattree_structs.h>

#include "core/ft_pairs.h"
#include "core/ft_saf.h"

#define FATTREE_VERSION		"0.1.0"

/* Hard ceilings; the module parameters may only lower them. */
#define FATTREE_HARD_MAX_FABRICS	1024
#define FATTREE_HARD_MAX_LEAVES		65536
#define FATTREE_HARD_MAX_LEVELS		FT_MAX_LEVELS
#define FATTREE_HARD_MAX_LANES		65535
#define FATTREE_HARD_MAX_MEM_MB		65536

#define FT_DEFAULT_BACKLOG	64	/* packets a leaf may hold */
#define FT_MIN_PERIOD_NS	1000	/* 1 us */
#define FT_MAX_PERIOD_NS	(10ULL * NSEC_PER_SEC)
#define FT_CATCHUP_MAX		1000	/* missed cycles with work per wake-up */
#define FT_DEMAND_MAX		2048	/* pairs in one demand notification */
#define FT_DEMAND_INTERVAL_MS	10	/* at most one notification per this */
#define FT_DEMAND_NEW_US	1000	/* ... or this, when a pair is new */
#define FT_DEMAND_LOOK		1024	/* pairs looked at per hold of the lock */
/* Frames a leaf's receive queue holds: netdev_max_backlog's default. */
#define FT_RXQ_MAX		1000
/* Control-class frames a fabric holds in receive queues, per leaf and at
 * least: room for a broadcast on the largest fabric, and sixteen at once.
 */
#define FT_CONTROL_PER_LEAF	16
#define FT_CONTROL_MIN		4096
/*
 * Stations behind leaves (a leaf bridged to a NIC, a macvlan on a leaf):
 * MACs that name no leaf, learned from the source address of what a leaf
 * sends, as a bridge learns. A fixed table per fabric, FT_FDB_SETS sets of
 * FT_FDB_WAYS entries; an entry not refreshed for FT_FDB_AGE (a bridge's
 * default ageing time) no longer routes.
 */
#define FT_FDB_SETS		256
#define FT_FDB_WAYS		4
#define FT_FDB_AGE		(300 * HZ)

/* Flows of a pair: real packets and synthetic messages stay apart. */
enum {
	FT_TAG_PACKET,
	FT_TAG_SYNTH,
	FT_NTAGS
};

/* What a queued packet carries in skb->cb. */
struct ft_skb_cb {
	u64 cycle;	/* cycle it was queued in */
	u32 src;	/* source leaf, once delivered (store-and-forward) */
	u32 dst;	/* destination leaf, once delivered */
	bool control;	/* in a receive queue, held by the control budget */
};

/*
 * Rows one inject request may carry (cycle fabrics): the most synthetic
 * pairs a large fabric takes at once. Rows of one pair add up, so a small
 * fabric may be sent more rows than it has pairs (fabric.c).
 */
static inline u32 ft_fab_inject_rows_max(u32 n)
{
	return max_t(u32, 65536, 16 * n);
}

static inline struct ft_skb_cb *ft_skb_cb(struct sk_buff *skb)
{
	BUILD_BUG_ON(sizeof(struct ft_skb_cb) > sizeof(skb->cb));
	return (struct ft_skb_cb *)skb->cb;
}

/*
 * A station learned behind a leaf. Written under its fabric's fdb_lock
 * inside fdb_seq, read locklessly through fdb_seq; @seen alone is
 * refreshed without either (ft_fdb_learn()).
 */
struct ft_fdb_entry {
	u8 mac[ETH_ALEN];
	bool used;
	bool local;		/* the address of the leaf itself: no ageing */
	bool named;		/* a MAC that names a leaf (fdb_named) */
	u32 leaf;		/* the leaf it was seen behind */
	unsigned long seen;	/* jiffies of its last frame */
};

/* Latency histogram bucket of a delivery after @cycles. */
static inline u32 ft_latency_bucket(u64 cycles)
{
	return min_t(u32, fls64(cycles), FATTREE_LATENCY_BUCKETS - 1);
}

/* Limits in force, fixed at module load (the parameters are read-only). */
struct ft_limits {
	u32 max_fabrics;
	u32 max_leaves;
	u32 max_levels;
	u32 max_lanes;
	u32 max_mem_mb;
};

extern struct ft_limits ft_limits;

/* Why a leaf dropped packets: ethtool -S drop_*, tracepoint fattree_drop. */
enum ft_drop_cause {
	FT_DROP_NOROUTE,	/* unicast to no leaf of the fabric */
	FT_DROP_DOWN,		/* arrived while this leaf was down */
	FT_DROP_TEARDOWN,	/* still queued when the fabric went away */
	FT_DROP_NOPAIR,		/* the pair pool was full: a bug if ever seen */
	FT_DROP_RXFULL,		/* arrived to a full receive queue */
	FT_DROP_CONTROL,	/* control frames refused: budget spent */
	FT_DROP_MTU,		/* larger than the destination's MTU */
	FT_DROP_BUSY,		/* a full leaf without a qdisc to wait in */
	FT_DROP_NR
};

/*
 * Counters of one leaf; guarded by its fabric's lock, but for the drops:
 * the receive path counts those without it, as tun and veth do.
 */
struct ft_leaf_stats {
	u64 sent;		/* messages that left this leaf */
	u64 delivered;		/* messages that arrived here */
	u64 blocked;		/* offers of this leaf refused in a cycle */
	atomic64_t drop[FT_DROP_NR];
	u64 rx_holds;		/* times its receive queue held the fabric */
	u64 control_tx;
	u64 control_rx;
	u64 multicast;		/* broadcast and multicast frames received */
	u64 bytes_sent;
	u64 bytes_delivered;
	u64 latency[FATTREE_LATENCY_BUCKETS];
};

struct ft_fab;

/* One leaf: netdev_priv() of its link device. */
struct ft_leaf {
	struct ft_fab *fab;
	struct net_device *dev;
	u32 index;
	u32 backlog;		/* its packets waiting in the fabric */
	bool pool_wait;		/* stopped until a store-and-forward batch
				 * frees room in the fabric's pool
				 */
	bool rx_held;		/* its messages wait in the fabric: its
				 * receive queue reached its mark (leaf.c);
				 * written under the fabric's lock
				 */
	/* Store-and-forward (saf.c), under the fabric's lock: arrivals its
	 * receive queue had no room for, in order (on the fabric's list of
	 * such leaves while there are some), and those handed over this
	 * cycle.
	 */
	struct sk_buff_head rx_wait;
	struct list_head rx_wait_node;
	u32 rx_handed;
	struct ft_leaf_stats st;
	/* Arrivals, handed to the stack by one NAPI poller so that what the
	 * fabric delivered in order is received in order.
	 */
	struct sk_buff_head rxq;
	struct napi_struct napi;
	/* Netpoll's frames, sent from process context (leaf.c). */
	struct sk_buff_head npq;
	struct work_struct npwork;
};

/* What the engine adds up over its life. */
struct ft_fab_stats {
	u64 offered;
	u64 delivered;
	u64 blocked;
	u64 synth_queued;
	u64 synth_delivered;
	u64 drained_cycle;
	u64 control;
	u64 overruns;
	u64 cycle_ns;
	u64 run_ns;
	u64 failure_held;	/* offers held: no working minimal path */
	u64 circuits_cut;	/* circuits torn down by link failures */
};

/*
 * A store-and-forward fabric's engine (saf.c): the core's ft_saf, its
 * memory, and what the kernel adds around it.
 */
struct ft_fab_saf {
	struct ft_saf eng;
	void *mem;
	u8 *held;		/* FIFO/farthest-first: pool entries delivered
				 * but held until their source's earlier
				 * packets are (pairs stay in order)
				 */
	u32 *released;		/* per source, packets released this batch */
	/* Leaves with arrivals their receive queue had no room for
	 * (ft_leaf_rx_mark()), handed over as it frees; how many wait.
	 */
	struct list_head waiting;
	u32 nwaiting;
	u64 queued;		/* messages in the engine, held or waiting */
	u64 rescues;		/* stalled batches finished with ghosts */
	u64 busy;		/* transmits refused for a full pool */
	u32 ghosts;		/* ghosts as configured */
	u32 pool_waiters;	/* leaves with pool_wait set */
};

/* A fabric: its engine state, its pairs' packets and its leaves. */
struct ft_fab {
	struct list_head node;		/* in ft_net.fabrics */
	struct net *net;		/* namespace it was created in */
	char name[FATTREE_NAME_LEN];
	u32 id;				/* global, in the leaves' MACs */
	u64 serial;			/* never reused: a dump tells a fabric
					 * from one re-created under its name
					 */
	u32 n;				/* leaves */

	spinlock_t lock;		/* engine, pairs, queues, counters */
	struct ft_fabric eng;
	struct ft_pairs pairs;
	struct ft_circuits circ;
	struct ft_pairs_demand *demand;	/* a notification's entries */
	u32 demand_max;
	unsigned long demand_next;	/* jiffies: next notification due */
	u32 demand_announced;		/* pairs in the last announcement */
	u32 demand_born;		/* pairs.born at the last one */
	ktime_t demand_new_next;	/* next one due for a new pair */
	struct sk_buff_head *slotq;	/* packets of each pair slot */
	u32 synth_pairs;		/* pairs holding synthetic messages */
	u32 synth_pairs_max;
	bool dead;			/* torn down: queue nothing more */
	bool quiet;			/* the last cycle ran idle (engine.c) */
	struct ft_fab_stats st;
	struct ft_leaf **leaf;		/* netdev_priv of each leaf device */
	struct ft_fab_saf *saf;		/* store-and-forward mode, else NULL */
	/* Control-class frames waiting in the leaves' receive queues, and
	 * their bound: one broadcast becomes a frame per leaf (leaf.c).
	 */
	atomic_t control_held;
	u32 control_max;
	/* Stations learned behind leaves (leaf.c), FT_FDB_SETS x FT_FDB_WAYS. */
	spinlock_t fdb_lock;
	seqcount_spinlock_t fdb_seq;
	struct ft_fdb_entry *fdb;
	u32 fdb_salt;
	/* Entries of MACs that name a leaf (a leaf's address taken by
	 * another, as a bond's slaves take one): while there are some, a
	 * MAC that names a leaf is looked up too.
	 */
	u32 fdb_named;

	enum fattree_path path;
	enum fattree_injection injection;
	enum fattree_arbitration arbitration;
	enum fattree_profile profile;
	u32 backlog_max;
	u64 seed;

	struct mutex step_lock;		/* one runner of cycles at a time */
	u64 period_ns;			/* 0: manual stepping */
	struct task_struct *thread;	/* runs timed cycles */
	/* Under lock: the cycle thread while it dozes (the fabric is quiet,
	 * engine.c), the due time of the next cycle it has not counted, and
	 * when it started (for st.run_ns).
	 */
	struct task_struct *dozer;
	ktime_t doze_next;
	ktime_t run_start;
	struct list_head engine_node;	/* in engine.c's list, with a thread */
};

/* fabric.c */
struct ft_fab_params {
	const char *name;
	struct ft_fabric_params core;
	enum fattree_path path;
	enum fattree_injection injection;
	enum fattree_arbitration arbitration;
	enum fattree_profile profile;
	u64 period_ns;
	u32 backlog;
	enum fattree_mode mode;
	u32 saf_q;
	enum fattree_saf_discipline saf_discipline;
	u32 saf_ghosts;
};

int ft_fab_create(struct net *net, struct ft_fab_params *p,
		  struct netlink_ext_ack *extack);
int ft_fab_delete(struct net *net, const char *name,
		  struct netlink_ext_ack *extack);
struct ft_fab *ft_fab_find(struct net *net, const char *name);
/* Fabric list of a namespace: hold ft_net_lock() while using a fabric. */
struct mutex *ft_net_lock(struct net *net);
struct list_head *ft_net_fabrics(struct net *net);
int ft_fab_init(void);
void ft_fab_exit(void);

/* engine.c */
extern atomic_t ft_engine_demand_scans;
extern atomic_t ft_engine_demand_hold_most;
u32 ft_engine_demand_batch(struct ft_fab *fab, u32 *pos, struct ft_pairs_demand *out,
			   u32 max, u64 *cycle, bool *end);
int ft_engine_step(struct ft_fab *fab, u32 steps);
void __ft_engine_kick(struct ft_fab *fab);
void ft_engine_sync(struct ft_fab *fab);

/*
 * Work for the cycles (a packet, an injection, a circuit, new settings):
 * wake the cycle thread if it dozes. Under fab->lock, before the work is
 * stamped with the current cycle.
 */
static inline void ft_engine_kick(struct ft_fab *fab)
{
	if (fab->dozer)
		__ft_engine_kick(fab);
}

int ft_engine_set_period(struct ft_fab *fab, u64 period_ns);
void ft_engine_stop(struct ft_fab *fab);
void ft_engine_stop_all(void);
int ft_engine_inject(struct ft_fab *fab, const struct fattree_inject_row *rows,
		     u32 nrows, struct netlink_ext_ack *extack);
void ft_engine_drop_all(struct ft_fab *fab);
void ft_engine_demand(struct ft_fab *fab, bool now);
int ft_engine_configure(struct ft_fab *fab, enum fattree_path path,
			enum fattree_injection inj,
			enum fattree_arbitration arb, u64 seed);

/*
 * Links named by one LINK_SET request: up to two directed links (a
 * physical link's directions) failed by themselves, and/or every link of
 * one switch.
 */
struct ft_fail_set {
	u32 nids;
	u32 id[2];
	bool sw;
	u32 level;
	u32 node;
};

struct ft_fail_result {
	u32 changed;	/* directed links that failed or came back */
	u32 cut;	/* circuits torn down */
	u32 failed;	/* directed links failed in the fabric now */
};

int ft_engine_circuits_add(struct ft_fab *fab, const struct ft_circuit_req *req, u32 n,
			   struct ft_circuits_refusal *rf, u32 *count);
int ft_engine_circuits_del(struct ft_fab *fab, const u32 *pairs, u32 n, u32 *bad,
			   u32 *count);
void ft_engine_circuit_event(void *arg, const struct ft_circuit *c,
			     enum ft_circuit_event what);
void ft_engine_fail(struct ft_fab *fab, const struct ft_fail_set *fs, bool on,
		    struct ft_fail_result *res);
void ft_engine_reset_stats(struct ft_fab *fab);

/* saf.c */
u64 ft_fab_saf_mem(const struct ft_topo *t, const struct ft_fab_params *p);
int ft_fab_saf_init(struct ft_fab *fab, const struct ft_fab_params *p);
void ft_fab_saf_free(struct ft_fab *fab);
int ft_fab_saf_xmit(struct ft_fab *fab, struct ft_leaf *leaf, u32 dst,
		    struct sk_buff *skb, bool stop);
u32 ft_fab_saf_cycle(struct ft_fab *fab, struct sk_buff_head *out);
int ft_fab_saf_inject(struct ft_fab *fab, const struct fattree_inject_row *rows,
		      u32 nrows, struct netlink_ext_ack *extack);
void ft_fab_saf_drop_all(struct ft_fab *fab, struct sk_buff_head *dead);
int ft_fab_saf_set(struct ft_fab *fab, const u32 *discipline, const u32 *ghosts,
		   struct netlink_ext_ack *extack);
void ft_fab_saf_configure(struct ft_fab *fab, enum fattree_path path,
			  u64 seed);

/* leaf.c */
int ft_leaves_create(struct ft_fab *fab);
void ft_leaves_destroy(struct ft_fab *fab, struct list_head *kill);
void ft_leaves_send_home(struct net *net);
void ft_leaf_deliver(struct ft_leaf *dst, struct sk_buff *skb, bool control);
void ft_leaf_kick(struct ft_leaf *dst);
void ft_leaf_rx_check(struct ft_leaf *leaf);
u32 ft_leaf_rx_mark(const struct ft_fab *fab);
void ft_leaf_wake(struct ft_leaf *leaf);
void ft_leaf_detach(struct sk_buff *skb);
void ft_leaf_drop(struct ft_leaf *leaf, enum ft_drop_cause cause, u32 n);
u64 ft_leaf_drops(const struct ft_leaf *leaf, enum ft_drop_cause cause);
struct ft_leaf *ft_leaf_of(struct net_device *dev);

/* rtnl.c */
extern struct rtnl_link_ops ft_leaf_link_ops;
int ft_rtnl_init(void);
void ft_rtnl_exit(void);

/* netlink_family.c: the family, its ops table generated from the spec */
extern struct genl_family ft_genl_family;
int ft_genl_register(void);

/* netlink.c */
int ft_genl_init(void);
void ft_genl_exit(void);

/* nl_demand.c */
void ft_genl_demand_notify(struct ft_fab *fab, u64 cycle, u32 n, bool last);
bool ft_genl_demand_listened(const struct ft_fab *fab);

#endif /* _FATTREE_H */
