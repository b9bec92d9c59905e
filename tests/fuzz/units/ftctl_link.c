// SPDX-License-Identifier: GPL-2.0
/* ftctl's link.c and a reset of its parsed request. */
#include "../../../tools/ftctl/link.c"
#include "units.h"

void fz_ftctl_link_reset(void)
{
	memset(&lr, 0, sizeof(lr));
}
