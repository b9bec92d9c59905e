/* SPDX-License-Identifier: GPL-2.0 */
/* fttraffic's results: what a run measured, and how it is shown (report.c). */
#ifndef FTT_REPORT_H
#define FTT_REPORT_H

#include <json-c/json.h>

#include "fabric.h"

struct ftt_result {
	const char *fabric, *pattern, *mode;
	const struct ftt_fabric *fab;
	const struct ftt_set *set;
	const struct ftt_shared *sh;	/* NULL for a synthetic run */
	uint32_t size;
	double seconds;			/* first send to last arrival */
	/* the load factor of the set, from the topology */
	double lambda;
	uint32_t lambda_level;
	bool lambda_up;
	/* delivery cycles the set took (batch and synthetic runs) */
	uint64_t cycles;
	bool drained;
	/* what the fabric counted during the run */
	uint64_t lat_cycles[FATTREE_LATENCY_BUCKETS];
	uint64_t run_cycles;		/* cycles run during the run */
	const struct ftobj_link *busiest;	/* most carried per lane */
	uint64_t busiest_carried;
	uint32_t links_over;		/* links that carried more than their lanes in a cycle */
	/* sums over hosts and flows */
	uint64_t sent, received, lost, duplicated, reordered, corrupted, misdirected;
	uint64_t bytes_sent, bytes_received;
	uint64_t qdisc_drops, rcvbuf_drops, ring_stalls, submit_calls;
	uint64_t backlog_drops;		/* host-wide: every CPU's input backlog */
	uint64_t dev_drops;		/* the hosts' devices, either way */
	uint64_t lat_ns[FTT_LAT_BUCKETS];
};

void ftt_result_sum(struct ftt_result *r);
uint64_t ftt_percentile(const uint64_t *h, uint32_t nb, double q, uint64_t (*value)(uint32_t));
uint64_t ftt_cycles_bucket_max(uint32_t b);
void ftt_report_text(FILE *f, const struct ftt_result *r, bool flows);
struct json_object *ftt_report_json(const struct ftt_result *r, bool flows);

#endif /* FTT_REPORT_H */
