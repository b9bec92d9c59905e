// SPDX-License-Identifier: GPL-2.0
/* ftsim cycles' argument parsing alone, and its checks before a run. */
#include "../../../tools/ftsim/cycles.c"
#include "units.h"

int fz_ftsim_cycles_args(int argc, char **argv)
{
	struct cyc_args a;
	struct ft_topo t;
	u32 p;

	if (cyc_args(argc, argv, &a))
		return -1;
	/* as ftsim_cycles(): every profile must fit the shape */
	for (p = 0; p < a.nprof; p++)
		if (ftsim_topo(CMD, &a.sh, &a.prof[p], &t))
			return -1;
	return 0;
}
