// SPDX-License-Identifier: GPL-2.0
/* Channel loads and lambda: hand-computed sets and a brute-force check. */
#include "tap.h"
#include "harness.h"

static u32 two[FT_MAX_LEVELS] = { [0 ... FT_MAX_LEVELS - 1] = 2 };
static u32 one[FT_MAX_LEVELS] = { [0 ... FT_MAX_LEVELS - 1] = 1 };

static int lambda_of(const struct ft_topo *t, const struct ft_demand *dm,
		     u32 nd, struct ft_lambda *out)
{
	u32 *loads = calloc(1, ft_load_scratch_size(t));
	u32 i, dirty = 0;
	int err = ft_lambda(t, dm, nd, loads, out);

	for (i = 0; i < ft_topo_channels_total(t); i++)
		dirty |= loads[i];
	free(loads);
	return dirty ? -1000 : err;
}

static void test_binary(void)
{
	static const u32 lanes_dbl[3] = { 1, 2, 4 };
	struct ft_demand a[5] = {
		{ 0, 7, 1 }, { 1, 6, 1 }, { 2, 5, 1 }, { 3, 4, 1 }, { 0, 4, 1 },
	};
	struct ft_topo t;
	struct ft_lambda l;

	ft_topo_init(&t, 3, two, one, one);
	tap_ok(!lambda_of(&t, a, 1, &l) && l.load == 1 && l.cap == 1 &&
	       l.milli == 1000, "one message: lambda = 1");
	tap_ok(!lambda_of(&t, a, 2, &l) && l.load == 2 && l.cap == 1 &&
	       l.level == 1 && l.subtree == 0 && l.dir == FT_UP &&
	       l.milli == 2000,
	       "0->7, 1->6 on unit capacities: lambda 2 on subtree {0,1} up");
	ft_topo_init(&t, 3, two, one, lanes_dbl);
	tap_ok(!lambda_of(&t, a, 4, &l) && l.milli == 1000,
	       "reversal of 8 on doubling capacities: lambda = 1");
	tap_ok(!lambda_of(&t, a, 5, &l) && l.load == 2 && l.cap == 1 &&
	       l.level == 0 && l.subtree == 0 && l.dir == FT_UP,
	       "plus 0->4: lambda 2 on leaf 0's up channel");
	tap_ok(!lambda_of(&t, a, 0, &l) && l.load == 0 && l.milli == 0,
	       "empty set: lambda 0");
}

static void test_fraction(void)
{
	static const u32 lanes[2] = { 2, 3 };
	struct ft_demand a[2] = { { 0, 2, 1 }, { 1, 3, 1 } };
	struct ft_topo t;
	struct ft_lambda l;

	ft_topo_init(&t, 2, two, one, lanes);
	tap_ok(!lambda_of(&t, a, 2, &l) && l.load == 2 && l.cap == 3 &&
	       l.milli == 667, "lambda = 2/3 reported as 2/3 and 667 milli");
}

static void test_hotspot(void)
{
	static const u32 m[3] = { 4, 4, 4 }, w[3] = { 1, 4, 4 };
	struct ft_demand a[63];
	struct ft_topo t;
	struct ft_lambda l;
	u32 i;

	ft_topo_init(&t, 3, m, w, one);
	for (i = 0; i < 63; i++) {
		a[i].src = i + 1;
		a[i].dst = 0;
		a[i].count = 1;
	}
	tap_ok(!lambda_of(&t, a, 63, &l) && l.load == 63 && l.cap == 1 &&
	       l.level == 0 && l.dir == FT_DOWN && l.subtree == 0,
	       "FT(3,4) all-to-one: lambda 63 on leaf 0's down channel");
	a[0].src = 64;
	tap_ok(lambda_of(&t, a, 63, &l) == -EINVAL, "leaf out of range");
	a[0].src = 1;
	a[0].count = 0xffffffffU;
	tap_ok(lambda_of(&t, a, 63, &l) == -ERANGE, "load overflow refused");
}

/* Load by definition: the messages whose path crosses the channel. */
static u64 brute_load(const struct ft_topo *t, const struct ft_demand *dm,
		      u32 nd, u32 lvl, u32 x, u32 dir)
{
	u64 sum = 0;
	u32 k, hh, leaf;

	for (k = 0; k < nd; k++) {
		hh = ft_topo_common_level(t, dm[k].src, dm[k].dst);
		leaf = dir == FT_UP ? dm[k].src : dm[k].dst;
		if (lvl < hh && leaf / t->mprod[lvl] == x)
			sum += dm[k].count;
	}
	return sum;
}

static void test_brute(void)
{
	struct ft_rand r;
	struct ft_topo t;
	struct ft_demand dm[64];
	struct ft_lambda l;
	u32 trial, nd, k, lvl, x, dir;
	u32 *loads;
	int good = 1, agree = 1;

	ft_rand_seed(&r, 21);
	for (trial = 0; trial < 300; trial++) {
		if (random_topo(&r, &t, 4))
			continue;
		nd = 1 + ft_rand_below(&r, 64);
		for (k = 0; k < nd; k++) {
			dm[k].src = ft_rand_below(&r, t.n);
			dm[k].dst = ft_rand_below(&r, t.n);
			dm[k].count = 1 + ft_rand_below(&r, 5);
		}
		loads = calloc(1, ft_load_scratch_size(&t));
		ft_load_add(&t, dm, nd, loads);
		double best = 0;

		for (lvl = 0; lvl < t.h; lvl++)
			for (x = 0; x < ft_topo_channels(&t, lvl); x++)
				for (dir = 0; dir < 2; dir++) {
					u64 b = brute_load(&t, dm, nd, lvl, x,
							   dir);
					double f = (double)b /
						   ft_topo_channel_cap(&t, lvl);

					good &= loads[ft_load_channel(&t, lvl, x,
								      dir)] == b;
					if (f > best)
						best = f;
				}
		free(loads);
		agree &= !lambda_of(&t, dm, nd, &l) &&
			 (double)l.load / l.cap == best &&
			 brute_load(&t, dm, nd, l.level, l.subtree, l.dir) ==
			 l.load;
	}
	tap_ok(good, "ft_load_add equals the definition on 300 random sets");
	tap_ok(agree, "ft_lambda finds the max ratio and its channel, and "
	       "leaves its scratch zeroed");
}

int main(void)
{
	test_binary();
	test_fraction();
	test_hotspot();
	test_brute();
	return tap_done();
}
