// SPDX-License-Identifier: GPL-2.0
/*
 * ftctl: command-line parsing shared by the subcommands. Every error names
 * the word that was wrong and what was expected, and returns
 * FTCTL_EXIT_USAGE; nothing here talks to the kernel.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "ftunits.h"
#include "ftctl.h"
#include "linux/fattree.h"

const char *const ftctl_onoff_names[] = { "off", "on" };

#define N_OF(a) (sizeof(a) / sizeof((a)[0]))

const unsigned int ftctl_n_onoff = N_OF(ftctl_onoff_names);

const char *ftctl_fmt_u32_list(const uint32_t *v, unsigned int n, char *buf,
			       size_t len)
{
	size_t off = 0;
	unsigned int i;

	buf[0] = '\0';
	for (i = 0; i < n && off < len; i++)
		off += (size_t)snprintf(buf + off, len - off, "%s%" PRIu32,
					i ? "," : "", v[i]);
	return buf;
}

int ftctl_usage_err(const char *cmd, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "ftctl %s: ", cmd);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\nTry 'ftctl %s help'.\n", cmd);
	return FTCTL_EXIT_USAGE;
}

bool ftctl_is_help(const char *word)
{
	return !strcmp(word, "help") || !strcmp(word, "--help") ||
	       !strcmp(word, "-h");
}

int ftctl_find(const char *word, const char *const *names, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (!strcmp(word, names[i]))
			return (int)i;
	return -1;
}

int ftctl_match(const char *word, const char *const *names, unsigned int n)
{
	size_t len = strlen(word);
	int found = -1;
	unsigned int i;

	if (!len)
		return -1;
	for (i = 0; i < n; i++)
		if (names[i] && !strcmp(word, names[i]))
			return (int)i;
	for (i = 0; i < n; i++) {
		if (!names[i] || strncmp(word, names[i], len))
			continue;
		if (found >= 0)
			return -2;
		found = (int)i;
	}
	return found;
}

int ftctl_parse_u64_at(const char *cmd, const char *where, const char *what,
		       const char *word, uint64_t min, uint64_t max,
		       uint64_t *out)
{
	char why[64];

	if (ft_parse_range(word, min, max, out, why, sizeof(why)))
		return ftctl_usage_err(cmd, "%sbad %s '%s': %s", where, what,
				       word, why);
	return 0;
}

int ftctl_parse_u64(const char *cmd, const char *what, const char *word,
		    uint64_t min, uint64_t max, uint64_t *out)
{
	return ftctl_parse_u64_at(cmd, "", what, word, min, max, out);
}

int ftctl_parse_u32(const char *cmd, const char *what, const char *word,
		    uint32_t min, uint32_t max, uint32_t *out)
{
	uint64_t v = 0;
	int err;

	err = ftctl_parse_u64(cmd, what, word, min, max, &v);
	if (!err)
		*out = (uint32_t)v;
	return err;
}

int ftctl_parse_u32_list(const char *cmd, const char *what, const char *word,
			 uint32_t min, uint32_t max, uint32_t *out,
			 unsigned int want, unsigned int max_n, unsigned int *n)
{
	return ftctl_parse_u32_list_at(cmd, "", what, word, min, max, out, want,
				       max_n, n);
}

int ftctl_parse_u32_list_at(const char *cmd, const char *where,
			    const char *what, const char *word, uint32_t min,
			    uint32_t max, uint32_t *out, unsigned int want,
			    unsigned int max_n, unsigned int *n)
{
	char why[160];

	if (ft_parse_u32_list(word, min, max, out, want, max_n, n, why, sizeof(why)))
		return ftctl_usage_err(cmd, "%sbad %s '%s': %s", where, what,
				       word, why);
	return 0;
}

int ftctl_parse_period(const char *cmd, const char *word, uint64_t *ns)
{
	const char *unit;

	if (!strcmp(word, "manual") || !strcmp(word, "0")) {
		*ns = 0;
		return 0;
	}
	switch (ft_parse_duration(word, 0, ns, &unit)) {
	case 0:
		return 0;
	case FT_DURATION_NO_UNIT:
		return ftctl_usage_err(cmd, "bad period '%s': missing unit (ns, us, ms or s, e.g. '%sus'); 0 or manual for manual stepping",
				       word, word);
	case FT_DURATION_BAD_UNIT:
		return ftctl_usage_err(cmd, "bad period '%s': unknown unit '%s' (ns, us, ms or s)",
				       word, unit);
	case FT_DURATION_TOO_LARGE:
		return ftctl_usage_err(cmd, "bad period '%s': too large", word);
	case FT_DURATION_INEXACT:
		return ftctl_usage_err(cmd, "bad period '%s': not a whole number of nanoseconds, the unit a period is set in (refused, not rounded)",
				       word);
	default:
		return ftctl_usage_err(cmd, "bad period '%s': expected a number and a unit (ns, us, ms, s), e.g. 1.5ms",
				       word);
	}
}

static void list_names(char *buf, size_t len, const char *const *names,
		       unsigned int n)
{
	size_t off = 0;
	unsigned int i;

	buf[0] = '\0';
	for (i = 0; i < n && off < len; i++)
		off += (size_t)snprintf(buf + off, len - off, "%s%s",
					i ? ", " : "", names[i]);
}

int ftctl_parse_enum(const char *cmd, const char *what, const char *word,
		     const char *const *names, unsigned int n, uint32_t *out)
{
	char choices[256];
	int i;

	/* Exact names only: "random" must not be taken for "random-prime". */
	i = ftctl_find(word, names, n);
	if (i >= 0) {
		*out = (uint32_t)i;
		return 0;
	}
	list_names(choices, sizeof(choices), names, n);
	return ftctl_usage_err(cmd, "bad %s '%s': expected one of %s", what,
			       word, choices);
}

int ftctl_parse_name(const char *cmd, const char *word, char *out)
{
	size_t len = strlen(word);

	if (!len)
		return ftctl_usage_err(cmd, "bad fabric name '': empty");
	if (len >= FATTREE_NAME_LEN)
		return ftctl_usage_err(cmd, "bad fabric name '%s': %zu bytes, at most %d",
				       word, len, FATTREE_NAME_LEN - 1);
	memcpy(out, word, len + 1);
	return 0;
}

int ftctl_parse_fabric_arg(const char *cmd, int argc, char **argv, char *out,
			   bool alone)
{
	if (argc < 2)
		return ftctl_usage_err(cmd, "missing the fabric NAME");
	if (alone && argc > 2)
		return ftctl_usage_err(cmd, "unexpected argument '%s'", argv[2]);
	return ftctl_parse_name(cmd, argv[1], out);
}

const char *ftctl_arg_value(const char *cmd, int argc, char **argv, int *i,
			    const char *what)
{
	if (*i + 1 >= argc) {
		ftctl_usage_err(cmd, "'%s' needs a value (%s)", argv[*i], what);
		return NULL;
	}
	return argv[++*i];
}

int ftctl_opt_once(const char *cmd, const char *word, bool *seen)
{
	if (*seen)
		return ftctl_usage_err(cmd, "option '%s' given twice", word);
	*seen = true;
	return 0;
}

const char *ftctl_opt_value(const char *cmd, int argc, char **argv, int *i,
			    bool *seen, const char *what)
{
	if (ftctl_opt_once(cmd, argv[*i], seen))
		return NULL;
	return ftctl_arg_value(cmd, argc, argv, i, what);
}

int ftctl_opt_u32(const char *cmd, int argc, char **argv, int *i, bool *seen,
		  const char *needs, const char *what, uint32_t min, uint32_t max,
		  uint32_t *out)
{
	const char *v = ftctl_opt_value(cmd, argc, argv, i, seen, needs);

	if (!v)
		return FTCTL_EXIT_USAGE;
	return ftctl_parse_u32(cmd, what, v, min, max, out);
}

const char *ftctl_enum_name(const char *const *names, unsigned int n,
			    uint32_t v)
{
	static char buf[4][24];
	static unsigned int slot;

	if (v < n && names[v])
		return names[v];
	slot = (slot + 1) % 4;
	snprintf(buf[slot], sizeof(buf[slot]), "unknown(%" PRIu32 ")", v);
	return buf[slot];
}

const char *ftctl_fmt_period(uint64_t ns, char *buf, size_t len)
{
	if (!ns)
		snprintf(buf, len, "manual");
	else if (!(ns % 1000000000))
		snprintf(buf, len, "%" PRIu64 "s", ns / 1000000000);
	else if (!(ns % 1000000))
		snprintf(buf, len, "%" PRIu64 "ms", ns / 1000000);
	else if (!(ns % 1000))
		snprintf(buf, len, "%" PRIu64 "us", ns / 1000);
	else
		snprintf(buf, len, "%" PRIu64 "ns", ns);
	return buf;
}
