// SPDX-License-Identifier: GPL-2.0
/*
 * One scheduling round of fattreed:
 *  1. release circuits that carried nothing for --idle cycles (adopted
 *     ones too: circuits found in the kernel at start are left alone
 *     until then);
 *  2. read the demand: pairs waiting with no circuit (a pair with a
 *     circuit keeps it until its lease ends or it goes idle);
 *  3. ask the algorithm for one lane per such pair, against the links'
 *     free lanes (none on failed links, so every algorithm schedules
 *     around them; circuits a failure tore down come back as demand):
 *     while no link is failed, each link's lanes less those the circuits
 *     of step 1 hold, else read from a link dump, one message a link;
 *  4. install the granted circuits in one atomic batch with a lease.
 * Leases time-share the lanes: a pair served now gives its lanes back
 * when its lease ends, and the pairs still waiting, oldest first with
 * --order given, get their turn. Every circuit installed is for a pair
 * that was in demand.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>
#include <time.h>
#include <sys/stat.h>
#include <json-c/json.h>

#include "fattreed.h"

static double now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

int ftd_setup(struct ftd *d)
{
	uint32_t failed;
	int err;

	err = ftnl_open(&d->nl);
	if (err) {
		ftd_log(LOG_ERR, "cannot reach the fattree family: %s",
			err == -ENOENT ? "the module is not loaded" : strerror(-err));
		return err;
	}
	err = ftobj_fabric_get_shape(&d->nl, d->cfg.fabric, &d->fab);
	if (err) {
		ftd_log(LOG_ERR, "fabric %s: %s", d->cfg.fabric, ftnl_strerror(&d->nl, err));
		return err;
	}
	if (ft_topo_init(&d->topo, d->fab.levels, d->fab.down, d->fab.up, d->fab.lanes)) {
		ftd_log(LOG_ERR, "fabric %s: a shape the scheduler cannot take", d->cfg.fabric);
		return -EINVAL;
	}
	d->sched = ft_sched_create(&d->topo);
	d->nlinks = ft_topo_dlinks(&d->topo);
	d->free = calloc(d->nlinks, sizeof(*d->free));
	d->cap = calloc(d->nlinks, sizeof(*d->cap));
	if (!d->sched || !d->free || !d->cap)
		return -ENOMEM;
	/* Each link's lanes, once; a failed one's when it works again. */
	err = ftd_free_lanes(&d->nl, d->cfg.fabric, d->free, d->cap, d->nlinks, &failed);
	if (err) {
		ftd_log(LOG_ERR, "fabric %s: its links: %s", d->cfg.fabric,
			ftnl_strerror(&d->nl, err));
		return err;
	}
	d->cap_stale = failed;
	if (d->fab.path != FATTREE_PATH_CIRCUIT)
		ftd_log(LOG_WARNING, "fabric %s does not use path choice circuit: its circuits"
			" only add reserved lanes", d->cfg.fabric);
	ftd_log(LOG_INFO, "scheduling fabric %s (%u leaves, %u levels) with %s, lease %u,"
		" idle %u", d->cfg.fabric, d->topo.n, d->topo.h,
		ft_sched_algo_name(d->cfg.sched.algo), d->cfg.lease, d->cfg.idle);
	return 0;
}

void ftd_teardown(struct ftd *d)
{
	ft_sched_destroy(d->sched);
	free(d->free);
	free(d->cap);
	if (d->nl.sk)
		ftnl_close(&d->nl);
}

/*
 * Read the circuits and delete those idle for --idle cycles: *@cp (the
 * caller frees it) and *@np are the circuits left. Returns how many were
 * deleted, or -errno.
 */
static int ftd_release_idle(struct ftd *d, struct ftobj_circuit **cp, int *np)
{
	struct ftobj_circuit *c = NULL;
	struct fattree_pair *p;
	int n, i, k = 0, err;

	n = ftobj_circuits(&d->nl, d->cfg.fabric, &c);
	if (n < 0)
		return n;
	p = calloc(n ? n : 1, sizeof(*p));
	if (!p) {
		free(c);
		return -ENOMEM;
	}
	for (i = 0; d->cfg.idle && i < n; i++)
		if (c[i].idle >= d->cfg.idle)
			p[k++] = (struct fattree_pair){ c[i].src, c[i].dst };
	err = k ? ftd_circuit_del(&d->nl, d->cfg.fabric, p, k) : 0;
	/* A lease that ended meanwhile makes the batch fail: next round. */
	if (err && err != -ENOENT)
		ftd_log(LOG_WARNING, "releasing %d idle circuits: %s", k,
			ftnl_strerror(&d->nl, err));
	free(p);
	if (err) {
		k = 0;		/* all or nothing: they all hold their lanes */
	} else if (k) {
		for (i = 0, k = 0; i < n; i++)
			if (c[i].idle < d->cfg.idle)
				c[k++] = c[i];
		k = n - k;
	}
	*cp = c;
	*np = n - k;
	return k;
}

/*
 * The links' free lanes into d->free, where they came from into
 * d->last.links_dumped. While no link is failed, each link's
 * lanes less those held by @c, the @n circuits in the kernel now: the
 * circuit dump is read every round anyway, and a link dump is one
 * message per directed link (24,576 at 4,096 leaves), most of a round's
 * time. With a link failed, or the lanes of one that was failed not read
 * again yet, a link dump. Lanes the kernel freed meanwhile (a lease that
 * ended) are counted held: the next round sees them free. A circuit
 * installed meanwhile by someone else makes the batch fail: next round.
 */
static int ftd_links(struct ftd *d, const struct ftobj_circuit *c, int n, uint32_t *failed)
{
	uint32_t port[FT_MAX_LEVELS], k, id;
	struct ftobj_fabric fab;
	struct ft_path path;
	int i, err;

	err = ftobj_fabric_get_shape(&d->nl, d->cfg.fabric, &fab);
	if (err)
		return err;
	d->last.links_dumped = d->cfg.links_dump || d->cap_stale ||
			       !FTOBJ_HAS(&fab.stats, FATTREE_A_STATS_FAILED_LINKS) ||
			       fab.stats.v[FATTREE_A_STATS_FAILED_LINKS];
	if (d->last.links_dumped) {
		err = ftd_free_lanes(&d->nl, d->cfg.fabric, d->free, d->cap, d->nlinks, failed);
		/* A dump cut short leaves lanes unread: read them again. */
		d->cap_stale = err || *failed;
		return err;
	}
	*failed = 0;
	memcpy(d->free, d->cap, d->nlinks * sizeof(*d->free));
	for (i = 0; i < n; i++) {
		for (k = 0; k < c[i].nports && k < FT_MAX_LEVELS; k++)
			port[k] = c[i].ports[k];
		if (c[i].nports != ft_topo_common_level(&d->topo, c[i].src, c[i].dst) ||
		    ft_topo_path(&d->topo, c[i].src, c[i].dst, port, &path))
			return -EPROTO;
		for (k = 0; k < path.n; k++) {
			id = path.link[k];
			d->free[id] -= d->free[id] < c[i].lanes ? d->free[id] : c[i].lanes;
		}
	}
	return 0;
}

static int by_pair_then_age(const void *a, const void *b)
{
	const struct fattree_demand *x = a, *y = b;

	if (x->src != y->src)
		return x->src < y->src ? -1 : 1;
	if (x->dst != y->dst)
		return x->dst < y->dst ? -1 : 1;
	return x->age > y->age ? -1 : x->age < y->age;
}

static int by_age(const void *a, const void *b)
{
	const struct fattree_demand *x = a, *y = b;

	if (x->age != y->age)
		return x->age > y->age ? -1 : 1;
	return by_pair_then_age(a, b);
}

/*
 * The pairs to ask for: in demand, no circuit, each once, between two
 * leaves (a leaf's messages to itself cross no link and need no circuit;
 * asking for one would make the kernel refuse the whole batch).
 */
static uint32_t ftd_requests(struct ftd *d, struct fattree_demand *dm, int n,
			     struct ft_sched_req *req)
{
	uint32_t k = 0;
	int i;

	/* A pair's packets and synthetic messages are listed apart. */
	qsort(dm, n, sizeof(*dm), by_pair_then_age);
	for (i = 0; i < n; i++) {
		if (dm[i].circuit_lanes || dm[i].src == dm[i].dst ||
		    (k && dm[k - 1].src == dm[i].src && dm[k - 1].dst == dm[i].dst))
			continue;
		dm[k++] = dm[i];
	}
	if (d->cfg.sched.order == FT_SCHED_ORDER_GIVEN)
		qsort(dm, k, sizeof(*dm), by_age);
	if (d->cfg.max_requests && k > d->cfg.max_requests)
		k = d->cfg.max_requests;
	for (i = 0; i < (int)k; i++)
		req[i] = (struct ft_sched_req){ dm[i].src, dm[i].dst, 1 };
	return k;
}

int ftd_round(struct ftd *d)
{
	struct ftd_round_stats *st = &d->last;
	struct ftobj_circuit *held = NULL;
	struct fattree_demand *dm = NULL;
	struct fattree_circuit *c = NULL;
	struct ft_sched_req *req = NULL;
	struct ft_sched_out *out = NULL;
	struct ft_sched_stats ss;
	uint32_t nreq, k = 0, i, j, failed = 0;
	double start, t0, t1;
	int n, nheld = 0, err;

	memset(st, 0, sizeof(*st));
	st->round = ++d->rounds;
	start = now_us();
	err = ftd_release_idle(d, &held, &nheld);
	t0 = now_us();
	st->circuits_us = t0 - start;
	if (err < 0)
		goto out;
	st->released = err;
	d->metrics.released_total += err;
	n = ftnl_demand(&d->nl, d->cfg.fabric, &dm);
	t1 = now_us();
	st->demand_us = t1 - t0;
	if (n < 0) {
		err = n;
		goto out;
	}
	st->demand = n;
	err = -ENOMEM;
	req = calloc(n ? n : 1, sizeof(*req));
	out = calloc(n ? n : 1, sizeof(*out));
	c = calloc(n ? n : 1, sizeof(*c));
	if (!req || !out || !c)
		goto out;
	nreq = ftd_requests(d, dm, n, req);
	st->requests = nreq;
	if (nreq) {
		t0 = now_us();
		err = ftd_links(d, held, nheld, &failed);
		if (err || (err = ft_sched_set_free(d->sched, d->free)))
			goto out;
		st->links_us = now_us() - t0;
		if (failed != d->failed_links) {
			if (failed)
				ftd_log(LOG_INFO, "fabric %s: %u directed links failed:"
					" scheduling around them", d->cfg.fabric, failed);
			else
				ftd_log(LOG_INFO, "fabric %s: every link works again",
					d->cfg.fabric);
			d->failed_links = failed;
		}
		t0 = now_us();
		err = ft_sched_run(d->sched, &d->cfg.sched, req, nreq, out, &ss);
		t1 = now_us();
		st->sched_us = t1 - t0;
		if (err)
			goto out;
		for (i = 0; i < nreq; i++) {
			if (out[i].status != FT_SCHED_GRANTED)
				continue;
			c[k] = (struct fattree_circuit){ .src = req[i].src, .dst = req[i].dst,
							 .lanes = 1, .lease = d->cfg.lease };
			for (j = 0; j < out[i].hh; j++)
				c[k].port[j] = (uint8_t)out[i].port[j];
			ftd_log(LOG_DEBUG, "circuit %u -> %u", req[i].src, req[i].dst);
			k++;
		}
		if (k) {
			err = ftd_circuit_add(&d->nl, d->cfg.fabric, c, k);
			st->install_us = now_us() - t1;
			/* Lost a race with the fabric (another scheduler, a
			 * link's reservations changed): try again next round.
			 */
			if (err == -ENOSPC || err == -EEXIST) {
				ftd_log(LOG_WARNING, "round %llu: batch of %u refused: %s",
					(unsigned long long)st->round, k,
					ftnl_strerror(&d->nl, err));
				k = 0;
				err = 0;
			}
			if (err)
				goto out;
		}
	}
	if (nreq)
		ftd_metrics_observe(&d->metrics, st->sched_us, st->install_us);
	st->round_us = now_us() - start;
	st->granted = k;
	st->circuits = nheld + k;
	d->granted_total += k;
	d->requests_total += nreq;
	ftd_log(nreq ? LOG_INFO : LOG_DEBUG,
		"round %llu: demand %u, requests %u, granted %u (%.0f%%), released %u,"
		" round %.0f us: circuits %.0f, demand %.0f, links %.0f%s, schedule %.0f,"
		" install %.0f", (unsigned long long)st->round, st->demand, nreq, k,
		nreq ? 100.0 * k / nreq : 100.0, st->released, st->round_us, st->circuits_us,
		st->demand_us, st->links_us, !nreq ? "" : st->links_dumped ? " (dump)" :
		" (from circuits)", st->sched_us, st->install_us);
	err = 0;
out:
	free(held);
	free(dm);
	free(req);
	free(out);
	free(c);
	if (!err) {
		ftd_status_write(d);
		ftd_metrics_write(d, false);
	}
	return err;
}

/* fattreed --status: the running daemon's last statistics. */
int ftd_status_print(const struct ftd_config *c)
{
	char buf[4096];
	FILE *f = fopen(c->status_file, "r");
	size_t n;

	if (!f) {
		fprintf(stderr, "fattreed: no statistics for fabric %s (%s: %m); is a fattreed"
			" running for it?\n", c->fabric, c->status_file);
		return 1;
	}
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
		fwrite(buf, 1, n, stdout);
	fclose(f);
	return 0;
}

/* @requests, @granted and their ratio (1 without requests) into @o. */
static void json_grants(struct json_object *o, uint64_t requests, uint64_t granted)
{
	json_object_object_add(o, "requests", json_object_new_int64(requests));
	json_object_object_add(o, "granted", json_object_new_int64(granted));
	json_object_object_add(o, "schedulability_ratio",
			       json_object_new_double(requests ?
						      (double)granted / requests : 1.0));
}

static void json_us(struct json_object *o, const char *key, double us)
{
	json_object_object_add(o, key, json_object_new_double(us));
}

/* The statistics as JSON, replaced atomically (write, then rename). */
int ftd_status_write(const struct ftd *d)
{
	const struct ftd_round_stats *st = &d->last;
	struct json_object *o, *r;
	char tmp[300];
	FILE *f;

	o = json_object_new_object();
	r = json_object_new_object();
	json_object_object_add(o, "fabric", json_object_new_string(d->cfg.fabric));
	json_object_object_add(o, "algorithm",
			       json_object_new_string(ft_sched_algo_name(d->cfg.sched.algo)));
	json_object_object_add(o, "rounds", json_object_new_int64(d->rounds));
	json_grants(o, d->requests_total, d->granted_total);
	json_object_object_add(o, "failed_links", json_object_new_int64(d->failed_links));
	json_object_object_add(r, "round", json_object_new_int64(st->round));
	json_object_object_add(r, "demand", json_object_new_int64(st->demand));
	json_grants(r, st->requests, st->granted);
	json_object_object_add(r, "released", json_object_new_int64(st->released));
	json_object_object_add(r, "circuits", json_object_new_int64(st->circuits));
	json_us(r, "round_us", st->round_us);
	json_us(r, "circuits_us", st->circuits_us);
	json_us(r, "demand_us", st->demand_us);
	json_us(r, "links_us", st->links_us);
	json_object_object_add(r, "links_from", json_object_new_string(
		!st->requests ? "none" : st->links_dumped ? "dump" : "circuits"));
	json_us(r, "schedule_us", st->sched_us);
	json_us(r, "install_us", st->install_us);
	json_object_object_add(o, "last_round", r);
	snprintf(tmp, sizeof(tmp), "%s.tmp", d->cfg.status_file);
	if (!strncmp(d->cfg.status_file, "/run/fattreed/", 14))
		mkdir("/run/fattreed", 0755);
	f = fopen(tmp, "w");
	if (f) {
		fprintf(f, "%s\n", json_object_to_json_string_ext(o, JSON_C_TO_STRING_PRETTY));
		if (fclose(f) || rename(tmp, d->cfg.status_file))
			ftd_log(LOG_WARNING, "status file %s: %m", d->cfg.status_file);
	}
	json_object_put(o);
	return 0;
}
