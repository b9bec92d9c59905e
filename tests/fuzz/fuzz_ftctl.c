// SPDX-License-Identifier: GPL-2.0
/*
 * Harness: ftctl's command line (tools/ftctl: main()'s options and
 * dispatch, parse.c, every object's parser, inject and circuit files).
 *
 * The input is a command line and a file (fz_argv.h: "fabric inject F
 * file @FILE", "circuit add F file @FILE"). ftctl's own main() runs on
 * it with ftnl_open() wrapped to report the module missing, so a
 * well-formed command ends in exit 3 before any netlink, a bad one in
 * exit 2 and help in exit 0; nothing else may happen, crash or leak.
 * Every object's parsed request is reset between inputs (units/), as in
 * a new process. -n and -batch are left out (system_options()); ftctl-args
 * and ftctl_test.sh test them.
 */
#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "ftnl.h"
#include "fz_argv.h"
#include "fz_trap.h"
#include "units/units.h"

int __wrap_ftnl_open(struct ftnl *nl);

/* Linked with -Wl,--wrap=ftnl_open: no socket is ever opened. */
int __wrap_ftnl_open(struct ftnl *nl)
{
	(void)nl;
	return -ENOENT;
}

static void reset(void)
{
	fz_ftctl_fabric_reset();
	fz_ftctl_circuit_reset();
	fz_ftctl_demand_reset();
	fz_ftctl_leaf_reset();
	fz_ftctl_link_reset();
	fz_ftctl_switch_reset();
	fz_ftctl_monitor_reset();
}

/*
 * Does the command line ask for -n NETNS or -batch FILE (-force with it)?
 * Those enter namespaces and fork a child per line: not for a fuzzer's
 * process, and their own failures (no such namespace or file) are exit
 * 1, which the invariant below leaves out. Short options may cluster
 * (-jb F) and long ones be abbreviated (--ba F), as getopt takes them.
 */
static bool system_options(const struct fz_argv *a)
{
	static const char *const longs[] = { "batch", "netns", "force" };
	const char *w;
	size_t i, k;
	int n;

	for (n = 1; n < a->argc && a->argv[n][0] == '-'; n++) {
		w = a->argv[n];
		if (w[1] != '-') {
			if (strpbrk(w + 1, "bnf"))
				return true;
			continue;
		}
		for (k = 0; k < sizeof(longs) / sizeof(longs[0]); k++) {
			i = strcspn(w + 2, "=");
			if (i && !strncmp(w + 2, longs[k], i))
				return true;
		}
	}
	return false;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sigaction sint, sterm;
	struct fz_argv a;
	int rc;

	if (fz_argv_build(&a, "ftctl", data, size))
		return 0;
	if (system_options(&a)) {
		fz_argv_free(&a);
		return 0;
	}
	/* "demand watch" catches SIGINT and SIGTERM: give them back. */
	sigaction(SIGINT, NULL, &sint);
	sigaction(SIGTERM, NULL, &sterm);
	reset();
	rc = fz_call(ftctl_main, a.argc, a.argv);
	sigaction(SIGINT, &sint, NULL);
	sigaction(SIGTERM, &sterm, NULL);
	FZ_CHECK(rc == 0 || rc == 2 || rc == 3, "ftctl exited %#x", rc);
	fz_argv_free(&a);
	return 0;
}
