// SPDX-License-Identifier: GPL-2.0
/*
 * ftmpi_jobs: small MPI jobs whose every byte is checked, for running on a
 * fabric's leaves with ftmpirun. Each job repeats one communication
 * pattern ITERS times with BYTES per message, among its P ranks:
 *   alltoall  MPI_Alltoall, every rank to every rank
 *   ring      each rank to rank + 1 (MPI_Sendrecv), the last to the first
 *   shift     the permutation exchange rank -> rank + P/2
 *   stencil   nearest neighbours on a ring: both sides each iteration
 *   transpose a distributed matrix transpose on a q x q process grid
 *             (P = q^2): rank (i, j) = i*q + j swaps blocks with (j, i)
 *   bitrev    rank r swaps with r's log2 P bits reversed (P = 2^b)
 *   fft       a radix-2 FFT's butterflies, the binary-exchange algorithm
 *             (P = 2^b): b exchanges, the s-th with rank r XOR 2^s
 *   pingpong  the first rank sends to the last, which sends it back
 *   stream    the first rank sends to the last, with up to 8 messages in
 *             flight (MPI_Isend/MPI_Irecv), as a bandwidth benchmark does
 * A job whose P does not fit (transpose, bitrev, fft; pingpong and stream
 * want 2 or more) is refused before anything runs. A rank whose partner
 * is itself (transpose's diagonal, bitrev's palindromes) exchanges with
 * itself, which no fabric sees. Before every job but alltoall each rank
 * exchanges one byte with each of its partners, outside the job's time
 * and FTMPI_HOOK's window: Open MPI's TCP transport opens a connection at
 * a pair's first message, and the job should time moving data.
 * JOB/S runs the job among every S-th rank only (ranks 0, S, 2S, ...), the
 * others wait: on a fabric, a job over fewer ranks spread across the tree.
 * With S the k of a k-ary tree, one rank per leaf switch, on its first
 * leaf: under d-mod-k every rank's traffic leaves its switch by up-port
 * 0 (all its destinations are multiples of k), a link no other rank's
 * shares, so whether paths collide is up to the pattern a level higher
 * (transpose/4 on FT(3,4) puts 3 pairs on one link; shift/4, fft/4 none).
 * Payload bytes are a function of (source, destination, iteration,
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

/* The jobs, by name. */
enum kind {
	J_ALLTOALL, J_RING, J_SHIFT, J_STENCIL, J_TRANSPOSE, J_BITREV, J_FFT, J_PINGPONG,
	J_STREAM, J_KINDS,
};
static const char *const kind_name[J_KINDS] = {
	"alltoall", "ring", "shift", "stencil", "transpose", "bitrev", "fft", "pingpong", "stream",
};

/* Messages stream keeps in flight, and the most bytes it buffers for them. */
enum { STREAM_WINDOW = 8, STREAM_BUF = 16 << 20 };
/* The tag of the one-byte exchanges that open a job's connections. */
enum { WARM_TAG = 32767 };

static int usage(void)
{
	fprintf(stderr, "usage: ftmpi_jobs JOB[/S] BYTES ITERS [JOB[/S] BYTES ITERS]...\n"
		"JOB: alltoall, ring, shift, stencil, transpose (a square number of ranks),\n"
		"bitrev or fft (a power of two), pingpong or stream (first rank to last,\n"
		"at least 2 ranks); /S: among every S-th rank only\n");
	return 2;
}

/* A job from the command line. */
struct job {
	const char *spec;	/* as given: JOB[/S] */
	enum kind kind;
	long stride;
	int ranks;		/* in the job: every stride-th of the world's */
	size_t len;		/* bytes per message */
	int iters;
};

/* The square root of @n when it is a square, else -1. */
static int square_root(int n)
{
	int q = 0;

	while ((q + 1) * (q + 1) <= n)
		q++;
	return q * q == n ? q : -1;
}

/* log2 @n when @n is a power of two, else -1. */
static int log2_exact(int n)
{
	int b = 0;

	while ((1 << b) < n)
		b++;
	return n == 1 << b ? b : -1;
}

/* Parse one JOB[/S] BYTES ITERS; every rank gets the same answer. */
static int parse(struct job *j, const char *spec, const char *bytes, const char *iters,
		 int me, int n)
{
	size_t k = strcspn(spec, "/");
	const char *want = NULL;
	char *end;
	int p;

	j->spec = spec;
	j->stride = 1;
	for (p = 0; p < J_KINDS; p++)
		if (strlen(kind_name[p]) == k && !strncmp(spec, kind_name[p], k))
			break;
	if (p == J_KINDS) {
		if (!me)
			fprintf(stderr, "ftmpi_jobs: no job '%s'\n", spec);
		return -1;
	}
	j->kind = p;
	if (spec[k]) {
		j->stride = strtol(spec + k + 1, &end, 10);
		if (*end || j->stride < 1 || j->stride > n) {
			if (!me)
				fprintf(stderr, "ftmpi_jobs: '%s': JOB/S wants S from 1 to %d\n",
					spec, n);
			return -1;
		}
	}
	j->ranks = (n + (int)j->stride - 1) / (int)j->stride;
	if (j->kind == J_TRANSPOSE && square_root(j->ranks) < 0)
		want = "a square number of ranks (a q x q grid)";
	else if ((j->kind == J_BITREV || j->kind == J_FFT) && log2_exact(j->ranks) < 0)
		want = "a power-of-two number of ranks";
	else if ((j->kind == J_PINGPONG || j->kind == J_STREAM) && j->ranks < 2)
		want = "at least 2 ranks";
	if (want) {
		if (!me && j->stride > 1)
			fprintf(stderr, "ftmpi_jobs: '%s' wants %s; it has %d (ranks 0, %ld, ... of %d)\n",
				spec, want, j->ranks, j->stride, n);
		else if (!me)
			fprintf(stderr, "ftmpi_jobs: '%s' wants %s; it has %d\n", spec, want, n);
		return -1;
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

/* Exchanges per iteration of a pairwise job on @n ranks. */
static int steps(const struct job *j, int n)
{
	switch (j->kind) {
	case J_STENCIL:
		return 2;
	case J_FFT:
		return log2_exact(n);
	default:
		return 1;
	}
}

/*
 * Exchange @step of a pairwise job on @n ranks: rank @me sends to *@to
 * and receives from *@from (the same rank for the involutions).
 */
static void peers(const struct job *j, int me, int n, int step, int *to, int *from)
{
	int q, b, r, i;

	switch (j->kind) {
	case J_RING:
		*to = (me + 1) % n;
		*from = (me + n - 1) % n;
		return;
	case J_SHIFT:
		*to = (me + n / 2) % n;
		*from = (me + n - n / 2) % n;
		return;
	case J_STENCIL:
		*to = (me + (step ? n - 1 : 1)) % n;
		*from = (me + (step ? 1 : n - 1)) % n;
		return;
	case J_TRANSPOSE:
		q = square_root(n);
		*to = *from = (me % q) * q + me / q;
		return;
	case J_BITREV:
		b = log2_exact(n);
		for (r = 0, i = 0; i < b; i++)
			r |= ((me >> i) & 1) << (b - 1 - i);
		*to = *from = r;
		return;
	case J_FFT:
		*to = *from = me ^ (1 << step);
		return;
	default:	/* pingpong, stream: first and last */
		*to = *from = me ? 0 : n - 1;
		return;
	}
}

/*
 * One byte each way with every partner of the job, outside its window:
 * Open MPI's TCP transport opens a pair's connection at its first
 * message, and the job should time moving data, not handshakes.
 */
static long warm_up(const struct job *j, MPI_Comm comm, int me, int n)
{
	unsigned char s, r;
	long bad = 0;
	int step, to, from;

	if (j->kind == J_PINGPONG || j->kind == J_STREAM) {
		if (me && me != n - 1)
			return 0;
		peers(j, me, n, 0, &to, &from);
		return exchange(comm, &s, &r, 1, me, to, from, WARM_TAG);
	}
	for (step = 0; step < steps(j, n); step++) {
		peers(j, me, n, step, &to, &from);
		bad += exchange(comm, &s, &r, 1, me, to, from, WARM_TAG);
	}
	return bad;
}

/* ITERS round trips of @len bytes between the first rank and the last. */
static long pingpong(MPI_Comm comm, unsigned char *s, unsigned char *r, size_t len, int me,
		     int n, int iters)
{
	int last = n - 1, it;
	long bad = 0;

	for (it = 0; it < iters; it++) {
		memset(r, 0, len);
		if (!me) {
			fill(s, len, 0, last, it);
			MPI_Send(s, (int)len, MPI_BYTE, last, it, comm);
			MPI_Recv(r, (int)len, MPI_BYTE, last, it, comm, MPI_STATUS_IGNORE);
			bad += check(r, len, last, 0, it);
		} else {
			MPI_Recv(r, (int)len, MPI_BYTE, 0, it, comm, MPI_STATUS_IGNORE);
			bad += check(r, len, 0, last, it);
			fill(s, len, last, 0, it);
			MPI_Send(s, (int)len, MPI_BYTE, 0, it, comm);
		}
	}
	return bad;
}

/* Messages stream has in flight at once: up to STREAM_WINDOW, STREAM_BUF bytes. */
static int window(const struct job *j)
{
	size_t w = STREAM_BUF / j->len;

	if (w > STREAM_WINDOW)
		w = STREAM_WINDOW;
	if (w > (size_t)j->iters)
		w = j->iters;
	return w ? (int)w : 1;
}

/*
 * @iters messages of @len bytes from the first rank to the last, @w at a
 * time: the sender posts @w sends, the receiver @w receives, each waits
 * for all of its own, and the receiver checks them.
 */
static long stream(MPI_Comm comm, unsigned char *s, unsigned char *r, size_t len, int me,
		   int n, int iters, int w)
{
	MPI_Request req[STREAM_WINDOW];
	int last = n - 1, it, c, i;
	long bad = 0;

	for (it = 0; it < iters; it += c) {
		c = iters - it < w ? iters - it : w;
		for (i = 0; i < c; i++) {
			if (!me) {
				fill(s + i * len, len, 0, last, it + i);
				MPI_Isend(s + i * len, (int)len, MPI_BYTE, last, it + i, comm,
					  &req[i]);
			} else {
				memset(r + i * len, 0, len);
				MPI_Irecv(r + i * len, (int)len, MPI_BYTE, 0, it + i, comm,
					  &req[i]);
			}
		}
		MPI_Waitall(c, req, MPI_STATUSES_IGNORE);
		for (i = 0; me && i < c; i++)
			bad += check(r + i * len, len, 0, last, it + i);
	}
	return bad;
}

/* One iteration of a pairwise job: its exchanges, each checked. */
static long pairwise(const struct job *j, MPI_Comm comm, unsigned char *s, unsigned char *r,
		     int me, int n, int it)
{
	int nstep = steps(j, n), step, to, from;
	long bad = 0;

	for (step = 0; step < nstep; step++) {
		peers(j, me, n, step, &to, &from);
		bad += exchange(comm, s + step % 2 * j->len, r + step % 2 * j->len, j->len, me,
				to, from, it * nstep + step);
	}
	return bad;
}

/*
 * Job @k, timed, its errors counted on rank 0. @comm holds the job's
 * ranks (MPI_COMM_NULL on the others, which only meet the hooks and the
 * reductions); it, the buffers and the connections are made before the
 * hook opens the job's window, so that setting them up is not counted
 * as the job's traffic, and the reductions come after it closes.
 */
static long run(const struct job *j, int k, MPI_Comm comm, int me_world, int n_world)
{
	unsigned char *s = NULL, *r = NULL;
	/* Ranks outside the job: no start, no end (neutral in MIN and MAX). */
	double t0 = DBL_MAX, t1 = -DBL_MAX, first = 0, last = 0;
	long bad = 0, bad_all = 0;
	size_t len = j->len;
	int iters = j->iters, it, p, me = 0, n = 0, idle;

	if (comm != MPI_COMM_NULL) {
		MPI_Comm_rank(comm, &me);
		MPI_Comm_size(comm, &n);
		p = j->kind == J_ALLTOALL ? n : j->kind == J_STREAM ? window(j) : 2;
		s = malloc(len * p);
		r = malloc(len * p);
		if (!s || !r) {
			fprintf(stderr, "ftmpi_jobs: rank %d: out of memory\n", me_world);
			MPI_Abort(MPI_COMM_WORLD, 1);
		}
		if (j->kind != J_ALLTOALL)
			bad += warm_up(j, comm, me, n);
	}
	hook_begin(me_world, n_world, k);
	/* pingpong's and stream's other ranks only wait: no start, no end */
	idle = (j->kind == J_PINGPONG || j->kind == J_STREAM) && me && me != n - 1;
	if (comm == MPI_COMM_NULL || idle)
		goto done;
	t0 = now();
	if (j->kind == J_PINGPONG)
		bad += pingpong(comm, s, r, len, me, n, iters);
	else if (j->kind == J_STREAM)
		bad += stream(comm, s, r, len, me, n, iters, window(j));
	for (it = 0; j->kind == J_ALLTOALL && it < iters; it++) {
		for (int d = 0; d < n; d++)
			fill(s + d * len, len, me, d, it);
		memset(r, 0, len * n);
		MPI_Alltoall(s, (int)len, MPI_BYTE, r, (int)len, MPI_BYTE, comm);
		for (int src = 0; src < n; src++)
			bad += check(r + src * len, len, src, me, it);
	}
	for (it = 0; j->kind != J_ALLTOALL && j->kind != J_PINGPONG && j->kind != J_STREAM &&
	     it < iters; it++)
		bad += pairwise(j, comm, s, r, me, n, it);
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
		       j->spec, j->ranks, len, iters, last - first, bad_all);
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
