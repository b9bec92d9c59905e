/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ftunits: the one way every fattree tool reads a duration, so `period
 * 1.5ms`, `interval 500ms` and `--duration 1s` mean the same everywhere;
 * and whole numbers and lists of them, as ftctl and the shapes
 * (ftshape.h) read them.
 */
#ifndef FTUNITS_H
#define FTUNITS_H

#include <stddef.h>
#include <stdint.h>

/* Why a word is not a duration. */
enum {
	FT_DURATION_NO_NUMBER = -1,	/* it does not start with one */
	FT_DURATION_NO_UNIT = -2,	/* a bare number where one is needed */
	FT_DURATION_BAD_UNIT = -3,	/* not ns, us, ms or s */
	FT_DURATION_TOO_LARGE = -4,	/* past UINT64_MAX nanoseconds */
	FT_DURATION_INEXACT = -5,	/* not a whole number of nanoseconds */
};

/*
 * A duration: a decimal number (digits, at most one '.') and a unit, ns,
 * us, ms or s (1.5ms, 0.5s, 100us, 2s). A bare number counts in
 * @bare_ns units (1000000000: seconds), or is refused when @bare_ns is 0.
 * The value must be a whole number of nanoseconds: 1.5us is 1500 ns,
 * 0.0001ns and 1.5ns are refused (FT_DURATION_INEXACT), never rounded,
 * so that no value becomes another (0, manual). Returns 0 with *@ns set,
 * or an FT_DURATION_* code; *@unit (when @unit is set) points where
 * the unit starts in @word.
 */
int ft_parse_duration(const char *word, uint64_t bare_ns, uint64_t *ns,
		      const char **unit);

/*
 * A whole number: decimal, or hexadecimal with 0x; no sign, no blanks, no
 * octal ("010" is ten). NULL with *@out set, or why not: "empty", "not a
 * number", "must not be negative", "too large".
 */
const char *ft_parse_number(const char *word, uint64_t *out);

/*
 * A whole number from @min to @max: 0, or -1 with the reason in @why
 * ("not a number", "must be at least 2", "must be at most 64").
 */
int ft_parse_range(const char *word, uint64_t min, uint64_t max, uint64_t *out,
		   char *why, size_t len);

/*
 * "a,b,c": whole numbers from @min to @max, exactly @want of them when
 * @want is not 0 (one per level: the reason says so), else 1 to @max_n,
 * into @out, their count in *@n. 0, or -1 with the reason in @why ("empty
 * item in the list", "item 2 'x': not a number", "2 values for 3 levels
 * (one per level, from level 1)").
 */
int ft_parse_u32_list(const char *word, uint32_t min, uint32_t max, uint32_t *out,
		      unsigned int want, unsigned int max_n, unsigned int *n,
		      char *why, size_t len);

#endif /* FTUNITS_H */
