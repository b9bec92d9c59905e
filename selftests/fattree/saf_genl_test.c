// SPDX-License-Identifier: GPL-2.0
/*
 * Store-and-forward fabrics over netlink: bad q and mode combinations
 * refused with an explanation and nothing created; the mode and q fixed
 * at creation; the discipline and ghosts changed only while the fabric
 * holds nothing; no circuits; synthetic permutations delivered under
 * every discipline, with and without ghosts, no edge queue ever above q
 * (from the counters), T at least L + 1; a full pool refuses an injection
 * whole; deletion and stepping with messages inside.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "ft_selftest.h"

static int ifexists(const char *name)
{
	char path[128];

	snprintf(path, sizeof(path), "/sys/class/net/%s", name);
	return access(path, F_OK) == 0;
}

/*
 * FABRIC_GET of @name into @f; a store-and-forward fabric's three
 * per-level arrays must come whole and alike.
 */
static int saf_get(struct ftnl *nl, const char *name, struct ftobj_fabric *f)
{
	const struct ftobj_saf *sf = &f->saf;
	int err = ftobj_fabric_get(nl, name, f);

	if (err || !FTOBJ_HAS(f, FATTREE_A_FABRIC_SAF))
		return err;
	if (!FTOBJ_HAS(sf, FATTREE_A_SAF_LEVEL_OCC_MAX) ||
	    !FTOBJ_HAS(sf, FATTREE_A_SAF_LEVEL_OCC_SUM) ||
	    sf->nlevel_occ_max != sf->nlevel_queues || sf->nlevel_occ_sum != sf->nlevel_queues)
		return -EINVAL;
	return 0;
}

/* FT(2,4): 16 leaves, L = 4, in store-and-forward mode with q = 2. */
static void saf_spec(struct ft_spec *s, const char *name)
{
	ft_spec_kary(s, name, 2, 4);
	s->mode = FATTREE_MODE_SAF;
	s->saf_q = 2;
}

/* FABRIC_SET with one u32 attribute. */
static int saf_set(struct ftnl *nl, const char *name, int type, uint32_t v)
{
	struct nl_msg *msg = ftnl_msg(nl, FATTREE_CMD_FABRIC_SET, 0);

	if (!msg)
		return -ENOMEM;
	nla_put_string(msg, FATTREE_A_FABRIC_NAME, name);
	nla_put_u32(msg, type, v);
	return ftnl_transact(nl, msg, NULL, NULL);
}

/* A random permutation of @n leaves, @count messages per row. */
static void perm_rows(struct fattree_inject_row *rows, uint32_t n, uint32_t count,
		      unsigned int seed)
{
	uint32_t i, j, t;

	srand(seed);
	for (i = 0; i < n; i++)
		rows[i] = (struct fattree_inject_row){ .src = i, .dst = i, .count = count };
	for (i = n - 1; i > 0; i--) {
		j = (uint32_t)rand() % (i + 1);
		t = rows[i].dst;
		rows[i].dst = rows[j].dst;
		rows[j].dst = t;
	}
}

/*
 * Step until nothing is queued and the batch has ended (under ranks, its
 * end-of-stream tokens reach the sinks after the last packet); the steps
 * it took, or -1.
 */
static int drain(struct ftnl *nl, const char *name, int max_steps)
{
	struct ftobj_fabric f;
	int steps = 0;

	while (steps < max_steps) {
		if (ft_fabric_step(nl, name, 1) || saf_get(nl, name, &f))
			return -1;
		steps++;
		if (!f.stats.v[FATTREE_A_STATS_QUEUED] && f.saf.batch_done)
			return steps;
	}
	return -1;
}

FIXTURE(saf) {
	struct ftnl nl;
	struct ft_spec s;
};

FIXTURE_SETUP(saf)
{
	ASSERT_EQ(0, ft_open(&self->nl));
	saf_spec(&self->s, "s0");
}

FIXTURE_TEARDOWN(saf)
{
	ft_close(&self->nl);
}

/* Every bad combination is refused, explained, and creates nothing. */
TEST_F(saf, bad_requests_refused)
{
	struct ft_spec s = self->s;

	s.saf_q = 0;
	EXPECT_EQ(-ERANGE, ft_fabric_new(&self->nl, &s));
	EXPECT_NE(NULL, strstr(self->nl.errmsg, "q must be 1 to 64"));
	EXPECT_GT(self->nl.err_offset, 0);

	s.saf_q = FATTREE_SAF_MAX_Q + 1;
	EXPECT_EQ(-ERANGE, ft_fabric_new(&self->nl, &s));
	EXPECT_NE(NULL, strstr(self->nl.errmsg, "q must be 1 to 64"));

	s.saf_q = -1;			/* mode saf without q */
	EXPECT_EQ(-EINVAL, ft_fabric_new(&self->nl, &s));
	EXPECT_NE(NULL, strstr(self->nl.errmsg, "needs q"));

	s = self->s;
	s.mode = -1;			/* q in cycle mode */
	EXPECT_EQ(-EINVAL, ft_fabric_new(&self->nl, &s));
	EXPECT_NE(NULL, strstr(self->nl.errmsg, "mode saf"));

	s = self->s;
	s.mode = 2;			/* no such mode */
	EXPECT_EQ(-ERANGE, ft_fabric_new(&self->nl, &s));

	s = self->s;
	s.saf_discipline = 3;		/* no such discipline */
	EXPECT_EQ(-ERANGE, ft_fabric_new(&self->nl, &s));

	s = self->s;
	s.saf_ghosts = 2;
	EXPECT_EQ(-ERANGE, ft_fabric_new(&self->nl, &s));

	s = self->s;
	s.path = FATTREE_PATH_CIRCUIT;
	EXPECT_EQ(-EINVAL, ft_fabric_new(&self->nl, &s));
	EXPECT_NE(NULL, strstr(self->nl.errmsg, "circuit"));

	s = self->s;
	s.injection = FATTREE_INJECTION_RANDOM;
	EXPECT_EQ(-EINVAL, ft_fabric_new(&self->nl, &s));
	EXPECT_NE(NULL, strstr(self->nl.errmsg, "injection"));

	EXPECT_EQ(0, ft_fabric_count(&self->nl));
	EXPECT_FALSE(ifexists("s0-l0"));
}

/* The mode and q stay; discipline and ghosts change only when empty. */
TEST_F(saf, mode_fixed_discipline_when_empty)
{
	struct fattree_inject_row row = { .src = 0, .dst = 15, .count = 3 };
	struct ftobj_fabric f;
	struct ft_spec c;
	int k;

	ASSERT_EQ(0, ft_fabric_new(&self->nl, &self->s));
	ASSERT_EQ(0, saf_get(&self->nl, "s0", &f));
	EXPECT_EQ(FATTREE_MODE_SAF, f.mode);
	EXPECT_EQ(2, f.saf_q);
	EXPECT_EQ(FATTREE_SAF_DISCIPLINE_RANK, f.saf_discipline);
	EXPECT_EQ(1, f.saf_ghosts);
	EXPECT_TRUE(FTOBJ_HAS(&f, FATTREE_A_FABRIC_SAF));
	EXPECT_EQ(16 * 64, f.saf.v[FATTREE_A_SAF_POOL]);	/* leaves * default backlog */
	EXPECT_EQ(5, f.saf.nlevel_queues);		/* levels 0..2h */

	EXPECT_EQ(-EINVAL, saf_set(&self->nl, "s0", FATTREE_A_FABRIC_MODE,
				   FATTREE_MODE_CYCLE));
	EXPECT_NE(NULL, strstr(self->nl.errmsg, "fixed at creation"));
	EXPECT_EQ(-EINVAL, saf_set(&self->nl, "s0", FATTREE_A_FABRIC_SAF_Q, 4));
	EXPECT_NE(NULL, strstr(self->nl.errmsg, "fixed at creation"));
	EXPECT_EQ(-EINVAL, saf_set(&self->nl, "s0", FATTREE_A_FABRIC_PATH,
				   FATTREE_PATH_CIRCUIT));
	EXPECT_EQ(-EINVAL, saf_set(&self->nl, "s0", FATTREE_A_FABRIC_ARBITRATION,
				   FATTREE_ARBITRATION_FIXED));
	EXPECT_EQ(0, saf_set(&self->nl, "s0", FATTREE_A_FABRIC_PATH,
			     FATTREE_PATH_RANDOM));

	ASSERT_EQ(0, ft_fabric_inject(&self->nl, "s0", &row, 1));
	EXPECT_EQ(-EBUSY, saf_set(&self->nl, "s0", FATTREE_A_FABRIC_SAF_DISCIPLINE,
				  FATTREE_SAF_DISCIPLINE_FIFO));
	EXPECT_NE(NULL, strstr(self->nl.errmsg, "holds no message"));
	/* delivered, its batch still ending: not yet */
	for (k = 0; k < 100; k++) {
		ASSERT_EQ(0, ft_fabric_step(&self->nl, "s0", 1));
		ASSERT_EQ(0, saf_get(&self->nl, "s0", &f));
		if (!f.stats.v[FATTREE_A_STATS_QUEUED])
			break;
	}
	EXPECT_EQ(0, f.stats.v[FATTREE_A_STATS_QUEUED]);
	if (!f.saf.batch_done)
		EXPECT_EQ(-EBUSY, saf_set(&self->nl, "s0", FATTREE_A_FABRIC_SAF_GHOSTS, 0));
	EXPECT_LE(0, drain(&self->nl, "s0", 100));
	EXPECT_EQ(0, saf_set(&self->nl, "s0", FATTREE_A_FABRIC_SAF_DISCIPLINE,
			     FATTREE_SAF_DISCIPLINE_FIFO));
	EXPECT_EQ(0, saf_set(&self->nl, "s0", FATTREE_A_FABRIC_SAF_GHOSTS, 0));
	ASSERT_EQ(0, saf_get(&self->nl, "s0", &f));
	EXPECT_EQ(FATTREE_SAF_DISCIPLINE_FIFO, f.saf_discipline);
	EXPECT_EQ(0, f.saf_ghosts);
	EXPECT_EQ(2, f.saf_q);

	/* a delivery-cycle fabric has no discipline */
	ft_spec_kary(&c, "c0", 2, 4);
	ASSERT_EQ(0, ft_fabric_new(&self->nl, &c));
	ASSERT_EQ(0, saf_get(&self->nl, "c0", &f));
	EXPECT_EQ(FATTREE_MODE_CYCLE, f.mode);
	EXPECT_FALSE(FTOBJ_HAS(&f, FATTREE_A_FABRIC_SAF));
	EXPECT_EQ(-EINVAL, saf_set(&self->nl, "c0", FATTREE_A_FABRIC_SAF_DISCIPLINE,
				   FATTREE_SAF_DISCIPLINE_FIFO));
	EXPECT_NE(NULL, strstr(self->nl.errmsg, "store-and-forward"));
	EXPECT_EQ(-EINVAL, saf_set(&self->nl, "c0", FATTREE_A_FABRIC_MODE,
				   FATTREE_MODE_SAF));
}

TEST_F(saf, circuits_refused)
{
	struct fattree_circuit c = { .src = 0, .dst = 5, .lanes = 1 };
	struct fattree_pair p = { .src = 0, .dst = 5 };

	ASSERT_EQ(0, ft_fabric_new(&self->nl, &self->s));
	EXPECT_EQ(-EOPNOTSUPP, ft_circuit_add(&self->nl, "s0", &c, 1, NULL, NULL));
	EXPECT_NE(NULL, strstr(self->nl.errmsg, "circuits do not apply"));
	EXPECT_EQ(-EOPNOTSUPP, ft_circuit_del(&self->nl, "s0", &p, 1));
}

/*
 * Permutations (three in one batch) under every discipline, ghosts on and
 * off, q = 1, 2, 4: all delivered, T >= L + 1, hops = L per packet, no
 * queue above q, the batch's counters consistent.
 */
TEST_F(saf, permutations_every_discipline)
{
	static const uint32_t qs[] = { 1, 2, 4 };
	struct fattree_inject_row rows[16];
	struct ftobj_fabric f;
	const uint64_t *st = f.stats.v, *sv = f.saf.v;
	struct ft_spec s;
	uint32_t d, g, qi, k, msgs = 3 * 16;
	int steps;

	for (d = 0; d <= FATTREE_SAF_DISCIPLINE_FARTHEST; d++) {
		for (g = 0; g < 2; g++) {
			if (d != FATTREE_SAF_DISCIPLINE_RANK && !g)
				continue;
			for (qi = 0; qi < 3; qi++) {
				TH_LOG("discipline %u ghosts %u q %u", d, g, qs[qi]);
				s = self->s;
				s.saf_q = qs[qi];
				s.saf_discipline = d;
				s.saf_ghosts = g;
				s.path = qi == 1 ? FATTREE_PATH_RANDOM : FATTREE_PATH_DMODK;
				ASSERT_EQ(0, ft_fabric_new(&self->nl, &s));
				perm_rows(rows, 16, 3, 7 + d * 10 + qi);
				ASSERT_EQ(0, ft_fabric_inject(&self->nl, "s0", rows, 16));
				ASSERT_EQ(0, saf_get(&self->nl, "s0", &f));
				EXPECT_EQ(msgs, st[FATTREE_A_STATS_QUEUED]);
				EXPECT_EQ(msgs, st[FATTREE_A_STATS_SYNTH_QUEUED]);
				steps = drain(&self->nl, "s0", 2000);
				ASSERT_LT(0, steps);
				ASSERT_EQ(0, saf_get(&self->nl, "s0", &f));
				EXPECT_EQ(0, st[FATTREE_A_STATS_SYNTH_QUEUED]);
				EXPECT_EQ(msgs, sv[FATTREE_A_SAF_DELIVERED]);
				EXPECT_EQ(1, sv[FATTREE_A_SAF_BATCHES]);
				EXPECT_TRUE(f.saf.batch_done);
				EXPECT_EQ(msgs, sv[FATTREE_A_SAF_BATCH_PACKETS]);
				EXPECT_EQ(msgs, sv[FATTREE_A_SAF_BATCH_DELIVERED]);
				EXPECT_EQ((uint64_t)msgs * 4, sv[FATTREE_A_SAF_HOPS]);
				EXPECT_LE(5, sv[FATTREE_A_SAF_BATCH_T]);	/* L + 1 */
				EXPECT_LE(sv[FATTREE_A_SAF_BATCH_CONGESTION],
					  sv[FATTREE_A_SAF_BATCH_T]);
				EXPECT_LE(1, sv[FATTREE_A_SAF_QMAX]);
				EXPECT_GE(qs[qi], sv[FATTREE_A_SAF_QMAX]);
				for (k = 0; k < f.saf.nlevel_queues; k++)
					EXPECT_GE(qs[qi], f.saf.level_occ_max[k]);
				/* sources: initial queues */
				EXPECT_EQ(0, f.saf.level_queues[0]);
				EXPECT_LT(0, f.saf.level_occ_sum[f.saf.nlevel_queues - 1]);
				if (d == FATTREE_SAF_DISCIPLINE_RANK && g)
					EXPECT_LT(0, sv[FATTREE_A_SAF_GHOSTS]);
				if (d != FATTREE_SAF_DISCIPLINE_RANK)
					EXPECT_EQ(0, sv[FATTREE_A_SAF_GHOSTS]);
				if (!g)	/* ghosts only to end a stall */
					EXPECT_EQ(!!sv[FATTREE_A_SAF_RESCUES],
						  !!sv[FATTREE_A_SAF_GHOSTS]);
				if (d == FATTREE_SAF_DISCIPLINE_RANK)
					EXPECT_LT(0, sv[FATTREE_A_SAF_EOS]);
				EXPECT_EQ(0, ft_fabric_del(&self->nl, "s0"));
			}
		}
	}
}

/* A pool too small for an injection refuses it whole. */
TEST_F(saf, full_pool_refuses_injection)
{
	struct fattree_inject_row rows[2] = {
		{ .src = 0, .dst = 1, .count = 10 }, { .src = 2, .dst = 3, .count = 7 },
	};
	struct ftobj_fabric f;

	self->s.backlog = 1;		/* a pool of 16 */
	ASSERT_EQ(0, ft_fabric_new(&self->nl, &self->s));
	EXPECT_EQ(-ENOSPC, ft_fabric_inject(&self->nl, "s0", rows, 2));
	EXPECT_NE(NULL, strstr(self->nl.errmsg, "pool"));
	ASSERT_EQ(0, saf_get(&self->nl, "s0", &f));
	EXPECT_EQ(16, f.saf.v[FATTREE_A_SAF_POOL]);
	EXPECT_EQ(0, f.stats.v[FATTREE_A_STATS_QUEUED]);
	rows[1].count = 6;
	EXPECT_EQ(0, ft_fabric_inject(&self->nl, "s0", rows, 2));
	EXPECT_LT(0, drain(&self->nl, "s0", 200));
}

/* Deleting a fabric mid-batch, with messages in every stage. */
TEST_F(saf, delete_mid_batch)
{
	struct fattree_inject_row rows[16];
	struct ftobj_fabric f;

	self->s.saf_discipline = FATTREE_SAF_DISCIPLINE_FIFO;
	ASSERT_EQ(0, ft_fabric_new(&self->nl, &self->s));
	perm_rows(rows, 16, 4, 3);
	ASSERT_EQ(0, ft_fabric_inject(&self->nl, "s0", rows, 16));
	ASSERT_EQ(0, ft_fabric_step(&self->nl, "s0", 4));
	ASSERT_EQ(0, ft_fabric_inject(&self->nl, "s0", rows, 16));
	ASSERT_EQ(0, saf_get(&self->nl, "s0", &f));
	EXPECT_LT(0, f.stats.v[FATTREE_A_STATS_QUEUED]);
	EXPECT_EQ(0, ft_fabric_del(&self->nl, "s0"));
	EXPECT_FALSE(ifexists("s0-l0"));
}

FT_HARNESS_MAIN
