// SPDX-License-Identifier: GPL-2.0
/*
 * fattreed in the simulator: ft_round_run() (lib/sched/ft_round.h, the
 * daemon's own decision) against the engine core's demand and circuit
 * table, every --round-period cycles, its decision taking effect
 * --round-delay cycles after the round read the fabric, applied as
 * fattreed applies it to the kernel: the circuits still there among those
 * it deletes, then its batch admitted whole by ft_circuits_admit() (the
 * kernel's admission) or refused whole.
 *
 * The round reads the state after cycle c (c cycles completed); with
 * delay D its decision is in place for cycle c + D + 1, so D cycles run
 * on the old circuits (0: the next cycle already runs on the new ones, a
 * stepped fabric that waits for the daemon). Like the daemon, the next
 * round starts once the decision is in: at cycle max(c + period, c + D).
 */
#include <stdlib.h>
#include <string.h>

#include "ftsim.h"
#include "rounds.h"

struct ftsim_daemon {
	struct ftsim_rounds cfg;
	struct ft_round *r;
	struct ft_circuits cs;
	u32 ntags;
	struct ft_pairs_demand *dm;
	u32 dmcap;
	struct ft_round_held *held;
	u32 *free;
	/* the decision waiting for its cycle */
	bool pending;
	u64 apply_at;
	u64 next_round;
	u32 *del;
	u32 ndel;
	struct ft_circuit_req *add;
	u32 nadd;
	u32 cap;		/* room in @del (pairs), @add, @held */
	struct ftsim_rounds_res res;
};

struct ftsim_daemon *ftsim_daemon_new(const struct ft_topo *t, u32 pairs, u32 ntags,
				      const struct ftsim_rounds *cfg)
{
	struct ftsim_daemon *d = calloc(1, sizeof(*d));
	u32 cap = pairs ? (pairs < FT_CIRCUITS_MAX ? pairs : FT_CIRCUITS_MAX) : 1;

	if (!d)
		return NULL;
	d->cfg = *cfg;
	d->ntags = ntags;
	d->cap = cap;
	d->r = ft_round_create(t);
	d->free = calloc(ft_topo_dlinks(t), sizeof(u32));
	d->held = calloc(cap, sizeof(*d->held));
	d->del = calloc((size_t)cap * 2, sizeof(u32));
	d->add = calloc((size_t)cap * 2, sizeof(*d->add));
	if (!d->r || !d->free || !d->held || !d->del || !d->add ||
	    ft_circuits_init(&d->cs, cap)) {
		ftsim_daemon_free(d);
		return NULL;
	}
	return d;
}

void ftsim_daemon_free(struct ftsim_daemon *d)
{
	if (!d)
		return;
	ft_round_destroy(d->r);
	ft_circuits_destroy(&d->cs);
	free(d->dm);
	free(d->held);
	free(d->free);
	free(d->del);
	free(d->add);
	free(d);
}

struct ft_circuits *ftsim_daemon_circuits(struct ftsim_daemon *d)
{
	return &d->cs;
}

const struct ftsim_rounds_res *ftsim_daemon_res(const struct ftsim_daemon *d)
{
	return &d->res;
}

/* The demand as the kernel lists it, every pair of @q. */
static int read_demand(struct ftsim_daemon *d, const struct ft_pairs *q, u64 now, u32 *n)
{
	u32 pos = 0, k;

	if (q->nactive > d->dmcap) {
		struct ft_pairs_demand *p = realloc(d->dm, (size_t)q->nactive * sizeof(*p));

		if (!p)
			return -1;
		d->dm = p;
		d->dmcap = q->nactive;
	}
	*n = 0;
	while (pos < q->nactive) {
		k = ft_pairs_demand(q, &d->cs, d->ntags, now, &pos, d->dm + *n,
				    d->dmcap - *n, q->nactive);
		*n += k;
		if (!k && pos < q->nactive && *n == d->dmcap)
			break;
	}
	return 0;
}

/* A round on the state after f->cycle cycles; its decision kept pending. */
static int decide(struct ftsim_daemon *d, const struct ft_pairs *q, const struct ft_fabric *f)
{
	struct ft_round_out out;
	u32 nd, j, k, nl = ft_topo_dlinks(&f->topo);
	int err;

	if (read_demand(d, q, f->cycle, &nd))
		return -1;
	for (j = 0; j < d->cs.n; j++)
		ft_round_held_of(&d->held[j], &d->cs.c[d->cs.active[j]], f->cycle);
	for (k = 0; k < nl; k++)
		d->free[k] = ft_lanes_free(&f->lanes, k);
	err = ft_round_run(d->r, &d->cfg.o, &(struct ft_round_in){
			.now = f->cycle, .demand = d->dm, .ndemand = nd,
			.held = d->held, .nheld = d->cs.n, .free = d->free }, &out);
	if (err)
		return -1;
	if (out.ndel > d->cap || out.nadd > 2 * d->cap)
		return -1;
	memcpy(d->del, out.del, (size_t)out.ndel * 2 * sizeof(u32));
	memcpy(d->add, out.add, (size_t)out.nadd * sizeof(*d->add));
	d->ndel = out.ndel;
	d->nadd = out.nadd;
	d->pending = out.ndel || out.nadd;
	d->res.rounds++;
	d->res.granted += out.st.granted;
	d->res.lanes += out.st.lanes_granted;
	d->res.resized += out.st.grown + out.st.moved + out.st.shrunk;
	d->res.released += out.st.released;
	d->res.requests += out.st.requests;
	return 0;
}

/* The pending decision, as fattreed applies it to the kernel. */
static void apply(struct ftsim_daemon *d, struct ft_fabric *f)
{
	struct ft_circuits_refusal rf;
	u32 j, k = 0, bad;

	for (j = 0; j < d->ndel; j++)	/* a lease may have ended meanwhile */
		if (ft_circuits_find(&d->cs, d->del[2 * j], d->del[2 * j + 1])) {
			d->del[2 * k] = d->del[2 * j];
			d->del[2 * k++ + 1] = d->del[2 * j + 1];
		}
	if (k)
		ft_circuits_del(&d->cs, &f->lanes, d->del, k, &bad);
	if (d->nadd && ft_circuits_admit(&d->cs, &f->topo, &f->lanes, d->add, d->nadd,
					 f->cycle, &rf))
		d->res.refused++;
	d->pending = false;
}

int ftsim_daemon_before_cycle(struct ftsim_daemon *d, const struct ft_pairs *q,
			      struct ft_fabric *f)
{
	if (d->pending && f->cycle >= d->apply_at)
		apply(d, f);
	if (d->pending || f->cycle < d->next_round || !q->queued)
		return 0;
	if (decide(d, q, f))
		return -1;
	d->apply_at = f->cycle + d->cfg.delay;
	d->next_round = f->cycle + (d->cfg.period > d->cfg.delay ? d->cfg.period :
				    d->cfg.delay ? d->cfg.delay : 1);
	if (d->pending && !d->cfg.delay)
		apply(d, f);
	return 0;
}
