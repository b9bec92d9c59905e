// SPDX-License-Identifier: GPL-2.0
/* ftctl's switch.c and a reset of its parsed request. */
#include "../../../tools/ftctl/switch.c"
#include "units.h"

void fz_ftctl_switch_reset(void)
{
	memset(&sr, 0, sizeof(sr));
}
