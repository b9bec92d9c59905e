// SPDX-License-Identifier: GPL-2.0
/*
 * Create, destroy and step the engine state of a fabric.
 */
#include "ft_fabric.h"

/**
 * ft_fabric_init() - validate parameters and allocate a fabric's state.
 * @f: fabric to fill; zeroed first, and left zeroed on error.
 * @p: parameters.
 *
 * May sleep (kernel): the only allocations of the engine happen here.
 *
 * Return: 0, -FT_EINVAL / -FT_ERANGE for bad parameters, -FT_ENOMEM.
 */
int ft_fabric_init(struct ft_fabric *f, const struct ft_fabric_params *p)
{
	u32 lanes[FT_MAX_LEVELS];
	size_t sz;
	int err;

	memset(f, 0, sizeof(*f));
	if (p->path >= FT_PATH_NR || p->arb >= FT_ARB_NR)
		return -FT_EINVAL;
	err = ft_profile_lanes(&p->profile, p->h, p->m, p->w, lanes);
	if (!err)
		err = ft_topo_init(&f->topo, p->h, p->m, p->w, lanes);
	if (!err)
		err = ft_inject_init(&f->inject, &f->topo, &p->inject);
	if (err)
		goto fail;
	sz = ft_cycle_scratch_size(&f->topo, p->max_msgs);
	if (!sz) {
		err = -FT_EINVAL;
		goto fail;
	}
	err = ft_lanes_init(&f->lanes, &f->topo);
	if (err)
		goto fail;
	err = -FT_ENOMEM;
	f->scratch_mem = ft_zalloc(sz);
	f->stats = ft_zalloc((size_t)f->lanes.n * sizeof(*f->stats));
	if (!f->scratch_mem || !f->stats)
		goto fail;
	err = ft_cycle_scratch_init(&f->scratch, &f->topo, p->max_msgs,
				    f->scratch_mem, sz);
	if (err)
		goto fail;
	ft_rand_seed(&f->rand, p->seed);
	f->cfg.topo = &f->topo;
	f->cfg.lanes = &f->lanes;
	f->cfg.rand = &f->rand;
	f->cfg.path = p->path;
	f->cfg.arb = p->arb;
	return 0;
fail:
	ft_fabric_destroy(f);
	return err;
}

/**
 * ft_fabric_destroy() - free a fabric's state.
 * @f: fabric; safe on a zeroed or destroyed one.
 */
void ft_fabric_destroy(struct ft_fabric *f)
{
	ft_lanes_destroy(&f->lanes);
	ft_free(f->scratch_mem);
	ft_free(f->stats);
	memset(f, 0, sizeof(*f));
}

/**
 * ft_fabric_mem_size() - bytes allocated for a fabric (beyond @f itself).
 * @f: an initialized fabric.
 *
 * Return: lanes + scratch + stats.
 */
size_t ft_fabric_mem_size(const struct ft_fabric *f)
{
	return (size_t)f->lanes.n * (sizeof(struct ft_link) +
				     sizeof(struct ft_link_hot) +
				     sizeof(struct ft_link_stats)) +
	       ft_cycle_scratch_size(&f->topo, f->scratch.max_msgs);
}

/* Account a cycle that ran (@err 0) and count it. */
static int ft_fabric_counted(struct ft_fabric *f, int err)
{
	if (err)
		return err;
	ft_cycle_account(&f->scratch, &f->lanes, f->stats);
	f->cycle++;
	return 0;
}

/**
 * ft_fabric_cycle() - run one delivery cycle and account it per link.
 * @f: fabric.
 * @off: offers, see ft_cycle_run().
 * @oc: their circuits (may be NULL), see ft_cycle_run().
 * @noff: offers.
 * @res: out, the cycle's totals.
 *
 * Atomic context safe.  The injection schedule is the caller's to drive
 * (ft_inject_begin(), ft_inject_offer() per pair, then ft_inject_end()),
 * because only the caller knows the queues.
 *
 * Return: as ft_cycle_run(); on error no cycle is counted.
 */
int ft_fabric_cycle(struct ft_fabric *f, struct ft_offer *off,
		    const struct ft_offer_circuit *oc, u32 noff,
		    struct ft_cycle_result *res)
{
	return ft_fabric_counted(f, ft_cycle_run(&f->cfg, off, oc, noff,
						 &f->scratch, res));
}

/**
 * ft_fabric_cycle_plain() - ft_fabric_cycle() with ft_cycle_run_plain():
 * for offers that meet its terms, not checked one by one.
 * @f: fabric.
 * @off: offers, see ft_cycle_run_plain().
 * @noff: offers.
 * @res: out, the cycle's totals.
 * @laid: what of the offers' messages the caller laid out.
 *
 * Return: as ft_cycle_run_plain(); on error no cycle is counted.
 */
int ft_fabric_cycle_plain(struct ft_fabric *f, struct ft_offer *off, u32 noff,
			  struct ft_cycle_result *res, enum ft_cycle_laid laid)
{
	return ft_fabric_counted(f, ft_cycle_run_plain(&f->cfg, off, noff,
						       &f->scratch, res,
						       laid));
}
