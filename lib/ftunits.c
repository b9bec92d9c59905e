// SPDX-License-Identifier: GPL-2.0
/*
 * ftunits: durations with units (ftunits.h). In integers, so 0.1s is
 * exactly 100000000 ns and no binary fraction creeps in; a duration that
 * is no whole number of nanoseconds is refused, never rounded. Whole numbers
 * and lists of them.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ftunits.h"

static const struct {
	const char *unit;
	uint64_t ns;
} ft_units[] = {
	{ "ns", 1 }, { "us", 1000 }, { "ms", 1000000 }, { "s", 1000000000 },
};

static uint64_t ft_gcd(uint64_t a, uint64_t b)
{
	while (b) {
		uint64_t t = a % b;

		a = b;
		b = t;
	}
	return a;
}

/*
 * whole * mul + frac / pow10 * mul, exactly: FT_DURATION_INEXACT when the
 * fraction leaves a part of a nanosecond, FT_DURATION_TOO_LARGE when the
 * sum passes UINT64_MAX.
 */
static int ft_scale(uint64_t whole, uint64_t frac, uint64_t pow10, uint64_t mul,
		    uint64_t *out)
{
	uint64_t g, part;

	while (frac && frac % 10 == 0) {
		frac /= 10;
		pow10 /= 10;
	}
	/* frac / pow10 * mul is whole iff pow10 / g divides frac. */
	g = ft_gcd(mul, pow10);
	if (frac % (pow10 / g))
		return FT_DURATION_INEXACT;
	part = frac / (pow10 / g) * (mul / g);	/* below mul: no overflow */
	if (whole && whole > UINT64_MAX / mul)
		return FT_DURATION_TOO_LARGE;
	whole *= mul;
	if (whole > UINT64_MAX - part)
		return FT_DURATION_TOO_LARGE;
	*out = whole + part;
	return 0;
}

int ft_parse_duration(const char *word, uint64_t bare_ns, uint64_t *ns,
		      const char **unit)
{
	uint64_t whole = 0, frac = 0, pow10 = 1, mul = 0;
	const char *p = word;
	bool past = false;
	size_t i;
	int digits = 0;

	for (; *p >= '0' && *p <= '9'; p++, digits++) {
		uint64_t d = (uint64_t)(*p - '0');

		if (whole > (UINT64_MAX - d) / 10)
			return FT_DURATION_TOO_LARGE;
		whole = whole * 10 + d;
	}
	if (*p == '.') {
		for (p++; *p >= '0' && *p <= '9'; p++, digits++) {
			if (pow10 < 1000000000000000000ULL) {
				frac = frac * 10 + (uint64_t)(*p - '0');
				pow10 *= 10;
			} else if (*p != '0') {
				/* Past 10^-18 of a second: no whole ns. */
				past = true;
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
	if (past)
		return FT_DURATION_INEXACT;
	return ft_scale(whole, frac, pow10, mul, ns);
}

const char *ft_parse_number(const char *word, uint64_t *out)
{
	unsigned long long v;
	const char *p = word;
	char *end;
	int base = 10;

	if (!*p)
		return "empty";
	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
		base = 16;
		p += 2;
		if (!*p)
			return "not a number";
	}
	if (!(base == 16 ? strchr("0123456789abcdefABCDEF", *p) :
	      strchr("0123456789", *p)))
		return *word == '-' ? "must not be negative" : "not a number";
	errno = 0;
	v = strtoull(p, &end, base);
	if (errno == ERANGE)
		return "too large";
	if (*end)
		return "not a number";
	*out = v;
	return NULL;
}

int ft_parse_range(const char *word, uint64_t min, uint64_t max, uint64_t *out,
		   char *why, size_t len)
{
	const char *e;
	uint64_t v = 0;

	e = ft_parse_number(word, &v);
	if (e)
		snprintf(why, len, "%s", e);
	else if (v < min)
		snprintf(why, len, "must be at least %" PRIu64, min);
	else if (v > max)
		snprintf(why, len, "must be at most %" PRIu64, max);
	else
		*out = v;
	return e || v < min || v > max ? -1 : 0;
}

int ft_parse_u32_list(const char *word, uint32_t min, uint32_t max, uint32_t *out,
		      unsigned int want, unsigned int max_n, unsigned int *n,
		      char *why, size_t len)
{
	char item[64];
	const char *p = word, *comma, *e;
	unsigned int k = 0;
	uint64_t v = 0;
	size_t ilen;

	if (!*word) {
		snprintf(why, len, "empty list");
		return -1;
	}
	for (;;) {
		comma = strchr(p, ',');
		ilen = comma ? (size_t)(comma - p) : strlen(p);
		if (!ilen) {
			snprintf(why, len, "empty item in the list");
			return -1;
		}
		if (ilen >= sizeof(item)) {
			snprintf(why, len, "item %u is too long", k + 1);
			return -1;
		}
		memcpy(item, p, ilen);
		item[ilen] = '\0';
		if (k >= max_n) {
			snprintf(why, len, "more than %u values", max_n);
			return -1;
		}
		e = ft_parse_number(item, &v);
		if (e) {
			snprintf(why, len, "item %u '%s': %s", k + 1, item, e);
			return -1;
		}
		if (v < min || v > max) {
			snprintf(why, len, "item %u '%s': must be %" PRIu32 "..%" PRIu32,
				 k + 1, item, min, max);
			return -1;
		}
		out[k++] = (uint32_t)v;
		if (!comma)
			break;
		p = comma + 1;
	}
	if (want && k != want) {
		snprintf(why, len, "%u value%s for %u level%s (one per level, from level 1)",
			 k, k == 1 ? "" : "s", want, want == 1 ? "" : "s");
		return -1;
	}
	*n = k;
	return 0;
}
