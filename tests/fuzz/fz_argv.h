/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A command line and a file from the fuzzer's bytes.
 *
 * The input is text: up to the first empty line, one argv word per line
 * (argv[0] is the program's name, not in the input); after it, the
 * content of a file, which the word "@FILE" names (a memfd, so nothing
 * touches the disk). An input with a word "-" (standard input) or a word
 * holding '/' (a path on this machine) is skipped: the harness must not
 * read the terminal or /dev/zero.
 */
#ifndef FZ_ARGV_H
#define FZ_ARGV_H

#include <stddef.h>
#include <stdint.h>

#define FZ_ARGV_MAX	64

struct fz_argv {
	int argc;
	char *argv[FZ_ARGV_MAX + 2];	/* NULL after the last word */
	char *text;			/* the words, and copies of the path */
};

/* 0, or -1 for an input to skip (nothing to free then). */
int fz_argv_build(struct fz_argv *a, const char *prog, const uint8_t *data,
		  size_t size);
void fz_argv_free(struct fz_argv *a);

/* The path "@FILE" stands for (valid after fz_argv_build()). */
const char *fz_file_path(void);

#endif /* FZ_ARGV_H */
