// SPDX-License-Identifier: GPL-2.0
/*
 * ftunits: durations with units (ftunits.h). In integers, so 0.1s is
 * exactly 100000000 ns and no binary fraction creeps in.
 */
#include <string.h>

#include "ftunits.h"

static const struct {
	const char *unit;
	uint64_t ns;
} ft_units[] = {
	{ "ns", 1 }, { "us", 1000 }, { "ms", 1000000 }, { "s", 1000000000 },
};

/* whole * mul + frac / 10^digits * mul, rounded; -1 when it overflows. */
static int ft_scale(uint64_t whole, uint64_t frac, uint64_t pow10, uint64_t mul,
		    uint64_t *out)
{
	uint64_t part;

	if (whole && whole > UINT64_MAX / mul)
		return -1;
	whole *= mul;
	/* frac < pow10 <= 10^18: frac * mul may overflow, so scale down. */
	while (frac && mul > 1 && frac > UINT64_MAX / mul) {
		frac /= 10;
		pow10 /= 10;
	}
	part = (frac * mul + pow10 / 2) / pow10;
	if (whole > UINT64_MAX - part)
		return -1;
	*out = whole + part;
	return 0;
}

int ft_parse_duration(const char *word, uint64_t bare_ns, uint64_t *ns,
		      const char **unit)
{
	uint64_t whole = 0, frac = 0, pow10 = 1, mul = 0;
	const char *p = word;
	size_t i;
	int digits = 0;

	for (; *p >= '0' && *p <= '9'; p++, digits++) {
		if (whole > (UINT64_MAX - 9) / 10)
			return FT_DURATION_TOO_LARGE;
		whole = whole * 10 + (uint64_t)(*p - '0');
	}
	if (*p == '.') {
		for (p++; *p >= '0' && *p <= '9'; p++, digits++) {
			/* Digits past a nanosecond's worth change nothing. */
			if (pow10 < 1000000000000000000ULL) {
				frac = frac * 10 + (uint64_t)(*p - '0');
				pow10 *= 10;
			}
		}
	}
	if (unit)
		*unit = p;
	if (!digits)
		return FT_DURATION_NO_NUMBER;
	if (!*p) {
		if (!bare_ns)
			return FT_DURATION_NO_UNIT;
		mul = bare_ns;
	}
	for (i = 0; *p && i < sizeof(ft_units) / sizeof(ft_units[0]); i++)
		if (!strcmp(p, ft_units[i].unit))
			mul = ft_units[i].ns;
	if (!mul)
		return FT_DURATION_BAD_UNIT;
	if (ft_scale(whole, frac, pow10, mul, ns))
		return FT_DURATION_TOO_LARGE;
	return 0;
}
