// SPDX-License-Identifier: GPL-2.0
/*
 * fattree: the "fattree" generic netlink family.
 *
 * Reads are open to everyone; every command that changes state carries
 * GENL_ADMIN_PERM. All commands validate strictly (resv_start_op): a
 * command without a policy accepts no attributes.
 */
#include <net/genetlink.h>
#include <uapi/linux/fattree.h>

#include "fattree.h"

static struct genl_family ft_genl_family;

static int ft_info_fill(struct sk_buff *msg)
{
	if (nla_put_string(msg, FATTREE_A_INFO_VERSION, FATTREE_VERSION) ||
	    nla_put_u32(msg, FATTREE_A_INFO_GENL_VERSION, FATTREE_GENL_VERSION) ||
	    nla_put_u32(msg, FATTREE_A_INFO_MAX_FABRICS, ft_limits.max_fabrics) ||
	    nla_put_u32(msg, FATTREE_A_INFO_MAX_LEAVES, ft_limits.max_leaves) ||
	    nla_put_u32(msg, FATTREE_A_INFO_MAX_LEVELS, ft_limits.max_levels) ||
	    nla_put_u32(msg, FATTREE_A_INFO_MAX_LANES, ft_limits.max_lanes))
		return -EMSGSIZE;
	return 0;
}

static int ft_nl_info_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct sk_buff *msg;
	void *hdr;
	int err;

	msg = genlmsg_new(NLMSG_GOODSIZE, GFP_KERNEL);
	if (!msg)
		return -ENOMEM;

	hdr = genlmsg_put_reply(msg, info, &ft_genl_family, 0, info->genlhdr->cmd);
	if (!hdr) {
		err = -EMSGSIZE;
		goto err_free;
	}
	err = ft_info_fill(msg);
	if (err)
		goto err_free;

	genlmsg_end(msg, hdr);
	return genlmsg_reply(msg, info);

err_free:
	nlmsg_free(msg);
	return err;
}

static const struct genl_ops ft_genl_ops[] = {
	{
		.cmd = FATTREE_CMD_INFO_GET,
		/* No policy: the core refuses every attribute. */
		.doit = ft_nl_info_get_doit,
	},
};

static struct genl_family ft_genl_family __ro_after_init = {
	.name = FATTREE_GENL_NAME,
	.version = FATTREE_GENL_VERSION,
	.netnsok = true,
	.module = THIS_MODULE,
	.ops = ft_genl_ops,
	.n_ops = ARRAY_SIZE(ft_genl_ops),
	/* The first command validated strictly (reserved header byte, flags,
	 * attributes): every command of this family.
	 */
	.resv_start_op = FATTREE_CMD_INFO_GET,
};

int __init ft_genl_init(void)
{
	return genl_register_family(&ft_genl_family);
}

void ft_genl_exit(void)
{
	genl_unregister_family(&ft_genl_family);
}

MODULE_ALIAS_GENL_FAMILY(FATTREE_GENL_NAME);
