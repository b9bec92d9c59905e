// SPDX-License-Identifier: GPL-2.0
/*
 * fttraffic's pure parts: every pattern is what its name says (checked
 * against an independent computation or an invariant: permutations are
 * permutations, an h-relation sends and receives h per leaf, ...), the
 * same seed gives the same set, the pattern file refuses bad rows by line
 * number, a message with any byte changed fails its checksum, the time
 * histogram brackets its values, and the command line refuses bad values
 * and takes the patterns' old spellings with one warning each.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tap.h"
#include "args.h"
#include "report.h"

static struct ftt_pattern pat(const char *name, uint32_t n)
{
	return (struct ftt_pattern){ .name = name, .n = n, .m1 = 4, .count = 1, .seed = 5,
				     .shift = n / 2, .hot_fraction = 0.25, .h = 3 };
}

static int build(struct ftt_pattern p, struct ftt_set *s)
{
	char err[256] = "";
	int e = ftt_pattern_build(&p, s, err, sizeof(err));

	if (e)
		tap_diag("%s: %s", p.name, err);
	return e;
}

/* dst of @src in set @s, or -1; -2 when src has several flows. */
static long dst_of(const struct ftt_set *s, uint32_t src)
{
	long d = -1;
	uint32_t i;

	for (i = 0; i < s->nflows; i++)
		if (s->flow[i].src == src)
			d = d == -1 ? (long)s->flow[i].dst : -2;
	return d;
}

/* A permutation (fixed points left out) matching @f, and nothing else, or not. */
static int matches(const struct ftt_set *s, uint32_t n, uint32_t (*f)(uint32_t, uint32_t))
{
	uint32_t i, moved = 0;

	for (i = 0; i < n; i++) {
		uint32_t want = f(i, n);
		long got = dst_of(s, i);

		if (want == i ? got != -1 : got != (long)want)
			return 0;
		moved += want != i;
	}
	return s->nflows == moved;
}

static uint32_t bitrev(uint32_t i, uint32_t n)
{
	uint32_t d = 0, b = 0;

	while ((1U << b) < n)
		b++;
	for (uint32_t j = 0; j < b; j++)
		if (i & (1U << j))
			d |= 1U << (b - 1 - j);
	return d;
}

static uint32_t transpose(uint32_t i, uint32_t n)
{
	/* 64 = 2^6: high three bits and low three bits swap */
	(void)n;
	return ((i & 7) << 3) | (i >> 3);
}

static uint32_t half(uint32_t i, uint32_t n)
{
	return (i + n / 2) % n;
}

static uint32_t tornado(uint32_t i, uint32_t n)
{
	return (i + (n + 1) / 2 - 1) % n;
}

static uint32_t neighbour(uint32_t i, uint32_t n)
{
	(void)n;
	return (i / 4) * 4 + (i % 4 + 1) % 4;
}

static void degrees(const struct ftt_set *s, uint32_t n, uint64_t *out, uint64_t *in)
{
	memset(out, 0, n * sizeof(*out));
	memset(in, 0, n * sizeof(*in));
	for (uint32_t i = 0; i < s->nflows; i++) {
		out[s->flow[i].src] += s->flow[i].count;
		in[s->flow[i].dst] += s->flow[i].count;
	}
}

/* Build @p into @s and count each leaf's messages out and in. */
static int build_degrees(struct ftt_pattern p, struct ftt_set *s, uint64_t *out, uint64_t *in)
{
	int e = build(p, s);

	degrees(s, p.n, out, in);
	return e;
}

static int all_equal(const uint64_t *v, uint32_t n, uint64_t x)
{
	for (uint32_t i = 0; i < n; i++)
		if (v[i] != x)
			return 0;
	return 1;
}

static int sorted_unique_no_self(const struct ftt_set *s)
{
	for (uint32_t i = 0; i < s->nflows; i++) {
		if (s->flow[i].src == s->flow[i].dst || !s->flow[i].count)
			return 0;
		if (i && (s->flow[i - 1].src > s->flow[i].src ||
			  (s->flow[i - 1].src == s->flow[i].src &&
			   s->flow[i - 1].dst >= s->flow[i].dst)))
			return 0;
	}
	return 1;
}

/* The deterministic permutations on 64 leaves, against their definitions. */
static const struct {
	const char *name;
	uint32_t (*dst)(uint32_t i, uint32_t n);
	const char *says;
} fixed_perms[] = {
	{ "bit-reversal", bitrev, "bit-reversal on 64 leaves reverses the 6 address bits" },
	{ "transpose", transpose, "transpose on 64 leaves swaps the address halves" },
	{ "shift", half, "shift by N/2 sends every leaf across the root" },
	{ "tornado", tornado, "tornado sends i to i + ceil(N/2) - 1" },
	{ "neighbour", neighbour, "neighbour stays under the leaf switch" },
};

static void test_permutations(void)
{
	struct ftt_set s, t;
	struct ftt_pattern p;

	for (size_t k = 0; k < sizeof(fixed_perms) / sizeof(fixed_perms[0]); k++) {
		tap_ok(!build(pat(fixed_perms[k].name, 64), &s) &&
		       matches(&s, 64, fixed_perms[k].dst), "%s", fixed_perms[k].says);
		ftt_set_free(&s);
	}

	p = pat("permutation", 1000);
	tap_ok(!build(p, &s), "a random permutation of 1000 leaves builds");
	{
		uint64_t *o = calloc(1000, 8), *i = calloc(1000, 8);
		uint32_t fixed = 0;

		degrees(&s, 1000, o, i);
		for (uint32_t k = 0; k < 1000; k++)
			fixed += !o[k];
		tap_ok(sorted_unique_no_self(&s) && s.nflows + fixed == 1000 &&
		       s.nflows == ftt_set_messages(&s),
		       "it is a permutation: one message out and in per leaf but its fixed points");
		ftt_set_free(&s);
		p.no_fixed_points = true;
		build(p, &s);
		degrees(&s, 1000, o, i);
		tap_ok(all_equal(o, 1000, 1) && all_equal(i, 1000, 1),
		       "--no-fixed-points: every leaf sends one and receives one");
		free(o);
		free(i);
	}
	build(p, &t);
	tap_ok(s.nflows == t.nflows && !memcmp(s.flow, t.flow, s.nflows * sizeof(*s.flow)),
	       "the same seed gives the same set");
	ftt_set_free(&t);
	p.seed = 6;
	build(p, &t);
	tap_ok(memcmp(s.flow, t.flow, s.nflows * sizeof(*s.flow)) != 0,
	       "another seed gives another set");
	ftt_set_free(&t);
	ftt_set_free(&s);
}

static void test_shapes(void)
{
	uint64_t out[64], in[64];
	struct ftt_pattern p;
	struct ftt_set s;
	uint64_t hot = 0;

	p = pat("h-relation", 64);
	tap_ok(!build_degrees(p, &s, out, in) && sorted_unique_no_self(&s),
	       "an h-relation builds");
	tap_ok(all_equal(out, 64, 3) && all_equal(in, 64, 3),
	       "h-relation: every leaf sends 3 and receives 3");
	ftt_set_free(&s);

	p = pat("all-to-all", 16);
	p.count = 2;
	build_degrees(p, &s, out, in);
	tap_ok(s.nflows == 16 * 15 && all_equal(out, 16, 30) && all_equal(in, 16, 30),
	       "all-to-all: 240 flows of 2");
	ftt_set_free(&s);

	p = pat("many-to-one", 16);
	p.root = 9;
	build_degrees(p, &s, out, in);
	tap_ok(s.nflows == 15 && in[9] == 15 && out[9] == 0, "many-to-one into the root");
	ftt_set_free(&s);
	p.name = "one-to-many";
	build_degrees(p, &s, out, in);
	tap_ok(s.nflows == 15 && out[9] == 15 && in[9] == 0, "one-to-many from the root");
	ftt_set_free(&s);

	p = pat("uniform", 64);
	p.count = 100;
	build_degrees(p, &s, out, in);
	tap_ok(sorted_unique_no_self(&s) && all_equal(out, 64, 100),
	       "uniform: 100 messages per source, none to itself");
	ftt_set_free(&s);

	p.name = "hot-uniform";
	p.root = 3;
	p.hot_fraction = 0.5;
	build_degrees(p, &s, out, in);
	hot = in[3];
	/* 63 sources x 100 x 0.5 = 3150 expected, plus the uniform share */
	tap_ok(all_equal(out, 64, 100) && hot > 2900 && hot < 3500,
	       "hot-uniform: about half the messages go to the hot leaf (%llu of 6300)",
	       (unsigned long long)hot);
	ftt_set_free(&s);
}

static void test_refusals(void)
{
	struct ftt_pattern p;
	struct ftt_set s;
	char err[256];

	p = pat("bit-reversal", 48);
	tap_ok(ftt_pattern_build(&p, &s, err, sizeof(err)) && strstr(err, "power-of-two"),
	       "bit-reversal on 48 leaves refused: %s", err);
	p = pat("telepathy", 16);
	tap_ok(ftt_pattern_build(&p, &s, err, sizeof(err)) && strstr(err, "telepathy"),
	       "an unknown pattern is named: %s", err);
	p = pat("many-to-one", 16);
	p.root = 16;
	tap_ok(ftt_pattern_build(&p, &s, err, sizeof(err)) && strstr(err, "--root"),
	       "a root outside the fabric refused: %s", err);
	p = pat("neighbour", 16);
	p.m1 = 1;
	tap_ok(ftt_pattern_build(&p, &s, err, sizeof(err)) != 0,
	       "neighbour needs leaf switches of 2 or more");
}

static int parse_text(const char *text, uint32_t n, struct ftt_set *s, char *err, size_t len)
{
	FILE *f = fmemopen((void *)text, strlen(text), "r");
	int e = ftt_pattern_parse_file(f, n, s, err, len);

	fclose(f);
	return e;
}

static void test_file(void)
{
	static const struct { const char *text, *want; } bad[] = {
		{ "0 1 1\n1 x 2\n", "line 2" },
		{ "0 1\n\n# c\n3 3 1\n", "line 4: source and destination" },
		{ "0 16 1\n", "not a leaf" },
		{ "0 1 0\n", "count" },
		{ "0 -1 2\n", "line 1" },
		{ "0 1 2 3\n", "line 1" },
		{ "# nothing\n\n", "no rows" },
		{ "0 1 99999999999\n", "count" },
	};
	struct ftt_set s;
	char err[256];
	unsigned int i;

	tap_ok(!parse_text("# mine\n0 5 3\n5 0 2  # back\n7 12\n0 5 1\n", 16, &s, err, sizeof(err))
	       && s.nflows == 3 && s.flow[0].src == 0 && s.flow[0].dst == 5 &&
	       s.flow[0].count == 4 && s.flow[2].dst == 12 && s.flow[2].count == 1,
	       "a pattern file: comments, default count, repeated pairs add up");
	ftt_set_free(&s);
	tap_ok(!parse_text("0 010 0x3\n", 16, &s, err, sizeof(err)) && s.nflows == 1 &&
	       s.flow[0].dst == 10 && s.flow[0].count == 3,
	       "a pattern file's numbers: a leading 0 is decimal, 0x hex");
	ftt_set_free(&s);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err[0] = 0;
		tap_ok(parse_text(bad[i].text, 16, &s, err, sizeof(err)) && strstr(err, bad[i].want),
		       "bad pattern file %u refused: %s", i, err);
	}
}

static void test_msg(void)
{
	uint8_t buf[200], copy[200];
	struct ftt_msg h;
	unsigned int i, caught = 0;

	ftt_msg_fill(buf, sizeof(buf), 7, 123456789, 3, 9, 42);
	tap_ok(!ftt_msg_check(buf, sizeof(buf), &h) && h.flow == 7 && h.seq == 123456789 &&
	       h.src == 3 && h.dst == 9 && h.sent_ns == 42, "a message checks and reads back");
	for (i = 0; i < sizeof(buf); i++) {
		memcpy(copy, buf, sizeof(buf));
		copy[i] ^= 0x10;
		caught += ftt_msg_check(copy, sizeof(copy), &h) != 0;
	}
	tap_ok(caught == sizeof(buf), "a flipped bit in any of the %zu bytes is caught (%u)",
	       sizeof(buf), caught);
	tap_ok(ftt_msg_check(buf, sizeof(buf) - 1, &h) && ftt_msg_check(buf, 10, &h),
	       "a truncated message is caught");
}

static void test_histogram(void)
{
	uint64_t v, h[FTT_LAT_BUCKETS] = { 0 };
	int ok = 1, mono = 1;
	uint32_t last = 0;

	for (v = 0; v < (1ULL << 40); v = v * 5 / 4 + 1) {
		uint32_t b = ftt_lat_bucket(v);
		uint64_t mid = ftt_lat_value(b);

		if (b >= FTT_LAT_BUCKETS || (v > 16 && (mid < v - v / 16 || mid > v + v / 16)))
			ok = 0;
		if (b < last)
			mono = 0;
		last = b;
	}
	tap_ok(ok && ftt_lat_bucket(UINT64_MAX) < FTT_LAT_BUCKETS,
	       "time buckets hold their values within 1/16");
	tap_ok(mono, "time buckets grow with the value");
	for (v = 1; v <= 1000; v++)
		h[ftt_lat_bucket(v * 1000)]++;
	v = ftt_percentile(h, FTT_LAT_BUCKETS, 0.5, ftt_lat_value);
	tap_ok(v > 470000 && v < 530000, "p50 of 1..1000 us is about 500 us (%llu ns)",
	       (unsigned long long)v);
	v = ftt_percentile(h, FTT_LAT_BUCKETS, 1.0, ftt_lat_value);
	tap_ok(v > 960000 && v < 1040000, "max is about 1000 us");
	tap_ok(ftt_cycles_bucket_max(0) == 0 && ftt_cycles_bucket_max(3) == 7,
	       "kernel cycle bucket 3 holds 4..7 cycles");
}

/* ftt_args_parse() into @o, what it wrote on stderr into @err. */
static int parse_err(struct ftt_opts *o, char *err, size_t len, int argc, char **argv)
{
	int rc, fd[2], saved;
	ssize_t n;

	err[0] = '\0';
	if (pipe(fd))
		return -2;
	fflush(stderr);
	saved = dup(2);
	dup2(fd[1], 2);
	ftt_opts_init(o);
	rc = ftt_args_parse(argc, argv, o);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	close(fd[1]);
	n = read(fd[0], err, len - 1);
	close(fd[0]);
	err[n > 0 ? n : 0] = 0;
	return rc;
}

static int parse(int expect, const char *want, int argc, char **argv)
{
	struct ftt_opts o;
	char buf[4096];
	int rc = parse_err(&o, buf, sizeof(buf), argc, argv);

	return rc == expect && (!want || strstr(buf, want));
}

#define ARGS(...) (int)(sizeof((char *[]){ __VA_ARGS__ }) / sizeof(char *)), (char *[]){ __VA_ARGS__ }

static void test_args(void)
{
	tap_ok(parse(-1, NULL, ARGS("fttraffic", "-n", "4", "--seed", "9", "f0", "shift")),
	       "good arguments are taken");
	tap_ok(parse(2, "--size", ARGS("fttraffic", "--size", "39", "f0", "shift")),
	       "--size below the header refused");
	tap_ok(parse(2, "--count", ARGS("fttraffic", "-n", "0", "f0", "shift")),
	       "--count 0 refused");
	tap_ok(parse(2, "--rate", ARGS("fttraffic", "--rate", "nan", "f0", "shift")),
	       "--rate nan refused");
	tap_ok(parse(2, "--hot-fraction", ARGS("fttraffic", "--hot-fraction", "1.5", "f0", "hot-spot")),
	       "--hot-fraction above 1 refused");
	tap_ok(parse(2, "--file", ARGS("fttraffic", "--file", "x", "f0", "shift")),
	       "--file with another pattern refused");
	tap_ok(parse(2, "FABRIC PATTERN", ARGS("fttraffic", "f0")), "a missing pattern refused");
	tap_ok(parse(2, "--bogus", ARGS("fttraffic", "--bogus", "f0", "shift")),
	       "an unknown option is named");
	tap_ok(parse(2, "needs a value", ARGS("fttraffic", "f0", "shift", "--seed")),
	       "an option without its value refused");
	tap_ok(parse(2, "--veth", ARGS("fttraffic", "--veth", "--inject", "shift")),
	       "--veth with --inject refused");
	tap_ok(parse(-1, NULL, ARGS("fttraffic", "--veth", "shift")), "--veth takes a pattern only");
	{
		struct ftt_opts o;
		char err[4096];

		tap_ok(parse_err(&o, err, sizeof(err), ARGS("fttraffic", "-n", "010", "--seed",
							    "0x10", "f0", "shift")) == -1 &&
		       o.count == 10 && o.seed == 16,
		       "a leading 0 is decimal, 0x hex (-n 010 is 10, --seed 0x10 16)");
	}
	tap_ok(parse(2, "must not be negative", ARGS("fttraffic", "-n", "-5", "f0", "shift")),
	       "a negative --count refused, the reason named");
}

static int same_set(const struct ftt_set *a, const struct ftt_set *b)
{
	return a->nflows == b->nflows &&
	       !memcmp(a->flow, b->flow, a->nflows * sizeof(*a->flow));
}

/*
 * Old spellings of patterns (ftpattern.h): the command line takes each
 * with exactly one warning and goes on with the pattern's name, which
 * gives the same set; unknown words are refused, named. fttraffic's
 * hot-spot is hot-uniform now (hot-spot names ftsim's hot permutation,
 * which fttraffic does not run).
 */
static void test_old_spellings(void)
{
	static const char *const olds[][2] = {
		{ "bitreversal", "bit-reversal" }, { "bitrev", "bit-reversal" },
		{ "hotspot", "hot-uniform" }, { "hot-spot", "hot-uniform" },
		{ "random", "uniform" },
		{ "alltoall", "all-to-all" }, { "hrelation", "h-relation" },
		{ "manytoone", "many-to-one" }, { "onetomany", "one-to-many" },
	};
	struct ftt_set a, b;
	struct ftt_opts o;
	char err[4096], want[128];
	size_t i;
	int rc;

	for (i = 0; i < sizeof(olds) / sizeof(olds[0]); i++) {
		int same;

		rc = parse_err(&o, err, sizeof(err), ARGS("fttraffic", "f0", (char *)olds[i][0]));
		snprintf(want, sizeof(want), "fttraffic: warning: pattern '%s' is now spelled '%s'\n",
			 olds[i][0], olds[i][1]);
		tap_ok(rc == -1 && !strcmp(err, want) && !strcmp(o.pattern, olds[i][1]),
		       "'%s' taken as '%s' with exactly one warning: %.*s", olds[i][0], o.pattern,
		       (int)strcspn(err, "\n"), err);
		same = !build(pat(olds[i][0], 16), &a) && !build(pat(olds[i][1], 16), &b) &&
		       same_set(&a, &b) && a.nflows;
		tap_ok(same, "'%s' gives %s's set (%u flows)", olds[i][0], olds[i][1], a.nflows);
		ftt_set_free(&a);
		ftt_set_free(&b);
	}
	rc = parse_err(&o, err, sizeof(err), ARGS("fttraffic", "f0", "hot-uniform"));
	tap_ok(rc == -1 && !err[0] && !strcmp(o.pattern, "hot-uniform"),
	       "a pattern's name: no warning");
	rc = parse_err(&o, err, sizeof(err), ARGS("fttraffic", "f0", "zigzag"));
	tap_ok(rc == 2 && strstr(err, "PATTERN 'zigzag'") && strstr(err, "bit-reversal"),
	       "an unknown pattern refused with exit status 2, named: %.*s",
	       (int)strcspn(err, "\n"), err);
}

int main(void)
{
	test_permutations();
	test_shapes();
	test_refusals();
	test_file();
	test_msg();
	test_histogram();
	test_args();
	test_old_spellings();
	return tap_done();
}
