// SPDX-License-Identifier: GPL-2.0
/*
 * fattree: the "fattree" generic netlink family and its registration.
 *
 * The family's ops table (commands, handlers, hooks, permissions), its
 * policies and its multicast groups are generated from uapi/fattree.yaml
 * by the kernel's ynl-gen-c (scripts/ynl-gen) into netlink_gen.c, which
 * is compiled as part of this file: for a genetlink-legacy family ynl-gen
 * writes no struct genl_family and keeps the multicast groups static, so
 * the family that needs them is defined beside them. The hooks are
 * netlink.c's, the handlers those of nl_<object>.c (netlink.h).
 */
#include <linux/module.h>
#include <net/genetlink.h>

#include "compat.h"
#include "fattree.h"
#include "netlink_gen.c"

#if FT_COMPAT_SPLIT_OPS
/*
 * The generated table, copied at init. An operation that takes no
 * attribute has no policy there, and the core, which gives a struct
 * genl_ops without one a policy that rejects every attribute, takes a
 * split op as it is and would validate nothing: the copy has that policy.
 */
static struct genl_split_ops ft_split_ops[ARRAY_SIZE(fattree_nl_ops)] __ro_after_init;
static const struct nla_policy ft_reject_all[] = {
	{ .type = NLA_REJECT },
	{ .type = NLA_REJECT },
};
#else
/*
 * 6.1 takes one struct genl_ops per command: made at init from the
 * generated table's do and dump halves, the do half's policy serving
 * both (tests/tools/ynl-spec checks that a command with both halves has
 * the same request attributes in each). 6.1 calls the family's pre_doit
 * and post_doit, which call the do half's.
 */
static struct genl_ops ft_compat_ops[ARRAY_SIZE(fattree_nl_ops)];
static const struct genl_split_ops *ft_compat_do[FATTREE_CMD_MAX + 1];

static int ft_compat_pre_doit(const struct genl_ops *ops, struct sk_buff *skb,
			      struct genl_info *info)
{
	const struct genl_split_ops *op = ft_compat_do[ops->cmd];

	return op->pre_doit ? op->pre_doit(op, skb, info) : 0;
}

static void ft_compat_post_doit(const struct genl_ops *ops, struct sk_buff *skb,
				struct genl_info *info)
{
	const struct genl_split_ops *op = ft_compat_do[ops->cmd];

	if (op->post_doit)
		op->post_doit(op, skb, info);
}
#endif

/*
 * The generated multicast groups, copied at init with the flag the spec
 * cannot say: the demand group carries every pair's backlog on a fabric,
 * the leaves that containers hold included, so only a listener with
 * CAP_NET_ADMIN in the fabric's namespace may join it, as for rtnetlink's
 * groups of a namespace's devices.
 */
static struct genl_multicast_group ft_mcgrps[ARRAY_SIZE(fattree_nl_mcgrps)] __ro_after_init;

struct genl_family ft_genl_family __ro_after_init = {
	.name = FATTREE_GENL_NAME,
	.version = FATTREE_GENL_VERSION,
	.netnsok = true,
	/* No genl_mutex: a long request must not hold up every family of
	 * every namespace. Each handler and dump that touches a fabric
	 * holds its namespace's ft_net_lock(); docs/design.md lists what
	 * else the mutex used to cover.
	 */
	.parallel_ops = true,
	.module = THIS_MODULE,
#if FT_COMPAT_SPLIT_OPS
	.split_ops = ft_split_ops,
	.n_split_ops = ARRAY_SIZE(ft_split_ops),
#else
	.ops = ft_compat_ops,
	.pre_doit = ft_compat_pre_doit,
	.post_doit = ft_compat_post_doit,
#endif
	.mcgrps = ft_mcgrps,
	.n_mcgrps = ARRAY_SIZE(ft_mcgrps),
	/* The first command validated strictly (reserved header byte, flags,
	 * attributes): every command of this family.
	 */
	.resv_start_op = FATTREE_CMD_INFO_GET,
};

#if FT_COMPAT_SPLIT_OPS
static int __init ft_genl_ops_init(void)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(fattree_nl_ops); i++) {
		ft_split_ops[i] = fattree_nl_ops[i];
		if (!ft_split_ops[i].policy) {
			ft_split_ops[i].policy = ft_reject_all;
			ft_split_ops[i].maxattr = ARRAY_SIZE(ft_reject_all) - 1;
		}
	}
	return 0;
}
#else
/*
 * 6.1's ops, from the generated table, which has a command's do first.
 * The core gives an op without a policy one that rejects every attribute.
 */
static int __init ft_genl_ops_init(void)
{
	const u8 cap = GENL_CMD_CAP_DO | GENL_CMD_CAP_DUMP;
	struct genl_ops *o = NULL;
	unsigned int i, n = 0;

	for (i = 0; i < ARRAY_SIZE(fattree_nl_ops); i++) {
		const struct genl_split_ops *s = &fattree_nl_ops[i];

		if (!o || o->cmd != s->cmd) {
			o = &ft_compat_ops[n++];
			o->cmd = s->cmd;
			o->flags = s->flags & ~cap;
			o->internal_flags = s->internal_flags;
		}
		if (s->flags & GENL_CMD_CAP_DO) {
			o->doit = s->doit;
			ft_compat_do[s->cmd] = s;
		} else {
			o->start = s->start;
			o->dumpit = s->dumpit;
			o->done = s->done;
		}
		o->validate |= s->validate;
		if (!o->policy) {
			o->policy = s->policy;
			o->maxattr = s->maxattr;
		} else if (s->policy && s->maxattr != o->maxattr) {
			pr_err("fattree: command %u: a do and a dump policy differ\n", s->cmd);
			return -EINVAL;
		}
	}
	ft_genl_family.n_ops = n;
	return 0;
}
#endif

int __init ft_genl_register(void)
{
	int err = ft_genl_ops_init();
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(ft_mcgrps); i++) {
		ft_mcgrps[i] = fattree_nl_mcgrps[i];
		ft_mcgrps[i].flags |= FT_COMPAT_MCAST_ADMIN;
	}

	return err ?: genl_register_family(&ft_genl_family);
}

MODULE_ALIAS_GENL_FAMILY(FATTREE_GENL_NAME);
