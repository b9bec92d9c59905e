// SPDX-License-Identifier: GPL-2.0
/*
 * fattree: the generic netlink handlers of links: LINK_GET (a dump of one
 * fabric's directed links and their counters) and LINK_SET (fail and
 * restore links and switches).
 */
#include <net/genetlink.h>

#include "compat.h"
#include "netlink.h"

static int ft_nl_link_fill(struct sk_buff *msg, struct netlink_callback *cb,
			   struct ft_fab *fab, struct ft_nl_dump_ctx *ctx)
{
	const struct ft_link_stats *st;
	u32 level, node, port, dir;
	const struct ft_link *l;
	u32 id = ctx->pos;

	if (id >= fab->eng.lanes.n)
		return 1;
	st = &fab->eng.stats[id];
	l = &fab->eng.lanes.link[id];
	ft_topo_link_decode(&fab->eng.topo, id, &level, &node, &port, &dir);
	if (nla_put_u32(msg, FATTREE_A_LINK_ID, id) ||
	    nla_put_u32(msg, FATTREE_A_LINK_LEVEL, level) ||
	    nla_put_u32(msg, FATTREE_A_LINK_NODE, node) ||
	    nla_put_u32(msg, FATTREE_A_LINK_PORT, port) ||
	    (dir == FT_UP && nla_put_flag(msg, FATTREE_A_LINK_UP)) ||
	    nla_put_u32(msg, FATTREE_A_LINK_LANES, l->lanes) ||
	    nla_put_u32(msg, FATTREE_A_LINK_RESERVED, l->reserved) ||
	    nla_put_u64_64bit(msg, FATTREE_A_LINK_CARRIED, st->carried, FATTREE_A_LINK_PAD) ||
	    nla_put_u32(msg, FATTREE_A_LINK_MAX_CYCLE, st->max_cycle) ||
	    nla_put_u64_64bit(msg, FATTREE_A_LINK_SATURATED, st->saturated,
			      FATTREE_A_LINK_PAD) ||
	    nla_put_u64_64bit(msg, FATTREE_A_LINK_BLOCKED, st->blocked, FATTREE_A_LINK_PAD) ||
	    nla_put_u8(msg, FATTREE_A_LINK_FAILED, l->fail))
		return -EMSGSIZE;
	return 0;
}

int fattree_nl_link_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb)
{
	return ft_nl_dump_objects(skb, cb, FATTREE_A_LINK_FABRIC, ft_nl_link_fill);
}

/*
 * The links a LINK_SET names: one directed link (ID); one physical link
 * (LEVEL, NODE, PORT: both directions, or DIRECTION's); or a switch
 * (SWITCH_LEVEL, SWITCH_NODE). Exactly one form.
 */
static int ft_nl_fail_set(struct genl_info *info, const struct ft_topo *t,
			  struct ft_fail_set *fs)
{
	struct nlattr **tb = info->attrs;
	bool one = tb[FATTREE_A_LINK_ID];
	bool phys = tb[FATTREE_A_LINK_LEVEL] || tb[FATTREE_A_LINK_NODE] ||
		    tb[FATTREE_A_LINK_PORT] || tb[FATTREE_A_LINK_DIRECTION];
	bool sw = tb[FATTREE_A_LINK_SWITCH_LEVEL] || tb[FATTREE_A_LINK_SWITCH_NODE];
	u32 level, node, port, id;

	memset(fs, 0, sizeof(*fs));
	if (one + phys + sw != 1) {
		NL_SET_ERR_MSG_MOD(info->extack,
				   "name one link (id, or level, node and port) or one switch (switch level and node)");
		return -EINVAL;
	}
	if (one) {
		id = nla_get_u32(tb[FATTREE_A_LINK_ID]);
		if (id >= ft_topo_dlinks(t)) {
			NL_SET_ERR_MSG_ATTR(info->extack, tb[FATTREE_A_LINK_ID],
					    "no directed link of that id in the fabric");
			return -ERANGE;
		}
		fs->nids = 1;
		fs->id[0] = id;
		return 0;
	}
	if (sw) {
		if (GENL_REQ_ATTR_CHECK(info, FATTREE_A_LINK_SWITCH_LEVEL) ||
		    GENL_REQ_ATTR_CHECK(info, FATTREE_A_LINK_SWITCH_NODE))
			return -EINVAL;
		level = nla_get_u32(tb[FATTREE_A_LINK_SWITCH_LEVEL]);
		node = nla_get_u32(tb[FATTREE_A_LINK_SWITCH_NODE]);
		if (level > t->h) {
			NL_SET_ERR_MSG_ATTR(info->extack, tb[FATTREE_A_LINK_SWITCH_LEVEL],
					    "switch levels are 1 to the fabric's levels");
			return -ERANGE;
		}
		if (node >= t->nodes[level]) {
			NL_SET_ERR_MSG_ATTR(info->extack, tb[FATTREE_A_LINK_SWITCH_NODE],
					    "no switch of that index at that level");
			return -ERANGE;
		}
		fs->sw = true;
		fs->level = level;
		fs->node = node;
		return 0;
	}
	if (GENL_REQ_ATTR_CHECK(info, FATTREE_A_LINK_LEVEL) ||
	    GENL_REQ_ATTR_CHECK(info, FATTREE_A_LINK_NODE) ||
	    GENL_REQ_ATTR_CHECK(info, FATTREE_A_LINK_PORT))
		return -EINVAL;
	level = nla_get_u32(tb[FATTREE_A_LINK_LEVEL]);
	node = nla_get_u32(tb[FATTREE_A_LINK_NODE]);
	port = nla_get_u32(tb[FATTREE_A_LINK_PORT]);
	switch (ft_topo_link_check(t, level, node, port)) {
	case FT_TOPO_LINK_OK:
		break;
	case FT_TOPO_LINK_LEVEL:
		NL_SET_ERR_MSG_ATTR(info->extack, tb[FATTREE_A_LINK_LEVEL],
				    "link levels are 1 to the fabric's levels");
		return -ERANGE;
	case FT_TOPO_LINK_NODE:
		NL_SET_ERR_MSG_ATTR(info->extack, tb[FATTREE_A_LINK_NODE],
				    "no node of that index below that level");
		return -ERANGE;
	case FT_TOPO_LINK_PORT:
		NL_SET_ERR_MSG_ATTR(info->extack, tb[FATTREE_A_LINK_PORT],
				    "up-ports at that level are below w_i");
		return -ERANGE;
	}
	id = ft_topo_link(t, level, node, port, FT_UP);
	if (tb[FATTREE_A_LINK_DIRECTION]) {
		fs->nids = 1;
		fs->id[0] = id | nla_get_u32(tb[FATTREE_A_LINK_DIRECTION]);
	} else {
		fs->nids = 2;
		fs->id[0] = id;
		fs->id[1] = id | FT_DOWN;
	}
	return 0;
}

int fattree_nl_link_set_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct ft_fab *fab = info->user_ptr[0];
	struct ft_fail_result res;
	struct ft_fail_set fs;
	struct sk_buff *msg;
	void *hdr;
	int err;

	if (GENL_REQ_ATTR_CHECK(info, FATTREE_A_LINK_FAIL))
		return -EINVAL;
	/* Its edge queues route around nothing: refuse rather than ignore. */
	if (fab->saf) {
		NL_SET_ERR_MSG_ATTR(info->extack, info->attrs[FATTREE_A_LINK_FABRIC],
				    "link failures do not apply in store-and-forward mode");
		return -EOPNOTSUPP;
	}
	err = ft_nl_fail_set(info, &fab->eng.topo, &fs);
	if (err)
		return err;
	msg = genlmsg_new(NLMSG_GOODSIZE, GFP_KERNEL);
	if (!msg)
		return -ENOMEM;
	ft_engine_fail(fab, &fs, nla_get_u8(info->attrs[FATTREE_A_LINK_FAIL]), &res);
	hdr = genlmsg_put_reply(msg, info, &ft_genl_family, 0, info->genlhdr->cmd);
	if (!hdr || nla_put_u32(msg, FATTREE_A_LINK_CHANGED, res.changed) ||
	    nla_put_u32(msg, FATTREE_A_LINK_CIRCUITS_CUT, res.cut) ||
	    nla_put_u32(msg, FATTREE_A_LINK_FAILED_LINKS, res.failed)) {
		nlmsg_free(msg);
		return -EMSGSIZE;
	}
	genlmsg_end(msg, hdr);
	return genlmsg_reply(msg, info);
}
