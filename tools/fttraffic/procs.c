// SPDX-License-Identifier: GPL-2.0
/*
 * The worker processes: started one per leaf, held at two barriers
 * (hosts set up; sockets and rings ready) so that no message leaves
 * before every receiver is listening, watched for an early death, and
 * ended. A worker dies with the controller (PR_SET_PDEATHSIG); the
 * controller ends every worker when one fails or on SIGINT/SIGTERM.
 *
 * A barrier is a pipe each way: every worker writes one byte up when it
 * reaches it; the controller closes the write end of the phase's "go"
 * pipe, and every worker blocked reading it sees EOF at once.
 */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/signalfd.h>
#include <sys/wait.h>
#include <unistd.h>

#include "procs.h"

static int wait_go(int fd)
{
	char c;
	ssize_t r;

	do
		r = read(fd, &c, 1);
	while (r < 0 && errno == EINTR);
	return r == 0 ? 0 : -1;	/* EOF is the signal */
}

static int up(struct ftt_procs *p)
{
	return write(p->up[1], "u", 1) == 1 ? 0 : -1;
}

static int worker_ready(void *arg)
{
	struct ftt_procs *p = arg;

	if (up(p))
		return -1;
	return wait_go(p->go[1][0]);
}

/* Hosts this worker sends to: the ones it needs neighbour entries for. */
static int neighbours(struct ftt_procs *p, struct ftt_host_ns *ns, uint32_t me, char *err,
		      size_t len)
{
	const struct ftt_set *s = p->run->set;
	struct ftt_host *h = &p->sh->host[me], *dst;
	uint32_t i, n = 0;
	int e;

	dst = calloc(p->sh->nhosts, sizeof(*dst));
	if (!dst) {
		snprintf(err, len, "out of memory");
		return -1;
	}
	for (i = 0; i < s->nflows; i++)
		if (s->flow[i].src == h->leaf)
			dst[n++] = p->sh->host[p->run->host_of_leaf[s->flow[i].dst]];
	e = ftt_host_neighbours(ns, h, dst, n, err, len);
	free(dst);
	return e;
}

static void child(struct ftt_procs *p, uint32_t me, const sigset_t *old)
{
	struct ftt_host *h = &p->sh->host[me];
	struct ftt_host_ns *ns;
	char err[sizeof(h->error)] = "";
	int rc = 1;

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	sigprocmask(SIG_SETMASK, old, NULL);
	if (getppid() != p->parent)
		_exit(1);
	close(p->up[0]);
	close(p->go[0][1]);
	close(p->go[1][1]);
	close(p->sigfd);
	ns = ftt_host_enter(h, p->cfg, err, sizeof(err));
	if (ns && ftt_host_mac(h->ifname, h->mac))
		snprintf(err, sizeof(err), "cannot read the MAC address of %s", h->ifname);
	if (ns && !err[0] && !up(p) && !wait_go(p->go[0][0]) &&
	    !neighbours(p, ns, me, err, sizeof(err)))
		rc = ftt_worker(p->sh, me, p->run, worker_ready, p) ? 1 : 0;
	if (err[0]) {
		memcpy(h->error, err, sizeof(err));
		__atomic_store_n(&h->failed, 1, __ATOMIC_RELEASE);
	}
	ftt_host_leave(ns);
	_exit(rc);
}

int ftt_procs_start(struct ftt_procs *p, char *err, size_t len)
{
	sigset_t set, old;
	uint32_t i;

	p->parent = getpid();
	p->pid = calloc(p->sh->nhosts, sizeof(*p->pid));
	if (!p->pid || pipe2(p->up, O_CLOEXEC) || pipe2(p->go[0], O_CLOEXEC) ||
	    pipe2(p->go[1], O_CLOEXEC)) {
		snprintf(err, len, "cannot set up the workers: %s", strerror(errno));
		return -1;
	}
	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGCHLD);
	sigaddset(&set, SIGHUP);
	sigprocmask(SIG_BLOCK, &set, &old);
	p->sigfd = signalfd(-1, &set, SFD_CLOEXEC | SFD_NONBLOCK);
	if (p->sigfd < 0) {
		snprintf(err, len, "signalfd: %s", strerror(errno));
		return -1;
	}
	fflush(NULL);
	for (i = 0; i < p->sh->nhosts; i++) {
		pid_t pid = fork();

		if (pid < 0) {
			snprintf(err, len, "cannot start worker %u: %s", i, strerror(errno));
			return -1;
		}
		if (!pid)
			child(p, i, &old);
		p->pid[i] = pid;
		p->sh->host[i].pid = pid;
		p->started++;
	}
	close(p->up[1]);
	close(p->go[0][0]);
	close(p->go[1][0]);
	p->up[1] = p->go[0][0] = p->go[1][0] = -1;
	return 0;
}

/* Why a worker stopped, for the message. */
static void child_failed(struct ftt_procs *p, pid_t pid, int status, char *err, size_t len)
{
	uint32_t i;

	for (i = 0; i < p->started; i++) {
		if (p->pid[i] != pid)
			continue;
		p->pid[i] = 0;
		p->exited++;
		if (__atomic_load_n(&p->sh->host[i].failed, __ATOMIC_ACQUIRE))
			snprintf(err, len, "worker on leaf %u: %s", p->sh->host[i].leaf,
				 p->sh->host[i].error);
		else if (WIFSIGNALED(status))
			snprintf(err, len, "worker on leaf %u killed by signal %d",
				 p->sh->host[i].leaf, WTERMSIG(status));
		else if (WEXITSTATUS(status))
			snprintf(err, len, "worker on leaf %u exited with status %d",
				 p->sh->host[i].leaf, WEXITSTATUS(status));
		return;
	}
}

/*
 * Take pending signals: 0 when nothing happened, -EINTR on SIGINT, SIGTERM
 * or SIGHUP, -ECHILD when a worker ended badly (@err says which).
 */
int ftt_procs_poll(struct ftt_procs *p, char *err, size_t len)
{
	struct signalfd_siginfo si;
	int status, rc = 0;
	pid_t pid;

	while (read(p->sigfd, &si, sizeof(si)) == sizeof(si)) {
		if (si.ssi_signo != SIGCHLD) {
			snprintf(err, len, "interrupted by signal %u", si.ssi_signo);
			rc = -EINTR;
		}
	}
	while ((pid = waitpid(-1, &status, WNOHANG)) > 0) {
		bool bad = !WIFEXITED(status) || WEXITSTATUS(status);

		if (bad && !rc) {
			child_failed(p, pid, status, err, len);
			rc = -ECHILD;
		} else {
			char ignore[8];

			child_failed(p, pid, status, ignore, 0);
		}
	}
	return rc;
}

/* Sleep up to @ms, waking early for a signal. */
int ftt_procs_sleep(struct ftt_procs *p, int ms, char *err, size_t len)
{
	struct pollfd pfd = { .fd = p->sigfd, .events = POLLIN };

	if (ms > 0)
		poll(&pfd, 1, ms);
	return ftt_procs_poll(p, err, len);
}

int ftt_procs_barrier(struct ftt_procs *p, double timeout, char *err, size_t len)
{
	struct pollfd pfd[2] = { { .fd = p->up[0], .events = POLLIN },
				 { .fd = p->sigfd, .events = POLLIN } };
	uint64_t deadline = ftt_now_ns() + (uint64_t)(timeout * 1e9);
	uint32_t got = 0;
	int e;

	while (got < p->sh->nhosts) {
		char buf[256];
		ssize_t r;

		if (ftt_now_ns() > deadline) {
			snprintf(err, len, "%u of %u workers were ready after %.0f s", got,
				 p->sh->nhosts, timeout);
			return -ETIMEDOUT;
		}
		poll(pfd, 2, 100);
		e = ftt_procs_poll(p, err, len);
		if (e)
			return e;
		r = read(p->up[0], buf, p->sh->nhosts - got < sizeof(buf) ?
			 p->sh->nhosts - got : sizeof(buf));
		if (r > 0)
			got += (uint32_t)r;
		else if (r == 0) {
			/* every worker has gone: say why, once they are reaped */
			usleep(100000);
			e = ftt_procs_poll(p, err, len);
			if (!e)
				snprintf(err, len, "the workers went away");
			return e ? e : -ECHILD;
		}
	}
	return 0;
}

void ftt_procs_go(struct ftt_procs *p, int phase)
{
	if (p->go[phase][1] >= 0)
		close(p->go[phase][1]);
	p->go[phase][1] = -1;
}

/* Wait for every worker to end, killing what is left after @timeout s. */
int ftt_procs_end(struct ftt_procs *p, double timeout, char *err, size_t len)
{
	uint64_t deadline = ftt_now_ns() + (uint64_t)(timeout * 1e9);
	char scratch[160];
	int rc = 0, e;
	uint32_t i;

	ftt_procs_go(p, 0);
	ftt_procs_go(p, 1);
	while (p->exited < p->started) {
		if (ftt_now_ns() > deadline) {
			for (i = 0; i < p->started; i++)
				if (p->pid[i] > 0)
					kill(p->pid[i], SIGKILL);
			deadline = UINT64_MAX;
			if (!rc) {
				snprintf(err, len, "workers did not stop; killed");
				rc = -ETIMEDOUT;
			}
		}
		e = ftt_procs_sleep(p, 50, rc ? scratch : err, rc ? sizeof(scratch) : len);
		if (e && !rc)
			rc = e;
	}
	return rc;
}

void ftt_procs_kill(struct ftt_procs *p)
{
	uint32_t i;

	for (i = 0; p->pid && i < p->started; i++)
		if (p->pid[i] > 0)
			kill(p->pid[i], SIGTERM);
}
