// SPDX-License-Identifier: GPL-2.0
/*
 * ftctl fabric: create, delete, change, step, feed and show fabrics (what
 * show reads and prints is fabric_show.c's).
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

/* A subcommand that takes the NAME alone and sends one request about it. */
struct name_cmd {
	const char *what;
	uint8_t cmd;
};

static struct fab_req {
	char name[FATTREE_NAME_LEN];
	bool has_name;
	char what[64];			/* "fabric add NAME": names the errors */
	char topo[160];			/* the topology as typed */
	uint32_t h, m[MAXL], w[MAXL];
	struct fab_opts o;
	uint32_t steps;
	struct fattree_inject_row *rows;
	uint32_t *lines;		/* file line of each row, or NULL */
	size_t n_rows;
	const char *file;
	const struct name_cmd *nc;	/* del, clear */
} fr;

static int parse_name_arg(const char *cmd, int argc, char **argv, int i)
{
	if (i >= argc)
		return ftctl_usage_err(cmd, "missing the fabric NAME");
	fr.has_name = true;
	snprintf(fr.what, sizeof(fr.what), "%s %s", cmd, argv[i]);
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
	/* a store-and-forward fabric takes no circuits (circuit add says so) */
	if (GIVEN(o, OPT_PATH) && (o->path == FATTREE_PATH_CIRCUIT ||
				   o->path == FATTREE_PATH_SCHEDULED ||
				   o->path == FATTREE_PATH_SCHEDULED_RANDOM))
		return ftctl_usage_err(cmd, "'path %s' does not go with 'mode saf', which has no circuits (dmodk, random or firstfree)",
				       o->word[OPT_PATH]);
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
		k = ftctl_find(argv[i], opt_names, OPT_N);
		if (k < 0 || !(allowed & (1u << k))) {
			list_opts(choices, sizeof(choices), allowed);
			if (k >= 0)
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

/* The options sent as one number each, in the order they are put. */
#define SCALAR(k, attr, field) \
	{ k, attr, #attr, offsetof(struct fab_opts, field), \
	  sizeof(((struct fab_opts *)0)->field) }
static const struct scalar_opt {
	enum fab_opt k;
	int attr;
	const char *aname;
	size_t off, size;
} scalar_opts[] = {
	SCALAR(OPT_BASE, FATTREE_A_FABRIC_PROFILE_BASE, base),
	SCALAR(OPT_ROOT, FATTREE_A_FABRIC_PROFILE_ROOT, root),
	SCALAR(OPT_PATH, FATTREE_A_FABRIC_PATH, path),
	SCALAR(OPT_INJECTION, FATTREE_A_FABRIC_INJECTION, injection),
	SCALAR(OPT_ARBITRATION, FATTREE_A_FABRIC_ARBITRATION, arbitration),
	SCALAR(OPT_PERIOD, FATTREE_A_FABRIC_PERIOD_NS, period_ns),
	SCALAR(OPT_BACKLOG, FATTREE_A_FABRIC_BACKLOG, backlog),
	SCALAR(OPT_SEED, FATTREE_A_FABRIC_SEED, seed),
	SCALAR(OPT_MODE, FATTREE_A_FABRIC_MODE, mode),
	SCALAR(OPT_Q, FATTREE_A_FABRIC_SAF_Q, q),
	SCALAR(OPT_DISCIPLINE, FATTREE_A_FABRIC_SAF_DISCIPLINE, discipline),
	SCALAR(OPT_GHOSTS, FATTREE_A_FABRIC_SAF_GHOSTS, ghosts),
};
#undef SCALAR

/* Put the given options; false when the request is full. */
static bool put_opts(struct ftctl_req *r, const struct fab_opts *o)
{
	const char *const *w = o->word;
	const struct scalar_opt *so;
	char buf[96];

	/* An explicit profile is sent as its lanes alone. */
	if (GIVEN(o, OPT_PROFILE) && o->profile != FATTREE_PROFILE_EXPLICIT &&
	    FTCTL_PUT_U32(r, FATTREE_A_FABRIC_PROFILE, o->profile, "profile %s",
			  w[OPT_PROFILE]))
		return false;
	if (GIVEN(o, OPT_LANES) &&
	    FTCTL_PUT(r, FATTREE_A_FABRIC_LANES, o->lanes,
		      o->n_lanes * sizeof(uint32_t), "lanes %s",
		      ftctl_fmt_u32_list(o->lanes, o->n_lanes, buf, sizeof(buf))))
		return false;
	for (so = scalar_opts; so < scalar_opts + sizeof(scalar_opts) / sizeof(*so); so++) {
		if (GIVEN(o, so->k) &&
		    ftctl_put(r, so->attr, so->aname, (const char *)o + so->off, so->size,
			      "%s %s", opt_names[so->k], w[so->k]))
			return false;
	}
	return true;
}

static bool put_name(struct ftctl_req *r)
{
	return !FTCTL_PUT_STR(r, FATTREE_A_FABRIC_NAME, fr.name, "fabric name %s",
			      fr.name);
}

/* Send a request with NAME and whatever @fill puts. */
static int simple_request(struct ftctl *ctl, uint8_t cmd,
			  bool (*fill)(struct ftctl_req *r))
{
	struct ftctl_req r;

	if (!ftctl_req_init(ctl, &r, cmd, 0, 0))
		return ftctl_fail(ctl, fr.what, -ENOMEM);
	if (!put_name(&r) || (fill && !fill(&r))) {
		ftctl_req_free(&r);
		return ftctl_fail(ctl, fr.what, -EMSGSIZE);
	}
	return ftctl_req_run(ctl, &r, fr.what, NULL, NULL);
}

/* --- add --- */

static int add_parse(struct ftctl *ctl, int argc, char **argv)
{
	const char *cmd = "fabric add";
	int i = 2, err;

	(void)ctl;
	err = parse_name_arg(cmd, argc, argv, 1);
	/* Every tool would read such a name as an option (the kernel refuses it). */
	if (!err && fr.name[0] == '-')
		err = ftctl_usage_err(cmd, "bad fabric name '%s': it cannot start with '-', which every tool would read as an option",
				      fr.name);
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
			  "%s: m = %s", fr.topo, ftctl_fmt_u32_list(fr.m, fr.h, buf, sizeof(buf))) &&
	       !FTCTL_PUT(r, FATTREE_A_FABRIC_UP, fr.w, fr.h * sizeof(uint32_t),
			  "%s: w = %s", fr.topo, ftctl_fmt_u32_list(fr.w, fr.h, buf, sizeof(buf))) &&
	       put_opts(r, &fr.o);
}

static int add_run(struct ftctl *ctl)
{
	return simple_request(ctl, FATTREE_CMD_FABRIC_NEW, add_fill);
}

static void add_help(FILE *f)
{
	fprintf(f,
		"NAME is at most %d bytes and does not start with '-'. TOPOLOGY is one\n"
		"of these, its words apart or joined by colons in one word, as every\n"
		"fattree tool writes a shape (kary 3 4 is kary:3:4, the same request):\n"
		"  kary L K    the k-ary n-tree FT(L,K) of Ding et al. (2006): h = L\n"
		"              levels, K children per switch and K parents per node (one\n"
		"              above the leaves): m = (K,...,K), w = (1,K,...,K); K^L\n"
		"              leaves; or kary:L:K\n"
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
		"  path circuit|dmodk|random|firstfree|scheduled|scheduled-random\n"
		"                       how messages choose their up-ports; scheduled:\n"
		"                       a pair's circuit while it holds one, else its\n"
		"                       dmodk path (scheduled-random: its random one) on\n"
		"                       the lanes no circuit holds\n"
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
		"                       forward (Leighton, Maggs, Ranade and Rao, 1994),\n"
		"                       one hop per cycle through edge queues of q\n"
		"                       packets, with:\n"
		"    q N                packets each edge queue holds, 1 to %d (required)\n"
		"    discipline rank|fifo|farthest\n"
		"                       forwarding order: random ranks with ghosts and\n"
		"                       end-of-stream tokens (default), oldest first, or\n"
		"                       farthest to go first\n"
		"    ghosts on|off      rank: send ghosts (default on; off may stall a\n"
		"                       batch, which then finishes with ghosts)\n"
		"                       (no circuit or scheduled path, injection or\n"
		"                       arbitration)\n"
		"Omitted options take the kernel's defaults.\n"
		"Examples:\n"
		"  ftctl fabric add ft0 kary 3 4\n"
		"  ftctl fabric add ft1 kary:3:4 period 1ms\n"
		"  ftctl fabric add bt binary 64 profile area base 1 period manual\n"
		"  ftctl fabric add sl xgft 2 8,4 1,2 lanes 1,2 path random seed 7\n"
		"  ftctl fabric add sf kary 2 4 period manual mode saf q 2\n",
		FATTREE_NAME_LEN - 1, FATTREE_SAF_MAX_Q);
}

/* --- del, clear --- */

static const struct name_cmd name_cmds[] = {
	{ "fabric del", FATTREE_CMD_FABRIC_DEL },
	{ "fabric clear", FATTREE_CMD_STATS_RESET },
};

/* del or clear, told apart by the subcommand's first letter. */
static int name_parse(struct ftctl *ctl, int argc, char **argv)
{
	int err;

	(void)ctl;
	fr.nc = &name_cmds[argv[0][0] == 'c'];
	err = parse_name_arg(fr.nc->what, argc, argv, 1);
	if (!err && argc > 2)
		return ftctl_usage_err(fr.nc->what, "unexpected argument '%s'", argv[2]);
	return err;
}

static int name_run(struct ftctl *ctl)
{
	return simple_request(ctl, fr.nc->cmd, NULL);
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
	return simple_request(ctl, FATTREE_CMD_FABRIC_SET, set_fill);
}

static void set_help(FILE *f)
{
	fprintf(f,
		"Change a fabric's policies while it exists; the shape and lanes are fixed.\n"
		"  path circuit|dmodk|random|firstfree|scheduled|scheduled-random\n"
		"  injection all|random|random-prime\n"
		"  arbitration random|fixed\n"
		"  period T      1ms, 500us, 250000ns, 1s; manual or 0: stepped cycles\n"
		"  seed S        restart the fabric's random choices from S\n"
		"  backlog N     packets a leaf may hold\n"
		"  discipline rank|fifo|farthest\n"
		"  ghosts on|off store-and-forward fabrics, while they hold no message\n"
		"The mode and q are fixed at creation; a store-and-forward fabric takes no\n"
		"circuit or scheduled path, injection or arbitration.\n");
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
	if (!fr.has_name)
		return ftctl_fabric_show(ctl, NULL, "fabric show");
	return ftctl_fabric_show(ctl, fr.name, fr.what);
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
	int rc;

	rc = simple_request(ctl, FATTREE_CMD_FABRIC_STEP, step_fill);
	if (!rc)
		rc = ftctl_fabric_lookup(ctl, fr.name, fr.what, NULL, NULL, &cycle);
	if (rc)
		return rc;
	if (ctl->json) {
		o = json_object_new_object();
		json_object_object_add(o, "name", json_object_new_string(fr.name));
		json_object_object_add(o, "steps", json_object_new_uint64(fr.steps));
		json_object_object_add(o, "cycle", json_object_new_uint64(cycle));
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
	const char *what = fr.what;
	struct ftctl_req r;
	int rc;

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
	{ "del", "NAME", "delete a fabric", NULL, name_parse, name_run },
	{ "set", "NAME [path P] [injection I] [arbitration A] [period T] [seed S] [backlog N] [discipline D] [ghosts on|off]",
	  "change a fabric's policies", set_help, set_parse, set_run },
	{ "show", "[NAME]", "show one fabric or all", show_help, show_parse,
	  show_run },
	{ "step", "NAME [COUNT]", "run COUNT delivery cycles (default 1), print the cycle",
	  NULL, step_parse, step_run },
	{ "inject", "NAME SRC DST COUNT | NAME file FILE",
	  "queue synthetic messages", inject_help, inject_parse, inject_run },
	{ "clear", "NAME", "zero a fabric's counters and its links'", clear_help,
	  name_parse, name_run },
};

FTCTL_OBJECT(fabric, "COMMAND ...", "fabrics",
	     "Create, change, run and inspect fabrics.",
	     "show", fabric_subs);
