/* SPDX-License-Identifier: GPL-2.0 */
/* fttraffic's options (args.c). */
#ifndef FTT_ARGS_H
#define FTT_ARGS_H

#include "fttraffic.h"

struct ftt_opts {
	const char *fabric, *pattern, *file, *netns_prefix;
	uint64_t count, seed, max_cycles;
	uint32_t size, root, h, max_procs, inflight, settle_ms, qdisc_limit;
	int64_t shift;
	bool shift_set, duration_set;
	double duration, rate, interval, hot_fraction, timeout;
	bool no_fixed_points, inject, json, stream, flows, allow_loss, veth, verbose;
	int progress;		/* -1: on a terminal */
};

void ftt_opts_init(struct ftt_opts *o);
int ftt_args_parse(int argc, char **argv, struct ftt_opts *o);
void ftt_usage(FILE *f);

#endif /* FTT_ARGS_H */
