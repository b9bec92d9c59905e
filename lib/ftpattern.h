/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ftpattern: one name per traffic pattern, shared by every tool
 * (fttraffic, ftsim sched, ftsim saf), in the papers' spelling:
 * "bit-reversal", "hot-spot", "all-to-all". The old spellings of the
 * tools ("bitreversal", "bitrev", "hotspot", "random", ...) still name
 * their pattern, and say that they are old, so that the tool warns once
 * and goes on. Each tool runs its own subset and refuses the others.
 */
#ifndef FTPATTERN_H
#define FTPATTERN_H

#include <stdbool.h>
#include <stddef.h>

enum ft_pattern {
	FT_PATTERN_PERMUTATION,		/* a uniform random permutation */
	FT_PATTERN_BIT_REVERSAL,	/* i -> i's address bits reversed */
	FT_PATTERN_TRANSPOSE,		/* i -> i's address halves swapped */
	FT_PATTERN_SHIFT,		/* i -> i + k */
	FT_PATTERN_STRIDE,		/* shift with a stride k */
	FT_PATTERN_TORNADO,		/* i -> i + ceil(N/2) - 1 */
	FT_PATTERN_NEIGHBOUR,		/* the next leaf on the same switch */
	FT_PATTERN_UNIFORM,		/* uniform random destinations */
	FT_PATTERN_HOT_SPOT,		/* some traffic to one hot leaf */
	FT_PATTERN_ALL_TO_ALL,		/* every leaf to every other */
	FT_PATTERN_H_RELATION,		/* h random permutations */
	FT_PATTERN_MANY_TO_ONE,		/* every leaf to one */
	FT_PATTERN_ONE_TO_MANY,		/* one leaf to every other */
	FT_PATTERN_FILE,		/* rows read from a file */
	FT_PATTERN_NR,
};

/* The pattern's name ("bit-reversal"), or NULL out of range. */
const char *ft_pattern_name(enum ft_pattern p);

/*
 * The pattern @word names: its name, or an old spelling, which sets
 * *@old (when @old is not NULL). -1 when no pattern is called so.
 */
int ft_pattern_lookup(const char *word, bool *old);

/*
 * @word among a tool's own patterns @have[0..@n-1]: its index in @have,
 * or -1 with the reason in @why: no pattern is called so, or @tool does
 * not run that one; both name the patterns @tool runs. An old spelling
 * sets *@old (see ft_pattern_warn()).
 */
int ft_pattern_pick(const char *tool, const char *word, const enum ft_pattern *have,
		    unsigned int n, bool *old, char *why, size_t len);

/* "@tool: warning: pattern 'bitrev' is now spelled 'bit-reversal'" on stderr. */
void ft_pattern_warn(const char *tool, const char *word, enum ft_pattern p);

/* The names of @have[0..@n-1] into @buf, @sep between them; returns @buf. */
const char *ft_pattern_list(const enum ft_pattern *have, unsigned int n, const char *sep,
			    char *buf, size_t len);

#endif /* FTPATTERN_H */
