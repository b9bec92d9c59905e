/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fattreed in the simulator (rounds.c): ft_round_run(), the daemon's own
 * decision, run against the engine core's demand and circuit table, for
 * ftsim cycles' scheduled policy.
 */
#ifndef FTSIM_ROUNDS_H
#define FTSIM_ROUNDS_H

#include "ft_fabric.h"
#include "ft_pairs.h"
#include "sched/ft_round.h"

/**
 * struct ftsim_rounds - the simulated daemon's settings.
 * @o: the round's options (fattreed's).
 * @period: cycles between two rounds, at least 1.
 * @delay: cycles between a round reading the fabric and its decision
 *         taking effect (0: before the next cycle).
 */
struct ftsim_rounds {
	struct ft_round_opts o;
	u32 period;
	u32 delay;
};

/* What the simulated daemon did over a run. */
struct ftsim_rounds_res {
	u64 rounds;
	u64 requests;		/* new circuits asked of the algorithm */
	u64 granted;		/* new circuits */
	u64 lanes;		/* their lanes */
	u64 resized;		/* circuits grown, moved or shrunk */
	u64 released;		/* idle circuits released */
	u64 refused;		/* batches the circuit table refused (never, by design) */
};

struct ftsim_daemon;

/*
 * A daemon for a fabric of topology @t whose sets have at most @pairs
 * pairs, flows tagged below @ntags (ft_pairs_demand()); NULL when out of
 * memory.
 */
struct ftsim_daemon *ftsim_daemon_new(const struct ft_topo *t, u32 pairs, u32 ntags,
				      const struct ftsim_rounds *cfg);
void ftsim_daemon_free(struct ftsim_daemon *d);
/* Its circuit table, for ft_pairs_cycle(). */
struct ft_circuits *ftsim_daemon_circuits(struct ftsim_daemon *d);
const struct ftsim_rounds_res *ftsim_daemon_res(const struct ftsim_daemon *d);
/*
 * Before each cycle of @f: apply a decision whose time has come, run a
 * round when one is due. 0, or -1 (out of memory, or the round failed).
 */
int ftsim_daemon_before_cycle(struct ftsim_daemon *d, const struct ft_pairs *q,
			      struct ft_fabric *f);

#endif /* FTSIM_ROUNDS_H */
