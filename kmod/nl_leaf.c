// SPDX-License-Identifier: GPL-2.0
/*
 * fattree: the generic netlink handler of leaves: LEAF_GET, a dump of one
 * fabric's leaves, their devices and counters.
 */
#include <net/genetlink.h>
#include <net/sock.h>

#include "compat.h"
#include "netlink.h"

/*
 * A leaf's device name and ifindex say what another namespace holds: a
 * reader without CAP_NET_ADMIN over the fabric's namespace sees them only
 * for leaves in its own namespace (the counters stay the fabric's).
 */
static int ft_nl_leaf_fill(struct sk_buff *msg, struct netlink_callback *cb,
			   struct ft_fab *fab, struct ft_nl_dump_ctx *ctx)
{
	const struct ft_leaf_stats *st;
	struct ft_leaf *leaf;
	bool see;

	if (ctx->pos >= fab->n)
		return 1;
	leaf = fab->leaf[ctx->pos];
	st = &leaf->st;
	see = ft_nl_dump_admin(cb, fab, ctx) ||
	      net_eq(dev_net(leaf->dev), sock_net(cb->skb->sk));
	if (nla_put_u32(msg, FATTREE_A_LEAF_INDEX, leaf->index) ||
	    (see &&
	     (nla_put_u32(msg, FATTREE_A_LEAF_IFINDEX, leaf->dev->ifindex) ||
	      nla_put_string(msg, FATTREE_A_LEAF_IFNAME, leaf->dev->name))) ||
	    nla_put_u64_64bit(msg, FATTREE_A_LEAF_QUEUED, leaf->backlog, FATTREE_A_LEAF_PAD) ||
	    nla_put_u64_64bit(msg, FATTREE_A_LEAF_SENT, st->sent, FATTREE_A_LEAF_PAD) ||
	    nla_put_u64_64bit(msg, FATTREE_A_LEAF_DELIVERED, st->delivered, FATTREE_A_LEAF_PAD) ||
	    nla_put_u64_64bit(msg, FATTREE_A_LEAF_BLOCKED, st->blocked, FATTREE_A_LEAF_PAD) ||
	    nla_put_u64_64bit(msg, FATTREE_A_LEAF_DROP_NOROUTE,
			      ft_leaf_drops(leaf, FT_DROP_NOROUTE), FATTREE_A_LEAF_PAD) ||
	    nla_put_u64_64bit(msg, FATTREE_A_LEAF_DROP_DOWN,
			      ft_leaf_drops(leaf, FT_DROP_DOWN), FATTREE_A_LEAF_PAD) ||
	    nla_put_u64_64bit(msg, FATTREE_A_LEAF_DROP_TEARDOWN,
			      ft_leaf_drops(leaf, FT_DROP_TEARDOWN), FATTREE_A_LEAF_PAD) ||
	    nla_put_u64_64bit(msg, FATTREE_A_LEAF_CONTROL_TX, st->control_tx, FATTREE_A_LEAF_PAD) ||
	    nla_put_u64_64bit(msg, FATTREE_A_LEAF_CONTROL_RX, st->control_rx, FATTREE_A_LEAF_PAD) ||
	    nla_put(msg, FATTREE_A_LEAF_LATENCY, sizeof(st->latency), st->latency))
		return -EMSGSIZE;
	return 0;
}

int fattree_nl_leaf_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb)
{
	return ft_nl_dump_objects(skb, cb, FATTREE_A_LEAF_FABRIC, ft_nl_leaf_fill);
}
