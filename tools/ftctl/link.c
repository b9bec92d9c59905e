// SPDX-License-Identifier: GPL-2.0
/* ftctl link: a fabric's directed links and their counters. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <json-c/json.h>

#include "ftctl.h"
#include "linux/fattree.h"

static struct link_req {
	char name[FATTREE_NAME_LEN];
	bool has_level;
	uint32_t level;
	bool busy;
} lr;

struct link_dump {
	struct ftctl *ctl;
	bool started, first;
	uint64_t shown, total;
};

static const struct {
	int attr;
	const char *key;
	bool u64;
} link_cols[] = {
	{ FATTREE_A_LINK_ID, "id", false },
	{ FATTREE_A_LINK_LEVEL, "level", false },
	{ FATTREE_A_LINK_NODE, "node", false },
	{ FATTREE_A_LINK_PORT, "port", false },
	{ FATTREE_A_LINK_LANES, "lanes", false },
	{ FATTREE_A_LINK_RESERVED, "reserved", false },
	{ FATTREE_A_LINK_CARRIED, "carried", true },
	{ FATTREE_A_LINK_MAX_CYCLE, "max_cycle", false },
	{ FATTREE_A_LINK_SATURATED, "saturated", true },
	{ FATTREE_A_LINK_BLOCKED, "blocked", true },
};

#define N_COLS FTCTL_ARRAY_SIZE(link_cols)

static int link_reply(struct nl_msg *msg, void *arg)
{
	struct nlattr *tb[FATTREE_A_LINK_MAX + 1];
	struct link_dump *d = arg;
	uint64_t v[N_COLS] = { 0 };
	bool has[N_COLS] = { 0 };
	struct json_object *o;
	char cell[N_COLS][24];
	bool up;
	size_t i;

	if (ftnl_parse(msg, tb, FATTREE_A_LINK_MAX))
		return -EINVAL;
	for (i = 0; i < N_COLS; i++) {
		uint32_t v32 = 0;

		if (link_cols[i].u64)
			has[i] = ftctl_nla_u64(tb[link_cols[i].attr], &v[i]);
		else
			has[i] = ftctl_nla_u32(tb[link_cols[i].attr], &v32);
		if (has[i] && !link_cols[i].u64)
			v[i] = v32;
	}
	up = !!tb[FATTREE_A_LINK_UP];
	d->total++;
	if (lr.has_level && (!has[1] || v[1] != lr.level))
		return 0;
	if (lr.busy && !v[6])
		return 0;
	d->shown++;

	if (d->ctl->json) {
		if (!d->started)
			ftctl_json_array_begin();
		d->started = true;
		o = json_object_new_object();
		for (i = 0; i < N_COLS; i++) {
			if (has[i])
				json_object_object_add(o, link_cols[i].key,
						       json_object_new_uint64(v[i]));
			if (i == 3)
				json_object_object_add(o, "direction",
						       json_object_new_string(up ? "up" : "down"));
		}
		ftctl_json_array_item(o, &d->first);
		json_object_put(o);
		return 0;
	}
	if (!d->started)
		printf("%8s %5s %7s %4s %-4s %5s %5s %12s %7s %10s %10s\n", "id",
		       "level", "node", "port", "dir", "lanes", "resv", "carried",
		       "max/cyc", "saturated", "blocked");
	d->started = true;
	for (i = 0; i < N_COLS; i++) {
		if (has[i])
			snprintf(cell[i], sizeof(cell[i]), "%" PRIu64, v[i]);
		else
			snprintf(cell[i], sizeof(cell[i]), "-");
	}
	printf("%8s %5s %7s %4s %-4s %5s %5s %12s %7s %10s %10s\n", cell[0],
	       cell[1], cell[2], cell[3], up ? "up" : "down", cell[4], cell[5],
	       cell[6], cell[7], cell[8], cell[9]);
	return 0;
}

static int show_parse(struct ftctl *ctl, int argc, char **argv)
{
	const char *cmd = "link show";
	const char *v;
	int i, err;

	(void)ctl;
	if (argc < 2)
		return ftctl_usage_err(cmd, "missing the fabric NAME");
	err = ftctl_parse_name(cmd, argv[1], lr.name);
	for (i = 2; !err && i < argc; i++) {
		if (!strcmp(argv[i], "busy")) {
			if (lr.busy)
				return ftctl_usage_err(cmd, "option 'busy' given twice");
			lr.busy = true;
		} else if (!strcmp(argv[i], "level")) {
			if (lr.has_level)
				return ftctl_usage_err(cmd, "option 'level' given twice");
			v = ftctl_arg_value(cmd, argc, argv, &i, "level L, 1 or more");
			if (!v)
				return FTCTL_EXIT_USAGE;
			err = ftctl_parse_u32(cmd, "level L", v, 1, UINT32_MAX,
					      &lr.level);
			lr.has_level = true;
		} else {
			return ftctl_usage_err(cmd, "unknown option '%s' (expected level or busy)",
					       argv[i]);
		}
	}
	return err;
}

static int show_run(struct ftctl *ctl)
{
	struct link_dump d = { .ctl = ctl, .first = true };
	struct ftctl_req r;
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
	if (!ftctl_req_init(ctl, &r, FATTREE_CMD_LINK_GET, NLM_F_DUMP, 0))
		return ftctl_fail(ctl, what, -ENOMEM);
	if (FTCTL_PUT_STR(&r, FATTREE_A_LINK_FABRIC, lr.name, "fabric name %s",
			  lr.name)) {
		ftctl_req_free(&r);
		return ftctl_fail(ctl, what, -EMSGSIZE);
	}
	rc = ftctl_req_run(ctl, &r, what, link_reply, &d);
	if (ctl->json && (d.started || !rc)) {
		if (!d.started)
			ftctl_json_array_begin();
		ftctl_json_array_end();
	}
	return rc;
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
		"  level L                  only links of level L\n"
		"  busy                     only links that carried something\n"
		"With --json: an array of objects, one per line.\n");
}

static const struct ftctl_subcmd link_subs[] = {
	{ "show", "NAME [level L] [busy]", "show a fabric's directed links",
	  show_help, show_parse, show_run },
};

static const struct ftctl_object link_obj = {
	.name = "link",
	.help = "Inspect the directed links of a fabric.",
	.dflt = "show",
	.subs = link_subs,
	.n_subs = 1,
};

static int link_parse(struct ftctl *ctl, int argc, char **argv)
{
	return ftctl_object_parse(&link_obj, ctl, argc, argv);
}

const struct ftctl_cmd ftctl_cmd_link = {
	.name = "link",
	.args = "show NAME ...",
	.help = "links",
	.parse = link_parse,
	.run = ftctl_object_run,
	.obj = &link_obj,
};
