/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ftunits: the one way every fattree tool reads a duration, so `period
 * 1.5ms`, `interval 500ms` and `--duration 1s` mean the same everywhere.
 */
#ifndef FTUNITS_H
#define FTUNITS_H

#include <stdint.h>

/* Why a word is not a duration. */
enum {
	FT_DURATION_NO_NUMBER = -1,	/* it does not start with one */
	FT_DURATION_NO_UNIT = -2,	/* a bare number where one is needed */
	FT_DURATION_BAD_UNIT = -3,	/* not ns, us, ms or s */
	FT_DURATION_TOO_LARGE = -4,	/* past UINT64_MAX nanoseconds */
};

/*
 * A duration: a decimal number (digits, at most one '.') and a unit, ns,
 * us, ms or s (1.5ms, 0.5s, 100us, 2s). A bare number counts in
 * @bare_ns units (1000000000: seconds), or is refused when @bare_ns is 0.
 * The value is rounded to the nearest nanosecond. Returns 0 with *@ns
 * set, or an FT_DURATION_* code; *@unit (when @unit is set) points where
 * the unit starts in @word.
 */
int ft_parse_duration(const char *word, uint64_t bare_ns, uint64_t *ns,
		      const char **unit);

#endif /* FTUNITS_H */
