// SPDX-License-Identifier: GPL-2.0
/*
 * fttraffic: the controller. It reads the fabric, builds the message set
 * and its load factor, starts the workers, and runs one of three modes:
 *
 *  batch     (manually stepped fabric) every message is sent and seen
 *            queued in the fabric's counters before the first step, then
 *            the fabric is stepped until it drains, so the cycles are
 *            those of the whole set, as the papers count them;
 *  timed     (a fabric with a period) sources send for a duration at a
 *            rate, reported interval by interval;
 *  inject    the set goes to the kernel's synthetic injection, for sets
 *            larger than the processes a machine can run.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "args.h"
#include "procs.h"
#include "report.h"
#include "ft_load.h"
#include "ft_topo.h"

struct ctl {
	struct ftt_opts o;
	struct ftnl nl;
	struct ftt_fabric fab0, fab;
	struct ftt_leaves lv0, lv;
	struct ftt_links lk0, lk;
	struct ftt_set set;
	struct ftt_result res;
	struct ftt_shared *sh;
	size_t sh_size;
	struct ftt_run run;
	struct ftt_host_cfg cfg;
	struct ftt_procs procs;
	bool progress;
	uint64_t t0, t_start, t_end;
	char err[256];
};

static int fail(const char *fmt, const char *detail)
{
	fprintf(stderr, "fttraffic: ");
	fprintf(stderr, fmt, detail);
	fputc('\n', stderr);
	return FTT_EXIT_FAIL;
}

static int nlfail(struct ctl *c, const char *what, int e)
{
	fprintf(stderr, "fttraffic: %s %s: %s\n", what, c->o.fabric, ftnl_strerror(&c->nl, e));
	return FTT_EXIT_FAIL;
}

/* lambda of the set on the fabric's topology, with the core's arithmetic. */
static int load_factor(struct ctl *c)
{
	struct ft_demand *dm = calloc(c->set.nflows + 1, sizeof(*dm));
	struct ft_lambda lam;
	struct ft_topo t;
	u32 *loads = NULL;
	uint32_t i;
	int e = -ENOMEM;

	if (ft_topo_init(&t, c->fab.h, c->fab.m, c->fab.w, c->fab.lanes)) {
		free(dm);
		return -EINVAL;
	}
	loads = calloc(1, ft_load_scratch_size(&t));	/* zero, as ft_lambda() wants */
	if (dm && loads) {
		for (i = 0; i < c->set.nflows; i++)
			dm[i] = (struct ft_demand){ c->set.flow[i].src, c->set.flow[i].dst,
						    (u32)c->set.flow[i].count };
		e = ft_lambda(&t, dm, c->set.nflows, loads, &lam);
	}
	if (!e) {
		c->res.lambda = (double)lam.load / (double)lam.cap;
		c->res.lambda_level = lam.level;
		c->res.lambda_up = lam.dir == FT_UP;
	}
	free(loads);
	free(dm);
	return e;
}

static int build_set(struct ctl *c)
{
	struct ftt_pattern p = {
		.name = c->o.pattern, .n = c->fab.n, .m1 = c->fab.m[0], .count = c->o.count,
		.levels = c->fab.h, .m = c->fab.m,
		.seed = c->o.seed, .shift = c->o.shift_set ? c->o.shift : c->fab.n / 2,
		.root = c->o.root, .hot_fraction = c->o.hot_fraction, .h = c->o.h,
		.no_fixed_points = c->o.no_fixed_points, .file = c->o.file,
	};
	int e = ftt_pattern_build(&p, &c->set, c->err, sizeof(c->err));

	if (e) {
		fprintf(stderr, "fttraffic: %s\n", c->err);
		return e == -ENOMEM ? FTT_EXIT_FAIL : FTT_EXIT_USAGE;
	}
	if (!c->set.nflows) {
		fprintf(stderr, "fttraffic: pattern %s gives no messages between different leaves\n",
			c->o.pattern);
		return FTT_EXIT_USAGE;
	}
	if (load_factor(c))
		return fail("cannot compute the load factor of the set on %s", c->o.fabric);
	return 0;
}

/* --verbose: when each phase ended, from the start of the program. */
static void phase(struct ctl *c, const char *what)
{
	if (c->o.verbose)
		fprintf(stderr, "fttraffic: %8.3f s  %s\n", (double)(ftt_now_ns() - c->t0) / 1e9, what);
}

static void progress(struct ctl *c, const char *what, uint64_t a, uint64_t b)
{
	if (!c->progress)
		return;
	fprintf(stderr, "\r  %-28s %12" PRIu64 " / %-12" PRIu64 " %6.1f s ", what, a, b,
		(double)(ftt_now_ns() - c->t_start) / 1e9);
	fflush(stderr);
}

static void progress_end(struct ctl *c)
{
	if (c->progress)
		fprintf(stderr, "\r%*s\r", 72, "");
}

static uint64_t sum_hosts(const struct ctl *c, size_t off)
{
	uint64_t s = 0;
	uint32_t i;

	for (i = 0; i < c->sh->nhosts; i++)
		s += __atomic_load_n((uint64_t *)((char *)&c->sh->host[i] + off),
				     __ATOMIC_RELAXED);
	return s;
}

#define SUM(c, field) sum_hosts(c, offsetof(struct ftt_host, field))

/* Poll until @done or the timeout; nonzero on failure (c->err says). */
static int wait_for(struct ctl *c, bool (*done)(struct ctl *c), const char *what,
		    uint64_t (*have)(struct ctl *c), uint64_t want, double timeout)
{
	uint64_t deadline = ftt_now_ns() + (uint64_t)(timeout * 1e9);
	int e;

	while (!done(c)) {
		progress(c, what, have(c), want);
		if (ftt_now_ns() > deadline) {
			snprintf(c->err, sizeof(c->err), "%s: %" PRIu64 " of %" PRIu64
				 " after %.0f s", what, have(c), want, timeout);
			return -ETIMEDOUT;
		}
		e = ftt_procs_sleep(&c->procs, 5, c->err, sizeof(c->err));
		if (e)
			return e;
	}
	return 0;
}

static uint64_t have_sent(struct ctl *c)
{
	return SUM(c, sent);
}

static uint64_t have_received(struct ctl *c)
{
	return SUM(c, received);
}

static uint64_t have_queued(struct ctl *c)
{
	if (c->o.veth || ftt_fabric_get(&c->nl, c->o.fabric, &c->fab))
		return 0;
	return c->fab.queued - c->fab0.queued;
}

static bool all_sent(struct ctl *c)
{
	return have_sent(c) >= ftt_set_messages(&c->set);
}

static bool all_received(struct ctl *c)
{
	return have_received(c) >= ftt_set_messages(&c->set);
}

static bool all_queued(struct ctl *c)
{
	return have_queued(c) >= ftt_set_messages(&c->set);
}

/*
 * On a circuit fabric queued messages are demand, and the scheduler
 * answers with circuits. Wait for the answer, so that the cycles counted
 * are the scheduler's and not its latency: go on at once when every pair
 * waiting has a circuit, soon after the circuits change (a round installs
 * its grants in one batch), or after --settle ms without a change (the
 * scheduler granted nothing more this round).
 */
static void wait_for_scheduler(struct ctl *c)
{
	uint64_t t = ftt_now_ns(), quiet_since = t, changed = 0;
	uint32_t before = 0, now = 0, unserved = 1;

	ftt_circuits_count(&c->nl, c->o.fabric, &before);
	for (;;) {
		if (!ftt_demand_unserved(&c->nl, c->o.fabric, &unserved) && !unserved)
			return;
		if (!ftt_circuits_count(&c->nl, c->o.fabric, &now) && now != before) {
			before = now;
			changed = quiet_since = ftt_now_ns();
		}
		t = ftt_now_ns();
		if (changed && t - quiet_since > 5000000ULL)
			return;		/* the round's batch is in */
		if (t - quiet_since > (uint64_t)c->o.settle_ms * 1000000ULL)
			return;
		usleep(1000);
	}
}

/* Step until the fabric drains; the cycles it took are the set's. */
static int step_until_drained(struct ctl *c, bool synthetic)
{
	bool circuit = c->fab.path == FATTREE_PATH_CIRCUIT;
	uint32_t chunk = circuit ? 1 : 16;
	uint64_t stepped = 0;
	int e;

	for (;;) {
		uint64_t left;

		/*
		 * Before every step, the first too: the set is queued and
		 * its demand waits for circuits, which a step before the
		 * scheduler has answered could not use.
		 */
		if (circuit)
			wait_for_scheduler(c);
		e = ftt_fabric_step(&c->nl, c->o.fabric, chunk);
		if (!e)
			e = ftt_fabric_get(&c->nl, c->o.fabric, &c->fab);
		if (e)
			return nlfail(c, "stepping", e);
		stepped += chunk;
		left = synthetic ? c->fab.synth_queued : c->fab.queued;
		progress(c, "stepping: messages waiting", left, stepped);
		if (!left)
			break;
		if (stepped >= c->o.max_cycles) {
			progress_end(c);
			fprintf(stderr, "fttraffic: %s did not drain in %" PRIu64 " cycles "
				"(%" PRIu64 " messages left)%s\n", c->o.fabric, stepped, left,
				circuit ? "; is fattreed scheduling this fabric?" : "");
			c->res.cycles = stepped;
			return FTT_EXIT_FAIL;
		}
		if (c->sh) {
			e = ftt_procs_poll(&c->procs, c->err, sizeof(c->err));
			if (e)
				return fail("%s", c->err);
		}
	}
	c->res.drained = true;
	c->res.cycles = c->fab.drained_cycle - c->fab0.cycle;
	return 0;
}

static int run_batch(struct ctl *c)
{
	uint64_t total = ftt_set_messages(&c->set);
	int e;

	e = wait_for(c, all_sent, "sent", have_sent, total, c->o.timeout);
	phase(c, "all sent");
	if (!e)
		e = wait_for(c, all_queued, "queued in the fabric", have_queued, total,
			     c->o.timeout);
	phase(c, "all queued in the fabric");
	if (e)
		return fail("%s", c->err);
	e = step_until_drained(c, false);
	phase(c, "fabric drained");
	if (e)
		return e;
	/* the stack hands arrivals over after the cycle: wait for them */
	wait_for(c, all_received, "received", have_received, total, 10);
	c->t_end = ftt_now_ns();
	return 0;
}

static void interval_report(struct ctl *c, uint32_t k, double t, double dt, uint64_t sent,
			    uint64_t recv, uint64_t cycles, uint32_t sources)
{
	struct json_object *o;

	if (c->o.stream) {
		o = json_object_new_object();
		json_object_object_add(o, "interval", json_object_new_int64(k));
		json_object_object_add(o, "t", json_object_new_double(t));
		if (c->o.rate > 0)
			json_object_object_add(o, "offered_per_s",
					       json_object_new_double(c->o.rate * sources));
		json_object_object_add(o, "sent_per_s", json_object_new_double(sent / dt));
		json_object_object_add(o, "accepted_per_s", json_object_new_double(recv / dt));
		json_object_object_add(o, "cycles", json_object_new_uint64(cycles));
		puts(json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN));
		fflush(stdout);
		json_object_put(o);
	} else if (!c->o.json) {
		printf("  [%5.1f s] sent %10.0f/s  accepted %10.0f/s  %8" PRIu64 " cycles\n", t,
		       sent / dt, recv / dt, cycles);
		fflush(stdout);
	}
}

static uint32_t sources(const struct ctl *c)
{
	uint32_t i, n = 0;

	for (i = 0; i < c->set.nflows; i++)
		n += !i || c->set.flow[i].src != c->set.flow[i - 1].src;
	return n;
}

static bool all_tx_done(const struct ctl *c)
{
	uint32_t i;

	for (i = 0; i < c->sh->nhosts; i++)
		if (!__atomic_load_n(&c->sh->host[i].tx_done, __ATOMIC_ACQUIRE))
			return false;
	return true;
}

/*
 * Every worker has stopped sending with nothing in flight, and all it
 * sent has arrived or was dropped (and counted).
 */
static bool quiet(struct ctl *c)
{
	return all_tx_done(c) &&
	       have_received(c) + SUM(c, rcvbuf_drops) + SUM(c, dev_drops) >= have_sent(c) &&
	       have_queued(c) == 0;
}

/* Packets the host's per-CPU input backlogs dropped (netdev_max_backlog). */
static uint64_t backlog_drops(void)
{
	FILE *f = fopen("/proc/net/softnet_stat", "r");
	unsigned int processed, dropped;
	uint64_t sum = 0;
	char line[512];

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "%x %x", &processed, &dropped) == 2)
			sum += dropped;
	if (f)
		fclose(f);
	return sum;
}

static int run_timed(struct ctl *c)
{
	uint64_t last_sent = 0, last_recv = 0, last_cycle = c->fab0.cycle, t_last = c->t_start;
	uint32_t k = 0;
	int e;

	while (ftt_now_ns() < c->t_start + (uint64_t)(c->o.duration * 1e9)) {
		uint64_t next = t_last + (uint64_t)(c->o.interval * 1e9), now, s, r;
		uint64_t end = c->t_start + (uint64_t)(c->o.duration * 1e9);

		if (next > end)
			next = end;
		now = ftt_now_ns();
		e = ftt_procs_sleep(&c->procs, next > now ? (int)((next - now) / 1000000) + 1 : 0,
				    c->err, sizeof(c->err));
		if (e)
			return fail("%s", c->err);
		now = ftt_now_ns();
		if (now < next)
			continue;
		s = have_sent(c);
		r = have_received(c);
		e = c->o.veth ? -EAGAIN : ftt_fabric_get(&c->nl, c->o.fabric, &c->fab);
		/* The fabric deleted, or the module unloaded, under the run:
		 * nothing more can arrive, so stop now, not at the end.
		 */
		if (e == -ENOENT)
			return nlfail(c, "lost the fabric", e);
		if (e)
			c->fab.cycle = last_cycle;
		progress_end(c);
		interval_report(c, k++, (double)(now - c->t_start) / 1e9,
				(double)(now - t_last) / 1e9, (double)(s - last_sent),
				(double)(r - last_recv), c->fab.cycle - last_cycle, sources(c));
		last_sent = s;
		last_recv = r;
		last_cycle = c->fab.cycle;
		t_last = now;
	}
	__atomic_store_n(&c->sh->stop_tx, 1, __ATOMIC_RELEASE);
	/* what is in flight still arrives: wait for the fabric to drain */
	wait_for(c, quiet, "draining", have_received, have_sent(c), c->o.timeout);
	c->t_end = ftt_now_ns();
	return 0;
}

static int run_inject(struct ctl *c)
{
	int e = ftt_fabric_inject(&c->nl, c->o.fabric, &c->set);

	c->res.mode = c->fab.period_ns ? "inject (synthetic messages, timed fabric)" :
		      "inject (synthetic messages, stepped until drained)";
	if (e)
		return nlfail(c, "injecting into", e);
	c->t_start = ftt_now_ns();
	if (!c->fab.period_ns)
		return step_until_drained(c, true);
	for (;;) {
		e = ftt_fabric_get(&c->nl, c->o.fabric, &c->fab);
		if (e)
			return nlfail(c, "reading", e);
		progress(c, "synthetic messages waiting", c->fab.synth_queued, 0);
		if (!c->fab.synth_queued)
			break;
		if (ftt_now_ns() - c->t_start > (uint64_t)(c->o.timeout * 1e9))
			return fail("%s did not drain its synthetic messages in time",
				    c->o.fabric);
		usleep(5000);
	}
	c->res.drained = true;
	c->res.cycles = c->fab.drained_cycle - c->fab0.cycle;
	return 0;
}

static int setup_hosts(struct ctl *c)
{
	uint32_t *of = malloc(c->fab.n * sizeof(*of)), i, n = 0;
	uint64_t *per_src;

	per_src = calloc(c->fab.n, sizeof(*per_src));
	if (!of || !per_src)
		return fail("%s", "out of memory");
	for (i = 0; i < c->fab.n; i++)
		of[i] = UINT32_MAX;
	for (i = 0; i < c->set.nflows; i++) {
		of[c->set.flow[i].src] = 0;
		of[c->set.flow[i].dst] = 0;
		per_src[c->set.flow[i].src] += c->set.flow[i].count;
	}
	for (i = 0; i < c->fab.n; i++) {
		if (of[i] == UINT32_MAX)
			continue;
		of[i] = n++;
		if (!c->fab.period_ns && per_src[i] > c->fab.backlog) {
			fprintf(stderr, "fttraffic: leaf %u sends %" PRIu64 " messages, more than "
				"the %u a leaf of %s holds (its backlog); a batch must fit: raise "
				"it (ftctl fabric set %s backlog N) or use --inject\n", i, per_src[i],
				c->fab.backlog, c->o.fabric, c->o.fabric);
			free(per_src);
			return FTT_EXIT_USAGE;
		}
	}
	free(per_src);
	if (n > c->o.max_procs) {
		fprintf(stderr, "fttraffic: the set needs %u processes, more than --max-procs %u; "
			"use --inject for sets this large\n", n, c->o.max_procs);
		return FTT_EXIT_USAGE;
	}
	c->sh_size = sizeof(*c->sh) + n * sizeof(struct ftt_host) +
		     c->set.nflows * sizeof(struct ftt_flow_ctr);
	c->sh = mmap(NULL, c->sh_size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (c->sh == MAP_FAILED) {
		c->sh = NULL;
		return fail("%s", "cannot map the shared counters");
	}
	c->sh->nhosts = n;
	c->sh->nflows = c->set.nflows;
	c->sh->host = (struct ftt_host *)(c->sh + 1);
	c->sh->flow = (struct ftt_flow_ctr *)(c->sh->host + n);
	for (i = 0; i < c->fab.n; i++) {
		struct ftt_host *h;

		if (of[i] == UINT32_MAX)
			continue;
		h = &c->sh->host[of[i]];
		h->leaf = i;
		memcpy(h->ifname, c->lv0.leaf[i].ifname, sizeof(h->ifname));
		if (!h->ifname[0]) {
			free(of);
			return fail("%s has a leaf without a device", c->o.fabric);
		}
	}
	c->run = (struct ftt_run){
		.size = c->o.size, .rate = c->o.rate, .batch = !c->fab.period_ns,
		.set = &c->set, .host_of_leaf = of, .inflight = c->o.inflight,
		.bufs = 1024, .rcvbuf = 32 << 20,
	};
	c->cfg = (struct ftt_host_cfg){ .netns_prefix = c->o.netns_prefix,
					.qdisc_limit = c->o.qdisc_limit };
	c->procs = (struct ftt_procs){ .sh = c->sh, .run = &c->run, .cfg = &c->cfg,
				       .sigfd = -1 };
	return 0;
}

/* After the workers: leaves go home; without --netns-prefix, wait for them. */
static void wait_leaves_home(struct ctl *c)
{
	uint64_t deadline = ftt_now_ns() + 10000000000ULL;
	uint32_t i;

	if (c->o.netns_prefix)
		return;
	for (i = 0; i < c->sh->nhosts; i++)
		while (!ftt_host_present(c->sh->host[i].ifname) && ftt_now_ns() < deadline)
			usleep(10000);
}

static void collect(struct ctl *c)
{
	uint32_t i, b;
	uint64_t best = 0;

	if (c->o.veth || ftt_fabric_get(&c->nl, c->o.fabric, &c->fab) ||
	    ftt_leaves_get(&c->nl, c->o.fabric, &c->lv) ||
	    ftt_links_get(&c->nl, c->o.fabric, &c->lk))
		return;
	c->res.run_cycles = c->fab.cycle - c->fab0.cycle;
	for (i = 0; i < c->fab.n; i++)
		for (b = 0; b < FATTREE_LATENCY_BUCKETS; b++)
			c->res.lat_cycles[b] += c->lv.leaf[i].latency[b] - c->lv0.leaf[i].latency[b];
	for (i = 0; i < c->lk.n && i < c->lk0.n; i++) {
		const struct ftobj_link *k = &c->lk.link[i];
		uint64_t carried = k->carried - c->lk0.link[i].carried;

		if (k->max_cycle > k->lanes)
			c->res.links_over++;
		if (k->lanes && (!c->res.busiest || carried * c->res.busiest->lanes >
						    best * k->lanes)) {
			c->res.busiest = k;
			best = carried;
		}
	}
	c->res.busiest_carried = best;
}

static int run_procs(struct ctl *c)
{
	int e, rc;

	e = ftt_procs_start(&c->procs, c->err, sizeof(c->err));
	phase(c, "workers started");
	if (!e)
		e = ftt_procs_barrier(&c->procs, c->o.timeout, c->err, sizeof(c->err));
	phase(c, "hosts set up");
	if (!e) {
		ftt_procs_go(&c->procs, 0);
		e = ftt_procs_barrier(&c->procs, c->o.timeout, c->err, sizeof(c->err));
	}
	phase(c, "neighbours, sockets and rings ready");
	if (!e && !c->o.veth) {
		if (ftt_fabric_get(&c->nl, c->o.fabric, &c->fab0) ||
		    ftt_leaves_get(&c->nl, c->o.fabric, &c->lv0) ||
		    ftt_links_get(&c->nl, c->o.fabric, &c->lk0))
			snprintf(c->err, sizeof(c->err), "cannot read %s", c->o.fabric), e = -EIO;
	}
	if (e) {
		rc = fail("%s", c->err);
	} else {
		if (!c->o.veth)
			c->fab = c->fab0;
		c->res.backlog_drops = backlog_drops();
		c->t_start = ftt_now_ns();
		ftt_procs_go(&c->procs, 1);
		rc = c->run.batch ? run_batch(c) : run_timed(c);
		phase(c, "traffic done");
	}
	progress_end(c);
	if (!c->t_end)
		c->t_end = ftt_now_ns();
	__atomic_store_n(&c->sh->stop_tx, 1, __ATOMIC_RELEASE);
	__atomic_store_n(&c->sh->stop_rx, 1, __ATOMIC_RELEASE);
	c->res.backlog_drops = backlog_drops() - c->res.backlog_drops;
	if (rc)
		ftt_procs_kill(&c->procs);
	e = ftt_procs_end(&c->procs, c->o.timeout, c->err, sizeof(c->err));
	if (e && !rc)
		rc = fail("%s", c->err);
	phase(c, "workers ended");
	wait_leaves_home(c);
	phase(c, "leaves home");
	return rc;
}

static int output(struct ctl *c)
{
	struct json_object *o;

	c->res.fabric = c->o.fabric;
	c->res.pattern = c->o.pattern;
	c->res.fab = &c->fab;
	c->res.set = &c->set;
	c->res.size = c->o.size;
	c->res.sh = c->sh;
	c->res.seconds = c->sh ? (double)(c->t_end - c->t_start) / 1e9 : 0;
	ftt_result_sum(&c->res);
	if (c->o.json || c->o.stream) {
		o = ftt_report_json(&c->res, c->o.flows);
		puts(json_object_to_json_string_ext(o, c->o.stream ? JSON_C_TO_STRING_PLAIN :
						    JSON_C_TO_STRING_PRETTY));
		json_object_put(o);
	} else {
		ftt_report_text(stdout, &c->res, c->o.flows);
	}
	if (c->o.allow_loss || !c->sh)
		return 0;
	if (c->res.lost || c->res.corrupted) {
		/* Where the lost were counted, outside the fabric's own figures. */
		fprintf(stderr, "fttraffic: %" PRIu64 " messages lost (device drops %" PRIu64
			", socket receive drops %" PRIu64 ", input backlog drops %" PRIu64
			"), %" PRIu64 " corrupted\n", c->res.lost, c->res.dev_drops,
			c->res.rcvbuf_drops, c->res.backlog_drops, c->res.corrupted);
		return FTT_EXIT_FAIL;
	}
	return 0;
}

/* The baseline: the same program and pattern over a veth pair, timed. */
static int run_veth(struct ctl *c)
{
	static const char *const names[] = { "fttv0", "fttv1" };
	int rc, e;

	c->fab = (struct ftt_fabric){ .n = 2, .h = 1, .m = { 2 }, .w = { 1 }, .lanes = { 1 },
				      .period_ns = 1 };
	c->lv0.n = 2;
	c->lv0.leaf = calloc(2, sizeof(struct ftt_leaf));
	if (!c->lv0.leaf)
		return fail("%s", "out of memory");
	snprintf(c->lv0.leaf[0].ifname, sizeof(c->lv0.leaf[0].ifname), "%s", names[0]);
	snprintf(c->lv0.leaf[1].ifname, sizeof(c->lv0.leaf[1].ifname), "%s", names[1]);
	rc = build_set(c);
	if (rc)
		return rc;
	c->res.lambda = 0;
	if (ftt_veth_create(names[0], names[1], c->err, sizeof(c->err)))
		return fail("%s", c->err);
	rc = setup_hosts(c);
	c->res.mode = "timed, over a veth pair (the baseline)";
	if (!rc)
		rc = run_procs(c);
	ftt_veth_delete(names[0]);
	e = output(c);
	return rc ? rc : e;
}

int main(int argc, char **argv)
{
	struct ctl c;
	int rc, e;

	memset(&c, 0, sizeof(c));
	c.t0 = ftt_now_ns();
	ftt_opts_init(&c.o);
	rc = ftt_args_parse(argc, argv, &c.o);
	if (rc >= 0)
		return rc;
	c.progress = c.o.progress < 0 ? isatty(STDERR_FILENO) : c.o.progress;
	if (c.o.veth)
		return run_veth(&c);
	e = ftnl_open(&c.nl);
	if (e)
		return fail("%s", e == -ENOENT ? "the fattree module is not loaded "
			    "(modprobe fattree)" : "cannot open generic netlink");
	e = ftt_fabric_get(&c.nl, c.o.fabric, &c.fab);
	if (e)
		return nlfail(&c, "fabric", e);
	c.fab0 = c.fab;
	c.lv0.n = c.lv.n = c.fab.n;
	c.lv0.leaf = calloc(c.fab.n, sizeof(struct ftt_leaf));
	c.lv.leaf = calloc(c.fab.n, sizeof(struct ftt_leaf));
	if (!c.lv0.leaf || !c.lv.leaf)
		return fail("%s", "out of memory");
	rc = build_set(&c);
	if (rc)
		return rc;
	if (c.o.inject) {
		rc = run_inject(&c);
		if (!rc)
			rc = output(&c);
		return rc;
	}
	if (!c.fab.period_ns && c.o.duration_set) {
		fprintf(stderr, "fttraffic: --duration needs a timed fabric; %s steps manually "
			"(ftctl fabric set %s period 100us)\n", c.o.fabric, c.o.fabric);
		return FTT_EXIT_USAGE;
	}
	if (!c.fab.period_ns && c.fab.queued)
		return fail("%s already holds messages; a batch needs an empty fabric",
			    c.o.fabric);
	e = ftt_leaves_get(&c.nl, c.o.fabric, &c.lv0);
	if (e)
		return nlfail(&c, "leaves of", e);
	rc = setup_hosts(&c);
	if (rc)
		return rc;
	c.res.mode = c.run.batch ? "batch: sent, confirmed queued, stepped until drained" :
		     "timed: sources send for the duration";
	rc = run_procs(&c);
	collect(&c);
	e = output(&c);
	ftnl_close(&c.nl);
	return rc ? rc : e;
}
