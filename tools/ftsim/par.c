// SPDX-License-Identifier: GPL-2.0
/*
 * ftsim: a command's work shared out as units, on threads (--jobs) and on
 * MPI ranks (mpi.c), with the results gathered in unit order.
 *
 * A unit's randomness comes from --seed and the unit's index alone, so
 * whoever runs it computes the same result; the command reduces the
 * results in unit order, so the output is the serial run's whatever the
 * number of threads or ranks.
 *
 * Rank r of p takes units r, r + p, r + 2p, ... (its shard, in increasing
 * order); its threads take the shard's units one at a time, in that
 * order. A unit that fails stops the run: no unit above it is started any
 * more, here or (through mpi.c) on the other ranks, while the units below
 * it still run, so the failure reported is the first one in unit order
 * among the units that ran (the serial run's, for a failure that does not
 * depend on timing or memory).
 */
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ftsim.h"

/* A unit's failure message. */
struct unit_msg {
	char buf[FTSIM_MSG_MAX];
	size_t len;
};

/* The unit the calling thread runs, if any: ftsim_err() writes there. */
static __thread struct unit_msg *cur_msg;
/* Set on a worker thread that must not draw progress on the terminal. */
static __thread bool progress_muted;

void ftsim_err(const char *fmt, ...)
{
	struct unit_msg *m = cur_msg;
	va_list ap;
	int k;

	va_start(ap, fmt);
	if (!m) {
		ftsim_progress_done();
		vfprintf(stderr, fmt, ap);
		va_end(ap);
		return;
	}
	if (m->len < sizeof(m->buf) - 1) {
		k = vsnprintf(m->buf + m->len, sizeof(m->buf) - m->len, fmt, ap);
		if (k > 0)
			m->len += (size_t)k;
		if (m->len > sizeof(m->buf) - 1)
			m->len = sizeof(m->buf) - 1;
	}
	va_end(ap);
}

bool ftsim_progress_allowed(void)
{
	return !progress_muted && ftsim_mpi_rank() == 0;
}

u64 ftsim_shard_count(u64 n, u32 p, u32 r)
{
	if (!p || r >= p || r >= n)
		return 0;
	return (n - 1 - r) / p + 1;
}

struct par {
	const struct ftsim_work *w;
	char *res;		/* rank 0: every unit at u; else the shard at k */
	bool direct;
	u32 rank;
	u32 size;
	u64 count;		/* units in this rank's shard */
	atomic_uint_fast64_t next;	/* the shard's next unit to take */
	atomic_uint_fast64_t stop_at;	/* no unit from here on */
	pthread_mutex_t lock;
	u64 fail_unit;		/* this rank's first failed unit, or UINT64_MAX */
	struct unit_msg fail_msg;
	unsigned int running;	/* threads not done yet */
	pthread_cond_t done;
};

struct worker {
	struct par *p;
	unsigned int id;
	pthread_t thread;
};

static void lower(atomic_uint_fast64_t *a, u64 v)
{
	uint_fast64_t cur = atomic_load(a);

	while (v < cur && !atomic_compare_exchange_weak(a, &cur, v))
		;
}

static void work(struct par *p, unsigned int id)
{
	const struct ftsim_work *w = p->w;
	struct unit_msg msg;
	void *ws = NULL;
	u64 k, u;
	char *r;
	int rc;

	progress_muted = id > 0;
	for (;;) {
		k = atomic_fetch_add(&p->next, 1);
		if (k >= p->count)
			break;
		u = p->rank + k * p->size;
		if (u >= atomic_load(&p->stop_at))
			break;
		r = p->res + (p->direct ? u : k) * w->size;
		memset(r, 0, w->size);
		msg.len = 0;
		msg.buf[0] = '\0';
		cur_msg = &msg;
		rc = w->run(w->ctx, &ws, u, r);
		cur_msg = NULL;
		if (!rc)
			continue;
		if (!msg.len)
			snprintf(msg.buf, sizeof(msg.buf), "ftsim %s: unit %" PRIu64 " failed\n",
				 w->cmd, u);
		pthread_mutex_lock(&p->lock);
		if (u < p->fail_unit) {
			p->fail_unit = u;
			p->fail_msg = msg;
		}
		pthread_mutex_unlock(&p->lock);
		lower(&p->stop_at, u);
		break;
	}
	if (w->worker_free)
		w->worker_free(w->ctx, ws);
}

static void *worker_main(void *arg)
{
	struct worker *wk = arg;
	struct par *p = wk->p;

	work(p, wk->id);
	pthread_mutex_lock(&p->lock);
	p->running--;
	pthread_cond_signal(&p->done);
	pthread_mutex_unlock(&p->lock);
	return NULL;
}

/*
 * Wait for the threads; with other ranks, meanwhile tell them of a
 * failure here and hear of theirs (mpi.c; MPI calls from this thread
 * only). *@told: this rank told the others of its failure.
 */
static void wait_threads(struct par *p, bool *told)
{
	struct timespec ts;
	u64 v, mine;

	pthread_mutex_lock(&p->lock);
	while (p->running) {
		if (p->size > 1) {
			mine = p->fail_unit;
			pthread_mutex_unlock(&p->lock);
			if (mine != UINT64_MAX && !*told) {
				ftsim_mpi_stop_tell(mine);
				*told = true;
			}
			v = ftsim_mpi_stop_heard();
			if (v != UINT64_MAX)
				lower(&p->stop_at, v);
			pthread_mutex_lock(&p->lock);
		}
		clock_gettime(CLOCK_REALTIME, &ts);
		ts.tv_nsec += 10 * 1000 * 1000;
		if (ts.tv_nsec >= 1000000000L) {
			ts.tv_sec++;
			ts.tv_nsec -= 1000000000L;
		}
		pthread_cond_timedwait(&p->done, &p->lock, &ts);
	}
	pthread_mutex_unlock(&p->lock);
}

int ftsim_work_run(const struct ftsim_work *w, void *res)
{
	struct worker *wk = NULL;
	unsigned int jobs, i, started = 0;
	struct par p;
	bool told = false;
	u64 first;
	int err;

	if (ftsim_mpi_agree(false)) {
		/* that rank said why; rank 0 says it was not itself */
		if (!ftsim_mpi_rank())
			fprintf(stderr, "ftsim %s: another MPI rank failed before the work began\n",
				w->cmd);
		return FTSIM_EXIT_FAIL;
	}
	memset(&p, 0, sizeof(p));
	p.w = w;
	p.rank = (u32)ftsim_mpi_rank();
	p.size = (u32)ftsim_mpi_size();
	p.count = ftsim_shard_count(w->units, p.size, p.rank);
	p.direct = p.rank == 0;
	p.res = res;
	p.fail_unit = UINT64_MAX;
	atomic_init(&p.next, 0);
	atomic_init(&p.stop_at, UINT64_MAX);
	pthread_mutex_init(&p.lock, NULL);
	pthread_cond_init(&p.done, NULL);
	if (!p.direct) {
		p.res = malloc(p.count && w->size ? p.count * w->size : 1);
		if (!p.res) {
			fprintf(stderr, "ftsim %s: out of memory for the results of rank %u\n",
				w->cmd, p.rank);
			ftsim_mpi_abort(FTSIM_EXIT_FAIL);
		}
	}
	jobs = w->jobs ? w->jobs : 1;
	if (jobs > p.count)
		jobs = p.count ? (unsigned int)p.count : 1;
	if (p.size > 1)
		ftsim_mpi_stop_start();
	if (p.size == 1 && jobs == 1) {
		/* the serial run: this thread, no other */
		work(&p, 0);
	} else {
		wk = calloc(jobs, sizeof(*wk));
		p.running = 0;
		for (i = 0; wk && i < jobs; i++) {
			wk[i].p = &p;
			wk[i].id = i;
			pthread_mutex_lock(&p.lock);
			p.running++;
			pthread_mutex_unlock(&p.lock);
			err = pthread_create(&wk[i].thread, NULL, worker_main, &wk[i]);
			if (err) {
				pthread_mutex_lock(&p.lock);
				p.running--;
				pthread_mutex_unlock(&p.lock);
				break;
			}
			started++;
		}
		if (!started) {
			/* no thread to be had: this one does the work */
			free(wk);
			wk = NULL;
			work(&p, 0);
		}
		wait_threads(&p, &told);
		for (i = 0; i < started; i++)
			pthread_join(wk[i].thread, NULL);
		free(wk);
	}
	first = p.fail_unit;
	if (p.size > 1)
		first = ftsim_mpi_stop_end(p.fail_unit, told, p.fail_msg.buf,
					   sizeof(p.fail_msg.buf));
	if (first == UINT64_MAX && p.size > 1)
		ftsim_mpi_gather(res, p.direct ? NULL : p.res, w->units, w->size);
	if (!p.direct)
		free(p.res);
	pthread_mutex_destroy(&p.lock);
	pthread_cond_destroy(&p.done);
	if (first == UINT64_MAX)
		return 0;
	if (p.rank == 0) {
		ftsim_progress_done();
		fputs(p.fail_msg.buf, stderr);
		fflush(stderr);
	}
	return FTSIM_EXIT_FAIL;
}

int ftsim_parse_jobs(const char *cmd, const char *s, unsigned int *jobs)
{
	u32 v;

	if (ftsim_parse_u32(cmd, "--jobs", s, 1, FTSIM_MAX_JOBS, &v))
		return -1;
	*jobs = v;
	return 0;
}
