// SPDX-License-Identifier: GPL-2.0
/* The validator itself: it accepts sound schedules and catches bad ones. */
#include "../unit/tap.h"
#include "util.h"

static struct ft_sched_req q[64];
static struct ft_sched_out out[64], bad[64];
static char why[256];

static int round_ok(const struct ft_topo *t, const u32 *before,
		    const u32 *after, bool exact)
{
	why[0] = 0;
	return !ft_sched_check_round(t, before, after, exact, q, 64, bad, why,
				     sizeof(why));
}

static void test_round(void)
{
	struct ft_topo t;
	struct ft_sched *s;
	struct ft_sched_opts o;
	struct ft_rand r;
	u32 perm[64], nd, *before, *after, a = 0, b, i;

	ft_rand_seed(&r, 11);
	ft_lw(&t, 3, 4, 1);
	nd = ft_topo_dlinks(&t);
	s = ft_sched_create(&t);
	before = malloc(nd * 4);
	after = malloc(nd * 4);
	memcpy(before, ft_sched_free_lanes(s), nd * 4);
	ft_rand_perm(&r, perm, 64);
	perm_reqs(q, perm, 64, 1);
	ft_sched_opts_default(&o, FT_SCHED_LEVELWISE);
	ft_sched_run(s, &o, q, 64, out, NULL);
	memcpy(after, ft_sched_free_lanes(s), nd * 4);
	memcpy(bad, out, sizeof(out));
	tap_ok(round_ok(&t, before, after, false),
	       "a level-wise round passes %s", why);
	tap_ok(!round_ok(&t, before, after, true),
	       "... but not as exact: refused requests kept lanes (%s)", why);
	/* Two granted requests of one leaf switch on the same port. */
	for (i = 0; i < 64; i++)
		if (out[i].status == FT_SCHED_GRANTED && out[i].hh == 2)
			break;
	a = i;
	for (b = a + 1; b < 64; b++)
		if (out[b].status == FT_SCHED_GRANTED && out[b].hh >= 2 &&
		    q[b].src / 4 == q[a].src / 4)
			break;
	bad[b].port[1] = bad[a].port[1];
	tap_ok(b < 64 && !round_ok(&t, before, NULL, false),
	       "two requests on one up link: caught (%s)", why);
	memcpy(bad, out, sizeof(out));
	bad[a].port[1] = 4;
	tap_ok(!round_ok(&t, before, NULL, false), "port >= w: caught (%s)",
	       why);
	memcpy(bad, out, sizeof(out));
	bad[a].port[bad[a].hh] = 1;
	tap_ok(a < 64 && !round_ok(&t, before, NULL, false),
	       "port beyond H: caught (%s)", why);
	memcpy(bad, out, sizeof(out));
	bad[a].hh++;
	tap_ok(!round_ok(&t, before, NULL, false), "wrong H: caught (%s)",
	       why);
	memcpy(bad, out, sizeof(out));
	bad[a].status = FT_SCHED_INVALID;
	tap_ok(!round_ok(&t, before, NULL, false),
	       "a valid request marked invalid: caught (%s)", why);
	memcpy(bad, out, sizeof(out));
	bad[a].status = FT_SCHED_REFUSED;
	tap_ok(!round_ok(&t, before, NULL, false),
	       "refused without a level: caught (%s)", why);
	memcpy(bad, out, sizeof(out));
	tap_ok(!round_ok(&t, before, before, false),
	       "free lanes not taken: caught (%s)", why);
	for (i = 0; i < nd && after[i] != before[i]; i++)
		;
	after[i]++;
	tap_ok(!round_ok(&t, before, after, false),
	       "a link whose free lanes grew: caught (%s)", why);
	/* Lanes: a free table with one lane less on a used link. */
	memcpy(after, before, nd * 4);
	{
		struct ft_path p;
		u32 port[FT_MAX_LEVELS];

		ft_sched_ports(&out[a], port);
		ft_topo_path(&t, q[a].src, q[a].dst, port, &p);
		after[p.link[0]] = 0;
	}
	tap_ok(!round_ok(&t, after, NULL, false),
	       "a path over a link without free lanes: caught (%s)", why);
	free(before);
	free(after);
	ft_sched_destroy(s);
}

static void test_cycles(void)
{
	u32 m[3] = { 2, 2, 2 }, w[3] = { 1, 1, 1 }, c[3] = { 1, 1, 1 }, i, x;
	struct ft_topo t;
	struct ft_sched *s;
	struct ft_sched_cycles cy;
	const u32 *cap;

	ft_topo_init(&t, 3, m, w, c);
	s = ft_sched_create(&t);
	cap = ft_sched_free_lanes(s);
	for (i = 0; i < 8; i++)
		q[i] = (struct ft_sched_req){ i, i ^ 4, 1 };
	ft_sched_leiserson(s, q, 8, false, out, &cy, NULL);
	why[0] = 0;
	tap_ok(!ft_sched_check_cycles(&t, cap, q, 8, out, &cy, why,
				      sizeof(why)), "a schedule passes %s",
	       why);
	x = cy.msg[1];
	cy.msg[1] = cy.msg[0];
	tap_ok(ft_sched_check_cycles(&t, cap, q, 8, out, &cy, why,
				     sizeof(why)),
	       "a message twice: caught (%s)", why);
	cy.msg[1] = x;
	memcpy(bad, out, sizeof(out));
	bad[cy.msg[cy.start[1]]].cycle = 0;
	tap_ok(ft_sched_check_cycles(&t, cap, q, 8, bad, &cy, why,
				     sizeof(why)),
	       "a message listed in another cycle than its own: caught (%s)",
	       why);
	/* Merge cycles 0 and 1: the root link gets 2 messages. */
	memcpy(bad, out, sizeof(out));
	for (i = 0; i < 8; i++)
		if (bad[i].cycle)
			bad[i].cycle--;
	cy.start[1] = 0;
	cy.n--;
	memmove(cy.start + 1, cy.start + 2, cy.n * sizeof(u32));
	tap_ok(ft_sched_check_cycles(&t, cap, q, 8, bad, &cy, why,
				     sizeof(why)),
	       "two messages on one link in a cycle: caught (%s)", why);
	ft_sched_cycles_free(&cy);
	ft_sched_leiserson(s, q, 8, false, out, &cy, NULL);
	cy.nmsg--;
	cy.start[cy.n]--;
	tap_ok(ft_sched_check_cycles(&t, cap, q, 8, out, &cy, why,
				     sizeof(why)),
	       "a message missing from the lists: caught (%s)", why);
	memcpy(bad, out, sizeof(out));
	cy.nmsg++;
	cy.start[cy.n]++;
	bad[0].status = FT_SCHED_REFUSED;
	bad[0].fail_level = 1;
	bad[0].fail_where = FT_SCHED_AT_UP;
	tap_ok(ft_sched_check_cycles(&t, cap, q, 8, bad, &cy, why,
				     sizeof(why)),
	       "refused on a usable path: caught (%s)", why);
	ft_sched_cycles_free(&cy);
	ft_sched_destroy(s);
}

int main(void)
{
	test_round();
	test_cycles();
	return tap_done();
}
