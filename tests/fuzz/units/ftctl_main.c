// SPDX-License-Identifier: GPL-2.0
/* ftctl's main() as ftctl_main(): the harness is the program's main. */
#include "units.h"

#define main ftctl_main
#include "../../../tools/ftctl/main.c"
