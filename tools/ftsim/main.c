// SPDX-License-Identifier: GPL-2.0
/*
 * ftsim: the fabric's engine core and (later) the schedulers, offline.
 */
#include <stdio.h>
#include <string.h>

int ftsim_replay(int argc, char **argv);

static void usage(FILE *f)
{
	fprintf(f, "usage: ftsim <command> [args]\n"
		   "  replay   run a synthetic message set through the engine core\n"
		   "           exactly as the kernel does (ftsim replay --help)\n");
}

int main(int argc, char **argv)
{
	if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		usage(argc < 2 ? stderr : stdout);
		return argc < 2 ? 2 : 0;
	}
	if (!strcmp(argv[1], "replay"))
		return ftsim_replay(argc - 1, argv + 1);
	fprintf(stderr, "ftsim: unknown command '%s'\n", argv[1]);
	usage(stderr);
	return 2;
}
