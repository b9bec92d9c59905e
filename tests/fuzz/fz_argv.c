// SPDX-License-Identifier: GPL-2.0
/*
 * Split the fuzzer's text into argv words and a file (see fz_argv.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "fz_argv.h"

#define FZ_PATH_LEN	32

static int fz_fd = -1;
static char fz_path[FZ_PATH_LEN];

const char *fz_file_path(void)
{
	return fz_path;
}

/* The file's content becomes @data; a memfd lives as long as the fuzzer. */
static int fz_file_set(const uint8_t *data, size_t size)
{
	if (fz_fd < 0) {
		fz_fd = memfd_create("fz-file", 0);
		if (fz_fd < 0) {
			perror("memfd_create");
			abort();
		}
		snprintf(fz_path, sizeof(fz_path), "/proc/self/fd/%d", fz_fd);
	}
	if (ftruncate(fz_fd, 0) ||
	    (size && pwrite(fz_fd, data, size, 0) != (ssize_t)size)) {
		perror("fz-file");
		abort();
	}
	return 0;
}

static const uint8_t *fz_find_blank(const uint8_t *data, size_t size)
{
	size_t i;

	if (size && data[0] == '\n')
		return data;
	for (i = 1; i < size; i++)
		if (data[i] == '\n' && data[i - 1] == '\n')
			return data + i;
	return NULL;
}

int fz_argv_build(struct fz_argv *a, const char *prog, const uint8_t *data,
		  size_t size)
{
	const uint8_t *blank = fz_find_blank(data, size);
	size_t words = blank ? (size_t)(blank - data) : size;
	char *p, *end, *copy;

	memset(a, 0, sizeof(*a));
	a->text = malloc(words + 1 + FZ_ARGV_MAX * FZ_PATH_LEN);
	if (!a->text)
		abort();
	memcpy(a->text, data, words);
	a->text[words] = '\0';
	fz_file_set(blank ? blank + 1 : data + size,
		    blank ? size - (size_t)(blank + 1 - data) : 0);
	copy = a->text + words + 1;
	a->argv[a->argc++] = (char *)prog;
	for (p = a->text; p < a->text + words && a->argc <= FZ_ARGV_MAX; p = end + 1) {
		end = memchr(p, '\n', (size_t)(a->text + words - p));
		if (!end)
			end = a->text + words;
		*end = '\0';
		if (!strcmp(p, "-") || strchr(p, '/')) {
			fz_argv_free(a);
			return -1;
		}
		if (!strcmp(p, "@FILE")) {
			/* a copy each: a parser may write into its argv */
			strcpy(copy, fz_path);
			p = copy;
			copy += FZ_PATH_LEN;
		}
		a->argv[a->argc++] = p;
	}
	a->argv[a->argc] = NULL;
	return 0;
}

void fz_argv_free(struct fz_argv *a)
{
	free(a->text);
	a->text = NULL;
	a->argc = 0;
}
