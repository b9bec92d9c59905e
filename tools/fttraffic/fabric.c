// SPDX-License-Identifier: GPL-2.0
/*
 * What fttraffic asks of the fabric over generic netlink: its shape and
 * counters, its leaves (names, latency histograms in cycles), its links'
 * per-cycle counters, stepping and synthetic injection.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "fabric.h"

static uint64_t get_u64(struct nlattr *a)
{
	return a ? nla_get_u64(a) : 0;
}

static uint32_t get_u32(struct nlattr *a)
{
	return a ? nla_get_u32(a) : 0;
}

static uint32_t get_array(struct nlattr *a, uint32_t *v, uint32_t max)
{
	uint32_t n;

	if (!a)
		return 0;
	n = (uint32_t)nla_len(a) / sizeof(uint32_t);
	if (n > max)
		n = max;
	memcpy(v, nla_data(a), n * sizeof(uint32_t));
	return n;
}

static int fabric_reply(struct nl_msg *msg, void *arg)
{
	struct nlattr *tb[FATTREE_A_FABRIC_MAX + 1], *st[FATTREE_A_STATS_MAX + 1];
	struct ftt_fabric *f = arg;
	uint32_t nm, nw, nl;

	if (ftnl_parse(msg, tb, FATTREE_A_FABRIC_MAX))
		return -EINVAL;
	f->h = get_u32(tb[FATTREE_A_FABRIC_LEVELS]);
	nm = get_array(tb[FATTREE_A_FABRIC_DOWN], f->m, FATTREE_MAX_LEVELS);
	nw = get_array(tb[FATTREE_A_FABRIC_UP], f->w, FATTREE_MAX_LEVELS);
	nl = get_array(tb[FATTREE_A_FABRIC_LANES], f->lanes, FATTREE_MAX_LEVELS);
	if (!f->h || f->h > FATTREE_MAX_LEVELS || nm < f->h || nw < f->h || nl < f->h)
		return -EPROTO;
	f->n = get_u32(tb[FATTREE_A_FABRIC_LEAVES]);
	f->path = get_u32(tb[FATTREE_A_FABRIC_PATH]);
	f->injection = get_u32(tb[FATTREE_A_FABRIC_INJECTION]);
	f->period_ns = get_u64(tb[FATTREE_A_FABRIC_PERIOD_NS]);
	f->backlog = get_u32(tb[FATTREE_A_FABRIC_BACKLOG]);
	f->cycle = get_u64(tb[FATTREE_A_FABRIC_CYCLE]);
	if (tb[FATTREE_A_FABRIC_STATS] &&
	    !nla_parse_nested(st, FATTREE_A_STATS_MAX, tb[FATTREE_A_FABRIC_STATS], NULL)) {
		f->queued = get_u64(st[FATTREE_A_STATS_QUEUED]);
		f->delivered = get_u64(st[FATTREE_A_STATS_DELIVERED]);
		f->synth_queued = get_u64(st[FATTREE_A_STATS_SYNTH_QUEUED]);
		f->drained_cycle = get_u64(st[FATTREE_A_STATS_DRAINED_CYCLE]);
		f->overruns = get_u64(st[FATTREE_A_STATS_OVERRUNS]);
		f->cycle_ns = get_u64(st[FATTREE_A_STATS_CYCLE_NS]);
		f->run_ns = get_u64(st[FATTREE_A_STATS_RUN_NS]);
	}
	return 0;
}

int ftt_fabric_get(struct ftnl *nl, const char *name, struct ftt_fabric *f)
{
	memset(f, 0, sizeof(*f));
	return ftnl_fabric_transact(nl, FATTREE_CMD_FABRIC_GET, 0,
				    FATTREE_A_FABRIC_NAME, name, fabric_reply, f);
}

static int leaf_reply(struct nl_msg *msg, void *arg)
{
	struct nlattr *tb[FATTREE_A_LEAF_MAX + 1];
	struct ftt_leaves *l = arg;
	struct ftt_leaf *lf;
	uint32_t i, nb;

	if (ftnl_parse(msg, tb, FATTREE_A_LEAF_MAX) || !tb[FATTREE_A_LEAF_INDEX])
		return -EINVAL;
	i = nla_get_u32(tb[FATTREE_A_LEAF_INDEX]);
	if (i >= l->n)
		return -EPROTO;
	lf = &l->leaf[i];
	if (tb[FATTREE_A_LEAF_IFNAME])
		nla_strlcpy(lf->ifname, tb[FATTREE_A_LEAF_IFNAME], sizeof(lf->ifname));
	lf->sent = get_u64(tb[FATTREE_A_LEAF_SENT]);
	lf->delivered = get_u64(tb[FATTREE_A_LEAF_DELIVERED]);
	lf->queued = get_u64(tb[FATTREE_A_LEAF_QUEUED]);
	memset(lf->latency, 0, sizeof(lf->latency));
	if (tb[FATTREE_A_LEAF_LATENCY]) {
		nb = (uint32_t)nla_len(tb[FATTREE_A_LEAF_LATENCY]) / sizeof(uint64_t);
		if (nb > FATTREE_LATENCY_BUCKETS)
			nb = FATTREE_LATENCY_BUCKETS;
		memcpy(lf->latency, nla_data(tb[FATTREE_A_LEAF_LATENCY]), nb * sizeof(uint64_t));
	}
	return 0;
}

int ftt_leaves_get(struct ftnl *nl, const char *name, struct ftt_leaves *l)
{
	return ftnl_fabric_transact(nl, FATTREE_CMD_LEAF_GET, NLM_F_DUMP,
				    FATTREE_A_LEAF_FABRIC, name, leaf_reply, l);
}

static int link_reply(struct nl_msg *msg, void *arg)
{
	struct nlattr *tb[FATTREE_A_LINK_MAX + 1];
	struct ftt_links *l = arg;
	struct ftt_link *k;

	if (ftnl_parse(msg, tb, FATTREE_A_LINK_MAX))
		return -EINVAL;
	if (l->n == l->cap) {
		uint32_t cap = l->cap ? 2 * l->cap : 256;
		struct ftt_link *v = realloc(l->link, cap * sizeof(*v));

		if (!v)
			return -ENOMEM;
		l->link = v;
		l->cap = cap;
	}
	k = &l->link[l->n++];
	k->id = get_u32(tb[FATTREE_A_LINK_ID]);
	k->level = get_u32(tb[FATTREE_A_LINK_LEVEL]);
	k->up = !!tb[FATTREE_A_LINK_UP];
	k->lanes = get_u32(tb[FATTREE_A_LINK_LANES]);
	k->carried = get_u64(tb[FATTREE_A_LINK_CARRIED]);
	k->max_cycle = get_u32(tb[FATTREE_A_LINK_MAX_CYCLE]);
	k->saturated = get_u64(tb[FATTREE_A_LINK_SATURATED]);
	return 0;
}

int ftt_links_get(struct ftnl *nl, const char *name, struct ftt_links *l)
{
	l->n = 0;
	return ftnl_fabric_transact(nl, FATTREE_CMD_LINK_GET, NLM_F_DUMP,
				    FATTREE_A_LINK_FABRIC, name, link_reply, l);
}

int ftt_fabric_step(struct ftnl *nl, const char *name, uint32_t steps)
{
	struct nl_msg *msg = ftnl_msg(nl, FATTREE_CMD_FABRIC_STEP, 0);

	if (!msg)
		return -ENOMEM;
	if (nla_put_string(msg, FATTREE_A_FABRIC_NAME, name) ||
	    nla_put_u32(msg, FATTREE_A_FABRIC_STEPS, steps)) {
		nlmsg_free(msg);
		return -EMSGSIZE;
	}
	return ftnl_transact(nl, msg, NULL, NULL);
}

int ftt_fabric_inject(struct ftnl *nl, const char *name, const struct ftt_set *s)
{
	struct fattree_inject_row *rows = calloc(s->nflows ? s->nflows : 1, sizeof(*rows));
	struct nl_msg *msg;
	uint32_t i;

	if (!rows)
		return -ENOMEM;
	for (i = 0; i < s->nflows; i++) {
		if (s->flow[i].count > UINT32_MAX) {
			free(rows);
			return -E2BIG;
		}
		rows[i] = (struct fattree_inject_row){ s->flow[i].src, s->flow[i].dst,
						       (uint32_t)s->flow[i].count };
	}
	msg = ftnl_batch(nl, FATTREE_CMD_FABRIC_INJECT, FATTREE_A_FABRIC_NAME, name,
			 FATTREE_A_FABRIC_INJECT, rows, s->nflows, sizeof(*rows));
	free(rows);
	if (!msg)
		return -ENOMEM;
	return ftnl_transact(nl, msg, NULL, NULL);
}

static int count_reply(struct nl_msg *msg, void *arg)
{
	(void)msg;
	(*(uint32_t *)arg)++;
	return 0;
}

/* Circuits installed in the fabric now. */
int ftt_circuits_count(struct ftnl *nl, const char *name, uint32_t *n)
{
	*n = 0;
	return ftnl_fabric_transact(nl, FATTREE_CMD_CIRCUIT_GET, NLM_F_DUMP,
				    FATTREE_A_CIRCUIT_FABRIC, name, count_reply, n);
}

static int unserved_count(const void *e, void *arg)
{
	const struct fattree_demand *d = e;
	uint32_t *n = arg;

	*n += !d->circuit_lanes;
	return 0;
}

static int unserved_reply(struct nl_msg *msg, void *arg)
{
	long n = ftnl_each_demand(msg, unserved_count, arg);

	return n < 0 ? (int)n : 0;
}

/* Pairs waiting with no circuit at all: what a scheduler has yet to serve. */
int ftt_demand_unserved(struct ftnl *nl, const char *name, uint32_t *n)
{
	*n = 0;
	return ftnl_fabric_transact(nl, FATTREE_CMD_DEMAND_GET, NLM_F_DUMP,
				    FATTREE_A_DEMAND_FABRIC, name, unserved_reply, n);
}
