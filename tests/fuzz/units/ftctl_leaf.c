// SPDX-License-Identifier: GPL-2.0
/* ftctl's leaf.c and a reset of its parsed request. */
#include "../../../tools/ftctl/leaf.c"
#include "units.h"

void fz_ftctl_leaf_reset(void)
{
	memset(&lq, 0, sizeof(lq));
}
