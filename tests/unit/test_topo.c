// SPDX-License-Identifier: GPL-2.0
/* ft_topo: validation, numbering, H, paths, and seed 002's figures. */
#include "tap.h"
#include "harness.h"

static u32 ones[FT_MAX_LEVELS];

/* Seed 002's FT(l, w): m = (w..w), w = (1, w..w), one lane. */
static int ft_lw(struct ft_topo *t, u32 l, u32 w)
{
	u32 m[FT_MAX_LEVELS], ww[FT_MAX_LEVELS], i;

	for (i = 0; i < l; i++) {
		m[i] = w;
		ww[i] = i ? w : 1;
	}
	return ft_topo_init(t, l, m, ww, ones);
}

static void test_validation(void)
{
	struct ft_topo t;
	u32 m[8] = { 4, 4, 4 }, w[8] = { 1, 4, 4 }, c[8] = { 1, 1, 1 };
	u32 big[8] = { 1024, 1024, 2 };
	u32 wide[FT_MAX_LEVELS + 1], fat[8] = { 1, 1024, 1024, 1024 }, i;

	for (i = 0; i <= FT_MAX_LEVELS; i++)
		wide[i] = 2;

	tap_ok(!ft_topo_init(&t, 3, m, w, c), "FT(3,4) accepted");
	tap_ok(ft_topo_init(&t, 0, m, w, c) == -EINVAL, "h = 0 refused");
	tap_ok(ft_topo_init(&t, FT_MAX_LEVELS + 1, wide, wide, wide) == -EINVAL,
	       "h = FT_MAX_LEVELS + 1 refused");
	m[1] = 1;
	tap_ok(ft_topo_init(&t, 3, m, w, c) == -EINVAL, "m = 1 refused");
	m[1] = 4;
	w[2] = 0;
	tap_ok(ft_topo_init(&t, 3, m, w, c) == -EINVAL, "w = 0 refused");
	w[2] = 4;
	c[0] = 0;
	tap_ok(ft_topo_init(&t, 3, m, w, c) == -EINVAL, "0 lanes refused");
	c[0] = 65536;
	tap_ok(ft_topo_init(&t, 3, m, w, c) == -EINVAL,
	       "65536 lanes refused");
	c[0] = 1;
	tap_ok(ft_topo_init(&t, 3, big, w, c) == -EINVAL,
	       "2^21 leaves refused");
	tap_ok(ft_topo_init(&t, 4, wide, fat, ones) == -EINVAL && !t.n,
	       "link count overflow refused, topology left zeroed");
	tap_ok(!ft_topo_init(&t, 20, wide, ones, ones) && t.n == 1U << 20,
	       "binary tree of 2^20 leaves (20 levels) accepted");
}

static void test_counts(void)
{
	struct ft_topo t;
	int good;

	ft_lw(&t, 3, 4);
	good = t.n == 64 && t.nodes[0] == 64 && t.nodes[1] == 16 &&
	       t.nodes[2] == 16 && t.nodes[3] == 16;
	tap_ok(good, "FT(3,4): 64 leaves, 16 switches per level");
	good = t.link_base[1] == 0 && t.link_base[2] == 64 &&
	       t.link_base[3] == 128 && t.link_base[4] == 192 &&
	       ft_topo_dlinks(&t) == 384;
	tap_ok(good, "FT(3,4): 64 links per level, 384 directed");
	good = ft_topo_channels(&t, 0) == 64 && ft_topo_channels(&t, 1) == 16 &&
	       ft_topo_channels(&t, 2) == 4 && ft_topo_channel_cap(&t, 0) == 1 &&
	       ft_topo_channel_cap(&t, 1) == 4 && ft_topo_channel_cap(&t, 2) == 16;
	tap_ok(good, "FT(3,4): channels 64/16/4, capacities 1/4/16");
	ft_lw(&t, 3, 16);
	tap_ok(t.n == 4096 && ft_topo_dlinks(&t) == 24576,
	       "FT(3,16): 4096 leaves, 24576 directed links");
}

/* Every up link's parent and child find each other again. */
static void test_roundtrip(void)
{
	struct ft_rand r;
	struct ft_topo t;
	u32 trial, i, u, p, v, q, back, port, lvl, loc;
	u32 dir, id;
	int good = 1, dec = 1, onto = 1;

	ft_rand_seed(&r, 11);
	for (trial = 0; trial < 200; trial++) {
		if (random_topo(&r, &t, 5))
			continue;
		for (i = 1; i <= t.h; i++) {
			u32 *hits = calloc(t.nodes[i] * t.m[i] + 1, 4);

			for (u = 0; u < t.nodes[i - 1]; u++) {
				for (p = 0; p < t.w[i]; p++) {
					v = ft_topo_up(&t, i, u, p);
					q = (u / t.wprod[i - 1]) % t.m[i];
					back = ft_topo_down(&t, i, v, q, &port);
					good &= v < t.nodes[i];
					good &= back == u && port == p;
					hits[v * t.m[i] + q]++;
					id = ft_topo_dlink(&t, i,
							   u * t.w[i] + p,
							   FT_DOWN);
					ft_topo_dlink_decode(&t, id, &lvl,
							     &loc, &dir);
					dec &= lvl == i && loc == u * t.w[i] + p &&
					       dir == FT_DOWN;
				}
			}
			for (u = 0; u < t.nodes[i] * t.m[i]; u++)
				onto &= hits[u] == 1;
			free(hits);
		}
	}
	tap_ok(good, "up-port then down-port returns to the child (200 XGFTs)");
	tap_ok(onto, "each switch down-port has exactly one child");
	tap_ok(dec, "directed link ids decode to level, link, direction");
}

/*
 * A link's coordinates (level, lower node, up-port, direction): every
 * directed link id of 200 XGFTs decodes to coordinates that check and
 * encode back to it, and every id is reached once; coordinates just past
 * each range are refused, naming the coordinate.
 */
static void test_link_coords(void)
{
	u32 trial, id, lvl, node, port, dir, n;
	int back = 1, once = 1, edges = 1;
	struct ft_rand r;
	struct ft_topo t;
	u8 *seen;

	ft_rand_seed(&r, 29);
	for (trial = 0; trial < 200; trial++) {
		if (random_topo(&r, &t, 5))
			continue;
		n = ft_topo_dlinks(&t);
		seen = calloc(n, 1);
		for (id = 0; id < n; id++) {
			ft_topo_link_decode(&t, id, &lvl, &node, &port, &dir);
			back &= ft_topo_link_check(&t, lvl, node, port) ==
				FT_TOPO_LINK_OK &&
				ft_topo_link(&t, lvl, node, port, dir) == id;
		}
		for (lvl = 1; lvl <= t.h; lvl++)
			for (node = 0; node < t.nodes[lvl - 1]; node++)
				for (port = 0; port < t.w[lvl]; port++)
					for (dir = FT_UP; dir <= FT_DOWN; dir++) {
						id = ft_topo_link(&t, lvl, node, port,
								  dir);
						once &= id < n && !seen[id]++;
					}
		free(seen);
		lvl = t.h;
		edges &= ft_topo_link_check(&t, 0, 0, 0) == FT_TOPO_LINK_LEVEL &&
			 ft_topo_link_check(&t, lvl + 1, 0, 0) ==
			 FT_TOPO_LINK_LEVEL &&
			 ft_topo_link_check(&t, lvl, t.nodes[lvl - 1], 0) ==
			 FT_TOPO_LINK_NODE &&
			 ft_topo_link_check(&t, lvl, t.nodes[lvl - 1] - 1,
					    t.w[lvl]) == FT_TOPO_LINK_PORT &&
			 ft_topo_link_check(&t, lvl, t.nodes[lvl - 1] - 1,
					    t.w[lvl] - 1) == FT_TOPO_LINK_OK;
	}
	tap_ok(back, "link ids decode to coordinates that check and encode back");
	tap_ok(once, "the coordinates of a fabric reach each directed link once");
	tap_ok(edges, "level 0, level h + 1, node and port past the end refused");
}

/* H by walking both leaves up through port 0 until they meet. */
static u32 brute_h(const struct ft_topo *t, u32 s, u32 d)
{
	u32 i;

	for (i = 1; s != d; i++) {
		s = ft_topo_up(t, i, s, 0);
		d = ft_topo_up(t, i, d, 0);
	}
	return i - 1;
}

static void test_common_level(void)
{
	struct ft_rand r;
	struct ft_topo t;
	u32 trial, s, d;
	int good = 1;

	ft_rand_seed(&r, 12);
	for (trial = 0; trial < 100; trial++) {
		if (random_topo(&r, &t, 5))
			continue;
		for (s = 0; s < t.n; s++)
			for (d = 0; d < t.n; d++)
				good &= ft_topo_common_level(&t, s, d) ==
					brute_h(&t, s, d);
	}
	tap_ok(good, "H(s, d) equals the level where port-0 walks meet");
	ft_rand_seed(&r, 13);
	for (good = 1, trial = 0; trial < 100; trial++) {
		struct ft_cycle_scratch sc;
		size_t sz;
		void *mem;

		if (random_topo(&r, &t, 5))
			continue;
		sz = ft_cycle_scratch_size(&t, 1);
		mem = calloc(1, sz);
		good &= mem && !ft_cycle_scratch_init(&sc, &t, 1, mem, sz);
		for (s = 0; mem && s < t.n; s++)
			for (d = 0; d < t.n; d++)
				good &= ft_cycle_common_level(&sc, s, d) ==
					ft_topo_common_level(&t, s, d);
		free(mem);
	}
	tap_ok(good, "the cycle's H (multiplications) equals ft_topo's (divisions)");
	ft_lw(&t, 4, 4);
	tap_ok(ft_topo_common_level(&t, 3, 95) == 4 &&
	       ft_topo_common_level(&t, 5, 5) == 0 &&
	       ft_topo_common_level(&t, 4, 7) == 1,
	       "FT(4,4): H(3,95) = 4 (seed 002's 3), H(5,5) = 0, H(4,7) = 1");
}

/* A path is connected, starts at s, ends at d, and reuses its ports. */
static int path_ok(const struct ft_topo *t, u32 s, u32 d, const u32 *port,
		   const struct ft_path *p)
{
	u32 hh = ft_topo_common_level(t, s, d), k, lvl, loc, dir, node = s;
	u32 top = 0;

	if (p->n != 2 * hh)
		return 0;
	for (k = 0; k < hh; k++) {
		ft_topo_dlink_decode(t, p->link[k], &lvl, &loc, &dir);
		if (lvl != k + 1 || dir != FT_UP || loc / t->w[lvl] != node ||
		    loc % t->w[lvl] != port[k])
			return 0;
		node = ft_topo_up(t, lvl, node, port[k]);
	}
	top = node;
	for (k = hh; k < 2 * hh; k++) {
		ft_topo_dlink_decode(t, p->link[k], &lvl, &loc, &dir);
		if (lvl != 2 * hh - k || dir != FT_DOWN ||
		    loc % t->w[lvl] != port[lvl - 1] ||
		    ft_topo_up(t, lvl, loc / t->w[lvl], loc % t->w[lvl]) !=
		    (k == hh ? top : node))
			return 0;
		node = loc / t->w[lvl];
	}
	return node == d;
}

static void test_paths(void)
{
	struct ft_rand r;
	struct ft_topo t;
	struct ft_path p;
	u32 trial, s, d, k, port[8];
	int good = 1;

	ft_rand_seed(&r, 13);
	for (trial = 0; trial < 2000; trial++) {
		if (random_topo(&r, &t, 6))
			continue;
		s = ft_rand_below(&r, t.n);
		d = ft_rand_below(&r, t.n);
		for (k = 0; k < t.h; k++)
			port[k] = ft_rand_below(&r, t.w[k + 1]);
		good &= !ft_topo_path(&t, s, d, port, &p);
		good &= path_ok(&t, s, d, port, &p);
	}
	tap_ok(good, "random paths are connected, s to d, same ports down");
	ft_lw(&t, 3, 4);
	port[0] = 0;
	port[1] = 4;
	port[2] = 0;
	tap_ok(ft_topo_path(&t, 0, 32, port, &p) == -EINVAL,
	       "a port beyond w is refused");
	tap_ok(ft_topo_path(&t, 0, 64, port, &p) == -EINVAL,
	       "a leaf beyond n is refused");
}

/* Seed 002 Fig. 2: SW(0,0) -> SW(0,6) with P_0 = 1 lands on Dlink(0,6,1). */
static void test_fig2(void)
{
	struct ft_topo t;
	struct ft_path p;
	u32 port[3], p3, want;
	int good = 1;

	ft_lw(&t, 3, 4);
	want = ft_topo_dlink(&t, 2, 6 * 4 + 1, FT_DOWN);	/* Dlink(0,6,1) */
	for (p3 = 0; p3 < 4; p3++) {
		port[0] = 0;	/* w_1 = 1 */
		port[1] = 1;	/* their P_0 */
		port[2] = p3;	/* their P_1: any */
		good &= !ft_topo_path(&t, 0, 24, port, &p);
		good &= p.n == 6 && p.link[4] == want;
		good &= p.link[1] == ft_topo_dlink(&t, 2, 0 * 4 + 1, FT_UP);
	}
	tap_ok(good, "seed 002 fig. 2: SW(0,0)->SW(0,6), P_0 = 1 uses "
	       "Ulink(0,0,1) and Dlink(0,6,1)");
}

static u32 shared_links(const struct ft_path *a, const struct ft_path *b,
			u32 *which)
{
	u32 i, j, n = 0;

	for (i = 0; i < a->n; i++)
		for (j = 0; j < b->n; j++)
			if (a->link[i] == b->link[j]) {
				*which = a->link[i];
				n++;
			}
	return n;
}

/* Seed 002 Fig. 4: SW(0,0) and SW(0,1) both to SW(0,8). */
static void test_fig4(void)
{
	struct ft_topo t;
	struct ft_path a, b;
	u32 pa[3] = { 0, 0, 0 }, pb[3] = { 0, 0, 1 }, which = 0;

	ft_lw(&t, 3, 4);
	ft_topo_path(&t, 0, 32, pa, &a);
	ft_topo_path(&t, 4, 33, pb, &b);
	tap_ok(shared_links(&a, &b, &which) == 1 &&
	       which == ft_topo_dlink(&t, 2, 8 * 4 + 0, FT_DOWN),
	       "seed 002 fig. 4: both P_0 = 0 collide on Dlink(0,8,0) only");
	pb[1] = 1;
	ft_topo_path(&t, 4, 33, pb, &b);
	tap_ok(shared_links(&a, &b, &which) == 0,
	       "seed 002 fig. 4: the second on P_0 = 1 shares no link");
}

/* Seed 002 Figure 7's level-wise choice, for figure 8. */
static void levelwise(const struct ft_topo *t, const struct ft_lanes *l,
		      u32 s, u32 d, u32 *port)
{
	u32 hh = ft_topo_common_level(t, s, d), i, p, y = 0, us, ds;

	for (i = 1; i <= hh; i++) {
		us = ft_topo_node(t, i - 1, s / t->mprod[i - 1], y) * t->w[i];
		ds = ft_topo_node(t, i - 1, d / t->mprod[i - 1], y) * t->w[i];
		for (p = 0; p < t->w[i]; p++)
			if (ft_lanes_free(l, ft_topo_dlink(t, i, us + p, FT_UP)) &&
			    ft_lanes_free(l, ft_topo_dlink(t, i, ds + p,
							   FT_DOWN)))
				break;
		port[i - 1] = p;
		y = y * t->w[i] + p;
	}
}

static void test_fig8(void)
{
	struct ft_topo t;
	struct ft_lanes l;
	struct ft_path busy = { .n = 1 }, p;
	u32 port[4];
	int good;

	ft_lw(&t, 4, 4);
	ft_lanes_init(&l, &t);
	tap_ok(ft_topo_up(&t, 1, 3, 0) == 0 && ft_topo_up(&t, 1, 95, 0) == 23 &&
	       ft_topo_leaf_switch(&t, 95) == 23 &&
	       ft_topo_digit(&t, 95, 4) == 1 && ft_topo_digit(&t, 95, 3) == 1 &&
	       ft_topo_digit(&t, 95, 2) == 3 && ft_topo_digit(&t, 95, 1) == 3,
	       "seed 002 fig. 8: sigma0 = 000, delta0 = 113, 95 = 1133 (base 4)");
	/* Ulink(1, 000, 0) is taken by an earlier circuit. */
	busy.link[0] = ft_topo_dlink(&t, 3, 0 * 4 + 0, FT_UP);
	ft_lanes_reserve(&l, &busy, 1);
	levelwise(&t, &l, 3, 95, port);
	good = port[0] == 0 && port[1] == 0 && port[2] == 1 && port[3] == 0;
	tap_ok(good, "seed 002 fig. 8: ports (0,1,0) [ours %u,%u,%u,%u]",
	       port[0], port[1], port[2], port[3]);
	good = ft_topo_node(&t, 2, 3 / 16, port[1]) == 0 &&	/* 000 */
	       ft_topo_node(&t, 2, 95 / 16, port[1]) == 20 &&	/* 110 */
	       ft_topo_node(&t, 3, 3 / 64, port[1] * 4 + port[2]) == 1 &&
	       ft_topo_node(&t, 3, 95 / 64, port[1] * 4 + port[2]) == 17;
	tap_ok(good, "seed 002 fig. 8: sigma1 000, delta1 110, "
	       "sigma2 001, delta2 101");
	ft_topo_path(&t, 3, 95, port, &p);
	good = p.n == 8 &&
	       p.link[2] == ft_topo_dlink(&t, 3, 0 * 4 + 1, FT_UP) &&
	       p.link[3] == ft_topo_dlink(&t, 4, 1 * 4 + 0, FT_UP) &&
	       p.link[4] == ft_topo_dlink(&t, 4, 17 * 4 + 0, FT_DOWN) &&
	       p.link[5] == ft_topo_dlink(&t, 3, 20 * 4 + 1, FT_DOWN) &&
	       p.link[6] == ft_topo_dlink(&t, 2, 23 * 4 + 0, FT_DOWN);
	tap_ok(good, "seed 002 fig. 8: Ulink(1,000,1) Ulink(2,001,0) "
	       "Dlink(2,101,0) Dlink(1,110,1) Dlink(0,113,0)");
	tap_ok(!ft_lanes_reserve(&l, &p, 1), "seed 002 fig. 8: granted");
	ft_lanes_destroy(&l);
}

static void test_dmodk(void)
{
	struct ft_topo t;
	u32 d, ok = 1;

	ft_lw(&t, 3, 4);
	for (d = 0; d < 64; d++)
		ok &= ft_topo_dmodk_port(&t, d, 1) == 0 &&
		      ft_topo_dmodk_port(&t, d, 2) == d % 4 &&
		      ft_topo_dmodk_port(&t, d, 3) == (d / 4) % 4;
	tap_ok(ok, "dmodk: P_1 = 0, P_2 = d mod 4, P_3 = (d div 4) mod 4");
}

/* Division by multiplication: exact below 2^FT_RECIP_BITS. */
static void test_recip(void)
{
	static const u32 every[] = { 1, 3, 7, 12, 1000, 65537, (1U << 24) - 1 };
	static const u32 some[] = { 2, 4, 5, 6, 9, 255, 256, 4095, 46341,
				    (1U << 23) + 1, 1U << 24 };
	struct ft_recip rc;
	struct ft_rand r;
	u32 i, x, bad = 0;

	for (i = 0; i < sizeof(every) / sizeof(every[0]); i++) {
		ft_recip_init(&rc, every[i]);
		for (x = 0; x < 1U << FT_RECIP_BITS; x++)
			bad += ft_recip_div(&rc, x) != x / every[i];
	}
	tap_ok(!bad, "x / d by multiply and shift, every x < 2^24, 7 divisors");
	ft_rand_seed(&r, 14);
	for (i = 0; i < sizeof(some) / sizeof(some[0]); i++) {
		ft_recip_init(&rc, some[i]);
		for (x = 0; x < 100000; x++) {
			u32 v = (u32)ft_rand_below(&r, 1U << FT_RECIP_BITS);

			bad += ft_recip_div(&rc, v) != v / some[i];
			/* around multiples of d, where rounding bites */
			v = (u32)ft_rand_below(&r, ((1U << FT_RECIP_BITS) - 1) /
					       some[i] + 1) * some[i];
			bad += ft_recip_div(&rc, v) != v / some[i];
			if (v)
				bad += ft_recip_div(&rc, v - 1) != (v - 1) / some[i];
		}
	}
	tap_ok(!bad, "x / d by multiply and shift, random x and multiples of d, 11 divisors");
}

int main(void)
{
	u32 i;

	for (i = 0; i < FT_MAX_LEVELS; i++)
		ones[i] = 1;
	test_validation();
	test_counts();
	test_roundtrip();
	test_link_coords();
	test_recip();
	test_common_level();
	test_paths();
	test_fig2();
	test_fig4();
	test_fig8();
	test_dmodk();
	return tap_done();
}
