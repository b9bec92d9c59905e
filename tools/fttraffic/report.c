// SPDX-License-Identifier: GPL-2.0
/*
 * Results: latency histograms (log-linear in time, 16 buckets per octave,
 * so a percentile is good to about 3%; log2 in cycles, as the kernel
 * keeps them), sums over the workers' counters, a human summary and one
 * JSON object.
 */
#include <inttypes.h>
#include <string.h>
#include <time.h>

#include "ftnames.h"
#include "report.h"

uint64_t ftt_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

uint32_t ftt_lat_bucket(uint64_t ns)
{
	uint32_t e, o;

	if (ns < FTT_LAT_SUB)
		return (uint32_t)ns;
	e = 63U - (uint32_t)__builtin_clzll(ns);
	o = e - 4;
	return FTT_LAT_SUB * (o + 1) + (uint32_t)((ns >> o) - FTT_LAT_SUB);
}

/* The middle of a time bucket. */
uint64_t ftt_lat_value(uint32_t b)
{
	uint32_t o, sub;

	if (b < FTT_LAT_SUB)
		return b;
	o = b / FTT_LAT_SUB - 1;
	sub = b % FTT_LAT_SUB;
	return ((uint64_t)(2 * (FTT_LAT_SUB + sub) + 1) << o) / 2;
}

/* The most cycles kernel bucket @b holds: 2^(b-1) <= cycles < 2^b. */
uint64_t ftt_cycles_bucket_max(uint32_t b)
{
	return b ? (1ULL << b) - 1 : 0;
}

/* The value at quantile @q (0..1] of histogram @h; 0 when empty. */
uint64_t ftt_percentile(const uint64_t *h, uint32_t nb, double q, uint64_t (*value)(uint32_t))
{
	uint64_t total = 0, need, acc = 0;
	uint32_t b;

	for (b = 0; b < nb; b++)
		total += h[b];
	if (!total)
		return 0;
	need = (uint64_t)(q * (double)total + 0.999999);
	if (need < 1)
		need = 1;
	for (b = 0; b < nb; b++) {
		acc += h[b];
		if (acc >= need)
			return value(b);
	}
	return value(nb - 1);
}

void ftt_result_sum(struct ftt_result *r)
{
	const struct ftt_shared *sh = r->sh;
	uint32_t i, b;

	if (!sh)
		return;
	for (i = 0; i < sh->nhosts; i++) {
		const struct ftt_host *h = &sh->host[i];

		r->bytes_sent += h->bytes_sent;
		r->bytes_received += h->bytes_received;
		r->corrupted += h->corrupted;
		r->misdirected += h->misdirected;
		r->qdisc_drops += h->qdisc_drops;
		r->rcvbuf_drops += h->rcvbuf_drops;
		r->dev_drops += h->dev_drops;
		r->ring_stalls += h->ring_stalls;
		r->submit_calls += h->submit_calls;
		for (b = 0; b < FTT_LAT_BUCKETS; b++)
			r->lat_ns[b] += h->lat[b];
	}
	for (i = 0; i < sh->nflows; i++) {
		const struct ftt_flow_ctr *c = &sh->flow[i];

		r->sent += c->sent;
		r->received += c->received;
		r->lost += c->sent > c->received ? c->sent - c->received : 0;
		r->duplicated += c->duplicated;
		r->reordered += c->reordered;
	}
}

static const char *path_name(uint32_t p)
{
	return p < FTN_PATH_NR ? ftn_path_names[p] : "?";
}

static void fmt_ns(char *buf, size_t len, uint64_t ns)
{
	if (ns < 10000)
		snprintf(buf, len, "%" PRIu64 " ns", ns);
	else if (ns < 10000000)
		snprintf(buf, len, "%.1f us", (double)ns / 1e3);
	else
		snprintf(buf, len, "%.1f ms", (double)ns / 1e6);
}

static const double quantiles[] = { 0.5, 0.99, 0.999, 1.0 };
static const char *const qnames[] = { "p50", "p99", "p99.9", "max" };

void ftt_report_text(FILE *f, const struct ftt_result *r, bool flows)
{
	const struct ftt_fabric *fab = r->fab;
	uint32_t i;

	if (r->lambda > 0) {
		fprintf(f, "fttraffic: %s on %s (%u levels, %u leaves, path %s, %s)\n",
			r->pattern, r->fabric, fab->h, fab->n, path_name(fab->path),
			fab->period_ns ? "timed" : "manual stepping");
		fprintf(f, "  message set   %u flows, %" PRIu64 " messages of %u B, lambda %.3f "
			"(level %u %s)\n", r->set->nflows, ftt_set_messages(r->set), r->size,
			r->lambda, r->lambda_level, r->lambda_up ? "up" : "down");
	} else {
		fprintf(f, "fttraffic: %s over a veth pair\n", r->pattern);
	}
	fprintf(f, "  mode          %s\n", r->mode);
	if (r->cycles || r->drained)
		fprintf(f, "  cycles        %" PRIu64 "%s, cycles/lambda %.3f\n", r->cycles,
			r->drained ? "" : " (did not drain)",
			r->lambda > 0 ? (double)r->cycles / r->lambda : 0.0);
	if (!r->sh)
		return;
	fprintf(f, "  delivered     %" PRIu64 " of %" PRIu64 " sent: lost %" PRIu64
		", duplicated %" PRIu64 ", reordered %" PRIu64 ", corrupted %" PRIu64
		", misdirected %" PRIu64 "\n", r->received, r->sent, r->lost, r->duplicated,
		r->reordered, r->corrupted, r->misdirected);
	if (r->seconds > 0)
		fprintf(f, "  throughput    %.0f messages/s, %.0f bytes/s over %.3f s "
			"(%u processes, %.1f messages per submission)\n",
			(double)r->received / r->seconds, (double)r->bytes_received / r->seconds,
			r->seconds, r->sh->nhosts,
			r->submit_calls ? (double)r->sent / (double)r->submit_calls : 0.0);
	fprintf(f, "  latency time ");
	for (i = 0; i < 4; i++) {
		char b[32];

		fmt_ns(b, sizeof(b), ftt_percentile(r->lat_ns, FTT_LAT_BUCKETS, quantiles[i],
						    ftt_lat_value));
		fprintf(f, " %s %s%s", qnames[i], b, i < 3 ? "," : "\n");
	}
	for (i = 0; i < 4 && r->lambda > 0; i++) {
		if (!i)
			fprintf(f, "  latency cycles");
		fprintf(f, " %s <= %" PRIu64 "%s", qnames[i],
			ftt_percentile(r->lat_cycles, FATTREE_LATENCY_BUCKETS, quantiles[i],
				       ftt_cycles_bucket_max), i < 3 ? "," : "\n");
	}
	fprintf(f, "  outside       qdisc refusals %" PRIu64 " (sent again), socket receive "
		"drops %" PRIu64 ", device drops %" PRIu64 ", buffer-ring stalls %" PRIu64
		", input backlog drops %" PRIu64 " (host-wide)\n", r->qdisc_drops, r->rcvbuf_drops,
		r->dev_drops, r->ring_stalls, r->backlog_drops);
	if (r->busiest && r->run_cycles)
		fprintf(f, "  busiest link  level %u %s id %u: %.3f messages per cycle on %u "
			"lanes over %" PRIu64 " cycles; links over their lanes in a cycle: %u\n",
			r->busiest->level, r->busiest->up ? "up" : "down", r->busiest->id,
			(double)r->busiest_carried / (double)r->run_cycles, r->busiest->lanes,
			r->run_cycles, r->links_over);
	if (!flows)
		return;
	fprintf(f, "  %6s %6s %10s %10s %10s %6s %6s\n", "src", "dst", "count", "sent",
		"received", "dup", "reord");
	for (i = 0; i < r->set->nflows; i++) {
		const struct ftt_flow *fl = &r->set->flow[i];
		const struct ftt_flow_ctr *c = &r->sh->flow[i];

		fprintf(f, "  %6u %6u %10" PRIu64 " %10" PRIu64 " %10" PRIu64 " %6" PRIu64
			" %6" PRIu64 "\n", fl->src, fl->dst, fl->count, c->sent, c->received,
			c->duplicated, c->reordered);
	}
}

static void add_u64(struct json_object *o, const char *k, uint64_t v)
{
	json_object_object_add(o, k, json_object_new_uint64(v));
}

static void add_double(struct json_object *o, const char *k, double v)
{
	json_object_object_add(o, k, json_object_new_double(v));
}

static struct json_object *json_percentiles(const uint64_t *h, uint32_t nb,
					    uint64_t (*value)(uint32_t))
{
	struct json_object *o = json_object_new_object();
	uint32_t i;

	for (i = 0; i < 4; i++)
		add_u64(o, qnames[i], ftt_percentile(h, nb, quantiles[i], value));
	return o;
}

static struct json_object *json_flows(const struct ftt_result *r)
{
	struct json_object *a = json_object_new_array();
	uint32_t i;

	for (i = 0; i < r->set->nflows; i++) {
		struct json_object *o = json_object_new_object();
		const struct ftt_flow_ctr *c = &r->sh->flow[i];

		add_u64(o, "src", r->set->flow[i].src);
		add_u64(o, "dst", r->set->flow[i].dst);
		add_u64(o, "count", r->set->flow[i].count);
		add_u64(o, "sent", c->sent);
		add_u64(o, "received", c->received);
		add_u64(o, "duplicated", c->duplicated);
		add_u64(o, "reordered", c->reordered);
		json_object_array_add(a, o);
	}
	return a;
}

struct json_object *ftt_report_json(const struct ftt_result *r, bool flows)
{
	struct json_object *o = json_object_new_object(), *x;

	json_object_object_add(o, "fabric", json_object_new_string(r->fabric));
	json_object_object_add(o, "pattern", json_object_new_string(r->pattern));
	json_object_object_add(o, "mode", json_object_new_string(r->mode));
	json_object_object_add(o, "path", json_object_new_string(path_name(r->fab->path)));
	add_u64(o, "leaves", r->fab->n);
	add_u64(o, "period_ns", r->fab->period_ns);
	add_u64(o, "flows", r->set->nflows);
	add_u64(o, "messages", ftt_set_messages(r->set));
	add_u64(o, "size", r->size);
	add_double(o, "lambda", r->lambda);
	if (r->cycles || r->drained) {
		add_u64(o, "cycles", r->cycles);
		json_object_object_add(o, "drained", json_object_new_boolean(r->drained));
		add_double(o, "cycles_per_lambda",
			   r->lambda > 0 ? (double)r->cycles / r->lambda : 0.0);
	}
	if (!r->sh)
		return o;
	add_u64(o, "processes", r->sh->nhosts);
	add_double(o, "seconds", r->seconds);
	add_u64(o, "sent", r->sent);
	add_u64(o, "received", r->received);
	add_u64(o, "lost", r->lost);
	add_u64(o, "duplicated", r->duplicated);
	add_u64(o, "reordered", r->reordered);
	add_u64(o, "corrupted", r->corrupted);
	add_u64(o, "misdirected", r->misdirected);
	add_u64(o, "bytes_received", r->bytes_received);
	add_double(o, "messages_per_s", r->seconds > 0 ? (double)r->received / r->seconds : 0);
	add_double(o, "bytes_per_s", r->seconds > 0 ? (double)r->bytes_received / r->seconds : 0);
	add_u64(o, "send_submits", r->submit_calls);
	x = json_object_new_object();
	add_u64(x, "qdisc_refusals", r->qdisc_drops);
	add_u64(x, "socket_receive_drops", r->rcvbuf_drops);
	add_u64(x, "buffer_ring_stalls", r->ring_stalls);
	add_u64(x, "input_backlog_drops", r->backlog_drops);
	add_u64(x, "device_drops", r->dev_drops);
	json_object_object_add(o, "outside_fabric", x);
	json_object_object_add(o, "latency_ns",
			       json_percentiles(r->lat_ns, FTT_LAT_BUCKETS, ftt_lat_value));
	json_object_object_add(o, "latency_cycles_max",
			       json_percentiles(r->lat_cycles, FATTREE_LATENCY_BUCKETS,
						ftt_cycles_bucket_max));
	add_u64(o, "run_cycles", r->run_cycles);
	if (r->busiest) {
		x = json_object_new_object();
		add_u64(x, "id", r->busiest->id);
		add_u64(x, "level", r->busiest->level);
		json_object_object_add(x, "up", json_object_new_boolean(r->busiest->up));
		add_u64(x, "lanes", r->busiest->lanes);
		add_u64(x, "carried", r->busiest_carried);
		add_u64(x, "max_cycle", r->busiest->max_cycle);
		json_object_object_add(o, "busiest_link", x);
	}
	add_u64(o, "links_over_lanes", r->links_over);
	if (flows)
		json_object_object_add(o, "flow", json_flows(r));
	return o;
}
