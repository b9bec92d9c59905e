/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Invariants of the engine core's state, checked the same way by every
 * harness that drives cycles or circuits; a broken one aborts (fz_fail).
 */
#ifndef FZ_CHECK_H
#define FZ_CHECK_H

#include "ft_fabric.h"
#include "ft_circuits.h"
#include "fz_model.h"

/*
 * The circuit table: its lists and hash agree, every circuit's path is
 * the model's for its ports, and every link's reserved lanes are the sum
 * of its circuits' lanes and at most its lanes.
 */
void fz_check_circuits(const struct ft_circuits *cs, const struct ft_lanes *l,
		       const struct fz_model *md);

/*
 * The cycle @f just ran on @off with the lane state @l (@f's own, or a
 * copy from before leases ended): no link carried more than its lanes,
 * more circuit messages than its reserved lanes, or more other messages
 * than its free lanes; every offer delivered at most its count and at
 * least its circuit's share; the totals add up.
 */
void fz_check_cycle(const struct ft_fabric *f, const struct ft_lanes *l,
		    const struct ft_offer *off, const struct ft_offer_circuit *oc,
		    u32 noff, const struct ft_cycle_result *res,
		    const struct fz_model *md);

#endif /* FZ_CHECK_H */
