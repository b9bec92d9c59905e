// SPDX-License-Identifier: GPL-2.0
/*
 * ftctl fabric show: a fabric's attributes, counters and store-and-forward
 * state as the kernel reports them (FABRIC_GET), printed as text (shape,
 * one line per level, counters) or JSON; and the lookup other objects use
 * for a fabric's levels, leaves and cycle.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <json-c/json.h>

#include "ftctl.h"
#include "ftobj.h"
#include "ftshape.h"
#include "linux/fattree.h"

#define MAXL		FTCTL_MAX_LEVELS

const char *ftctl_stat_name(unsigned int attr, char *buf, size_t len)
{
	const char *s = ftobj_stats_name(attr);
	size_t i;

	for (i = 0; s && s[i] && i + 1 < len; i++)
		buf[i] = s[i] == '-' ? '_' : s[i];
	buf[i] = '\0';
	return buf;
}

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
	[FATTREE_A_SAF_WAITING] = "waiting",
};

/* Each fabric of the reply, decoded into the next element of a struct ftnl_array. */
static int fab_reply(struct nl_msg *msg, void *arg)
{
	struct ftobj_fabric *f = ftnl_array_next(arg);

	return f ? ftobj_fabric_decode(msg, f) : -ENOMEM;
}

static bool has_saf(const struct ftobj_fabric *f)
{
	return FTOBJ_HAS(f, FATTREE_A_FABRIC_SAF);
}

/* Levels with queues, maximum and summed occupancy alike; else none. */
static unsigned int saf_nlevels(const struct ftobj_fabric *f)
{
	const struct ftobj_saf *v = &f->saf;

	return v->nlevel_occ_max == v->nlevel_queues &&
	       v->nlevel_occ_sum == v->nlevel_queues ? v->nlevel_queues : 0;
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

static void fab_shape(const struct ftobj_fabric *f, struct shape *s)
{
	char mb[96], wb[96];
	unsigned int i, h;
	bool kary, bin;

	memset(s, 0, sizeof(*s));
	h = f->ndown < f->nup ? f->ndown : f->nup;
	if (FTOBJ_HAS(f, FATTREE_A_FABRIC_LEVELS) && f->levels < h)
		h = f->levels;
	for (i = 0; i < h; i++)
		if (!f->down[i] || !f->up[i])
			h = i;	/* a malformed reply: show what makes sense */
	s->h = h;
	s->lanes = f->nlanes >= h;
	s->mprod[0] = s->wprod[0] = 1;
	for (i = 1; i <= h; i++) {
		s->mprod[i] = s->mprod[i - 1] * f->down[i - 1];
		s->wprod[i] = s->wprod[i - 1] * f->up[i - 1];
	}
	s->n = s->mprod[h];
	for (i = 0; i <= h; i++) {
		s->nodes[i] = s->n / s->mprod[i] * s->wprod[i];
		if (i)
			s->switches += s->nodes[i];
		if (i)	/* physical links between i-1 and i */
			s->links += s->nodes[i - 1] * f->up[i - 1];
	}
	kary = h > 0;
	bin = h > 0;
	for (i = 0; i < h; i++) {
		if (f->down[i] != f->down[0] || f->up[i] != (i ? f->down[0] : 1))
			kary = false;
		if (f->down[i] != 2 || f->up[i] != 1)
			bin = false;
	}
	if (kary && f->down[0] > 1 && !bin)
		snprintf(s->name, sizeof(s->name), "FT(%u,%" PRIu32 ")", h, f->down[0]);
	else if (bin)
		snprintf(s->name, sizeof(s->name), "binary fat-tree");
	else
		snprintf(s->name, sizeof(s->name), "XGFT(%u; %s; %s)", h,
			 ftctl_fmt_u32_list(f->down, h, mb, sizeof(mb)),
			 ftctl_fmt_u32_list(f->up, h, wb, sizeof(wb)));
}

/* Capacity of a level-i channel (0 <= i < h): W_i * w_(i+1) * lanes_(i+1). */
static uint64_t chan_cap(const struct ftobj_fabric *f, const struct shape *s,
			 unsigned int i)
{
	return s->wprod[i] * f->up[i] * f->lanes[i];
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
			const struct ftobj_fabric *f, const struct shape *s,
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

static double saf_mean(const struct ftobj_fabric *f, unsigned int k)
{
	uint64_t busy = f->saf.v[FATTREE_A_SAF_BUSY_STEPS];

	return f->saf.level_queues[k] && busy ? (double)f->saf.level_occ_sum[k] / ((double)f->saf.level_queues[k] * busy) : 0;
}

static unsigned int lg_ceil(uint64_t x)
{
	unsigned int l = 0;

	while (l < 64 && (UINT64_C(1) << l) < x)
		l++;
	return l;
}

/* T / (c + L + lg N) of the last batch, or a negative number. */
static double saf_ratio(const struct ftobj_fabric *f, unsigned int h)
{
	const uint64_t *v = f->saf.v;
	uint64_t den;

	if (!f->saf.batch_done || !v[FATTREE_A_SAF_BATCH_PACKETS])
		return -1;
	den = v[FATTREE_A_SAF_BATCH_CONGESTION] + 2 * h +
	      lg_ceil(v[FATTREE_A_SAF_BATCH_PACKETS]);
	return den ? (double)v[FATTREE_A_SAF_BATCH_T] / den : -1;
}

static void saf_print_text(const struct ftobj_fabric *f, unsigned int h)
{
	const uint64_t *v = f->saf.v;
	char b[32];
	double r = saf_ratio(f, h);
	unsigned int k;

	printf("  saf     batches %" PRIu64 "  steps %" PRIu64 " (busy %" PRIu64 ")  delivered %" PRIu64
	       "  hops %" PRIu64 "  ghosts %" PRIu64 "  eos %" PRIu64 "\n",
	       v[FATTREE_A_SAF_BATCHES], v[FATTREE_A_SAF_STEPS], v[FATTREE_A_SAF_BUSY_STEPS],
	       v[FATTREE_A_SAF_DELIVERED], v[FATTREE_A_SAF_HOPS], v[FATTREE_A_SAF_GHOSTS],
	       v[FATTREE_A_SAF_EOS]);
	printf("          f-delays %" PRIu64 "  empty waits %" PRIu64 "  stalls %" PRIu64
	       "  rescues %" PRIu64 "  pool %" PRIu64 " (full %" PRIu64 " times)"
	       "  waiting %" PRIu64 "\n",
	       v[FATTREE_A_SAF_FDELAYS], v[FATTREE_A_SAF_EMPTY_WAITS], v[FATTREE_A_SAF_STALLS],
	       v[FATTREE_A_SAF_RESCUES], v[FATTREE_A_SAF_POOL], v[FATTREE_A_SAF_POOL_FULL],
	       v[FATTREE_A_SAF_WAITING]);
	printf("          steps to deliver: mean %.2f, max %" PRIu64 "  max queue %" PRIu64,
	       v[FATTREE_A_SAF_DELIVERED] ? (double)v[FATTREE_A_SAF_LATENCY_SUM] /
	       v[FATTREE_A_SAF_DELIVERED] : 0.0, v[FATTREE_A_SAF_LATENCY_MAX],
	       v[FATTREE_A_SAF_QMAX]);
	if (FTOBJ_HAS(f, FATTREE_A_FABRIC_SAF_Q))
		printf(" (q %" PRIu32 ")", f->saf_q);
	printf("\n");
	printf("  batch   %" PRIu64 " packets, %" PRIu64 " delivered, %" PRIu64 " steps run",
	       v[FATTREE_A_SAF_BATCH_PACKETS], v[FATTREE_A_SAF_BATCH_DELIVERED],
	       v[FATTREE_A_SAF_BATCH_STEPS]);
	if (f->saf.batch_done)
		printf(", done: T %" PRIu64, v[FATTREE_A_SAF_BATCH_T]);
	printf(", congestion c %" PRIu64, v[FATTREE_A_SAF_BATCH_CONGESTION]);
	if (r >= 0)
		printf(", T/(c+L+lg N) %.2f (L %u)", r, 2 * h);
	printf("\n");
	if (!saf_nlevels(f))
		return;
	printf("  queues  %-8s %9s %4s %7s\n", "level", "queues", "max", "mean");
	for (k = 0; k < saf_nlevels(f); k++) {
		if (!f->saf.level_queues[k])
			continue;
		saf_level_name(b, sizeof(b), k, h);
		printf("          %-8s %9" PRIu32 " %4" PRIu32 " %7.3f\n", b, f->saf.level_queues[k],
		       f->saf.level_occ_max[k], saf_mean(f, k));
	}
}

static void fab_print_text(const struct ftobj_fabric *f)
{
	char b1[96], b2[96], b3[64], name[32];
	struct shape s;
	unsigned int i;
	int a;

	fab_shape(f, &s);
	printf("fabric %s: %s: %" PRIu64 " leaves, %" PRIu64 " switches, %u level%s, %" PRIu64 " links\n",
	       f->name, s.name, FTOBJ_HAS(f, FATTREE_A_FABRIC_LEAVES) ?
	       f->leaves : s.n, s.switches, s.h,
	       s.h == 1 ? "" : "s", s.links);
	printf("  shape   m %s  w %s", ftctl_fmt_u32_list(f->down, s.h, b1, sizeof(b1)),
	       ftctl_fmt_u32_list(f->up, s.h, b2, sizeof(b2)));
	if (f->nlanes)
		printf("  lanes %s", ftctl_fmt_u32_list(f->lanes, f->nlanes, b1, sizeof(b1)));
	if (FTOBJ_HAS(f, FATTREE_A_FABRIC_PROFILE))
		printf("  profile %s", ftctl_enum_name(ftn_profile_names, FTN_PROFILE_NR,
							f->profile));
	if (FTOBJ_HAS(f, FATTREE_A_FABRIC_PROFILE_BASE))
		printf(" base %" PRIu32, f->profile_base);
	if (FTOBJ_HAS(f, FATTREE_A_FABRIC_PROFILE_ROOT))
		printf(" root %" PRIu32, f->profile_root);
	printf("\n  policy ");
	if (FTOBJ_HAS(f, FATTREE_A_FABRIC_PATH))
		printf(" path %s", ftctl_enum_name(ftn_path_names, FTN_PATH_NR,
						   f->path));
	if (FTOBJ_HAS(f, FATTREE_A_FABRIC_INJECTION))
		printf("  injection %s", ftctl_enum_name(ftn_injection_names,
							 FTN_INJECTION_NR,
							 f->injection));
	if (FTOBJ_HAS(f, FATTREE_A_FABRIC_ARBITRATION))
		printf("  arbitration %s", ftctl_enum_name(ftn_arbitration_names,
							   FTN_ARBITRATION_NR,
							   f->arbitration));
	if (has_saf(f)) {
		printf("\n  mode     store-and-forward");
		if (FTOBJ_HAS(f, FATTREE_A_FABRIC_SAF_Q))
			printf("  q %" PRIu32, f->saf_q);
		if (FTOBJ_HAS(f, FATTREE_A_FABRIC_SAF_DISCIPLINE))
			printf("  discipline %s",
			       ftctl_enum_name(ftn_saf_discipline_names, FTN_SAF_DISCIPLINE_NR,
					       f->saf_discipline));
		if (FTOBJ_HAS(f, FATTREE_A_FABRIC_SAF_GHOSTS))
			printf("  ghosts %s",
			       ftctl_enum_name(ftctl_onoff_names, ftctl_n_onoff,
					       f->saf_ghosts));
	}
	printf("\n  engine ");
	if (FTOBJ_HAS(f, FATTREE_A_FABRIC_PERIOD_NS))
		printf(" period %s", ftctl_fmt_period(f->period_ns,
						      b3, sizeof(b3)));
	if (FTOBJ_HAS(f, FATTREE_A_FABRIC_CYCLE))
		printf("  cycle %" PRIu64, f->cycle);
	if (FTOBJ_HAS(f, FATTREE_A_FABRIC_BACKLOG))
		printf("  backlog %" PRIu32, f->backlog);
	if (FTOBJ_HAS(f, FATTREE_A_FABRIC_SEED))
		printf("  seed %" PRIu64, f->seed);
	printf("\n");

	/* The tree from the top; channels above each level's subtrees. */
	for (i = s.h + 1; i-- > 0;) {
		char line[256];
		int n;

		print_ports(b1, sizeof(b1), i < s.h ? f->up[i] : 0, f, &s, i + 1);
		if (i)
			print_ports(b2, sizeof(b2), f->down[i - 1], f, &s, i);
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
		if (!FTOBJ_HAS(&f->stats, i))
			continue;
		if (a % 6 == 0)
			printf(a ? "\n         " : "  stats  ");
		printf(" %s %" PRIu64, ftctl_stat_name(i, name, sizeof(name)),
		       f->stats.v[i]);
		a++;
	}
	if (a)
		printf("\n");
	if (has_saf(f))
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

static struct json_object *saf_json(const struct ftobj_fabric *f, unsigned int h)
{
	struct json_object *o = json_object_new_object(), *b, *lv, *arr;
	char name[32];
	unsigned int k;
	double r;
	int a;

	if (FTOBJ_HAS(f, FATTREE_A_FABRIC_SAF_Q))
		jadd_u64(o, "q", f->saf_q);
	if (FTOBJ_HAS(f, FATTREE_A_FABRIC_SAF_DISCIPLINE))
		json_object_object_add(o, "discipline",
				       json_object_new_string(ftctl_enum_name(ftn_saf_discipline_names,
									      FTN_SAF_DISCIPLINE_NR,
									      f->saf_discipline)));
	if (FTOBJ_HAS(f, FATTREE_A_FABRIC_SAF_GHOSTS))
		json_object_object_add(o, "ghosts",
				       json_object_new_boolean(f->saf_ghosts != 0));
	for (a = 0; a < FATTREE_A_SAF_BATCH_PACKETS; a++)
		if (saf_names[a] && FTOBJ_HAS(&f->saf, a))
			jadd_u64(o, saf_names[a], f->saf.v[a]);
	if (FTOBJ_HAS(&f->saf, FATTREE_A_SAF_WAITING))
		jadd_u64(o, saf_names[FATTREE_A_SAF_WAITING], f->saf.v[FATTREE_A_SAF_WAITING]);
	json_object_object_add(o, "latency_mean",
			       json_object_new_double(f->saf.v[FATTREE_A_SAF_DELIVERED] ?
						      (double)f->saf.v[FATTREE_A_SAF_LATENCY_SUM] /
						      f->saf.v[FATTREE_A_SAF_DELIVERED] : 0.0));
	b = json_object_new_object();
	for (a = FATTREE_A_SAF_BATCH_PACKETS; a <= FATTREE_A_SAF_BATCH_CONGESTION; a++)
		if (FTOBJ_HAS(&f->saf, a))
			jadd_u64(b, saf_names[a], f->saf.v[a]);
	json_object_object_add(b, "done",
			       json_object_new_boolean(f->saf.batch_done != 0));
	jadd_u64(b, "depth", 2 * h);
	r = saf_ratio(f, h);
	json_object_object_add(b, "t_over_c_l_lgn", r >= 0 ? json_object_new_double(r) : NULL);
	json_object_object_add(o, "batch", b);
	arr = json_object_new_array();
	for (k = 0; k < saf_nlevels(f); k++) {
		lv = json_object_new_object();
		jadd_u64(lv, "level", k);
		saf_level_name(name, sizeof(name), k, h);
		json_object_object_add(lv, "name", json_object_new_string(name));
		jadd_u64(lv, "queues", f->saf.level_queues[k]);
		jadd_u64(lv, "occupancy_max", f->saf.level_occ_max[k]);
		json_object_object_add(lv, "occupancy_mean",
				       json_object_new_double(saf_mean(f, k)));
		json_object_array_add(arr, lv);
	}
	json_object_object_add(o, "levels", arr);
	return o;
}

static struct json_object *fab_json(const struct ftobj_fabric *f)
{
	struct json_object *o = json_object_new_object(), *tree, *lv, *st;
	char name[32];
#define SCALAR(a, key, f, wide, names, n) \
	{ FTCTL_COL(FABRIC, a, key, NULL, struct ftobj_fabric, f, wide), names, n }
	static const struct {
		struct ftctl_col col;
		const char *const *names;	/* an enum's, by value */
		unsigned int n;
	} scalars[] = {
		SCALAR(PROFILE, "profile", profile, false, ftn_profile_names, FTN_PROFILE_NR),
		SCALAR(PROFILE_BASE, "profile_base", profile_base, false, NULL, 0),
		SCALAR(PROFILE_ROOT, "profile_root", profile_root, false, NULL, 0),
		SCALAR(PATH, "path", path, false, ftn_path_names, FTN_PATH_NR),
		SCALAR(INJECTION, "injection", injection, false, ftn_injection_names,
		       FTN_INJECTION_NR),
		SCALAR(ARBITRATION, "arbitration", arbitration, false, ftn_arbitration_names,
		       FTN_ARBITRATION_NR),
		SCALAR(PERIOD_NS, "period_ns", period_ns, true, NULL, 0),
		SCALAR(BACKLOG, "backlog", backlog, false, NULL, 0),
		SCALAR(SEED, "seed", seed, true, NULL, 0),
		SCALAR(CYCLE, "cycle", cycle, true, NULL, 0),
	};
	struct shape s;
	unsigned int i;

	fab_shape(f, &s);
	json_object_object_add(o, "name", json_object_new_string(f->name));
	json_object_object_add(o, "shape", json_object_new_string(s.name));
	jadd_u64(o, "levels", s.h);
	jadd_u64(o, "leaves", FTOBJ_HAS(f, FATTREE_A_FABRIC_LEAVES) ?
		 f->leaves : s.n);
	jadd_u64(o, "switches", s.switches);
	jadd_u64(o, "links", s.links);
	json_object_object_add(o, "down", jarray_u32(f->down, f->ndown));
	json_object_object_add(o, "up", jarray_u32(f->up, f->nup));
	json_object_object_add(o, "lanes", jarray_u32(f->lanes, f->nlanes));
	for (i = 0; i < FTCTL_ARRAY_SIZE(scalars); i++) {
		uint64_t v;
		bool has;

		ftctl_cols_read(&scalars[i].col, 1, f, f->has, &v, &has);
		if (!has)
			continue;
		if (scalars[i].names)
			json_object_object_add(o, scalars[i].col.key,
					       json_object_new_string(ftctl_enum_name(scalars[i].names,
										      scalars[i].n,
										      (uint32_t)v)));
		else
			jadd_u64(o, scalars[i].col.key, v);
	}
	tree = json_object_new_array();
	for (i = s.h + 1; i-- > 0;) {
		lv = json_object_new_object();
		jadd_u64(lv, "level", i);
		jadd_u64(lv, "nodes", s.nodes[i]);
		jadd_u64(lv, "up_ports", i < s.h ? f->up[i] : 0);
		if (i < s.h && s.lanes)
			jadd_u64(lv, "up_lanes", f->lanes[i]);
		jadd_u64(lv, "down_ports", i ? f->down[i - 1] : 0);
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
		if (FTOBJ_HAS(&f->stats, i))
			jadd_u64(st, ftctl_stat_name(i, name, sizeof(name)), f->stats.v[i]);
	json_object_object_add(o, "stats", st);
	if (FTOBJ_HAS(f, FATTREE_A_FABRIC_MODE))
		json_object_object_add(o, "mode",
				       json_object_new_string(ftctl_enum_name(ftn_mode_names,
									      FTN_MODE_NR,
									      f->mode)));
	if (has_saf(f))
		json_object_object_add(o, "saf", saf_json(f, s.h));
	return o;
}

/* FABRIC_GET of @name, or a dump when it is NULL. */
static int fab_get(struct ftctl *ctl, const char *name, const char *what,
		   struct ftnl_array *l)
{
	return FTCTL_FABRIC_REQ(ctl, FATTREE_CMD_FABRIC_GET, name ? 0 : NLM_F_DUMP,
				FATTREE_A_FABRIC_NAME, name, what, fab_reply, l);
}

int ftctl_fabric_lookup(struct ftctl *ctl, const char *name, const char *what,
			uint32_t *levels, uint32_t *leaves, uint64_t *cycle)
{
	struct ftnl_array l = { .size = sizeof(struct ftobj_fabric) };
	const struct ftobj_fabric *f = NULL;
	int rc;

	rc = fab_get(ctl, name, what, &l);
	if (!rc && l.n == 1)
		f = l.v;
	if (!rc && (!f || !FTOBJ_HAS(f, FATTREE_A_FABRIC_LEVELS) ||
		    !FTOBJ_HAS(f, FATTREE_A_FABRIC_LEAVES) ||
		    !FTOBJ_HAS(f, FATTREE_A_FABRIC_CYCLE)))
		rc = ftctl_fail(ctl, what, -EPROTO);
	if (!rc) {
		if (levels)
			*levels = f->levels;
		if (leaves)
			*leaves = f->leaves;
		if (cycle)
			*cycle = f->cycle;
	}
	free(l.v);
	return rc;
}

int ftctl_fabric_show(struct ftctl *ctl, const char *name, const char *what)
{
	struct ftnl_array l = { .size = sizeof(struct ftobj_fabric) };
	const struct ftobj_fabric *v;
	struct json_object *arr;
	size_t i;
	int rc;

	rc = fab_get(ctl, name, what, &l);
	if (rc) {
		free(l.v);
		return rc;
	}
	v = l.v;
	if (ctl->json) {
		arr = json_object_new_array();
		for (i = 0; i < l.n; i++)
			json_object_array_add(arr, fab_json(&v[i]));
		ftctl_json_print(arr);
		json_object_put(arr);
	} else {
		for (i = 0; i < l.n; i++) {
			if (i)
				printf("\n");
			fab_print_text(&v[i]);
		}
	}
	free(l.v);
	return FTCTL_EXIT_OK;
}
