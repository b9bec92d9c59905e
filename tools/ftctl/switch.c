// SPDX-License-Identifier: GPL-2.0
/*
 * ftctl switch: fail and restore whole switches (every link of one, both
 * ways), and show the switches of a fabric with their failed links, from
 * the link dump.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <json-c/json.h>

#include "ftctl.h"
#include "ftobj.h"
#include "linux/fattree.h"

static struct switch_req {
	char name[FATTREE_NAME_LEN];
	bool has_level, has_node;
	uint32_t level, node;
	bool fail;		/* fail, else restore */
} sr;

/* --- fail, restore --- */

/*
 * NAME level L, and node S for fail and restore (@node): one grammar, but
 * show takes no node and says so in its own words.
 */
static int parse_switch(const char *cmd, int argc, char **argv, bool node)
{
	int i, err;

	err = ftctl_parse_fabric_arg(cmd, argc, argv, sr.name, false);
	for (i = 2; !err && i < argc; i++) {
		if (!strcmp(argv[i], "level"))
			err = ftctl_opt_u32(cmd, argc, argv, &i, &sr.has_level,
					    node ? "L: the switch's level, 1 or more" :
					    "L: a switch level, 1 or more",
					    "level L", 1, UINT32_MAX, &sr.level);
		else if (node && !strcmp(argv[i], "node"))
			err = ftctl_opt_u32(cmd, argc, argv, &i, &sr.has_node,
					    "S: the switch's index at its level", "node S",
					    0, UINT32_MAX, &sr.node);
		else if (node)
			return ftctl_usage_err(cmd, "unknown word '%s' (expected level L node S)",
					       argv[i]);
		else
			return ftctl_usage_err(cmd, "unexpected argument '%s' (expected level L)",
					       argv[i]);
	}
	return err;
}

static int fail_parse(struct ftctl *ctl, int argc, char **argv)
{
	const char *cmd;
	int err;

	(void)ctl;
	sr.fail = argv[0][0] == 'f';
	cmd = sr.fail ? "switch fail" : "switch restore";
	err = parse_switch(cmd, argc, argv, true);
	if (!err && (!sr.has_level || !sr.has_node))
		return ftctl_usage_err(cmd, "name the switch: level L node S");
	return err;
}

/* The switch fail_parse() saw. */
static bool put_switch(struct ftctl_req *r)
{
	return !FTCTL_PUT_U32(r, FATTREE_A_LINK_SWITCH_LEVEL, sr.level, "level %" PRIu32,
			      sr.level) &&
	       !FTCTL_PUT_U32(r, FATTREE_A_LINK_SWITCH_NODE, sr.node, "node %" PRIu32, sr.node);
}

/* fail and restore, as fail_parse() saw it */
static int fail_run(struct ftctl *ctl)
{
	char what[96];

	snprintf(what, sizeof(what), "switch %s %s level %" PRIu32 " node %" PRIu32,
		 sr.fail ? "fail" : "restore", sr.name, sr.level, sr.node);
	return ftctl_link_set(ctl, sr.name, what, sr.fail, put_switch);
}

static void fail_help(FILE *f)
{
	fprintf(f,
		"Fail switch S of level L of fabric NAME: every link to its children and\n"
		"to its parents, both ways, carries nothing from now on.\n"
		"  level L                  the switch's level, 1 to the fabric's levels\n"
		"  node S                   its index at that level (as 'ftctl switch show')\n"
		"Circuits through it are torn down and their pairs are in demand again;\n"
		"messages go around it where another path of the same length exists, and\n"
		"pairs without one wait (failure_held). Prints what changed, as 'ftctl\n"
		"link fail' does.\n");
}

static void restore_help(FILE *f)
{
	fprintf(f,
		"Restore switch S of level L of fabric NAME: its links work again, but\n"
		"for those failed by themselves ('ftctl link fail') or with a failed\n"
		"neighbour switch.\n"
		"  level L                  the switch's level\n"
		"  node S                   its index at that level\n");
}

/* --- show --- */

/* The shape, from FABRIC_GET. */
struct sw_shape {
	uint32_t h, m[FATTREE_MAX_LEVELS], w[FATTREE_MAX_LEVELS];
	uint64_t wprod[FATTREE_MAX_LEVELS + 1], nodes[FATTREE_MAX_LEVELS + 1];
	uint64_t base[FATTREE_MAX_LEVELS + 2];	/* first switch of each level */
	bool seen;
};

static int shape_reply(struct nl_msg *msg, void *arg)
{
	struct sw_shape *s = arg;
	uint64_t n = 1, mprod = 1;
	struct ftobj_fabric f;
	uint32_t i;
	int err;

	err = ftobj_fabric_decode(msg, &f);
	if (err || (err = ftobj_fabric_shape(&f)))
		return err;
	s->h = f.levels;
	memcpy(s->m, f.down, sizeof(s->m));
	memcpy(s->w, f.up, sizeof(s->w));
	for (i = 0; i < s->h; i++)
		n *= s->m[i];
	s->wprod[0] = 1;
	s->base[1] = 0;
	for (i = 1; i <= s->h; i++) {
		mprod *= s->m[i - 1];
		s->wprod[i] = s->wprod[i - 1] * s->w[i - 1];
		s->nodes[i] = n / mprod * s->wprod[i];
		s->base[i + 1] = s->base[i] + s->nodes[i];
	}
	s->seen = true;
	return 0;
}

struct sw_state {
	uint32_t links, failed;
	bool down;		/* failed as a switch */
};

struct sw_dump {
	struct sw_shape *s;
	struct sw_state *st;
};

/* Account link (level, node, port) at both its switches. */
static int sw_link_reply(struct nl_msg *msg, void *arg)
{
	struct sw_dump *d = arg;
	const struct sw_shape *s = d->s;
	uint32_t level, node, port;
	uint64_t x, y, upper, sw;
	struct ftobj_link l;
	uint8_t fail;
	int err;

	err = ftobj_link_decode(msg, &l);
	if (err)
		return err;
	level = l.level;
	node = l.node;
	port = l.port;
	fail = l.failed;
	if (!level || level > s->h)
		return -EPROTO;
	/* Upper end: level-L node (X div m_L, Y * w_L + port). */
	x = node / s->wprod[level - 1];
	y = node % s->wprod[level - 1];
	upper = x / s->m[level - 1] * s->wprod[level] + y * s->w[level - 1] + port;
	if (upper >= s->nodes[level])
		return -EPROTO;
	sw = s->base[level] + upper;
	d->st[sw].links++;
	d->st[sw].failed += !!fail;
	d->st[sw].down |= !!(fail & FATTREE_LINK_FAIL_UPPER);
	if (level > 1) {	/* lower end: a switch unless a leaf */
		if (node >= s->nodes[level - 1])
			return -EPROTO;
		sw = s->base[level - 1] + node;
		d->st[sw].links++;
		d->st[sw].failed += !!fail;
		d->st[sw].down |= !!(fail & FATTREE_LINK_FAIL_LOWER);
	}
	return 0;
}

static int show_parse(struct ftctl *ctl, int argc, char **argv)
{
	(void)ctl;
	return parse_switch("switch show", argc, argv, false);
}

static int show_run(struct ftctl *ctl)
{
	struct sw_shape s = { 0 };
	struct sw_dump d = { .s = &s };
	struct json_object *o;
	uint64_t k, nsw;
	uint32_t level;
	bool first = true;
	const char *state;
	char what[64];
	int rc;

	snprintf(what, sizeof(what), "switch show %s", sr.name);
	rc = FTCTL_FABRIC_REQ(ctl, FATTREE_CMD_FABRIC_GET, 0, FATTREE_A_FABRIC_NAME,
			      sr.name, what, shape_reply, &s);
	if (rc)
		return rc;
	if (!s.seen)
		return ftctl_fail(ctl, what, -EPROTO);
	if (sr.has_level && sr.level > s.h) {
		fprintf(stderr, "ftctl %s: bad level L '%" PRIu32 "': %s has levels 1-%" PRIu32 "\n",
			what, sr.level, sr.name, s.h);
		return FTCTL_EXIT_USAGE;
	}
	nsw = s.base[s.h + 1];
	d.st = calloc(nsw ? nsw : 1, sizeof(*d.st));
	if (!d.st)
		return ftctl_fail(ctl, what, -ENOMEM);
	rc = FTCTL_FABRIC_REQ(ctl, FATTREE_CMD_LINK_GET, NLM_F_DUMP, FATTREE_A_LINK_FABRIC,
			      sr.name, what, sw_link_reply, &d);
	if (rc) {
		free(d.st);
		return rc;
	}
	if (ctl->json)
		ftctl_json_array_begin();
	else
		printf("%5s %7s %6s %6s %s\n", "level", "node", "links", "failed", "state");
	for (level = s.h; level >= 1; level--) {
		if (sr.has_level && level != sr.level)
			continue;
		for (k = 0; k < s.nodes[level]; k++) {
			const struct sw_state *st = &d.st[s.base[level] + k];

			state = st->down ? "down" : st->failed ? "degraded" : "up";
			if (ctl->json) {
				o = json_object_new_object();
				json_object_object_add(o, "level", json_object_new_uint64(level));
				json_object_object_add(o, "node", json_object_new_uint64(k));
				json_object_object_add(o, "links", json_object_new_uint64(st->links));
				json_object_object_add(o, "failed", json_object_new_uint64(st->failed));
				json_object_object_add(o, "state", json_object_new_string(state));
				ftctl_json_array_item(o, &first);
				json_object_put(o);
			} else {
				printf("%5" PRIu32 " %7" PRIu64 " %6" PRIu32 " %6" PRIu32 " %s\n", level,
				       k, st->links, st->failed, state);
			}
		}
	}
	if (ctl->json)
		ftctl_json_array_end();
	free(d.st);
	return FTCTL_EXIT_OK;
}

static void show_help(FILE *f)
{
	fprintf(f,
		"One line per switch of fabric NAME, from the top level down:\n"
		"  level node               the switch: its level and its index there\n"
		"  links                    its directed links (to children and parents)\n"
		"  failed                   how many of them are failed\n"
		"  state                    up, degraded (some links failed), or down\n"
		"                           (failed as a switch: 'ftctl switch fail')\n"
		"  level L                  only the switches of level L\n"
		"With --json: an array of objects, one per line.\n");
}

static const struct ftctl_subcmd switch_subs[] = {
	{ "show", "NAME [level L]", "show a fabric's switches and their failed links",
	  show_help, show_parse, show_run },
	{ "fail", "NAME level L node S", "fail a switch: all its links",
	  fail_help, fail_parse, fail_run },
	{ "restore", "NAME level L node S", "restore a failed switch",
	  restore_help, fail_parse, fail_run },
};

FTCTL_OBJECT(switch, "show|fail|restore NAME ...", "switches",
	     "Show the switches of a fabric, fail and restore them.",
	     "show", switch_subs);
