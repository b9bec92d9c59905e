/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fattreed: the centralized scheduler of a fattree fabric. Shared
 * declarations of its files: config.c (flags and config file), log.c,
 * kernel.c (the fabric over generic netlink), round.c (one scheduling
 * round), metrics.c (Prometheus text), main.c (the loop, signals, pid
 * file).
 */
#ifndef FATTREED_H
#define FATTREED_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "ftnl.h"
#include "ftobj.h"
#include "ftnames.h"
#include "sched/ft_round.h"
#include "linux/fattree_structs.h"


struct ftd_config {
	char fabric[FATTREE_NAME_LEN];
	struct ft_sched_opts sched;	/* algorithm and its options */
	uint32_t lease;			/* cycles a granted circuit lives */
	uint32_t idle;			/* release a circuit idle this long */
	uint32_t round_ms;		/* longest wait between rounds */
	uint32_t max_requests;		/* requests per round, 0: all */
	uint32_t max_lanes;		/* lanes per circuit, 0: as its links have */
	uint32_t threshold;		/* only pairs with a larger backlog */
	bool colliding;			/* only pairs whose default paths collide */
	uint64_t rounds;		/* stop after this many rounds, 0: never */
	bool links_dump;		/* free lanes from a link dump every round */
	bool daemonize;
	bool syslog;
	int log_level;			/* LOG_ERR .. LOG_DEBUG */
	char pid_file[256];
	char status_file[256];
	char metrics_file[256];		/* Prometheus text, "" for none */
	char config_file[256];
	bool print_status;		/* --status: print it and exit */
};

/* config.c: 0, or -1 after printing what was wrong (exit 2). */
int ftd_config_parse(struct ftd_config *c, int argc, char **argv);
int ftd_config_file(struct ftd_config *c, const char *path);
void ftd_usage(FILE *f);
/* Which pairs --threshold and --colliding select, in words. */
const char *ftd_select_desc(const struct ftd_config *c);

/* log.c */
void ftd_log_init(const struct ftd_config *c);
void ftd_log(int level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* kernel.c: every call returns 0 or -errno, with nl->errmsg on refusal. */
/* Free lanes per directed link (0 on failed ones) from a link dump; @cap
 * (may be NULL): each working link's lanes; @failed (may be NULL): how
 * many directed links are failed.
 */
int ftd_free_lanes(struct ftnl *nl, const char *name, uint32_t *free, uint32_t *cap,
		   uint32_t nlinks, uint32_t *failed);
int ftd_circuit_add(struct ftnl *nl, const char *name, const struct fattree_circuit *c,
		    uint32_t n);
int ftd_circuit_del(struct ftnl *nl, const char *name, const struct fattree_pair *p,
		    uint32_t n);
/*
 * The "demand" group wakes the loop early. A step's announcement can span
 * several messages (the last carries FATTREE_A_DEMAND_LAST): one
 * announcement of our fabric makes one round, other fabrics' none.
 */
struct ftd_wake {
	const char *fabric;		/* ours */
	int family;
	bool last;			/* ours ended an announcement */
};

/* A socket on the group, NULL when there is none (the loop then polls). */
struct nl_sock *ftd_demand_listen(struct ftd_wake *w);
/* Wait up to @ms for our fabric's next announcement, read to its end. */
void ftd_demand_wait(struct nl_sock *sk, struct ftd_wake *w, uint32_t ms);

/* round.c: the scheduler's state across rounds. */
/* The longest wait for demand after a round that found nothing to do. */
#define FTD_QUIET_MS	1000
/* Rounds in a row that asked for nothing on a scheduled fabric before
 * the next waits 2, 4, then at most 8 times --round-ms.
 */
#define FTD_BACKOFF_MAX	3

struct ftd_round_stats {
	uint64_t round;
	uint32_t demand;		/* demand entries read */
	uint32_t pairs;			/* pairs in demand between two leaves */
	uint32_t colliding;		/* of them, colliding (with --colliding) */
	uint32_t selected;		/* passed --threshold and --colliding */
	uint32_t requests;		/* new circuits asked of the algorithm */
	uint32_t granted;		/* new circuits installed */
	uint64_t lanes_wanted, lanes_granted;	/* of the requests, the new circuits */
	uint32_t grown, moved, shrunk;	/* circuits replaced by other lanes */
	uint32_t released;		/* idle circuits deleted */
	uint32_t circuits;		/* in the kernel after the round */
	/* Where the round's time went, µs: the circuit dump and the idle
	 * circuits' release, the demand dump, the links' free lanes, the
	 * algorithm, the batch install, and the whole round.
	 */
	double circuits_us, demand_us, links_us, sched_us, install_us, round_us;
	bool links_read;		/* the links' free lanes were worked out */
	bool links_dumped;		/* free lanes from a link dump, not circuits */
	uint64_t cycle;			/* the fabric's when the round read it */
	bool optional;			/* path scheduled: pairs have default paths */
};

/* metrics.c: what the metrics add to the totals kept for the status. */
#define FTD_SCHED_BUCKETS	12
extern const double ftd_sched_buckets[FTD_SCHED_BUCKETS];

struct ftd_metrics {
	uint64_t sched_bucket[FTD_SCHED_BUCKETS + 1];	/* the last: +Inf */
	uint64_t sched_count;
	double sched_sum, install_sum;	/* seconds */
	uint64_t released_total;
	uint64_t resized_total;		/* grown, moved and shrunk */
	uint64_t lanes_granted_total;	/* lanes of the new circuits */
	double written;			/* CLOCK_MONOTONIC of the last write */
};

struct ftd {
	struct ftd_config cfg;
	struct ftnl nl;
	struct ftobj_fabric fab;
	struct ft_topo topo;
	struct ft_round *round;
	uint32_t *free;			/* free lanes per directed link */
	uint32_t *cap;			/* lanes of each link, from the last dump */
	bool cap_stale;			/* a link failed since the last dump */
	uint32_t nlinks;
	uint64_t rounds;
	uint32_t unasked;		/* rounds in a row that asked nothing */
	uint64_t granted_total, requests_total;
	uint32_t failed_links;		/* directed links failed, last read */
	struct ftd_round_stats last;
	struct ftd_metrics metrics;
};

int ftd_setup(struct ftd *d);
void ftd_teardown(struct ftd *d);
int ftd_round(struct ftd *d);
int ftd_status_write(const struct ftd *d);
int ftd_status_print(const struct ftd_config *c);
void ftd_metrics_observe(struct ftd_metrics *m, double sched_us, double install_us);
void ftd_metrics_format(FILE *f, const struct ftd *d);
/* At most once a second unless @now; nothing without --metrics-file. */
void ftd_metrics_write(struct ftd *d, bool now);

#endif /* FATTREED_H */
