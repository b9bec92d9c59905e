// SPDX-License-Identifier: GPL-2.0
/*
 * fattreed: Prometheus metrics in the text exposition format, written for
 * node_exporter's textfile collector (--metrics-file). The file is
 * replaced whole by rename(), as the collector asks, at most once a second
 * and once more when the daemon stops, so a scrape never reads half of it
 * and a 10 ms round does not write a file each time.
 */
#include <stdio.h>
#include <string.h>
#include <syslog.h>
#include <time.h>

#include "fattreed.h"

/* Upper bounds of the schedule-time histogram's buckets, in seconds. */
const double ftd_sched_buckets[FTD_SCHED_BUCKETS] = {
	10e-6, 25e-6, 50e-6, 100e-6, 250e-6, 500e-6,
	1e-3, 2.5e-3, 5e-3, 10e-3, 25e-3, 100e-3,
};

void ftd_metrics_observe(struct ftd_metrics *m, double sched_us, double install_us)
{
	double s = sched_us / 1e6;
	unsigned int i;

	for (i = 0; i < FTD_SCHED_BUCKETS && s > ftd_sched_buckets[i]; i++)
		;
	m->sched_bucket[i]++;
	m->sched_count++;
	m->sched_sum += s;
	m->install_sum += install_us / 1e6;
}

/* A label value as the format wants it: backslash, quote, newline escaped. */
static void label(FILE *f, const char *v)
{
	for (; *v; v++) {
		if (*v == '\\' || *v == '"')
			fprintf(f, "\\%c", *v);
		else if (*v == '\n')
			fputs("\\n", f);
		else
			fputc(*v, f);
	}
}

static void head(FILE *f, const char *name, const char *type, const char *help)
{
	fprintf(f, "# HELP fattreed_%s %s\n# TYPE fattreed_%s %s\n", name, help, name, type);
}

static void sample(FILE *f, const struct ftd *d, const char *name, const char *type,
		   const char *help, double v)
{
	head(f, name, type, help);
	fprintf(f, "fattreed_%s{fabric=\"", name);
	label(f, d->cfg.fabric);
	fprintf(f, "\"} %.17g\n", v);
}

void ftd_metrics_format(FILE *f, const struct ftd *d)
{
	const struct ftd_metrics *m = &d->metrics;
	unsigned long long cum = 0;
	unsigned int i;

	head(f, "info", "gauge", "The scheduler's algorithm and version (always 1).");
	fputs("fattreed_info{fabric=\"", f);
	label(f, d->cfg.fabric);
	fprintf(f, "\",algorithm=\"%s\",version=\"%s\"} 1\n",
		ft_sched_algo_name(d->cfg.sched.algo), FT_VERSION);
	sample(f, d, "rounds_total", "counter", "Scheduling rounds run.", d->rounds);
	sample(f, d, "requests_total", "counter",
	       "New circuits asked of the algorithm.", d->requests_total);
	sample(f, d, "granted_total", "counter",
	       "Requests granted and installed as circuits.", d->granted_total);
	sample(f, d, "released_total", "counter",
	       "Idle circuits the daemon deleted.", m->released_total);
	sample(f, d, "resized_total", "counter",
	       "Circuits replaced by more or fewer lanes.", m->resized_total);
	sample(f, d, "lanes_granted_total", "counter",
	       "Lanes of the new circuits installed.", m->lanes_granted_total);
	sample(f, d, "schedulability_ratio", "gauge",
	       "Granted over requested since start (1 when nothing was asked).",
	       d->requests_total ? (double)d->granted_total / d->requests_total : 1.0);
	sample(f, d, "demand_pairs", "gauge",
	       "Pairs with demand in the last round.", d->last.demand);
	sample(f, d, "circuits", "gauge",
	       "Circuits in the fabric after the last round.", d->last.circuits);
	sample(f, d, "failed_links", "gauge",
	       "Directed links failed, as last read.", d->failed_links);
	sample(f, d, "install_seconds_total", "counter",
	       "Time spent installing granted circuits.", m->install_sum);

	head(f, "schedule_seconds", "histogram",
	     "Time the algorithm took per round that had requests.");
	for (i = 0; i <= FTD_SCHED_BUCKETS; i++) {
		cum += m->sched_bucket[i];
		fputs("fattreed_schedule_seconds_bucket{fabric=\"", f);
		label(f, d->cfg.fabric);
		if (i < FTD_SCHED_BUCKETS)
			fprintf(f, "\",le=\"%g\"} %llu\n", ftd_sched_buckets[i], cum);
		else
			fprintf(f, "\",le=\"+Inf\"} %llu\n", cum);
	}
	fputs("fattreed_schedule_seconds_sum{fabric=\"", f);
	label(f, d->cfg.fabric);
	fprintf(f, "\"} %.17g\n", m->sched_sum);
	fputs("fattreed_schedule_seconds_count{fabric=\"", f);
	label(f, d->cfg.fabric);
	fprintf(f, "\"} %llu\n", (unsigned long long)m->sched_count);
}

static double mono_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

void ftd_metrics_write(struct ftd *d, bool now)
{
	char tmp[sizeof(d->cfg.metrics_file) + 8];
	double t = mono_s();
	FILE *f;

	if (!*d->cfg.metrics_file || (!now && t - d->metrics.written < 1.0))
		return;
	d->metrics.written = t;
	snprintf(tmp, sizeof(tmp), "%s.tmp", d->cfg.metrics_file);
	f = fopen(tmp, "w");
	if (!f) {
		ftd_log(LOG_WARNING, "metrics file %s: %m", tmp);
		return;
	}
	ftd_metrics_format(f, d);
	if (fclose(f) || rename(tmp, d->cfg.metrics_file)) {
		ftd_log(LOG_WARNING, "metrics file %s: %m", d->cfg.metrics_file);
		remove(tmp);
	}
}
