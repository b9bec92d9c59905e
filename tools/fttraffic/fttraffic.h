/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fttraffic: traffic between processes on a fabric's leaves.
 *
 * The controller (main.c) turns a pattern (pattern.c) into flows, starts
 * one worker process per participating leaf (host.c puts its leaf in a
 * network namespace of its own, worker.c moves the messages with
 * io_uring), drives the fabric over netlink (fabric.c) and reports what
 * arrived (report.c). Workers and controller share one mapping
 * (struct ftt_shared) that holds every counter; each counter has one
 * writer.
 */
#ifndef FTTRAFFIC_H
#define FTTRAFFIC_H

#include <netinet/in.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <linux/fattree_structs.h>

#include "ftpattern.h"

#define FTT_EXIT_OK		0
#define FTT_EXIT_FAIL		1	/* lost, corrupted, or the run failed */
#define FTT_EXIT_USAGE		2

#define FTT_PORT		7459
#define FTT_MSG_MAGIC		0x46545446U	/* "FTTF" */
#define FTT_MIN_SIZE		40U		/* the header */
#define FTT_MAX_SIZE		8192U
#define FTT_MAX_HOSTS		1024U		/* processes one run may start */
#define FTT_LAT_SUB		16U		/* time histogram: buckets per octave */
#define FTT_LAT_BUCKETS		(64U * FTT_LAT_SUB)

/* One flow: @count messages from leaf @src to leaf @dst (0: unbounded). */
struct ftt_flow {
	uint32_t src;
	uint32_t dst;
	uint64_t count;
};

/* A message set: flows sorted by source, then destination. */
struct ftt_set {
	struct ftt_flow *flow;
	uint32_t nflows;
	uint32_t cap;
};

/* Pattern parameters (pattern.c). */
struct ftt_pattern {
	const char *name;	/* its name or an old spelling (ftpattern.h) */
	uint32_t n;		/* leaves of the fabric */
	uint32_t m1;		/* children of a leaf switch (neighbour) */
	uint32_t levels;	/* the fabric's levels, and the children of a */
	const uint32_t *m;	/* switch on each, m[0..levels-1] (k-ary digits), or NULL */
	uint64_t count;		/* messages per flow (per source for random ones) */
	uint64_t seed;
	int64_t shift;		/* shift/stride k */
	uint32_t root;		/* hot spot, many-to-one, one-to-many */
	double hot_fraction;	/* share of messages to the hot spot */
	uint32_t h;		/* h-relation */
	bool no_fixed_points;
	const char *file;	/* rows "src dst count" */
};

int ftt_pattern_build(const struct ftt_pattern *p, struct ftt_set *s, char *err, size_t errlen);
int ftt_pattern_parse_file(FILE *f, uint32_t n, struct ftt_set *s, char *err, size_t errlen);
/* The patterns fttraffic runs, *@n of them. */
const enum ft_pattern *ftt_patterns(unsigned int *n);
void ftt_set_free(struct ftt_set *s);
uint64_t ftt_set_messages(const struct ftt_set *s);

/* The wire format of a message (msg.c). */
struct ftt_msg {
	uint32_t magic;
	uint32_t flow;		/* index in the run's set */
	uint64_t seq;		/* 0, 1, ... within the flow */
	uint64_t sent_ns;	/* CLOCK_MONOTONIC at submission */
	uint32_t src;		/* leaves */
	uint32_t dst;
	uint32_t len;		/* whole message */
	uint32_t csum;		/* of everything but this field */
};

void ftt_msg_fill(void *buf, uint32_t len, uint32_t flow, uint64_t seq, uint32_t src,
		  uint32_t dst, uint64_t now_ns);
/* 0 intact, -1 corrupted (checksum or length mismatch). */
int ftt_msg_check(const void *buf, uint32_t got, struct ftt_msg *hdr);

/* Counters of one flow: sent by its source, the rest by its destination. */
struct ftt_flow_ctr {
	uint64_t sent;
	uint64_t received;	/* distinct messages */
	uint64_t duplicated;
	uint64_t reordered;	/* arrived after a later one of the flow */
};

/* One worker: identity, state and counters. */
struct ftt_host {
	uint32_t leaf;
	char ifname[16];
	struct in_addr addr;
	uint8_t mac[6];
	int pid;
	int ready;		/* phases completed */
	int failed;		/* set with @error before it exits */
	char error[160];
	/* counters */
	uint64_t sent, received, bytes_sent, bytes_received;
	uint64_t qdisc_drops;	/* sends refused by the qdisc (retried) */
	uint64_t rcvbuf_drops;	/* dropped by the socket's receive buffer (so far) */
	uint64_t dev_drops;	/* dropped by its device, either way (so far) */
	uint64_t ring_stalls;	/* receives stopped on an empty buffer ring */
	uint64_t corrupted;	/* failed the checksum: no flow to blame */
	uint64_t misdirected;	/* intact, but for another leaf or run */
	uint64_t submit_calls;	/* io_uring_enter calls that submitted sends */
	int tx_done;		/* saw stop_tx, and nothing of its is in flight */
	uint64_t lat[FTT_LAT_BUCKETS];
};

struct ftt_shared {
	int stop_tx;		/* rate mode: stop sending */
	int stop_rx;		/* stop receiving */
	uint32_t nhosts;
	uint32_t nflows;
	struct ftt_host *host;		/* [nhosts] */
	struct ftt_flow_ctr *flow;	/* [nflows] */
};

/* How a worker runs (worker.c). */
struct ftt_run {
	uint32_t size;		/* bytes per message */
	double rate;		/* messages/s per source, 0: as fast as accepted */
	bool batch;		/* send each flow's count, then stop */
	const struct ftt_set *set;
	uint32_t *host_of_leaf;	/* leaf -> host index, or UINT32_MAX */
	uint32_t inflight;	/* send slots */
	uint32_t bufs;		/* buffers in the receive ring */
	int rcvbuf;		/* socket receive buffer, bytes */
};

/* Sets up, calls @ready (which waits for the start), runs until told to stop. */
int ftt_worker(struct ftt_shared *sh, uint32_t me, const struct ftt_run *run,
	       int (*ready)(void *arg), void *arg);

/* Host setup in the worker (host.c). */
struct ftt_host_cfg {
	const char *netns_prefix;	/* user's namespaces <prefix><leaf>, or NULL */
	uint32_t qdisc_limit;
};

struct ftt_host_ns;
struct ftt_host_ns *ftt_host_enter(struct ftt_host *h, const struct ftt_host_cfg *cfg,
				   char *err, size_t errlen);
int ftt_host_neighbours(struct ftt_host_ns *ns, const struct ftt_host *h,
			const struct ftt_host *all, uint32_t n, char *err, size_t errlen);
void ftt_host_leave(struct ftt_host_ns *ns);
int ftt_host_mac(const char *ifname, uint8_t mac[6]);
bool ftt_host_present(const char *ifname);
struct nl_sock;
int ftt_host_dev_drops(struct nl_sock **sk, const char *ifname, uint64_t *drops);
int ftt_veth_create(const char *a, const char *b, char *err, size_t errlen);
void ftt_veth_delete(const char *a);

/* Time histogram (report.c). */
uint32_t ftt_lat_bucket(uint64_t ns);
uint64_t ftt_lat_value(uint32_t bucket);
uint64_t ftt_now_ns(void);

#endif /* FTTRAFFIC_H */
