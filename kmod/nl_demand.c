// SPDX-License-Identifier: GPL-2.0
/*
 * fattree: demand over generic netlink: DEMAND_GET (a dump of one
 * fabric's pairs in demand) and the DEMAND_NTF announcements on the
 * "demand" multicast group.
 */
#include <linux/sched/signal.h>
#include <linux/vmalloc.h>
#include <net/genetlink.h>

#include "compat.h"
#include "netlink.h"

/*
 * Entries that fit one message. Each struct fattree_demand is an attribute
 * of its own (a multi-attr of structs, as the YAML spec says and as ynl
 * decodes it), so a message holds many FATTREE_A_DEMAND_ENTRY attributes.
 */
#define FT_DEMAND_PER_MSG	((NLMSG_GOODSIZE - 256) / \
				 NLA_ALIGN(NLA_HDRLEN + sizeof(struct fattree_demand)))

static int ft_nl_demand_put(struct sk_buff *msg, const struct ft_pairs_demand *d, u32 n,
			    u64 cycle)
{
	u32 i;

	if (nla_put_u64_64bit(msg, FATTREE_A_DEMAND_CYCLE, cycle, FATTREE_A_DEMAND_PAD))
		return -EMSGSIZE;
	for (i = 0; i < n; i++) {
		struct fattree_demand e = { .src = d[i].src, .dst = d[i].dst,
					    .backlog = d[i].backlog,
					    .circuit_lanes = d[i].circuit_lanes,
					    .age = d[i].age };

		if (nla_put(msg, FATTREE_A_DEMAND_ENTRY, sizeof(e), &e))
			return -EMSGSIZE;
	}
	return 0;
}

/* One message of entries per part; an empty part closes the dump. */
static int ft_nl_demand_dump(struct sk_buff *skb, struct netlink_callback *cb,
			     struct ft_fab *fab, struct ft_nl_dump_ctx *ctx)
{
	struct ft_pairs_demand *d;
	u32 pos = ctx->pos, n;
	u64 cycle;
	void *hdr;
	bool end;
	int err = 0;

	d = kvmalloc_array(FT_DEMAND_PER_MSG, sizeof(*d), GFP_KERNEL);
	if (!d)
		return -ENOMEM;
	for (;;) {
		n = ft_engine_demand_batch(fab, &pos, d, FT_DEMAND_PER_MSG, &cycle, &end);
		if (n || end)
			break;
		/* None in demand among these: on, with the lock dropped. */
		if (fatal_signal_pending(current)) {
			err = -EINTR;
			goto out;
		}
		cond_resched();
	}
	if (!n)
		goto out;
	hdr = ft_nl_dump_put(skb, cb, FATTREE_CMD_DEMAND_GET);
	if (!hdr || ft_nl_demand_put(skb, d, n, cycle)) {
		if (hdr)
			genlmsg_cancel(skb, hdr);
		err = -EMSGSIZE;
		goto out;
	}
	genlmsg_end(skb, hdr);
	ctx->pos = pos;
out:
	kvfree(d);
	return err;
}

int fattree_nl_demand_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb)
{
	return ft_nl_dump_fabric(skb, cb, FATTREE_A_DEMAND_FABRIC, ft_nl_demand_dump);
}

/* Whether anyone in the fabric's namespace listens on the "demand" group. */
bool ft_genl_demand_listened(const struct ft_fab *fab)
{
	return genl_has_listeners(&ft_genl_family, fab->net, FATTREE_NLGRP_DEMAND);
}

/* Send fab->demand[0..n) on the "demand" group, in messages that fit;
 * @last marks the end of this cycle's announcement.
 */
void ft_genl_demand_notify(struct ft_fab *fab, u64 cycle, u32 n, bool last)
{
	u32 off = 0;

	if (!ft_genl_demand_listened(fab))
		return;
	do {
		u32 k = min_t(u32, n - off, FT_DEMAND_PER_MSG);
		struct sk_buff *msg = genlmsg_new(NLMSG_GOODSIZE, GFP_KERNEL);
		void *hdr;

		if (!msg)
			return;
		hdr = genlmsg_put(msg, 0, 0, &ft_genl_family, 0, FATTREE_CMD_DEMAND_NTF);
		if (!hdr || nla_put_string(msg, FATTREE_A_DEMAND_FABRIC, fab->name) ||
		    ft_nl_demand_put(msg, fab->demand + off, k, cycle) ||
		    (last && off + k == n && nla_put_flag(msg, FATTREE_A_DEMAND_LAST))) {
			nlmsg_free(msg);
			return;
		}
		genlmsg_end(msg, hdr);
		genlmsg_multicast_netns(&ft_genl_family, fab->net, msg, 0,
					FATTREE_NLGRP_DEMAND, GFP_KERNEL);
		off += k;
	} while (off < n);
}
