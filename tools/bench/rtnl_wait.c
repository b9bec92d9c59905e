// SPDX-License-Identifier: GPL-2.0
/*
 * rtnl_wait: how long another rtnl user waits while something holds rtnl
 * (make bench runs it while fabrics are created and deleted). It asks the
 * kernel for the loopback device (RTM_GETLINK by index, which takes rtnl)
 * every INTERVAL microseconds until SIGTERM or SIGINT, then prints one
 * line of JSON:
 *   {"calls":N,"max_ms":X,"p99_ms":Y,"p50_ms":Z}
 * Each figure is a request's round trip. With --ready FILE it creates FILE
 * once its socket is connected, so a caller starts the work it measures
 * only when the measuring has started.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <netlink/netlink.h>
#include <netlink/route/link.h>

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static void usage(FILE *f)
{
	fprintf(f, "usage: rtnl_wait [--interval USEC] [--ready FILE]\n"
		   "Ask for the loopback device (RTM_GETLINK) every USEC microseconds\n"
		   "(default 5000) until SIGTERM or SIGINT; print the round trips'\n"
		   "count, maximum, 99th percentile and median in ms as JSON.\n");
}

int main(int argc, char **argv)
{
	const char *ready = NULL;
	long interval = 5000;
	struct sigaction sa;
	struct nl_sock *sk;
	double *lat = NULL;
	size_t n = 0, cap = 0;
	int i, err;

	for (i = 1; i < argc; i++) {
		char *end;

		if (!strcmp(argv[i], "--help")) {
			usage(stdout);
			return 0;
		} else if (!strcmp(argv[i], "--interval") && i + 1 < argc) {
			errno = 0;
			interval = strtol(argv[++i], &end, 10);
			if (errno || *end || interval < 0 || interval > 10000000) {
				fprintf(stderr, "rtnl_wait: --interval wants 0 to 10000000 microseconds, not '%s'\n",
					argv[i]);
				return 2;
			}
		} else if (!strcmp(argv[i], "--ready") && i + 1 < argc) {
			ready = argv[++i];
		} else {
			fprintf(stderr, "rtnl_wait: unknown or incomplete argument '%s'\n", argv[i]);
			usage(stderr);
			return 2;
		}
	}

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;	/* no SA_RESTART: a sleep ends at once */
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);

	sk = nl_socket_alloc();
	if (!sk || nl_connect(sk, NETLINK_ROUTE) < 0) {
		fprintf(stderr, "rtnl_wait: cannot open a routing netlink socket\n");
		return 1;
	}
	if (ready) {
		int fd = open(ready, O_WRONLY | O_CREAT | O_TRUNC, 0644);

		if (fd < 0) {
			fprintf(stderr, "rtnl_wait: %s: %s\n", ready, strerror(errno));
			return 1;
		}
		close(fd);
	}

	while (!stop) {
		struct timespec gap = { interval / 1000000, interval % 1000000 * 1000 };
		struct rtnl_link *link;
		double t0 = now_ms();

		err = rtnl_link_get_kernel(sk, 1, NULL, &link);
		if (err < 0) {
			if (stop)
				break;
			fprintf(stderr, "rtnl_wait: RTM_GETLINK: %s\n", nl_geterror(err));
			return 1;
		}
		rtnl_link_put(link);
		if (n == cap) {
			double *more;

			cap = cap ? 2 * cap : 1024;
			more = realloc(lat, cap * sizeof(*lat));
			if (!more) {
				fprintf(stderr, "rtnl_wait: out of memory\n");
				return 1;
			}
			lat = more;
		}
		lat[n++] = now_ms() - t0;
		nanosleep(&gap, NULL);
	}
	nl_socket_free(sk);

	if (!n) {
		fprintf(stderr, "rtnl_wait: stopped before the first answer\n");
		free(lat);
		return 1;
	}
	qsort(lat, n, sizeof(*lat), cmp_double);
	printf("{\"calls\":%zu,\"max_ms\":%.3f,\"p99_ms\":%.3f,\"p50_ms\":%.3f}\n",
	       n, lat[n - 1], lat[(n - 1) * 99 / 100], lat[(n - 1) / 2]);
	free(lat);
	return 0;
}
