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

#define NLEVELS_MAX	(2 * 8 + 1)

/* What FABRIC_GET says about a store-and-forward fabric. */
struct saf_info {
	uint32_t mode, q, discipline, ghosts, pool, qmax;
	uint32_t bpackets, bdelivered, bsteps, bt, bc, bdone;
	uint64_t queued, synth_queued, delivered, batches, hops, ghosts_sent;
	uint64_t eos, stalls, rescues, busy_steps;
	uint32_t nl, lq[NLEVELS_MAX], lmax[NLEVELS_MAX];
	uint64_t lsum[NLEVELS_MAX];
	int has_saf;
};

static int ifexists(const char *name)
{
	char path[128];

	snprintf(path, sizeof(path), "/sys/class/net/%s", name);
	return access(path, F_OK) == 0;
}

static int saf_reply(struct nl_msg *msg, void *arg)
{
	struct saf_info *i = arg;
	struct ftobj_fabric f;
	const struct ftobj_saf *sf = &f.saf;
	const uint64_t *v = sf->v;

	if (ftobj_fabric_decode(msg, &f))
		return -EINVAL;
	memset(i, 0, sizeof(*i));
	i->mode = f.mode;
	i->q = f.saf_q;
	i->discipline = f.saf_discipline;
	i->ghosts = f.saf_ghosts;
	i->queued = f.stats.v[FATTREE_A_STATS_QUEUED];
	i->synth_queued = f.stats.v[FATTREE_A_STATS_SYNTH_QUEUED];
	if (!FTOBJ_HAS(&f, FATTREE_A_FABRIC_SAF))
		return 0;
	i->has_saf = 1;
	i->pool = (uint32_t)v[FATTREE_A_SAF_POOL];
	i->qmax = (uint32_t)v[FATTREE_A_SAF_QMAX];
	i->bpackets = (uint32_t)v[FATTREE_A_SAF_BATCH_PACKETS];
	i->bdelivered = (uint32_t)v[FATTREE_A_SAF_BATCH_DELIVERED];
	i->bsteps = (uint32_t)v[FATTREE_A_SAF_BATCH_STEPS];
	i->bt = (uint32_t)v[FATTREE_A_SAF_BATCH_T];
	i->bc = (uint32_t)v[FATTREE_A_SAF_BATCH_CONGESTION];
	i->bdone = sf->batch_done;
	i->delivered = v[FATTREE_A_SAF_DELIVERED];
	i->batches = v[FATTREE_A_SAF_BATCHES];
	i->hops = v[FATTREE_A_SAF_HOPS];
	i->ghosts_sent = v[FATTREE_A_SAF_GHOSTS];
	i->eos = v[FATTREE_A_SAF_EOS];
	i->stalls = v[FATTREE_A_SAF_STALLS];
	i->rescues = v[FATTREE_A_SAF_RESCUES];
	i->busy_steps = v[FATTREE_A_SAF_BUSY_STEPS];
	/* the three per-level arrays come whole and alike, or not at all */
	i->nl = sf->nlevel_queues;
	if (i->nl > NLEVELS_MAX || !FTOBJ_HAS(sf, FATTREE_A_SAF_LEVEL_OCC_MAX) ||
	    !FTOBJ_HAS(sf, FATTREE_A_SAF_LEVEL_OCC_SUM) || sf->nlevel_occ_max != i->nl ||
	    sf->nlevel_occ_sum != i->nl)
		return -EINVAL;
	memcpy(i->lq, sf->level_queues, i->nl * 4);
	memcpy(i->lmax, sf->level_occ_max, i->nl * 4);
	memcpy(i->lsum, sf->level_occ_sum, i->nl * 8);
	return 0;
}

static int saf_get(struct ftnl *nl, const char *name, struct saf_info *i)
{
	struct nl_msg *msg = ftnl_msg(nl, FATTREE_CMD_FABRIC_GET, 0);

	if (!msg)
		return -ENOMEM;
	nla_put_string(msg, FATTREE_A_FABRIC_NAME, name);
	return ftnl_transact(nl, msg, saf_reply, i);
}

/* Optional attributes: a negative value leaves one out. */
struct saf_req {
	const char *name;
	uint32_t h, m[4], w[4];
	long long mode, q, discipline, ghosts, path, injection;
	uint32_t backlog;
};

static void saf_req_init(struct saf_req *r, const char *name)
{
	memset(r, 0, sizeof(*r));
	r->name = name;
	r->h = 2;			/* FT(2,4): 16 leaves, L = 4 */
	r->m[0] = r->m[1] = 4;
	r->w[0] = 1;
	r->w[1] = 4;
	r->mode = FATTREE_MODE_SAF;
	r->q = 2;
	r->discipline = r->ghosts = r->path = r->injection = -1;
}

static int saf_new(struct ftnl *nl, const struct saf_req *r)
{
	struct nl_msg *msg = ft_fabric_new_msg(nl, r->name, r->h, r->m, r->w);

	if (!msg)
		return -ENOMEM;
	if (r->backlog)
		nla_put_u32(msg, FATTREE_A_FABRIC_BACKLOG, r->backlog);
	if (r->mode >= 0)
		nla_put_u32(msg, FATTREE_A_FABRIC_MODE, r->mode);
	if (r->q >= 0)
		nla_put_u32(msg, FATTREE_A_FABRIC_SAF_Q, r->q);
	if (r->discipline >= 0)
		nla_put_u32(msg, FATTREE_A_FABRIC_SAF_DISCIPLINE, r->discipline);
	if (r->ghosts >= 0)
		nla_put_u32(msg, FATTREE_A_FABRIC_SAF_GHOSTS, r->ghosts);
	if (r->path >= 0)
		nla_put_u32(msg, FATTREE_A_FABRIC_PATH, r->path);
	if (r->injection >= 0)
		nla_put_u32(msg, FATTREE_A_FABRIC_INJECTION, r->injection);
	return ftnl_transact(nl, msg, NULL, NULL);
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
	struct saf_info i;
	int steps = 0;

	while (steps < max_steps) {
		if (ft_fabric_step(nl, name, 1) || saf_get(nl, name, &i))
			return -1;
		steps++;
		if (!i.queued && i.bdone)
			return steps;
	}
	return -1;
}

FIXTURE(saf) {
	struct ftnl nl;
};

FIXTURE_SETUP(saf)
{
	ASSERT_EQ(0, ft_open(&self->nl));
}

FIXTURE_TEARDOWN(saf)
{
	ft_fabric_del(&self->nl, "s0");
	ft_fabric_del(&self->nl, "c0");
	ftnl_close(&self->nl);
}

/* Every bad combination is refused, explained, and creates nothing. */
TEST_F(saf, bad_requests_refused)
{
	struct saf_req r;

	saf_req_init(&r, "s0");
	r.q = 0;
	EXPECT_EQ(-ERANGE, saf_new(&self->nl, &r));
	EXPECT_NE(NULL, strstr(self->nl.errmsg, "q must be 1 to 64"));
	EXPECT_GT(self->nl.err_offset, 0);

	r.q = FATTREE_SAF_MAX_Q + 1;
	EXPECT_EQ(-ERANGE, saf_new(&self->nl, &r));
	EXPECT_NE(NULL, strstr(self->nl.errmsg, "q must be 1 to 64"));

	r.q = -1;			/* mode saf without q */
	EXPECT_EQ(-EINVAL, saf_new(&self->nl, &r));
	EXPECT_NE(NULL, strstr(self->nl.errmsg, "needs q"));

	saf_req_init(&r, "s0");
	r.mode = -1;			/* q in cycle mode */
	EXPECT_EQ(-EINVAL, saf_new(&self->nl, &r));
	EXPECT_NE(NULL, strstr(self->nl.errmsg, "mode saf"));

	saf_req_init(&r, "s0");
	r.mode = 2;			/* no such mode */
	EXPECT_EQ(-ERANGE, saf_new(&self->nl, &r));

	saf_req_init(&r, "s0");
	r.discipline = 3;		/* no such discipline */
	EXPECT_EQ(-ERANGE, saf_new(&self->nl, &r));

	saf_req_init(&r, "s0");
	r.ghosts = 2;
	EXPECT_EQ(-ERANGE, saf_new(&self->nl, &r));

	saf_req_init(&r, "s0");
	r.path = FATTREE_PATH_CIRCUIT;
	EXPECT_EQ(-EINVAL, saf_new(&self->nl, &r));
	EXPECT_NE(NULL, strstr(self->nl.errmsg, "circuit"));

	saf_req_init(&r, "s0");
	r.injection = FATTREE_INJECTION_RANDOM;
	EXPECT_EQ(-EINVAL, saf_new(&self->nl, &r));
	EXPECT_NE(NULL, strstr(self->nl.errmsg, "injection"));

	EXPECT_EQ(0, ft_fabric_count(&self->nl));
	EXPECT_FALSE(ifexists("s0-l0"));
}

/* The mode and q stay; discipline and ghosts change only when empty. */
TEST_F(saf, mode_fixed_discipline_when_empty)
{
	struct fattree_inject_row row = { .src = 0, .dst = 15, .count = 3 };
	struct saf_info i;
	struct saf_req r;
	struct ft_spec c;
	int k;

	saf_req_init(&r, "s0");
	ASSERT_EQ(0, saf_new(&self->nl, &r));
	ASSERT_EQ(0, saf_get(&self->nl, "s0", &i));
	EXPECT_EQ(FATTREE_MODE_SAF, i.mode);
	EXPECT_EQ(2, i.q);
	EXPECT_EQ(FATTREE_SAF_DISCIPLINE_RANK, i.discipline);
	EXPECT_EQ(1, i.ghosts);
	EXPECT_EQ(1, i.has_saf);
	EXPECT_EQ(16 * 64, i.pool);	/* leaves * default backlog */
	EXPECT_EQ(5, i.nl);		/* levels 0..2h */

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
		ASSERT_EQ(0, saf_get(&self->nl, "s0", &i));
		if (!i.queued)
			break;
	}
	EXPECT_EQ(0, i.queued);
	if (!i.bdone)
		EXPECT_EQ(-EBUSY, saf_set(&self->nl, "s0", FATTREE_A_FABRIC_SAF_GHOSTS, 0));
	EXPECT_LE(0, drain(&self->nl, "s0", 100));
	EXPECT_EQ(0, saf_set(&self->nl, "s0", FATTREE_A_FABRIC_SAF_DISCIPLINE,
			     FATTREE_SAF_DISCIPLINE_FIFO));
	EXPECT_EQ(0, saf_set(&self->nl, "s0", FATTREE_A_FABRIC_SAF_GHOSTS, 0));
	ASSERT_EQ(0, saf_get(&self->nl, "s0", &i));
	EXPECT_EQ(FATTREE_SAF_DISCIPLINE_FIFO, i.discipline);
	EXPECT_EQ(0, i.ghosts);
	EXPECT_EQ(2, i.q);

	/* a delivery-cycle fabric has no discipline */
	ft_spec_kary(&c, "c0", 2, 4);
	ASSERT_EQ(0, ft_fabric_new(&self->nl, &c));
	ASSERT_EQ(0, saf_get(&self->nl, "c0", &i));
	EXPECT_EQ(FATTREE_MODE_CYCLE, i.mode);
	EXPECT_EQ(0, i.has_saf);
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
	struct saf_req r;

	saf_req_init(&r, "s0");
	ASSERT_EQ(0, saf_new(&self->nl, &r));
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
	struct saf_info i;
	struct saf_req r;
	uint32_t d, g, qi, k, msgs = 3 * 16;
	int steps;

	for (d = 0; d <= FATTREE_SAF_DISCIPLINE_FARTHEST; d++) {
		for (g = 0; g < 2; g++) {
			if (d != FATTREE_SAF_DISCIPLINE_RANK && !g)
				continue;
			for (qi = 0; qi < 3; qi++) {
				TH_LOG("discipline %u ghosts %u q %u", d, g, qs[qi]);
				saf_req_init(&r, "s0");
				r.q = qs[qi];
				r.discipline = d;
				r.ghosts = g;
				r.path = qi == 1 ? FATTREE_PATH_RANDOM : FATTREE_PATH_DMODK;
				ASSERT_EQ(0, saf_new(&self->nl, &r));
				perm_rows(rows, 16, 3, 7 + d * 10 + qi);
				ASSERT_EQ(0, ft_fabric_inject(&self->nl, "s0", rows, 16));
				ASSERT_EQ(0, saf_get(&self->nl, "s0", &i));
				EXPECT_EQ(msgs, i.queued);
				EXPECT_EQ(msgs, i.synth_queued);
				steps = drain(&self->nl, "s0", 2000);
				ASSERT_LT(0, steps);
				ASSERT_EQ(0, saf_get(&self->nl, "s0", &i));
				EXPECT_EQ(0, i.synth_queued);
				EXPECT_EQ(msgs, i.delivered);
				EXPECT_EQ(1, i.batches);
				EXPECT_EQ(1, i.bdone);
				EXPECT_EQ(msgs, i.bpackets);
				EXPECT_EQ(msgs, i.bdelivered);
				EXPECT_EQ((uint64_t)msgs * 4, i.hops);
				EXPECT_LE(5, i.bt);	/* L + 1 */
				EXPECT_LE(i.bc, i.bt);
				EXPECT_LE(1, i.qmax);
				EXPECT_GE(qs[qi], i.qmax);
				for (k = 0; k < i.nl; k++)
					EXPECT_GE(qs[qi], i.lmax[k]);
				EXPECT_EQ(0, i.lq[0]);	/* sources: initial queues */
				EXPECT_LT(0, i.lsum[i.nl - 1]);
				if (d == FATTREE_SAF_DISCIPLINE_RANK && g)
					EXPECT_LT(0, i.ghosts_sent);
				if (d != FATTREE_SAF_DISCIPLINE_RANK)
					EXPECT_EQ(0, i.ghosts_sent);
				if (!g)	/* ghosts only to end a stall */
					EXPECT_EQ(!!i.rescues, !!i.ghosts_sent);
				if (d == FATTREE_SAF_DISCIPLINE_RANK)
					EXPECT_LT(0, i.eos);
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
	struct saf_info i;
	struct saf_req r;

	saf_req_init(&r, "s0");
	r.backlog = 1;			/* a pool of 16 */
	ASSERT_EQ(0, saf_new(&self->nl, &r));
	EXPECT_EQ(-ENOSPC, ft_fabric_inject(&self->nl, "s0", rows, 2));
	EXPECT_NE(NULL, strstr(self->nl.errmsg, "pool"));
	ASSERT_EQ(0, saf_get(&self->nl, "s0", &i));
	EXPECT_EQ(16, i.pool);
	EXPECT_EQ(0, i.queued);
	rows[1].count = 6;
	EXPECT_EQ(0, ft_fabric_inject(&self->nl, "s0", rows, 2));
	EXPECT_LT(0, drain(&self->nl, "s0", 200));
}

/* Deleting a fabric mid-batch, with messages in every stage. */
TEST_F(saf, delete_mid_batch)
{
	struct fattree_inject_row rows[16];
	struct saf_info i;
	struct saf_req r;

	saf_req_init(&r, "s0");
	r.discipline = FATTREE_SAF_DISCIPLINE_FIFO;
	ASSERT_EQ(0, saf_new(&self->nl, &r));
	perm_rows(rows, 16, 4, 3);
	ASSERT_EQ(0, ft_fabric_inject(&self->nl, "s0", rows, 16));
	ASSERT_EQ(0, ft_fabric_step(&self->nl, "s0", 4));
	ASSERT_EQ(0, ft_fabric_inject(&self->nl, "s0", rows, 16));
	ASSERT_EQ(0, saf_get(&self->nl, "s0", &i));
	EXPECT_LT(0, i.queued);
	EXPECT_EQ(0, ft_fabric_del(&self->nl, "s0"));
	EXPECT_FALSE(ifexists("s0-l0"));
}

FT_HARNESS_MAIN
