/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Test harness: a userspace stand-in for the kernel's queues, driving the
 * core (injection + delivery cycle) and checking every cycle's invariants
 * independently of the engine's own bookkeeping.
 */
#ifndef FT_TEST_HARNESS_H
#define FT_TEST_HARNESS_H

#include "../../kmod/core/ft_fabric.h"
#include "../../kmod/core/ft_load.h"

struct sim_pair {
	u32 src;
	u32 dst;
	u32 queued;		/* messages waiting */
	u32 sent_seq;		/* sequence number of the head message */
	u32 clanes;		/* circuit lanes (0: none) */
	struct ft_path cpath;
	struct ft_inject_pair ips;
};

struct sim {
	struct ft_fabric f;
	struct sim_pair *pair;
	u32 npairs;
	struct ft_offer *off;
	struct ft_offer_circuit *oc;	/* the offers' circuits */
	u32 *off_pair;
	u64 backlog;
	u64 cycles;
	u64 delivered;
	u32 violations;
	char why[512];
};

int sim_init(struct sim *s, const struct ft_fabric_params *p,
	     const struct ft_demand *dm, u32 nd);
int sim_step(struct sim *s, struct ft_cycle_result *res);
u64 sim_run(struct sim *s, u64 max_cycles);
void sim_destroy(struct sim *s);

int check_cycle(const struct ft_fabric *f, const struct ft_offer *off,
		const struct ft_offer_circuit *oc, u32 noff,
		const struct ft_cycle_result *res, char *why, size_t len);

void fabric_params(struct ft_fabric_params *p, u32 h, const u32 *m,
		   const u32 *w, const u32 *lanes);

void random_shape(struct ft_rand *r, u32 *h, u32 *m, u32 *w, u32 *lanes,
		  u32 max_h);
int random_topo(struct ft_rand *r, struct ft_topo *t, u32 max_h);
/* A random_shape() fabric in @p, the rest as fabric_params() sets it. */
void random_params(struct ft_rand *r, struct ft_fabric_params *p, u32 max_h);

#endif
