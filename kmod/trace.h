/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fattree tracepoints: which packet, when, and why it waited. Counters
 * (ethtool -S, ftctl) say how much; these say which. Every event names its
 * fabric by name (unique in its namespace) and id (global, the leaves'
 * MAC bytes 1-2). Off, each costs a static branch; the per-message ones
 * of a cycle are walked only when enabled.
 *
 *   fattree_queue     a packet entered its pair's queue at its source
 *   fattree_blocked   a message stopped in a cycle: at a link, or behind
 *                     an earlier message of its pair (link -1)
 *   fattree_deliver   a packet arrived, after waiting so many cycles
 *   fattree_drop      packets dropped at a leaf, and why
 *   fattree_cycle     one delivery cycle's summary
 *   fattree_circuit   a circuit installed, deleted, expired or cut
 *   fattree_demand    a demand announcement on the multicast group
 *   fattree_link      a directed link failed or restored
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM fattree

#if !defined(_FT_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define _FT_TRACE_H

#include <linux/tracepoint.h>

#include "fattree.h"

/*
 * Every event starts with its fabric's name and id; all but fattree_drop
 * follow them with a cycle, the fabric's (fattree_demand's is the cycle
 * it announces). As mac80211's LOCAL_ASSIGN, for the fields' values.
 */
#define FT_TRACE_FAB_ASSIGN(fab)					\
	do {								\
		const struct ft_fab *__fab = (fab);			\
									\
		memcpy(__entry->fabric, __fab->name, FATTREE_NAME_LEN);	\
		__entry->fabric_id = __fab->id;				\
	} while (0)
#define FT_TRACE_CYCLE_ASSIGN(fab)					\
	do {								\
		const struct ft_fab *__cfab = (fab);			\
									\
		FT_TRACE_FAB_ASSIGN(__cfab);				\
		__entry->cycle = __cfab->eng.cycle;			\
	} while (0)

TRACE_EVENT(fattree_queue,
	    TP_PROTO(const struct ft_fab *fab, u32 src, u32 dst, u32 backlog,
		     u32 len),
	    TP_ARGS(fab, src, dst, backlog, len),
	    TP_STRUCT__entry(__array(char, fabric, FATTREE_NAME_LEN)
			     __field(u32, fabric_id)
			     __field(u64, cycle)
			     __field(u32, src)
			     __field(u32, dst)
			     __field(u32, backlog)
			     __field(u32, len)),
	    TP_fast_assign(FT_TRACE_CYCLE_ASSIGN(fab);
			   __entry->src = src;
			   __entry->dst = dst;
			   __entry->backlog = backlog;
			   __entry->len = len;),
	    TP_printk("fabric=%s cycle=%llu src=%u dst=%u backlog=%u len=%u",
		      __entry->fabric, __entry->cycle, __entry->src,
		      __entry->dst, __entry->backlog, __entry->len)
);

TRACE_EVENT(fattree_blocked,
	    TP_PROTO(const struct ft_fab *fab, u32 src, u32 dst, s32 link),
	    TP_ARGS(fab, src, dst, link),
	    TP_STRUCT__entry(__array(char, fabric, FATTREE_NAME_LEN)
			     __field(u32, fabric_id)
			     __field(u64, cycle)
			     __field(u32, src)
			     __field(u32, dst)
			     __field(s32, link)),
	    TP_fast_assign(FT_TRACE_CYCLE_ASSIGN(fab);
			   __entry->src = src;
			   __entry->dst = dst;
			   __entry->link = link;),
	    TP_printk("fabric=%s cycle=%llu src=%u dst=%u link=%d",
		      __entry->fabric, __entry->cycle, __entry->src,
		      __entry->dst, __entry->link)
);

TRACE_EVENT(fattree_deliver,
	    TP_PROTO(const struct ft_fab *fab, u32 src, u32 dst, u64 waited,
		     u32 len),
	    TP_ARGS(fab, src, dst, waited, len),
	    TP_STRUCT__entry(__array(char, fabric, FATTREE_NAME_LEN)
			     __field(u32, fabric_id)
			     __field(u64, cycle)
			     __field(u64, waited)
			     __field(u32, src)
			     __field(u32, dst)
			     __field(u32, len)),
	    TP_fast_assign(FT_TRACE_CYCLE_ASSIGN(fab);
			   __entry->waited = waited;
			   __entry->src = src;
			   __entry->dst = dst;
			   __entry->len = len;),
	    TP_printk("fabric=%s cycle=%llu src=%u dst=%u waited=%llu len=%u",
		      __entry->fabric, __entry->cycle, __entry->src,
		      __entry->dst, __entry->waited, __entry->len)
);

TRACE_DEFINE_ENUM(FT_DROP_NOROUTE);
TRACE_DEFINE_ENUM(FT_DROP_DOWN);
TRACE_DEFINE_ENUM(FT_DROP_TEARDOWN);
TRACE_DEFINE_ENUM(FT_DROP_NOPAIR);
TRACE_DEFINE_ENUM(FT_DROP_RXFULL);
TRACE_DEFINE_ENUM(FT_DROP_CONTROL);
TRACE_DEFINE_ENUM(FT_DROP_MTU);
TRACE_DEFINE_ENUM(FT_DROP_BUSY);

TRACE_EVENT(fattree_drop,
	    TP_PROTO(const struct ft_fab *fab, u32 leaf,
		     enum ft_drop_cause cause, u32 count),
	    TP_ARGS(fab, leaf, cause, count),
	    TP_STRUCT__entry(__array(char, fabric, FATTREE_NAME_LEN)
			     __field(u32, fabric_id)
			     __field(u32, leaf)
			     __field(u32, cause)
			     __field(u32, count)),
	    TP_fast_assign(FT_TRACE_FAB_ASSIGN(fab);
			   __entry->leaf = leaf;
			   __entry->cause = cause;
			   __entry->count = count;),
	    TP_printk("fabric=%s leaf=%u cause=%s count=%u", __entry->fabric,
		      __entry->leaf,
		      __print_symbolic(__entry->cause,
				       { FT_DROP_NOROUTE, "noroute" },
				       { FT_DROP_DOWN, "down" },
				       { FT_DROP_TEARDOWN, "teardown" },
				       { FT_DROP_NOPAIR, "nopair" },
				       { FT_DROP_RXFULL, "rxfull" },
				       { FT_DROP_CONTROL, "control" },
				       { FT_DROP_MTU, "mtu" },
				       { FT_DROP_BUSY, "busy" }),
		      __entry->count)
);

TRACE_EVENT(fattree_cycle,
	    TP_PROTO(const struct ft_fab *fab, u32 offered, u32 delivered,
		     u32 blocked, u64 ns),
	    TP_ARGS(fab, offered, delivered, blocked, ns),
	    TP_STRUCT__entry(__array(char, fabric, FATTREE_NAME_LEN)
			     __field(u32, fabric_id)
			     __field(u64, cycle)
			     __field(u64, ns)
			     __field(u32, offered)
			     __field(u32, delivered)
			     __field(u32, blocked)),
	    TP_fast_assign(FT_TRACE_CYCLE_ASSIGN(fab);
			   __entry->ns = ns;
			   __entry->offered = offered;
			   __entry->delivered = delivered;
			   __entry->blocked = blocked;),
	    TP_printk("fabric=%s cycle=%llu offered=%u delivered=%u blocked=%u ns=%llu",
		      __entry->fabric, __entry->cycle, __entry->offered,
		      __entry->delivered, __entry->blocked, __entry->ns)
);

TRACE_DEFINE_ENUM(FT_CIRCUIT_INSTALLED);
TRACE_DEFINE_ENUM(FT_CIRCUIT_DELETED);
TRACE_DEFINE_ENUM(FT_CIRCUIT_EXPIRED);
TRACE_DEFINE_ENUM(FT_CIRCUIT_CUT);

TRACE_EVENT(fattree_circuit,
	    TP_PROTO(const struct ft_fab *fab, u32 src, u32 dst, u32 lanes,
		     enum ft_circuit_event what),
	    TP_ARGS(fab, src, dst, lanes, what),
	    TP_STRUCT__entry(__array(char, fabric, FATTREE_NAME_LEN)
			     __field(u32, fabric_id)
			     __field(u64, cycle)
			     __field(u32, src)
			     __field(u32, dst)
			     __field(u32, lanes)
			     __field(u32, what)),
	    TP_fast_assign(FT_TRACE_CYCLE_ASSIGN(fab);
			   __entry->src = src;
			   __entry->dst = dst;
			   __entry->lanes = lanes;
			   __entry->what = what;),
	    TP_printk("fabric=%s cycle=%llu src=%u dst=%u lanes=%u %s",
		      __entry->fabric, __entry->cycle, __entry->src,
		      __entry->dst, __entry->lanes,
		      __print_symbolic(__entry->what,
				       { FT_CIRCUIT_INSTALLED, "installed" },
				       { FT_CIRCUIT_DELETED, "deleted" },
				       { FT_CIRCUIT_EXPIRED, "expired" },
				       { FT_CIRCUIT_CUT, "cut" }))
);

TRACE_EVENT(fattree_demand,
	    TP_PROTO(const struct ft_fab *fab, u64 cycle, u32 pairs, bool last),
	    TP_ARGS(fab, cycle, pairs, last),
	    TP_STRUCT__entry(__array(char, fabric, FATTREE_NAME_LEN)
			     __field(u32, fabric_id)
			     __field(u64, cycle)
			     __field(u32, pairs)
			     __field(bool, last)),
	    TP_fast_assign(FT_TRACE_FAB_ASSIGN(fab);
			   __entry->cycle = cycle;
			   __entry->pairs = pairs;
			   __entry->last = last;),
	    TP_printk("fabric=%s cycle=%llu pairs=%u last=%d", __entry->fabric,
		      __entry->cycle, __entry->pairs, __entry->last)
);

TRACE_EVENT(fattree_link,
	    TP_PROTO(const struct ft_fab *fab, u32 link, bool failed),
	    TP_ARGS(fab, link, failed),
	    TP_STRUCT__entry(__array(char, fabric, FATTREE_NAME_LEN)
			     __field(u32, fabric_id)
			     __field(u64, cycle)
			     __field(u32, link)
			     __field(bool, failed)),
	    TP_fast_assign(FT_TRACE_CYCLE_ASSIGN(fab);
			   __entry->link = link;
			   __entry->failed = failed;),
	    TP_printk("fabric=%s cycle=%llu link=%u %s", __entry->fabric,
		      __entry->cycle, __entry->link,
		      __entry->failed ? "failed" : "restored")
);

#endif /* _FT_TRACE_H */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE trace
#include <trace/define_trace.h>
