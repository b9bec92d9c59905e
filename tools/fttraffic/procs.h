/* SPDX-License-Identifier: GPL-2.0 */
/* fttraffic's worker processes and their barriers (procs.c). */
#ifndef FTT_PROCS_H
#define FTT_PROCS_H

#include <fcntl.h>
#include <sys/types.h>

#include "fttraffic.h"

struct ftt_procs {
	struct ftt_shared *sh;
	const struct ftt_run *run;
	const struct ftt_host_cfg *cfg;
	pid_t parent;
	pid_t *pid;		/* [nhosts], 0 once reaped */
	uint32_t started, exited;
	int up[2];		/* workers -> controller: one byte per barrier */
	int go[2][2];		/* controller -> workers: closed to release */
	int sigfd;
};

int ftt_procs_start(struct ftt_procs *p, char *err, size_t len);
int ftt_procs_barrier(struct ftt_procs *p, double timeout, char *err, size_t len);
void ftt_procs_go(struct ftt_procs *p, int phase);
int ftt_procs_poll(struct ftt_procs *p, char *err, size_t len);
int ftt_procs_sleep(struct ftt_procs *p, int ms, char *err, size_t len);
int ftt_procs_end(struct ftt_procs *p, double timeout, char *err, size_t len);
void ftt_procs_kill(struct ftt_procs *p);

#endif /* FTT_PROCS_H */
