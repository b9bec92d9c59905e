// SPDX-License-Identifier: GPL-2.0
/*
 * ftmpi_jobs: small MPI jobs whose every byte is checked, for running on a
 * fabric's leaves with ftmpirun. Each job repeats one communication
 * pattern ITERS times with BYTES per message:
 *   alltoall  MPI_Alltoall, every rank to every rank
 *   ring      each rank to rank + 1 (MPI_Sendrecv), the last to the first
 *   shift     the permutation exchange rank -> rank + n/2
 *   stencil   nearest neighbours on a ring: both sides each iteration
 * JOB/S runs the job among every S-th rank only (ranks 0, S, 2S, ...), the
 * others wait: on a fabric, an all-to-all over fewer ranks spread across
 * the tree. Payload bytes are a function of (source, destination, iteration,
 * offset), so a lost, stale or misrouted byte is found. Rank 0 prints one
 * line per job: job ranks bytes iters seconds errors, where seconds is the
 * job's span, from the first rank's start (leaving the barrier before the
 * job, or the hook's gate with FTMPI_HOOK) to the last rank's end, on
 * CLOCK_MONOTONIC, which every rank of an ftmpirun job shares (one host).
 * Not the longest of the ranks' own times: ranks leave the barrier or
 * gate at different times, and pairs that do not wait for each other (the
 * shift's) run staggered, so the job's traffic can span more than any one
 * rank's time. Several jobs run one after the other in one MPI run (one
 * launch). Exit status 1 when any rank found an error, 2 for a bad command
 * line.
 *
 * FTMPI_HOOK=DIR (scripts/bench/mpi): before and after each job rank 0
 * writes "begin K" or "end K" (K counts jobs from 0) into the FIFO DIR/req
 * and waits for a line from the FIFO DIR/ack; whoever reads the FIFOs can
 * measure or change the fabric between jobs of one launch. The ranks wait
 * for rank 0 there on FIFOs of their own (DIR/go, DIR/done, DIR/resume),
 * not in MPI barriers: the window between "begin K" and "end K" then
 * carries the job's traffic and nothing else of MPI's, so counters read
 * at its ends are the job's. "end K" comes once every rank has finished.
 */
#include <errno.h>
#include <fcntl.h>
#include <float.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* Seconds on the host's monotonic clock, shared by all its processes. */
static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static unsigned char byte_of(int src, int dst, int it, size_t i)
{
	return (unsigned char)(src * 131 + dst * 31 + it * 7 + i * 13 + (i >> 8));
}

static void fill(unsigned char *b, size_t len, int src, int dst, int it)
{
	for (size_t i = 0; i < len; i++)
		b[i] = byte_of(src, dst, it, i);
}

static long check(const unsigned char *b, size_t len, int src, int dst, int it)
{
	long bad = 0;

	for (size_t i = 0; i < len; i++)
		bad += b[i] != byte_of(src, dst, it, i);
	return bad;
}

/* One exchange with a peer pair: send to @to, receive from @from. */
static long exchange(MPI_Comm comm, unsigned char *s, unsigned char *r, size_t len, int me,
		     int to, int from, int it)
{
	fill(s, len, me, to, it);
	memset(r, 0, len);
	MPI_Sendrecv(s, (int)len, MPI_BYTE, to, it, r, (int)len, MPI_BYTE, from, it,
		     comm, MPI_STATUS_IGNORE);
	return check(r, len, from, me, it);
}

/*
 * The hook's gates: FIFOs every rank holds open read-write (on Linux
 * that never blocks, see fifo(7)). A rank passes a gate by reading one
 * byte from it, and rank 0 opens it by writing one byte per other rank.
 * A rank reads no byte of a gate's next opening before every rank has
 * passed this one: go and resume alternate, and rank 0 opens either only
 * after hearing from every rank (done, or a collective) in between.
 */
enum { GATE_GO, GATE_DONE, GATE_RESUME, GATES };
static const char *const gate_name[GATES] = { "go", "done", "resume" };
static int gate_fd[GATES] = { -1, -1, -1 };
static const char *hook_dir;

static void die(int me, const char *what, const char *path)
{
	fprintf(stderr, "ftmpi_jobs: rank %d: FTMPI_HOOK: %s %s: %s\n", me, what, path,
		strerror(errno));
	MPI_Abort(MPI_COMM_WORLD, 1);
}

/* Rank 0 makes the gates, then every rank opens them. */
static void hook_init(int me)
{
	char path[4096];
	int g;

	hook_dir = getenv("FTMPI_HOOK");
	if (hook_dir && !*hook_dir)
		hook_dir = NULL;
	if (!hook_dir)
		return;
	for (g = 0; !me && g < GATES; g++) {
		snprintf(path, sizeof(path), "%s/%s", hook_dir, gate_name[g]);
		if (mkfifo(path, 0600) && errno != EEXIST)
			die(me, "mkfifo", path);
	}
	MPI_Barrier(MPI_COMM_WORLD);
	for (g = 0; g < GATES; g++) {
		snprintf(path, sizeof(path), "%s/%s", hook_dir, gate_name[g]);
		gate_fd[g] = open(path, O_RDWR | O_CLOEXEC);
		if (gate_fd[g] < 0)
			die(me, "open", path);
	}
}

/* @count bytes through gate @g, written (@out) or read, one at a time when read. */
static void gate_io(int me, int g, int count, int out)
{
	char b[256];
	ssize_t k;

	memset(b, 'g', sizeof(b));
	while (count > 0) {
		if (out)
			k = write(gate_fd[g], b, count < (int)sizeof(b) ? (size_t)count : sizeof(b));
		else
			k = read(gate_fd[g], b, 1);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			die(me, out ? "write" : "read", gate_name[g]);
		count -= (int)k;
	}
}

/* Rank 0 tells the hook's reader where it is and waits for its answer. */
static void hook_call(const char *what, int k)
{
	char path[4096], line[64];
	FILE *f;

	snprintf(path, sizeof(path), "%s/req", hook_dir);
	f = fopen(path, "w");
	if (f) {
		fprintf(f, "%s %d\n", what, k);
		fclose(f);
	}
	snprintf(path, sizeof(path), "%s/ack", hook_dir);
	f = fopen(path, "r");
	if (f) {
		if (!fgets(line, sizeof(line), f))
			line[0] = 0;
		fclose(f);
	}
	if (!f)
		fprintf(stderr, "ftmpi_jobs: FTMPI_HOOK %s: no FIFOs there\n", hook_dir);
}

/*
 * Before job @k, every rank ready: rank 0 calls "begin", then lets the
 * others go. Without a hook, the barrier is the start.
 */
static void hook_begin(int me, int n, int k)
{
	MPI_Barrier(MPI_COMM_WORLD);
	if (!hook_dir)
		return;
	if (!me) {
		hook_call("begin", k);
		gate_io(me, GATE_GO, n - 1, 1);
	} else {
		gate_io(me, GATE_GO, 1, 0);
	}
}

/* After job @k: once every rank is done, rank 0 calls "end", then lets them on. */
static void hook_end(int me, int n, int k)
{
	if (!hook_dir)
		return;
	if (!me) {
		gate_io(me, GATE_DONE, n - 1, 0);
		hook_call("end", k);
		gate_io(me, GATE_RESUME, n - 1, 1);
	} else {
		gate_io(me, GATE_DONE, 1, 1);
		gate_io(me, GATE_RESUME, 1, 0);
	}
}

static int usage(void)
{
	fprintf(stderr, "usage: ftmpi_jobs JOB[/S] BYTES ITERS [JOB[/S] BYTES ITERS]...\n"
		"JOB: alltoall, ring, shift or stencil; /S: among every S-th rank only\n");
	return 2;
}

/* A job from the command line. */
struct job {
	const char *spec;	/* as given: JOB[/S] */
	char name[16];
	long stride;
	size_t len;		/* bytes per message */
	int iters;
};

/* Parse one JOB[/S] BYTES ITERS; every rank gets the same answer. */
static int parse(struct job *j, const char *spec, const char *bytes, const char *iters,
		 int me, int n)
{
	size_t k = strcspn(spec, "/");
	char *end;

	j->spec = spec;
	j->stride = 1;
	snprintf(j->name, sizeof(j->name), "%.*s", (int)(k < sizeof(j->name) ? k : 0), spec);
	if (strcmp(j->name, "alltoall") && strcmp(j->name, "ring") &&
	    strcmp(j->name, "shift") && strcmp(j->name, "stencil")) {
		if (!me)
			fprintf(stderr, "ftmpi_jobs: no job '%s'\n", spec);
		return -1;
	}
	if (spec[k]) {
		j->stride = strtol(spec + k + 1, &end, 10);
		if (*end || j->stride < 1 || j->stride > n) {
			if (!me)
				fprintf(stderr, "ftmpi_jobs: '%s': JOB/S wants S from 1 to %d\n",
					spec, n);
			return -1;
		}
	}
	j->len = strtoul(bytes, &end, 10);
	j->iters = atoi(iters);
	if (*end || !j->len || j->len > (64u << 20) || j->iters < 1) {
		if (!me)
			fprintf(stderr, "ftmpi_jobs: BYTES from 1 to 64 MiB, ITERS at least 1\n");
		return -1;
	}
	return 0;
}

/*
 * Job @k, timed, its errors counted on rank 0. @comm holds the job's
 * ranks (MPI_COMM_NULL on the others, which only meet the hooks and the
 * reductions); it and the buffers are made before the hook opens the
 * job's window, so that setting them up is not counted as the job's
 * traffic, and the reductions come after it closes.
 */
static long run(const struct job *j, int k, MPI_Comm comm, int me_world, int n_world)
{
	unsigned char *s = NULL, *r = NULL;
	/* Ranks outside the job: no start, no end (neutral in MIN and MAX). */
	double t0 = DBL_MAX, t1 = -DBL_MAX, first = 0, last = 0;
	long bad = 0, bad_all = 0;
	size_t len = j->len;
	const char *job = j->name;
	int iters = j->iters, it, p, me = 0, n = 0;

	if (comm != MPI_COMM_NULL) {
		MPI_Comm_rank(comm, &me);
		MPI_Comm_size(comm, &n);
		p = strcmp(job, "alltoall") ? 2 : n;
		s = malloc(len * p);
		r = malloc(len * p);
		if (!s || !r) {
			fprintf(stderr, "ftmpi_jobs: rank %d: out of memory\n", me_world);
			MPI_Abort(MPI_COMM_WORLD, 1);
		}
	}
	hook_begin(me_world, n_world, k);
	if (comm == MPI_COMM_NULL)
		goto done;
	t0 = now();
	for (it = 0; it < iters; it++) {
		if (!strcmp(job, "alltoall")) {
			for (int d = 0; d < n; d++)
				fill(s + d * len, len, me, d, it);
			memset(r, 0, len * n);
			MPI_Alltoall(s, (int)len, MPI_BYTE, r, (int)len, MPI_BYTE, comm);
			for (int src = 0; src < n; src++)
				bad += check(r + src * len, len, src, me, it);
		} else if (!strcmp(job, "ring")) {
			bad += exchange(comm, s, r, len, me, (me + 1) % n, (me + n - 1) % n, it);
		} else if (!strcmp(job, "shift")) {
			bad += exchange(comm, s, r, len, me, (me + n / 2) % n,
					(me + n - n / 2) % n, it);
		} else {
			bad += exchange(comm, s, r, len, me, (me + 1) % n, (me + n - 1) % n, it);
			bad += exchange(comm, s + len, r + len, len, me, (me + n - 1) % n,
					(me + 1) % n, it);
		}
	}
	t1 = now();
	if (bad)
		fprintf(stderr, "ftmpi_jobs: rank %d: %ld bytes wrong\n", me_world, bad);
done:
	hook_end(me_world, n_world, k);
	MPI_Reduce(&bad, &bad_all, 1, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
	MPI_Reduce(&t0, &first, 1, MPI_DOUBLE, MPI_MIN, 0, MPI_COMM_WORLD);
	MPI_Reduce(&t1, &last, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
	if (!me_world)
		printf("job %s ranks %d bytes %zu iters %d seconds %.6f errors %ld\n",
		       j->spec, (n_world + (int)j->stride - 1) / (int)j->stride, len, iters,
		       last - first, bad_all);
	fflush(stdout);
	free(s);
	free(r);
	return bad_all;
}

int main(int argc, char **argv)
{
	struct job *jobs;
	long bad = 0;
	int me, n, i;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &me);
	MPI_Comm_size(MPI_COMM_WORLD, &n);
	if (argc < 4 || (argc - 1) % 3) {
		if (!me)
			usage();
		MPI_Finalize();
		return 2;
	}
	/*
	 * Every rank checks the same arguments, all of them before the first
	 * job runs, so all stop together and a typo in the last job costs no
	 * run.
	 */
	jobs = calloc(argc / 3, sizeof(*jobs));
	if (!jobs) {
		fprintf(stderr, "ftmpi_jobs: rank %d: out of memory\n", me);
		MPI_Abort(MPI_COMM_WORLD, 1);
	}
	for (i = 1; i < argc; i += 3) {
		if (parse(&jobs[i / 3], argv[i], argv[i + 1], argv[i + 2], me, n)) {
			free(jobs);
			MPI_Finalize();
			return 2;
		}
	}
	hook_init(me);
	for (i = 0; i < argc / 3; i++) {
		MPI_Comm comm;

		MPI_Comm_split(MPI_COMM_WORLD, me % jobs[i].stride ? MPI_UNDEFINED : 0, me,
			       &comm);
		bad += run(&jobs[i], i, comm, me, n);
		if (comm != MPI_COMM_NULL)
			MPI_Comm_free(&comm);
	}
	free(jobs);
	MPI_Finalize();
	return bad ? 1 : 0;
}
