// SPDX-License-Identifier: GPL-2.0
/*
 * Harness: fattreed's configuration (daemon/config.c), its "key = value"
 * file and its flags.
 *
 * The input is a command line and a file (fz_argv.h). ftd_config_parse()
 * runs on the command line (which may name the file with --config @FILE),
 * then on "-c FILE -f fz" so that every input reads the file. Each parse
 * refuses with -1 or leaves a configuration within its documented
 * ranges; --help and --version end in exit(0), nothing else exits.
 */
#include <stdint.h>
#include <string.h>
#include <syslog.h>

#include "fattreed.h"
#include "fz_argv.h"
#include "fz_trap.h"

static void check_config(const struct ftd_config *c)
{
	FZ_CHECK((unsigned int)c->sched.algo < FT_SCHED_NALGOS &&
		 (unsigned int)c->sched.order < FT_SCHED_NORDERS,
		 "algorithm %d, order %d", c->sched.algo, c->sched.order);
	FZ_CHECK(c->lease >= 1 && c->round_ms >= 1 && c->round_ms <= 60000,
		 "lease %u, round %u ms", c->lease, c->round_ms);
	FZ_CHECK(c->log_level == LOG_ERR || c->log_level == LOG_WARNING ||
		 c->log_level == LOG_INFO || c->log_level == LOG_DEBUG,
		 "log level %d", c->log_level);
	FZ_CHECK(memchr(c->fabric, 0, sizeof(c->fabric)) &&
		 memchr(c->pid_file, 0, sizeof(c->pid_file)) &&
		 memchr(c->status_file, 0, sizeof(c->status_file)) &&
		 memchr(c->config_file, 0, sizeof(c->config_file)),
		 "a name without its end");
	FZ_CHECK(*c->fabric && *c->status_file, "no fabric or status file");
}

static struct ftd_config cfg;

static int parse(int argc, char **argv)
{
	return ftd_config_parse(&cfg, argc, argv);
}

/* One parse; -1 is a refusal, FZ_EXITED | 0 the end of --help. */
static void run(int argc, char **argv)
{
	int rc = fz_call(parse, argc, argv);

	FZ_CHECK(rc == 0 || rc == -1 || rc == FZ_EXITED,
		 "ftd_config_parse: %#x", rc);
	if (!rc)
		check_config(&cfg);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *file_argv[] = { "fattreed", "-c", NULL, "-f", "fz", NULL };
	struct fz_argv a;

	if (fz_argv_build(&a, "fattreed", data, size))
		return 0;
	/* The command line as given, then the file under fixed flags. */
	run(a.argc, a.argv);
	file_argv[2] = (char *)fz_file_path();
	run(5, file_argv);
	fz_argv_free(&a);
	return 0;
}
