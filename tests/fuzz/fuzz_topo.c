// SPDX-License-Identifier: GPL-2.0
/*
 * Harness: topology parameters and paths (kmod/core ft_topo, ft_profile,
 * ft_fabric_init).
 *
 * Any h, m, w and lanes: ft_topo_init() succeeds exactly when the model
 * (fz_model.c) allows the shape, and then every derived count is the
 * model's. Any capacity profile: ft_profile_lanes() refuses, or gives
 * lanes in range rounded up from the profile's own channel capacity,
 * which is checked against its formula. Small shapes also go through
 * ft_fabric_init() with arbitrary policies, injection constants and
 * scratch sizes: it succeeds exactly when they are valid, else leaves the
 * fabric zeroed. Then leaf pairs and up-ports: ft_topo_path() refuses
 * exactly the bad ones and every path it gives is the model's, every link
 * decodes to its level, place and direction, and up and down are inverse.
 */
#include <stdint.h>
#include <stdio.h>

#include "ft_fabric.h"
#include "ft_load.h"
#include "ft_math.h"
#include "fz_bytes.h"
#include "fz_model.h"
#include "fz_trap.h"

/* Fabrics small enough to allocate for every input. */
#define SMALL_DLINKS	(1U << 14)
#define SMALL_MSGS	1024U
#define PATHS		16

typedef unsigned __int128 u128;

/* Mostly small values, sometimes anything: boundaries get hit. */
static u32 pick(struct fz_bytes *b, u32 lo, u32 hi)
{
	switch (fz_u8(b) & 7) {
	case 0:
		return fz_u16(b);
	case 1:
		return fz_u32(b);
	default:
		return fz_range(b, lo, hi);
	}
}

/* The profile's channel capacity against its formula (ft_profile.h). */
static void check_cap(const struct ft_profile *p, u64 n, u64 s, u64 cap)
{
	u128 b = p->base ? p->base : 1, q = cap, r = n / s, w = p->root;

	switch (p->kind) {
	case FT_PROFILE_DOUBLING:
		FZ_CHECK(q == b * s, "doubling: cap %llu", (unsigned long long)cap);
		return;
	case FT_PROFILE_STANDARD:
		FZ_CHECK(q == b << (ft_ilog2_floor(s) / 2), "standard: cap %llu",
			 (unsigned long long)cap);
		return;
	case FT_PROFILE_AREA:		/* smallest q with q^2 >= b^2 S */
		FZ_CHECK(q * q >= b * b * s && (q - 1) * (q - 1) < b * b * s,
			 "area: cap %llu for S %llu", (unsigned long long)cap,
			 (unsigned long long)s);
		return;
	case FT_PROFILE_VOLUME:		/* smallest q with q^3 >= b^3 S^2 */
		FZ_CHECK(q * q * q >= b * b * b * s * s &&
			 (q - 1) * (q - 1) * (q - 1) < b * b * b * s * s,
			 "volume: cap %llu for S %llu", (unsigned long long)cap,
			 (unsigned long long)s);
		return;
	case FT_PROFILE_UNIVERSAL:	/* min(S, smallest q: q^3 r^2 >= w^3) */
		FZ_CHECK(q <= s, "universal: cap %llu above S", (unsigned long long)cap);
		if (q < s)
			FZ_CHECK(q * q * q * r * r >= w * w * w &&
				 (q - 1) * (q - 1) * (q - 1) * r * r < w * w * w,
				 "universal: cap %llu for S %llu", (unsigned long long)cap,
				 (unsigned long long)s);
		return;
	default:
		fz_fail("channel capacity of profile kind %d", p->kind);
	}
}

static void check_profile(const struct ft_profile *p, u32 h, const u32 *m,
			  const u32 *w, const u32 *lanes)
{
	u64 n = 1, s = 1, wp = 1, cap, links;
	u32 i;

	for (i = 0; i < h; i++)
		n *= m[i];
	for (i = 0; i < h; i++) {
		FZ_CHECK(lanes[i] >= 1 && lanes[i] <= FT_MAX_LANES,
			 "profile gave %u lanes at level %u", lanes[i], i + 1);
		if (p->kind == FT_PROFILE_CONSTANT)
			FZ_CHECK(lanes[i] == p->base, "constant: %u lanes", lanes[i]);
		else if (p->kind == FT_PROFILE_EXPLICIT)
			FZ_CHECK(lanes[i] == p->table[i], "explicit: %u lanes", lanes[i]);
		else {
			FZ_CHECK(!ft_profile_channel_cap(p, (u32)n, s, &cap),
				 "lanes given, capacity refused");
			check_cap(p, n, s, cap);
			/* rounded up over the channel's links, at least 1 */
			links = wp * w[i];
			FZ_CHECK((u128)lanes[i] * links >= cap &&
				 (lanes[i] == 1 || (u128)(lanes[i] - 1) * links < cap),
				 "level %u: %u lanes on %llu links for capacity %llu",
				 i + 1, lanes[i], (unsigned long long)links,
				 (unsigned long long)cap);
		}
		s *= m[i];
		wp *= w[i];
	}
}

/* ft_inject_init()'s rule for its constants (ft_inject.h). */
static bool inject_ok(const struct ft_inject_params *ip, const struct ft_topo *t)
{
	u64 r = ip->r_q16 ? ip->r_q16 : ft_congestion_r(t);
	u64 k1 = ip->k1_q16 ? ip->k1_q16 : 4 * r, k2 = ip->k2_q16 ? ip->k2_q16 : r;

	return ip->rule < FT_INJECT_NR && r >= FT_Q16_ONE &&
	       r <= FT_INJECT_MAX_PARAM / 4 && k1 <= FT_INJECT_MAX_PARAM &&
	       k2 <= FT_INJECT_MAX_PARAM;
}

static void check_fabric(struct fz_bytes *b, const struct fz_model *md,
			 const struct ft_topo *t, u32 h, const u32 *m,
			 const u32 *w, const struct ft_profile *prof)
{
	static const struct ft_fabric zero;
	struct ft_fabric_params p = { .h = h, .profile = *prof };
	struct ft_cycle_result res;
	u32 i, lvl, local, dir;
	struct ft_fabric f;
	char why[160];
	bool ok;
	int err;

	memcpy(p.m, m, sizeof(p.m));
	memcpy(p.w, w, sizeof(p.w));
	p.path = fz_range(b, 0, FT_PATH_NR);
	p.arb = fz_range(b, 0, FT_ARB_NR);
	p.inject.rule = fz_range(b, 0, FT_INJECT_NR);
	p.inject.r_q16 = pick(b, 0, 8 << FT_Q16_SHIFT);
	p.inject.k1_q16 = pick(b, 0, 64 << FT_Q16_SHIFT);
	p.inject.k2_q16 = pick(b, 0, 64 << FT_Q16_SHIFT);
	p.seed = fz_u64(b);
	p.max_msgs = fz_range(b, 0, SMALL_MSGS);
	ok = p.path < FT_PATH_NR && p.arb < FT_ARB_NR && p.max_msgs &&
	     inject_ok(&p.inject, t);
	err = ft_fabric_init(&f, &p);
	FZ_CHECK(!err == ok, "ft_fabric_init: %d, expected %s", err,
		 ok ? "success" : "a refusal");
	if (err) {
		FZ_CHECK(!memcmp(&f, &zero, sizeof(f)), "refused fabric not zeroed");
		return;
	}
	FZ_CHECK(!fz_model_topo(md, &f.topo, why, sizeof(why)),
		 "fabric topology: %s", why);
	for (i = 0; i < f.lanes.n; i++) {
		ft_topo_dlink_decode(&f.topo, i, &lvl, &local, &dir);
		FZ_CHECK(f.lanes.link[i].lanes == md->lv[lvl].lanes &&
			 !f.lanes.link[i].reserved,
			 "link %u: %u lanes, %u reserved at creation", i,
			 f.lanes.link[i].lanes, f.lanes.link[i].reserved);
	}
	FZ_CHECK(ft_fabric_mem_size(&f) > 0, "fabric of no size");
	err = ft_fabric_cycle(&f, NULL, NULL, 0, &res);
	FZ_CHECK(!err && !res.offered && !res.delivered && f.cycle == 1,
		 "an empty cycle: %d", err);
	ft_fabric_destroy(&f);
}

/* One path: refused exactly when bad, else the model's, links decoded. */
static void check_path(struct fz_bytes *b, const struct fz_model *md,
		       const struct ft_topo *t)
{
	u32 port[FT_MAX_LEVELS], src, dst, hh, i, lvl, local, dir;
	struct ft_path path;
	bool bad;
	char why[160];
	u64 y = 0, child, parent;
	int err;

	src = fz_u8(b) & 1 ? fz_u32(b) : fz_range(b, 0, t->n - 1);
	dst = fz_u8(b) & 1 ? fz_u32(b) : fz_range(b, 0, t->n - 1);
	for (i = 0; i < FT_MAX_LEVELS; i++)
		port[i] = i < t->h ? pick(b, 0, t->w[i + 1] - 1) : 0;
	bad = src >= t->n || dst >= t->n;
	hh = bad ? 0 : fz_model_common(md, src, dst);
	for (i = 1; i <= hh; i++)
		bad |= port[i - 1] >= t->w[i];
	err = ft_topo_path(t, src, dst, port, &path);
	FZ_CHECK(!err == !bad, "ft_topo_path(%u, %u): %d, expected %s", src, dst,
		 err, bad ? "a refusal" : "a path");
	if (err)
		return;
	FZ_CHECK(ft_topo_common_level(t, src, dst) == hh, "common level of %u, %u",
		 src, dst);
	FZ_CHECK(!fz_model_path(md, src, dst, port, &path, why, sizeof(why)),
		 "path %u -> %u: %s", src, dst, why);
	for (i = 0; i < path.n; i++) {
		ft_topo_dlink_decode(t, path.link[i], &lvl, &local, &dir);
		FZ_CHECK(lvl == (i < hh ? i + 1 : 2 * hh - i) &&
			 dir == (i < hh ? FT_UP : FT_DOWN) &&
			 ft_topo_dlink(t, lvl, local, dir) == path.link[i],
			 "link %u decodes to level %u local %u dir %u", path.link[i],
			 lvl, local, dir);
	}
	for (i = 1; i <= hh; i++) {
		child = src / md->lv[i - 1].mp * md->lv[i - 1].wp + y;
		y = y * md->lv[i].w + port[i - 1];
		parent = src / md->lv[i].mp * md->lv[i].wp + y;
		FZ_CHECK(ft_topo_up(t, i, (u32)child, port[i - 1]) == parent,
			 "ft_topo_up(%u, %llu, %u)", i, (unsigned long long)child,
			 port[i - 1]);
		FZ_CHECK(ft_topo_down(t, i, (u32)parent,
				      (u32)(src / md->lv[i - 1].mp % md->lv[i].m),
				      &lvl) == child && lvl == port[i - 1],
			 "ft_topo_down(%u, %llu)", i, (unsigned long long)parent);
		FZ_CHECK(ft_topo_dmodk_port(t, dst, i) < t->w[i], "dmodk port");
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fz_bytes b = { data, size };
	u32 m[FT_MAX_LEVELS], w[FT_MAX_LEVELS], lanes[FT_MAX_LEVELS];
	u32 plan[FT_MAX_LEVELS], h, i;
	struct ft_profile prof = { 0 };
	struct fz_model md;
	struct ft_topo t;
	bool use_profile, valid;
	char why[160];
	int err;

	use_profile = fz_u8(&b) & 1;
	h = fz_range(&b, 0, FT_MAX_LEVELS + 1);
	memset(m, 0, sizeof(m));
	memset(w, 0, sizeof(w));
	memset(lanes, 0, sizeof(lanes));
	for (i = 0; i < h && i < FT_MAX_LEVELS; i++) {
		m[i] = pick(&b, 2, 6);
		w[i] = pick(&b, 1, 4);
		lanes[i] = pick(&b, 1, 4);
	}
	prof.kind = fz_range(&b, 0, FT_PROFILE_EXPLICIT + 1);
	prof.base = pick(&b, 0, 8);
	prof.root = pick(&b, 0, 64);
	memcpy(prof.table, lanes, sizeof(prof.table));

	err = ft_profile_lanes(&prof, h, m, w, plan);
	if (!err)
		check_profile(&prof, h, m, w, plan);
	if (use_profile) {
		if (err)
			return 0;
		memcpy(lanes, plan, sizeof(lanes));
	}

	valid = fz_model_init(&md, h, m, w, lanes);
	err = ft_topo_init(&t, h, m, w, lanes);
	FZ_CHECK(!err == valid, "ft_topo_init: %d, the model says %s", err,
		 valid ? "valid" : "invalid");
	if (err)
		return 0;
	FZ_CHECK(!fz_model_topo(&md, &t, why, sizeof(why)), "topology: %s", why);
	if (use_profile && 2 * md.lv[h + 1].base <= SMALL_DLINKS)
		check_fabric(&b, &md, &t, h, m, w, &prof);
	for (i = 0; i < PATHS && fz_more(&b); i++)
		check_path(&b, &md, &t);
	return 0;
}
