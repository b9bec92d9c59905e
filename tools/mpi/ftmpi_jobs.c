// SPDX-License-Identifier: GPL-2.0
/*
 * ftmpi_jobs: small MPI jobs whose every byte is checked, for running on a
 * fabric's leaves with ftmpirun. Each job repeats one communication
 * pattern ITERS times with BYTES per message:
 *   alltoall  MPI_Alltoall, every rank to every rank
 *   ring      each rank to rank + 1 (MPI_Sendrecv), the last to the first
 *   shift     the permutation exchange rank -> rank + n/2
 *   stencil   nearest neighbours on a ring: both sides each iteration
 * Payload bytes are a function of (source, destination, iteration,
 * offset), so a lost, stale or misrouted byte is found. Rank 0 prints one
 * line: job ranks bytes iters seconds errors; exit status 1 when any rank
 * found an error, 2 for a bad command line.
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
static long exchange(unsigned char *s, unsigned char *r, size_t len, int me, int to,
		     int from, int it)
{
	fill(s, len, me, to, it);
	memset(r, 0, len);
	MPI_Sendrecv(s, (int)len, MPI_BYTE, to, it, r, (int)len, MPI_BYTE, from, it,
		     MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	return check(r, len, from, me, it);
}

static int usage(void)
{
	fprintf(stderr, "usage: ftmpi_jobs alltoall|ring|shift|stencil BYTES ITERS\n");
	return 2;
}

int main(int argc, char **argv)
{
	unsigned char *s, *r;
	long bad = 0, bad_all = 0;
	int me, n, iters, it, p;
	double t0, t1;
	size_t len;
	char *end;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &me);
	MPI_Comm_size(MPI_COMM_WORLD, &n);
	if (argc != 4 || (strcmp(argv[1], "alltoall") && strcmp(argv[1], "ring") &&
			  strcmp(argv[1], "shift") && strcmp(argv[1], "stencil"))) {
		if (!me)
			usage();
		MPI_Finalize();
		return 2;
	}
	len = strtoul(argv[2], &end, 10);
	iters = atoi(argv[3]);
	if (*end || !len || len > (64u << 20) || iters < 1) {
		if (!me)
			fprintf(stderr, "ftmpi_jobs: BYTES from 1 to 64 MiB, ITERS at least 1\n");
		MPI_Finalize();
		return 2;
	}
	p = strcmp(argv[1], "alltoall") ? 2 : n;
	s = malloc(len * p);
	r = malloc(len * p);
	if (!s || !r) {
		fprintf(stderr, "ftmpi_jobs: rank %d: out of memory\n", me);
		MPI_Abort(MPI_COMM_WORLD, 1);
	}
	MPI_Barrier(MPI_COMM_WORLD);
	t0 = MPI_Wtime();
	for (it = 0; it < iters; it++) {
		if (!strcmp(argv[1], "alltoall")) {
			for (int d = 0; d < n; d++)
				fill(s + d * len, len, me, d, it);
			memset(r, 0, len * n);
			MPI_Alltoall(s, (int)len, MPI_BYTE, r, (int)len, MPI_BYTE,
				     MPI_COMM_WORLD);
			for (int src = 0; src < n; src++)
				bad += check(r + src * len, len, src, me, it);
		} else if (!strcmp(argv[1], "ring")) {
			bad += exchange(s, r, len, me, (me + 1) % n, (me + n - 1) % n, it);
		} else if (!strcmp(argv[1], "shift")) {
			bad += exchange(s, r, len, me, (me + n / 2) % n,
					(me + n - n / 2) % n, it);
		} else {
			bad += exchange(s, r, len, me, (me + 1) % n, (me + n - 1) % n, it);
			bad += exchange(s + len, r + len, len, me, (me + n - 1) % n,
					(me + 1) % n, it);
		}
	}
	t1 = MPI_Wtime();
	if (bad)
		fprintf(stderr, "ftmpi_jobs: rank %d: %ld bytes wrong\n", me, bad);
	MPI_Reduce(&bad, &bad_all, 1, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
	if (!me)
		printf("job %s ranks %d bytes %zu iters %d seconds %.6f errors %ld\n",
		       argv[1], n, len, iters, t1 - t0, bad_all);
	free(s);
	free(r);
	MPI_Finalize();
	return bad_all ? 1 : 0;
}
