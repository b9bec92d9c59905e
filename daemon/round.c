// SPDX-License-Identifier: GPL-2.0
/*
 * One scheduling round of fattreed: read the fabric (its cycle and path
 * choice), its circuits and its demand, work out the links' free lanes
 * (each link's lanes less those the circuits just read hold, or a link
 * dump while a link is failed: a failed link has none, so every
 * algorithm schedules around it), let ft_round_run() (lib/sched) decide,
 * and apply the decision: the circuits it releases or replaces are
 * deleted, then the new and replacement circuits are installed as one
 * atomic batch with a lease. What the round decides (which pairs, by
 * weight; how many lanes each; which circuits grow, move, shrink or go)
 * is ft_round.h's, the same function ftsim's scheduled policy runs.
 * Leases time-share the lanes: a pair served now gives its lanes back
 * when its lease ends, and the pairs still waiting get their turn.
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

/* The path choices a scheduler is made for: circuits carry the pairs. */
static bool ftd_path_scheduled(uint32_t path)
{
	return path == FATTREE_PATH_CIRCUIT || path == FATTREE_PATH_SCHEDULED ||
	       path == FATTREE_PATH_SCHEDULED_RANDOM;
}

static const char *ftd_path_name(uint32_t path)
{
	return path < FT_PATH_NR ? ftn_path_names[path] : "unknown";
}

static void ftd_round_opts(const struct ftd *d, uint32_t path, struct ft_round_opts *o);

int ftd_setup(struct ftd *d)
{
	struct ft_round_opts o;
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
	d->round = ft_round_create(&d->topo);
	d->nlinks = ft_topo_dlinks(&d->topo);
	d->free = calloc(d->nlinks, sizeof(*d->free));
	d->cap = calloc(d->nlinks, sizeof(*d->cap));
	if (!d->round || !d->free || !d->cap)
		return -ENOMEM;
	/* Each link's lanes, once; a failed one's when it works again. */
	err = ftd_free_lanes(&d->nl, d->cfg.fabric, d->free, d->cap, d->nlinks, &failed);
	if (err) {
		ftd_log(LOG_ERR, "fabric %s: its links: %s", d->cfg.fabric,
			ftnl_strerror(&d->nl, err));
		return err;
	}
	d->cap_stale = failed;
	if (!ftd_path_scheduled(d->fab.path))
		ftd_log(LOG_WARNING, "fabric %s has path choice %s: its circuits only add"
			" reserved lanes (circuit, scheduled or scheduled-random are made"
			" for a scheduler)", d->cfg.fabric, ftd_path_name(d->fab.path));
	ftd_round_opts(d, d->fab.path, &o);
	ftd_log(LOG_INFO, "scheduling fabric %s (%u leaves, %u levels, path %s) with %s,"
		" lease %u, idle %u, %s", d->cfg.fabric, d->topo.n, d->topo.h,
		ftd_path_name(d->fab.path), ft_sched_algo_name(d->cfg.sched.algo),
		d->cfg.lease, ft_round_idle(&o), d->fab.path == FATTREE_PATH_CIRCUIT ?
		"every pair in demand" : ftd_select_desc(&d->cfg));
	return 0;
}

void ftd_teardown(struct ftd *d)
{
	ft_round_destroy(d->round);
	free(d->free);
	free(d->cap);
	if (d->nl.sk)
		ftnl_close(&d->nl);
}

/*
 * The links' free lanes into d->free, where they came from into
 * d->last.links_dumped (@fab: the fabric as read this round). While no
 * link is failed, each link's
 * lanes less those held by @c, the @n circuits in the kernel now: the
 * circuit dump is read every round anyway, and a link dump is one
 * message per directed link (24,576 at 4,096 leaves), most of a round's
 * time. With a link failed, or the lanes of one that was failed not read
 * again yet, a link dump. Lanes the kernel freed meanwhile (a lease that
 * ended) are counted held: the next round sees them free. A circuit
 * installed meanwhile by someone else makes the batch fail: next round.
 */
static int ftd_links(struct ftd *d, const struct ftobj_fabric *fab,
		     const struct ftobj_circuit *c, int n, uint32_t *failed)
{
	uint32_t port[FT_MAX_LEVELS], k, id;
	struct ft_path path;
	int i, err;

	d->last.links_dumped = d->cfg.links_dump || d->cap_stale ||
			       !FTOBJ_HAS(&fab->stats, FATTREE_A_STATS_FAILED_LINKS) ||
			       fab->stats.v[FATTREE_A_STATS_FAILED_LINKS];
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

/* The options of this round: the configuration and the fabric's path. */
static void ftd_round_opts(const struct ftd *d, uint32_t path, struct ft_round_opts *o)
{
	ft_round_opts_default(o, d->cfg.sched.algo);
	o->sched = d->cfg.sched;
	o->path = path < FT_PATH_NR ? (enum ft_path_choice)path : FT_PATH_CIRCUIT;
	o->lease = d->cfg.lease;
	o->idle = d->cfg.idle;
	o->threshold = d->cfg.threshold;
	o->colliding = d->cfg.colliding;
	o->max_lanes = d->cfg.max_lanes;
	o->max_requests = d->cfg.max_requests;
}

/* The circuit dump as the round function reads it. */
static struct ft_round_held *ftd_held(const struct ftobj_circuit *c, int n)
{
	struct ft_round_held *h = calloc(n ? n : 1, sizeof(*h));
	int i;
	uint32_t k;

	for (i = 0; h && i < n; i++) {
		h[i] = (struct ft_round_held){
			.src = c[i].src, .dst = c[i].dst, .lanes = c[i].lanes,
			.created = c[i].created, .expires = c[i].expires,
			.carried = c[i].carried, .idle = c[i].idle,
		};
		for (k = 0; k < c[i].nports && k < FT_MAX_LEVELS; k++)
			h[i].port[k] = c[i].ports[k];
	}
	return h;
}

/* The demand dump as the round function reads it. */
static struct ft_pairs_demand *ftd_demand(const struct fattree_demand *dm, int n)
{
	struct ft_pairs_demand *p = calloc(n ? n : 1, sizeof(*p));
	int i;

	for (i = 0; p && i < n; i++)
		p[i] = (struct ft_pairs_demand){ dm[i].src, dm[i].dst, dm[i].backlog,
						 dm[i].circuit_lanes, dm[i].age };
	return p;
}

/*
 * Delete the @n pairs' circuits. The batch is all or nothing: when a
 * lease ended since the dump (-ENOENT), those still there are deleted
 * in a second batch; the lanes of the others are free already.
 */
static int ftd_delete(struct ftd *d, struct fattree_pair *p, uint32_t n)
{
	struct ftobj_circuit *c = NULL;
	uint32_t i, k = 0;
	int m, j, err;

	err = ftd_circuit_del(&d->nl, d->cfg.fabric, p, n);
	if (err != -ENOENT)
		return err;
	m = ftobj_circuits(&d->nl, d->cfg.fabric, &c);
	if (m < 0)
		return m;
	for (i = 0; i < n; i++)
		for (j = 0; j < m; j++)
			if (c[j].src == p[i].src && c[j].dst == p[i].dst) {
				p[k++] = p[i];
				break;
			}
	free(c);
	return k ? ftd_circuit_del(&d->nl, d->cfg.fabric, p, k) : 0;
}

/*
 * Apply the round's decision: its deletions, then its batch. Returns 0
 * with *@deleted the pairs whose circuits went (a lease may have ended
 * some first) and *@installed the circuits admitted (0 when the kernel
 * refused the batch: a race with the fabric, tried again next round;
 * pairs whose circuits were replaced take their default paths until
 * then), or -errno.
 */
static int ftd_apply(struct ftd *d, const struct ft_round_out *ro, uint32_t *deleted,
		     uint32_t *installed)
{
	struct fattree_circuit *c = NULL;
	struct fattree_pair *p = NULL;
	uint32_t i, j;
	int err = -ENOMEM;

	*deleted = *installed = 0;
	p = calloc(ro->ndel ? ro->ndel : 1, sizeof(*p));
	c = calloc(ro->nadd ? ro->nadd : 1, sizeof(*c));
	if (!p || !c)
		goto out;
	for (i = 0; i < ro->ndel; i++)
		p[i] = (struct fattree_pair){ ro->del[2 * i], ro->del[2 * i + 1] };
	err = ro->ndel ? ftd_delete(d, p, ro->ndel) : 0;
	if (err) {
		/* Nothing deleted: the replacements would find their pairs held. */
		ftd_log(LOG_WARNING, "round %llu: deleting %u circuits: %s",
			(unsigned long long)d->last.round, ro->ndel,
			ftnl_strerror(&d->nl, err));
		err = err == -ENOENT || err == -EINVAL ? 0 : err;
		goto out;
	}
	*deleted = ro->ndel;
	for (i = 0; i < ro->nadd; i++) {
		c[i] = (struct fattree_circuit){ .src = ro->add[i].src, .dst = ro->add[i].dst,
						 .lanes = ro->add[i].lanes,
						 .lease = ro->add[i].lease };
		for (j = 0; j < FT_MAX_LEVELS && j < FATTREE_MAX_LEVELS; j++)
			c[i].port[j] = ro->add[i].port[j];
		ftd_log(LOG_DEBUG, "circuit %u -> %u", c[i].src, c[i].dst);
	}
	err = ro->nadd ? ftd_circuit_add(&d->nl, d->cfg.fabric, c, ro->nadd) : 0;
	/* Lost a race with the fabric (another scheduler, a link's
	 * reservations changed): try again next round.
	 */
	if (err == -ENOSPC || err == -EEXIST) {
		ftd_log(LOG_WARNING, "round %llu: batch of %u refused: %s",
			(unsigned long long)d->last.round, ro->nadd,
			ftnl_strerror(&d->nl, err));
		err = 0;
	} else if (!err) {
		*installed = ro->nadd;
	}
out:
	free(p);
	free(c);
	return err;
}

int ftd_round(struct ftd *d)
{
	struct ftd_round_stats *st = &d->last;
	struct ftobj_circuit *circ = NULL;
	struct fattree_demand *dm = NULL;
	struct ft_round_held *held = NULL;
	struct ft_pairs_demand *pd = NULL;
	const struct ft_round_stats *rs;
	struct ft_round_opts o;
	struct ft_round_out ro;
	struct ftobj_fabric fab;
	uint32_t failed = 0, installed = 0, deleted = 0;
	double start, t0, t1;
	int n, nheld = 0, err;

	memset(st, 0, sizeof(*st));
	memset(&ro, 0, sizeof(ro));
	st->round = ++d->rounds;
	start = now_us();
	err = ftobj_fabric_get_shape(&d->nl, d->cfg.fabric, &fab);
	if (err)
		goto out;
	nheld = ftobj_circuits(&d->nl, d->cfg.fabric, &circ);
	t0 = now_us();
	st->circuits_us = t0 - start;
	if (nheld < 0) {
		err = nheld;
		goto out;
	}
	n = ftnl_demand(&d->nl, d->cfg.fabric, &dm);
	t1 = now_us();
	st->demand_us = t1 - t0;
	if (n < 0) {
		err = n;
		goto out;
	}
	st->demand = n;
	st->cycle = fab.cycle;
	st->optional = fab.path == FATTREE_PATH_SCHEDULED ||
		       fab.path == FATTREE_PATH_SCHEDULED_RANDOM;
	err = -ENOMEM;
	held = ftd_held(circ, nheld);
	pd = ftd_demand(dm, n);
	if (!held || !pd)
		goto out;
	if (n || nheld) {
		err = ftd_links(d, &fab, circ, nheld, &failed);
		st->links_us = now_us() - t1;
		if (err)
			goto out;
		if (failed != d->failed_links) {
			if (failed)
				ftd_log(LOG_INFO, "fabric %s: %u directed links failed:"
					" scheduling around them", d->cfg.fabric, failed);
			else
				ftd_log(LOG_INFO, "fabric %s: every link works again",
					d->cfg.fabric);
			d->failed_links = failed;
		}
		ftd_round_opts(d, fab.path, &o);
		t0 = now_us();
		err = ft_round_run(d->round, &o, &(struct ft_round_in){
				.now = fab.cycle, .demand = pd, .ndemand = (uint32_t)n,
				.held = held, .nheld = (uint32_t)nheld, .free = d->free },
				&ro);
		t1 = now_us();
		st->sched_us = t1 - t0;
		st->links_read = true;
		if (err)
			goto out;
		err = ftd_apply(d, &ro, &deleted, &installed);
		st->install_us = now_us() - t1;
		if (err)
			goto out;
	}
	rs = &ro.st;
	st->requests = rs->requests;
	st->pairs = rs->pairs;
	st->selected = rs->selected;
	st->colliding = rs->colliding;
	if (installed) {	/* the batch went in whole */
		st->granted = rs->granted;
		st->lanes_granted = rs->lanes_granted;
		st->grown = rs->grown;
		st->moved = rs->moved;
		st->shrunk = rs->shrunk;
	}
	st->lanes_wanted = rs->lanes_wanted;
	st->released = rs->released;
	st->circuits = (uint32_t)nheld - deleted + installed;
	if (st->requests)
		ftd_metrics_observe(&d->metrics, st->sched_us, st->install_us);
	st->round_us = now_us() - start;
	d->granted_total += st->granted;
	d->requests_total += st->requests;
	d->metrics.released_total += st->released;
	d->metrics.resized_total += st->grown + st->moved + st->shrunk;
	d->metrics.lanes_granted_total += st->lanes_granted;
	ftd_log(st->requests || ro.ndel ? LOG_INFO : LOG_DEBUG,
		"round %llu: demand %u, requests %u, granted %u (%.0f%%), lanes %llu of %llu,"
		" grown %u, moved %u, shrunk %u, released %u, round %.0f us: circuits %.0f,"
		" demand %.0f, links %.0f%s, schedule %.0f, install %.0f; started at cycle %llu",
		(unsigned long long)st->round, st->demand, st->requests, st->granted,
		st->requests ? 100.0 * st->granted / st->requests : 100.0,
		(unsigned long long)st->lanes_granted, (unsigned long long)st->lanes_wanted,
		st->grown, st->moved, st->shrunk, st->released, st->round_us,
		st->circuits_us, st->demand_us, st->links_us,
		!st->links_read ? "" : st->links_dumped ? " (dump)" : " (from circuits)",
		st->sched_us, st->install_us, (unsigned long long)st->cycle);
	err = 0;
out:
	free(circ);
	free(dm);
	free(held);
	free(pd);
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
	json_object_object_add(o, "lanes_granted",
			       json_object_new_int64(d->metrics.lanes_granted_total));
	json_object_object_add(o, "resized", json_object_new_int64(d->metrics.resized_total));
	json_object_object_add(o, "released", json_object_new_int64(d->metrics.released_total));
	json_object_object_add(o, "failed_links", json_object_new_int64(d->failed_links));
	json_object_object_add(r, "round", json_object_new_int64(st->round));
	json_object_object_add(r, "cycle", json_object_new_int64(st->cycle));
	json_object_object_add(r, "demand", json_object_new_int64(st->demand));
	json_grants(r, st->requests, st->granted);
	json_object_object_add(r, "pairs", json_object_new_int64(st->pairs));
	json_object_object_add(r, "selected", json_object_new_int64(st->selected));
	json_object_object_add(r, "colliding", json_object_new_int64(st->colliding));
	json_object_object_add(r, "lanes_wanted", json_object_new_int64(st->lanes_wanted));
	json_object_object_add(r, "lanes_granted", json_object_new_int64(st->lanes_granted));
	json_object_object_add(r, "grown", json_object_new_int64(st->grown));
	json_object_object_add(r, "moved", json_object_new_int64(st->moved));
	json_object_object_add(r, "shrunk", json_object_new_int64(st->shrunk));
	json_object_object_add(r, "released", json_object_new_int64(st->released));
	json_object_object_add(r, "circuits", json_object_new_int64(st->circuits));
	json_us(r, "round_us", st->round_us);
	json_us(r, "circuits_us", st->circuits_us);
	json_us(r, "demand_us", st->demand_us);
	json_us(r, "links_us", st->links_us);
	json_object_object_add(r, "links_from", json_object_new_string(
		!st->links_read ? "none" : st->links_dumped ? "dump" : "circuits"));
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
