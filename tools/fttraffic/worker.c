// SPDX-License-Identifier: GPL-2.0
/*
 * A worker: one process on one leaf, one UDP socket, one io_uring.
 *
 * Sends go out as sendmsg SQEs from a pool of slots, as many as the pool
 * allows, linked into one chain (so that a send waiting for buffer space
 * holds back the ones behind it and a flow's order is kept; the next
 * chain goes when this one is done) and submitted together with the wait
 * for completions in one io_uring_enter; receives come from one multishot recv that picks its
 * buffers from a provided buffer ring, each buffer handed back as soon
 * as its message is checked. So the hot path makes one system call per
 * batch, not per message. The fabric does not orphan what it holds, so
 * a message stays charged to its socket's send buffer until delivered:
 * that is the back-pressure of a timed run (the default buffer), and a
 * batch, where every message waits in the fabric at once, gets a large
 * one.
 */
#include <errno.h>
#include <liburing.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>
#include <linux/sock_diag.h>
#include <netlink/socket.h>

#include "fttraffic.h"

#define BGID		7
#define UD_RECV		(1ULL << 63)
#define QD		1024U

#define LOAD(x)		__atomic_load_n(&(x), __ATOMIC_ACQUIRE)
#define BUMP(x, v)	__atomic_store_n(&(x), (x) + (v), __ATOMIC_RELAXED)

struct slot {
	struct msghdr mh;
	struct iovec iov;
	struct sockaddr_in to;
	uint8_t *buf;
	uint32_t flow;
	uint32_t next_free;
};

/* What a worker knows about a flow that ends at it. */
struct rx_flow {
	uint32_t flow;
	uint64_t next;		/* highest sequence number seen + 1 */
	uint64_t *seen;		/* bitmap of sequence numbers */
	uint64_t words;
};

struct worker {
	struct ftt_shared *sh;
	struct ftt_host *me;
	const struct ftt_run *run;
	struct io_uring ring;
	int fd;
	/* sending */
	struct slot *slot;
	uint32_t free_head, busy;
	uint32_t f0, f1, rr;	/* my flows [f0, f1), round robin */
	uint64_t round;		/* rate mode: the set repeats, round after round */
	uint64_t *next_seq;	/* per my flow */
	uint64_t issued, to_issue;
	uint32_t unsubmitted;	/* send SQEs since the last io_uring_enter */
	struct io_uring_sqe *last_send;	/* the chain's tail, to unlink */
	uint32_t *retry;	/* slots to send again, in their order */
	uint32_t nretry;
	uint64_t t0;
	/* receiving */
	struct io_uring_buf_ring *br;
	uint8_t *bufs;
	uint32_t bsize;
	bool armed;
	struct rx_flow *rx;
	uint32_t nrx;
	uint64_t expect;	/* batch: messages coming to me */
	struct nl_sock *rtnl;	/* for the device's drop counters */
	uint64_t dev_drops0;	/* the device's drops at the start */
};

static int fail(struct worker *w, const char *what, int err)
{
	snprintf(w->me->error, sizeof(w->me->error), "%s: %s", what, strerror(err));
	__atomic_store_n(&w->me->failed, 1, __ATOMIC_RELEASE);
	return -1;
}

static int open_socket(struct worker *w)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons(FTT_PORT),
				 .sin_addr = w->me->addr };
	int one = 1, big = 64 << 20;

	w->fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (w->fd < 0)
		return fail(w, "socket", errno);
	/* IP_RECVERR: a qdisc refusal comes back as ENOBUFS, to retry */
	if (setsockopt(w->fd, SOL_IP, IP_RECVERR, &one, sizeof(one)) ||
	    (w->run->batch &&
	     setsockopt(w->fd, SOL_SOCKET, SO_SNDBUFFORCE, &big, sizeof(big))) ||
	    setsockopt(w->fd, SOL_SOCKET, SO_RCVBUFFORCE, &w->run->rcvbuf, sizeof(int)))
		return fail(w, "setsockopt", errno);
	if (bind(w->fd, (struct sockaddr *)&a, sizeof(a)))
		return fail(w, "bind", errno);
	return 0;
}

static int setup_ring(struct worker *w)
{
	struct io_uring_buf_reg reg = { 0 };
	uint32_t i, n = w->run->bufs;
	int err;

	err = io_uring_queue_init(QD, &w->ring, 0);
	if (err)
		return fail(w, "io_uring_queue_init", -err);
	w->bsize = w->run->size;
	w->br = mmap(NULL, n * sizeof(struct io_uring_buf), PROT_READ | PROT_WRITE,
		     MAP_ANONYMOUS | MAP_PRIVATE, -1, 0);
	w->bufs = malloc((size_t)n * w->bsize);
	if (w->br == MAP_FAILED || !w->bufs)
		return fail(w, "buffer ring", ENOMEM);
	reg.ring_addr = (unsigned long)w->br;
	reg.ring_entries = n;
	reg.bgid = BGID;
	err = io_uring_register_buf_ring(&w->ring, &reg, 0);
	if (err)
		return fail(w, "io_uring_register_buf_ring", -err);
	io_uring_buf_ring_init(w->br);
	for (i = 0; i < n; i++)
		io_uring_buf_ring_add(w->br, w->bufs + (size_t)i * w->bsize, w->bsize, i,
				      io_uring_buf_ring_mask(n), i);
	io_uring_buf_ring_advance(w->br, n);
	return 0;
}

static int setup_send(struct worker *w)
{
	const struct ftt_set *s = w->run->set;
	uint32_t i, n = w->run->inflight;

	while (w->f0 < s->nflows && s->flow[w->f0].src < w->me->leaf)
		w->f0++;
	for (w->f1 = w->f0; w->f1 < s->nflows && s->flow[w->f1].src == w->me->leaf; w->f1++)
		w->to_issue += s->flow[w->f1].count;
	w->rr = w->f0;
	w->next_seq = calloc(w->f1 - w->f0 + 1, sizeof(*w->next_seq));
	w->slot = calloc(n, sizeof(*w->slot));
	w->retry = calloc(n, sizeof(*w->retry));
	if (!w->next_seq || !w->slot || !w->retry)
		return fail(w, "send slots", ENOMEM);
	for (i = 0; i < n; i++) {
		struct slot *sl = &w->slot[i];

		sl->buf = malloc(w->run->size);
		if (!sl->buf)
			return fail(w, "send slots", ENOMEM);
		sl->iov.iov_base = sl->buf;
		sl->iov.iov_len = w->run->size;
		sl->mh.msg_name = &sl->to;
		sl->mh.msg_namelen = sizeof(sl->to);
		sl->mh.msg_iov = &sl->iov;
		sl->mh.msg_iovlen = 1;
		sl->next_free = i + 1;
	}
	w->free_head = 0;
	return 0;
}

static int setup_recv(struct worker *w)
{
	const struct ftt_set *s = w->run->set;
	uint32_t i;

	w->rx = calloc(s->nflows ? s->nflows : 1, sizeof(*w->rx));
	if (!w->rx)
		return fail(w, "receive state", ENOMEM);
	for (i = 0; i < s->nflows; i++) {
		if (s->flow[i].dst != w->me->leaf)
			continue;
		w->rx[w->nrx++].flow = i;	/* in flow order: bsearch-able */
		w->expect += s->flow[i].count;
	}
	return 0;
}

static struct rx_flow *rx_find(struct worker *w, uint32_t flow)
{
	uint32_t lo = 0, hi = w->nrx;

	while (lo < hi) {
		uint32_t mid = (lo + hi) / 2;

		if (w->rx[mid].flow == flow)
			return &w->rx[mid];
		if (w->rx[mid].flow < flow)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

/* Mark @seq seen; false when it already was (a duplicate). */
static bool rx_mark(struct rx_flow *f, uint64_t seq)
{
	uint64_t word = seq / 64, bit = 1ULL << (seq % 64);

	if (word >= f->words) {
		uint64_t words = f->words ? f->words : 16, *p;

		while (words <= word)
			words *= 2;
		p = realloc(f->seen, words * sizeof(*p));
		if (!p)
			return true;	/* cannot tell: count it as new */
		memset(p + f->words, 0, (words - f->words) * sizeof(*p));
		f->seen = p;
		f->words = words;
	}
	if (f->seen[word] & bit)
		return false;
	f->seen[word] |= bit;
	return true;
}

static void on_message(struct worker *w, const uint8_t *buf, uint32_t len, uint64_t now)
{
	struct ftt_host *me = w->me;
	struct ftt_msg h;
	struct rx_flow *f;

	if (ftt_msg_check(buf, len, &h)) {
		BUMP(me->corrupted, 1);
		return;
	}
	f = h.dst == me->leaf ? rx_find(w, h.flow) : NULL;
	if (!f || w->run->set->flow[h.flow].src != h.src) {
		BUMP(me->misdirected, 1);
		return;
	}
	if (!rx_mark(f, h.seq)) {
		BUMP(w->sh->flow[h.flow].duplicated, 1);
		return;
	}
	if (h.seq + 1 < f->next)
		BUMP(w->sh->flow[h.flow].reordered, 1);
	else
		f->next = h.seq + 1;
	BUMP(w->sh->flow[h.flow].received, 1);
	BUMP(me->received, 1);
	BUMP(me->bytes_received, len);
	BUMP(me->lat[ftt_lat_bucket(now > h.sent_ns ? now - h.sent_ns : 0)], 1);
}

static void arm_recv(struct worker *w)
{
	struct io_uring_sqe *sqe = io_uring_get_sqe(&w->ring);

	if (!sqe)
		return;		/* full: armed on the next round */
	io_uring_prep_recv_multishot(sqe, w->fd, NULL, 0, 0);
	sqe->flags |= IOSQE_BUFFER_SELECT;
	sqe->buf_group = BGID;
	io_uring_sqe_set_data64(sqe, UD_RECV);
	w->armed = true;
}

/*
 * The next flow with messages left in this round, round robin; -1 when
 * none. A batch is one round; a timed run repeats the set round after
 * round, so each flow keeps its share (its count) of the source's rate.
 */
static int next_flow(struct worker *w)
{
	const struct ftt_set *s = w->run->set;
	uint32_t tries;

	if (w->f0 == w->f1)
		return -1;
	for (tries = 0; tries < 2 * (w->f1 - w->f0); tries++) {
		uint32_t f = w->rr;

		if (tries == w->f1 - w->f0) {
			if (w->run->batch)
				return -1;
			w->round++;
		}
		w->rr = w->rr + 1 < w->f1 ? w->rr + 1 : w->f0;
		if (w->next_seq[f - w->f0] < s->flow[f].count * (w->round + 1))
			return (int)f;
	}
	return -1;
}

static void submit_slot(struct worker *w, uint32_t i)
{
	struct io_uring_sqe *sqe = io_uring_get_sqe(&w->ring);

	io_uring_prep_sendmsg(sqe, w->fd, &w->slot[i].mh, 0);
	io_uring_sqe_set_data64(sqe, i);
	/* one chain: a send waiting for buffer space holds back the rest */
	sqe->flags |= IOSQE_IO_LINK;
	w->last_send = sqe;
	w->busy++;
	w->unsubmitted++;
}


/* Queue as many new messages as the pacing and the slots allow. */
static void fill_sends(struct worker *w, uint64_t now)
{
	const struct ftt_run *run = w->run;
	uint64_t allowed = UINT64_MAX;

	if (LOAD(w->sh->stop_tx))
		return;
	if (run->rate > 0) {
		double due = run->rate * (double)(now - w->t0) / 1e9;

		allowed = due > (double)w->issued ? (uint64_t)(due - (double)w->issued) : 0;
	}
	while (allowed-- && w->free_head < run->inflight &&
	       io_uring_sq_space_left(&w->ring) > 1) {
		struct ftt_host *dst;
		struct slot *sl;
		int f = next_flow(w);

		if (f < 0)
			return;
		sl = &w->slot[w->free_head];
		dst = &w->sh->host[run->host_of_leaf[run->set->flow[f].dst]];
		sl->to = (struct sockaddr_in){ .sin_family = AF_INET,
					       .sin_port = htons(FTT_PORT), .sin_addr = dst->addr };
		sl->flow = (uint32_t)f;
		ftt_msg_fill(sl->buf, run->size, sl->flow, w->next_seq[f - w->f0]++,
			     w->me->leaf, dst->leaf, now);
		w->issued++;
		submit_slot(w, w->free_head);
		w->free_head = sl->next_free;
	}
}

/* The refused sends first, in their order, then new ones; one chain. */
static void queue_sends(struct worker *w, uint64_t now)
{
	uint32_t i;

	if (w->busy)
		return;		/* the last chain first: no overtaking */
	for (i = 0; i < w->nretry; i++)
		submit_slot(w, w->retry[i]);
	w->nretry = 0;
	fill_sends(w, now);
	if (w->last_send)
		w->last_send->flags &= ~IOSQE_IO_LINK;
	w->last_send = NULL;
}

static int on_send(struct worker *w, uint32_t i, int res)
{
	struct slot *sl = &w->slot[i];

	w->busy--;
	if (res == -ENOBUFS || res == -EAGAIN || res == -EINTR || res == -ECANCELED) {
		/* refused before the fabric (or behind a refusal): again, in order */
		if (res == -ENOBUFS)
			BUMP(w->me->qdisc_drops, 1);
		w->retry[w->nretry++] = i;
		return 0;
	}
	if (res < 0)
		return fail(w, "send", -res);
	BUMP(w->sh->flow[sl->flow].sent, 1);
	BUMP(w->me->sent, 1);
	BUMP(w->me->bytes_sent, (uint64_t)res);
	sl->next_free = w->free_head;
	w->free_head = i;
	return 0;
}

static int on_recv(struct worker *w, struct io_uring_cqe *cqe, uint64_t now)
{
	uint32_t mask = io_uring_buf_ring_mask(w->run->bufs);

	if (!(cqe->flags & IORING_CQE_F_MORE))
		w->armed = false;
	if (cqe->res == -ENOBUFS) {
		BUMP(w->me->ring_stalls, 1);
		return 0;
	}
	if (cqe->res < 0)
		return fail(w, "multishot receive", -cqe->res);
	if (cqe->flags & IORING_CQE_F_BUFFER) {
		uint16_t bid = cqe->flags >> IORING_CQE_BUFFER_SHIFT;
		uint8_t *buf = w->bufs + (size_t)bid * w->bsize;

		on_message(w, buf, (uint32_t)cqe->res, now);
		io_uring_buf_ring_add(w->br, buf, w->bsize, bid, mask, 0);
		io_uring_buf_ring_advance(w->br, 1);
	}
	return 0;
}

static bool sending_done(struct worker *w)
{
	if (w->busy || w->nretry)
		return false;
	if (LOAD(w->sh->stop_tx))
		return true;
	return w->run->batch && w->issued == w->to_issue;
}

/* The socket's receive drops so far (the controller watches them drain). */
static void count_socket_drops(struct worker *w)
{
	uint32_t mem[SK_MEMINFO_VARS] = { 0 };
	socklen_t len = sizeof(mem);

	if (!getsockopt(w->fd, SOL_SOCKET, SO_MEMINFO, mem, &len) &&
	    len > SK_MEMINFO_DROPS * sizeof(uint32_t))
		__atomic_store_n(&w->me->rcvbuf_drops, mem[SK_MEMINFO_DROPS], __ATOMIC_RELAXED);
}

/* Drops of the leaf device itself since the start (e.g. a veth's peer full). */
static void count_dev_drops(struct worker *w)
{
	uint64_t d;

	if (!ftt_host_dev_drops(&w->rtnl, w->me->ifname, &d) && d >= w->dev_drops0)
		__atomic_store_n(&w->me->dev_drops, d - w->dev_drops0, __ATOMIC_RELAXED);
}

static int loop(struct worker *w)
{
	struct __kernel_timespec ts = { .tv_nsec = 1000000 };
	uint64_t next_meminfo = 0;

	w->t0 = ftt_now_ns();
	/* Until told to stop receiving, and sending is over (or abandoned). */
	while (!LOAD(w->sh->stop_rx) || (!sending_done(w) && !LOAD(w->sh->stop_tx))) {
		struct io_uring_cqe *cqe;
		unsigned int head, seen = 0;
		uint64_t now = ftt_now_ns();
		bool stopping = LOAD(w->sh->stop_tx);
		int err;

		if (now >= next_meminfo) {
			count_socket_drops(w);	/* system calls: ten times a second */
			count_dev_drops(w);
			next_meminfo = now + 100000000ULL;
		}
		if (!w->armed)
			arm_recv(w);
		queue_sends(w, now);
		if (w->unsubmitted)
			BUMP(w->me->submit_calls, 1);
		w->unsubmitted = 0;
		err = io_uring_submit_and_wait_timeout(&w->ring, &cqe, 1, &ts, NULL);
		if (err < 0 && err != -ETIME && err != -EINTR)
			return fail(w, "io_uring_submit_and_wait_timeout", -err);
		now = ftt_now_ns();
		io_uring_for_each_cqe(&w->ring, head, cqe) {
			if (cqe->user_data == UD_RECV)
				err = on_recv(w, cqe, now);
			else
				err = on_send(w, (uint32_t)cqe->user_data, cqe->res);
			if (err)
				return err;
			seen++;
		}
		io_uring_cq_advance(&w->ring, seen);
		/* stop_tx seen before this round's sends, and all completed */
		if (stopping && !w->busy && !w->nretry)
			__atomic_store_n(&w->me->tx_done, 1, __ATOMIC_RELEASE);
	}
	return 0;
}


int ftt_worker(struct ftt_shared *sh, uint32_t me, const struct ftt_run *run,
	       int (*ready)(void *arg), void *arg)
{
	struct worker w = { .sh = sh, .me = &sh->host[me], .run = run, .fd = -1 };
	int err;

	err = open_socket(&w);
	if (!err)
		err = setup_ring(&w);
	if (!err)
		err = setup_send(&w);
	if (!err)
		err = setup_recv(&w);
	if (!err && ftt_host_dev_drops(&w.rtnl, w.me->ifname, &w.dev_drops0))
		w.dev_drops0 = 0;
	if (!err && ready(arg))
		err = fail(&w, "waiting to start", EPIPE);
	if (!err)
		err = loop(&w);
	if (w.fd >= 0) {
		count_socket_drops(&w);
		count_dev_drops(&w);
		close(w.fd);
	}
	if (w.rtnl)
		nl_socket_free(w.rtnl);
	return err ? -1 : 0;
}
