// SPDX-License-Identifier: GPL-2.0
/*
 * ftshape: shapes from words (ftshape.h). Numbers and lists are read as
 * ftunits reads them (decimal, or hexadecimal with 0x); every refusal
 * names the word and what was expected.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "ftshape.h"
#include "ftunits.h"

static const struct ft_shape_syntax kinds[FT_SHAPE_NKINDS] = {
	[FT_SHAPE_BINARY] = { "binary", 1, "N", "leaves, a power of two" },
	[FT_SHAPE_KARY] = { "kary", 2, "L K", "levels and arity" },
	[FT_SHAPE_XGFT] = { "xgft", 3, "H m1,...,mH w1,...,wH",
			    "levels, children per switch, parents per node" },
};

static const struct ft_shape_limits no_limits = {
	.levels = FT_SHAPE_MAX_LEVELS, .m = UINT32_MAX, .w = UINT32_MAX,
	.leaves = UINT32_MAX,
};

/* The longest word ft_shape_parse() takes. */
#define SHAPE_WORD	256

const struct ft_shape_syntax *ft_shape_syntax(const char *word)
{
	int k;

	for (k = 0; k < FT_SHAPE_NKINDS; k++)
		if (!strcmp(word, kinds[k].kind))
			return &kinds[k];
	return NULL;
}

const char *ft_shape_kind_name(enum ft_shape_kind kind)
{
	return kind < FT_SHAPE_NKINDS ? kinds[kind].kind : "?";
}

/* "kary" and "L K" as "kary:L:K". */
static const char *colon_form(const struct ft_shape_syntax *syn, char *buf, size_t len)
{
	char *p;

	snprintf(buf, len, "%s:%s", syn->kind, syn->params);
	for (p = buf; *p; p++)
		if (*p == ' ')
			*p = ':';
	return buf;
}

static int number(const char *what, const char *word, uint64_t min, uint64_t max,
		  uint64_t *v, char *why, size_t len)
{
	char e[64];

	if (!ft_parse_range(word, min, max, v, e, sizeof(e)))
		return 0;
	snprintf(why, len, "%s '%s': %s", what, word, e);
	return -1;
}

static int list(const char *what, const char *word, uint32_t max, uint32_t *v,
		uint32_t want, char *why, size_t len)
{
	unsigned int n;
	char e[128];

	if (!ft_parse_u32_list(word, 1, max, v, want, FT_SHAPE_MAX_LEVELS, &n, e, sizeof(e)))
		return 0;
	snprintf(why, len, "%s '%s': %s", what, word, e);
	return -1;
}

/* "8,4" from @v[0..@n-1], into @buf (cut short if it must be). */
static void join(const uint32_t *v, uint32_t n, char *buf, size_t len)
{
	size_t off = 0;
	uint32_t i;

	buf[0] = '\0';
	for (i = 0; i < n && off < len; i++)
		off += (size_t)snprintf(buf + off, len - off, "%s%" PRIu32, i ? "," : "", v[i]);
}

static void count_leaves(struct ft_shape *sh)
{
	uint32_t i;

	sh->leaves = 1;
	for (i = 0; i < sh->h && sh->leaves <= UINT32_MAX; i++)
		sh->leaves *= sh->m[i];
}

void ft_shape_kary(struct ft_shape *sh, uint32_t l, uint32_t k)
{
	uint32_t i;

	memset(sh, 0, sizeof(*sh));
	sh->kind = FT_SHAPE_KARY;
	sh->h = l;
	for (i = 0; i < l; i++) {
		sh->m[i] = k;
		sh->w[i] = i ? k : 1;
	}
	count_leaves(sh);
	snprintf(sh->desc, sizeof(sh->desc), "FT(%" PRIu32 ",%" PRIu32 ")", l, k);
}

static int parse_binary(char *const *word, const struct ft_shape_limits *lim,
			struct ft_shape *sh, char *why, size_t len)
{
	uint64_t n, max = (uint64_t)1 << (lim->levels < 31 ? lim->levels : 31);

	if (number("leaf count N", word[1], 2, lim->leaves < max ? lim->leaves : max, &n,
		   why, len))
		return -1;
	if (n & (n - 1)) {
		snprintf(why, len, "leaf count N '%s': not a power of two", word[1]);
		return -1;
	}
	sh->kind = FT_SHAPE_BINARY;
	for (sh->h = 0; ((uint64_t)1 << sh->h) < n; sh->h++) {
		sh->m[sh->h] = 2;
		sh->w[sh->h] = 1;
	}
	snprintf(sh->desc, sizeof(sh->desc), "binary %" PRIu64, n);
	return 0;
}

static int parse_xgft(char *const *word, const struct ft_shape_limits *lim,
		      struct ft_shape *sh, char *why, size_t len)
{
	char m[40], w[40];
	uint64_t h;

	if (number("level count H", word[1], 1, lim->levels, &h, why, len) ||
	    list("children per switch m1,...,mH", word[2], lim->m, sh->m, (uint32_t)h,
		 why, len) ||
	    list("parents per node w1,...,wH", word[3], lim->w, sh->w, (uint32_t)h, why, len))
		return -1;
	sh->kind = FT_SHAPE_XGFT;
	sh->h = (uint32_t)h;
	join(sh->m, sh->h, m, sizeof(m));
	join(sh->w, sh->h, w, sizeof(w));
	snprintf(sh->desc, sizeof(sh->desc), "XGFT(%" PRIu32 "; %s; %s)", sh->h, m, w);
	return 0;
}

int ft_shape_parse_words(char *const *word, unsigned int n,
			 const struct ft_shape_limits *lim, struct ft_shape *sh,
			 char *why, size_t len)
{
	const struct ft_shape_syntax *syn = n ? ft_shape_syntax(word[0]) : NULL;
	uint64_t l, k;
	char form[64];
	int err;

	memset(sh, 0, sizeof(*sh));
	if (!lim)
		lim = &no_limits;
	if (!syn) {
		snprintf(why, len, "'%s' is no kind of shape: expected binary:N, kary:L:K or xgft:H:m1,...,mH:w1,...,wH (or their words apart: kary L K)",
			 n ? word[0] : "");
		return -1;
	}
	if (n != syn->nparams + 1) {
		snprintf(why, len, "%s takes %s (%s): %s, or the words apart", syn->kind,
			 syn->params, syn->means, colon_form(syn, form, sizeof(form)));
		return -1;
	}
	switch (syn - kinds) {
	case FT_SHAPE_BINARY:
		err = parse_binary(word, lim, sh, why, len);
		break;
	case FT_SHAPE_KARY:
		err = number("level count L", word[1], 1, lim->levels, &l, why, len) ||
		      number("arity K", word[2], 2, lim->m < lim->w ? lim->m : lim->w, &k,
			     why, len);
		if (!err)
			ft_shape_kary(sh, (uint32_t)l, (uint32_t)k);
		break;
	default:
		err = parse_xgft(word, lim, sh, why, len);
		break;
	}
	if (err)
		return -1;
	count_leaves(sh);
	if (sh->leaves > lim->leaves) {
		snprintf(why, len, "more than %" PRIu64 " leaves", lim->leaves);
		return -1;
	}
	return 0;
}

int ft_shape_parse(const char *s, const struct ft_shape_limits *lim,
		   struct ft_shape *sh, char *why, size_t len)
{
	char buf[SHAPE_WORD], *word[5], *p, *save;
	unsigned int n = 0;

	if (strlen(s) >= sizeof(buf)) {
		memset(sh, 0, sizeof(*sh));
		snprintf(why, len, "longer than %zu characters", sizeof(buf) - 1);
		return -1;
	}
	strcpy(buf, s);
	/* Five words are one too many for any kind: the count is refused. */
	for (p = strtok_r(buf, ": ", &save); p && n < 5; p = strtok_r(NULL, ": ", &save))
		word[n++] = p;
	return ft_shape_parse_words(word, n, lim, sh, why, len);
}

const char *ft_shape_spec(const struct ft_shape *sh, char *buf, size_t len)
{
	char m[FT_SHAPE_MAX_LEVELS * 11], w[FT_SHAPE_MAX_LEVELS * 11];

	switch (sh->kind) {
	case FT_SHAPE_BINARY:
		snprintf(buf, len, "binary:%" PRIu64, sh->leaves);
		break;
	case FT_SHAPE_KARY:
		snprintf(buf, len, "kary:%" PRIu32 ":%" PRIu32, sh->h, sh->m[0]);
		break;
	default:
		join(sh->m, sh->h, m, sizeof(m));
		join(sh->w, sh->h, w, sizeof(w));
		snprintf(buf, len, "xgft:%" PRIu32 ":%s:%s", sh->h, m, w);
		break;
	}
	return buf;
}
