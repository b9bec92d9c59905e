// SPDX-License-Identifier: GPL-2.0
/*
 * ftctl's fabric.c and a reset of its parsed request. The row buffers
 * stay: add_row() keeps their capacity in a static of its own.
 */
#include "../../../tools/ftctl/fabric.c"
#include "units.h"

void fz_ftctl_fabric_reset(void)
{
	struct fattree_inject_row *rows = fr.rows;
	uint32_t *lines = fr.lines;

	memset(&fr, 0, sizeof(fr));
	fr.rows = rows;
	fr.lines = lines;
}
