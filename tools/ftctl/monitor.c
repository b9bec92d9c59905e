// SPDX-License-Identifier: GPL-2.0
/*
 * ftctl monitor: a live view of one fabric, refreshed every interval.
 *
 * Each interval it reads the fabric (FABRIC_GET), its links (LINK_GET
 * dump) and its demand (DEMAND_GET dump), and shows what changed since
 * the last read: the cycle rate, messages offered, delivered, blocked and
 * held for lack of a working path, the demand and circuits now, and per
 * level and per link the utilisation (carried / (lanes * cycles) over the
 * interval), saturated and failed links. On a terminal the screen is
 * redrawn in place; otherwise frames follow each other. With --json each
 * interval is one JSON object on one line.
 */
#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <json-c/json.h>

#include "ftunits.h"
#include "ftctl.h"
#include "ftobj.h"
#include "linux/fattree_structs.h"

#define CMD		"monitor"
#define MAXH		FATTREE_MAX_LEVELS
#define MIN_MS		100
#define MAX_MS		3600000
/* Cells of a level's map in one direction before links are aggregated. */
#define MAX_CELLS	512
/*
 * A link is shown saturated when it carried all its lanes in this share
 * of the interval's cycles (a one-lane link: 90 % busy or more).
 */
#define SAT_SHARE	0.9

static struct mon_req {
	char name[FATTREE_NAME_LEN];
	uint64_t interval_ms;
	uint32_t count;		/* frames, 0: until a signal */
	bool clear;
} mr;

static volatile sig_atomic_t mon_stop;

static void on_signal(int sig)
{
	(void)sig;
	mon_stop = 1;
}

/* --- the fabric's shape --- */

struct mon_shape {
	char name[FATTREE_NAME_LEN];
	char desc[128];
	uint32_t h, n, path;
	uint32_t m[MAXH + 1], w[MAXH + 1], lanes[MAXH + 1];	/* by level */
	uint64_t nodes[MAXH + 1], link_base[MAXH + 2];
	uint64_t period_ns;
	uint32_t ndl;		/* directed links */
};

/* One read of the fabric. */
struct mon_link {
	uint64_t carried, saturated, blocked;
	uint32_t lanes, reserved;
	uint8_t fail;
};

struct mon_snap {
	double t;
	uint64_t cycle;
	uint64_t link_cycle;	/* the cycle the link dump stands for */
	uint64_t st[FATTREE_A_STATS_MAX + 1];
	struct mon_link *link;
	uint64_t pairs, backlog, oldest;
	bool seen;
};

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/*
 * Seconds (0.5, 2) or a duration with its unit (500ms, 2s): a whole number
 * of milliseconds, refused rather than rounded when it is not.
 */
static int parse_interval(const char *word, uint64_t *ms)
{
	uint64_t ns = 0;
	int err;

	err = ft_parse_duration(word, 1000000000, &ns, NULL);
	if (err == FT_DURATION_INEXACT || (!err && ns % 1000000))
		return ftctl_usage_err(CMD, "bad interval SEC '%s': not a whole number of milliseconds, the unit the interval is counted in",
				       word);
	if (err || ns < MIN_MS * 1000000ULL || ns > MAX_MS * 1000000ULL)
		return ftctl_usage_err(CMD, "bad interval SEC '%s': from %.1f s to %d s (e.g. 0.5, 500ms, 2s)",
				       word, MIN_MS / 1000.0, MAX_MS / 1000);
	*ms = ns / 1000000;
	return 0;
}

static int mon_parse(struct ftctl *ctl, int argc, char **argv)
{
	struct sigaction sa = { .sa_handler = on_signal };
	bool has_interval = false, has_count = false;
	const char *v;
	int i, err;

	(void)ctl;
	for (i = 1; i < argc && !ftctl_is_help(argv[i]); i++)
		;
	if (i < argc && (i == 1 || strcmp(argv[i], "help"))) {	/* --help anywhere */
		printf("usage: ftctl [--json] monitor NAME [interval SEC] [count N] [clear]\n"
		       "A live view of fabric NAME, refreshed every interval (default 1 s):\n"
		       "  interval SEC   seconds between frames, 0.1 to 3600 (default 1)\n"
		       "  count N        exit after N frames (default: until SIGINT or SIGTERM)\n"
		       "  clear          zero the fabric's counters first (as 'ftctl fabric clear')\n"
		       "Each frame shows what changed over the interval:\n"
		       "  cycle          the fabric's cycle, cycles per second, timer overruns\n"
		       "  offered delivered blocked held\n"
		       "                 messages per second: offered, delivered, refused by\n"
		       "                 a full link, held for lack of a working path\n"
		       "  queued demand circuits failed\n"
		       "                 messages waiting, pairs in demand (their backlog and\n"
		       "                 the oldest age), circuits installed, failed links\n"
		       "  level          one line per level from the top: directed links,\n"
		       "                 utilisation up and down (carried / (lanes * cycles),\n"
		       "                 mean and most), saturated and failed links, messages\n"
		       "                 blocked per second\n"
		       "  map            per level and direction, one cell per link (or per\n"
		       "                 group of links on big trees), grouped by switch:\n"
		       "                 . idle, 0-9 utilisation in tenths, # saturated (all\n"
		       "                 lanes in half the cycles or more), X failed (x: some\n"
		       "                 links of the cell)\n"
		       "On a terminal the screen is redrawn in place. With --json: one object\n"
		       "per interval per line, with levels and links (utilisation as a\n"
		       "fraction, failed as a list of reasons).\n"
		       "SIGINT or SIGTERM end it with status 0.\n");
		return FTCTL_PARSE_HELP;
	}
	mr.interval_ms = 1000;
	/* Catch SIGINT and SIGTERM from here on: they end it with status 0. */
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	err = ftctl_parse_fabric_arg(CMD, argc, argv, mr.name, false);
	for (i = 2; !err && i < argc; i++) {
		if (!strcmp(argv[i], "interval")) {
			v = ftctl_opt_value(CMD, argc, argv, &i, &has_interval,
					    "SEC: seconds between frames");
			if (!v)
				return FTCTL_EXIT_USAGE;
			err = parse_interval(v, &mr.interval_ms);
		} else if (!strcmp(argv[i], "count")) {
			err = ftctl_opt_u32(CMD, argc, argv, &i, &has_count, "N: frames, then exit",
					    "count N", 1, UINT32_MAX, &mr.count);
		} else if (!strcmp(argv[i], "clear")) {
			err = ftctl_opt_once(CMD, argv[i], &mr.clear);
		} else {
			return ftctl_usage_err(CMD, "unknown option '%s' (expected interval, count or clear)",
					       argv[i]);
		}
	}
	return err;
}

/* --- reading the fabric --- */

struct fab_read {
	struct mon_shape *sh;	/* filled on the first read */
	struct mon_snap *s;
	bool first;
};

static void shape_derive(struct mon_shape *sh)
{
	uint64_t mprod = 1, wprod = 1;
	bool kary = true, bin = true;
	char mb[96] = "", wb[96] = "";
	size_t mo = 0, wo = 0;
	uint32_t i;

	sh->nodes[0] = sh->n;
	sh->link_base[1] = 0;
	for (i = 1; i <= sh->h; i++) {
		sh->link_base[i + 1] = sh->link_base[i] + sh->nodes[i - 1] * sh->w[i];
		mprod *= sh->m[i];
		wprod *= sh->w[i];
		sh->nodes[i] = sh->n / mprod * wprod;
		if (sh->m[i] != sh->m[1] || sh->w[i] != (i > 1 ? sh->m[1] : 1))
			kary = false;
		if (sh->m[i] != 2 || sh->w[i] != 1)
			bin = false;
		if (mo < sizeof(mb))
			mo += (size_t)snprintf(mb + mo, sizeof(mb) - mo, "%s%" PRIu32,
					       i > 1 ? "," : "", sh->m[i]);
		if (wo < sizeof(wb))
			wo += (size_t)snprintf(wb + wo, sizeof(wb) - wo, "%s%" PRIu32,
					       i > 1 ? "," : "", sh->w[i]);
	}
	sh->ndl = (uint32_t)(2 * sh->link_base[sh->h + 1]);
	if (bin)
		snprintf(sh->desc, sizeof(sh->desc), "binary fat-tree");
	else if (kary)
		snprintf(sh->desc, sizeof(sh->desc), "FT(%" PRIu32 ",%" PRIu32 ")", sh->h,
			 sh->m[1]);
	else
		snprintf(sh->desc, sizeof(sh->desc), "XGFT(%" PRIu32 "; %s; %s)", sh->h, mb, wb);
}

static int fab_reply(struct nl_msg *msg, void *arg)
{
	struct fab_read *r = arg;
	struct mon_shape *sh = r->sh;
	struct ftobj_fabric f;
	uint32_t h;
	int a, err;

	err = ftobj_fabric_decode(msg, &f);
	if (err)
		return err;
	if (!FTOBJ_HAS(&f, FATTREE_A_FABRIC_CYCLE))
		return -EPROTO;
	r->s->cycle = f.cycle;
	if (r->first) {
		h = f.levels;
		if (ftobj_fabric_shape(&f) || h > MAXH || !FTOBJ_HAS(&f, FATTREE_A_FABRIC_LEAVES))
			return -EPROTO;
		sh->h = h;
		sh->n = f.leaves;
		memcpy(sh->m + 1, f.down, h * sizeof(*f.down));
		memcpy(sh->w + 1, f.up, h * sizeof(*f.up));
		memcpy(sh->lanes + 1, f.lanes, h * sizeof(*f.lanes));
		if (FTOBJ_HAS(&f, FATTREE_A_FABRIC_PATH))
			sh->path = f.path;
		if (FTOBJ_HAS(&f, FATTREE_A_FABRIC_PERIOD_NS))
			sh->period_ns = f.period_ns;
		memcpy(sh->name, f.name, sizeof(sh->name));
		shape_derive(sh);
	}
	/* A counter left out keeps its last value. */
	for (a = 0; a <= FATTREE_A_STATS_MAX; a++)
		if (FTOBJ_HAS(&f.stats, a))
			r->s->st[a] = f.stats.v[a];
	r->s->seen = true;
	return 0;
}

struct link_read {
	const struct mon_shape *sh;
	struct mon_snap *s;
};

static int link_reply(struct nl_msg *msg, void *arg)
{
	struct link_read *r = arg;
	struct ftobj_link o;
	int err;

	err = ftobj_link_decode(msg, &o);
	if (err)
		return err;
	if (o.id >= r->sh->ndl)
		return -EPROTO;
	r->s->link[o.id] = (struct mon_link){
		.carried = o.carried, .saturated = o.saturated, .blocked = o.blocked,
		.lanes = o.lanes, .reserved = o.reserved, .fail = o.failed,
	};
	return 0;
}

static int demand_add(const void *entry, void *arg)
{
	const struct fattree_demand *e = entry;
	struct mon_snap *s = arg;

	s->pairs++;
	s->backlog += e->backlog;
	if (e->age > s->oldest)
		s->oldest = e->age;
	return 0;
}

static int demand_reply(struct nl_msg *msg, void *arg)
{
	long n = ftnl_each_demand(msg, demand_add, arg);

	return n < 0 ? (int)n : 0;
}

/* A counter's growth; a counter that went back was zeroed meanwhile. */
static uint64_t delta(uint64_t now, uint64_t before)
{
	return now >= before ? now - before : now;
}

/* The fabric's cycle alone. */
static int cycle_read(struct ftctl *ctl, struct mon_shape *sh, const char *what,
		      uint64_t *cycle)
{
	struct mon_snap tmp = { 0 };
	struct fab_read fr = { .sh = sh, .s = &tmp, .first = false };
	int rc;

	rc = FTCTL_FABRIC_REQ(ctl, FATTREE_CMD_FABRIC_GET, 0, FATTREE_A_FABRIC_NAME,
			      mr.name, what, fab_reply, &fr);
	if (!rc && !tmp.seen)
		rc = ftctl_fail(ctl, what, -EPROTO);
	*cycle = tmp.cycle;
	return rc;
}

/* One read: fabric, links, demand. Returns an exit code. */
static int snap_take(struct ftctl *ctl, struct mon_shape *sh, struct mon_snap *s, bool first)
{
	struct fab_read fr = { .sh = sh, .s = s, .first = first };
	struct link_read lr = { .sh = sh, .s = s };
	char what[64];
	int rc;

	snprintf(what, sizeof(what), "monitor %s", mr.name);
	s->seen = false;
	s->pairs = s->backlog = s->oldest = 0;
	memset(s->st, 0, sizeof(s->st));
	rc = FTCTL_FABRIC_REQ(ctl, FATTREE_CMD_FABRIC_GET, 0, FATTREE_A_FABRIC_NAME,
			      mr.name, what, fab_reply, &fr);
	if (rc)
		return rc;
	if (!s->seen)
		return ftctl_fail(ctl, what, -EPROTO);
	if (first) {
		s->link = calloc(sh->ndl ? sh->ndl : 1, sizeof(*s->link));
		if (!s->link)
			return ftctl_fail(ctl, what, -ENOMEM);
	}
	memset(s->link, 0, sh->ndl * sizeof(*s->link));
	rc = FTCTL_FABRIC_REQ(ctl, FATTREE_CMD_LINK_GET, NLM_F_DUMP, FATTREE_A_LINK_FABRIC,
			      mr.name, what, link_reply, &lr);
	if (rc)
		return rc;
	/*
	 * A running fabric moves while its links are dumped: they stand for
	 * the cycle halfway between a read before the dump and one after.
	 */
	rc = cycle_read(ctl, sh, what, &s->link_cycle);
	if (rc)
		return rc;
	s->link_cycle = s->cycle + (delta(s->link_cycle, s->cycle) + 1) / 2;
	rc = FTCTL_FABRIC_REQ(ctl, FATTREE_CMD_DEMAND_GET, NLM_F_DUMP, FATTREE_A_DEMAND_FABRIC,
			      mr.name, what, demand_reply, s);
	s->t = now_s();
	return rc;
}

/* --- one frame --- */

struct link_use {
	double util, sat;
	uint64_t carried, blocked;
	uint8_t fail;
};

struct level_use {
	uint64_t links, carried[2], cap[2], blocked, saturated, failed;
	double max[2];
};

struct frame {
	double dt;
	uint64_t dc;		/* cycles of the interval */
	uint64_t ldc;		/* cycles the link counters' growth stands for */
	struct link_use *u;
	struct level_use lv[MAXH + 1];
};

static void frame_compute(const struct mon_shape *sh, const struct mon_snap *a,
			  const struct mon_snap *b, struct frame *f)
{
	uint32_t id, level;
	uint64_t phys;

	f->dt = b->t - a->t;
	f->dc = delta(b->cycle, a->cycle);
	f->ldc = delta(b->link_cycle, a->link_cycle);
	memset(f->lv, 0, sizeof(f->lv));
	for (level = 1; level <= sh->h; level++) {
		for (phys = sh->link_base[level]; phys < sh->link_base[level + 1]; phys++) {
			for (id = (uint32_t)(2 * phys); id < 2 * phys + 2; id++) {
				const struct mon_link *x = &a->link[id], *y = &b->link[id];
				struct link_use *u = &f->u[id];
				struct level_use *lv = &f->lv[level];
				uint64_t cap = (uint64_t)sh->lanes[level] * f->ldc;
				int d = id & 1;

				u->carried = delta(y->carried, x->carried);
				u->blocked = delta(y->blocked, x->blocked);
				u->fail = y->fail;
				/* At most 1: the cycles of the dump are estimated. */
				u->util = cap ? (double)u->carried / (double)cap : 0;
				u->util = u->util > 1 ? 1 : u->util;
				u->sat = f->ldc ? (double)delta(y->saturated, x->saturated) / f->ldc : 0;
				u->sat = u->sat > 1 ? 1 : u->sat;
				lv->links++;
				lv->blocked += u->blocked;
				lv->failed += !!u->fail;
				lv->saturated += !u->fail && u->carried && u->sat >= SAT_SHARE;
				if (!u->fail) {
					lv->carried[d] += u->carried < cap ? u->carried : cap;
					lv->cap[d] += cap;
				}
				if (u->util > lv->max[d])
					lv->max[d] = u->util;
			}
		}
	}
}

static char cell_char(const struct link_use *u)
{
	if (u->fail)
		return 'X';
	if (u->carried && u->sat >= SAT_SHARE)
		return '#';
	if (!u->carried)
		return '.';
	return (char)('0' + (u->util >= 0.9 ? 9 : (int)(u->util * 10)));
}

/* The cell of @k links from @id0 (stride 2: one direction). */
static char group_char(const struct frame *f, uint64_t id0, uint64_t k)
{
	struct link_use agg = { 0 };
	uint64_t j, failed = 0, working = 0;
	bool sat = false;

	for (j = 0; j < k; j++) {
		const struct link_use *u = &f->u[id0 + 2 * j];

		if (u->fail) {
			failed++;
			continue;
		}
		working++;
		agg.carried += u->carried;
		if (u->util > agg.util)
			agg.util = u->util;
		sat |= u->carried && u->sat >= SAT_SHARE;
	}
	if (!working)
		return 'X';
	if (failed)
		return 'x';
	agg.sat = sat ? 1 : 0;
	return cell_char(&agg);
}

static int term_width(void)
{
	struct winsize ws;
	const char *c = getenv("COLUMNS");

	if (isatty(STDOUT_FILENO) && !ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) && ws.ws_col >= 40)
		return ws.ws_col;
	if (c && atoi(c) >= 40)
		return atoi(c);
	return 80;
}

static void print_rate(FILE *o, const char *label, uint64_t n, double dt)
{
	fprintf(o, "  %s %.0f/s", label, dt > 0 ? n / dt : 0.0);
}

static void pct(char *buf, size_t len, double v, bool any)
{
	if (!any)
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%.0f%%", 100 * v);
}

/* @cells cells, a blank after every @per_group, fit in @avail columns. */
static bool map_fits(uint64_t cells, uint64_t per_group, int avail)
{
	return cells + (cells + per_group - 1) / per_group - 1 <= (uint64_t)avail;
}

/*
 * The map of one level and direction: cells grouped by switch (the w_i
 * up links of a node, or the m_1 leaves of a leaf switch), a blank
 * between groups, or between pairs, fours... of groups when that makes
 * the row fit the width; else rows wrap between groups.
 */
static void print_map(FILE *o, const struct mon_shape *sh, const struct frame *f,
		      uint32_t level, int dir, int width)
{
	uint64_t nl = sh->link_base[level + 1] - sh->link_base[level];
	uint64_t agg = (nl + MAX_CELLS - 1) / MAX_CELLS, cells = (nl + agg - 1) / agg;
	uint64_t group = sh->w[level] > 1 ? sh->w[level] : sh->m[level];
	uint64_t per_group = group / agg ? group / agg : 1, c, col;
	char prefix[32];
	int avail;

	snprintf(prefix, sizeof(prefix), "L%" PRIu32 " %-4s ", level, dir ? "down" : "up");
	avail = width - (int)strlen(prefix);
	while (per_group < cells && !map_fits(cells, per_group, avail))
		per_group *= 2;
	if (!map_fits(cells, per_group, avail))
		per_group = group / agg ? group / agg : 1;	/* it wraps anyway */
	if (avail < (int)per_group + 1)
		avail = (int)per_group + 1;
	fputs(prefix, o);
	col = 0;
	for (c = 0; c < cells; c++) {
		uint64_t first = c * agg, k = nl - first < agg ? nl - first : agg;

		if (c && !(c % per_group)) {
			/* a group ends: room for the next one on this line? */
			if (col + 1 + per_group > (uint64_t)avail) {
				fprintf(o, "\n%*s", (int)strlen(prefix), "");
				col = 0;
			} else {
				fputc(' ', o);
				col++;
			}
		}
		fputc(group_char(f, 2 * (sh->link_base[level] + first) + (uint64_t)dir, k), o);
		col++;
	}
	fputc('\n', o);
	if (agg > 1)
		fprintf(o, "%*s(one cell per %" PRIu64 " links)\n", (int)strlen(prefix), "", agg);
}

static const char *const fail_why[] = { "link", "lower", "upper" };

static void print_failed(FILE *o, const struct mon_shape *sh, const struct mon_snap *b,
			 int width)
{
	uint64_t phys, shown = 0, total = 0;
	uint32_t level, node, port;
	int col = 0, len, k;
	char item[96];
	size_t off;

	for (level = sh->h; level >= 1; level--) {
		for (phys = sh->link_base[level]; phys < sh->link_base[level + 1]; phys++) {
			uint8_t fu = b->link[2 * phys].fail, fd = b->link[2 * phys + 1].fail;
			uint8_t bits = fu | fd;

			if (!bits)
				continue;
			total++;
			if (shown >= 6)
				continue;
			node = (uint32_t)((phys - sh->link_base[level]) / sh->w[level]);
			port = (uint32_t)((phys - sh->link_base[level]) % sh->w[level]);
			off = (size_t)snprintf(item, sizeof(item), "L%" PRIu32 " node %" PRIu32
					       " port %" PRIu32 " %s (", level, node, port,
					       fu && fd ? "both" : fu ? "up" : "down");
			for (k = 0; k < 3 && off < sizeof(item); k++)
				if (bits & (1u << k))
					off += (size_t)snprintf(item + off, sizeof(item) - off, "%s%s",
								item[off - 1] == '(' ? "" : "+",
								fail_why[k]);
			if (off < sizeof(item))
				snprintf(item + off, sizeof(item) - off, ")");
			len = (int)strlen(item);
			if (!shown)
				col = fprintf(o, "failed:");
			if (col + 2 + len > width) {
				fprintf(o, "\n       ");
				col = 7;
			}
			col += fprintf(o, "  %s", item);
			shown++;
		}
	}
	if (total > shown)
		fprintf(o, "  and %" PRIu64 " more", total - shown);
	if (total)
		fputc('\n', o);
}

static void frame_text(FILE *o, const struct mon_shape *sh, const struct mon_snap *a,
		       const struct mon_snap *b, const struct frame *f)
{
	const uint64_t *st = b->st, *sa = a->st;
	int width = term_width(), dir;
	char per[32], p[4][16];
	uint32_t level;

	ftctl_fmt_period(sh->period_ns, per, sizeof(per));
	fprintf(o, "fabric %s  %s  %" PRIu32 " leaves  path %s  period %s  every %.1f s\n",
		sh->name, sh->desc, sh->n, ftctl_enum_name(ftn_path_names, FTN_PATH_NR, sh->path),
		per, mr.interval_ms / 1000.0);
	fprintf(o, "cycle %" PRIu64 "  %.0f cycles/s  overruns %" PRIu64 "\n", b->cycle,
		f->dt > 0 ? f->dc / f->dt : 0.0,
		delta(st[FATTREE_A_STATS_OVERRUNS], sa[FATTREE_A_STATS_OVERRUNS]));
	fprintf(o, "messages");
	print_rate(o, "offered", delta(st[FATTREE_A_STATS_OFFERED], sa[FATTREE_A_STATS_OFFERED]),
		   f->dt);
	print_rate(o, "delivered",
		   delta(st[FATTREE_A_STATS_DELIVERED], sa[FATTREE_A_STATS_DELIVERED]), f->dt);
	print_rate(o, "blocked", delta(st[FATTREE_A_STATS_BLOCKED], sa[FATTREE_A_STATS_BLOCKED]),
		   f->dt);
	print_rate(o, "held",
		   delta(st[FATTREE_A_STATS_FAILURE_HELD], sa[FATTREE_A_STATS_FAILURE_HELD]),
		   f->dt);
	fprintf(o, "\nqueued %" PRIu64 "  demand %" PRIu64 " pair%s", st[FATTREE_A_STATS_QUEUED],
		b->pairs, b->pairs == 1 ? "" : "s");
	if (b->pairs)
		fprintf(o, " (backlog %" PRIu64 ", oldest %" PRIu64 " cycles)", b->backlog,
			b->oldest);
	fprintf(o, "  circuits %" PRIu64 "  failed %" PRIu64 " link%s\n",
		st[FATTREE_A_STATS_CIRCUITS], st[FATTREE_A_STATS_FAILED_LINKS],
		st[FATTREE_A_STATS_FAILED_LINKS] == 1 ? "" : "s");
	fprintf(o, "\nlevel  links  up: util   max  down: util   max  saturated  failed  blocked/s\n");
	for (level = sh->h; level >= 1; level--) {
		const struct level_use *lv = &f->lv[level];

		pct(p[0], sizeof(p[0]), lv->cap[0] ? (double)lv->carried[0] / lv->cap[0] : 0,
		    lv->cap[0]);
		pct(p[1], sizeof(p[1]), lv->max[0], f->ldc);
		pct(p[2], sizeof(p[2]), lv->cap[1] ? (double)lv->carried[1] / lv->cap[1] : 0,
		    lv->cap[1]);
		pct(p[3], sizeof(p[3]), lv->max[1], f->ldc);
		fprintf(o, "%5" PRIu32 " %6" PRIu64 " %10s %5s %11s %5s %10" PRIu64 " %7" PRIu64
			" %10.0f\n", level, lv->links, p[0], p[1], p[2], p[3], lv->saturated,
			lv->failed, f->dt > 0 ? lv->blocked / f->dt : 0.0);
	}
	fprintf(o, "\nmap: . idle  0-9 busy (tenths)  # saturated  X failed\n");
	for (level = sh->h; level >= 1; level--)
		for (dir = 0; dir < 2; dir++)
			print_map(o, sh, f, level, dir, width);
	print_failed(o, sh, b, width);
}

static struct json_object *jnum(double v)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%.4f", v);
	return json_object_new_double_s(v, buf);
}

static struct json_object *frame_json(const struct mon_shape *sh, const struct mon_snap *a,
				      const struct mon_snap *b, const struct frame *f)
{
	struct json_object *o = json_object_new_object(), *lvs, *links, *x, *d, *why;
	/* Counters shown as their change over the interval, under their names. */
	static const unsigned int counters[] = {
		FATTREE_A_STATS_OFFERED, FATTREE_A_STATS_DELIVERED, FATTREE_A_STATS_BLOCKED,
		FATTREE_A_STATS_FAILURE_HELD, FATTREE_A_STATS_OVERRUNS,
	};
	uint32_t level, id, k;
	uint64_t phys;
	char key[32];

	json_object_object_add(o, "fabric", json_object_new_string(sh->name));
	json_object_object_add(o, "interval_s", jnum(f->dt));
	json_object_object_add(o, "cycle", json_object_new_uint64(b->cycle));
	json_object_object_add(o, "cycles", json_object_new_uint64(f->dc));
	json_object_object_add(o, "cycle_rate", jnum(f->dt > 0 ? f->dc / f->dt : 0));
	for (k = 0; k < FTCTL_ARRAY_SIZE(counters); k++)
		json_object_object_add(o, ftctl_stat_name(counters[k], key, sizeof(key)),
				       json_object_new_uint64(delta(b->st[counters[k]],
								    a->st[counters[k]])));
	json_object_object_add(o, "queued", json_object_new_uint64(b->st[FATTREE_A_STATS_QUEUED]));
	json_object_object_add(o, "circuits",
			       json_object_new_uint64(b->st[FATTREE_A_STATS_CIRCUITS]));
	json_object_object_add(o, "failed_links",
			       json_object_new_uint64(b->st[FATTREE_A_STATS_FAILED_LINKS]));
	d = json_object_new_object();
	json_object_object_add(d, "pairs", json_object_new_uint64(b->pairs));
	json_object_object_add(d, "backlog", json_object_new_uint64(b->backlog));
	json_object_object_add(d, "oldest_age",
			       b->pairs ? json_object_new_uint64(b->oldest) : NULL);
	json_object_object_add(o, "demand", d);
	lvs = json_object_new_array();
	links = json_object_new_array();
	for (level = sh->h; level >= 1; level--) {
		const struct level_use *lv = &f->lv[level];

		x = json_object_new_object();
		json_object_object_add(x, "level", json_object_new_uint64(level));
		json_object_object_add(x, "links", json_object_new_uint64(lv->links));
		json_object_object_add(x, "util_up", jnum(lv->cap[0] ?
				       (double)lv->carried[0] / lv->cap[0] : 0));
		json_object_object_add(x, "max_up", jnum(lv->max[0]));
		json_object_object_add(x, "util_down", jnum(lv->cap[1] ?
				       (double)lv->carried[1] / lv->cap[1] : 0));
		json_object_object_add(x, "max_down", jnum(lv->max[1]));
		json_object_object_add(x, "saturated", json_object_new_uint64(lv->saturated));
		json_object_object_add(x, "failed", json_object_new_uint64(lv->failed));
		json_object_object_add(x, "blocked", json_object_new_uint64(lv->blocked));
		json_object_array_add(lvs, x);
		for (phys = sh->link_base[level]; phys < sh->link_base[level + 1]; phys++) {
			for (id = (uint32_t)(2 * phys); id < 2 * phys + 2; id++) {
				const struct link_use *u = &f->u[id];

				x = json_object_new_object();
				json_object_object_add(x, "id", json_object_new_uint64(id));
				json_object_object_add(x, "level", json_object_new_uint64(level));
				json_object_object_add(x, "node", json_object_new_uint64(
					(phys - sh->link_base[level]) / sh->w[level]));
				json_object_object_add(x, "port", json_object_new_uint64(
					(phys - sh->link_base[level]) % sh->w[level]));
				json_object_object_add(x, "dir",
						       json_object_new_string(id & 1 ? "down" : "up"));
				json_object_object_add(x, "lanes",
						       json_object_new_uint64(b->link[id].lanes));
				json_object_object_add(x, "carried", json_object_new_uint64(u->carried));
				json_object_object_add(x, "util", jnum(u->util));
				json_object_object_add(x, "saturated", jnum(u->sat));
				json_object_object_add(x, "blocked", json_object_new_uint64(u->blocked));
				why = json_object_new_array();
				for (k = 0; k < 3; k++)
					if (u->fail & (1u << k))
						json_object_array_add(why,
							json_object_new_string(fail_why[k]));
				json_object_object_add(x, "failed", why);
				json_object_array_add(links, x);
			}
		}
	}
	json_object_object_add(o, "levels", lvs);
	json_object_object_add(o, "links", links);
	return o;
}

/* Sleep until @deadline (CLOCK_MONOTONIC seconds) or a signal. */
static void sleep_until(double deadline, const sigset_t *old)
{
	struct timespec ts;
	double left;

	while (!mon_stop) {
		left = deadline - now_s();
		if (left <= 0)
			return;
		ts.tv_sec = (time_t)left;
		ts.tv_nsec = (long)((left - (double)ts.tv_sec) * 1e9);
		if (ppoll(NULL, 0, &ts, old) < 0 && errno != EINTR)
			return;
	}
}

static int mon_run(struct ftctl *ctl)
{
	struct mon_shape sh = { 0 };
	struct mon_snap snap[2] = { { 0 } };
	struct frame f = { 0 };
	bool tty = isatty(STDOUT_FILENO) && !ctl->json;
	double t0, interval = mr.interval_ms / 1000.0;
	sigset_t block, old;
	struct json_object *o;
	char *buf = NULL, what[64];
	size_t len = 0;
	uint32_t k;
	FILE *mem;
	int rc, cur = 0;

	snprintf(what, sizeof(what), "monitor %s", mr.name);
	/* SIGINT and SIGTERM are blocked but while sleeping. */
	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	sigprocmask(SIG_BLOCK, &block, &old);
	if (mr.clear && !mon_stop) {
		snprintf(what, sizeof(what), "monitor %s clear", mr.name);
		rc = FTCTL_FABRIC_REQ(ctl, FATTREE_CMD_STATS_RESET, 0, FATTREE_A_FABRIC_NAME,
				      mr.name, what, NULL, NULL);
		if (rc)
			goto out;
	}
	rc = snap_take(ctl, &sh, &snap[0], true);
	if (rc)
		goto out;
	snap[1].link = calloc(sh.ndl ? sh.ndl : 1, sizeof(*snap[1].link));
	f.u = calloc(sh.ndl ? sh.ndl : 1, sizeof(*f.u));
	if (!snap[1].link || !f.u) {
		rc = ftctl_fail(ctl, what, -ENOMEM);
		goto out;
	}
	t0 = snap[0].t;
	for (k = 0; !mon_stop && (!mr.count || k < mr.count); k++) {
		sleep_until(t0 + (k + 1) * interval, &old);
		if (mon_stop)
			break;
		rc = snap_take(ctl, &sh, &snap[!cur], false);
		if (rc)
			break;
		frame_compute(&sh, &snap[cur], &snap[!cur], &f);
		if (ctl->json) {
			o = frame_json(&sh, &snap[cur], &snap[!cur], &f);
			printf("%s\n", json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN |
								       JSON_C_TO_STRING_NOSLASHESCAPE));
			json_object_put(o);
		} else {
			/* Whole frames at once: no flicker on a terminal. */
			mem = open_memstream(&buf, &len);
			if (!mem) {
				rc = ftctl_fail(ctl, what, -ENOMEM);
				break;
			}
			if (tty)
				fputs("\033[H\033[2J", mem);
			else if (k)
				fputc('\n', mem);
			frame_text(mem, &sh, &snap[cur], &snap[!cur], &f);
			fclose(mem);
			fwrite(buf, 1, len, stdout);
			free(buf);
			buf = NULL;
		}
		fflush(stdout);
		cur = !cur;
	}
out:
	sigprocmask(SIG_SETMASK, &old, NULL);
	free(snap[0].link);
	free(snap[1].link);
	free(f.u);
	return rc;
}

const struct ftctl_cmd ftctl_cmd_monitor = {
	.name = "monitor",
	.args = "NAME [interval SEC] [count N] [clear]",
	.help = "a live view of a fabric",
	.parse = mon_parse,
	.run = mon_run,
};
