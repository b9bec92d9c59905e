// SPDX-License-Identifier: GPL-2.0
/*
 * Harness: ftsim's command lines (tools/ftsim: the sched, cycles and
 * replay subcommands' options, shapes, profiles, lists, replay's rows
 * file), parsed and checked as each subcommand does before it runs
 * anything, never run (units/ftsim_*.c).
 *
 * The input is a command line and a file (fz_argv.h; "replay ... --rows
 * @FILE"); its first word picks the subcommand. A parse refuses (-1) or
 * accepts; --help ends in exit(0); nothing else may happen, crash or
 * leak.
 */
#include <stdint.h>
#include <string.h>

#include "fz_argv.h"
#include "fz_trap.h"
#include "units/units.h"

static const struct {
	const char *name;
	int (*args)(int argc, char **argv);
} subs[] = {
	{ "sched", fz_ftsim_sched_args },
	{ "cycles", fz_ftsim_cycles_args },
	{ "replay", fz_ftsim_replay_args },
};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fz_argv a;
	size_t k;
	int rc;

	if (fz_argv_build(&a, "ftsim", data, size))
		return 0;
	for (k = 0; a.argc > 1 && k < sizeof(subs) / sizeof(subs[0]); k++) {
		if (strcmp(a.argv[1], subs[k].name))
			continue;
		rc = fz_call(subs[k].args, a.argc - 1, a.argv + 1);
		FZ_CHECK(rc == 0 || rc == -1 || rc == FZ_EXITED,
			 "ftsim %s: %#x", subs[k].name, rc);
	}
	fz_argv_free(&a);
	return 0;
}
