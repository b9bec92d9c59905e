// SPDX-License-Identifier: GPL-2.0
/*
 * fattree: the generic netlink handlers of fabrics: FABRIC_NEW, _DEL,
 * _GET (do and dump), _SET, _STEP, _INJECT, and STATS_RESET.
 */
#include <linux/ctype.h>
#include <linux/vmalloc.h>
#include <net/genetlink.h>
#include <net/sock.h>

#include "compat.h"
#include "netlink.h"

/* An optional u32 attribute (6.1 has no nla_get_u32_default()). */
static u32 ft_nla_u32(const struct nlattr *a, u32 def)
{
	return a ? nla_get_u32(a) : def;
}

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

/* A path choice made for circuits, which store-and-forward fabrics lack. */
static bool ft_nl_path_circuits(const struct nlattr *a)
{
	u32 path = a ? nla_get_u32(a) : FATTREE_PATH_DMODK;

	return path == FATTREE_PATH_CIRCUIT || path == FATTREE_PATH_SCHEDULED ||
	       path == FATTREE_PATH_SCHEDULED_RANDOM;
}

/*
 * What only delivery cycles have, refused on a store-and-forward fabric
 * (at creation and by a later set): the path choices made for circuits
 * (circuit, scheduled, scheduled-random: a store-and-forward fabric takes
 * no circuit), injection rules and arbitration.
 */
static int ft_nl_saf_cycle_only(struct genl_info *info)
{
	struct nlattr **tb = info->attrs;
	struct nlattr *a;

	if (ft_nl_path_circuits(tb[FATTREE_A_FABRIC_PATH])) {
		NL_SET_ERR_MSG_ATTR(info->extack, tb[FATTREE_A_FABRIC_PATH],
				    "path circuit, scheduled and scheduled-random need circuits, which store-and-forward mode has not: dmodk, random or firstfree");
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
	err = ft_nl_saf_cycle_only(info);
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
	/* ftctl, fttraffic, fattreed... would each take "-x" for an option. */
	if (p->name[0] == '-') {
		NL_SET_ERR_MSG_ATTR(info->extack, tb[FATTREE_A_FABRIC_NAME],
				    "a fabric name cannot start with '-': tools would read it as an option");
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

/*
 * The counters of each of the @nl levels of the leveled network: one
 * array attribute each (queues, most and summed occupancy).
 */
static int ft_nl_saf_levels(struct sk_buff *msg, const struct ft_saf_stats *st, u32 nl)
{
	struct nlattr *queues, *occ_max, *occ_sum;
	u32 *q, *m, k;
	u64 *sum;

	queues = nla_reserve(msg, FATTREE_A_SAF_LEVEL_QUEUES, nl * sizeof(u32));
	occ_max = queues ? nla_reserve(msg, FATTREE_A_SAF_LEVEL_OCC_MAX, nl * sizeof(u32)) : NULL;
	occ_sum = occ_max ? nla_reserve_64bit(msg, FATTREE_A_SAF_LEVEL_OCC_SUM, nl * sizeof(u64),
					      FATTREE_A_SAF_PAD) : NULL;
	if (!occ_sum)
		return -EMSGSIZE;
	q = nla_data(queues);
	m = nla_data(occ_max);
	sum = nla_data(occ_sum);
	for (k = 0; k < nl; k++) {
		q[k] = st->level[k].queues;
		m[k] = st->level[k].occ_max;
		sum[k] = st->level[k].occ_sum;
	}
	return 0;
}

/* The store-and-forward counters; under the fabric's lock. */
static int ft_nl_fabric_saf(struct sk_buff *msg, const struct ft_fab *fab)
{
	const struct ft_fab_saf *sf = fab->saf;
	const struct ft_saf *s = &sf->eng;
	const struct ft_saf_stats *st = &s->st;
	struct nlattr *nest;

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
	    nla_put_u32(msg, FATTREE_A_SAF_WAITING, sf->nwaiting) ||
	    (s->b.done && nla_put_flag(msg, FATTREE_A_SAF_BATCH_DONE)))
		goto cancel;
	if (ft_nl_saf_levels(msg, st, s->depth + 1))
		goto cancel;
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
	ft_engine_sync(fab);	/* the cycles a dozing thread has not counted */
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
	err = ft_nl_saf_cycle_only(info);
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
	if (!fab->saf && nrows > ft_fab_inject_rows_max(fab->n)) {
		NL_SET_ERR_MSG_MOD(info->extack,
				   "more rows than one inject request may carry");
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

int fattree_nl_stats_reset_doit(struct sk_buff *skb, struct genl_info *info)
{
	ft_engine_reset_stats(info->user_ptr[0]);
	return 0;
}
