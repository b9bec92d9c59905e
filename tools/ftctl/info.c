// SPDX-License-Identifier: GPL-2.0
/* ftctl info: the module's version and limits. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <json-c/json.h>

#include "ftctl.h"
#include "ftobj.h"
#include "linux/fattree.h"

static void info_print_json(const struct ftobj_info *r)
{
	struct json_object *o = json_object_new_object();
	struct json_object *lim = json_object_new_object();

	json_object_object_add(o, "version", json_object_new_string(r->version));
	json_object_object_add(o, "genl_version", json_object_new_int64(r->genl_version));
	json_object_object_add(lim, "max_fabrics", json_object_new_int64(r->max_fabrics));
	json_object_object_add(lim, "max_leaves", json_object_new_int64(r->max_leaves));
	json_object_object_add(lim, "max_levels", json_object_new_int64(r->max_levels));
	json_object_object_add(lim, "max_lanes", json_object_new_int64(r->max_lanes));
	json_object_object_add(o, "limits", lim);
	printf("%s\n", json_object_to_json_string_ext(o, JSON_C_TO_STRING_PRETTY |
						       JSON_C_TO_STRING_NOSLASHESCAPE));
	json_object_put(o);
}

static int info_parse(struct ftctl *ctl, int argc, char **argv)
{
	(void)ctl;
	if (argc > 1 && ftctl_is_help(argv[1])) {
		printf("usage: ftctl [--json] info\n"
		       "Show the module's version, the netlink family's version and the\n"
		       "module's limits (module parameters of fattree.ko).\n");
		return FTCTL_PARSE_HELP;
	}
	if (argc > 1)
		return ftctl_usage_err("info", "takes no arguments (got '%s')", argv[1]);
	return 0;
}

static int info_run(struct ftctl *ctl)
{
	struct ftobj_info r;
	int err;

	err = ftobj_info_get(&ctl->nl, &r);
	if (err)
		return ftctl_fail(ctl, "info", err);

	if (ctl->json) {
		info_print_json(&r);
		return FTCTL_EXIT_OK;
	}
	printf("fattree %s, netlink family version %u\n", r.version, r.genl_version);
	printf("limits: %u fabrics per namespace, %u leaves and %u levels per fabric, %u lanes per link\n",
	       r.max_fabrics, r.max_leaves, r.max_levels, r.max_lanes);
	return FTCTL_EXIT_OK;
}

const struct ftctl_cmd ftctl_cmd_info = {
	.name = "info",
	.args = "",
	.help = "show the module's version and limits",
	.parse = info_parse,
	.run = info_run,
};
