// SPDX-License-Identifier: GPL-2.0
/* ftctl's monitor.c and a reset of its parsed request and stop flag. */
#include "../../../tools/ftctl/monitor.c"
#include "units.h"

void fz_ftctl_monitor_reset(void)
{
	memset(&mr, 0, sizeof(mr));
	mon_stop = 0;
}
