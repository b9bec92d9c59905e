// SPDX-License-Identifier: GPL-2.0
/*
 * Harness: fttraffic's command line (tools/fttraffic/args.c) and the
 * message sets it builds (pattern.c), pattern files included (--file
 * @FILE). A parse refuses with exit status 2, stops after --help or
 * --version with 0, or leaves options from which the pattern either is
 * refused with a message or gives a set that keeps its promises: flows
 * sorted by (source, destination), one per pair, no leaf sending to
 * itself, every leaf below N, every count at least 1.
 */
#include <stdint.h>
#include <string.h>

#include "args.h"
#include "fz_argv.h"
#include "fz_trap.h"

#define LEAVES		16
#define MAX_WORK	200000	/* messages drawn one by one: bounded time */

static void check_set(const struct ftt_set *s)
{
	uint32_t i;

	for (i = 0; i < s->nflows; i++) {
		const struct ftt_flow *f = &s->flow[i];

		FZ_CHECK(f->src < LEAVES && f->dst < LEAVES && f->src != f->dst && f->count,
			 "flow %u: %u -> %u x %llu", i, f->src, f->dst,
			 (unsigned long long)f->count);
		FZ_CHECK(!i || f[-1].src < f->src || (f[-1].src == f->src && f[-1].dst < f->dst),
			 "flows %u and %u out of order or repeated", i - 1, i);
	}
}

static void build(const struct ftt_opts *o)
{
	struct ftt_pattern p = {
		.name = o->pattern, .n = LEAVES, .m1 = 4, .count = o->count, .seed = o->seed,
		.shift = o->shift_set ? o->shift : LEAVES / 2, .root = o->root,
		.hot_fraction = o->hot_fraction, .h = o->h,
		.no_fixed_points = o->no_fixed_points, .file = o->file,
	};
	struct ftt_set s;
	char err[256] = "";

	if (o->count * LEAVES * (uint64_t)o->h > MAX_WORK)
		return;
	if (ftt_pattern_build(&p, &s, err, sizeof(err))) {
		FZ_CHECK(err[0] && !s.flow && !s.nflows, "a refusal without a message: %s", err);
		return;
	}
	check_set(&s);
	ftt_set_free(&s);
}

static struct ftt_opts opts;

static int parse(int argc, char **argv)
{
	ftt_opts_init(&opts);
	return ftt_args_parse(argc, argv, &opts);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fz_argv a;
	int rc;

	if (fz_argv_build(&a, "fttraffic", data, size))
		return 0;
	rc = fz_call(parse, a.argc, a.argv);
	FZ_CHECK(rc == -1 || rc == 0 || rc == 2, "ftt_args_parse: %#x", rc);
	if (rc == -1)
		build(&opts);
	fz_argv_free(&a);
	return 0;
}
