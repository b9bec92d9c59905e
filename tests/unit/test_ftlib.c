// SPDX-License-Identifier: GPL-2.0
/*
 * The tools' shared library (lib): one name per pattern and its
 * old spellings, each tool's subset; one shape syntax, the colon word and
 * the words apart giving the same shape; numbers and lists.
 */
#include <stdbool.h>
#include <string.h>

#include "tap.h"
#include "ftpattern.h"
#include "ftshape.h"
#include "ftunits.h"

static void test_pattern_names(void)
{
	static const struct {
		const char *word;
		const char *name;
	} olds[] = {
		{ "bitreversal", "bit-reversal" }, { "bitrev", "bit-reversal" },
		{ "hotspot", "hot-spot" }, { "random", "uniform" },
		{ "alltoall", "all-to-all" }, { "hrelation", "h-relation" },
		{ "manytoone", "many-to-one" }, { "onetomany", "one-to-many" },
	};
	int p, k, good = 1;
	bool old;
	size_t i;

	for (p = 0; p < FT_PATTERN_NR; p++) {
		k = ft_pattern_lookup(ft_pattern_name(p), &old);
		good &= k == p && !old;
		for (k = 0; k < p; k++)
			good &= strcmp(ft_pattern_name(p), ft_pattern_name(k)) != 0;
	}
	tap_ok(good, "each of the %d patterns has one name, found as itself, not old",
	       FT_PATTERN_NR);
	tap_ok(!strcmp(ft_pattern_name(FT_PATTERN_BIT_REVERSAL), "bit-reversal") &&
	       !strcmp(ft_pattern_name(FT_PATTERN_HOT_SPOT), "hot-spot") &&
	       !strcmp(ft_pattern_name(FT_PATTERN_ALL_TO_ALL), "all-to-all") &&
	       !ft_pattern_name(FT_PATTERN_NR),
	       "the names are the papers' hyphenated ones");
	good = 1;
	for (i = 0; i < sizeof(olds) / sizeof(olds[0]); i++) {
		k = ft_pattern_lookup(olds[i].word, &old);
		if (k < 0 || !old || strcmp(ft_pattern_name(k), olds[i].name)) {
			tap_diag("%s -> %d (old %d)", olds[i].word, k, old);
			good = 0;
		}
	}
	tap_ok(good, "every old spelling names its pattern and says it is old");
	tap_ok(ft_pattern_lookup("zigzag", &old) == -1 && !old &&
	       ft_pattern_lookup("", NULL) == -1 && ft_pattern_lookup("Bit-Reversal", NULL) == -1,
	       "an unknown word is no pattern (names are exact)");
}

static void test_pattern_pick(void)
{
	static const enum ft_pattern have[] = {
		FT_PATTERN_PERMUTATION, FT_PATTERN_BIT_REVERSAL, FT_PATTERN_UNIFORM,
	};
	static const enum ft_pattern hot[] = {
		FT_PATTERN_UNIFORM, FT_PATTERN_HOT_UNIFORM, FT_PATTERN_HOT_SPOT,
	};
	char why[256] = "";
	bool old = true;
	int k;

	k = ft_pattern_pick("tool", "uniform", have, 3, &old, why, sizeof(why));
	tap_ok(k == 2 && !old, "a tool's pattern by its name: its place in the tool's list");
	k = ft_pattern_pick("tool", "bitrev", have, 3, &old, why, sizeof(why));
	tap_ok(k == 1 && old, "by an old spelling: the same place, and old");
	k = ft_pattern_pick("tool", "zigzag", have, 3, &old, why, sizeof(why));
	tap_ok(k == -1 && !old && strstr(why, "no pattern") &&
	       strstr(why, "tool runs permutation, bit-reversal, uniform"),
	       "an unknown pattern refused, naming the tool's: %s", why);
	k = ft_pattern_pick("tool", "tornado", have, 3, &old, why, sizeof(why));
	tap_ok(k == -1 && strstr(why, "not a pattern tool runs") &&
	       strstr(why, "permutation, bit-reversal, uniform"),
	       "a pattern the tool does not run refused: %s", why);
	k = ft_pattern_pick("tool", "hotspot", have, 3, &old, why, sizeof(why));
	tap_ok(k == -1 && !old && strstr(why, "hot-spot"),
	       "an old spelling of one it does not run: refused by its name: %s", why);
	tap_ok(ft_pattern_pick("t", "hot-spot", hot, 2, &old, why, sizeof(why)) == 1 && old &&
	       ft_pattern_pick("t", "hotspot", hot, 2, &old, why, sizeof(why)) == 1 && old &&
	       ft_pattern_pick("t", "hot-spot", hot + 1, 2, &old, why, sizeof(why)) == 1 && !old,
	       "hot-spot: fttraffic's old word for hot-uniform where hot-spot is not run");
}

static int same_shape(const struct ft_shape *a, const struct ft_shape *b)
{
	return a->kind == b->kind && a->h == b->h && a->leaves == b->leaves &&
	       !memcmp(a->m, b->m, sizeof(a->m)) && !memcmp(a->w, b->w, sizeof(a->w)) &&
	       !strcmp(a->desc, b->desc);
}

static void test_shape_forms(void)
{
	static const struct {
		const char *colon;
		char *words[4];
		unsigned int n;
		const char *desc;
		unsigned long long leaves;
	} t[] = {
		{ "binary:64", { "binary", "64" }, 2, "binary 64", 64 },
		{ "kary:3:4", { "kary", "3", "4" }, 3, "FT(3,4)", 64 },
		{ "xgft:2:8,4:1,2", { "xgft", "2", "8,4", "1,2" }, 4, "XGFT(2; 8,4; 1,2)", 32 },
	};
	struct ft_shape a, b, c;
	char why[256], spec[64];
	size_t i;
	int good = 1;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		if (ft_shape_parse(t[i].colon, NULL, &a, why, sizeof(why)) ||
		    ft_shape_parse_words(t[i].words, t[i].n, NULL, &b, why, sizeof(why)) ||
		    !same_shape(&a, &b) || strcmp(a.desc, t[i].desc) || a.leaves != t[i].leaves ||
		    strcmp(ft_shape_spec(&a, spec, sizeof(spec)), t[i].colon) ||
		    ft_shape_parse(spec, NULL, &c, why, sizeof(why)) || !same_shape(&a, &c)) {
			tap_diag("%s: %s / %s", t[i].colon, a.desc, why);
			good = 0;
		}
	}
	tap_ok(good, "binary:64, kary:3:4, xgft:2:8,4:1,2: the colon word and the words apart give one shape, written back the same");
	tap_ok(!ft_shape_parse("kary 3 4", NULL, &a, why, sizeof(why)) &&
	       !ft_shape_parse("kary:0x3:4", NULL, &b, why, sizeof(why)) && same_shape(&a, &b) &&
	       a.kind == FT_SHAPE_KARY && a.h == 3 && a.m[2] == 4 && a.w[0] == 1 && a.w[1] == 4,
	       "blanks for colons, 0x numbers: FT(3,4) is m = 4,4,4, w = 1,4,4");
	ft_shape_kary(&c, 3, 4);
	tap_ok(same_shape(&a, &c), "ft_shape_kary(3, 4) is kary:3:4");
	tap_ok(!ft_shape_parse("binary:2", NULL, &a, why, sizeof(why)) && a.h == 1 &&
	       !ft_shape_parse("binary:4096", NULL, &b, why, sizeof(why)) && b.h == 12 &&
	       b.m[11] == 2 && b.w[11] == 1, "binary:2 has 1 level, binary:4096 has 12");
}

/* @s is refused and the reason holds @want. */
static int refused(const char *s, const struct ft_shape_limits *lim, const char *want)
{
	struct ft_shape sh;
	char why[256] = "";

	if (!ft_shape_parse(s, lim, &sh, why, sizeof(why)) || !strstr(why, want)) {
		tap_diag("'%s': '%s' (wanted '%s')", s, why, want);
		return 0;
	}
	return 1;
}

static void test_shape_refusals(void)
{
	static const struct ft_shape_limits engine = {
		.levels = 20, .m = 65536, .w = 256, .leaves = 1 << 20,
	};
	/* Each refused, its reason holding want: without limits, then the engine's. */
	static const struct {
		const char *s;
		const char *want;
		bool engine;
	} t[] = {
		{ "tree:4", "'tree' is no kind of shape", false },
		{ "", "'' is no kind of shape", false },
		{ "kary:3", "kary takes L K (levels and arity): kary:L:K", false },
		{ "kary:3:4:5", "kary takes L K", false },
		{ "kary:x:4", "level count L 'x': not a number", false },
		{ "kary:3:1", "arity K '1': must be at least 2", false },
		{ "kary:3:-4", "arity K '-4': must not be negative", false },
		{ "kary:3:4x", "arity K '4x': not a number", false },
		{ "kary:65:2", "level count L '65': must be at most 64", false },
		{ "kary:12:16", "more than 4294967295 leaves", false },
		{ "binary:6", "leaf count N '6': not a power of two", false },
		{ "binary:1", "leaf count N '1': must be at least 2", false },
		{ "xgft:3:4,4:1,4,4", "children per switch m1,...,mH '4,4': 2 values for 3 levels", false },
		{ "xgft:2:8,4:1,2,", "parents per node w1,...,wH '1,2,'", false },
		{ "xgft:2:8,0:1,2", "item 2 '0': must be 1..", false },
		{ "kary:21:2", "must be at most 20", true },
		{ "kary:3:300", "arity K '300': must be at most 256", true },
		{ "binary:2097152", "must be at most 1048576", true },
		{ "kary:6:16", "more than 1048576 leaves", true },
		{ "xgft:2:4,4:1,257", "item 2 '257': must be 1..256", true },
	};
	char *words[] = { "tree", "4" };
	struct ft_shape sh;
	char why[256], big[257];
	int good[2] = { 1, 1 };
	size_t i;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		good[t[i].engine] &= refused(t[i].s, t[i].engine ? &engine : NULL, t[i].want);
	tap_ok(good[0], "every refusal names the word that is wrong and what was expected");
	tap_ok(good[1], "a tool's limits (here the engine core's) are checked with the number");
	tap_ok(ft_shape_parse_words(words, 2, NULL, &sh, why, sizeof(why)) &&
	       strstr(why, "'tree'"), "the words apart: an unknown kind named: %s", why);
	memset(big, 'x', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	tap_ok(refused(big, NULL, "longer than 255 characters"), "a word too long refused");
	tap_ok(ft_shape_syntax("xgft") && ft_shape_syntax("xgft")->nparams == 3 &&
	       !ft_shape_syntax("xgft:2") && !strcmp(ft_shape_kind_name(FT_SHAPE_BINARY), "binary"),
	       "the kinds and how many words follow each");
}

static void test_numbers(void)
{
	uint32_t v[4];
	unsigned int n;
	uint64_t x = 0;
	char why[128];

	tap_ok(!ft_parse_number("0x10", &x) && x == 16 && !ft_parse_number("010", &x) && x == 10 &&
	       !strcmp(ft_parse_number("-1", &x), "must not be negative") &&
	       !strcmp(ft_parse_number("", &x), "empty") &&
	       !strcmp(ft_parse_number("99999999999999999999", &x), "too large"),
	       "whole numbers: 0x16, no octal, no sign, no overflow");
	tap_ok(ft_parse_range("5", 6, 9, &x, why, sizeof(why)) &&
	       !strcmp(why, "must be at least 6") && !ft_parse_range("9", 6, 9, &x, why, sizeof(why)),
	       "a range refuses with its bound");
	tap_ok(!ft_parse_u32_list("1,0x2,3", 1, 3, v, 3, 4, &n, why, sizeof(why)) && n == 3 &&
	       v[1] == 2 && ft_parse_u32_list("1,2", 1, 3, v, 3, 4, &n, why, sizeof(why)) &&
	       strstr(why, "2 values for 3 levels") &&
	       ft_parse_u32_list("1,,2", 1, 3, v, 0, 4, &n, why, sizeof(why)) &&
	       strstr(why, "empty item") &&
	       ft_parse_u32_list("1,2,3,1,2", 1, 3, v, 0, 4, &n, why, sizeof(why)) &&
	       strstr(why, "more than 4 values"), "lists: counts, empty items, room");
}

/* @word with no bare unit: 0 and *@ns, or the FT_DURATION_* code. */
static int dur(const char *word, uint64_t *ns)
{
	*ns = UINT64_MAX;
	return ft_parse_duration(word, 0, ns, NULL);
}

static void test_durations(void)
{
	uint64_t ns;

	tap_ok(!dur("1.5ms", &ns) && ns == 1500000 && !dur("0.1s", &ns) && ns == 100000000 &&
	       !dur("250000ns", &ns) && ns == 250000 && !dur("1.000ns", &ns) && ns == 1 &&
	       !dur("0.000000001s", &ns) && ns == 1 && !dur("0.0000000010000000000000s", &ns) &&
	       ns == 1 && !ft_parse_duration("2", 1000000000, &ns, NULL) && ns == 2000000000 &&
	       !ft_parse_duration("0.5", 1000000000, &ns, NULL) && ns == 500000000,
	       "durations that are whole nanoseconds, trailing zeros and all");
	tap_ok(dur("0.0001ns", &ns) == FT_DURATION_INEXACT && ns == UINT64_MAX &&
	       dur("1.5ns", &ns) == FT_DURATION_INEXACT &&
	       dur("0.0000000015s", &ns) == FT_DURATION_INEXACT &&
	       dur("1.0001us", &ns) == FT_DURATION_INEXACT &&
	       dur("0.0000000000000000000001s", &ns) == FT_DURATION_INEXACT &&
	       ft_parse_duration("0.0000000001", 1000000000, &ns, NULL) == FT_DURATION_INEXACT,
	       "a part of a nanosecond is refused, not rounded (0.0001ns is not 0)");
	tap_ok(!dur("18446744073709551615ns", &ns) && ns == UINT64_MAX &&
	       dur("18446744073709551616ns", &ns) == FT_DURATION_TOO_LARGE &&
	       dur("18446744073.709551616s", &ns) == FT_DURATION_TOO_LARGE &&
	       dur("99999999999999999999s", &ns) == FT_DURATION_TOO_LARGE,
	       "past UINT64_MAX nanoseconds is too large");
	tap_ok(dur("100", &ns) == FT_DURATION_NO_UNIT && dur("5min", &ns) == FT_DURATION_BAD_UNIT &&
	       dur("ms", &ns) == FT_DURATION_NO_NUMBER && dur("-1ms", &ns) == FT_DURATION_NO_NUMBER,
	       "no unit, a bad unit, no number");
}

int main(void)
{
	test_pattern_names();
	test_pattern_pick();
	test_shape_forms();
	test_shape_refusals();
	test_numbers();
	test_durations();
	return tap_done();
}
