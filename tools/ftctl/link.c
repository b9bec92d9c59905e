// SPDX-License-Identifier: GPL-2.0
/* ftctl link: a fabric's directed links and their counters; failing and
 * restoring them.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <json-c/json.h>

#include "ftctl.h"
#include "ftobj.h"
#include "linux/fattree.h"

static struct link_req {
	char name[FATTREE_NAME_LEN];
	bool has_level;
	uint32_t level;
	bool busy;
	bool failed;		/* show: only failed links */
	/* fail, restore: one directed link, or one physical link */
	bool by_id;
	uint32_t id, node, port;
	int dir;		/* -1: both directions */
	bool fail;		/* fail, else restore */
} lr;

/* The columns, in order; each shown as "-" when the kernel left it out. */
#define LINK_COL(a, key, f, wide) FTCTL_COL(LINK, a, key, NULL, struct ftobj_link, f, wide)
static const struct ftctl_col link_cols[] = {
	LINK_COL(ID, "id", id, false),
	LINK_COL(LEVEL, "level", level, false),
	LINK_COL(NODE, "node", node, false),
	LINK_COL(PORT, "port", port, false),
	LINK_COL(LANES, "lanes", lanes, false),
	LINK_COL(RESERVED, "reserved", reserved, false),
	LINK_COL(CARRIED, "carried", carried, true),
	LINK_COL(MAX_CYCLE, "max_cycle", max_cycle, false),
	LINK_COL(SATURATED, "saturated", saturated, true),
	LINK_COL(BLOCKED, "blocked", blocked, true),
};

#define N_COLS FTCTL_ARRAY_SIZE(link_cols)

/* "-" for a working link, else its reasons: "link", "lower", "upper". */
static const char *fail_text(uint8_t bits, char *buf, size_t len)
{
	static const char *const why[] = { "link", "lower", "upper" };
	size_t off = 0;
	unsigned int k;

	if (!bits)
		return "-";
	buf[0] = '\0';
	for (k = 0; k < 3; k++)
		if (bits & (1u << k) && off < len)
			off += (size_t)snprintf(buf + off, len - off, "%s%s",
						off ? "+" : "", why[k]);
	return buf;
}

static struct json_object *fail_json(uint8_t bits)
{
	static const char *const why[] = { "link", "lower", "upper" };
	struct json_object *a = json_object_new_array();
	unsigned int k;

	for (k = 0; k < 3; k++)
		if (bits & (1u << k))
			json_object_array_add(a, json_object_new_string(why[k]));
	return a;
}

static int link_reply(struct nl_msg *msg, void *arg)
{
	struct ftctl_dump *d = arg;
	uint64_t v[N_COLS] = { 0 };
	bool has[N_COLS] = { 0 };
	struct json_object *o;
	char cell[N_COLS][24], why[24];
	struct ftobj_link l;
	uint8_t fail;
	bool up;
	int err;

	err = ftobj_link_decode(msg, &l);
	if (err)
		return err;
	ftctl_cols_read(link_cols, N_COLS, &l, l.has, v, has);
	up = l.up;
	fail = l.failed;
	if (lr.has_level && (!has[1] || v[1] != lr.level))
		return 0;
	if (lr.busy && !v[6])
		return 0;
	if (lr.failed && !fail)
		return 0;

	if (d->ctl->json) {
		o = json_object_new_object();
		ftctl_cols_json(o, link_cols, 0, 4, v, has);
		json_object_object_add(o, "direction", json_object_new_string(up ? "up" : "down"));
		ftctl_cols_json(o, link_cols, 4, N_COLS, v, has);
		json_object_object_add(o, "failed", fail_json(fail));
		ftctl_dump_item(d, o);
		return 0;
	}
	if (!d->started)
		printf("%8s %5s %7s %4s %-4s %5s %5s %12s %7s %10s %10s %s\n", "id",
		       "level", "node", "port", "dir", "lanes", "resv", "carried",
		       "max/cyc", "saturated", "blocked", "failed");
	d->started = true;
	ftctl_cols_cells(N_COLS, v, has, cell);
	printf("%8s %5s %7s %4s %-4s %5s %5s %12s %7s %10s %10s %s\n", cell[0],
	       cell[1], cell[2], cell[3], up ? "up" : "down", cell[4], cell[5],
	       cell[6], cell[7], cell[8], cell[9], fail_text(fail, why, sizeof(why)));
	return 0;
}

static int show_parse(struct ftctl *ctl, int argc, char **argv)
{
	const char *cmd = "link show";
	int i, err;

	(void)ctl;
	err = ftctl_parse_fabric_arg(cmd, argc, argv, lr.name, false);
	for (i = 2; !err && i < argc; i++) {
		if (!strcmp(argv[i], "busy")) {
			err = ftctl_opt_once(cmd, argv[i], &lr.busy);
		} else if (!strcmp(argv[i], "failed")) {
			err = ftctl_opt_once(cmd, argv[i], &lr.failed);
		} else if (!strcmp(argv[i], "level")) {
			err = ftctl_opt_u32(cmd, argc, argv, &i, &lr.has_level,
					    "level L, 1 or more", "level L", 1, UINT32_MAX,
					    &lr.level);
		} else {
			return ftctl_usage_err(cmd, "unknown option '%s' (expected level, busy or failed)",
					       argv[i]);
		}
	}
	return err;
}

static int show_run(struct ftctl *ctl)
{
	struct ftctl_dump d = { .ctl = ctl };
	uint32_t levels = 0;
	char what[64];
	int rc;

	snprintf(what, sizeof(what), "link show %s", lr.name);
	/* A dump reports a missing fabric poorly: ask for it first. */
	rc = ftctl_fabric_lookup(ctl, lr.name, what, &levels, NULL, NULL);
	if (rc)
		return rc;
	if (lr.has_level && lr.level > levels) {
		fprintf(stderr, "ftctl %s: bad level L '%" PRIu32 "': %s has levels 1-%" PRIu32 "\n",
			what, lr.level, lr.name, levels);
		return FTCTL_EXIT_USAGE;
	}
	return FTCTL_DUMP_RUN(&d, FATTREE_CMD_LINK_GET, FATTREE_A_LINK_FABRIC, lr.name, what,
			      link_reply);
}

static void show_help(FILE *f)
{
	fprintf(f,
		"One line per directed link of fabric NAME (a link of level L joins\n"
		"level L-1 and level L; 'node' is the lower node's index at L-1 and\n"
		"'port' its up-port):\n"
		"  id level node port dir   the link; dir is up or down\n"
		"  lanes resv               lanes, and lanes held by circuits\n"
		"  carried max/cyc          messages carried, most in one cycle\n"
		"  saturated blocked        cycles it carried all its lanes, messages\n"
		"                           blocked there\n"
		"  failed                   - when it works, else why it is failed: link\n"
		"                           (by itself), lower or upper (the switch at\n"
		"                           that end), joined by +; a failed link has\n"
		"                           0 lanes and carries nothing\n"
		"  level L                  only links of level L\n"
		"  busy                     only links that carried something\n"
		"  failed                   only failed links\n"
		"With --json: an array of objects, one per line; failed is a list of\n"
		"reasons, empty when the link works.\n");
}

/* --- fail, restore --- */

static int fail_parse(struct ftctl *ctl, int argc, char **argv)
{
	const char *cmd;
	static const char *const words[] = { "id", "level", "node", "port" };
	bool seen[4] = { false };
	uint32_t *dst[4] = { &lr.id, &lr.level, &lr.node, &lr.port };
	int i, k, err;

	(void)ctl;
	lr.fail = argv[0][0] == 'f';
	cmd = lr.fail ? "link fail" : "link restore";
	lr.dir = -1;
	err = ftctl_parse_fabric_arg(cmd, argc, argv, lr.name, false);
	for (i = 2; !err && i < argc; i++) {
		if (!strcmp(argv[i], "up") || !strcmp(argv[i], "down")) {
			if (lr.dir >= 0)
				return ftctl_usage_err(cmd, "direction given twice ('%s')", argv[i]);
			lr.dir = argv[i][0] == 'u' ? FATTREE_LINK_DIR_UP : FATTREE_LINK_DIR_DOWN;
			continue;
		}
		k = ftctl_find(argv[i], words, 4);
		if (k < 0)
			return ftctl_usage_err(cmd, "unknown word '%s' (expected id ID, or level L node U port P [up|down])",
					       argv[i]);
		err = ftctl_opt_u32(cmd, argc, argv, &i, &seen[k],
				    k ? "a number" : "ID: a directed link id", words[k],
				    k == 1 ? 1 : 0, UINT32_MAX, dst[k]);
	}
	if (err)
		return err;
	lr.by_id = seen[0];
	if (seen[0] && (seen[1] || seen[2] || seen[3] || lr.dir >= 0))
		return ftctl_usage_err(cmd, "'id' names one directed link: it takes no level, node, port or direction");
	if (!seen[0] && !(seen[1] && seen[2] && seen[3]))
		return ftctl_usage_err(cmd, "name the link: id ID, or level L node U port P [up|down]");
	return 0;
}

static int fail_reply(struct nl_msg *msg, void *arg)
{
	return ftobj_link_set_decode(msg, arg);
}

/* Shared with "switch fail|restore". */
int ftctl_link_set(struct ftctl *ctl, const char *name, const char *what, bool fail,
		   bool (*put)(struct ftctl_req *r))
{
	struct ftobj_link_set rep = { 0 };
	uint32_t changed, cut, failed;
	struct json_object *o;
	uint8_t on = fail;
	struct ftctl_req r;
	int rc;

	if (!ftctl_req_init(ctl, &r, FATTREE_CMD_LINK_SET, 0, 0))
		return ftctl_fail(ctl, what, -ENOMEM);
	if (FTCTL_PUT_STR(&r, FATTREE_A_LINK_FABRIC, name, "fabric name %s", name) || !put(&r) ||
	    FTCTL_PUT(&r, FATTREE_A_LINK_FAIL, &on, 1, "%s", fail ? "fail" : "restore")) {
		ftctl_req_free(&r);
		return ftctl_fail(ctl, what, -EMSGSIZE);
	}
	rc = ftctl_req_run(ctl, &r, what, fail_reply, &rep);
	if (rc)
		return rc;
	if (!rep.has)
		return ftctl_fail(ctl, what, -EPROTO);
	changed = rep.changed;
	cut = rep.circuits_cut;
	failed = rep.failed_links;

	if (ctl->json) {
		o = json_object_new_object();
		json_object_object_add(o, "changed", json_object_new_uint64(changed));
		json_object_object_add(o, "circuits_cut", json_object_new_uint64(cut));
		json_object_object_add(o, "failed_links", json_object_new_uint64(failed));
		ftctl_json_print(o);
		json_object_put(o);
		return FTCTL_EXIT_OK;
	}
	printf("%s: %" PRIu32 " directed link%s %s", what, changed, changed == 1 ? "" : "s",
	       fail ? "failed" : "restored");
	if (cut)
		printf(", %" PRIu32 " circuit%s torn down", cut, cut == 1 ? "" : "s");
	printf("; %" PRIu32 " failed in the fabric\n", failed);
	return FTCTL_EXIT_OK;
}

/* The link fail_parse() saw: its id, or level, node, port and direction. */
static bool put_link(struct ftctl_req *r)
{
	if (lr.by_id)
		return !FTCTL_PUT_U32(r, FATTREE_A_LINK_ID, lr.id, "id %" PRIu32, lr.id);
	return !FTCTL_PUT_U32(r, FATTREE_A_LINK_LEVEL, lr.level, "level %" PRIu32, lr.level) &&
	       !FTCTL_PUT_U32(r, FATTREE_A_LINK_NODE, lr.node, "node %" PRIu32, lr.node) &&
	       !FTCTL_PUT_U32(r, FATTREE_A_LINK_PORT, lr.port, "port %" PRIu32, lr.port) &&
	       !(lr.dir >= 0 && FTCTL_PUT_U32(r, FATTREE_A_LINK_DIRECTION, (uint32_t)lr.dir,
					      "%s", lr.dir ? "down" : "up"));
}

/* fail and restore, as fail_parse() saw it */
static int fail_run(struct ftctl *ctl)
{
	bool fail = lr.fail;
	char what[96];

	if (lr.by_id)
		snprintf(what, sizeof(what), "link %s %s id %" PRIu32, fail ? "fail" : "restore",
			 lr.name, lr.id);
	else
		snprintf(what, sizeof(what), "link %s %s level %" PRIu32 " node %" PRIu32
			 " port %" PRIu32 "%s", fail ? "fail" : "restore", lr.name, lr.level,
			 lr.node, lr.port, lr.dir < 0 ? "" : lr.dir ? " down" : " up");
	return ftctl_link_set(ctl, lr.name, what, fail, put_link);
}

static void fail_help(FILE *f)
{
	fprintf(f,
		"Fail links of fabric NAME: they carry nothing from now on.\n"
		"  id ID                    one directed link (its id in 'ftctl link show')\n"
		"  level L node U port P    the physical link of level L from node U at\n"
		"                           level L-1 through its up-port P, both ways\n"
		"  up | down                only that direction of it\n"
		"Circuits across a failed link are torn down, and their pairs are in\n"
		"demand again. Messages choose up-ports around failed links where another\n"
		"path of the same length exists (every path but circuit); pairs\n"
		"without one wait, counted as failure_held, and are not lost. Prints the\n"
		"directed links that changed, the circuits torn down and the failed\n"
		"links now; with --json: changed, circuits_cut, failed_links.\n");
}

static void restore_help(FILE *f)
{
	fprintf(f,
		"Restore links of fabric NAME, named as for 'ftctl link fail':\n"
		"  id ID                    one directed link\n"
		"  level L node U port P    a physical link, both ways\n"
		"  up | down                only that direction of it\n"
		"A link also failed with a switch ('ftctl switch fail') stays failed\n"
		"until the switch is restored. Prints what changed, as fail does.\n");
}

static const struct ftctl_subcmd link_subs[] = {
	{ "show", "NAME [level L] [busy] [failed]", "show a fabric's directed links",
	  show_help, show_parse, show_run },
	{ "fail", "NAME id ID | NAME level L node U port P [up|down]",
	  "fail a link: it carries nothing", fail_help, fail_parse, fail_run },
	{ "restore", "NAME id ID | NAME level L node U port P [up|down]",
	  "restore a failed link", restore_help, fail_parse, fail_run },
};

FTCTL_OBJECT(link, "show|fail|restore NAME ...", "links",
	     "Inspect the directed links of a fabric, fail and restore them.",
	     "show", link_subs);
