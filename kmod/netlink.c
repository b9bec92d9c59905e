// SPDX-License-Identifier: GPL-2.0
/*
 * fattree: the "fattree" generic netlink family's handlers and hooks.
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
#include <linux/ctype.h>
#include <linux/debugfs.h>
#include <linux/sched/signal.h>
#include <linux/seq_file.h>
#include <linux/vmalloc.h>
#include <net/genetlink.h>
#include <net/sock.h>

#include "compat.h"
#include "fattree.h"
#include "netlink_gen.h"

/* The uapi enums are the core's, number for number. */
static_assert(FATTREE_MAX_LEVELS == FT_MAX_LEVELS);
static_assert(FATTREE_MAX_PARENTS == FT_MAX_W);
static_assert((int)FATTREE_PATH_FIRSTFREE == (int)FT_PATH_FIRSTFREE);
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

static const char * const ft_nl_cmd_names[FATTREE_CMD_MAX + 1] = {
	[FATTREE_CMD_INFO_GET] = "info-get",
	[FATTREE_CMD_FABRIC_NEW] = "fabric-new",
	[FATTREE_CMD_FABRIC_DEL] = "fabric-del",
	[FATTREE_CMD_FABRIC_GET] = "fabric-get",
	[FATTREE_CMD_FABRIC_SET] = "fabric-set",
	[FATTREE_CMD_FABRIC_STEP] = "fabric-step",
	[FATTREE_CMD_FABRIC_INJECT] = "fabric-inject",
	[FATTREE_CMD_LINK_GET] = "link-get",
	[FATTREE_CMD_LEAF_GET] = "leaf-get",
	[FATTREE_CMD_CIRCUIT_ADD] = "circuit-add",
	[FATTREE_CMD_CIRCUIT_DEL] = "circuit-del",
	[FATTREE_CMD_CIRCUIT_GET] = "circuit-get",
	[FATTREE_CMD_DEMAND_GET] = "demand-get",
	[FATTREE_CMD_DEMAND_NTF] = "demand-ntf",
	[FATTREE_CMD_LINK_SET] = "link-set",
	[FATTREE_CMD_STATS_RESET] = "stats-reset",
};

/* A command added without its name here would be counted unseen. */
static_assert(FATTREE_CMD_MAX == FATTREE_CMD_STATS_RESET);

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
		seq_printf(m, "%s %ld\n", ft_nl_cmd_names[i],
			   atomic_long_read(&ft_nl_requests[i]));
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(ft_nl_requests);

/* An optional u32 attribute (6.1 has no nla_get_u32_default()). */
static u32 ft_nla_u32(const struct nlattr *a, u32 def)
{
	return a ? nla_get_u32(a) : def;
}

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

/* ---- fabrics ---- */

/* A u32-per-level array attribute: exactly @h entries. */
static int ft_nl_levels(struct genl_info *info, int type, u32 h, u32 *out)
{
	struct nlattr *a = info->attrs[type];

	if (nla_len(a) != h * sizeof(u32)) {
		NL_SET_ERR_MSG_ATTR(info->extack, a, "needs one u32 per level");
		return -EINVAL;
	}
	memcpy(out, nla_data(a), h * sizeof(u32));
	return 0;
}

static int ft_nl_period(struct genl_info *info, u64 *period)
{
	struct nlattr *a = info->attrs[FATTREE_A_FABRIC_PERIOD_NS];

	*period = nla_get_u64(a);
	if (*period && (*period < FT_MIN_PERIOD_NS || *period > FT_MAX_PERIOD_NS)) {
		NL_SET_ERR_MSG_ATTR(info->extack, a,
				    "period must be 0 (manual) or 1 us to 10 s");
		return -ERANGE;
	}
	return 0;
}

/* The first of the store-and-forward attributes a request carries. */
static struct nlattr *ft_nl_saf_attr(struct nlattr **tb)
{
	if (tb[FATTREE_A_FABRIC_SAF_Q])
		return tb[FATTREE_A_FABRIC_SAF_Q];
	if (tb[FATTREE_A_FABRIC_SAF_DISCIPLINE])
		return tb[FATTREE_A_FABRIC_SAF_DISCIPLINE];
	return tb[FATTREE_A_FABRIC_SAF_GHOSTS];
}

/*
 * What only delivery cycles have, refused on a store-and-forward fabric
 * (at creation and by a later set): the circuit path (@circuit: asked
 * for), injection rules and arbitration.
 */
static int ft_nl_saf_cycle_only(struct genl_info *info, bool circuit)
{
	struct nlattr **tb = info->attrs;
	struct nlattr *a;

	if (circuit) {
		NL_SET_ERR_MSG_ATTR(info->extack, tb[FATTREE_A_FABRIC_PATH],
				    "path circuit does not apply in store-and-forward mode: dmodk, random or firstfree");
		return -EINVAL;
	}
	a = tb[FATTREE_A_FABRIC_INJECTION] ?: tb[FATTREE_A_FABRIC_ARBITRATION];
	if (a) {
		NL_SET_ERR_MSG_ATTR(info->extack, a,
				    "injection and arbitration apply to delivery cycles, not to store-and-forward mode");
		return -EINVAL;
	}
	return 0;
}

/* Mode and, in store-and-forward mode, q, discipline and ghosts. */
static int ft_nl_saf_params(struct genl_info *info, struct ft_fab_params *p)
{
	struct nlattr **tb = info->attrs;
	struct nlattr *a;
	int err;

	p->mode = ft_nla_u32(tb[FATTREE_A_FABRIC_MODE], FATTREE_MODE_CYCLE);
	if (p->mode != FATTREE_MODE_SAF) {
		a = ft_nl_saf_attr(tb);
		if (a) {
			NL_SET_ERR_MSG_ATTR(info->extack, a,
					    "q, discipline and ghosts belong to mode saf (store-and-forward)");
			return -EINVAL;
		}
		return 0;
	}
	a = tb[FATTREE_A_FABRIC_SAF_Q];
	if (!a) {
		NL_SET_ERR_MSG_ATTR(info->extack, tb[FATTREE_A_FABRIC_MODE],
				    "store-and-forward mode needs q, the packets an edge queue holds");
		return -EINVAL;
	}
	p->saf_q = nla_get_u32(a);
	if (!p->saf_q || p->saf_q > FATTREE_SAF_MAX_Q) {
		NL_SET_ERR_MSG_ATTR(info->extack, a,
				    "q must be 1 to 64 packets per edge queue");
		return -ERANGE;
	}
	err = ft_nl_saf_cycle_only(info, p->path == FATTREE_PATH_CIRCUIT);
	if (err)
		return err;
	p->saf_discipline = ft_nla_u32(tb[FATTREE_A_FABRIC_SAF_DISCIPLINE],
				       FATTREE_SAF_DISCIPLINE_RANK);
	p->saf_ghosts = ft_nla_u32(tb[FATTREE_A_FABRIC_SAF_GHOSTS], 1);
	return 0;
}

/*
 * A fabric's name begins its leaves' device names: it may hold no
 * character that dev_valid_name() refuses, and no '%', which
 * dev_alloc_name() would take for a format ("a%d" gave leaves "a0-l0").
 */
static bool ft_nl_name_ok(const char *name)
{
	for (; *name; name++)
		if (*name == '/' || *name == ':' || *name == '%' || isspace(*name))
			return false;
	return true;
}

static int ft_nl_fabric_params(struct genl_info *info, struct ft_fab_params *p)
{
	struct nlattr **tb = info->attrs;
	struct ft_profile *prof = &p->core.profile;
	u32 h;
	int err;

	if (GENL_REQ_ATTR_CHECK(info, FATTREE_A_FABRIC_NAME) ||
	    GENL_REQ_ATTR_CHECK(info, FATTREE_A_FABRIC_LEVELS) ||
	    GENL_REQ_ATTR_CHECK(info, FATTREE_A_FABRIC_DOWN) ||
	    GENL_REQ_ATTR_CHECK(info, FATTREE_A_FABRIC_UP))
		return -EINVAL;
	p->name = nla_data(tb[FATTREE_A_FABRIC_NAME]);
	if (!p->name[0]) {
		NL_SET_ERR_MSG_ATTR(info->extack, tb[FATTREE_A_FABRIC_NAME],
				    "empty fabric name");
		return -EINVAL;
	}
	if (!ft_nl_name_ok(p->name)) {
		NL_SET_ERR_MSG_ATTR(info->extack, tb[FATTREE_A_FABRIC_NAME],
				    "a fabric name cannot hold '/', ':', '%' or white space");
		return -EINVAL;
	}
	h = nla_get_u32(tb[FATTREE_A_FABRIC_LEVELS]);
	p->core.h = h;
	err = ft_nl_levels(info, FATTREE_A_FABRIC_DOWN, h, p->core.m);
	err = err ?: ft_nl_levels(info, FATTREE_A_FABRIC_UP, h, p->core.w);
	if (err)
		return err;

	/* Lanes: an explicit table, or a profile (constant 1 by default). */
	if (tb[FATTREE_A_FABRIC_LANES] && tb[FATTREE_A_FABRIC_PROFILE]) {
		NL_SET_ERR_MSG_ATTR(info->extack, tb[FATTREE_A_FABRIC_PROFILE],
				    "give lanes or a profile, not both");
		return -EINVAL;
	}
	prof->base = 1;
	if (tb[FATTREE_A_FABRIC_LANES]) {
		prof->kind = FT_PROFILE_EXPLICIT;
		err = ft_nl_levels(info, FATTREE_A_FABRIC_LANES, h, prof->table);
		if (err)
			return err;
	} else if (tb[FATTREE_A_FABRIC_PROFILE]) {
		prof->kind = nla_get_u32(tb[FATTREE_A_FABRIC_PROFILE]);
		if (prof->kind == FT_PROFILE_EXPLICIT) {
			NL_SET_ERR_MSG_ATTR(info->extack, tb[FATTREE_A_FABRIC_PROFILE],
					    "an explicit profile is given as lanes");
			return -EINVAL;
		}
	} else {
		prof->kind = FT_PROFILE_CONSTANT;
	}
	if (tb[FATTREE_A_FABRIC_PROFILE_BASE])
		prof->base = nla_get_u32(tb[FATTREE_A_FABRIC_PROFILE_BASE]);
	if (tb[FATTREE_A_FABRIC_PROFILE_ROOT])
		prof->root = nla_get_u32(tb[FATTREE_A_FABRIC_PROFILE_ROOT]);
	p->profile = (enum fattree_profile)prof->kind;

	p->path = ft_nla_u32(tb[FATTREE_A_FABRIC_PATH], FATTREE_PATH_DMODK);
	p->injection = ft_nla_u32(tb[FATTREE_A_FABRIC_INJECTION], FATTREE_INJECTION_ALL);
	p->arbitration = ft_nla_u32(tb[FATTREE_A_FABRIC_ARBITRATION],
				    FATTREE_ARBITRATION_RANDOM);
	p->backlog = ft_nla_u32(tb[FATTREE_A_FABRIC_BACKLOG], FT_DEFAULT_BACKLOG);
	p->core.seed = tb[FATTREE_A_FABRIC_SEED] ?
		       nla_get_u64(tb[FATTREE_A_FABRIC_SEED]) : 1;
	p->core.path = (enum ft_path_choice)p->path;
	p->core.arb = (enum ft_arbitration)p->arbitration;
	p->core.inject.rule = (enum ft_inject_rule)p->injection;
	p->period_ns = 0;
	if (tb[FATTREE_A_FABRIC_PERIOD_NS]) {
		err = ft_nl_period(info, &p->period_ns);
		if (err)
			return err;
	}
	return ft_nl_saf_params(info, p);
}

int fattree_nl_fabric_new_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct ft_fab_params *p;
	int err;

	p = kzalloc(sizeof(*p), GFP_KERNEL);
	if (!p)
		return -ENOMEM;
	err = ft_nl_fabric_params(info, p);
	if (!err)
		err = ft_fab_create(genl_info_net(info), p, info->extack);
	kfree(p);
	return err;
}

int fattree_nl_fabric_del_doit(struct sk_buff *skb, struct genl_info *info)
{
	if (GENL_REQ_ATTR_CHECK(info, FATTREE_A_FABRIC_NAME))
		return -EINVAL;
	return ft_fab_delete(genl_info_net(info),
			     nla_data(info->attrs[FATTREE_A_FABRIC_NAME]), info->extack);
}

static int ft_nl_put_levels(struct sk_buff *msg, int type, u32 h, const u32 *v)
{
	return nla_put(msg, type, h * sizeof(u32), v);
}

static int ft_nl_fabric_stats(struct sk_buff *msg, const struct ft_fab *fab)
{
	const struct ft_fab_stats *st = &fab->st;
	struct nlattr *nest;

	nest = nla_nest_start(msg, FATTREE_A_FABRIC_STATS);
	if (!nest)
		return -EMSGSIZE;
	if (nla_put_u64_64bit(msg, FATTREE_A_STATS_QUEUED,
			      fab->saf ? fab->saf->queued : fab->pairs.queued,
			      FATTREE_A_STATS_PAD) ||
	    nla_put_u64_64bit(msg, FATTREE_A_STATS_OFFERED, st->offered, FATTREE_A_STATS_PAD) ||
	    nla_put_u64_64bit(msg, FATTREE_A_STATS_DELIVERED, st->delivered,
			      FATTREE_A_STATS_PAD) ||
	    nla_put_u64_64bit(msg, FATTREE_A_STATS_BLOCKED, st->blocked, FATTREE_A_STATS_PAD) ||
	    nla_put_u64_64bit(msg, FATTREE_A_STATS_SYNTH_QUEUED,
			      st->synth_queued - st->synth_delivered, FATTREE_A_STATS_PAD) ||
	    nla_put_u64_64bit(msg, FATTREE_A_STATS_SYNTH_DELIVERED, st->synth_delivered,
			      FATTREE_A_STATS_PAD) ||
	    nla_put_u64_64bit(msg, FATTREE_A_STATS_DRAINED_CYCLE, st->drained_cycle,
			      FATTREE_A_STATS_PAD) ||
	    nla_put_u64_64bit(msg, FATTREE_A_STATS_CONTROL, st->control, FATTREE_A_STATS_PAD) ||
	    nla_put_u64_64bit(msg, FATTREE_A_STATS_OVERRUNS, st->overruns, FATTREE_A_STATS_PAD) ||
	    nla_put_u64_64bit(msg, FATTREE_A_STATS_CYCLE_NS, st->cycle_ns, FATTREE_A_STATS_PAD) ||
	    nla_put_u64_64bit(msg, FATTREE_A_STATS_RUN_NS, st->run_ns, FATTREE_A_STATS_PAD) ||
	    nla_put_u64_64bit(msg, FATTREE_A_STATS_FAILED_LINKS, fab->eng.lanes.nfailed,
			      FATTREE_A_STATS_PAD) ||
	    nla_put_u64_64bit(msg, FATTREE_A_STATS_FAILURE_HELD, st->failure_held,
			      FATTREE_A_STATS_PAD) ||
	    nla_put_u64_64bit(msg, FATTREE_A_STATS_CIRCUITS_CUT, st->circuits_cut,
			      FATTREE_A_STATS_PAD) ||
	    nla_put_u64_64bit(msg, FATTREE_A_STATS_CIRCUITS, fab->circ.n, FATTREE_A_STATS_PAD)) {
		nla_nest_cancel(msg, nest);
		return -EMSGSIZE;
	}
	nla_nest_end(msg, nest);
	return 0;
}

static int ft_nl_put_u64(struct sk_buff *msg, int type, u64 v)
{
	return nla_put_u64_64bit(msg, type, v, FATTREE_A_SAF_PAD);
}

/* The store-and-forward counters; under the fabric's lock. */
static int ft_nl_fabric_saf(struct sk_buff *msg, const struct ft_fab *fab)
{
	const struct ft_fab_saf *sf = fab->saf;
	const struct ft_saf *s = &sf->eng;
	const struct ft_saf_stats *st = &s->st;
	u32 nl = s->depth + 1, k;
	struct nlattr *nest, *a;
	u32 *v32;
	u64 *v64;

	nest = nla_nest_start(msg, FATTREE_A_FABRIC_SAF);
	if (!nest)
		return -EMSGSIZE;
	if (nla_put_u32(msg, FATTREE_A_SAF_POOL, s->p.max_pkts) ||
	    ft_nl_put_u64(msg, FATTREE_A_SAF_STEPS, st->steps) ||
	    ft_nl_put_u64(msg, FATTREE_A_SAF_BUSY_STEPS, st->busy_steps) ||
	    ft_nl_put_u64(msg, FATTREE_A_SAF_BATCHES, st->batches) ||
	    ft_nl_put_u64(msg, FATTREE_A_SAF_DELIVERED, st->delivered) ||
	    ft_nl_put_u64(msg, FATTREE_A_SAF_HOPS, st->hops) ||
	    ft_nl_put_u64(msg, FATTREE_A_SAF_GHOSTS, st->ghosts) ||
	    ft_nl_put_u64(msg, FATTREE_A_SAF_EOS, st->eos) ||
	    ft_nl_put_u64(msg, FATTREE_A_SAF_FDELAYS, st->fdelays) ||
	    ft_nl_put_u64(msg, FATTREE_A_SAF_EMPTY_WAITS, st->empty_waits) ||
	    ft_nl_put_u64(msg, FATTREE_A_SAF_STALLS, st->stalls) ||
	    ft_nl_put_u64(msg, FATTREE_A_SAF_RESCUES, sf->rescues) ||
	    ft_nl_put_u64(msg, FATTREE_A_SAF_POOL_FULL, sf->busy) ||
	    ft_nl_put_u64(msg, FATTREE_A_SAF_LATENCY_SUM, st->latency_sum) ||
	    nla_put_u32(msg, FATTREE_A_SAF_LATENCY_MAX, st->latency_max) ||
	    nla_put_u32(msg, FATTREE_A_SAF_QMAX, st->qmax) ||
	    nla_put_u32(msg, FATTREE_A_SAF_BATCH_PACKETS, s->b.packets) ||
	    nla_put_u32(msg, FATTREE_A_SAF_BATCH_DELIVERED, s->b.delivered) ||
	    nla_put_u32(msg, FATTREE_A_SAF_BATCH_STEPS, s->b.steps) ||
	    nla_put_u32(msg, FATTREE_A_SAF_BATCH_T, s->b.last) ||
	    nla_put_u32(msg, FATTREE_A_SAF_BATCH_CONGESTION, s->b.congestion) ||
	    (s->b.done && nla_put_flag(msg, FATTREE_A_SAF_BATCH_DONE)))
		goto cancel;
	a = nla_reserve(msg, FATTREE_A_SAF_LEVEL_QUEUES, nl * sizeof(u32));
	if (!a)
		goto cancel;
	v32 = nla_data(a);
	for (k = 0; k < nl; k++)
		v32[k] = st->level[k].queues;
	a = nla_reserve(msg, FATTREE_A_SAF_LEVEL_OCC_MAX, nl * sizeof(u32));
	if (!a)
		goto cancel;
	v32 = nla_data(a);
	for (k = 0; k < nl; k++)
		v32[k] = st->level[k].occ_max;
	a = nla_reserve_64bit(msg, FATTREE_A_SAF_LEVEL_OCC_SUM, nl * sizeof(u64),
			      FATTREE_A_SAF_PAD);
	if (!a)
		goto cancel;
	v64 = nla_data(a);
	for (k = 0; k < nl; k++)
		v64[k] = st->level[k].occ_sum;
	nla_nest_end(msg, nest);
	return 0;
cancel:
	nla_nest_cancel(msg, nest);
	return -EMSGSIZE;
}

/* Mode, and a store-and-forward fabric's parameters and counters. */
static int ft_nl_fabric_mode(struct sk_buff *msg, const struct ft_fab *fab)
{
	const struct ft_fab_saf *sf = fab->saf;

	if (nla_put_u32(msg, FATTREE_A_FABRIC_MODE,
			sf ? FATTREE_MODE_SAF : FATTREE_MODE_CYCLE))
		return -EMSGSIZE;
	if (!sf)
		return 0;
	if (nla_put_u32(msg, FATTREE_A_FABRIC_SAF_Q, sf->eng.p.q) ||
	    nla_put_u32(msg, FATTREE_A_FABRIC_SAF_DISCIPLINE, sf->eng.p.discipline) ||
	    nla_put_u32(msg, FATTREE_A_FABRIC_SAF_GHOSTS, sf->ghosts))
		return -EMSGSIZE;
	return ft_nl_fabric_saf(msg, fab);
}

static int ft_nl_fabric_fill(struct sk_buff *msg, struct ft_fab *fab,
			     u32 portid, u32 seq, int flags)
{
	const struct ft_topo *t = &fab->eng.topo;
	void *hdr;
	int err;

	hdr = genlmsg_put(msg, portid, seq, &ft_genl_family, flags,
			  FATTREE_CMD_FABRIC_GET);
	if (!hdr)
		return -EMSGSIZE;
	spin_lock_bh(&fab->lock);
	err = -EMSGSIZE;
	if (nla_put_string(msg, FATTREE_A_FABRIC_NAME, fab->name) ||
	    nla_put_u32(msg, FATTREE_A_FABRIC_LEVELS, t->h) ||
	    ft_nl_put_levels(msg, FATTREE_A_FABRIC_DOWN, t->h, t->m + 1) ||
	    ft_nl_put_levels(msg, FATTREE_A_FABRIC_UP, t->h, t->w + 1) ||
	    ft_nl_put_levels(msg, FATTREE_A_FABRIC_LANES, t->h, t->lanes + 1) ||
	    nla_put_u32(msg, FATTREE_A_FABRIC_PROFILE, fab->profile) ||
	    nla_put_u32(msg, FATTREE_A_FABRIC_PATH, fab->path) ||
	    (!fab->saf &&
	     (nla_put_u32(msg, FATTREE_A_FABRIC_INJECTION, fab->injection) ||
	      nla_put_u32(msg, FATTREE_A_FABRIC_ARBITRATION, fab->arbitration))) ||
	    nla_put_u64_64bit(msg, FATTREE_A_FABRIC_PERIOD_NS, fab->period_ns,
			      FATTREE_A_FABRIC_PAD) ||
	    nla_put_u32(msg, FATTREE_A_FABRIC_BACKLOG, fab->backlog_max) ||
	    nla_put_u64_64bit(msg, FATTREE_A_FABRIC_SEED, fab->seed, FATTREE_A_FABRIC_PAD) ||
	    nla_put_u32(msg, FATTREE_A_FABRIC_LEAVES, fab->n) ||
	    nla_put_u64_64bit(msg, FATTREE_A_FABRIC_CYCLE, fab->eng.cycle,
			      FATTREE_A_FABRIC_PAD) ||
	    ft_nl_fabric_stats(msg, fab) || ft_nl_fabric_mode(msg, fab))
		goto cancel;
	spin_unlock_bh(&fab->lock);
	genlmsg_end(msg, hdr);
	return 0;
cancel:
	spin_unlock_bh(&fab->lock);
	genlmsg_cancel(msg, hdr);
	return err;
}

int fattree_nl_fabric_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct sk_buff *msg;
	int err;

	msg = genlmsg_new(NLMSG_GOODSIZE, GFP_KERNEL);
	if (!msg)
		return -ENOMEM;
	err = ft_nl_fabric_fill(msg, info->user_ptr[0], info->snd_portid, info->snd_seq, 0);
	if (err) {
		nlmsg_free(msg);
		return err;
	}
	return genlmsg_reply(msg, info);
}

/* Every fabric of the namespace, or only the one a name asks for. */
int fattree_nl_fabric_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb)
{
	struct nlattr *name = ft_compat_dump_attrs(cb)[FATTREE_A_FABRIC_NAME];
	struct net *net = sock_net(skb->sk);
	struct ft_fab *fab;
	long i = 0;
	int err = 0;

	mutex_lock(ft_net_lock(net));
	list_for_each_entry(fab, ft_net_fabrics(net), node) {
		if (i++ < cb->args[0])
			continue;
		if (name && nla_strcmp(name, fab->name)) {
			cb->args[0] = i;
			continue;
		}
		err = ft_nl_fabric_fill(skb, fab, NETLINK_CB(cb->skb).portid,
					cb->nlh->nlmsg_seq, NLM_F_MULTI);
		if (err)
			break;
		cb->args[0] = i;
	}
	mutex_unlock(ft_net_lock(net));
	return err == -EMSGSIZE && skb->len ? skb->len : (err ?: skb->len);
}

/*
 * FABRIC_SET's checks of the mode-dependent attributes, and the change of
 * a store-and-forward fabric's discipline and ghosts, done first so that
 * a refusal changes nothing.
 */
static int ft_nl_saf_set(struct genl_info *info, struct ft_fab *fab)
{
	struct nlattr **tb = info->attrs;
	u32 disc, ghosts;
	struct nlattr *a;
	int err;

	a = tb[FATTREE_A_FABRIC_MODE] ?: tb[FATTREE_A_FABRIC_SAF_Q];
	if (a) {
		NL_SET_ERR_MSG_ATTR(info->extack, a,
				    "the mode and q of a fabric are fixed at creation");
		return -EINVAL;
	}
	a = ft_nl_saf_attr(tb);
	if (!fab->saf) {
		if (!a)
			return 0;
		NL_SET_ERR_MSG_ATTR(info->extack, a,
				    "discipline and ghosts belong to store-and-forward fabrics");
		return -EINVAL;
	}
	err = ft_nl_saf_cycle_only(info, tb[FATTREE_A_FABRIC_PATH] &&
				   nla_get_u32(tb[FATTREE_A_FABRIC_PATH]) == FATTREE_PATH_CIRCUIT);
	if (err)
		return err;
	if (!tb[FATTREE_A_FABRIC_SAF_DISCIPLINE] && !tb[FATTREE_A_FABRIC_SAF_GHOSTS])
		return 0;
	disc = ft_nla_u32(tb[FATTREE_A_FABRIC_SAF_DISCIPLINE], 0);
	ghosts = ft_nla_u32(tb[FATTREE_A_FABRIC_SAF_GHOSTS], 0);
	return ft_fab_saf_set(fab, tb[FATTREE_A_FABRIC_SAF_DISCIPLINE] ? &disc : NULL,
			      tb[FATTREE_A_FABRIC_SAF_GHOSTS] ? &ghosts : NULL,
			      info->extack);
}

int fattree_nl_fabric_set_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr **tb = info->attrs;
	struct ft_fab *fab = info->user_ptr[0];
	u64 period = 0;
	int err = 0;

	if (tb[FATTREE_A_FABRIC_PERIOD_NS])
		err = ft_nl_period(info, &period);
	if (!err)
		err = ft_nl_saf_set(info, fab);
	if (err)
		return err;
	err = ft_engine_configure(fab,
				  ft_nla_u32(tb[FATTREE_A_FABRIC_PATH], fab->path),
				  ft_nla_u32(tb[FATTREE_A_FABRIC_INJECTION], fab->injection),
				  ft_nla_u32(tb[FATTREE_A_FABRIC_ARBITRATION], fab->arbitration),
				  tb[FATTREE_A_FABRIC_SEED] ?
				  nla_get_u64(tb[FATTREE_A_FABRIC_SEED]) : fab->seed);
	if (!err && tb[FATTREE_A_FABRIC_PERIOD_NS] && period != fab->period_ns) {
		err = ft_engine_set_period(fab, period);
		if (err)
			NL_SET_ERR_MSG_MOD(info->extack, "cannot start the cycle thread");
	}
	return err;
}

int fattree_nl_fabric_step_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct ft_fab *fab = info->user_ptr[0];

	if (GENL_REQ_ATTR_CHECK(info, FATTREE_A_FABRIC_STEPS))
		return -EINVAL;
	if (fab->period_ns) {
		NL_SET_ERR_MSG_MOD(info->extack,
				   "the fabric runs on its timer: set its period to 0 to step it");
		return -EBUSY;
	}
	return ft_engine_step(fab, nla_get_u32(info->attrs[FATTREE_A_FABRIC_STEPS]));
}

/*
 * Gather every INJECT attribute's rows, checking each against the
 * fabric's leaves. A batch larger than the fabric could ever hold is
 * refused before anything is allocated for it.
 */
static int ft_nl_inject_rows(struct genl_info *info, const struct ft_fab *fab,
			     struct fattree_inject_row **rowsp, u32 *nrowsp)
{
	const int hdrlen = GENL_HDRLEN + ft_genl_family.hdrsize;
	struct fattree_inject_row *rows;
	const struct nlattr *a;
	u32 nrows = 0, i, k;
	int rem;

	nlmsg_for_each_attr(a, info->nlhdr, hdrlen, rem) {
		if (nla_type(a) != FATTREE_A_FABRIC_INJECT)
			continue;
		if (nla_len(a) % sizeof(*rows) || !nla_len(a)) {
			NL_SET_ERR_MSG_ATTR(info->extack, a,
					    "rows are whole struct fattree_inject_row");
			return -EINVAL;
		}
		nrows += nla_len(a) / sizeof(*rows);
	}
	if (!nrows) {
		NL_SET_ERR_MSG_MOD(info->extack, "no rows to inject");
		return -EINVAL;
	}
	/*
	 * Before allocating: more rows than the fabric could ever hold
	 * (pairs in delivery cycles; packets, at least one a row, in its
	 * store-and-forward pool). What fits now is the engine's to say.
	 */
	if (fab->saf && nrows > fab->saf->eng.p.max_pkts) {
		NL_SET_ERR_MSG_MOD(info->extack,
				   "more synthetic messages than the store-and-forward pool holds");
		return -ENOSPC;
	}
	if (!fab->saf && nrows > min(fab->synth_pairs_max, fab->pairs.cap)) {
		NL_SET_ERR_MSG_MOD(info->extack,
				   "more synthetic pairs than the fabric can hold at once");
		return -ENOSPC;
	}
	rows = kvmalloc_array(nrows, sizeof(*rows), GFP_KERNEL);
	if (!rows)
		return -ENOMEM;
	k = 0;
	nlmsg_for_each_attr(a, info->nlhdr, hdrlen, rem) {
		const struct fattree_inject_row *r = nla_data(a);

		if (nla_type(a) != FATTREE_A_FABRIC_INJECT)
			continue;
		for (i = 0; i < nla_len(a) / sizeof(*rows); i++, k++) {
			if (r[i].src >= fab->n || r[i].dst >= fab->n || !r[i].count) {
				NL_SET_ERR_MSG_ATTR(info->extack, a,
						    "a row names no leaf of the fabric or has count 0");
				kvfree(rows);
				return -EINVAL;
			}
			rows[k] = r[i];
		}
	}
	*rowsp = rows;
	*nrowsp = nrows;
	return 0;
}

int fattree_nl_fabric_inject_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct ft_fab *fab = info->user_ptr[0];
	struct fattree_inject_row *rows;
	u32 nrows;
	int err;

	err = ft_nl_inject_rows(info, fab, &rows, &nrows);
	if (err)
		return err;
	err = ft_engine_inject(fab, rows, nrows, info->extack);
	kvfree(rows);
	return err;
}

/* ---- links and leaves (dumps of one fabric) ---- */

/*
 * Where a dump of one fabric's objects stands between its parts: the
 * fabric, by serial (a fabric deleted and re-created under the same name
 * ends the dump rather than continue it from another's position), and
 * the position of the next object.
 */
struct ft_nl_dump_ctx {
	u64 serial;
	u32 pos;
};

/* Put the fabric's objects from ctx->pos on: 0, or -EMSGSIZE when full. */
typedef int (*ft_nl_dump_fn)(struct sk_buff *skb, struct netlink_callback *cb,
			     struct ft_fab *fab, struct ft_nl_dump_ctx *ctx);

/*
 * One part of a dump of the objects of the fabric named in attribute
 * @type, filled by @fill under the namespace's fabric lock. Returns what a
 * dumpit returns: the part's length, 0 at the end, or an error.
 */
static int ft_nl_dump_fabric(struct sk_buff *skb, struct netlink_callback *cb, int type,
			     ft_nl_dump_fn fill)
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
		err = fill(skb, cb, fab, ctx);
	}
	mutex_unlock(ft_net_lock(net));
	return err == -EMSGSIZE && skb->len ? skb->len : (err ?: skb->len);
}

static int ft_nl_link_fill(struct sk_buff *msg, struct ft_fab *fab, u32 id,
			   struct netlink_callback *cb)
{
	const struct ft_link_stats *st = &fab->eng.stats[id];
	const struct ft_link *l = &fab->eng.lanes.link[id];
	u32 level, local, dir, node, port;
	void *hdr;

	ft_topo_dlink_decode(&fab->eng.topo, id, &level, &local, &dir);
	node = local / fab->eng.topo.w[level];
	port = local % fab->eng.topo.w[level];
	hdr = genlmsg_put(msg, NETLINK_CB(cb->skb).portid, cb->nlh->nlmsg_seq,
			  &ft_genl_family, NLM_F_MULTI, FATTREE_CMD_LINK_GET);
	if (!hdr)
		return -EMSGSIZE;
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
	    nla_put_u8(msg, FATTREE_A_LINK_FAILED, l->fail)) {
		genlmsg_cancel(msg, hdr);
		return -EMSGSIZE;
	}
	genlmsg_end(msg, hdr);
	return 0;
}

static int ft_nl_link_dump(struct sk_buff *skb, struct netlink_callback *cb,
			   struct ft_fab *fab, struct ft_nl_dump_ctx *ctx)
{
	int err = 0;

	spin_lock_bh(&fab->lock);
	for (; ctx->pos < fab->eng.lanes.n; ctx->pos++) {
		err = ft_nl_link_fill(skb, fab, ctx->pos, cb);
		if (err)
			break;
	}
	spin_unlock_bh(&fab->lock);
	return err;
}

int fattree_nl_link_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb)
{
	return ft_nl_dump_fabric(skb, cb, FATTREE_A_LINK_FABRIC, ft_nl_link_dump);
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
	if (level > t->h) {
		NL_SET_ERR_MSG_ATTR(info->extack, tb[FATTREE_A_LINK_LEVEL],
				    "link levels are 1 to the fabric's levels");
		return -ERANGE;
	}
	if (node >= t->nodes[level - 1]) {
		NL_SET_ERR_MSG_ATTR(info->extack, tb[FATTREE_A_LINK_NODE],
				    "no node of that index below that level");
		return -ERANGE;
	}
	if (port >= t->w[level]) {
		NL_SET_ERR_MSG_ATTR(info->extack, tb[FATTREE_A_LINK_PORT],
				    "up-ports at that level are below w_i");
		return -ERANGE;
	}
	id = ft_topo_dlink(t, level, node * t->w[level] + port, FT_UP);
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

int fattree_nl_stats_reset_doit(struct sk_buff *skb, struct genl_info *info)
{
	ft_engine_reset_stats(info->user_ptr[0]);
	return 0;
}

/*
 * A leaf's device name and ifindex say what another namespace holds: a
 * reader without CAP_NET_ADMIN over the fabric's namespace sees them only
 * for leaves in its own namespace (the counters stay the fabric's).
 */
static int ft_nl_leaf_fill(struct sk_buff *msg, struct ft_leaf *leaf,
			   struct netlink_callback *cb, bool see_all)
{
	const struct ft_leaf_stats *st = &leaf->st;
	bool here = net_eq(dev_net(leaf->dev), sock_net(cb->skb->sk));
	void *hdr;

	hdr = genlmsg_put(msg, NETLINK_CB(cb->skb).portid, cb->nlh->nlmsg_seq,
			  &ft_genl_family, NLM_F_MULTI, FATTREE_CMD_LEAF_GET);
	if (!hdr)
		return -EMSGSIZE;
	if (nla_put_u32(msg, FATTREE_A_LEAF_INDEX, leaf->index) ||
	    ((see_all || here) &&
	     (nla_put_u32(msg, FATTREE_A_LEAF_IFINDEX, leaf->dev->ifindex) ||
	      nla_put_string(msg, FATTREE_A_LEAF_IFNAME, leaf->dev->name))) ||
	    nla_put_u64_64bit(msg, FATTREE_A_LEAF_QUEUED, leaf->backlog, FATTREE_A_LEAF_PAD) ||
	    nla_put_u64_64bit(msg, FATTREE_A_LEAF_SENT, st->sent, FATTREE_A_LEAF_PAD) ||
	    nla_put_u64_64bit(msg, FATTREE_A_LEAF_DELIVERED, st->delivered, FATTREE_A_LEAF_PAD) ||
	    nla_put_u64_64bit(msg, FATTREE_A_LEAF_BLOCKED, st->blocked, FATTREE_A_LEAF_PAD) ||
	    nla_put_u64_64bit(msg, FATTREE_A_LEAF_DROP_NOROUTE, st->drop[FT_DROP_NOROUTE],
			      FATTREE_A_LEAF_PAD) ||
	    nla_put_u64_64bit(msg, FATTREE_A_LEAF_DROP_DOWN, st->drop[FT_DROP_DOWN],
			      FATTREE_A_LEAF_PAD) ||
	    nla_put_u64_64bit(msg, FATTREE_A_LEAF_DROP_TEARDOWN, st->drop[FT_DROP_TEARDOWN],
			      FATTREE_A_LEAF_PAD) ||
	    nla_put_u64_64bit(msg, FATTREE_A_LEAF_CONTROL_TX, st->control_tx, FATTREE_A_LEAF_PAD) ||
	    nla_put_u64_64bit(msg, FATTREE_A_LEAF_CONTROL_RX, st->control_rx, FATTREE_A_LEAF_PAD) ||
	    nla_put(msg, FATTREE_A_LEAF_LATENCY, sizeof(st->latency), st->latency)) {
		genlmsg_cancel(msg, hdr);
		return -EMSGSIZE;
	}
	genlmsg_end(msg, hdr);
	return 0;
}

static int ft_nl_leaf_dump(struct sk_buff *skb, struct netlink_callback *cb,
			   struct ft_fab *fab, struct ft_nl_dump_ctx *ctx)
{
	bool see_all = netlink_ns_capable(cb->skb, fab->net->user_ns, CAP_NET_ADMIN);
	int err = 0;

	spin_lock_bh(&fab->lock);
	for (; ctx->pos < fab->n; ctx->pos++) {
		err = ft_nl_leaf_fill(skb, fab->leaf[ctx->pos], cb, see_all);
		if (err)
			break;
	}
	spin_unlock_bh(&fab->lock);
	return err;
}

int fattree_nl_leaf_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb)
{
	return ft_nl_dump_fabric(skb, cb, FATTREE_A_LEAF_FABRIC, ft_nl_leaf_dump);
}

/* ---- circuits and demand ---- */

/*
 * Gather the entries of every attribute @type of the request, of @size
 * bytes each, into one array; @where keeps each entry's place in the
 * message so a refusal can point at it. More than @max entries, more
 * than the circuit table holds, are refused before any allocation.
 */
static int ft_nl_entries(struct genl_info *info, int type, size_t size, u32 max,
			 const void ***where, u32 *nentries)
{
	const int hdrlen = GENL_HDRLEN + ft_genl_family.hdrsize;
	const struct nlattr *a;
	const void **w;
	u32 n = 0, i, k = 0;
	int rem;

	nlmsg_for_each_attr(a, info->nlhdr, hdrlen, rem) {
		if (nla_type(a) != type)
			continue;
		if (!nla_len(a) || nla_len(a) % size) {
			NL_SET_ERR_MSG_ATTR(info->extack, a, "entries are whole structs");
			return -EINVAL;
		}
		n += nla_len(a) / size;
	}
	if (!n) {
		NL_SET_ERR_MSG_MOD(info->extack, "an empty batch");
		return -EINVAL;
	}
	if (n > max) {
		NL_SET_ERR_MSG_MOD(info->extack, "more circuits than the circuit table holds");
		return -E2BIG;
	}
	w = kvmalloc_array(n, sizeof(*w), GFP_KERNEL);
	if (!w)
		return -ENOMEM;
	nlmsg_for_each_attr(a, info->nlhdr, hdrlen, rem) {
		if (nla_type(a) != type)
			continue;
		for (i = 0; i < nla_len(a) / size; i++)
			w[k++] = (const u8 *)nla_data(a) + i * size;
	}
	*where = w;
	*nentries = n;
	return 0;
}

/* Point the refusal's offset at entry @bad: 6.1 has no formatted
 * messages, so the offset is how a caller learns which entry it was.
 */
#define ft_nl_bad_entry(info, bad, msg) do {				\
		struct netlink_ext_ack *ft_extack = (info)->extack;		\
									\
		NL_SET_ERR_MSG_MOD(ft_extack, msg);				\
		NL_SET_BAD_ATTR(ft_extack, (const struct nlattr *)(bad));	\
	} while (0)

/* Answer a batch with the number of circuits the fabric now holds. */
static int ft_nl_circuit_reply(struct genl_info *info, u32 count)
{
	struct sk_buff *msg = genlmsg_new(NLMSG_GOODSIZE, GFP_KERNEL);
	void *hdr;

	if (!msg)
		return -ENOMEM;
	hdr = genlmsg_put_reply(msg, info, &ft_genl_family, 0, info->genlhdr->cmd);
	if (!hdr || nla_put_u32(msg, FATTREE_A_CIRCUIT_COUNT, count)) {
		nlmsg_free(msg);
		return -EMSGSIZE;
	}
	genlmsg_end(msg, hdr);
	return genlmsg_reply(msg, info);
}

/* A store-and-forward fabric has no circuits. */
static int ft_nl_no_circuits(struct genl_info *info, const struct ft_fab *fab)
{
	if (!fab->saf)
		return 0;
	NL_SET_ERR_MSG_ATTR(info->extack, info->attrs[FATTREE_A_CIRCUIT_FABRIC],
			    "circuits do not apply in store-and-forward mode");
	return -EOPNOTSUPP;
}

int fattree_nl_circuit_add_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct ft_fab *fab = info->user_ptr[0];
	struct ft_circuit_req *req = NULL;
	const void **where = NULL;
	u32 n, i, bad = 0, count;
	int err;

	err = ft_nl_no_circuits(info, fab);
	if (err)
		return err;
	err = ft_nl_entries(info, FATTREE_A_CIRCUIT_ENTRY, sizeof(struct fattree_circuit),
			    fab->circ.cap, &where, &n);
	if (err)
		return err;
	err = -ENOMEM;
	req = kvmalloc_array(n, sizeof(*req), GFP_KERNEL);
	if (!req)
		goto out;
	for (i = 0; i < n; i++) {
		const struct fattree_circuit *c = where[i];

		if (c->src == c->dst) {
			ft_nl_bad_entry(info, c, "a circuit joins two different leaves");
			err = -EINVAL;
			goto out;
		}
		req[i].src = c->src;
		req[i].dst = c->dst;
		req[i].lanes = c->lanes;
		req[i].lease = c->lease;
		memcpy(req[i].port, c->port, sizeof(req[i].port));
	}
	err = ft_engine_circuits_add(fab, req, n, &bad, &count);
	if (err == -E2BIG)
		NL_SET_ERR_MSG_MOD(info->extack, "the circuit table has no room for them");
	if (err == -EINVAL)
		ft_nl_bad_entry(info, where[bad], "no such leaf, a port past w_i, or bad lanes");
	else if (err == -EEXIST)
		ft_nl_bad_entry(info, where[bad], "the pair of this circuit has one already");
	else if (err == -ENOSPC && ft_engine_circuit_failed(fab, &req[bad]))
		ft_nl_bad_entry(info, where[bad], "this circuit crosses a failed link");
	else if (err == -ENOSPC)
		ft_nl_bad_entry(info, where[bad], "this circuit would exceed a link's lanes");
	if (!err)
		err = ft_nl_circuit_reply(info, count);
out:
	kvfree(req);
	kvfree(where);
	return err;
}

int fattree_nl_circuit_del_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct ft_fab *fab = info->user_ptr[0];
	const void **where = NULL;
	u32 *pairs = NULL;
	u32 n, i, bad = 0, count;
	int err;

	err = ft_nl_no_circuits(info, fab);
	if (err)
		return err;
	err = ft_nl_entries(info, FATTREE_A_CIRCUIT_PAIR, sizeof(struct fattree_pair),
			    fab->circ.cap, &where, &n);
	if (err)
		return err;
	err = -ENOMEM;
	pairs = kvmalloc_array(n, 2 * sizeof(u32), GFP_KERNEL);
	if (!pairs)
		goto out;
	for (i = 0; i < n; i++) {
		const struct fattree_pair *pr = where[i];

		pairs[2 * i] = pr->src;
		pairs[2 * i + 1] = pr->dst;
	}
	err = ft_engine_circuits_del(fab, pairs, n, &bad, &count);
	if (err)
		ft_nl_bad_entry(info, where[bad], "no circuit for this pair");
	else
		err = ft_nl_circuit_reply(info, count);
out:
	kvfree(pairs);
	kvfree(where);
	return err;
}

static int ft_nl_circuit_fill(struct sk_buff *msg, struct ft_fab *fab,
			      const struct ft_circuit *c, struct netlink_callback *cb)
{
	u32 h = ft_topo_common_level(&fab->eng.topo, c->src, c->dst);
	u64 now = fab->eng.cycle;
	void *hdr;

	hdr = genlmsg_put(msg, NETLINK_CB(cb->skb).portid, cb->nlh->nlmsg_seq,
			  &ft_genl_family, NLM_F_MULTI, FATTREE_CMD_CIRCUIT_GET);
	if (!hdr)
		return -EMSGSIZE;
	if (nla_put_u32(msg, FATTREE_A_CIRCUIT_SRC, c->src) ||
	    nla_put_u32(msg, FATTREE_A_CIRCUIT_DST, c->dst) ||
	    nla_put_u32(msg, FATTREE_A_CIRCUIT_LANES, c->lanes) ||
	    nla_put(msg, FATTREE_A_CIRCUIT_PORTS, h, c->port) ||
	    nla_put_u64_64bit(msg, FATTREE_A_CIRCUIT_CREATED, c->created, FATTREE_A_CIRCUIT_PAD) ||
	    nla_put_u64_64bit(msg, FATTREE_A_CIRCUIT_EXPIRES, c->expires, FATTREE_A_CIRCUIT_PAD) ||
	    nla_put_u64_64bit(msg, FATTREE_A_CIRCUIT_CARRIED, c->carried, FATTREE_A_CIRCUIT_PAD) ||
	    nla_put_u64_64bit(msg, FATTREE_A_CIRCUIT_IDLE, now - c->last_used,
			      FATTREE_A_CIRCUIT_PAD)) {
		genlmsg_cancel(msg, hdr);
		return -EMSGSIZE;
	}
	genlmsg_end(msg, hdr);
	return 0;
}

/*
 * Circuits may come and go between the parts of a dump: a position in the
 * admission-ordered list, as with any netlink dump.
 */
static int ft_nl_circuit_dump(struct sk_buff *skb, struct netlink_callback *cb,
			      struct ft_fab *fab, struct ft_nl_dump_ctx *ctx)
{
	int err = 0;

	spin_lock_bh(&fab->lock);
	for (; ctx->pos < fab->circ.n; ctx->pos++) {
		err = ft_nl_circuit_fill(skb, fab, &fab->circ.c[fab->circ.active[ctx->pos]], cb);
		if (err)
			break;
	}
	spin_unlock_bh(&fab->lock);
	return err;
}

int fattree_nl_circuit_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb)
{
	return ft_nl_dump_fabric(skb, cb, FATTREE_A_CIRCUIT_FABRIC, ft_nl_circuit_dump);
}

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
	hdr = genlmsg_put(skb, NETLINK_CB(cb->skb).portid, cb->nlh->nlmsg_seq,
			  &ft_genl_family, NLM_F_MULTI, FATTREE_CMD_DEMAND_GET);
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
