// SPDX-License-Identifier: GPL-2.0
/*
 * ftpattern: the patterns' names and their old spellings (ftpattern.h).
 */
#include <stdio.h>
#include <string.h>

#include "ftpattern.h"

static const char *const names[FT_PATTERN_NR] = {
	[FT_PATTERN_PERMUTATION] = "permutation",
	[FT_PATTERN_BIT_REVERSAL] = "bit-reversal",
	[FT_PATTERN_TRANSPOSE] = "transpose",
	[FT_PATTERN_SHIFT] = "shift",
	[FT_PATTERN_STRIDE] = "stride",
	[FT_PATTERN_TORNADO] = "tornado",
	[FT_PATTERN_NEIGHBOUR] = "neighbour",
	[FT_PATTERN_UNIFORM] = "uniform",
	[FT_PATTERN_HOT_SPOT] = "hot-spot",
	[FT_PATTERN_ALL_TO_ALL] = "all-to-all",
	[FT_PATTERN_H_RELATION] = "h-relation",
	[FT_PATTERN_MANY_TO_ONE] = "many-to-one",
	[FT_PATTERN_ONE_TO_MANY] = "one-to-many",
	[FT_PATTERN_FILE] = "file",
};

/*
 * The tools' earlier spellings (ftsim sched: bitreversal, hotspot; ftsim
 * saf: bitrev, and random for its uniform random destinations), and each
 * hyphenated name written without its hyphens.
 */
static const struct {
	const char *word;
	enum ft_pattern p;
} old_names[] = {
	{ "bitreversal", FT_PATTERN_BIT_REVERSAL },
	{ "bitrev", FT_PATTERN_BIT_REVERSAL },
	{ "hotspot", FT_PATTERN_HOT_SPOT },
	{ "random", FT_PATTERN_UNIFORM },
	{ "alltoall", FT_PATTERN_ALL_TO_ALL },
	{ "hrelation", FT_PATTERN_H_RELATION },
	{ "manytoone", FT_PATTERN_MANY_TO_ONE },
	{ "onetomany", FT_PATTERN_ONE_TO_MANY },
};

const char *ft_pattern_name(enum ft_pattern p)
{
	return p < FT_PATTERN_NR ? names[p] : NULL;
}

int ft_pattern_lookup(const char *word, bool *old)
{
	size_t i;

	if (old)
		*old = false;
	for (i = 0; i < FT_PATTERN_NR; i++)
		if (!strcmp(word, names[i]))
			return (int)i;
	for (i = 0; i < sizeof(old_names) / sizeof(old_names[0]); i++) {
		if (!strcmp(word, old_names[i].word)) {
			if (old)
				*old = true;
			return (int)old_names[i].p;
		}
	}
	return -1;
}

const char *ft_pattern_list(const enum ft_pattern *have, unsigned int n, const char *sep,
			    char *buf, size_t len)
{
	size_t off = 0;
	unsigned int i;

	buf[0] = '\0';
	for (i = 0; i < n && off < len; i++)
		off += (size_t)snprintf(buf + off, len - off, "%s%s", i ? sep : "",
					ft_pattern_name(have[i]));
	return buf;
}

int ft_pattern_pick(const char *tool, const char *word, const enum ft_pattern *have,
		    unsigned int n, bool *old, char *why, size_t len)
{
	int p = ft_pattern_lookup(word, old);
	char runs[256];
	unsigned int i;

	for (i = 0; p >= 0 && i < n; i++)
		if (have[i] == (enum ft_pattern)p)
			return (int)i;
	ft_pattern_list(have, n, ", ", runs, sizeof(runs));
	if (p < 0)
		snprintf(why, len, "no pattern is called so; %s runs %s", tool, runs);
	else if (old && *old)
		snprintf(why, len, "that is %s, not a pattern %s runs; it runs %s", names[p],
			 tool, runs);
	else
		snprintf(why, len, "not a pattern %s runs; it runs %s", tool, runs);
	if (old)
		*old = false;
	return -1;
}

void ft_pattern_warn(const char *tool, const char *word, enum ft_pattern p)
{
	fprintf(stderr, "%s: warning: pattern '%s' is now spelled '%s'\n", tool, word,
		ft_pattern_name(p));
}
