// SPDX-License-Identifier: GPL-2.0
/* Lane accounting: per-level lanes, all-or-nothing reserve and release. */
#include "tap.h"
#include "harness.h"

static int same(const struct ft_lanes *l, const struct ft_link *snap)
{
	return !memcmp(l->link, snap, l->n * sizeof(*snap));
}

/* Links of @a or @b: what @nreserved must count with both reserved. */
static u32 links_of_both(const struct ft_path *a, const struct ft_path *b)
{
	u32 i, j, n = a->n;

	for (j = 0; j < b->n; j++) {
		for (i = 0; i < a->n && a->link[i] != b->link[j]; i++)
			;
		n += i == a->n;
	}
	return n;
}

int main(void)
{
	static const u32 m[3] = { 4, 4, 4 }, w[3] = { 1, 4, 4 };
	static const u32 c[3] = { 1, 2, 3 };
	struct ft_topo t;
	struct ft_lanes l;
	struct ft_link *snap;
	struct ft_path a, b, bad;
	u32 pa[3] = { 0, 0, 0 }, pb[3] = { 0, 0, 1 }, i, lvl, loc, dir;
	int good = 1;

	ft_topo_init(&t, 3, m, w, c);
	tap_ok(!ft_lanes_init(&l, &t) && l.n == ft_topo_dlinks(&t),
	       "one lane state per directed link");
	for (i = 0; i < l.n; i++) {
		ft_topo_dlink_decode(&t, i, &lvl, &loc, &dir);
		good &= l.link[i].lanes == c[lvl - 1] && !l.link[i].reserved;
	}
	tap_ok(good, "each link has its level's lanes, none reserved");
	snap = malloc(l.n * sizeof(*snap));

	/* Fig. 4 shape: both need Dlink(0,8,0), which has 2 lanes here. */
	ft_topo_path(&t, 0, 32, pa, &a);
	ft_topo_path(&t, 4, 33, pb, &b);
	tap_ok(!ft_lanes_reserve(&l, &a, 1), "first circuit reserved");
	tap_ok(!ft_lanes_reserve(&l, &b, 1), "second fits: 2 lanes at level 2");
	memcpy(snap, l.link, l.n * sizeof(*snap));
	tap_ok(ft_lanes_reserve(&l, &a, 1) == -ENOSPC && same(&l, snap),
	       "third over the full level-1 link refused, nothing changed");
	tap_ok(ft_lanes_reserve(&l, &b, 2) == -ENOSPC && same(&l, snap),
	       "2 more lanes refused, nothing changed");
	tap_ok(ft_lanes_free(&l, a.link[0]) == 0 &&
	       ft_lanes_free(&l, a.link[1]) == 1 &&
	       ft_lanes_free(&l, a.link[2]) == 2,
	       "free lanes = lanes - reserved per link");
	tap_ok(ft_lanes_check(&l) == -1, "checker: no link over-reserved");
	tap_ok(l.nreserved == links_of_both(&a, &b) &&
	       l.nreserved < a.n + b.n,
	       "links with reservations counted once each (%u)", l.nreserved);
	l.nreserved++;
	tap_ok(ft_lanes_check(&l) == l.n, "checker reports a miscount");
	l.nreserved--;

	bad = a;
	bad.link[3] = l.n;
	tap_ok(ft_lanes_reserve(&l, &bad, 1) == -EINVAL && same(&l, snap),
	       "a link id out of range refused, nothing changed");
	tap_ok(ft_lanes_reserve(&l, &a, 0) == -EINVAL, "0 lanes refused");
	tap_diag("the next check expects one ft_warn_on report");
	tap_ok(ft_lanes_release(&l, &a, 2) == -EINVAL && same(&l, snap),
	       "releasing more than reserved refused, nothing changed");
	tap_ok(!ft_lanes_release(&l, &a, 1) && !ft_lanes_release(&l, &b, 1),
	       "both released");
	for (good = 1, i = 0; i < l.n; i++)
		good &= !l.link[i].reserved;
	tap_ok(good && !l.nreserved, "all lanes free again, none counted");

	ft_lanes_reserve(&l, &a, 1);
	l.link[a.link[2]].lanes = 0;	/* a failure cuts under a circuit */
	tap_ok(ft_lanes_check(&l) == a.link[2] &&
	       ft_lanes_free(&l, a.link[2]) == 0,
	       "checker reports an over-reserved link; free saturates at 0");
	free(snap);
	ft_lanes_destroy(&l);
	ft_lanes_destroy(&l);
	tap_ok(!l.link && !l.n, "destroy is idempotent");
	return tap_done();
}
