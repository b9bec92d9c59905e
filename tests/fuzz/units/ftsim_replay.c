// SPDX-License-Identifier: GPL-2.0
/*
 * ftsim replay's argument parsing, shape check and rows file, without
 * the cycles (a pool of 4096 pairs instead of 2^20).
 */
#include "../../../tools/ftsim/replay.c"
#include "units.h"

int fz_ftsim_replay_args(int argc, char **argv)
{
	u32 lanes[FT_MAX_LEVELS];
	struct ft_pairs q;
	struct ft_topo t;
	struct replay r;
	int err;

	if (replay_args(argc, argv, &r))
		return -1;
	if (ft_profile_lanes(&r.p.profile, r.p.h, r.p.m, r.p.w, lanes) ||
	    ft_topo_init(&t, r.p.h, r.p.m, r.p.w, lanes))
		return -1;
	if (ft_pairs_init(&q, 4096))
		abort();
	err = replay_rows(r.rows, &q, t.n);
	ft_pairs_destroy(&q);
	return err;
}
