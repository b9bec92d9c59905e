// SPDX-License-Identifier: GPL-2.0
/*
 * ftsim: the fabric's engine core and the scheduling library, offline.
 */
#include <stdio.h>
#include <string.h>

#include "ftsim.h"

static void usage(FILE *f)
{
	fprintf(f, "usage: ftsim <command> [args]\n"
		   "       ftsim help [command]\n"
		   "  sched    seed 002's experiment: schedulability ratio of the\n"
		   "           scheduling algorithms on k-ary n-trees, next to the\n"
		   "           paper's ranges (ftsim sched --help)\n"
		   "  cycles   message batches through the delivery-cycle engine\n"
		   "           (GREEDY, RANDOM, RANDOM') and Leiserson's off-line\n"
		   "           schedule: cycles used against the load factor lambda\n"
		   "           (ftsim cycles --help)\n"
		   "  replay   run a synthetic message set through the engine core\n"
		   "           exactly as the kernel does (ftsim replay --help)\n"
		   "  saf      store-and-forward routing through bounded edge queues\n"
		   "           (seed 001): steps against c + L + lg N and lambda + lg M\n"
		   "           (ftsim saf --help)\n"
		   "  -h, --help  this text (each command takes -h, --help too)\n"
		   "Exit status: 0 done, 1 failed, 2 bad arguments.\n");
}

static int run(int argc, char **argv)
{
	const char *cmd = argc > 1 ? argv[1] : NULL;

	if (!cmd) {
		usage(stderr);
		return FTSIM_EXIT_USAGE;
	}
	if (!strcmp(cmd, "--help") || !strcmp(cmd, "-h")) {
		usage(stdout);
		return 0;
	}
	if (!strcmp(cmd, "help")) {
		if (argc == 2) {
			usage(stdout);
			return 0;
		}
		if (!strcmp(argv[2], "sched")) {
			ftsim_sched_usage(stdout);
			return 0;
		}
		if (!strcmp(argv[2], "cycles")) {
			ftsim_cycles_usage(stdout);
			return 0;
		}
		if (!strcmp(argv[2], "saf")) {
			ftsim_saf_usage(stdout);
			return 0;
		}
		if (!strcmp(argv[2], "replay")) {
			char *av[] = { "replay", "--help", NULL };

			return ftsim_replay(2, av);
		}
		fprintf(stderr, "ftsim: unknown command '%s'\n", argv[2]);
		usage(stderr);
		return FTSIM_EXIT_USAGE;
	}
	if (!strcmp(cmd, "sched"))
		return ftsim_sched(argc - 1, argv + 1);
	if (!strcmp(cmd, "cycles"))
		return ftsim_cycles(argc - 1, argv + 1);
	if (!strcmp(cmd, "replay"))
		return ftsim_replay(argc - 1, argv + 1);
	if (!strcmp(cmd, "saf"))
		return ftsim_saf(argc - 1, argv + 1);
	fprintf(stderr, "ftsim: unknown command '%s'\n", cmd);
	usage(stderr);
	return FTSIM_EXIT_USAGE;
}

/* The commands that share their work out among MPI ranks. */
static bool shared(const char *cmd)
{
	return cmd && (!strcmp(cmd, "sched") || !strcmp(cmd, "cycles") ||
		       !strcmp(cmd, "saf"));
}

int main(int argc, char **argv)
{
	int rc = ftsim_mpi_init(&argc, &argv);

	if (rc)
		return rc;
	/* under an MPI launcher, rank 0 alone does what is not shared out */
	if (ftsim_mpi_rank() > 0 && !shared(argc > 1 ? argv[1] : NULL))
		return ftsim_mpi_end(0);
	return ftsim_mpi_end(run(argc, argv));
}
