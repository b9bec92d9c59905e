/* SPDX-License-Identifier: GPL-2.0 */
/* fttraffic's netlink requests to the fabric (fabric.c). */
#ifndef FTT_FABRIC_H
#define FTT_FABRIC_H

#include "ftnl.h"
#include "ftobj.h"
#include "fttraffic.h"

struct ftt_fabric {
	uint32_t n, h;
	uint32_t m[FATTREE_MAX_LEVELS], w[FATTREE_MAX_LEVELS], lanes[FATTREE_MAX_LEVELS];
	uint32_t path, injection, backlog;
	uint64_t period_ns, cycle;
	uint64_t queued, delivered, synth_queued, drained_cycle, overruns, cycle_ns, run_ns;
};

struct ftt_leaf {
	char ifname[16];
	uint64_t sent, delivered, queued;
	uint64_t latency[FATTREE_LATENCY_BUCKETS];
};

struct ftt_leaves {
	uint32_t n;
	struct ftt_leaf *leaf;	/* [n], by index */
};

struct ftt_links {
	size_t n;
	struct ftobj_link *link;	/* [n], as the dump gave them */
};

int ftt_fabric_get(struct ftnl *nl, const char *name, struct ftt_fabric *f);
int ftt_leaves_get(struct ftnl *nl, const char *name, struct ftt_leaves *l);
int ftt_links_get(struct ftnl *nl, const char *name, struct ftt_links *l);
int ftt_fabric_step(struct ftnl *nl, const char *name, uint32_t steps);
int ftt_fabric_inject(struct ftnl *nl, const char *name, const struct ftt_set *s);
int ftt_circuits_count(struct ftnl *nl, const char *name, uint32_t *n);
int ftt_demand_unserved(struct ftnl *nl, const char *name, uint32_t *n);

#endif /* FTT_FABRIC_H */
