// SPDX-License-Identifier: GPL-2.0
/*
 * ftctl fabric: create, delete, change, step, feed and show fabrics.
 *
 * Every subcommand parses its whole command line (and an inject file)
 * into fab_req before netlink is opened; run() only builds and sends.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <json-c/json.h>

#include "ftctl.h"
#include "ftshape.h"
#include "linux/fattree_structs.h"

#define MAXL		FTCTL_MAX_LEVELS
_Static_assert(MAXL == FT_SHAPE_MAX_LEVELS, "a shape fills fab_req's m and w");
#define ROW_SIZE	sizeof(struct fattree_inject_row)
/* One attribute holds at most 65535 bytes, header included. */
#define ROWS_PER_ATTR	((0xffff - NLA_HDRLEN) / ROW_SIZE)
/*
 * A request holds at most 12 full attributes (65520 rows, 768 KiB), under
 * 1 MiB; more rows go in more requests. The kernel takes at most 65536
 * rows in one request on fabrics of up to 4096 leaves (its pair table
 * counts every row as a possible new pair), so this is also the most it
 * accepts at once there.
 */
#define INJECT_ATTRS	12
#define INJECT_MSG_MAX	(INJECT_ATTRS * NLA_ALIGN(NLA_HDRLEN + ROWS_PER_ATTR * ROW_SIZE) + 256)

enum fab_opt {
	OPT_LANES, OPT_PROFILE, OPT_BASE, OPT_ROOT, OPT_PATH, OPT_INJECTION,
	OPT_ARBITRATION, OPT_PERIOD, OPT_BACKLOG, OPT_SEED, OPT_MODE, OPT_Q,
	OPT_DISCIPLINE, OPT_GHOSTS, OPT_N
};

static const char *const opt_names[OPT_N] = {
	[OPT_LANES] = "lanes", [OPT_PROFILE] = "profile", [OPT_BASE] = "base",
	[OPT_ROOT] = "root", [OPT_PATH] = "path", [OPT_INJECTION] = "injection",
	[OPT_ARBITRATION] = "arbitration", [OPT_PERIOD] = "period",
	[OPT_BACKLOG] = "backlog", [OPT_SEED] = "seed", [OPT_MODE] = "mode",
	[OPT_Q] = "q", [OPT_DISCIPLINE] = "discipline", [OPT_GHOSTS] = "ghosts",
};

/* What follows each option word, for "'path' needs a value (...)". */
static const char *const opt_values[OPT_N] = {
	[OPT_LANES] = "c1,...,cH: lanes per level",
	[OPT_PROFILE] = "constant, doubling, standard, area, volume, universal or explicit",
	[OPT_BASE] = "B: lanes or capacity at the leaves",
	[OPT_ROOT] = "R: root capacity",
	[OPT_PATH] = "circuit, dmodk, random or firstfree",
	[OPT_INJECTION] = "all, random or random-prime",
	[OPT_ARBITRATION] = "random or fixed",
	[OPT_PERIOD] = "1ms, 500us, 250000ns, 1s, or manual",
	[OPT_BACKLOG] = "N: packets a leaf may hold",
	[OPT_SEED] = "S: a 64-bit number",
	[OPT_MODE] = "cycle or saf (store-and-forward)",
	[OPT_Q] = "N: packets an edge queue holds, 1 to 64",
	[OPT_DISCIPLINE] = "rank, fifo or farthest",
	[OPT_GHOSTS] = "on or off",
};

#define OPTS_ADD	((1u << OPT_N) - 1)
#define OPTS_SET	((1u << OPT_PATH) | (1u << OPT_INJECTION) | \
			 (1u << OPT_ARBITRATION) | (1u << OPT_PERIOD) | \
			 (1u << OPT_BACKLOG) | (1u << OPT_SEED) | \
			 (1u << OPT_DISCIPLINE) | (1u << OPT_GHOSTS))
/* The options of store-and-forward mode. */
#define OPTS_SAF	((1u << OPT_Q) | (1u << OPT_DISCIPLINE) | (1u << OPT_GHOSTS))

/* Options of add and set, and the words they came from. */
struct fab_opts {
	unsigned int given;
	uint32_t path, injection, arbitration, backlog, profile, base, root;
	uint32_t mode, q, discipline, ghosts;
	uint64_t period_ns, seed;
	uint32_t lanes[MAXL];
	unsigned int n_lanes;
	const char *word[OPT_N];
};

static struct fab_req {
	char name[FATTREE_NAME_LEN];
	bool has_name;
	char topo[160];			/* the topology as typed */
	uint32_t h, m[MAXL], w[MAXL];
	struct fab_opts o;
	uint32_t steps;
	struct fattree_inject_row *rows;
	uint32_t *lines;		/* file line of each row, or NULL */
	size_t n_rows;
	const char *file;
} fr;

static const char *fmt_list(const uint32_t *v, unsigned int n, char *buf,
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

static int parse_name_arg(const char *cmd, int argc, char **argv, int i)
{
	if (i >= argc)
		return ftctl_usage_err(cmd, "missing the fabric NAME");
	fr.has_name = true;
	return ftctl_parse_name(cmd, argv[i], fr.name);
}

/* --- topology --- */

/*
 * The shape (ftshape.h): "kary:3:4" in one word, or its words apart as
 * "kary 3 4"; the same grammar, the same request.
 */
static int parse_topology(const char *cmd, int argc, char **argv, int *pi)
{
	const struct ft_shape_syntax *syn = NULL;
	unsigned int nwords = 1, i;
	struct ft_shape sh;
	char why[256];

	if (*pi >= argc)
		return ftctl_usage_err(cmd, "missing the TOPOLOGY (kary L K, binary N or xgft H m1,...,mH w1,...,wH; or kary:L:K, ...)");
	if (!strchr(argv[*pi], ':')) {
		syn = ft_shape_syntax(argv[*pi]);
		if (!syn)
			return ftctl_usage_err(cmd, "unknown topology '%s' (expected kary, binary or xgft, or one word such as kary:3:4)",
					       argv[*pi]);
		nwords += syn->nparams;
		if (*pi + (int)nwords > argc)
			return ftctl_usage_err(cmd, "topology '%s' needs %s (%s)", argv[*pi],
					       syn->params, syn->means);
	}
	fr.topo[0] = '\0';
	for (i = 0; i < nwords; i++) {
		if (i)
			strncat(fr.topo, " ", sizeof(fr.topo) - strlen(fr.topo) - 1);
		strncat(fr.topo, argv[*pi + (int)i],
			sizeof(fr.topo) - strlen(fr.topo) - 1);
	}
	if (syn ? ft_shape_parse_words(argv + *pi, nwords, NULL, &sh, why, sizeof(why)) :
		  ft_shape_parse(argv[*pi], NULL, &sh, why, sizeof(why)))
		return ftctl_usage_err(cmd, "bad topology '%s': %s", fr.topo, why);
	fr.h = sh.h;
	memcpy(fr.m, sh.m, sizeof(fr.m));
	memcpy(fr.w, sh.w, sizeof(fr.w));
	*pi += (int)nwords;
	return 0;
}

/* --- options --- */

static void list_opts(char *buf, size_t len, unsigned int allowed)
{
	size_t off = 0;
	unsigned int k;

	buf[0] = '\0';
	for (k = 0; k < OPT_N && off < len; k++)
		if (allowed & (1u << k))
			off += (size_t)snprintf(buf + off, len - off, "%s%s",
						off ? ", " : "", opt_names[k]);
}

static int parse_opt(const char *cmd, struct fab_opts *o, int k, const char *v,
		     uint32_t h)
{
	switch (k) {
	case OPT_LANES:
		return ftctl_parse_u32_list(cmd, "lanes", v, 1, UINT32_MAX,
					    o->lanes, h, MAXL, &o->n_lanes);
	case OPT_PROFILE:
		return ftctl_parse_enum(cmd, "profile", v, ftn_profile_names,
					FTN_PROFILE_NR, &o->profile);
	case OPT_BASE:
		return ftctl_parse_u32(cmd, "profile base", v, 1, UINT32_MAX, &o->base);
	case OPT_ROOT:
		return ftctl_parse_u32(cmd, "profile root", v, 1, UINT32_MAX, &o->root);
	case OPT_PATH:
		return ftctl_parse_enum(cmd, "path", v, ftn_path_names,
					FTN_PATH_NR, &o->path);
	case OPT_INJECTION:
		return ftctl_parse_enum(cmd, "injection", v, ftn_injection_names,
					FTN_INJECTION_NR, &o->injection);
	case OPT_ARBITRATION:
		return ftctl_parse_enum(cmd, "arbitration", v,
					ftn_arbitration_names,
					FTN_ARBITRATION_NR, &o->arbitration);
	case OPT_PERIOD:
		return ftctl_parse_period(cmd, v, &o->period_ns);
	case OPT_BACKLOG:
		return ftctl_parse_u32(cmd, "backlog", v, 1, UINT32_MAX, &o->backlog);
	case OPT_MODE:
		return ftctl_parse_enum(cmd, "mode", v, ftn_mode_names,
					FTN_MODE_NR, &o->mode);
	case OPT_Q:
		/* its range is the kernel's to check (FATTREE_SAF_MAX_Q) */
		return ftctl_parse_u32(cmd, "q", v, 0, UINT32_MAX, &o->q);
	case OPT_DISCIPLINE:
		return ftctl_parse_enum(cmd, "discipline", v, ftn_saf_discipline_names,
					FTN_SAF_DISCIPLINE_NR, &o->discipline);
	case OPT_GHOSTS:
		return ftctl_parse_enum(cmd, "ghosts", v, ftctl_onoff_names,
					ftctl_n_onoff, &o->ghosts);
	default:
		return ftctl_parse_u64(cmd, "seed", v, 0, UINT64_MAX, &o->seed);
	}
}

#define GIVEN(o, k) ((o)->given & (1u << (k)))

/* The profile options must make one consistent rule. */
static int check_profile(const char *cmd, struct fab_opts *o)
{
	const char *p = GIVEN(o, OPT_PROFILE) ? o->word[OPT_PROFILE] : NULL;

	if (GIVEN(o, OPT_LANES) && p && o->profile != FATTREE_PROFILE_EXPLICIT)
		return ftctl_usage_err(cmd, "'lanes %s' sets every level's lanes (profile explicit); it does not go with 'profile %s'",
				       o->word[OPT_LANES], p);
	if (p && o->profile == FATTREE_PROFILE_EXPLICIT && !GIVEN(o, OPT_LANES))
		return ftctl_usage_err(cmd, "'profile explicit' needs 'lanes c1,...,cH'");
	if (GIVEN(o, OPT_BASE) &&
	    (!p || o->profile == FATTREE_PROFILE_EXPLICIT ||
	     o->profile == FATTREE_PROFILE_UNIVERSAL))
		return ftctl_usage_err(cmd, "'base %s' needs 'profile constant|doubling|standard|area|volume'%s%s",
				       o->word[OPT_BASE], p ? ", not " : "",
				       p ? p : "");
	if (GIVEN(o, OPT_ROOT) && (!p || o->profile != FATTREE_PROFILE_UNIVERSAL))
		return ftctl_usage_err(cmd, "'root %s' needs 'profile universal'%s%s",
				       o->word[OPT_ROOT], p ? ", not " : "",
				       p ? p : "");
	if (p && o->profile == FATTREE_PROFILE_UNIVERSAL && !GIVEN(o, OPT_ROOT))
		return ftctl_usage_err(cmd, "'profile universal' needs 'root R' (the root's capacity, 1..leaves)");
	if (GIVEN(o, OPT_LANES) && !p)
		o->profile = FATTREE_PROFILE_EXPLICIT;
	return 0;
}

/* Store-and-forward options go with mode saf, and it needs q. */
static int check_mode(const char *cmd, struct fab_opts *o)
{
	bool saf = GIVEN(o, OPT_MODE) && o->mode == FATTREE_MODE_SAF;
	unsigned int k;

	if (!saf) {
		for (k = 0; k < OPT_N; k++)
			if ((OPTS_SAF & (1u << k)) && GIVEN(o, k))
				return ftctl_usage_err(cmd, "'%s %s' needs 'mode saf' (store-and-forward)",
						       opt_names[k], o->word[k]);
		return 0;
	}
	if (!GIVEN(o, OPT_Q))
		return ftctl_usage_err(cmd, "'mode saf' needs 'q N' (packets an edge queue holds, 1 to %d)",
				       FATTREE_SAF_MAX_Q);
	if (GIVEN(o, OPT_PATH) && o->path == FATTREE_PATH_CIRCUIT)
		return ftctl_usage_err(cmd, "'path circuit' does not go with 'mode saf' (dmodk, random or firstfree)");
	for (k = OPT_INJECTION; k <= OPT_ARBITRATION; k++)
		if (GIVEN(o, k))
			return ftctl_usage_err(cmd, "'%s %s' applies to delivery cycles, not to 'mode saf'",
					       opt_names[k], o->word[k]);
	return 0;
}

static int parse_opts(const char *cmd, int argc, char **argv, int i,
		      unsigned int allowed, struct fab_opts *o)
{
	char choices[128];
	const char *v;
	int k, err;

	for (; i < argc; i++) {
		for (k = 0; k < OPT_N; k++)
			if (!strcmp(argv[i], opt_names[k]))
				break;
		if (k == OPT_N || !(allowed & (1u << k))) {
			list_opts(choices, sizeof(choices), allowed);
			if (k < OPT_N)
				return ftctl_usage_err(cmd, "option '%s' does not apply here (expected %s)",
						       argv[i], choices);
			return ftctl_usage_err(cmd, "unknown option '%s' (expected %s)",
					       argv[i], choices);
		}
		if (GIVEN(o, k))
			return ftctl_usage_err(cmd, "option '%s' given twice", argv[i]);
		v = ftctl_arg_value(cmd, argc, argv, &i, opt_values[k]);
		if (!v)
			return FTCTL_EXIT_USAGE;
		err = parse_opt(cmd, o, k, v, fr.h);
		if (err)
			return err;
		o->given |= 1u << k;
		o->word[k] = v;
	}
	return 0;
}

/* Put the given options; false when the request is full. */
static bool put_opts(struct ftctl_req *r, const struct fab_opts *o)
{
	const char *const *w = o->word;
	char buf[96];

	/* An explicit profile is sent as its lanes alone. */
	if (GIVEN(o, OPT_PROFILE) && o->profile != FATTREE_PROFILE_EXPLICIT &&
	    FTCTL_PUT_U32(r, FATTREE_A_FABRIC_PROFILE, o->profile, "profile %s",
			  w[OPT_PROFILE]))
		return false;
	if (GIVEN(o, OPT_LANES) &&
	    FTCTL_PUT(r, FATTREE_A_FABRIC_LANES, o->lanes,
		      o->n_lanes * sizeof(uint32_t), "lanes %s",
		      fmt_list(o->lanes, o->n_lanes, buf, sizeof(buf))))
		return false;
	if (GIVEN(o, OPT_BASE) &&
	    FTCTL_PUT_U32(r, FATTREE_A_FABRIC_PROFILE_BASE, o->base, "base %s",
			  w[OPT_BASE]))
		return false;
	if (GIVEN(o, OPT_ROOT) &&
	    FTCTL_PUT_U32(r, FATTREE_A_FABRIC_PROFILE_ROOT, o->root, "root %s",
			  w[OPT_ROOT]))
		return false;
	if (GIVEN(o, OPT_PATH) &&
	    FTCTL_PUT_U32(r, FATTREE_A_FABRIC_PATH, o->path, "path %s",
			  w[OPT_PATH]))
		return false;
	if (GIVEN(o, OPT_INJECTION) &&
	    FTCTL_PUT_U32(r, FATTREE_A_FABRIC_INJECTION, o->injection,
			  "injection %s", w[OPT_INJECTION]))
		return false;
	if (GIVEN(o, OPT_ARBITRATION) &&
	    FTCTL_PUT_U32(r, FATTREE_A_FABRIC_ARBITRATION, o->arbitration,
			  "arbitration %s", w[OPT_ARBITRATION]))
		return false;
	if (GIVEN(o, OPT_PERIOD) &&
	    FTCTL_PUT_U64(r, FATTREE_A_FABRIC_PERIOD_NS, o->period_ns,
			  "period %s", w[OPT_PERIOD]))
		return false;
	if (GIVEN(o, OPT_BACKLOG) &&
	    FTCTL_PUT_U32(r, FATTREE_A_FABRIC_BACKLOG, o->backlog,
			  "backlog %s", w[OPT_BACKLOG]))
		return false;
	if (GIVEN(o, OPT_SEED) &&
	    FTCTL_PUT_U64(r, FATTREE_A_FABRIC_SEED, o->seed, "seed %s",
			  w[OPT_SEED]))
		return false;
	if (GIVEN(o, OPT_MODE) &&
	    FTCTL_PUT_U32(r, FATTREE_A_FABRIC_MODE, o->mode, "mode %s",
			  w[OPT_MODE]))
		return false;
	if (GIVEN(o, OPT_Q) &&
	    FTCTL_PUT_U32(r, FATTREE_A_FABRIC_SAF_Q, o->q, "q %s", w[OPT_Q]))
		return false;
	if (GIVEN(o, OPT_DISCIPLINE) &&
	    FTCTL_PUT_U32(r, FATTREE_A_FABRIC_SAF_DISCIPLINE, o->discipline,
			  "discipline %s", w[OPT_DISCIPLINE]))
		return false;
	if (GIVEN(o, OPT_GHOSTS) &&
	    FTCTL_PUT_U32(r, FATTREE_A_FABRIC_SAF_GHOSTS, o->ghosts,
			  "ghosts %s", w[OPT_GHOSTS]))
		return false;
	return true;
}

static bool put_name(struct ftctl_req *r)
{
	return !FTCTL_PUT_STR(r, FATTREE_A_FABRIC_NAME, fr.name, "fabric name %s",
			      fr.name);
}

/* Send a request with NAME and whatever @fill puts. */
static int simple_request(struct ftctl *ctl, uint8_t cmd, const char *what,
			  bool (*fill)(struct ftctl_req *r))
{
	struct ftctl_req r;

	if (!ftctl_req_init(ctl, &r, cmd, 0, 0))
		return ftctl_fail(ctl, what, -ENOMEM);
	if (!put_name(&r) || (fill && !fill(&r))) {
		ftctl_req_free(&r);
		return ftctl_fail(ctl, what, -EMSGSIZE);
	}
	return ftctl_req_run(ctl, &r, what, NULL, NULL);
}

/* --- add --- */

static int add_parse(struct ftctl *ctl, int argc, char **argv)
{
	const char *cmd = "fabric add";
	int i = 2, err;

	(void)ctl;
	err = parse_name_arg(cmd, argc, argv, 1);
	if (!err)
		err = parse_topology(cmd, argc, argv, &i);
	if (!err)
		err = parse_opts(cmd, argc, argv, i, OPTS_ADD, &fr.o);
	if (!err)
		err = check_profile(cmd, &fr.o);
	if (!err)
		err = check_mode(cmd, &fr.o);
	return err;
}

static bool add_fill(struct ftctl_req *r)
{
	char buf[96];

	return !FTCTL_PUT_U32(r, FATTREE_A_FABRIC_LEVELS, fr.h, "%s: h = %" PRIu32,
			      fr.topo, fr.h) &&
	       !FTCTL_PUT(r, FATTREE_A_FABRIC_DOWN, fr.m, fr.h * sizeof(uint32_t),
			  "%s: m = %s", fr.topo, fmt_list(fr.m, fr.h, buf, sizeof(buf))) &&
	       !FTCTL_PUT(r, FATTREE_A_FABRIC_UP, fr.w, fr.h * sizeof(uint32_t),
			  "%s: w = %s", fr.topo, fmt_list(fr.w, fr.h, buf, sizeof(buf))) &&
	       put_opts(r, &fr.o);
}

static int add_run(struct ftctl *ctl)
{
	char what[64];

	snprintf(what, sizeof(what), "fabric add %s", fr.name);
	return simple_request(ctl, FATTREE_CMD_FABRIC_NEW, what, add_fill);
}

static void add_help(FILE *f)
{
	fprintf(f,
		"NAME is at most %d bytes. TOPOLOGY is one of these, its words apart or\n"
		"joined by colons in one word, as every fattree tool writes a shape\n"
		"(kary 3 4 is kary:3:4, the same request):\n"
		"  kary L K    seed 002's k-ary n-tree FT(L,K): h = L levels, K children\n"
		"              per switch and K parents per node (one above the leaves):\n"
		"              m = (K,...,K), w = (1,K,...,K); K^L leaves; or kary:L:K\n"
		"  binary N    Leiserson's binary fat-tree of N leaves (a power of two):\n"
		"              m = 2 and w = 1 on each of the log2 N levels; or binary:N\n"
		"  xgft H m1,...,mH w1,...,wH\n"
		"              any XGFT(H; m; w): level-i switches have m_i children,\n"
		"              level-(i-1) nodes have w_i parents (i = 1 is the leaves');\n"
		"              or xgft:H:m1,...,mH:w1,...,wH\n"
		"OPTIONS (any order, each at most once):\n"
		"  lanes c1,...,cH      lanes of each link of level 1..H (profile explicit)\n"
		"  profile P [base B] [root R]\n"
		"                       lanes from a capacity profile: constant (B lanes\n"
		"                       everywhere), doubling, standard, area, volume (B:\n"
		"                       capacity at the leaves), universal (R: root\n"
		"                       capacity), explicit (with lanes)\n"
		"  path circuit|dmodk|random|firstfree\n"
		"                       how messages choose their up-ports\n"
		"  injection all|random|random-prime\n"
		"                       which waiting messages are offered each cycle\n"
		"  arbitration random|fixed\n"
		"                       who wins a congested link\n"
		"  period T             cycle period: 1ms, 1.5ms, 500us, 1s; manual or\n"
		"                       0 for cycles stepped with 'ftctl fabric step'\n"
		"  backlog N            packets a leaf may hold\n"
		"  seed S               seed of the fabric's random choices (0x.. accepted)\n"
		"  mode cycle|saf       how messages move (fixed once created): cycle, whole\n"
		"                       paths per delivery cycle (default); saf, store-and-\n"
		"                       forward (seed 001), one hop per cycle through edge\n"
		"                       queues of q packets, with:\n"
		"    q N                packets each edge queue holds, 1 to %d (required)\n"
		"    discipline rank|fifo|farthest\n"
		"                       forwarding order: random ranks with ghosts and\n"
		"                       end-of-stream tokens (default), oldest first, or\n"
		"                       farthest to go first\n"
		"    ghosts on|off      rank: send ghosts (default on; off may stall a\n"
		"                       batch, which then finishes with ghosts)\n"
		"                       (no circuit path, injection or arbitration)\n"
		"Omitted options take the kernel's defaults.\n"
		"Examples:\n"
		"  ftctl fabric add ft0 kary 3 4\n"
		"  ftctl fabric add ft1 kary:3:4 period 1ms\n"
		"  ftctl fabric add bt binary 64 profile area base 1 period manual\n"
		"  ftctl fabric add sl xgft 2 8,4 1,2 lanes 1,2 path random seed 7\n"
		"  ftctl fabric add sf kary 2 4 period manual mode saf q 2\n",
		FATTREE_NAME_LEN - 1, FATTREE_SAF_MAX_Q);
}

/* --- del --- */

static int del_parse(struct ftctl *ctl, int argc, char **argv)
{
	int err;

	(void)ctl;
	err = parse_name_arg("fabric del", argc, argv, 1);
	if (!err && argc > 2)
		return ftctl_usage_err("fabric del", "unexpected argument '%s'", argv[2]);
	return err;
}

static int del_run(struct ftctl *ctl)
{
	char what[64];

	snprintf(what, sizeof(what), "fabric del %s", fr.name);
	return simple_request(ctl, FATTREE_CMD_FABRIC_DEL, what, NULL);
}

/* --- clear --- */

static int clear_parse(struct ftctl *ctl, int argc, char **argv)
{
	int err;

	(void)ctl;
	err = parse_name_arg("fabric clear", argc, argv, 1);
	if (!err && argc > 2)
		return ftctl_usage_err("fabric clear", "unexpected argument '%s'", argv[2]);
	return err;
}

static int clear_run(struct ftctl *ctl)
{
	char what[64];

	snprintf(what, sizeof(what), "fabric clear %s", fr.name);
	return simple_request(ctl, FATTREE_CMD_STATS_RESET, what, NULL);
}

static void clear_help(FILE *f)
{
	fprintf(f,
		"Zero the counters of fabric NAME (offered, delivered, blocked, control,\n"
		"overruns, cycle_ns, failure_held, circuits_cut) and of its links\n"
		"(carried, max/cyc, saturated, blocked). What is waiting, the cycle\n"
		"count, the circuits and the leaves' counters stay.\n");
}

/* --- set --- */

static int set_parse(struct ftctl *ctl, int argc, char **argv)
{
	const char *cmd = "fabric set";
	int err;

	(void)ctl;
	err = parse_name_arg(cmd, argc, argv, 1);
	if (!err)
		err = parse_opts(cmd, argc, argv, 2, OPTS_SET, &fr.o);
	if (!err && !fr.o.given)
		return ftctl_usage_err(cmd, "nothing to change (path, injection, arbitration, period, seed, backlog, discipline or ghosts)");
	return err;
}

static bool set_fill(struct ftctl_req *r)
{
	return put_opts(r, &fr.o);
}

static int set_run(struct ftctl *ctl)
{
	char what[64];

	snprintf(what, sizeof(what), "fabric set %s", fr.name);
	return simple_request(ctl, FATTREE_CMD_FABRIC_SET, what, set_fill);
}

static void set_help(FILE *f)
{
	fprintf(f,
		"Change a fabric's policies while it exists; the shape and lanes are fixed.\n"
		"  path circuit|dmodk|random|firstfree\n"
		"  injection all|random|random-prime\n"
		"  arbitration random|fixed\n"
		"  period T      1ms, 500us, 250000ns, 1s; manual or 0: stepped cycles\n"
		"  seed S        restart the fabric's random choices from S\n"
		"  backlog N     packets a leaf may hold\n"
		"  discipline rank|fifo|farthest\n"
		"  ghosts on|off store-and-forward fabrics, while they hold no message\n"
		"The mode and q are fixed at creation; a store-and-forward fabric takes no\n"
		"circuit path, injection or arbitration.\n");
}

/* --- show (also used by step) --- */

/* Levels of a store-and-forward fabric's leveled network: 0..2h. */
#define SAF_LEVELS	(2 * MAXL + 1)

struct fab_info {
	char name[64];
	uint64_t v[FATTREE_A_FABRIC_MAX + 1];
	bool has[FATTREE_A_FABRIC_MAX + 1];
	uint32_t m[MAXL], w[MAXL], lanes[MAXL];
	unsigned int nm, nw, nlanes;
	uint64_t st[FATTREE_A_STATS_MAX + 1];
	bool has_st[FATTREE_A_STATS_MAX + 1];
	/* store-and-forward counters (FATTREE_A_FABRIC_SAF) */
	bool saf;
	uint64_t sv[FATTREE_A_SAF_MAX + 1];
	bool has_sv[FATTREE_A_SAF_MAX + 1];
	uint32_t lq[SAF_LEVELS], lmax[SAF_LEVELS];
	uint64_t lsum[SAF_LEVELS];
	unsigned int nl;
};

struct fab_list {
	struct fab_info *v;
	size_t n, cap;
};

static const bool fab_attr_u64[FATTREE_A_FABRIC_MAX + 1] = {
	[FATTREE_A_FABRIC_PERIOD_NS] = true,
	[FATTREE_A_FABRIC_SEED] = true,
	[FATTREE_A_FABRIC_CYCLE] = true,
};

static const int fab_scalars[] = {
	FATTREE_A_FABRIC_LEVELS, FATTREE_A_FABRIC_PROFILE,
	FATTREE_A_FABRIC_PROFILE_BASE, FATTREE_A_FABRIC_PROFILE_ROOT,
	FATTREE_A_FABRIC_PATH, FATTREE_A_FABRIC_INJECTION,
	FATTREE_A_FABRIC_ARBITRATION, FATTREE_A_FABRIC_BACKLOG,
	FATTREE_A_FABRIC_LEAVES, FATTREE_A_FABRIC_STEPS,
	FATTREE_A_FABRIC_PERIOD_NS, FATTREE_A_FABRIC_SEED,
	FATTREE_A_FABRIC_CYCLE, FATTREE_A_FABRIC_MODE, FATTREE_A_FABRIC_SAF_Q,
	FATTREE_A_FABRIC_SAF_DISCIPLINE, FATTREE_A_FABRIC_SAF_GHOSTS,
};

static const char *const stat_names[FATTREE_A_STATS_MAX + 1] = {
	[FATTREE_A_STATS_QUEUED] = "queued",
	[FATTREE_A_STATS_OFFERED] = "offered",
	[FATTREE_A_STATS_DELIVERED] = "delivered",
	[FATTREE_A_STATS_BLOCKED] = "blocked",
	[FATTREE_A_STATS_SYNTH_QUEUED] = "synth_queued",
	[FATTREE_A_STATS_SYNTH_DELIVERED] = "synth_delivered",
	[FATTREE_A_STATS_DRAINED_CYCLE] = "drained_cycle",
	[FATTREE_A_STATS_CONTROL] = "control",
	[FATTREE_A_STATS_OVERRUNS] = "overruns",
	[FATTREE_A_STATS_CYCLE_NS] = "cycle_ns",
	[FATTREE_A_STATS_RUN_NS] = "run_ns",
	[FATTREE_A_STATS_FAILED_LINKS] = "failed_links",
	[FATTREE_A_STATS_FAILURE_HELD] = "failure_held",
	[FATTREE_A_STATS_CIRCUITS_CUT] = "circuits_cut",
	[FATTREE_A_STATS_CIRCUITS] = "circuits",
};

/* The scalar store-and-forward counters, by name (JSON keys too). */
static const char *const saf_names[FATTREE_A_SAF_MAX + 1] = {
	[FATTREE_A_SAF_POOL] = "pool",
	[FATTREE_A_SAF_STEPS] = "steps",
	[FATTREE_A_SAF_BUSY_STEPS] = "busy_steps",
	[FATTREE_A_SAF_BATCHES] = "batches",
	[FATTREE_A_SAF_DELIVERED] = "delivered",
	[FATTREE_A_SAF_HOPS] = "hops",
	[FATTREE_A_SAF_GHOSTS] = "ghosts_sent",
	[FATTREE_A_SAF_EOS] = "eos",
	[FATTREE_A_SAF_FDELAYS] = "fdelays",
	[FATTREE_A_SAF_EMPTY_WAITS] = "empty_waits",
	[FATTREE_A_SAF_STALLS] = "stalls",
	[FATTREE_A_SAF_RESCUES] = "rescues",
	[FATTREE_A_SAF_POOL_FULL] = "pool_full",
	[FATTREE_A_SAF_LATENCY_SUM] = "latency_sum",
	[FATTREE_A_SAF_LATENCY_MAX] = "latency_max",
	[FATTREE_A_SAF_QMAX] = "qmax",
	[FATTREE_A_SAF_BATCH_PACKETS] = "packets",
	[FATTREE_A_SAF_BATCH_DELIVERED] = "delivered",
	[FATTREE_A_SAF_BATCH_STEPS] = "steps",
	[FATTREE_A_SAF_BATCH_T] = "t",
	[FATTREE_A_SAF_BATCH_CONGESTION] = "congestion",
};

static bool saf_u32(int a)
{
	return a == FATTREE_A_SAF_POOL || a == FATTREE_A_SAF_LATENCY_MAX ||
	       a == FATTREE_A_SAF_QMAX || (a >= FATTREE_A_SAF_BATCH_PACKETS &&
					   a <= FATTREE_A_SAF_BATCH_CONGESTION);
}

static void saf_parse(struct fab_info *f, struct nlattr *nest)
{
	struct nlattr *tb[FATTREE_A_SAF_MAX + 1];
	uint32_t v32;
	unsigned int k;
	int a;

	if (nla_parse_nested(tb, FATTREE_A_SAF_MAX, nest, NULL))
		return;
	f->saf = true;
	for (a = 0; a <= FATTREE_A_SAF_MAX; a++) {
		if (!saf_names[a])
			continue;
		if (saf_u32(a)) {
			f->has_sv[a] = ftctl_nla_u32(tb[a], &v32);
			f->sv[a] = v32;
		} else {
			f->has_sv[a] = ftctl_nla_u64(tb[a], &f->sv[a]);
		}
	}
	f->has_sv[FATTREE_A_SAF_BATCH_DONE] = true;
	f->sv[FATTREE_A_SAF_BATCH_DONE] = !!tb[FATTREE_A_SAF_BATCH_DONE];
	f->nl = ftctl_nla_u32_array(tb[FATTREE_A_SAF_LEVEL_QUEUES], f->lq, SAF_LEVELS);
	if (ftctl_nla_u32_array(tb[FATTREE_A_SAF_LEVEL_OCC_MAX], f->lmax, SAF_LEVELS) != f->nl)
		f->nl = 0;
	if (!tb[FATTREE_A_SAF_LEVEL_OCC_SUM] ||
	    nla_len(tb[FATTREE_A_SAF_LEVEL_OCC_SUM]) != (int)(f->nl * sizeof(uint64_t)))
		f->nl = 0;
	else
		for (k = 0; k < f->nl; k++)
			memcpy(&f->lsum[k], (const char *)nla_data(tb[FATTREE_A_SAF_LEVEL_OCC_SUM]) +
			       k * sizeof(uint64_t), sizeof(uint64_t));
}

static int fab_reply(struct nl_msg *msg, void *arg)
{
	struct nlattr *tb[FATTREE_A_FABRIC_MAX + 1];
	struct nlattr *stb[FATTREE_A_STATS_MAX + 1];
	struct fab_list *l = arg;
	struct fab_info *f;
	unsigned int i;
	int a;

	if (ftnl_parse(msg, tb, FATTREE_A_FABRIC_MAX))
		return -EINVAL;
	if (l->n == l->cap) {
		size_t cap = l->cap ? 2 * l->cap : 8;
		struct fab_info *v = realloc(l->v, cap * sizeof(*v));

		if (!v)
			return -ENOMEM;
		l->v = v;
		l->cap = cap;
	}
	f = &l->v[l->n++];
	memset(f, 0, sizeof(*f));
	ftctl_nla_str(tb[FATTREE_A_FABRIC_NAME], f->name, sizeof(f->name));
	for (i = 0; i < FTCTL_ARRAY_SIZE(fab_scalars); i++) {
		uint32_t v32 = 0;

		a = fab_scalars[i];
		if (fab_attr_u64[a])
			f->has[a] = ftctl_nla_u64(tb[a], &f->v[a]);
		else
			f->has[a] = ftctl_nla_u32(tb[a], &v32);
		if (f->has[a] && !fab_attr_u64[a])
			f->v[a] = v32;
	}
	f->nm = ftctl_nla_u32_array(tb[FATTREE_A_FABRIC_DOWN], f->m, MAXL);
	f->nw = ftctl_nla_u32_array(tb[FATTREE_A_FABRIC_UP], f->w, MAXL);
	f->nlanes = ftctl_nla_u32_array(tb[FATTREE_A_FABRIC_LANES], f->lanes, MAXL);
	if (tb[FATTREE_A_FABRIC_STATS] &&
	    !nla_parse_nested(stb, FATTREE_A_STATS_MAX, tb[FATTREE_A_FABRIC_STATS],
			      NULL))
		for (a = 0; a <= FATTREE_A_STATS_MAX; a++)
			if (stat_names[a])
				f->has_st[a] = ftctl_nla_u64(stb[a], &f->st[a]);
	if (tb[FATTREE_A_FABRIC_SAF])
		saf_parse(f, tb[FATTREE_A_FABRIC_SAF]);
	return 0;
}

/* Derived shape: per level counts, valid for levels 0..h. */
struct shape {
	unsigned int h;
	bool lanes;		/* lanes known for every level */
	uint64_t n;		/* leaves */
	uint64_t mprod[MAXL + 1], wprod[MAXL + 1], nodes[MAXL + 1];
	uint64_t switches, links;
	char name[128];
};

static void fab_shape(const struct fab_info *f, struct shape *s)
{
	char mb[96], wb[96];
	unsigned int i, h;
	bool kary, bin;

	memset(s, 0, sizeof(*s));
	h = f->nm < f->nw ? f->nm : f->nw;
	if (f->has[FATTREE_A_FABRIC_LEVELS] && f->v[FATTREE_A_FABRIC_LEVELS] < h)
		h = (unsigned int)f->v[FATTREE_A_FABRIC_LEVELS];
	for (i = 0; i < h; i++)
		if (!f->m[i] || !f->w[i])
			h = i;	/* a malformed reply: show what makes sense */
	s->h = h;
	s->lanes = f->nlanes >= h;
	s->mprod[0] = s->wprod[0] = 1;
	for (i = 1; i <= h; i++) {
		s->mprod[i] = s->mprod[i - 1] * f->m[i - 1];
		s->wprod[i] = s->wprod[i - 1] * f->w[i - 1];
	}
	s->n = s->mprod[h];
	for (i = 0; i <= h; i++) {
		s->nodes[i] = s->n / s->mprod[i] * s->wprod[i];
		if (i)
			s->switches += s->nodes[i];
		if (i)	/* physical links between i-1 and i */
			s->links += s->nodes[i - 1] * f->w[i - 1];
	}
	kary = h > 0;
	bin = h > 0;
	for (i = 0; i < h; i++) {
		if (f->m[i] != f->m[0] || f->w[i] != (i ? f->m[0] : 1))
			kary = false;
		if (f->m[i] != 2 || f->w[i] != 1)
			bin = false;
	}
	if (kary && f->m[0] > 1 && !bin)
		snprintf(s->name, sizeof(s->name), "FT(%u,%" PRIu32 ")", h, f->m[0]);
	else if (bin)
		snprintf(s->name, sizeof(s->name), "binary fat-tree");
	else
		snprintf(s->name, sizeof(s->name), "XGFT(%u; %s; %s)", h,
			 fmt_list(f->m, h, mb, sizeof(mb)),
			 fmt_list(f->w, h, wb, sizeof(wb)));
}

/* Capacity of a level-i channel (0 <= i < h): W_i * w_(i+1) * lanes_(i+1). */
static uint64_t chan_cap(const struct fab_info *f, const struct shape *s,
			 unsigned int i)
{
	return s->wprod[i] * f->w[i] * f->lanes[i];
}

static uint64_t gcd64(uint64_t a, uint64_t b)
{
	while (b) {
		uint64_t t = a % b;

		a = b;
		b = t;
	}
	return a ? a : 1;
}

static void print_ports(char *buf, size_t len, uint64_t ports,
			const struct fab_info *f, const struct shape *s,
			unsigned int lvl)
{
	if (!ports)
		snprintf(buf, len, "0");
	else if (s->lanes)
		snprintf(buf, len, "%" PRIu64 " x %" PRIu32 " lane%s", ports,
			 f->lanes[lvl - 1], f->lanes[lvl - 1] == 1 ? "" : "s");
	else
		snprintf(buf, len, "%" PRIu64, ports);
}

/* "up 2", "top 3", "down 1", "sink" or "source": level @k of 0..2h. */
static void saf_level_name(char *buf, size_t len, unsigned int k,
			   unsigned int h)
{
	if (!k)
		snprintf(buf, len, "sources");
	else if (k < h)
		snprintf(buf, len, "up %u", k);
	else if (k == h)
		snprintf(buf, len, "top %u", k);
	else if (k < 2 * h)
		snprintf(buf, len, "down %u", 2 * h - k);
	else
		snprintf(buf, len, "sinks");
}

static double saf_mean(const struct fab_info *f, unsigned int k)
{
	uint64_t busy = f->sv[FATTREE_A_SAF_BUSY_STEPS];

	return f->lq[k] && busy ? (double)f->lsum[k] / ((double)f->lq[k] * busy) : 0;
}

static unsigned int lg_ceil(uint64_t x)
{
	unsigned int l = 0;

	while (l < 64 && (UINT64_C(1) << l) < x)
		l++;
	return l;
}

/* T / (c + L + lg N) of the last batch, or a negative number. */
static double saf_ratio(const struct fab_info *f, unsigned int h)
{
	const uint64_t *v = f->sv;
	uint64_t den;

	if (!v[FATTREE_A_SAF_BATCH_DONE] || !v[FATTREE_A_SAF_BATCH_PACKETS])
		return -1;
	den = v[FATTREE_A_SAF_BATCH_CONGESTION] + 2 * h +
	      lg_ceil(v[FATTREE_A_SAF_BATCH_PACKETS]);
	return den ? (double)v[FATTREE_A_SAF_BATCH_T] / den : -1;
}

static void saf_print_text(const struct fab_info *f, unsigned int h)
{
	const uint64_t *v = f->sv;
	char b[32];
	double r = saf_ratio(f, h);
	unsigned int k;

	printf("  saf     batches %" PRIu64 "  steps %" PRIu64 " (busy %" PRIu64 ")  delivered %" PRIu64
	       "  hops %" PRIu64 "  ghosts %" PRIu64 "  eos %" PRIu64 "\n",
	       v[FATTREE_A_SAF_BATCHES], v[FATTREE_A_SAF_STEPS], v[FATTREE_A_SAF_BUSY_STEPS],
	       v[FATTREE_A_SAF_DELIVERED], v[FATTREE_A_SAF_HOPS], v[FATTREE_A_SAF_GHOSTS],
	       v[FATTREE_A_SAF_EOS]);
	printf("          f-delays %" PRIu64 "  empty waits %" PRIu64 "  stalls %" PRIu64
	       "  rescues %" PRIu64 "  pool %" PRIu64 " (full %" PRIu64 " times)\n",
	       v[FATTREE_A_SAF_FDELAYS], v[FATTREE_A_SAF_EMPTY_WAITS], v[FATTREE_A_SAF_STALLS],
	       v[FATTREE_A_SAF_RESCUES], v[FATTREE_A_SAF_POOL], v[FATTREE_A_SAF_POOL_FULL]);
	printf("          steps to deliver: mean %.2f, max %" PRIu64 "  max queue %" PRIu64,
	       v[FATTREE_A_SAF_DELIVERED] ? (double)v[FATTREE_A_SAF_LATENCY_SUM] /
	       v[FATTREE_A_SAF_DELIVERED] : 0.0, v[FATTREE_A_SAF_LATENCY_MAX],
	       v[FATTREE_A_SAF_QMAX]);
	if (f->has[FATTREE_A_FABRIC_SAF_Q])
		printf(" (q %" PRIu64 ")", f->v[FATTREE_A_FABRIC_SAF_Q]);
	printf("\n");
	printf("  batch   %" PRIu64 " packets, %" PRIu64 " delivered, %" PRIu64 " steps run",
	       v[FATTREE_A_SAF_BATCH_PACKETS], v[FATTREE_A_SAF_BATCH_DELIVERED],
	       v[FATTREE_A_SAF_BATCH_STEPS]);
	if (v[FATTREE_A_SAF_BATCH_DONE])
		printf(", done: T %" PRIu64, v[FATTREE_A_SAF_BATCH_T]);
	printf(", congestion c %" PRIu64, v[FATTREE_A_SAF_BATCH_CONGESTION]);
	if (r >= 0)
		printf(", T/(c+L+lg N) %.2f (L %u)", r, 2 * h);
	printf("\n");
	if (!f->nl)
		return;
	printf("  queues  %-8s %9s %4s %7s\n", "level", "queues", "max", "mean");
	for (k = 0; k < f->nl; k++) {
		if (!f->lq[k])
			continue;
		saf_level_name(b, sizeof(b), k, h);
		printf("          %-8s %9" PRIu32 " %4" PRIu32 " %7.3f\n", b, f->lq[k],
		       f->lmax[k], saf_mean(f, k));
	}
}

static void fab_print_text(const struct fab_info *f)
{
	char b1[96], b2[96], b3[64];
	struct shape s;
	unsigned int i;
	int a;

	fab_shape(f, &s);
	printf("fabric %s: %s: %" PRIu64 " leaves, %" PRIu64 " switches, %u level%s, %" PRIu64 " links\n",
	       f->name, s.name, f->has[FATTREE_A_FABRIC_LEAVES] ?
	       f->v[FATTREE_A_FABRIC_LEAVES] : s.n, s.switches, s.h,
	       s.h == 1 ? "" : "s", s.links);
	printf("  shape   m %s  w %s", fmt_list(f->m, s.h, b1, sizeof(b1)),
	       fmt_list(f->w, s.h, b2, sizeof(b2)));
	if (f->nlanes)
		printf("  lanes %s", fmt_list(f->lanes, f->nlanes, b1, sizeof(b1)));
	if (f->has[FATTREE_A_FABRIC_PROFILE])
		printf("  profile %s", ftctl_enum_name(ftn_profile_names, FTN_PROFILE_NR,
							(uint32_t)f->v[FATTREE_A_FABRIC_PROFILE]));
	if (f->has[FATTREE_A_FABRIC_PROFILE_BASE])
		printf(" base %" PRIu64, f->v[FATTREE_A_FABRIC_PROFILE_BASE]);
	if (f->has[FATTREE_A_FABRIC_PROFILE_ROOT])
		printf(" root %" PRIu64, f->v[FATTREE_A_FABRIC_PROFILE_ROOT]);
	printf("\n  policy ");
	if (f->has[FATTREE_A_FABRIC_PATH])
		printf(" path %s", ftctl_enum_name(ftn_path_names, FTN_PATH_NR,
						   (uint32_t)f->v[FATTREE_A_FABRIC_PATH]));
	if (f->has[FATTREE_A_FABRIC_INJECTION])
		printf("  injection %s", ftctl_enum_name(ftn_injection_names,
							 FTN_INJECTION_NR,
							 (uint32_t)f->v[FATTREE_A_FABRIC_INJECTION]));
	if (f->has[FATTREE_A_FABRIC_ARBITRATION])
		printf("  arbitration %s", ftctl_enum_name(ftn_arbitration_names,
							   FTN_ARBITRATION_NR,
							   (uint32_t)f->v[FATTREE_A_FABRIC_ARBITRATION]));
	if (f->saf) {
		printf("\n  mode     store-and-forward");
		if (f->has[FATTREE_A_FABRIC_SAF_Q])
			printf("  q %" PRIu64, f->v[FATTREE_A_FABRIC_SAF_Q]);
		if (f->has[FATTREE_A_FABRIC_SAF_DISCIPLINE])
			printf("  discipline %s",
			       ftctl_enum_name(ftn_saf_discipline_names, FTN_SAF_DISCIPLINE_NR,
					       (uint32_t)f->v[FATTREE_A_FABRIC_SAF_DISCIPLINE]));
		if (f->has[FATTREE_A_FABRIC_SAF_GHOSTS])
			printf("  ghosts %s",
			       ftctl_enum_name(ftctl_onoff_names, ftctl_n_onoff,
					       (uint32_t)f->v[FATTREE_A_FABRIC_SAF_GHOSTS]));
	}
	printf("\n  engine ");
	if (f->has[FATTREE_A_FABRIC_PERIOD_NS])
		printf(" period %s", ftctl_fmt_period(f->v[FATTREE_A_FABRIC_PERIOD_NS],
						      b3, sizeof(b3)));
	if (f->has[FATTREE_A_FABRIC_CYCLE])
		printf("  cycle %" PRIu64, f->v[FATTREE_A_FABRIC_CYCLE]);
	if (f->has[FATTREE_A_FABRIC_BACKLOG])
		printf("  backlog %" PRIu64, f->v[FATTREE_A_FABRIC_BACKLOG]);
	if (f->has[FATTREE_A_FABRIC_SEED])
		printf("  seed %" PRIu64, f->v[FATTREE_A_FABRIC_SEED]);
	printf("\n");

	/* The tree from the top; channels above each level's subtrees. */
	for (i = s.h + 1; i-- > 0;) {
		char line[256];
		int n;

		print_ports(b1, sizeof(b1), i < s.h ? f->w[i] : 0, f, &s, i + 1);
		if (i)
			print_ports(b2, sizeof(b2), f->m[i - 1], f, &s, i);
		else
			snprintf(b2, sizeof(b2), "-");
		n = snprintf(line, sizeof(line), "  level %-2u %7" PRIu64 " %-8s  up %-14s down %-14s",
			     i, s.nodes[i], !i ? "leaves" : s.nodes[i] == 1 ?
			     "switch" : "switches", b1, b2);
		if (i < s.h && s.lanes && n > 0 && (size_t)n < sizeof(line)) {
			uint64_t cap = chan_cap(f, &s, i), below = s.mprod[i];
			uint64_t g = gcd64(cap, below);

			n += snprintf(line + n, sizeof(line) - (size_t)n,
				      " %" PRIu64 " channel%s of %" PRIu64 " lea%s, capacity %" PRIu64,
				      s.n / below, s.n / below == 1 ? "" : "s", below,
				      below == 1 ? "f" : "ves", cap);
			if (cap < below && n > 0 && (size_t)n < sizeof(line))
				snprintf(line + n, sizeof(line) - (size_t)n,
					 " (oversubscribed %" PRIu64 ":%" PRIu64 ")",
					 below / g, cap / g);
		}
		/* no trailing blanks */
		n = (int)strlen(line);
		while (n > 0 && line[n - 1] == ' ')
			line[--n] = '\0';
		printf("%s\n", line);
	}

	a = 0;
	for (i = 0; i <= FATTREE_A_STATS_MAX; i++) {
		if (!f->has_st[i])
			continue;
		if (a % 6 == 0)
			printf(a ? "\n         " : "  stats  ");
		printf(" %s %" PRIu64, stat_names[i], f->st[i]);
		a++;
	}
	if (a)
		printf("\n");
	if (f->saf)
		saf_print_text(f, s.h);
}

static void jadd_u64(struct json_object *o, const char *k, uint64_t v)
{
	json_object_object_add(o, k, json_object_new_uint64(v));
}

static struct json_object *jarray_u32(const uint32_t *v, unsigned int n)
{
	struct json_object *a = json_object_new_array();
	unsigned int i;

	for (i = 0; i < n; i++)
		json_object_array_add(a, json_object_new_uint64(v[i]));
	return a;
}

static struct json_object *saf_json(const struct fab_info *f, unsigned int h)
{
	struct json_object *o = json_object_new_object(), *b, *lv, *arr;
	char name[32];
	unsigned int k;
	double r;
	int a;

	if (f->has[FATTREE_A_FABRIC_SAF_Q])
		jadd_u64(o, "q", f->v[FATTREE_A_FABRIC_SAF_Q]);
	if (f->has[FATTREE_A_FABRIC_SAF_DISCIPLINE])
		json_object_object_add(o, "discipline",
				       json_object_new_string(ftctl_enum_name(ftn_saf_discipline_names,
									      FTN_SAF_DISCIPLINE_NR,
									      (uint32_t)f->v[FATTREE_A_FABRIC_SAF_DISCIPLINE])));
	if (f->has[FATTREE_A_FABRIC_SAF_GHOSTS])
		json_object_object_add(o, "ghosts",
				       json_object_new_boolean(f->v[FATTREE_A_FABRIC_SAF_GHOSTS] != 0));
	for (a = 0; a < FATTREE_A_SAF_BATCH_PACKETS; a++)
		if (saf_names[a] && f->has_sv[a])
			jadd_u64(o, saf_names[a], f->sv[a]);
	json_object_object_add(o, "latency_mean",
			       json_object_new_double(f->sv[FATTREE_A_SAF_DELIVERED] ?
						      (double)f->sv[FATTREE_A_SAF_LATENCY_SUM] /
						      f->sv[FATTREE_A_SAF_DELIVERED] : 0.0));
	b = json_object_new_object();
	for (a = FATTREE_A_SAF_BATCH_PACKETS; a <= FATTREE_A_SAF_BATCH_CONGESTION; a++)
		if (f->has_sv[a])
			jadd_u64(b, saf_names[a], f->sv[a]);
	json_object_object_add(b, "done",
			       json_object_new_boolean(f->sv[FATTREE_A_SAF_BATCH_DONE] != 0));
	jadd_u64(b, "depth", 2 * h);
	r = saf_ratio(f, h);
	json_object_object_add(b, "t_over_c_l_lgn", r >= 0 ? json_object_new_double(r) : NULL);
	json_object_object_add(o, "batch", b);
	arr = json_object_new_array();
	for (k = 0; k < f->nl; k++) {
		lv = json_object_new_object();
		jadd_u64(lv, "level", k);
		saf_level_name(name, sizeof(name), k, h);
		json_object_object_add(lv, "name", json_object_new_string(name));
		jadd_u64(lv, "queues", f->lq[k]);
		jadd_u64(lv, "occupancy_max", f->lmax[k]);
		json_object_object_add(lv, "occupancy_mean",
				       json_object_new_double(saf_mean(f, k)));
		json_object_array_add(arr, lv);
	}
	json_object_object_add(o, "levels", arr);
	return o;
}

static struct json_object *fab_json(const struct fab_info *f)
{
	struct json_object *o = json_object_new_object(), *tree, *lv, *st;
	static const struct {
		int attr;
		const char *key;
		const char *const *names;
		unsigned int n;
	} scalars[] = {
		{ FATTREE_A_FABRIC_PROFILE, "profile", ftn_profile_names, FTN_PROFILE_NR },
		{ FATTREE_A_FABRIC_PROFILE_BASE, "profile_base", NULL, 0 },
		{ FATTREE_A_FABRIC_PROFILE_ROOT, "profile_root", NULL, 0 },
		{ FATTREE_A_FABRIC_PATH, "path", ftn_path_names, FTN_PATH_NR },
		{ FATTREE_A_FABRIC_INJECTION, "injection", ftn_injection_names,
		  FTN_INJECTION_NR },
		{ FATTREE_A_FABRIC_ARBITRATION, "arbitration", ftn_arbitration_names,
		  FTN_ARBITRATION_NR },
		{ FATTREE_A_FABRIC_PERIOD_NS, "period_ns", NULL, 0 },
		{ FATTREE_A_FABRIC_BACKLOG, "backlog", NULL, 0 },
		{ FATTREE_A_FABRIC_SEED, "seed", NULL, 0 },
		{ FATTREE_A_FABRIC_CYCLE, "cycle", NULL, 0 },
	};
	struct shape s;
	unsigned int i;

	fab_shape(f, &s);
	json_object_object_add(o, "name", json_object_new_string(f->name));
	json_object_object_add(o, "shape", json_object_new_string(s.name));
	jadd_u64(o, "levels", s.h);
	jadd_u64(o, "leaves", f->has[FATTREE_A_FABRIC_LEAVES] ?
		 f->v[FATTREE_A_FABRIC_LEAVES] : s.n);
	jadd_u64(o, "switches", s.switches);
	jadd_u64(o, "links", s.links);
	json_object_object_add(o, "down", jarray_u32(f->m, f->nm));
	json_object_object_add(o, "up", jarray_u32(f->w, f->nw));
	json_object_object_add(o, "lanes", jarray_u32(f->lanes, f->nlanes));
	for (i = 0; i < FTCTL_ARRAY_SIZE(scalars); i++) {
		uint64_t v = f->v[scalars[i].attr];

		if (!f->has[scalars[i].attr])
			continue;
		if (scalars[i].names)
			json_object_object_add(o, scalars[i].key,
					       json_object_new_string(ftctl_enum_name(scalars[i].names,
										      scalars[i].n,
										      (uint32_t)v)));
		else
			jadd_u64(o, scalars[i].key, v);
	}
	tree = json_object_new_array();
	for (i = s.h + 1; i-- > 0;) {
		lv = json_object_new_object();
		jadd_u64(lv, "level", i);
		jadd_u64(lv, "nodes", s.nodes[i]);
		jadd_u64(lv, "up_ports", i < s.h ? f->w[i] : 0);
		if (i < s.h && s.lanes)
			jadd_u64(lv, "up_lanes", f->lanes[i]);
		jadd_u64(lv, "down_ports", i ? f->m[i - 1] : 0);
		if (i && s.lanes)
			jadd_u64(lv, "down_lanes", f->lanes[i - 1]);
		if (i < s.h) {
			jadd_u64(lv, "channels", s.n / s.mprod[i]);
			jadd_u64(lv, "leaves_below", s.mprod[i]);
			if (s.lanes)
				jadd_u64(lv, "channel_capacity", chan_cap(f, &s, i));
		}
		json_object_array_add(tree, lv);
	}
	json_object_object_add(o, "tree", tree);
	st = json_object_new_object();
	for (i = 0; i <= FATTREE_A_STATS_MAX; i++)
		if (f->has_st[i])
			jadd_u64(st, stat_names[i], f->st[i]);
	json_object_object_add(o, "stats", st);
	if (f->has[FATTREE_A_FABRIC_MODE])
		json_object_object_add(o, "mode",
				       json_object_new_string(ftctl_enum_name(ftn_mode_names,
									      FTN_MODE_NR,
									      (uint32_t)f->v[FATTREE_A_FABRIC_MODE])));
	if (f->saf)
		json_object_object_add(o, "saf", saf_json(f, s.h));
	return o;
}

/* FABRIC_GET of @name, or a dump when it is NULL. */
static int fab_get(struct ftctl *ctl, const char *name, const char *what,
		   struct fab_list *l)
{
	struct ftctl_req r;

	if (!ftctl_req_init(ctl, &r, FATTREE_CMD_FABRIC_GET, name ? 0 : NLM_F_DUMP, 0))
		return ftctl_fail(ctl, what, -ENOMEM);
	if (name && FTCTL_PUT_STR(&r, FATTREE_A_FABRIC_NAME, name,
				  "fabric name %s", name)) {
		ftctl_req_free(&r);
		return ftctl_fail(ctl, what, -EMSGSIZE);
	}
	return ftctl_req_run(ctl, &r, what, fab_reply, l);
}

int ftctl_fabric_lookup(struct ftctl *ctl, const char *name, const char *what,
			uint32_t *levels, uint32_t *leaves, uint64_t *cycle)
{
	struct fab_list l = { 0 };
	const struct fab_info *f;
	int rc;

	rc = fab_get(ctl, name, what, &l);
	if (!rc && (l.n != 1 || !l.v[0].has[FATTREE_A_FABRIC_LEVELS] ||
		    !l.v[0].has[FATTREE_A_FABRIC_LEAVES] ||
		    !l.v[0].has[FATTREE_A_FABRIC_CYCLE]))
		rc = ftctl_fail(ctl, what, -EPROTO);
	if (!rc) {
		f = &l.v[0];
		if (levels)
			*levels = (uint32_t)f->v[FATTREE_A_FABRIC_LEVELS];
		if (leaves)
			*leaves = (uint32_t)f->v[FATTREE_A_FABRIC_LEAVES];
		if (cycle)
			*cycle = f->v[FATTREE_A_FABRIC_CYCLE];
	}
	free(l.v);
	return rc;
}

static int show_parse(struct ftctl *ctl, int argc, char **argv)
{
	(void)ctl;
	if (argc > 2)
		return ftctl_usage_err("fabric show", "unexpected argument '%s'", argv[2]);
	if (argc == 2)
		return parse_name_arg("fabric show", argc, argv, 1);
	return 0;
}

static int show_run(struct ftctl *ctl)
{
	struct fab_list l = { 0 };
	struct json_object *arr;
	char what[64];
	size_t i;
	int rc;

	snprintf(what, sizeof(what), fr.has_name ? "fabric show %s" : "fabric show%s",
		 fr.name);
	rc = fab_get(ctl, fr.has_name ? fr.name : NULL, what, &l);
	if (rc) {
		free(l.v);
		return rc;
	}
	if (ctl->json) {
		arr = json_object_new_array();
		for (i = 0; i < l.n; i++)
			json_object_array_add(arr, fab_json(&l.v[i]));
		ftctl_json_print(arr);
		json_object_put(arr);
	} else {
		for (i = 0; i < l.n; i++) {
			if (i)
				printf("\n");
			fab_print_text(&l.v[i]);
		}
	}
	free(l.v);
	return FTCTL_EXIT_OK;
}

static void show_help(FILE *f)
{
	fprintf(f,
		"Without NAME, every fabric of this network namespace. For each: its shape\n"
		"(FT(L,K), binary fat-tree or XGFT), policies, cycle period and count,\n"
		"one line per level from the top (nodes, up and down ports with their\n"
		"lanes, and the capacity of the channel above each subtree of that level:\n"
		"W_i * w_(i+1) * lanes_(i+1)), and the fabric's counters.\n"
		"With --json: an array of objects.\n");
}

/* --- step --- */

static int step_parse(struct ftctl *ctl, int argc, char **argv)
{
	const char *cmd = "fabric step";
	int err;

	(void)ctl;
	fr.steps = 1;
	err = parse_name_arg(cmd, argc, argv, 1);
	if (!err && argc > 2)
		err = ftctl_parse_u32(cmd, "cycle COUNT", argv[2], 1, UINT32_MAX,
				      &fr.steps);
	if (!err && argc > 3)
		return ftctl_usage_err(cmd, "unexpected argument '%s'", argv[3]);
	return err;
}

static bool step_fill(struct ftctl_req *r)
{
	return !FTCTL_PUT_U32(r, FATTREE_A_FABRIC_STEPS, fr.steps, "COUNT %" PRIu32,
			      fr.steps);
}

static int step_run(struct ftctl *ctl)
{
	struct json_object *o;
	uint64_t cycle = 0;
	char what[64];
	int rc;

	snprintf(what, sizeof(what), "fabric step %s", fr.name);
	rc = simple_request(ctl, FATTREE_CMD_FABRIC_STEP, what, step_fill);
	if (!rc)
		rc = ftctl_fabric_lookup(ctl, fr.name, what, NULL, NULL, &cycle);
	if (rc)
		return rc;
	if (ctl->json) {
		o = json_object_new_object();
		json_object_object_add(o, "name", json_object_new_string(fr.name));
		jadd_u64(o, "steps", fr.steps);
		jadd_u64(o, "cycle", cycle);
		ftctl_json_print(o);
		json_object_put(o);
	} else {
		printf("%s: cycle %" PRIu64 "\n", fr.name, cycle);
	}
	return FTCTL_EXIT_OK;
}

/* --- inject --- */

static int add_row(const char *cmd, uint32_t src, uint32_t dst, uint32_t count,
		   uint32_t line)
{
	static size_t cap;

	if (fr.n_rows == cap) {
		size_t ncap = cap ? 2 * cap : 1024;
		struct fattree_inject_row *rows;
		uint32_t *lines;

		rows = realloc(fr.rows, ncap * sizeof(*rows));
		if (rows)
			fr.rows = rows;
		lines = rows ? realloc(fr.lines, ncap * sizeof(*lines)) : NULL;
		if (!lines) {
			fprintf(stderr, "ftctl %s: out of memory after %zu rows\n",
				cmd, fr.n_rows);
			return FTCTL_EXIT_FAIL;
		}
		fr.lines = lines;
		cap = ncap;
	}
	fr.rows[fr.n_rows].src = src;
	fr.rows[fr.n_rows].dst = dst;
	fr.rows[fr.n_rows].count = count;
	fr.lines[fr.n_rows] = line;
	fr.n_rows++;
	return 0;
}

static int read_rows(const char *cmd, const char *path)
{
	static const char *const what[3] = {
		"source leaf", "destination leaf", "message count",
	};
	FILE *f = strcmp(path, "-") ? fopen(path, "r") : stdin;
	const char *name = f == stdin ? "<stdin>" : path;
	char where[512], *line = NULL, *p, *save, *tok[3];
	uint32_t lineno = 0, v[3];
	size_t cap = 0;
	unsigned int k;
	int err = 0;
	uint64_t x = 0;

	if (!f)
		return ftctl_usage_err(cmd, "cannot read inject file '%s': %s", path,
				       strerror(errno));
	while (!err && getline(&line, &cap, f) >= 0) {
		lineno++;
		p = strchr(line, '#');
		if (p)
			*p = '\0';
		snprintf(where, sizeof(where), "%s:%" PRIu32 ": ", name, lineno);
		k = 0;
		for (p = strtok_r(line, " \t\r\n", &save); p;
		     p = strtok_r(NULL, " \t\r\n", &save)) {
			if (k == 3) {
				err = ftctl_usage_err(cmd, "%sextra word '%s' (a row is 'src dst count')",
						      where, p);
				break;
			}
			tok[k++] = p;
		}
		if (err || !k)
			continue;
		if (k < 3) {
			err = ftctl_usage_err(cmd, "%smissing the %s after '%s' (a row is 'src dst count')",
					      where, what[k], tok[k - 1]);
			break;
		}
		for (k = 0; k < 3 && !err; k++) {
			err = ftctl_parse_u64_at(cmd, where, what[k], tok[k],
						 k == 2 ? 1 : 0, UINT32_MAX, &x);
			v[k] = (uint32_t)x;
		}
		if (!err)
			err = add_row(cmd, v[0], v[1], v[2], lineno);
	}
	if (!err && ferror(f))
		err = ftctl_usage_err(cmd, "cannot read inject file '%s': %s", path,
				      strerror(errno));
	if (!err && !fr.n_rows)
		err = ftctl_usage_err(cmd, "inject file '%s' has no rows", name);
	free(line);
	if (f != stdin)
		fclose(f);
	return err;
}

static int inject_parse(struct ftctl *ctl, int argc, char **argv)
{
	const char *cmd = "fabric inject";
	uint32_t v[3];
	int err;

	(void)ctl;
	err = parse_name_arg(cmd, argc, argv, 1);
	if (err)
		return err;
	if (argc > 2 && !strcmp(argv[2], "file")) {
		if (argc < 4)
			return ftctl_usage_err(cmd, "'file' needs a FILE (rows 'src dst count'; - for stdin)");
		if (argc > 4)
			return ftctl_usage_err(cmd, "unexpected argument '%s'", argv[4]);
		fr.file = argv[3];
		return read_rows(cmd, argv[3]);
	}
	if (argc < 5)
		return ftctl_usage_err(cmd, "expected SRC DST COUNT or 'file FILE' after the name");
	if (argc > 5)
		return ftctl_usage_err(cmd, "unexpected argument '%s'", argv[5]);
	err = ftctl_parse_u32(cmd, "source leaf SRC", argv[2], 0, UINT32_MAX, &v[0]);
	if (!err)
		err = ftctl_parse_u32(cmd, "destination leaf DST", argv[3], 0,
				      UINT32_MAX, &v[1]);
	if (!err)
		err = ftctl_parse_u32(cmd, "message COUNT", argv[4], 1, UINT32_MAX,
				      &v[2]);
	if (!err)
		err = add_row(cmd, v[0], v[1], v[2], 0);
	return err;
}

static int inject_run(struct ftctl *ctl)
{
	size_t max = ftctl_max_request(ctl, INJECT_MSG_MAX);
	bool progress = isatty(STDERR_FILENO), shown = false;
	size_t done = 0, first, k, room;
	unsigned int msgs = 0, attrs;
	uint32_t leaves = 0;
	struct ftctl_req r;
	char what[64];
	int rc;

	snprintf(what, sizeof(what), "fabric inject %s", fr.name);
	/*
	 * The kernel refuses a request with a row that names no leaf, and
	 * can only point at the attribute holding it: find the row here.
	 */
	rc = ftctl_fabric_lookup(ctl, fr.name, what, NULL, &leaves, NULL);
	if (rc)
		return rc;
	for (k = 0; k < fr.n_rows; k++) {
		const struct fattree_inject_row *row = &fr.rows[k];

		if (row->src < leaves && row->dst < leaves)
			continue;
		if (fr.file)
			fprintf(stderr, "ftctl %s: %s:%" PRIu32 ": ", what, fr.file,
				fr.lines[k]);
		else
			fprintf(stderr, "ftctl %s: ", what);
		fprintf(stderr, "%s leaf %" PRIu32 " is not a leaf of %s (leaves 0-%" PRIu32 ")\n",
			row->src >= leaves ? "source" : "destination",
			row->src >= leaves ? row->src : row->dst, fr.name,
			leaves - 1);
		return FTCTL_EXIT_FAIL;
	}
	while (done < fr.n_rows) {
		if (!ftctl_req_init(ctl, &r, FATTREE_CMD_FABRIC_INJECT, 0, max))
			return ftctl_fail(ctl, what, -ENOMEM);
		if (!put_name(&r)) {
			ftctl_req_free(&r);
			return ftctl_fail(ctl, what, -EMSGSIZE);
		}
		first = done;
		for (attrs = 0; attrs < INJECT_ATTRS && done < fr.n_rows; attrs++) {
			room = ftctl_req_room(&r);
			if (room < NLA_HDRLEN + ROW_SIZE)
				break;
			k = (room - NLA_HDRLEN) / ROW_SIZE;
			if (k > ROWS_PER_ATTR)
				k = ROWS_PER_ATTR;
			if (k > fr.n_rows - done)
				k = fr.n_rows - done;
			if (fr.file ?
			    FTCTL_PUT(&r, FATTREE_A_FABRIC_INJECT, &fr.rows[done],
				      k * ROW_SIZE, "rows %zu-%zu (lines %" PRIu32 "-%" PRIu32 " of %s)",
				      done + 1, done + k, fr.lines[done],
				      fr.lines[done + k - 1], fr.file) :
			    FTCTL_PUT(&r, FATTREE_A_FABRIC_INJECT, &fr.rows[done],
				      k * ROW_SIZE, "SRC DST COUNT %" PRIu32 " %" PRIu32 " %" PRIu32,
				      fr.rows[0].src, fr.rows[0].dst, fr.rows[0].count))
				break;
			done += k;
		}
		if (done == first) {
			ftctl_req_free(&r);
			return ftctl_fail(ctl, what, -EMSGSIZE);
		}
		if (shown)	/* clear the progress line: errors go there */
			fprintf(stderr, "\r\033[K");
		shown = false;
		rc = ftctl_req_run(ctl, &r, what, NULL, NULL);
		if (rc) {
			if (first)
				fprintf(stderr, "ftctl %s: rows 1-%zu were queued before that request; rows %zu-%zu were not\n",
					what, first, first + 1, fr.n_rows);
			return rc;
		}
		msgs++;
		if (progress && (msgs > 1 || done < fr.n_rows)) {
			fprintf(stderr, "\rftctl %s: %zu/%zu rows queued", what, done,
				fr.n_rows);
			shown = true;
		}
	}
	if (shown)
		fprintf(stderr, "\n");
	return FTCTL_EXIT_OK;
}

static void inject_help(FILE *f)
{
	fprintf(f,
		"Queue synthetic messages (no payload, delivered to counters): COUNT\n"
		"messages from leaf SRC to leaf DST, or one row per line of FILE ('-' for\n"
		"standard input):\n"
		"    # comment\n"
		"    0 5 10       # src dst count\n"
		"A bad row is reported with its line number and nothing is sent. Rows go\n"
		"to the kernel in %zu-row attributes, %d attributes per request.\n",
		(size_t)ROWS_PER_ATTR, INJECT_ATTRS);
}

static const struct ftctl_subcmd fabric_subs[] = {
	{ "add", "NAME TOPOLOGY [OPTIONS]", "create a fabric", add_help,
	  add_parse, add_run },
	{ "del", "NAME", "delete a fabric", NULL, del_parse, del_run },
	{ "set", "NAME [path P] [injection I] [arbitration A] [period T] [seed S] [backlog N] [discipline D] [ghosts on|off]",
	  "change a fabric's policies", set_help, set_parse, set_run },
	{ "show", "[NAME]", "show one fabric or all", show_help, show_parse,
	  show_run },
	{ "step", "NAME [COUNT]", "run COUNT delivery cycles (default 1), print the cycle",
	  NULL, step_parse, step_run },
	{ "inject", "NAME SRC DST COUNT | NAME file FILE",
	  "queue synthetic messages", inject_help, inject_parse, inject_run },
	{ "clear", "NAME", "zero a fabric's counters and its links'", clear_help,
	  clear_parse, clear_run },
};

static const struct ftctl_object fabric_obj = {
	.name = "fabric",
	.help = "Create, change, run and inspect fabrics.",
	.dflt = "show",
	.subs = fabric_subs,
	.n_subs = FTCTL_ARRAY_SIZE(fabric_subs),
};

static int fabric_parse(struct ftctl *ctl, int argc, char **argv)
{
	return ftctl_object_parse(&fabric_obj, ctl, argc, argv);
}

const struct ftctl_cmd ftctl_cmd_fabric = {
	.name = "fabric",
	.args = "COMMAND ...",
	.help = "fabrics",
	.parse = fabric_parse,
	.run = ftctl_object_run,
	.obj = &fabric_obj,
};
