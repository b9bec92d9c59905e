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

int ftt_fabric_get(struct ftnl *nl, const char *name, struct ftt_fabric *f)
{
	struct ftobj_fabric o;
	int err;

	memset(f, 0, sizeof(*f));
	err = ftobj_fabric_get_shape(nl, name, &o);
	if (err)
		return err;
	f->h = o.levels;
	memcpy(f->m, o.down, sizeof(f->m));
	memcpy(f->w, o.up, sizeof(f->w));
	memcpy(f->lanes, o.lanes, sizeof(f->lanes));
	f->n = o.leaves;
	f->path = o.path;
	f->injection = o.injection;
	f->period_ns = o.period_ns;
	f->backlog = o.backlog;
	f->cycle = o.cycle;
	f->queued = o.stats.v[FATTREE_A_STATS_QUEUED];
	f->delivered = o.stats.v[FATTREE_A_STATS_DELIVERED];
	f->synth_queued = o.stats.v[FATTREE_A_STATS_SYNTH_QUEUED];
	f->drained_cycle = o.stats.v[FATTREE_A_STATS_DRAINED_CYCLE];
	f->overruns = o.stats.v[FATTREE_A_STATS_OVERRUNS];
	f->cycle_ns = o.stats.v[FATTREE_A_STATS_CYCLE_NS];
	f->run_ns = o.stats.v[FATTREE_A_STATS_RUN_NS];
	return 0;
}

static int leaf_reply(struct nl_msg *msg, void *arg)
{
	struct ftt_leaves *l = arg;
	struct ftobj_leaf o;
	struct ftt_leaf *lf;
	int err;

	err = ftobj_leaf_decode(msg, &o);
	if (err)
		return err;
	if (o.index >= l->n)
		return -EPROTO;
	lf = &l->leaf[o.index];
	if (FTOBJ_HAS(&o, FATTREE_A_LEAF_IFNAME))
		memcpy(lf->ifname, o.ifname, sizeof(lf->ifname));
	lf->sent = o.sent;
	lf->delivered = o.delivered;
	lf->queued = o.queued;
	memcpy(lf->latency, o.latency, sizeof(lf->latency));
	return 0;
}

int ftt_leaves_get(struct ftnl *nl, const char *name, struct ftt_leaves *l)
{
	return ftnl_fabric_transact(nl, FATTREE_CMD_LEAF_GET, NLM_F_DUMP,
				    FATTREE_A_LEAF_FABRIC, name, leaf_reply, l);
}

int ftt_links_get(struct ftnl *nl, const char *name, struct ftt_links *l)
{
	struct ftobj_link *v;
	int n = ftobj_links(nl, name, &v);

	if (n < 0)
		return n;
	free(l->link);
	l->link = v;
	l->n = (size_t)n;
	return 0;
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
