/* SPDX-License-Identifier: GPL-2.0 */
/*
 * An independent validator of schedules.
 *
 * Written apart from the schedulers and sharing none of their code: it
 * recomputes every path with the core's ft_topo_path() and counts lanes
 * per directed link against a free-lanes table.  Each function returns 0
 * when the schedule is sound, else -1 with the first problem in @why.
 */
#ifndef FT_SCHED_CHECK_H
#define FT_SCHED_CHECK_H

#include "ft_sched.h"

/*
 * One round: statuses match the requests (INVALID exactly for a leaf out
 * of range or 0 lanes), H is right, every granted path is valid (ports
 * < w_i, 0 beyond H, ends at src and dst), no link carries more granted
 * lanes than @free_before gives it, refusals name a level 1..H.  With
 * @free_after (the scheduler's table after the round): no link gained
 * lanes, every link lost at least what the granted paths use, and with
 * @exact exactly that (nothing kept by refused requests).
 */
int ft_sched_check_round(const struct ft_topo *t, const u32 *free_before,
			 const u32 *free_after, bool exact,
			 const struct ft_sched_req *req, u32 n,
			 const struct ft_sched_out *out, char *why,
			 size_t len);

/*
 * A multi-cycle schedule (ft_sched_leiserson()): every scheduled message
 * appears in exactly one cycle list, the one its @out says, and no other
 * entry does; every message is GRANTED, REFUSED or (lanes != 1, bad leaf)
 * INVALID; in every cycle no link carries more messages than @cap gives
 * it; on a tree with every w_i = 1 a refused message crosses a link
 * without capacity.
 */
int ft_sched_check_cycles(const struct ft_topo *t, const u32 *cap,
			  const struct ft_sched_req *msg, u32 n,
			  const struct ft_sched_out *out,
			  const struct ft_sched_cycles *cyc, char *why,
			  size_t len);

#endif /* FT_SCHED_CHECK_H */
