// SPDX-License-Identifier: GPL-2.0
/* ftctl's demand.c and a reset of its parsed request. */
#include "../../../tools/ftctl/demand.c"
#include "units.h"

void fz_ftctl_demand_reset(void)
{
	memset(&dq, 0, sizeof(dq));
}
