// SPDX-License-Identifier: GPL-2.0
/*
 * One engine, two places: the kernel and a userspace replay (ftsim
 * replay, the same core compiled for userspace) run the same synthetic
 * message set with the same seed and must agree on every directed link's
 * counters and on the cycle the set drained, under every path choice,
 * arbitration and injection rule.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kselftest_harness.h"
#include "ft_selftest.h"
#include "ftnames.h"

#define NROWS	300
#define STEPS	400

FIXTURE(replay) {
	struct ftnl nl;
	struct fattree_inject_row rows[NROWS];
	char rows_file[64];
};

FIXTURE_SETUP(replay)
{
	FILE *f;
	int i;

	ASSERT_EQ(0, ft_open(&self->nl));
	srand(42);
	snprintf(self->rows_file, sizeof(self->rows_file), "/tmp/ft-replay-%d", getpid());
	f = fopen(self->rows_file, "w");
	ASSERT_NE(NULL, f);
	for (i = 0; i < NROWS; i++) {
		self->rows[i] = (struct fattree_inject_row){ rand() % 64, rand() % 64,
							     1 + rand() % 4 };
		fprintf(f, "%u %u %u\n", self->rows[i].src, self->rows[i].dst,
			self->rows[i].count);
	}
	fclose(f);
}

FIXTURE_TEARDOWN(replay)
{
	unlink(self->rows_file);
	ft_close(&self->nl);
}

FIXTURE_VARIANT(replay) {
	int path, arbitration, injection;
};

#define VARIANT(_name, _p, _a, _i) \
	FIXTURE_VARIANT_ADD(replay, _name) { .path = _p, .arbitration = _a, .injection = _i }

VARIANT(dmodk_random_all, FATTREE_PATH_DMODK, FATTREE_ARBITRATION_RANDOM, FATTREE_INJECTION_ALL);
VARIANT(dmodk_fixed_all, FATTREE_PATH_DMODK, FATTREE_ARBITRATION_FIXED, FATTREE_INJECTION_ALL);
VARIANT(random_random_all, FATTREE_PATH_RANDOM, FATTREE_ARBITRATION_RANDOM, FATTREE_INJECTION_ALL);
VARIANT(firstfree_fixed_all, FATTREE_PATH_FIRSTFREE, FATTREE_ARBITRATION_FIXED,
	FATTREE_INJECTION_ALL);
VARIANT(random_random_random, FATTREE_PATH_RANDOM, FATTREE_ARBITRATION_RANDOM,
	FATTREE_INJECTION_RANDOM);
VARIANT(firstfree_random_rprime, FATTREE_PATH_FIRSTFREE, FATTREE_ARBITRATION_RANDOM,
	FATTREE_INJECTION_RANDOM_PRIME);

TEST_F(replay, kernel_equals_userspace)
{
	struct ft_fabric_info fi;
	struct ftobj_link *l;
	char cmd[512], why[1024];
	struct ft_spec s;
	int n;

	ft_spec_kary(&s, "r0", 3, 4);
	s.lanes[0] = 2;
	s.lanes[1] = 1;
	s.lanes[2] = 2;
	s.path = variant->path;
	s.arbitration = variant->arbitration;
	s.injection = variant->injection;
	s.seed = 0x5eed;
	ASSERT_EQ(0, ft_fabric_new(&self->nl, &s));
	ASSERT_EQ(0, ft_fabric_inject(&self->nl, "r0", self->rows, NROWS));
	ASSERT_EQ(0, ft_fabric_step(&self->nl, "r0", STEPS));
	ASSERT_EQ(0, ft_fabric_get(&self->nl, "r0", &fi));
	n = ftobj_links(&self->nl, "r0", &l);
	ASSERT_GT(n, 0);

	snprintf(cmd, sizeof(cmd),
		 "./ftsim replay --shape kary:3:4 --lanes 2,1,2 "
		 "--path %s --arbitration %s --injection %s --seed %d --rows %s --steps %d",
		 ftn_path_names[s.path], ftn_arbitration_names[s.arbitration], ftn_injection_names[s.injection],
		 0x5eed, self->rows_file, STEPS);
	EXPECT_EQ(0, ft_replay_compare(cmd, &fi, l, n, why, sizeof(why))) {
		TH_LOG("%s", why);
	}
	/* The comparison means something only if the set was contended. */
	EXPECT_GT(fi.blocked, 0);
	free(l);
}

FT_HARNESS_MAIN
