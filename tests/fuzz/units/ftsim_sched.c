// SPDX-License-Identifier: GPL-2.0
/* ftsim sched's argument parsing alone, and its checks before a run. */
#include "../../../tools/ftsim/sched.c"
#include "units.h"

int fz_ftsim_sched_args(int argc, char **argv)
{
	struct ftsim_shape sh;
	struct sched_args a;
	char word[32];
	u32 i;

	if (sched_args(argc, argv, &a))
		return -1;
	/* as ftsim_sched(): every size must be a tree */
	for (i = 0; i < a.nsizes; i++) {
		snprintf(word, sizeof(word), "%u:%u", a.size_l[i], a.size_k[i]);
		if (ftsim_kary(CMD, "--sizes item", word, &sh, a.size_l[i],
			       a.size_k[i]))
			return -1;
	}
	return 0;
}
