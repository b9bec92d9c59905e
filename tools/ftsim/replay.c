// SPDX-License-Identifier: GPL-2.0
/*
 * ftsim replay: run a synthetic message set through the engine core in
 * userspace exactly as the kernel does (same core, same seed, same order
 * of injections, the same circuits installed before the first cycle),
 * and print the per-link counters. The kernel's counters for the same
 * run must be identical; selftests/fattree/replay_test checks it.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ftsim.h"
#include "ftunits.h"
#include "ft_circuits.h"
#include "ft_pairs.h"

#define CMD	"replay"

struct replay {
	struct ft_fabric_params p;
	const char *rows;
	const char *circuits;
	unsigned long steps;
	bool timing;
};

/* The circuits of --circuits FILE, and the line of each. */
struct replay_circuits {
	struct ft_circuit_req *req;
	u32 *line;
	u32 n;
	u32 cap;
};

static void usage(FILE *f)
{
	fprintf(f,
		"usage: ftsim replay --shape SPEC --rows FILE --steps N [--lanes c1,...,cH]\n"
		"                    [--path P] [--injection I] [--arbitration A] [--seed S]\n"
		"                    [--circuits FILE] [--timing]\n"
		"Run the rows of FILE (\"src dst count\" per line) through the engine\n"
		"core for N cycles, as the kernel runs them, and print \"cycle C drained D\n"
		"delivered X\" and one line per directed link: \"link ID carried C max M\n"
		"saturated S blocked B\".\n"
		"  --shape SPEC        binary:N, kary:L:K or xgft:H:m1,...,mH:w1,...,wH\n"
		"  --lanes c1,...,cH   lanes of each link of level 1..H (default 1)\n"
		"  --path P            circuit, dmodk (default), random, firstfree,\n"
		"                      scheduled or scheduled-random\n"
		"  --circuits FILE     circuits installed before the first cycle, one per\n"
		"                      line, \"src dst [lanes [lease [P1,...,PH]]]\" (lanes\n"
		"                      1, lease 0: for good, ports: destination mod k), as\n"
		"                      'ftctl circuit add NAME file FILE' reads them; all\n"
		"                      admitted as one batch, or none\n"
		"  --injection I       all (default), random or random-prime\n"
		"  --arbitration A     random (default) or fixed\n"
		"  --seed S            the fabric's seed (default 1)\n"
		"  --timing            add to the first line the time spent in cycles while\n"
		"                      messages waited and after (\"loaded_ns L idle_ns I\")\n"
		"The old --levels H --down m1,...,mH --up w1,...,wH and policies by their\n"
		"numbers in uapi/linux/fattree.h still work, with a warning.\n");
}

/* What the old options were, as the new ones write it, for the warning. */
struct old_words {
	char shape[272];	/* " --shape xgft:..." for --levels, --down, --up */
	char now[256];		/* " --path dmodk" for "--path 1", ... */
	const char *levels, *down, *up;
};

static void old_append(struct old_words *o, const char *fmt, const char *a, const char *b)
{
	size_t off = strlen(o->now);

	snprintf(o->now + off, sizeof(o->now) - off, fmt, a, b);
}

/* A policy by its name, or (old) by its number in uapi/linux/fattree.h. */
static int policy(const char *opt, const char *s, const char *const *names, u32 n,
		  struct old_words *o, u32 *v)
{
	if (*s && strspn(s, "0123456789") == strlen(s) && strlen(s) < 4 &&
	    (u32)atoi(s) < n) {
		*v = (u32)atoi(s);
		old_append(o, " %s %s", opt, names[*v]);
		return 0;
	}
	return ftsim_parse_name(CMD, opt, s, names, n, v);
}

/* --shape, or the old --levels, --down and --up as xgft:H:m:w. */
static int replay_shape(const char *shape, struct old_words *o, struct replay *r)
{
	struct ftsim_shape sh;
	char spec[256];

	if (shape && (o->levels || o->down || o->up))
		return ftsim_usage_err(CMD, "--shape and --levels, --down, --up exclude each other");
	if (!shape && !(o->levels && o->down && o->up))
		return ftsim_usage_err(CMD, "need --shape SPEC (binary:N, kary:L:K or xgft:H:m1,...,mH:w1,...,wH)");
	if (!shape) {
		snprintf(spec, sizeof(spec), "xgft:%s:%s:%s", o->levels, o->down, o->up);
		if (ftsim_parse_shape(CMD, "--levels, --down, --up", spec, &sh))
			return -1;
		snprintf(o->shape, sizeof(o->shape), " --shape %s", spec);
	} else if (ftsim_parse_shape(CMD, "--shape", shape, &sh)) {
		return -1;
	}
	r->p.h = sh.h;
	memcpy(r->p.m, sh.m, sizeof(r->p.m));
	memcpy(r->p.w, sh.w, sizeof(r->p.w));
	return 0;
}

static int replay_args(int argc, char **argv, struct replay *r)
{
	static const enum ftsim_opt take[] = {
		FTSIM_O_SHAPE, FTSIM_O_LEVELS, FTSIM_O_DOWN, FTSIM_O_UP,
		FTSIM_O_LANES, FTSIM_O_PATH, FTSIM_O_INJECTION,
		FTSIM_O_ARBITRATION, FTSIM_O_SEED, FTSIM_O_ROWS, FTSIM_O_STEPS,
		FTSIM_O_CIRCUITS, FTSIM_O_TIMING, 0,
	};
	struct ftsim_getopt g = {
		.cmd = CMD, .opts = take, .usage = usage, .seed = &r->p.seed,
	};
	struct old_words o = { .shape = "", .now = "" };
	const char *shape = NULL, *lanes = NULL;
	u32 rule = FT_INJECT_ALL, path = FT_PATH_DMODK, arb = FT_ARB_RANDOM, steps = 0;
	unsigned int nc = 0;
	char why[160];
	int c, err = 0;

	memset(r, 0, sizeof(*r));
	r->p.profile.kind = FT_PROFILE_CONSTANT;
	r->p.profile.base = 1;
	while (!err && (c = ftsim_getopt(&g, argc, argv)) > 0) {
		switch (c) {
		case FTSIM_O_SHAPE: shape = optarg; break;
		case FTSIM_O_LEVELS: o.levels = optarg; break;
		case FTSIM_O_DOWN: o.down = optarg; break;
		case FTSIM_O_UP: o.up = optarg; break;
		case FTSIM_O_LANES: lanes = optarg; break;
		case FTSIM_O_PATH:
			err = policy("--path", optarg, ftn_path_names, FT_PATH_NR, &o, &path);
			break;
		case FTSIM_O_INJECTION:
			err = policy("--injection", optarg, ftn_injection_names, FT_INJECT_NR, &o,
				     &rule);
			break;
		case FTSIM_O_ARBITRATION:
			err = policy("--arbitration", optarg, ftn_arbitration_names, FT_ARB_NR, &o, &arb);
			break;
		case FTSIM_O_ROWS: r->rows = optarg; break;
		case FTSIM_O_CIRCUITS: r->circuits = optarg; break;
		case FTSIM_O_STEPS:
			err = ftsim_parse_u32(CMD, "--steps", optarg, 1, UINT32_MAX, &steps);
			break;
		case FTSIM_O_TIMING: r->timing = true; break;
		}
	}
	if (err || c < 0)
		return -1;
	if (replay_shape(shape, &o, r))
		return -1;
	if (lanes) {
		if (ft_parse_u32_list(lanes, 1, FT_MAX_LANES, r->p.profile.table, r->p.h,
				      FT_MAX_LEVELS, &nc, why, sizeof(why)))
			return ftsim_usage_err(CMD, "bad --lanes '%s': %s", lanes, why);
		r->p.profile.kind = FT_PROFILE_EXPLICIT;
	}
	if (!r->rows || !steps)
		return ftsim_usage_err(CMD, "need --rows FILE and --steps N");
	r->p.path = path;
	r->p.inject.rule = rule;
	r->p.arb = arb;
	r->steps = steps;
	if (o.shape[0] || o.now[0]) {
		ftsim_progress_done();
		fprintf(stderr, "ftsim replay: warning: old options, now written:%s%s\n", o.shape,
			o.now);
	}
	return 0;
}

static int replay_rows(const char *path, struct ft_pairs *q, u32 n)
{
	unsigned long src, dst, count, line = 0;
	char buf[256];
	FILE *f = fopen(path, "r");

	if (!f) {
		fprintf(stderr, "ftsim replay: %s: %s\n", path, strerror(errno));
		return -1;
	}
	while (fgets(buf, sizeof(buf), f)) {
		line++;
		if (buf[0] == '#' || buf[strspn(buf, " \t\n")] == '\0')
			continue;
		if (sscanf(buf, "%lu %lu %lu", &src, &dst, &count) != 3 ||
		    src >= n || dst >= n || !count || count > 0xffffffffUL ||
		    ft_pairs_add(q, src, dst, 1, count, 0, NULL)) {
			fprintf(stderr, "ftsim replay: %s:%lu: bad row\n", path, line);
			fclose(f);
			return -1;
		}
	}
	fclose(f);
	return 0;
}

/* One more request in @c, its line @line; NULL when out of memory. */
static struct ft_circuit_req *circuit_new(struct replay_circuits *c, u32 line)
{
	struct ft_circuit_req *req;
	u32 *lines, ncap;

	if (c->n == c->cap) {
		ncap = c->cap ? 2 * c->cap : 64;
		req = realloc(c->req, ncap * sizeof(*req));
		if (req)
			c->req = req;
		lines = realloc(c->line, ncap * sizeof(*lines));
		if (lines)
			c->line = lines;
		if (!req || !lines)
			return NULL;
		c->cap = ncap;
	}
	c->line[c->n] = line;
	memset(&c->req[c->n], 0, sizeof(c->req[0]));
	return &c->req[c->n++];
}

/*
 * One row of a circuits file, its @k words in @tok: src dst [lanes
 * [lease [P1,...,PH]]], the ports exactly H of them (H where the leaves
 * meet), else destination mod k.  0, or -1 with the reason in @why.
 */
static int circuit_row(const struct ft_topo *t, char **tok, unsigned int k,
		       struct ft_circuit_req *q, char *why, size_t len)
{
	static const char *const what[] = {
		"source leaf", "destination leaf", "lanes", "lease",
	};
	u64 v[4] = { 0, 0, 1, 0 }, max;
	u32 port[FT_MAX_LEVELS];
	unsigned int i, hh, np;
	char sub[96];

	if (k < 2 || k > 5) {
		snprintf(why, len, "%s (a row is src dst [lanes [lease [P1,...,PH]]])",
			 k < 2 ? "missing the destination leaf" : "more than 5 words");
		return -1;
	}
	for (i = 0; i < k && i < 4; i++) {
		max = i < 2 ? t->n - 1 : i == 2 ? FT_MAX_LANES : UINT32_MAX;
		if (ft_parse_range(tok[i], i == 2, max, &v[i], sub, sizeof(sub))) {
			snprintf(why, len, "%s '%s': %s", what[i], tok[i], sub);
			return -1;
		}
	}
	q->src = (u32)v[0];
	q->dst = (u32)v[1];
	q->lanes = (u32)v[2];
	q->lease = (u32)v[3];
	hh = ft_topo_common_level(t, q->src, q->dst);
	if (k == 5) {
		if (ft_parse_u32_list(tok[4], 0, FT_MAX_W - 1, port, 0, FT_MAX_LEVELS, &np,
				      sub, sizeof(sub))) {
			snprintf(why, len, "ports '%s': %s", tok[4], sub);
			return -1;
		}
		if (np != hh) {
			snprintf(why, len, "ports '%s': %u value%s, but leaves %u and %u meet at level %u",
				 tok[4], np, np == 1 ? "" : "s", q->src, q->dst, hh);
			return -1;
		}
		for (i = 1; i <= hh; i++) {
			if (port[i - 1] < t->w[i])
				continue;
			snprintf(why, len, "ports '%s': P_%u = %u, but a level-%u node has %u up-port%s",
				 tok[4], i, port[i - 1], i - 1, t->w[i], t->w[i] == 1 ? "" : "s");
			return -1;
		}
	}
	for (i = 1; i <= hh; i++)
		q->port[i - 1] = (u8)(k == 5 ? port[i - 1] : ft_topo_dmodk_port(t, q->dst, i));
	return 0;
}

static int replay_circuits(const char *path, const struct ft_topo *t,
			   struct replay_circuits *c)
{
	char buf[512], why[256], *tok[6], *save, *w;
	struct ft_circuit_req *q;
	FILE *f = fopen(path, "r");
	unsigned int k;
	u32 line = 0;

	if (!f) {
		fprintf(stderr, "ftsim replay: %s: %s\n", path, strerror(errno));
		return -1;
	}
	while (fgets(buf, sizeof(buf), f)) {
		line++;
		buf[strcspn(buf, "#\n")] = '\0';	/* '#' starts a comment */
		for (k = 0, w = strtok_r(buf, " \t\r", &save); w && k < 6;
		     w = strtok_r(NULL, " \t\r", &save))
			tok[k++] = w;
		if (!k)
			continue;
		q = circuit_new(c, line);
		if (!q) {
			fprintf(stderr, "ftsim replay: out of memory at %s:%u\n", path, line);
			fclose(f);
			return -1;
		}
		if (circuit_row(t, tok, k, q, why, sizeof(why))) {
			fprintf(stderr, "ftsim replay: %s:%u: bad circuit: %s\n", path, line, why);
			fclose(f);
			return -1;
		}
	}
	fclose(f);
	return 0;
}

/* Why a batch of circuits was refused, as the kernel's extended ack says it. */
static const char *refusal(enum ft_circuits_why why)
{
	switch (why) {
	case FT_CIRCUITS_TOO_MANY:
		return "more circuits than a fabric holds";
	case FT_CIRCUITS_SAME_LEAF:
		return "a circuit joins a leaf to itself";
	case FT_CIRCUITS_EXISTS:
		return "its pair has a circuit on an earlier line";
	case FT_CIRCUITS_FAILED:
		return "its path crosses a failed link";
	case FT_CIRCUITS_LANES:
		return "a link of its path would hold more reserved lanes than it has";
	default:
		return "no such leaf, port or lanes";
	}
}

/* Admit the circuits of --circuits FILE into @cs, as one batch. */
static int replay_admit(const char *path, struct ft_fabric *fab, struct ft_circuits *cs)
{
	struct replay_circuits c = { 0 };
	struct ft_circuits_refusal rf;
	int rc = -1;

	if (replay_circuits(path, &fab->topo, &c))
		goto out;
	if (ft_circuits_init(cs, c.n ? ft_min_u32(c.n, FT_CIRCUITS_MAX) : 1)) {
		fprintf(stderr, "ftsim replay: cannot hold %u circuits\n", c.n);
		goto out;
	}
	if (c.n && ft_circuits_admit(cs, &fab->topo, &fab->lanes, c.req, c.n, fab->cycle, &rf)) {
		if (rf.why == FT_CIRCUITS_TOO_MANY)
			fprintf(stderr, "ftsim replay: %s: %u circuits: %s\n", path, c.n,
				refusal(rf.why));
		else
			fprintf(stderr, "ftsim replay: %s:%u: circuit refused: %s\n", path,
				c.line[rf.bad], refusal(rf.why));
		goto out;
	}
	rc = 0;
out:
	free(c.req);
	free(c.line);
	return rc;
}

int ftsim_replay(int argc, char **argv)
{
	struct ft_circuits cs = { 0 };
	struct ft_cycle_result res;
	struct ft_fabric *fab;
	struct ft_pairs q;
	struct ft_topo t;
	u32 lanes[FT_MAX_LEVELS];
	u64 delivered = 0, drained = 0;
	double t0, busy = 0, idle = 0;
	struct replay r;
	unsigned long i;
	int rc = 1;

	if (replay_args(argc, argv, &r))
		return FTSIM_EXIT_USAGE;
	/* Size the cycle as the kernel does (kmod/fabric.c). */
	if (ft_profile_lanes(&r.p.profile, r.p.h, r.p.m, r.p.w, lanes) ||
	    ft_topo_init(&t, r.p.h, r.p.m, r.p.w, lanes)) {
		fprintf(stderr, "ftsim replay: inconsistent shape\n");
		return 2;
	}
	r.p.max_msgs = ft_pairs_max_msgs(&t);
	fab = calloc(1, sizeof(*fab));
	if (!fab || ft_fabric_init(fab, &r.p) || ft_pairs_init(&q, 1U << 20)) {
		fprintf(stderr, "ftsim replay: cannot set up the fabric\n");
		free(fab);
		return 1;
	}
	if (replay_rows(r.rows, &q, t.n))
		goto out;
	if (r.circuits && replay_admit(r.circuits, fab, &cs))
		goto out;
	for (i = 0; i < r.steps; i++) {
		bool loaded = q.queued;

		t0 = r.timing ? ftsim_now() : 0;
		if (ft_pairs_cycle(&q, fab, r.circuits ? &cs : NULL, NULL, NULL, &res))
			goto out;
		if (r.timing) {
			t0 = ftsim_now() - t0;
			*(loaded ? &busy : &idle) += t0;
		}
		delivered += res.delivered;
		if (res.delivered && !q.queued)
			drained = fab->cycle;
	}
	printf("cycle %" PRIu64 " drained %" PRIu64 " delivered %" PRIu64, fab->cycle, drained,
	       delivered);
	if (r.timing)
		printf(" loaded_ns %.0f idle_ns %.0f", busy * 1e9, idle * 1e9);
	printf("\n");
	for (i = 0; i < fab->lanes.n; i++)
		printf("link %lu carried %" PRIu64 " max %u saturated %" PRIu64
		       " blocked %" PRIu64 "\n", i, fab->stats[i].carried,
		       fab->stats[i].max_cycle, fab->stats[i].saturated,
		       fab->stats[i].blocked);
	rc = 0;
out:
	ft_circuits_destroy(&cs);
	ft_pairs_destroy(&q);
	ft_fabric_destroy(fab);
	free(fab);
	return rc;
}
