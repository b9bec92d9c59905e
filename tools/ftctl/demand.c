// SPDX-License-Identifier: GPL-2.0
/*
 * ftctl demand: the pairs of a fabric waiting for lanes (messages and no
 * circuit, or more than their circuit carries in a cycle), from the
 * DEMAND_GET dump ("show") or as the kernel announces them on the
 * "demand" multicast group ("watch").
 */
#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <json-c/json.h>
#include <netlink/genl/ctrl.h>

#include "ftctl.h"
#include "ftobj.h"
#include "linux/fattree_structs.h"


static struct demand_req {
	char name[FATTREE_NAME_LEN];
	bool has_name;
	uint32_t count;		/* watch: notifications to print, 0: no end */
} dq;

static struct json_object *entry_json(const struct fattree_demand *e)
{
	struct json_object *o = json_object_new_object();

	json_object_object_add(o, "src", json_object_new_uint64(e->src));
	json_object_object_add(o, "dst", json_object_new_uint64(e->dst));
	json_object_object_add(o, "backlog", json_object_new_uint64(e->backlog));
	json_object_object_add(o, "circuit_lanes",
			       json_object_new_uint64(e->circuit_lanes));
	json_object_object_add(o, "age", json_object_new_uint64(e->age));
	return o;
}

static int parse_name_arg(const char *cmd, const char *word)
{
	dq.has_name = true;
	return ftctl_parse_name(cmd, word, dq.name);
}

/* --- show --- */

/* The start of show's JSON object; its entries follow, one per line. */
static void json_open(void)
{
	struct json_object *name = json_object_new_string(dq.name);

	printf("{\"name\": %s, \"entries\": [",
	       json_object_to_json_string_ext(name, JSON_C_TO_STRING_NOSLASHESCAPE));
	json_object_put(name);
}

struct show_dump {
	struct ftctl *ctl;
	bool started, first, has_cycle;
	uint64_t cycle_lo, cycle_hi;
	uint64_t pairs, backlog, oldest;
};

static int show_reply(struct nl_msg *msg, void *arg)
{
	struct show_dump *d = arg;
	struct fattree_demand *e;
	struct ftobj_demand dm;
	struct json_object *o;
	uint64_t cycle;
	char lanes[16];
	long n, i;
	int err;

	err = ftobj_demand_decode(msg, &dm);
	if (err)
		return err;
	cycle = dm.cycle;
	if (!d->has_cycle || cycle < d->cycle_lo)
		d->cycle_lo = cycle;
	if (!d->has_cycle || cycle > d->cycle_hi)
		d->cycle_hi = cycle;
	d->has_cycle = true;
	n = ftnl_demand_entries(msg, &e);
	if (n < 0)
		return (int)n;
	for (i = 0; i < n; i++) {
		d->pairs++;
		d->backlog += e[i].backlog;
		if (e[i].age > d->oldest)
			d->oldest = e[i].age;
		if (d->ctl->json) {
			if (!d->started)
				json_open();
			d->started = true;
			o = entry_json(&e[i]);
			ftctl_json_array_item(o, &d->first);
			json_object_put(o);
			continue;
		}
		if (!d->started)
			printf("%8s %8s %10s %13s %12s\n", "src", "dst", "backlog",
			       "circuit_lanes", "age");
		d->started = true;
		if (e[i].circuit_lanes)
			snprintf(lanes, sizeof(lanes), "%" PRIu32, e[i].circuit_lanes);
		else
			snprintf(lanes, sizeof(lanes), "-");
		printf("%8" PRIu32 " %8" PRIu32 " %10" PRIu32 " %13s %12" PRIu64 "\n",
		       e[i].src, e[i].dst, e[i].backlog, lanes, (uint64_t)e[i].age);
	}
	free(e);
	return 0;
}

static int show_parse(struct ftctl *ctl, int argc, char **argv)
{
	const char *cmd = "demand show";

	(void)ctl;
	dq.has_name = true;
	return ftctl_parse_fabric_arg(cmd, argc, argv, dq.name, true);
}

static int show_run(struct ftctl *ctl)
{
	struct show_dump d = { .ctl = ctl, .first = true };
	uint64_t cycle = 0;
	char what[64], cycles[64];
	int rc;

	snprintf(what, sizeof(what), "demand show %s", dq.name);
	/* Its cycle, for a summary without entries (an empty dump). */
	rc = ftctl_fabric_lookup(ctl, dq.name, what, NULL, NULL, &cycle);
	if (rc)
		return rc;
	rc = FTCTL_FABRIC_REQ(ctl, FATTREE_CMD_DEMAND_GET, NLM_F_DUMP, FATTREE_A_DEMAND_FABRIC,
			      dq.name, what, show_reply, &d);
	if (!d.has_cycle)
		d.cycle_lo = d.cycle_hi = cycle;
	if (ctl->json) {
		if (!d.started && rc)
			return rc;
		if (!d.started)
			json_open();
		printf("%s], \"cycle\": %" PRIu64 ", \"pairs\": %" PRIu64 ", \"backlog\": %" PRIu64 ", \"oldest_age\": ",
		       d.started ? "\n" : "", d.cycle_hi, d.pairs, d.backlog);
		if (d.pairs)
			printf("%" PRIu64 "}\n", d.oldest);
		else
			printf("null}\n");
		return rc;
	}
	if (rc)
		return rc;
	if (d.cycle_lo == d.cycle_hi)
		snprintf(cycles, sizeof(cycles), "cycle %" PRIu64, d.cycle_hi);
	else	/* a running fabric moved while the dump was read */
		snprintf(cycles, sizeof(cycles), "cycles %" PRIu64 "-%" PRIu64,
			 d.cycle_lo, d.cycle_hi);
	if (!d.pairs)
		printf("%s at %s: no pairs in demand\n", dq.name, cycles);
	else
		printf("%s at %s: %" PRIu64 " pair%s in demand, backlog %" PRIu64 " message%s, oldest waiting %" PRIu64 " cycle%s\n",
		       dq.name, cycles, d.pairs, d.pairs == 1 ? "" : "s", d.backlog,
		       d.backlog == 1 ? "" : "s", d.oldest, d.oldest == 1 ? "" : "s");
	return FTCTL_EXIT_OK;
}

static void show_help(FILE *f)
{
	fprintf(f,
		"The pairs of fabric NAME in demand: messages waiting and no circuit,\n"
		"or more waiting than their circuit carries in a cycle. One line each:\n"
		"  src dst           the pair\n"
		"  backlog           messages waiting\n"
		"  circuit_lanes     lanes of its circuit (- : none)\n"
		"  age               cycles since the pair began waiting\n"
		"then a summary: the pairs, their total backlog and the oldest age, at\n"
		"the fabric's cycle. A pair's packets and its synthetic messages wait\n"
		"apart and are listed apart. With --json: one object, its entries one\n"
		"per line, and cycle, pairs, backlog and oldest_age (null: no pairs).\n");
}

/* --- watch --- */

static volatile sig_atomic_t watch_stop;

static void on_signal(int sig)
{
	(void)sig;
	watch_stop = 1;
}

struct watch {
	struct ftctl *ctl;
	uint32_t seen;
	bool done;
	int err;
};

static void watch_print(struct ftctl *ctl, const char *fabric, uint64_t cycle,
			const struct fattree_demand *e, long n)
{
	struct json_object *o, *arr;
	char lanes[16];
	long i;

	if (ctl->json) {
		o = json_object_new_object();
		json_object_object_add(o, "fabric", json_object_new_string(fabric));
		json_object_object_add(o, "cycle", json_object_new_uint64(cycle));
		arr = json_object_new_array();
		for (i = 0; i < n; i++)
			json_object_array_add(arr, entry_json(&e[i]));
		json_object_object_add(o, "entries", arr);
		printf("%s\n", json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN |
							       JSON_C_TO_STRING_NOSLASHESCAPE));
		json_object_put(o);
	} else {
		printf("%s cycle %" PRIu64 ": %ld pair%s in demand\n", fabric, cycle,
		       n, n == 1 ? "" : "s");
		for (i = 0; i < n; i++) {
			if (e[i].circuit_lanes)
				snprintf(lanes, sizeof(lanes), "%" PRIu32,
					 e[i].circuit_lanes);
			else
				snprintf(lanes, sizeof(lanes), "-");
			printf("  %8" PRIu32 " -> %-8" PRIu32 " backlog %-8" PRIu32 " circuit_lanes %-5s age %" PRIu64 "\n",
			       e[i].src, e[i].dst, e[i].backlog, lanes,
			       (uint64_t)e[i].age);
		}
	}
	fflush(stdout);
}

static int watch_msg(struct nl_msg *msg, void *arg)
{
	struct nlmsghdr *nlh = nlmsg_hdr(msg);
	struct watch *w = arg;
	struct fattree_demand *e;
	struct ftobj_demand dm;
	const char *fabric;
	uint64_t cycle;
	long n;

	if (w->done || nlh->nlmsg_type != w->ctl->nl.family ||
	    !genlmsg_valid_hdr(nlh, 0) ||
	    genlmsg_hdr(nlh)->cmd != FATTREE_CMD_DEMAND_NTF)
		return NL_SKIP;
	if (ftobj_demand_decode(msg, &dm) || !FTOBJ_HAS(&dm, FATTREE_A_DEMAND_FABRIC)) {
		fprintf(stderr, "ftctl demand watch: a malformed notification, skipped\n");
		return NL_SKIP;
	}
	fabric = dm.fabric;
	cycle = dm.cycle;
	if (dq.has_name && strcmp(fabric, dq.name))
		return NL_SKIP;
	n = ftnl_demand_entries(msg, &e);
	if (n < 0) {
		fprintf(stderr, "ftctl demand watch: %s notification of %s, skipped\n",
			n == -ENOMEM ? "no memory for a" : "a malformed", fabric);
		return NL_SKIP;
	}
	watch_print(w->ctl, fabric, cycle, e, n);
	free(e);
	if (dq.count && ++w->seen >= dq.count) {
		w->done = true;
		return NL_STOP;
	}
	return NL_OK;
}

static int watch_parse(struct ftctl *ctl, int argc, char **argv)
{
	struct sigaction sa = { .sa_handler = on_signal };
	const char *cmd = "demand watch";
	bool has_count = false;
	int i, err = 0;

	(void)ctl;
	/*
	 * SIGINT and SIGTERM end the watch with status 0, also while it is
	 * still starting (opening netlink, finding the fabric): so catch them
	 * from here on. No SA_RESTART: nothing here relies on it.
	 */
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	for (i = 1; !err && i < argc; i++) {
		if (!strcmp(argv[i], "count")) {
			err = ftctl_opt_u32(cmd, argc, argv, &i, &has_count,
					    "N: notifications to print, then exit", "count N",
					    1, UINT32_MAX, &dq.count);
		} else if (i == 1) {
			err = parse_name_arg(cmd, argv[i]);
		} else {
			return ftctl_usage_err(cmd, "unexpected argument '%s' (expected [NAME] [count N])",
					       argv[i]);
		}
	}
	return err;
}

/* A socket of its own, in the "demand" group: notifications, no requests. */
static struct nl_sock *watch_socket(const char *what, struct watch *w)
{
	struct nl_sock *sk = nl_socket_alloc();
	int grp, err;

	if (!sk) {
		fprintf(stderr, "ftctl: %s: %s\n", what, strerror(ENOMEM));
		return NULL;
	}
	err = ftnl_listen(sk, FATTREE_MCGRP_DEMAND, watch_msg, w, &grp);
	if (err && grp < 0)
		fprintf(stderr, "ftctl: %s: the fattree family has no multicast group '%s' (%s): an older module?\n",
			what, FATTREE_MCGRP_DEMAND, nl_geterror(grp));
	else if (err)
		fprintf(stderr, "ftctl: %s: cannot listen to the '%s' group: %s\n", what,
			FATTREE_MCGRP_DEMAND, nl_geterror(err));
	if (err) {
		nl_socket_free(sk);
		return NULL;
	}
	/* Room for bursts: a batch of pairs comes as many messages. */
	nl_socket_set_buffer_size(sk, 4 << 20, 0);
	nl_socket_set_msg_buf_size(sk, 64 << 10);
	return sk;
}

static int watch_run(struct ftctl *ctl)
{
	struct watch w = { .ctl = ctl };
	sigset_t block, old;
	struct pollfd pfd;
	struct nl_sock *sk;
	char what[64];
	int rc = FTCTL_EXIT_OK, err;

	snprintf(what, sizeof(what), dq.has_name ? "demand watch %s" : "demand watch%s",
		 dq.name);
	/* A fabric named but missing is an error, not a silent wait. */
	if (dq.has_name && !watch_stop) {
		rc = ftctl_fabric_lookup(ctl, dq.name, what, NULL, NULL, NULL);
		if (rc)
			return rc;
	}
	/*
	 * From here SIGINT and SIGTERM (caught since watch_parse()) are
	 * blocked except inside ppoll(), so one cannot slip in between the
	 * check of the flag and the wait (libnl itself retries an interrupted
	 * read).
	 */
	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	sigprocmask(SIG_BLOCK, &block, &old);
	sk = watch_socket(what, &w);
	if (!sk) {
		sigprocmask(SIG_SETMASK, &old, NULL);
		return FTCTL_EXIT_FAIL;
	}
	pfd.fd = nl_socket_get_fd(sk);
	pfd.events = POLLIN;
	while (!w.done && !watch_stop) {
		if (ppoll(&pfd, 1, NULL, &old) < 0) {
			if (errno == EINTR)
				continue;
			fprintf(stderr, "ftctl: %s: %s\n", what, strerror(errno));
			rc = FTCTL_EXIT_FAIL;
			break;
		}
		while (!w.done) {
			err = nl_recvmsgs_default(sk);
			if (err == -NLE_AGAIN)
				break;
			if (err == -NLE_NOMEM) {
				/* ENOBUFS: the receive queue overflowed */
				fprintf(stderr, "ftctl %s: notifications were lost (the socket's queue overflowed); 'ftctl demand show' lists the demand now\n",
					what);
				continue;
			}
			if (err < 0) {
				fprintf(stderr, "ftctl: %s: %s\n", what, nl_geterror(err));
				rc = FTCTL_EXIT_FAIL;
				w.done = true;
			}
		}
	}
	nl_socket_free(sk);
	sigprocmask(SIG_SETMASK, &old, NULL);
	return rc;
}

static void watch_help(FILE *f)
{
	fprintf(f,
		"Listen to the kernel's demand notifications (the \"demand\" multicast\n"
		"group) and print each as it arrives: a line with the fabric, its cycle\n"
		"and the number of pairs, then one line per pair (src -> dst, backlog,\n"
		"circuit_lanes, age in cycles). A fabric announces its demand after it\n"
		"runs cycles, at most once per 10 ms, only while someone listens; many\n"
		"pairs arrive as several notifications of the same cycle. A listener\n"
		"that fell behind is told so; 'ftctl demand show' resynchronises.\n"
		"  NAME      only this fabric's (it must exist)\n"
		"  count N   exit after N notifications\n"
		"SIGINT or SIGTERM end the watch with status 0. With --json: one\n"
		"object per notification per line: fabric, cycle and entries.\n");
}

static const struct ftctl_subcmd demand_subs[] = {
	{ "show", "NAME", "show the pairs of a fabric in demand", show_help,
	  show_parse, show_run },
	{ "watch", "[NAME] [count N]", "print demand notifications as they come",
	  watch_help, watch_parse, watch_run },
};

FTCTL_OBJECT(demand, "COMMAND ...", "demand",
	     "Inspect the demand of fabrics: pairs waiting for lanes.",
	     "show", demand_subs);
