// SPDX-License-Identifier: GPL-2.0
/*
 * ftsim on MPI: the ranks of one run, when an MPI launcher started it
 * (mpirun, srun, ...). Built with Open MPI's mpicc and -DFTSIM_MPI when
 * `make` finds mpicc; otherwise without MPI, as one process that refuses
 * to be one of several (each would run the whole study).
 *
 * MPI_Init is called only when the environment says an MPI launcher
 * started this process: Open MPI's singleton init (a plain `ftsim` calling
 * MPI_Init) would start an orted, and refuse to as root. A plain ftsim
 * runs exactly as a build without MPI.
 *
 * Only the main thread calls MPI (MPI_THREAD_FUNNELED): par.c's worker
 * threads never do.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ftsim.h"

/* A decimal number of the environment, or -1. */
static long env_num(char *(*get)(const char *), const char *name)
{
	const char *s = get(name);
	char *end;
	long v;

	if (!s || !*s)
		return -1;
	v = strtol(s, &end, 10);
	return *end || v < 0 ? -1 : v;
}

bool ftsim_launch_detect(char *(*get)(const char *), struct ftsim_launch *l)
{
	long tasks = -1;

	memset(l, 0, sizeof(*l));
	l->rank = -1;
	l->size = -1;
	/* srun's own: the step's tasks (not SLURM_NTASKS, which a batch
	 * script has too, where ftsim runs as one process) */
	if (get("SLURM_PROCID"))
		tasks = env_num(get, "SLURM_STEP_NUM_TASKS");
	if (get("OMPI_COMM_WORLD_SIZE")) {
		/* Open MPI's mpirun (and its orted) */
		l->by = "OMPI_COMM_WORLD_SIZE";
		l->rank = env_num(get, "OMPI_COMM_WORLD_RANK");
		l->size = env_num(get, "OMPI_COMM_WORLD_SIZE");
	} else if (get("PMIX_RANK")) {
		/* a PMIx launcher: srun --mpi=pmix, prterun */
		l->by = "PMIX_RANK";
		l->rank = env_num(get, "PMIX_RANK");
		l->size = tasks;
	} else if (get("PMI_RANK") && get("PMI_SIZE")) {
		/* PMI-1/2: srun --mpi=pmi2, MPICH's hydra */
		l->by = "PMI_RANK";
		l->rank = env_num(get, "PMI_RANK");
		l->size = env_num(get, "PMI_SIZE");
	} else if (tasks > 1) {
		/* srun without a PMI plugin: MPI_Init says what is missing */
		l->by = "SLURM_PROCID";
		l->rank = env_num(get, "SLURM_PROCID");
		l->size = tasks;
	}
	return l->by != NULL;
}

static char *env_get(const char *name)
{
	return getenv(name);
}

#ifdef FTSIM_MPI
#include <mpi.h>

#define TAG_MSG		2
#define TAG_RES		3
/*
 * Stop notices carry their run's number in the tag: a rank that has
 * finished one run may fail in the next and notify a rank still waiting
 * for the first run's notices, which must not take it for one of those.
 */
#define TAG_STOP_BASE	16
#define TAG_STOP_RUNS	4096

static bool mpi_on;
static int mpi_rank;
static int mpi_size = 1;

static bool agreed;
static void wait_idle(MPI_Request *req);

/*
 * Every rank makes this call once: at the start of the shared work
 * (@failed false), or on its way out when it did not get there (@failed:
 * it is failing). So a rank that fails before the work (out of memory)
 * does not leave the others waiting in it. True if some rank failed
 * there.
 */
bool ftsim_mpi_agree(bool failed)
{
	int in = failed, out = 0;
	MPI_Request req;

	if (!mpi_on || agreed || mpi_size == 1)
		return false;
	agreed = true;
	MPI_Iallreduce(&in, &out, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD, &req);
	wait_idle(&req);
	return out;
}

/* exit() on every rank (--help) ends MPI as returning from main() does. */
static void end_at_exit(void)
{
	int done = 1;

	if (mpi_on && MPI_Finalized(&done) == MPI_SUCCESS && !done) {
		ftsim_mpi_agree(false);
		MPI_Finalize();
	}
}

int ftsim_mpi_init(int *argc, char ***argv)
{
	struct ftsim_launch l;
	int provided;

	if (!ftsim_launch_detect(env_get, &l))
		return 0;
	if (MPI_Init_thread(argc, argv, MPI_THREAD_FUNNELED, &provided) != MPI_SUCCESS) {
		fprintf(stderr, "ftsim: MPI_Init failed (started by an MPI launcher: %s is set)\n",
			l.by);
		return FTSIM_EXIT_FAIL;
	}
	mpi_on = true;
	atexit(end_at_exit);
	MPI_Comm_rank(MPI_COMM_WORLD, &mpi_rank);
	MPI_Comm_size(MPI_COMM_WORLD, &mpi_size);
	/* Rank 0 prints; the others' results reach it through MPI. */
	if (mpi_rank > 0 && !freopen("/dev/null", "w", stdout)) {
		fprintf(stderr, "ftsim: rank %d: cannot open /dev/null\n", mpi_rank);
		MPI_Abort(MPI_COMM_WORLD, FTSIM_EXIT_FAIL);
	}
	return 0;
}

int ftsim_mpi_end(int rc)
{
	if (!mpi_on)
		return rc;
	fflush(stdout);
	fflush(stderr);
	ftsim_mpi_agree(rc != 0);
	MPI_Finalize();
	return rc;
}

int ftsim_mpi_rank(void)
{
	return mpi_rank;
}

int ftsim_mpi_size(void)
{
	return mpi_size;
}

void ftsim_mpi_abort(int rc)
{
	fflush(stderr);
	if (mpi_on)
		MPI_Abort(MPI_COMM_WORLD, rc);
	exit(rc);
}

/*
 * Stop notices: a rank whose unit failed tells every other rank the
 * unit's number (at most once); each rank keeps one receive posted for
 * them while it works.
 */
static MPI_Request stop_rreq = MPI_REQUEST_NULL;
static u64 stop_rbuf;
static int stop_heard_n;
static MPI_Request *stop_sreq;
static int stop_sent_n;
static u64 stop_sbuf;
static int stop_tag = TAG_STOP_BASE;

static void stop_post(void)
{
	if (stop_heard_n < mpi_size - 1)
		MPI_Irecv(&stop_rbuf, 1, MPI_UINT64_T, MPI_ANY_SOURCE, stop_tag,
			  MPI_COMM_WORLD, &stop_rreq);
	else
		stop_rreq = MPI_REQUEST_NULL;
}

void ftsim_mpi_stop_start(void)
{
	static unsigned int runs;

	/* every rank starts the same runs in the same order */
	stop_tag = TAG_STOP_BASE + (int)(runs++ % TAG_STOP_RUNS);
	stop_heard_n = 0;
	stop_sent_n = 0;
	stop_post();
}

void ftsim_mpi_stop_tell(u64 unit)
{
	int r;

	stop_sbuf = unit;
	stop_sreq = calloc((size_t)mpi_size, sizeof(*stop_sreq));
	if (!stop_sreq)
		return;		/* the others hear of it at the end */
	for (r = 0; r < mpi_size; r++)
		if (r != mpi_rank)
			MPI_Isend(&stop_sbuf, 1, MPI_UINT64_T, r, stop_tag,
				  MPI_COMM_WORLD, &stop_sreq[stop_sent_n++]);
}

u64 ftsim_mpi_stop_heard(void)
{
	u64 v = UINT64_MAX;
	int flag;

	while (stop_rreq != MPI_REQUEST_NULL) {
		MPI_Test(&stop_rreq, &flag, MPI_STATUS_IGNORE);
		if (!flag)
			break;
		stop_heard_n++;
		if (stop_rbuf < v)
			v = stop_rbuf;
		stop_post();
	}
	return v;
}

/* MPI_Wait, sleeping between tests: a rank done early leaves its core. */
static void wait_idle(MPI_Request *req)
{
	struct timespec ts = { 0, 1000 * 1000 };
	int flag = 0;

	for (;;) {
		MPI_Test(req, &flag, MPI_STATUS_IGNORE);
		if (flag)
			return;
		nanosleep(&ts, NULL);
	}
}

u64 ftsim_mpi_stop_end(u64 mine, bool told, char *msg, size_t len)
{
	int t = told && stop_sreq, nt = 0, owner;
	MPI_Request req;
	u64 first = UINT64_MAX;

	MPI_Iallreduce(&mine, &first, 1, MPI_UINT64_T, MPI_MIN, MPI_COMM_WORLD, &req);
	wait_idle(&req);
	MPI_Allreduce(&t, &nt, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
	/* every notice sent to this rank, received; then no receive left */
	while (stop_heard_n < nt - t && stop_rreq != MPI_REQUEST_NULL) {
		MPI_Wait(&stop_rreq, MPI_STATUS_IGNORE);
		stop_heard_n++;
		stop_post();
	}
	if (stop_rreq != MPI_REQUEST_NULL) {
		MPI_Cancel(&stop_rreq);
		MPI_Wait(&stop_rreq, MPI_STATUS_IGNORE);
	}
	if (stop_sreq) {
		MPI_Waitall(stop_sent_n, stop_sreq, MPI_STATUSES_IGNORE);
		free(stop_sreq);
		stop_sreq = NULL;
	}
	if (first == UINT64_MAX)
		return first;
	/* the message of the first failed unit, from its rank to rank 0 */
	owner = (int)(first % (u64)mpi_size);
	if (owner && mpi_rank == owner)
		MPI_Send(msg, (int)strnlen(msg, len - 1) + 1, MPI_CHAR, 0, TAG_MSG,
			 MPI_COMM_WORLD);
	if (owner && !mpi_rank) {
		MPI_Recv(msg, (int)len, MPI_CHAR, owner, TAG_MSG, MPI_COMM_WORLD,
			 MPI_STATUS_IGNORE);
		msg[len - 1] = '\0';
	}
	return first;
}

/* At most this many bytes in one message. */
#define GATHER_CHUNK	(1UL << 30)

void ftsim_mpi_gather(void *res, const void *local, u64 units, size_t size)
{
	u64 per = size ? GATHER_CHUNK / size : 1, cnt, k, m, j;
	char *buf;
	int r;

	if (!per)
		per = 1;
	if (mpi_rank) {
		cnt = ftsim_shard_count(units, (u32)mpi_size, (u32)mpi_rank);
		for (k = 0; k < cnt; k += m) {
			m = cnt - k < per ? cnt - k : per;
			MPI_Send((const char *)local + k * size, (int)(m * size), MPI_BYTE,
				 0, TAG_RES, MPI_COMM_WORLD);
		}
		return;
	}
	cnt = ftsim_shard_count(units, (u32)mpi_size, 1);
	buf = malloc((cnt < per ? cnt : per) * size + 1);
	if (!buf) {
		fprintf(stderr, "ftsim: out of memory gathering the results\n");
		MPI_Abort(MPI_COMM_WORLD, FTSIM_EXIT_FAIL);
	}
	for (r = 1; r < mpi_size; r++) {
		cnt = ftsim_shard_count(units, (u32)mpi_size, (u32)r);
		for (k = 0; k < cnt; k += m) {
			m = cnt - k < per ? cnt - k : per;
			MPI_Recv(buf, (int)(m * size), MPI_BYTE, r, TAG_RES, MPI_COMM_WORLD,
				 MPI_STATUS_IGNORE);
			for (j = 0; j < m; j++)
				memcpy((char *)res + ((u64)r + (k + j) * (u64)mpi_size) * size,
				       buf + j * size, size);
		}
	}
	free(buf);
}

#else /* !FTSIM_MPI: one process */

int ftsim_mpi_init(int *argc, char ***argv)
{
	struct ftsim_launch l;

	(void)argc;
	(void)argv;
	if (!ftsim_launch_detect(env_get, &l) || (l.size <= 1 && l.rank <= 0))
		return 0;
	/* each process would run the whole study: say so, once */
	if (l.rank <= 0)
		fprintf(stderr, "ftsim: started by an MPI launcher (%s is set) as one of %ld processes,\n"
			"but this ftsim was built without MPI: each would run the whole study.\n"
			"Build it where Open MPI's mpicc is (apt-get install libopenmpi-dev), or run\n"
			"one ftsim with --jobs N.\n", l.by, l.size);
	return FTSIM_EXIT_FAIL;
}

int ftsim_mpi_end(int rc)
{
	return rc;
}

int ftsim_mpi_rank(void)
{
	return 0;
}

int ftsim_mpi_size(void)
{
	return 1;
}

void ftsim_mpi_abort(int rc)
{
	fflush(stderr);
	exit(rc);
}

bool ftsim_mpi_agree(bool failed)
{
	(void)failed;
	return false;
}

void ftsim_mpi_stop_start(void)
{
}

void ftsim_mpi_stop_tell(u64 unit)
{
	(void)unit;
}

u64 ftsim_mpi_stop_heard(void)
{
	return UINT64_MAX;
}

u64 ftsim_mpi_stop_end(u64 mine, bool told, char *msg, size_t len)
{
	(void)told;
	(void)msg;
	(void)len;
	return mine;
}

void ftsim_mpi_gather(void *res, const void *local, u64 units, size_t size)
{
	(void)res;
	(void)local;
	(void)units;
	(void)size;
}

#endif /* FTSIM_MPI */
