// SPDX-License-Identifier: GPL-2.0
/*
 * udp_pair: messages per second from one network namespace to another,
 * whatever joins them (a fabric's leaves, a veth pair). A receiver in
 * namespace B counts numbered datagrams; a blocking sender in namespace A
 * sends them as fast as the path accepts. Prints one line:
 *   sent N received R lost L reordered O seconds S msgs_per_s M
 * The rate is what the receiver got over the receiver's time. A datagram
 * counts as lost once the sender has finished and nothing has arrived for
 * FT_UDP_SILENCE seconds: an emulated machine may stall for a few seconds
 * while the sender is still busy, and that is not loss.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define FT_UDP_SILENCE 10

struct result {
	long received, reordered;
	double seconds;
	int sender_done;	/* set by the sender, read by the receiver */
};

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void enter(const char *ns)
{
	char path[256];
	int fd;

	snprintf(path, sizeof(path), "/run/netns/%s", ns);
	fd = open(path, O_RDONLY);
	if (fd < 0 || setns(fd, CLONE_NEWNET)) {
		fprintf(stderr, "udp_pair: cannot enter namespace %s: %s\n", ns, strerror(errno));
		exit(1);
	}
	close(fd);
}

static void receiver(const char *ns, long n, int size, struct result *r, int ready)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons(5201) };
	struct timeval tv = { .tv_sec = 1 };
	int quiet = 0;
	int s, buf = 16 << 20;
	long last = -1;
	char *msg = malloc(size);
	double t0 = 0, t1 = 0;

	enter(ns);
	s = socket(AF_INET, SOCK_DGRAM, 0);
	setsockopt(s, SOL_SOCKET, SO_RCVBUFFORCE, &buf, sizeof(buf));
	setsockopt(s, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	if (bind(s, (struct sockaddr *)&a, sizeof(a))) {
		perror("udp_pair: bind");
		exit(1);
	}
	if (write(ready, "r", 1) != 1)
		exit(1);
	while (r->received < n) {
		long seq;

		ssize_t got = recv(s, msg, size, 0);

		if (got < 0 && (errno == EAGAIN || errno == EINTR)) {
			if (__atomic_load_n(&r->sender_done, __ATOMIC_ACQUIRE) &&
			    ++quiet >= FT_UDP_SILENCE)
				break;	/* the rest is lost */
			continue;
		}
		if (got < (ssize_t)sizeof(seq))
			break;
		quiet = 0;
		memcpy(&seq, msg, sizeof(seq));
		if (!r->received)
			t0 = now();
		t1 = now();
		r->received++;
		if (seq < last)
			r->reordered++;
		last = seq;
	}
	r->seconds = t1 - t0;
	exit(0);
}

int main(int argc, char **argv)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons(5201) };
	struct result *r;
	int p[2], s, size;
	long n, i;
	char c, *msg;
	pid_t pid;

	if (argc != 6) {
		fprintf(stderr, "usage: udp_pair NS_FROM NS_TO ADDR_TO COUNT SIZE\n");
		return 2;
	}
	n = atol(argv[4]);
	size = atoi(argv[5]);
	if (n <= 0 || size < 8 || size > 65000 || inet_pton(AF_INET, argv[3], &a.sin_addr) != 1) {
		fprintf(stderr, "udp_pair: need COUNT > 0, 8 <= SIZE <= 65000, an IPv4 ADDR_TO\n");
		return 2;
	}
	r = mmap(NULL, sizeof(*r), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	msg = calloc(1, size);
	if (r == MAP_FAILED || !msg || pipe(p))
		return 1;
	pid = fork();
	if (!pid)
		receiver(argv[2], n, size, r, p[1]);
	if (read(p[0], &c, 1) != 1)
		return 1;
	enter(argv[1]);
	s = socket(AF_INET, SOCK_DGRAM, 0);
	for (i = 0; i < n; i++) {
		memcpy(msg, &i, sizeof(i));
		if (sendto(s, msg, size, 0, (struct sockaddr *)&a, sizeof(a)) < 0) {
			perror("udp_pair: sendto");
			break;
		}
	}
	__atomic_store_n(&r->sender_done, 1, __ATOMIC_RELEASE);
	waitpid(pid, NULL, 0);
	printf("sent %ld received %ld lost %ld reordered %ld seconds %.3f msgs_per_s %.0f\n",
	       i, r->received, i - r->received, r->reordered, r->seconds,
	       r->seconds > 0 ? r->received / r->seconds : 0.0);
	return 0;
}
