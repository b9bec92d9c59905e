// SPDX-License-Identifier: GPL-2.0
/*
 * fattree: what rtnetlink says of a leaf. Leaves have the link kind
 * "fattree", so `ip -d link show` names it, and carry their fabric's name
 * and id and their index under IFLA_INFO_DATA (uapi/linux/if_fattree.h).
 *
 * A leaf is made and deleted with its fabric only. The kind has neither
 * setup nor dellink, so the core refuses `ip link add type fattree` (the
 * validate hook says why first) and `ip link del` of a leaf (EOPNOTSUPP:
 * rtnetlink gives no hook there to say why; on 6.1 and 6.12 alike,
 * rtnl_delete_link() refuses a kind without dellink before calling
 * anything, and neither it nor dellink, which returns void, sees the
 * request's extended ack). Without dellink the core
 * would unregister a leaf left in a dying namespace behind its fabric's
 * back; netns_refund has it pushed to the initial namespace instead, a
 * fallback: ft_leaves_send_home() has already sent every such leaf home.
 */
#include <linux/netdevice.h>
#include <net/rtnetlink.h>
#include <uapi/linux/if_fattree.h>

#include "fattree.h"

static int ft_rtnl_validate(struct nlattr *tb[], struct nlattr *data[],
			    struct netlink_ext_ack *extack)
{
	NL_SET_ERR_MSG_MOD(extack,
			   "leaves are made and changed with their fabric: use ftctl");
	return -EOPNOTSUPP;
}

static size_t ft_rtnl_get_size(const struct net_device *dev)
{
	return nla_total_size(FATTREE_NAME_LEN) +	/* IFLA_FATTREE_FABRIC */
	       nla_total_size(sizeof(u32)) +		/* IFLA_FATTREE_FABRIC_ID */
	       nla_total_size(sizeof(u32));		/* IFLA_FATTREE_LEAF */
}

static int ft_rtnl_fill_info(struct sk_buff *skb, const struct net_device *dev)
{
	const struct ft_leaf *leaf = netdev_priv(dev);

	if (nla_put_string(skb, IFLA_FATTREE_FABRIC, leaf->fab->name) ||
	    nla_put_u32(skb, IFLA_FATTREE_FABRIC_ID, leaf->fab->id) ||
	    nla_put_u32(skb, IFLA_FATTREE_LEAF, leaf->index))
		return -EMSGSIZE;
	return 0;
}

/* The fabric's namespace: `ip -d` shows link-netnsid for a leaf moved out. */
static struct net *ft_rtnl_get_link_net(const struct net_device *dev)
{
	const struct ft_leaf *leaf = netdev_priv(dev);

	return leaf->fab->net;
}

struct rtnl_link_ops ft_leaf_link_ops __read_mostly = {
	.kind = FATTREE_LINK_KIND,
	.netns_refund = true,
	.validate = ft_rtnl_validate,
	.get_size = ft_rtnl_get_size,
	.fill_info = ft_rtnl_fill_info,
	.get_link_net = ft_rtnl_get_link_net,
};

int ft_rtnl_init(void)
{
	return rtnl_link_register(&ft_leaf_link_ops);
}

/* After every fabric is gone: the kind's devices must be none by then. */
void ft_rtnl_exit(void)
{
	rtnl_link_unregister(&ft_leaf_link_ops);
}
