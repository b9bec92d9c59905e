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
 * longest of the ranks' times from the barrier before the job to their own
 * end (the job's traffic lies in that window, not in rank 0's alone).
 * Several jobs run one
 * after the other in one MPI run (one launch). Exit status 1 when any rank
 * found an error, 2 for a bad command line.
 *
 * FTMPI_HOOK=DIR (scripts/bench/mpi): before and after each job rank 0
 * writes "begin K" or "end K" (K counts jobs from 0) into the FIFO DIR/req
 * and waits for a line from the FIFO DIR/ack, then every rank meets in a
 * barrier; whoever reads the FIFOs can measure or change the fabric
 * between jobs of one launch.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

/* Rank 0 tells the hook's reader where it is and waits for its answer. */
static void hook(int me, const char *what, int k)
{
	const char *dir = getenv("FTMPI_HOOK");
	char path[4096], line[64];
	FILE *f;

	if (!dir || !*dir)
		return;
	if (!me) {
		snprintf(path, sizeof(path), "%s/req", dir);
		f = fopen(path, "w");
		if (f) {
			fprintf(f, "%s %d\n", what, k);
			fclose(f);
		}
		snprintf(path, sizeof(path), "%s/ack", dir);
		f = fopen(path, "r");
		if (f) {
			if (!fgets(line, sizeof(line), f))
				line[0] = 0;
			fclose(f);
		}
		if (!f)
			fprintf(stderr, "ftmpi_jobs: FTMPI_HOOK %s: no FIFOs there\n", dir);
	}
	MPI_Barrier(MPI_COMM_WORLD);
}

static int usage(void)
{
	fprintf(stderr, "usage: ftmpi_jobs JOB[/S] BYTES ITERS [JOB[/S] BYTES ITERS]...\n"
		"JOB: alltoall, ring, shift or stencil; /S: among every S-th rank only\n");
	return 2;
}

/* One job, timed, its errors counted on rank 0; -1 for bad arguments. */
static long run(const char *spec, const char *bytes, const char *iters_s, int me_world,
		int n_world)
{
	long bad = 0, bad_all = 0, stride = 1;
	unsigned char *s = NULL, *r = NULL;
	double t0, t = 0, t_max = 0;
	int iters, it, p, me, n;
	char job[16], *end;
	MPI_Comm comm;
	size_t len;

	len = strcspn(spec, "/");
	snprintf(job, sizeof(job), "%.*s", (int)(len < sizeof(job) ? len : 0), spec);
	if (strcmp(job, "alltoall") && strcmp(job, "ring") && strcmp(job, "shift") &&
	    strcmp(job, "stencil")) {
		if (!me_world)
			fprintf(stderr, "ftmpi_jobs: no job '%s'\n", spec);
		return -1;
	}
	if (spec[len]) {
		stride = strtol(spec + len + 1, &end, 10);
		if (*end || stride < 1 || stride > n_world) {
			if (!me_world)
				fprintf(stderr, "ftmpi_jobs: '%s': JOB/S wants S from 1 to %d\n",
					spec, n_world);
			return -1;
		}
	}
	len = strtoul(bytes, &end, 10);
	iters = atoi(iters_s);
	if (*end || !len || len > (64u << 20) || iters < 1) {
		if (!me_world)
			fprintf(stderr, "ftmpi_jobs: BYTES from 1 to 64 MiB, ITERS at least 1\n");
		return -1;
	}
	/* The job's ranks: every stride-th; the rest only meet the barriers. */
	MPI_Comm_split(MPI_COMM_WORLD, me_world % stride ? MPI_UNDEFINED : 0, me_world, &comm);
	MPI_Barrier(MPI_COMM_WORLD);
	if (comm == MPI_COMM_NULL)
		goto done;
	MPI_Comm_rank(comm, &me);
	MPI_Comm_size(comm, &n);
	p = strcmp(job, "alltoall") ? 2 : n;
	s = malloc(len * p);
	r = malloc(len * p);
	if (!s || !r) {
		fprintf(stderr, "ftmpi_jobs: rank %d: out of memory\n", me_world);
		MPI_Abort(MPI_COMM_WORLD, 1);
	}
	t0 = MPI_Wtime();
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
	t = MPI_Wtime() - t0;
	if (bad)
		fprintf(stderr, "ftmpi_jobs: rank %d: %ld bytes wrong\n", me_world, bad);
	MPI_Comm_free(&comm);
done:
	MPI_Reduce(&bad, &bad_all, 1, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
	MPI_Reduce(&t, &t_max, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
	if (!me_world)
		printf("job %s ranks %d bytes %zu iters %d seconds %.6f errors %ld\n",
		       spec, (n_world + (int)stride - 1) / (int)stride, len, iters, t_max,
		       bad_all);
	fflush(stdout);
	free(s);
	free(r);
	return bad_all;
}

int main(int argc, char **argv)
{
	long bad = 0, b;
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
	/* Every rank checks the same arguments, so all stop together. */
	for (i = 1; i < argc; i += 3) {
		hook(me, "begin", (i - 1) / 3);
		b = run(argv[i], argv[i + 1], argv[i + 2], me, n);
		hook(me, "end", (i - 1) / 3);
		if (b < 0) {
			MPI_Finalize();
			return 2;
		}
		bad += b;
	}
	MPI_Finalize();
	return bad ? 1 : 0;
}
