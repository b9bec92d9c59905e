// SPDX-License-Identifier: GPL-2.0
/*
 * fattreed: the centralized scheduler of a fattree fabric. The loop waits
 * for a demand notification or the round period, whichever comes first,
 * and runs a scheduling round (round.c). SIGTERM/SIGINT stop it; SIGHUP
 * reloads its config file.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <time.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <syslog.h>
#include <unistd.h>

#include "fattreed.h"

static volatile sig_atomic_t ftd_stop, ftd_reload;

static void on_signal(int sig)
{
	if (sig == SIGHUP)
		ftd_reload = 1;
	else
		ftd_stop = 1;
}

/* Take the pid file, refusing when another fattreed holds it. */
static int ftd_pid_file(const char *path)
{
	char buf[32];
	int fd;

	fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0) {
		ftd_log(LOG_ERR, "pid file %s: %m", path);
		return -1;
	}
	if (flock(fd, LOCK_EX | LOCK_NB)) {
		ftd_log(LOG_ERR, "pid file %s: another fattreed holds it", path);
		close(fd);
		return -1;
	}
	snprintf(buf, sizeof(buf), "%d\n", getpid());
	if (ftruncate(fd, 0) || write(fd, buf, strlen(buf)) < 0) {
		ftd_log(LOG_ERR, "pid file %s: %m", path);
		close(fd);
		return -1;
	}
	return fd;		/* held open: the lock lives as long as we do */
}

/* SIGHUP: the file's settings again, the fabric and flags unchanged. */
static void ftd_reload_config(struct ftd *d, int argc, char **argv)
{
	struct ftd_config c;
	char idle[16];

	if (!*d->cfg.config_file) {
		ftd_log(LOG_INFO, "SIGHUP: no config file to reload");
		return;
	}
	if (ftd_config_parse(&c, argc, argv)) {
		ftd_log(LOG_ERR, "SIGHUP: %s is not valid; keeping the running settings",
			d->cfg.config_file);
		return;
	}
	if (strcmp(c.fabric, d->cfg.fabric)) {
		ftd_log(LOG_ERR, "SIGHUP: the fabric cannot change; keeping %s", d->cfg.fabric);
		return;
	}
	c.daemonize = d->cfg.daemonize;
	d->cfg = c;
	ftd_log_init(&d->cfg);
	snprintf(idle, sizeof(idle), "%u", c.idle);
	ftd_log(LOG_INFO, "SIGHUP: reloaded %s: %s, lease %u, idle %s, %s", c.config_file,
		ft_sched_algo_name(c.sched.algo), c.lease,
		c.idle == FT_ROUND_IDLE_AUTO ? "by path choice" : idle,
		ftd_select_desc(&c));
}

/*
 * How long to wait for the next round. A round that found no demand and
 * left no circuit has nothing to release, expire or resize: while demand
 * notifications come (the kernel announces a pair new to demand in the
 * cycle it comes), the next round waits for one, up to FTD_QUIET_MS,
 * rather than polling every --round-ms and taking the leaves' CPUs for
 * rounds that find nothing.
 */
static uint32_t ftd_wait_ms(const struct ftd *d, bool notified, int err)
{
	uint32_t ms = d->cfg.round_ms;

	if (notified && !err && d->rounds && !d->last.demand && !d->last.circuits &&
	    ms < FTD_QUIET_MS)
		ms = FTD_QUIET_MS;
	return ms;
}

/*
 * On a scheduled fabric every pair has its default path, and a round that
 * asked for no circuit (no pair collides) and holds none leaves nothing
 * waiting on the daemon: the rounds after it come at 2, 4, then 8 times
 * --round-ms, announcements or not, until one asks again. Traffic that
 * d-mod-k routes well then pays for few rounds on the CPUs its programs
 * share with the daemon, and colliding pairs wait at most 8 rounds' time
 * for their first circuit, on their default paths meanwhile. A circuit
 * fabric's pairs wait for circuits: every round there comes on time.
 */
static void ftd_backoff(struct ftd *d, struct nl_sock *demand, struct ftd_wake *wake,
			int err)
{
	struct timespec t0, t;
	uint32_t factor, ms;
	double spent;

	if (err || !d->last.optional || d->last.requests || d->last.circuits) {
		d->unasked = 0;
		return;
	}
	if (d->unasked < FTD_BACKOFF_MAX)
		d->unasked++;
	factor = 1U << d->unasked;
	ms = d->cfg.round_ms * (factor - 1);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (;;) {
		clock_gettime(CLOCK_MONOTONIC, &t);
		spent = (t.tv_sec - t0.tv_sec) * 1e3 + (t.tv_nsec - t0.tv_nsec) / 1e6;
		if (ftd_stop || ftd_reload || spent >= ms)
			return;
		/* Announcements meanwhile are read and dropped. */
		ftd_demand_wait(demand, wake, ms - (uint32_t)spent + 1);
	}
}

int main(int argc, char **argv)
{
	struct sigaction sa = { .sa_handler = on_signal };
	struct ftd *d = calloc(1, sizeof(*d));
	struct nl_sock *demand = NULL;
	struct ftd_wake wake = { 0 };
	int pid_fd = -1, rc = 1, err;

	if (!d)
		return 1;
	if (ftd_config_parse(&d->cfg, argc, argv))
		return 2;
	if (d->cfg.print_status)
		return ftd_status_print(&d->cfg);
	ftd_log_init(&d->cfg);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);

	if (ftd_setup(d))
		goto out;
	if (d->cfg.daemonize && daemon(0, 0)) {
		ftd_log(LOG_ERR, "cannot detach: %m");
		goto out;
	}
	if (*d->cfg.pid_file) {
		pid_fd = ftd_pid_file(d->cfg.pid_file);
		if (pid_fd < 0)
			goto out;
	}
	wake.fabric = d->cfg.fabric;
	wake.family = d->nl.family;
	demand = ftd_demand_listen(&wake);
	if (!demand)
		ftd_log(LOG_WARNING, "no demand notifications: polling every %u ms",
			d->cfg.round_ms);

	while (!ftd_stop) {
		if (ftd_reload) {
			ftd_reload = 0;
			ftd_reload_config(d, argc, argv);
		}
		err = ftd_round(d);
		if (err == -ENOENT || err == -EIO) {
			ftd_log(LOG_ERR, "fabric %s is gone: %s", d->cfg.fabric,
				ftnl_strerror(&d->nl, err));
			goto out;
		}
		if (err)
			ftd_log(LOG_WARNING, "round: %s", ftnl_strerror(&d->nl, err));
		if (d->cfg.rounds && d->rounds >= d->cfg.rounds)
			break;
		ftd_backoff(d, demand, &wake, err);
		ftd_demand_wait(demand, &wake, ftd_wait_ms(d, demand != NULL, err));
	}
	ftd_metrics_write(d, true);
	ftd_log(LOG_INFO, "stopping after %llu rounds: %llu of %llu requests granted",
		(unsigned long long)d->rounds, (unsigned long long)d->granted_total,
		(unsigned long long)d->requests_total);
	rc = 0;
out:
	if (demand)
		nl_socket_free(demand);
	if (pid_fd >= 0) {
		unlink(d->cfg.pid_file);
		close(pid_fd);
	}
	ftd_teardown(d);
	free(d);
	return rc;
}
