// SPDX-License-Identifier: GPL-2.0
/* ftctl leaf: a fabric's leaves, their counters and delivery latency. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <json-c/json.h>

#include "ftctl.h"
#include "ftobj.h"
#include "linux/fattree.h"

/* Room for a longer histogram than today's, should the kernel send one. */
#define MAX_BUCKETS	64

static struct leaf_req {
	char name[FATTREE_NAME_LEN];
} lq;

#define LEAF_COL(a, key, head, f, wide) FTCTL_COL(LEAF, a, key, head, struct ftobj_leaf, f, wide)
static const struct ftctl_col leaf_cols[] = {
	LEAF_COL(INDEX, "index", "index", index, false),
	LEAF_COL(IFINDEX, "ifindex", NULL, ifindex, false),
	LEAF_COL(QUEUED, "queued", "queued", queued, true),
	LEAF_COL(SENT, "sent", "sent", sent, true),
	LEAF_COL(DELIVERED, "delivered", "delivered", delivered, true),
	LEAF_COL(BLOCKED, "blocked", "blocked", blocked, true),
	LEAF_COL(DROP_NOROUTE, "drop_noroute", "drop:noroute", drop_noroute, true),
	LEAF_COL(DROP_DOWN, "drop_down", "drop:down", drop_down, true),
	LEAF_COL(DROP_TEARDOWN, "drop_teardown", "drop:teardown", drop_teardown, true),
	LEAF_COL(CONTROL_TX, "control_tx", "ctl:tx", control_tx, true),
	LEAF_COL(CONTROL_RX, "control_rx", "ctl:rx", control_rx, true),
};

#define N_COLS FTCTL_ARRAY_SIZE(leaf_cols)

/*
 * Bucket b of the log2 histogram counts deliveries that took
 * 2^(b-1) <= cycles < 2^b; bucket 0 is 0 cycles.
 */
static void bucket_range(unsigned int b, uint64_t *lo, uint64_t *hi)
{
	if (!b) {
		*lo = *hi = 0;
		return;
	}
	*lo = UINT64_C(1) << (b - 1);
	*hi = b >= 64 ? UINT64_MAX : (UINT64_C(1) << b) - 1;
}

/* The bucket holding the @pct percentile; -1 without deliveries. */
static int percentile(const uint64_t *h, unsigned int n, unsigned int pct)
{
	uint64_t total = 0, rank, sum = 0;
	unsigned int b;

	for (b = 0; b < n; b++)
		total += h[b];
	if (!total)
		return -1;
	/* smallest bucket with at least ceil(total * pct / 100) below it */
	rank = total / 100 * pct + (total % 100 * pct + 99) / 100;
	if (!rank)
		rank = 1;
	for (b = 0; b < n; b++) {
		sum += h[b];
		if (sum >= rank)
			return (int)b;
	}
	return (int)n - 1;
}

static int highest(const uint64_t *h, unsigned int n)
{
	while (n-- > 0)
		if (h[n])
			return (int)n;
	return -1;
}

static const char *fmt_bucket(int b, char *buf, size_t len)
{
	uint64_t lo, hi;

	if (b < 0) {
		snprintf(buf, len, "-");
		return buf;
	}
	bucket_range((unsigned int)b, &lo, &hi);
	if (lo == hi)
		snprintf(buf, len, "%" PRIu64, lo);
	else
		snprintf(buf, len, "%" PRIu64 "-%" PRIu64, lo, hi);
	return buf;
}

static struct json_object *json_bucket(int b)
{
	struct json_object *o;
	uint64_t lo, hi;

	if (b < 0)
		return json_object_new_null();
	bucket_range((unsigned int)b, &lo, &hi);
	o = json_object_new_object();
	json_object_object_add(o, "min", json_object_new_uint64(lo));
	json_object_object_add(o, "max", json_object_new_uint64(hi));
	return o;
}

static int leaf_reply(struct nl_msg *msg, void *arg)
{
	struct json_object *o, *lat, *hist;
	struct ftctl_dump *d = arg;
	uint64_t v[N_COLS] = { 0 }, h[MAX_BUCKETS] = { 0 };
	bool has[N_COLS] = { 0 };
	char cell[N_COLS][24], ifname[64] = "-", p50[48], p99[48], pmax[48];
	unsigned int nb = 0, b;
	bool has_ifname, has_latency;
	int q50, q99, qmax, err;
	struct ftobj_leaf l;

	err = ftobj_leaf_decode(msg, &l);
	if (err)
		return err;
	ftctl_cols_read(leaf_cols, N_COLS, &l, l.has, v, has);
	has_ifname = FTOBJ_HAS(&l, FATTREE_A_LEAF_IFNAME);
	if (has_ifname)
		snprintf(ifname, sizeof(ifname), "%s", l.ifname);
	has_latency = FTOBJ_HAS(&l, FATTREE_A_LEAF_LATENCY);
	nb = l.nlatency < MAX_BUCKETS ? l.nlatency : MAX_BUCKETS;
	memcpy(h, l.latency, nb * sizeof(uint64_t));
	q50 = percentile(h, nb, 50);
	q99 = percentile(h, nb, 99);
	qmax = highest(h, nb);

	if (d->ctl->json) {
		o = json_object_new_object();
		ftctl_cols_json(o, leaf_cols, 0, 2, v, has);
		if (has_ifname)
			json_object_object_add(o, "ifname", json_object_new_string(ifname));
		ftctl_cols_json(o, leaf_cols, 2, N_COLS, v, has);
		if (has_latency) {
			lat = json_object_new_object();
			hist = json_object_new_array();
			for (b = 0; b < nb; b++)
				json_object_array_add(hist, json_object_new_uint64(h[b]));
			json_object_object_add(lat, "histogram", hist);
			json_object_object_add(lat, "p50", json_bucket(q50));
			json_object_object_add(lat, "p99", json_bucket(q99));
			json_object_object_add(lat, "max", json_bucket(qmax));
			json_object_object_add(o, "latency_cycles", lat);
		}
		ftctl_dump_item(d, o);
		return 0;
	}
	if (!d->started)
		printf("%5s %-15s %8s %10s %10s %10s %12s %9s %13s %8s %8s %11s %11s %11s\n",
		       "index", "ifname", "queued", "sent", "delivered", "blocked",
		       "drop:noroute", "drop:down", "drop:teardown", "ctl:tx",
		       "ctl:rx", "p50", "p99", "max");
	d->started = true;
	ftctl_cols_cells(N_COLS, v, has, cell);
	printf("%5s %-15s %8s %10s %10s %10s %12s %9s %13s %8s %8s %11s %11s %11s\n",
	       cell[0], ifname, cell[2], cell[3], cell[4], cell[5], cell[6],
	       cell[7], cell[8], cell[9], cell[10],
	       fmt_bucket(q50, p50, sizeof(p50)), fmt_bucket(q99, p99, sizeof(p99)),
	       fmt_bucket(qmax, pmax, sizeof(pmax)));
	return 0;
}

static int show_parse(struct ftctl *ctl, int argc, char **argv)
{
	const char *cmd = "leaf show";

	(void)ctl;
	return ftctl_parse_fabric_arg(cmd, argc, argv, lq.name, true);
}

static int show_run(struct ftctl *ctl)
{
	struct ftctl_dump d = { .ctl = ctl };
	char what[64];
	int rc;

	snprintf(what, sizeof(what), "leaf show %s", lq.name);
	/* A dump reports a missing fabric poorly: ask for it first. */
	rc = ftctl_fabric_lookup(ctl, lq.name, what, NULL, NULL, NULL);
	if (rc)
		return rc;
	return FTCTL_DUMP_RUN(&d, FATTREE_CMD_LEAF_GET, FATTREE_A_LEAF_FABRIC, lq.name, what,
			      leaf_reply);
}

static void show_help(FILE *f)
{
	fprintf(f,
		"One line per leaf of fabric NAME: its index and link device, packets\n"
		"queued now, messages sent, delivered to it and blocked, drops by cause\n"
		"(no route, leaf down, fabric torn down), control-class frames sent and\n"
		"received, and the 50th and 99th percentile and the maximum of its\n"
		"delivery latency in cycles. Latency is kept as a log2 histogram (bucket\n"
		"b: 2^(b-1) <= cycles < 2^b), so each is shown as its bucket's range.\n"
		"With --json: an array of objects, one per line, with the histogram.\n");
}

static const struct ftctl_subcmd leaf_subs[] = {
	{ "show", "NAME", "show a fabric's leaves", show_help, show_parse,
	  show_run },
};

FTCTL_OBJECT(leaf, "show NAME", "leaves",
	     "Inspect the leaves of a fabric.",
	     "show", leaf_subs);
