// SPDX-License-Identifier: GPL-2.0
/*
 * ftsim's parallel runs (tools/ftsim/par.c, mpi.c): the split of the
 * units among ranks, what the environment says about an MPI launcher, and
 * ftsim_work_run() itself on a synthetic work: every unit's result in
 * unit order whatever the threads, one thread state each, freed; a failed
 * unit stops the work, and the message printed is that of the first
 * failed unit even when later ones fail first.
 *
 * Built here without MPI (mpi.c's one-process stub), under ASan and
 * UBSan. tests/tools/ftsim-test builds the same file with mpicc and
 * -DFTSIM_MPI and runs it under mpirun: the same checks, the units then
 * shared among the ranks too (rank 0 prints the TAP).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "tap.h"
#include "ftsim.h"

/* --- the split ---------------------------------------------------------- */

static void test_shards(void)
{
	u64 n, k, total, u, last;
	u32 p, r;
	int good = 1, seen[64];

	for (n = 0; n <= 64; n++) {
		for (p = 1; p <= 9; p++) {
			memset(seen, 0, sizeof(seen));
			total = 0;
			for (r = 0; r < p; r++) {
				last = 0;
				for (k = 0; k < ftsim_shard_count(n, p, r); k++) {
					u = r + k * p;
					good &= u < n && (!k || u > last);
					if (u < n)
						seen[u]++;
					last = u;
				}
				total += ftsim_shard_count(n, p, r);
			}
			good &= total == n;
			for (u = 0; u < n; u++)
				good &= seen[u] == 1;
		}
	}
	tap_ok(good, "shards: units r, r + p, ... of rank r; every unit in exactly one shard (n 0..64, p 1..9)");
	tap_ok(ftsim_shard_count(10, 4, 0) == 3 && ftsim_shard_count(10, 4, 1) == 3 &&
	       ftsim_shard_count(10, 4, 2) == 2 && ftsim_shard_count(10, 4, 3) == 2 &&
	       ftsim_shard_count(2, 4, 3) == 0 && ftsim_shard_count(5, 4, 7) == 0 &&
	       ftsim_shard_count(5, 0, 0) == 0,
	       "shards: 10 units over 4 ranks are 3, 3, 2, 2; no units for a rank beyond them");
}

/* --- the launcher ---------------------------------------------------------- */

static const char *const *fake_env;

static char *fake_get(const char *name)
{
	size_t len = strlen(name);
	int i;

	for (i = 0; fake_env[i]; i++)
		if (!strncmp(fake_env[i], name, len) && fake_env[i][len] == '=')
			return (char *)fake_env[i] + len + 1;
	return NULL;
}

static bool detect(const char *const *env, struct ftsim_launch *l)
{
	fake_env = env;
	return ftsim_launch_detect(fake_get, l);
}

static void test_launch(void)
{
	static const char *const none[] = { "HOME=/root", NULL };
	static const char *const ompi[] = { "OMPI_COMM_WORLD_SIZE=3", "OMPI_COMM_WORLD_RANK=2",
					    "PMIX_RANK=2", NULL };
	static const char *const pmix[] = { "PMIX_RANK=1", "SLURM_PROCID=1",
					    "SLURM_STEP_NUM_TASKS=4", "SLURM_NTASKS=4", NULL };
	static const char *const pmi2[] = { "PMI_RANK=0", "PMI_SIZE=2", NULL };
	static const char *const pmi_half[] = { "PMI_RANK=0", NULL };
	static const char *const srun[] = { "SLURM_PROCID=3", "SLURM_STEP_NUM_TASKS=4", NULL };
	static const char *const srun1[] = { "SLURM_PROCID=0", "SLURM_STEP_NUM_TASKS=1",
					     "SLURM_NTASKS=8", NULL };
	static const char *const batch[] = { "SLURM_PROCID=0", "SLURM_NTASKS=8",
					     "SLURM_JOB_ID=7", NULL };
	static const char *const junk[] = { "OMPI_COMM_WORLD_SIZE=x", NULL };
	struct ftsim_launch l;

	tap_ok(!detect(none, &l) && !l.by && l.rank == -1 && l.size == -1,
	       "launch: a plain environment is no launcher");
	tap_ok(detect(ompi, &l) && !strcmp(l.by, "OMPI_COMM_WORLD_SIZE") && l.rank == 2 &&
	       l.size == 3, "launch: Open MPI's mpirun, rank 2 of 3");
	tap_ok(detect(pmix, &l) && !strcmp(l.by, "PMIX_RANK") && l.rank == 1 && l.size == 4,
	       "launch: srun --mpi=pmix, rank 1 of the step's 4 tasks");
	tap_ok(detect(pmi2, &l) && !strcmp(l.by, "PMI_RANK") && l.rank == 0 && l.size == 2,
	       "launch: PMI_RANK and PMI_SIZE (srun --mpi=pmi2, MPICH)");
	tap_ok(!detect(pmi_half, &l), "launch: PMI_RANK without PMI_SIZE is not one");
	tap_ok(detect(srun, &l) && !strcmp(l.by, "SLURM_PROCID") && l.rank == 3 && l.size == 4,
	       "launch: srun without a PMI plugin, task 3 of 4");
	tap_ok(!detect(srun1, &l), "launch: srun of one task is not one");
	tap_ok(!detect(batch, &l),
	       "launch: a batch script (SLURM_PROCID, SLURM_NTASKS 8, no step) is not one");
	tap_ok(detect(junk, &l) && l.size == -1 && l.rank == -1,
	       "launch: a number that is not one is unknown (-1)");
}

/* --- the work ------------------------------------------------------------- */

struct synth {
	u64 seed;
	u64 fail_from;		/* units from here on fail */
	u64 slow;		/* this unit sleeps 50 ms first */
	u64 sleep_us;		/* every unit sleeps so long */
	int states;		/* thread states made */
	int freed;
	int ran;		/* units started on this rank */
};

static int synth_run(void *ctx, void **ws, u64 u, void *res)
{
	struct synth *s = ctx;
	u64 *r = res;
	struct timespec ts = { 0, 0 };

	if (!*ws) {
		*ws = malloc(64);
		if (!*ws)
			return -1;
		__atomic_add_fetch(&s->states, 1, __ATOMIC_RELAXED);
	}
	__atomic_add_fetch(&s->ran, 1, __ATOMIC_RELAXED);
	if (u == s->slow) {
		ts.tv_nsec = 50 * 1000 * 1000;
		nanosleep(&ts, NULL);
	} else if (s->sleep_us) {
		ts.tv_nsec = (long)s->sleep_us * 1000;
		nanosleep(&ts, NULL);
	}
	if (u >= s->fail_from) {
		ftsim_err("ftsim synth: unit %llu failed", (unsigned long long)u);
		ftsim_err(" (%s)\n", "its message");
		return -1;
	}
	r[0] = ftsim_derive(s->seed, u);
	r[1] = u;
	return 0;
}

static void synth_free(void *ctx, void *ws)
{
	struct synth *s = ctx;

	if (ws)
		__atomic_add_fetch(&s->freed, 1, __ATOMIC_RELAXED);
	free(ws);
}

/* stderr of @fn(@arg) into @buf; its return value. */
static int capture(int (*fn)(void *), void *arg, char *buf, size_t len)
{
	FILE *tmp = tmpfile();
	int saved = dup(2), rc;
	size_t n = 0;

	fflush(stderr);
	if (tmp && saved >= 0)
		dup2(fileno(tmp), 2);
	rc = fn(arg);
	fflush(stderr);
	if (tmp && saved >= 0) {
		dup2(saved, 2);
		rewind(tmp);
		n = fread(buf, 1, len - 1, tmp);
	}
	buf[n] = '\0';
	if (saved >= 0)
		close(saved);
	if (tmp)
		fclose(tmp);
	return rc;
}

struct call {
	struct ftsim_work *w;
	void *res;
};

static int call_run(void *arg)
{
	struct call *c = arg;

	return ftsim_work_run(c->w, c->res);
}

static int err_outside(void *arg)
{
	(void)arg;
	ftsim_err("ftsim synth: %s\n", "outside a unit");
	return 0;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void test_work(void)
{
	static const unsigned int jobs[] = { 1, 2, 3, 8 };
	const u64 n = 500;
	u64 *res = calloc(n, 2 * sizeof(u64));
	struct synth s = { .seed = 42, .fail_from = UINT64_MAX, .slow = UINT64_MAX,
			   .sleep_us = 200 };
	struct ftsim_work w = {
		.cmd = "synth", .units = n, .size = 2 * sizeof(u64), .ctx = &s,
		.run = synth_run, .worker_free = synth_free,
	};
	struct call c = { &w, res };
	int p = ftsim_mpi_size(), good, rc;
	char err[FTSIM_MSG_MAX + 128], want[128];
	unsigned int j;
	double t0;
	u64 u;

	for (j = 0; j < sizeof(jobs) / sizeof(jobs[0]); j++) {
		w.jobs = jobs[j];
		s.states = s.freed = 0;
		memset(res, 0, n * 2 * sizeof(u64));
		rc = capture(call_run, &c, err, sizeof(err));
		good = !rc && !err[0];
		for (u = 0; ftsim_mpi_rank() == 0 && u < n; u++)
			good &= res[2 * u] == ftsim_derive(42, u) && res[2 * u + 1] == u;
		tap_ok(good, "work, %u job%s x %d rank%s: every unit's result in unit order, nothing on stderr",
		       jobs[j], jobs[j] > 1 ? "s" : "", p, p > 1 ? "s" : "");
		tap_ok(s.states >= (jobs[j] > 1 ? 2 : 1) && s.states <= (int)jobs[j] &&
		       s.freed == s.states,
		       "work, %u job%s: %d thread state%s made (one a thread, more than one thread), all freed",
		       jobs[j], jobs[j] > 1 ? "s" : "", s.states, s.states > 1 ? "s" : "");
	}

	/*
	 * Every unit from 37 on fails; 37 sleeps first, so the others fail
	 * before it: the message is still 37's. With ranks, 37 is rank 1's
	 * (of 2), the first later failure rank 0's.
	 */
	snprintf(want, sizeof(want), "ftsim synth: unit 37 failed (its message)\n");
	for (j = 0; j < sizeof(jobs) / sizeof(jobs[0]); j++) {
		w.jobs = jobs[j];
		s.fail_from = 37;
		s.slow = 37;
		s.states = s.freed = 0;
		rc = capture(call_run, &c, err, sizeof(err));
		tap_ok(rc == FTSIM_EXIT_FAIL &&
		       (ftsim_mpi_rank() ? !err[0] : !strcmp(err, want)) && s.freed == s.states,
		       "failure, %u job%s x %d rank%s: exit 1, the first failed unit's message once (rank 0)",
		       jobs[j], jobs[j] > 1 ? "s" : "", p, p > 1 ? "s" : "");
		if (strcmp(err, want) && !ftsim_mpi_rank())
			tap_diag("stderr: '%s'", err);
	}

	/* 4000 units of 5 ms, unit 10 fails: the rest is not run. */
	s.fail_from = 10;
	s.slow = UINT64_MAX;
	s.sleep_us = 5000;
	w.units = 4000;
	free(res);
	res = calloc(w.units, 2 * sizeof(u64));
	c.res = res;
	for (j = 1; j < 3; j++) {
		u64 mine = ftsim_shard_count(w.units, (u32)p, (u32)ftsim_mpi_rank());

		w.jobs = jobs[j];
		s.ran = 0;
		t0 = now();
		rc = capture(call_run, &c, err, sizeof(err));
		t0 = now() - t0;
		/* counted, not timed: a loaded machine may be slow to stop */
		tap_ok(rc == FTSIM_EXIT_FAIL && (u64)s.ran * 2 < mine,
		       "failure, %u jobs x %d rank%s: the units after it are not run (%d of this rank's %llu ran, %.2f s)",
		       jobs[j], p, p > 1 ? "s" : "", s.ran, (unsigned long long)mine, t0);
	}
	free(res);

	rc = capture(err_outside, NULL, err, sizeof(err));
	tap_ok(!rc && !strcmp(err, "ftsim synth: outside a unit\n"),
	       "ftsim_err() outside a unit writes to stderr");
}

int main(int argc, char **argv)
{
	int rc = ftsim_mpi_init(&argc, &argv);

	if (rc)
		return rc;
	test_shards();
	test_launch();
	test_work();
	return ftsim_mpi_end(tap_done());
}
