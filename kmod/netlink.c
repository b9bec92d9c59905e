// SPDX-License-Identifier: GPL-2.0
/*
 * fattree: the "fattree" generic netlink family: what is family-wide.
 *
 * The request counters, the hooks every operation names (pre_doit,
 * post_doit, a dump's start), the helper every dump of one fabric's
 * objects goes through, INFO_GET, and the family's init and exit. The
 * handlers of each object are in nl_<object>.c (netlink.h).
 *
 * The ops table and the policies they serve are generated from
 * uapi/fattree.yaml (netlink_gen.c; netlink_family.c registers them).
 * Reads are open to everyone; every command that changes state carries
 * GENL_ADMIN_PERM (CAP_NET_ADMIN in the initial user namespace). Every
 * command validates strictly (resv_start_op) against a policy of its own,
 * so an attribute that does not belong to a command is refused; every
 * refusal carries an extended-ack message pointing at the attribute.
 * Fabrics are per network namespace: a request sees the fabrics of the
 * namespace of its socket.
 */
#include <linux/debugfs.h>
#include <linux/seq_file.h>
#include <net/genetlink.h>
#include <net/sock.h>

#include "compat.h"
#include "core/ft_cmds.h"
#include "netlink.h"

/* The uapi enums are the core's, number for number. */
static_assert(FATTREE_MAX_LEVELS == FT_MAX_LEVELS);
static_assert(FATTREE_MAX_PARENTS == FT_MAX_W);
static_assert((int)FATTREE_PATH_FIRSTFREE == (int)FT_PATH_FIRSTFREE);
static_assert((int)FATTREE_PATH_SCHEDULED_RANDOM == (int)FT_PATH_SCHEDULED_RANDOM);
static_assert((int)FATTREE_PATH_CIRCUIT == (int)FT_PATH_CIRCUIT);
static_assert((int)FATTREE_INJECTION_RANDOM_PRIME == (int)FT_INJECT_RANDOM_PRIME);
static_assert((int)FATTREE_ARBITRATION_FIXED == (int)FT_ARB_FIXED);
static_assert((int)FATTREE_PROFILE_EXPLICIT == (int)FT_PROFILE_EXPLICIT);
static_assert((int)FATTREE_LINK_DIR_DOWN == (int)FT_DOWN);
static_assert((int)FATTREE_LINK_FAIL_SELF == (int)FT_FAIL_SELF);
static_assert((int)FATTREE_LINK_FAIL_LOWER == (int)FT_FAIL_LOWER);
static_assert((int)FATTREE_LINK_FAIL_UPPER == (int)FT_FAIL_UPPER);

/*
 * Requests that reached each command's handler, that is passed the core's
 * checks (header, permission, attribute policy): what a fuzzer needs to
 * know it got past validation. Shown in /sys/kernel/debug/fattree/requests;
 * debugging aid, not an ABI.
 */
static atomic_long_t ft_nl_requests[FATTREE_CMD_MAX + 1];
static struct dentry *ft_debugfs;

/* Named as the spec names the commands (core/ft_cmds.c, generated). */
static_assert(ARRAY_SIZE(ft_nl_requests) == FT_CMD_NR);

static void ft_nl_count(u8 cmd)
{
	if (cmd <= FATTREE_CMD_MAX)
		atomic_long_inc(&ft_nl_requests[cmd]);
}

/*
 * The hooks the spec names in each operation (pre, post; the generated
 * ops table in netlink_gen.c points at them). A dump's start, called
 * once per dump request after validation, counts it.
 */
int ft_nl_dump_start(struct netlink_callback *cb)
{
	const struct genlmsghdr *gnlh = nlmsg_data(cb->nlh);

	ft_nl_count(gnlh->cmd);
	return 0;
}

/* Before a request that needs nothing more: count it. */
int ft_nl_pre_doit(const struct genl_split_ops *ops, struct sk_buff *skb,
		   struct genl_info *info)
{
	ft_nl_count(info->genlhdr->cmd);
	return 0;
}

/*
 * Before a request that changes the namespace's fabrics: count it and
 * hold the namespace's fabric lock until ft_nl_post_doit_unlock().
 */
int ft_nl_pre_doit_lock(const struct genl_split_ops *ops, struct sk_buff *skb,
			struct genl_info *info)
{
	ft_nl_count(info->genlhdr->cmd);
	mutex_lock(ft_net_lock(genl_info_net(info)));
	return 0;
}

/* The attribute that names the fabric, for each command that acts on one. */
static const u8 ft_nl_fabric_attr[FATTREE_CMD_MAX + 1] = {
	[FATTREE_CMD_FABRIC_GET] = FATTREE_A_FABRIC_NAME,
	[FATTREE_CMD_FABRIC_SET] = FATTREE_A_FABRIC_NAME,
	[FATTREE_CMD_FABRIC_STEP] = FATTREE_A_FABRIC_NAME,
	[FATTREE_CMD_FABRIC_INJECT] = FATTREE_A_FABRIC_NAME,
	[FATTREE_CMD_STATS_RESET] = FATTREE_A_FABRIC_NAME,
	[FATTREE_CMD_LINK_SET] = FATTREE_A_LINK_FABRIC,
	[FATTREE_CMD_CIRCUIT_ADD] = FATTREE_A_CIRCUIT_FABRIC,
	[FATTREE_CMD_CIRCUIT_DEL] = FATTREE_A_CIRCUIT_FABRIC,
};

/*
 * Before a request on one fabric: count it, hold the lock, and find the
 * fabric named in the command's fabric attribute, for the handler in
 * info->user_ptr[0].
 */
int ft_nl_pre_doit_fabric(const struct genl_split_ops *ops, struct sk_buff *skb,
			  struct genl_info *info)
{
	u8 cmd = info->genlhdr->cmd;
	int type = ft_nl_fabric_attr[cmd];
	struct nlattr *a;
	struct ft_fab *fab;

	ft_nl_count(cmd);
	if (WARN_ON_ONCE(!type) || GENL_REQ_ATTR_CHECK(info, type))
		return -EINVAL;
	mutex_lock(ft_net_lock(genl_info_net(info)));
	a = info->attrs[type];
	fab = ft_fab_find(genl_info_net(info), nla_data(a));
	if (!fab) {
		NL_SET_ERR_MSG_ATTR(info->extack, a, "no fabric of that name in this namespace");
		mutex_unlock(ft_net_lock(genl_info_net(info)));
		return -ENOENT;
	}
	info->user_ptr[0] = fab;
	return 0;
}

void ft_nl_post_doit_unlock(const struct genl_split_ops *ops, struct sk_buff *skb,
			    struct genl_info *info)
{
	mutex_unlock(ft_net_lock(genl_info_net(info)));
}

static int ft_nl_requests_show(struct seq_file *m, void *v)
{
	int i;

	for (i = FATTREE_CMD_INFO_GET; i <= FATTREE_CMD_MAX; i++)
		if (ft_cmd_names[i])
			seq_printf(m, "%s %ld\n", ft_cmd_names[i],
				   atomic_long_read(&ft_nl_requests[i]));
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(ft_nl_requests);

/* ---- INFO_GET ---- */

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

int fattree_nl_info_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct sk_buff *msg;
	void *hdr;

	msg = genlmsg_new(NLMSG_GOODSIZE, GFP_KERNEL);
	if (!msg)
		return -ENOMEM;
	hdr = genlmsg_put_reply(msg, info, &ft_genl_family, 0, info->genlhdr->cmd);
	if (!hdr || ft_info_fill(msg)) {
		nlmsg_free(msg);
		return -EMSGSIZE;
	}
	genlmsg_end(msg, hdr);
	return genlmsg_reply(msg, info);
}

/* ---- dumps of one fabric's objects ---- */

/*
 * One part of a dump of the objects of the fabric named in attribute
 * @type, filled by @dump under the namespace's fabric lock. Returns what a
 * dumpit returns: the part's length, 0 at the end, or an error.
 */
int ft_nl_dump_fabric(struct sk_buff *skb, struct netlink_callback *cb, int type,
		      ft_nl_dump_fn dump)
{
	struct ft_nl_dump_ctx *ctx = (struct ft_nl_dump_ctx *)cb->ctx;
	struct nlattr *a = ft_compat_dump_attrs(cb)[type];
	struct net *net = sock_net(skb->sk);
	struct ft_fab *fab;
	int err;

	BUILD_BUG_ON(sizeof(*ctx) > sizeof(cb->ctx));
	if (!a) {
		NL_SET_ERR_MSG(cb->extack, "name the fabric to dump");
		return -EINVAL;
	}
	mutex_lock(ft_net_lock(net));
	fab = ft_fab_find(net, nla_data(a));
	if (!fab && !ctx->serial) {
		NL_SET_ERR_MSG(cb->extack, "no fabric of that name in this namespace");
		err = -ENOENT;
	} else if (!fab || (ctx->serial && ctx->serial != fab->serial)) {
		NL_SET_ERR_MSG(cb->extack, "the fabric went away during the dump");
		err = -ENOENT;
	} else {
		ctx->serial = fab->serial;
		err = dump(skb, cb, fab, ctx);
	}
	mutex_unlock(ft_net_lock(net));
	return err == -EMSGSIZE && skb->len ? skb->len : (err ?: skb->len);
}

/*
 * The part of a dump of objects kept by position (ft_nl_dump_objects()):
 * one message for each, of the request's command, from ctx->pos on, its
 * attributes put by ctx->fill under the fabric's lock, until the part is
 * full or there is none left. Objects may come and go between the parts
 * of a dump: a position, as with any netlink dump.
 */
static int ft_nl_dump_each(struct sk_buff *skb, struct netlink_callback *cb,
			   struct ft_fab *fab, struct ft_nl_dump_ctx *ctx)
{
	const struct genlmsghdr *gnlh = nlmsg_data(cb->nlh);
	void *hdr;
	int err;

	spin_lock_bh(&fab->lock);
	for (;; ctx->pos++) {
		hdr = ft_nl_dump_put(skb, cb, gnlh->cmd);
		if (!hdr) {
			err = -EMSGSIZE;
			break;
		}
		err = ctx->fill(skb, cb, fab, ctx);
		if (err) {
			genlmsg_cancel(skb, hdr);
			break;
		}
		genlmsg_end(skb, hdr);
	}
	spin_unlock_bh(&fab->lock);
	return err < 0 ? err : 0;
}

/*
 * One part of a dump of the fabric's objects kept by position (links,
 * leaves, circuits), each put by @fill: ft_nl_dump_fabric() with
 * ft_nl_dump_each().
 */
int ft_nl_dump_objects(struct sk_buff *skb, struct netlink_callback *cb, int type,
		       ft_nl_fill_fn fill)
{
	struct ft_nl_dump_ctx *ctx = (struct ft_nl_dump_ctx *)cb->ctx;

	ctx->fill = fill;
	return ft_nl_dump_fabric(skb, cb, type, ft_nl_dump_each);
}

/*
 * Whether the reader has CAP_NET_ADMIN over the fabric's namespace, asked
 * once a dump.
 */
bool ft_nl_dump_admin(struct netlink_callback *cb, const struct ft_fab *fab,
		      struct ft_nl_dump_ctx *ctx)
{
	if (!ctx->admin)
		ctx->admin = netlink_ns_capable(cb->skb, fab->net->user_ns,
						CAP_NET_ADMIN) ? 2 : 1;
	return ctx->admin == 2;
}

/* The header of one message of a dump of @cmd. */
void *ft_nl_dump_put(struct sk_buff *skb, struct netlink_callback *cb, u8 cmd)
{
	return genlmsg_put(skb, NETLINK_CB(cb->skb).portid, cb->nlh->nlmsg_seq,
			   &ft_genl_family, NLM_F_MULTI, cmd);
}

int __init ft_genl_init(void)
{
	int err;

	err = ft_genl_register();
	if (err)
		return err;
	/* Without debugfs the module works the same, uncounted. */
	ft_debugfs = debugfs_create_dir(KBUILD_MODNAME, NULL);
	debugfs_create_file("requests", 0444, ft_debugfs, NULL, &ft_nl_requests_fops);
	debugfs_create_atomic_t("demand_scans", 0444, ft_debugfs, &ft_engine_demand_scans);
	/* Writable: a test resets it. */
	debugfs_create_atomic_t("demand_hold_most", 0644, ft_debugfs,
				&ft_engine_demand_hold_most);
	return 0;
}

void ft_genl_exit(void)
{
	debugfs_remove_recursive(ft_debugfs);
	genl_unregister_family(&ft_genl_family);
}

