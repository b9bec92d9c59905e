/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The engine state of one fabric, as one object.
 *
 * Everything the delivery cycle needs lives here, allocated once at
 * creation: shape, lanes, generator, injection schedule, cycle scratch
 * and per-link totals.  Queues, devices and locking belong to the
 * caller.  Circuits (next step) add a table whose reservations already
 * have their place in @lanes and whose paths ride in ft_offer.
 * The object must not move after ft_fabric_init(): @cfg points into it.
 */
#ifndef FT_FABRIC_H
#define FT_FABRIC_H

#include "ft_profile.h"
#include "ft_cycle.h"
#include "ft_inject.h"

/**
 * struct ft_fabric_params - everything a fabric is created from.
 * @h: switch levels.
 * @m: m_1..m_h.
 * @w: w_1..w_h.
 * @profile: capacity profile giving lanes c_1..c_h.
 * @path: path choice.
 * @arb: arbitration.
 * @inject: injection rule and constants.
 * @seed: PRNG seed.
 * @max_msgs: most contending messages per cycle (sizes the scratch).
 */
struct ft_fabric_params {
	u32 h;
	u32 m[FT_MAX_LEVELS];
	u32 w[FT_MAX_LEVELS];
	struct ft_profile profile;
	enum ft_path_choice path;
	enum ft_arbitration arb;
	struct ft_inject_params inject;
	u64 seed;
	u32 max_msgs;
};

/**
 * struct ft_fabric - engine state of one fabric.
 * @topo: shape and lanes per level.
 * @lanes: per directed link lanes and reservations.
 * @rand: the fabric's only source of randomness.
 * @inject: injection schedule.
 * @cfg: what ft_cycle_run() reads (points at the members above).
 * @scratch: per-cycle working memory, described.
 * @scratch_mem: its block.
 * @stats: per directed link running totals.
 * @cycle: delivery cycles run.
 */
struct ft_fabric {
	struct ft_topo topo;
	struct ft_lanes lanes;
	struct ft_rand rand;
	struct ft_inject inject;
	struct ft_cycle_cfg cfg;
	struct ft_cycle_scratch scratch;
	void *scratch_mem;
	struct ft_link_stats *stats;
	u64 cycle;
};

int ft_fabric_init(struct ft_fabric *f, const struct ft_fabric_params *p);
void ft_fabric_destroy(struct ft_fabric *f);
size_t ft_fabric_mem_size(const struct ft_fabric *f);
int ft_fabric_cycle(struct ft_fabric *f, struct ft_offer *off,
		    const struct ft_offer_circuit *oc, u32 noff,
		    struct ft_cycle_result *res);
int ft_fabric_cycle_plain(struct ft_fabric *f, struct ft_offer *off, u32 noff,
			  struct ft_cycle_result *res, enum ft_cycle_laid laid);

#endif /* FT_FABRIC_H */
