/* SPDX-License-Identifier: GPL-2.0 */
/* ftctl: shared declarations of the subcommands. */
#ifndef FTCTL_H
#define FTCTL_H

#include <stdbool.h>

#include "ftnl.h"

/* Exit codes: what went wrong, for scripts. */
enum {
	FTCTL_EXIT_OK = 0,
	FTCTL_EXIT_FAIL = 1,	/* the kernel refused or the request failed */
	FTCTL_EXIT_USAGE = 2,	/* bad command line */
	FTCTL_EXIT_NOMOD = 3,	/* the fattree module is not loaded */
};

struct ftctl {
	struct ftnl nl;
	bool json;
};

struct ftctl_cmd {
	const char *name;
	const char *args;
	const char *help;
	int (*run)(struct ftctl *ctl, int argc, char **argv);
};

extern const struct ftctl_cmd ftctl_cmd_info;

/* Print "ftctl: <what>: <strerror: extack>" and return FTCTL_EXIT_FAIL. */
int ftctl_fail(const struct ftctl *ctl, const char *what, int err);

#endif /* FTCTL_H */
