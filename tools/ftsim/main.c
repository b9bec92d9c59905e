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
		   "  sched    the experiment of Ding et al. (2006): schedulability\n"
		   "           ratio of the scheduling algorithms on k-ary n-trees,\n"
		   "           next to the paper's ranges (ftsim sched --help)\n"
		   "  cycles   message batches through the delivery-cycle engine\n"
		   "           (GREEDY, RANDOM, RANDOM') and Leiserson's off-line\n"
		   "           schedule: cycles used against the load factor lambda\n"
		   "           (ftsim cycles --help)\n"
		   "  replay   run a synthetic message set through the engine core\n"
		   "           exactly as the kernel does (ftsim replay --help)\n"
		   "  saf      store-and-forward routing through bounded edge queues\n"
		   "           (Leighton, Maggs, Ranade and Rao, 1994): steps against\n"
		   "           c + L + lg N and lambda + lg M\n"
		   "           (ftsim saf --help)\n"
		   "  -h, --help  this text (each command takes -h, --help too)\n"
		   "Exit status: 0 done, 1 failed, 2 bad arguments.\n");
}

static const struct ftsim_cmd {
	const char *name;
	int (*run)(int argc, char **argv);
	void (*usage)(FILE *f);	/* NULL: "NAME --help" prints it */
	bool shared;		/* shares its work out among MPI ranks */
} cmds[] = {
	{ "sched", ftsim_sched, ftsim_sched_usage, true },
	{ "cycles", ftsim_cycles, ftsim_cycles_usage, true },
	{ "replay", ftsim_replay, NULL, false },
	{ "saf", ftsim_saf, ftsim_saf_usage, true },
};

static const struct ftsim_cmd *find(const char *name)
{
	size_t i;

	for (i = 0; name && i < sizeof(cmds) / sizeof(cmds[0]); i++)
		if (!strcmp(name, cmds[i].name))
			return &cmds[i];
	return NULL;
}

static int unknown(const char *name)
{
	fprintf(stderr, "ftsim: unknown command '%s'\n", name);
	usage(stderr);
	return FTSIM_EXIT_USAGE;
}

static int run(int argc, char **argv)
{
	const char *cmd = argc > 1 ? argv[1] : NULL;
	const struct ftsim_cmd *c;

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
		c = find(argv[2]);
		if (!c)
			return unknown(argv[2]);
		if (!c->usage) {
			char *av[] = { argv[2], "--help", NULL };

			return c->run(2, av);
		}
		c->usage(stdout);
		return 0;
	}
	c = find(cmd);
	if (!c)
		return unknown(cmd);
	return c->run(argc - 1, argv + 1);
}

int main(int argc, char **argv)
{
	const struct ftsim_cmd *c;
	int rc = ftsim_mpi_init(&argc, &argv);

	if (rc)
		return rc;
	c = find(argc > 1 ? argv[1] : NULL);
	/* under an MPI launcher, rank 0 alone does what is not shared out */
	if (ftsim_mpi_rank() > 0 && !(c && c->shared))
		return ftsim_mpi_end(0);
	return ftsim_mpi_end(run(argc, argv));
}
