// SPDX-License-Identifier: GPL-2.0
/* ftctl's circuit.c and a reset of its parsed request (rows kept). */
#include "../../../tools/ftctl/circuit.c"
#include "units.h"

void fz_ftctl_circuit_reset(void)
{
	struct circ_row *rows = cr.rows;
	size_t cap = cr.cap;

	memset(&cr, 0, sizeof(cr));
	cr.rows = rows;
	cr.cap = cap;
}
