// SPDX-License-Identifier: GPL-2.0
/*
 * Allocation and all-or-nothing reservation of lanes.
 */
#include "ft_lanes.h"

/**
 * ft_lanes_init() - allocate the per-link lane state of a fabric.
 * @l: lane state to fill.
 * @t: topology; link ids follow its numbering.
 *
 * May sleep (kernel): call at fabric creation.  Memory is
 * 16 bytes per directed link (struct ft_link and its packed copy).
 *
 * Return: 0 or -FT_ENOMEM.
 */
int ft_lanes_init(struct ft_lanes *l, const struct ft_topo *t)
{
	u32 lvl, i, base, end;

	l->n = ft_topo_dlinks(t);
	l->nfailed = 0;
	l->nreserved = 0;
	l->link = ft_zalloc((size_t)l->n * sizeof(*l->link));
	l->hot = ft_zalloc((size_t)l->n * sizeof(*l->hot));
	if (!l->link || !l->hot) {
		ft_lanes_destroy(l);
		return -FT_ENOMEM;
	}
	for (lvl = 1; lvl <= t->h; lvl++) {
		base = 2 * t->link_base[lvl];
		end = 2 * t->link_base[lvl + 1];
		for (i = base; i < end; i++) {
			l->link[i].lanes = t->lanes[lvl];
			ft_lanes_sync(l, i);
		}
	}
	return 0;
}

/**
 * ft_lanes_destroy() - free the lane state.
 * @l: lane state; safe to call twice.
 */
void ft_lanes_destroy(struct ft_lanes *l)
{
	ft_free(l->link);
	ft_free(l->hot);
	l->link = NULL;
	l->hot = NULL;
	l->n = 0;
	l->nfailed = 0;
	l->nreserved = 0;
}

static int ft_lanes_check_path(const struct ft_lanes *l,
			       const struct ft_path *p, u32 lanes)
{
	u32 k;

	if (!lanes || p->n > FT_PATH_MAX)
		return -FT_EINVAL;
	for (k = 0; k < p->n; k++)
		if (p->link[k] >= l->n)
			return -FT_EINVAL;
	return 0;
}

/**
 * ft_lanes_reserve() - reserve lanes on every link of a path.
 * @l: lane state.
 * @p: path; a path never holds one directed link twice.
 * @lanes: lanes per link, at least 1.
 *
 * All or nothing: either every link of @p gains @lanes reserved lanes, or
 * none changes.
 *
 * Return: 0, -FT_EINVAL for a bad path, -FT_ENOSPC if some link lacks
 * @lanes unreserved lanes.
 */
int ft_lanes_reserve(struct ft_lanes *l, const struct ft_path *p, u32 lanes)
{
	u32 k;
	int err = ft_lanes_check_path(l, p, lanes);

	if (err)
		return err;
	for (k = 0; k < p->n; k++)
		if (ft_lanes_free(l, p->link[k]) < lanes)
			return -FT_ENOSPC;
	for (k = 0; k < p->n; k++) {
		l->nreserved += !l->link[p->link[k]].reserved;
		l->link[p->link[k]].reserved += lanes;
		ft_lanes_sync(l, p->link[k]);
	}
	return 0;
}

/**
 * ft_lanes_release() - give back lanes reserved by ft_lanes_reserve().
 * @l: lane state.
 * @p: the path that was reserved.
 * @lanes: the lanes that were reserved.
 *
 * All or nothing as well; releasing more than is reserved is a caller
 * bug: it warns and changes nothing.
 *
 * Return: 0, or -FT_EINVAL.
 */
int ft_lanes_release(struct ft_lanes *l, const struct ft_path *p, u32 lanes)
{
	u32 k;
	int err = ft_lanes_check_path(l, p, lanes);

	if (err)
		return err;
	for (k = 0; k < p->n; k++)
		if (ft_warn_on(l->link[p->link[k]].reserved < lanes))
			return -FT_EINVAL;
	for (k = 0; k < p->n; k++) {
		l->link[p->link[k]].reserved -= lanes;
		l->nreserved -= !l->link[p->link[k]].reserved;
		ft_lanes_sync(l, p->link[k]);
	}
	return 0;
}

/**
 * ft_lanes_check() - verify that no link is over-reserved.
 * @l: lane state.
 *
 * O(links): for tests, debugfs and after link failures, not per cycle.
 * A link whose packed copy (struct ft_link_hot) disagrees is bad too.
 *
 * Return: -1 if every link has reserved <= lanes, else the first bad id;
 * @l->n if only @nreserved miscounts the links with reservations.
 */
s64 ft_lanes_check(const struct ft_lanes *l)
{
	u32 i, nreserved = 0;

	for (i = 0; i < l->n; i++) {
		if (l->link[i].reserved > l->link[i].lanes ||
		    l->hot[i].lanes != l->link[i].lanes ||
		    l->hot[i].free != ft_lanes_free(l, i))
			return i;
		nreserved += !!l->link[i].reserved;
	}
	return nreserved == l->nreserved ? -1 : (s64)l->n;
}
