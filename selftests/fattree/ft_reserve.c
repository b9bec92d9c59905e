// SPDX-License-Identifier: GPL-2.0
/* A fabric's reserved lanes against its circuits' paths (ft_reserve.h). */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>

#include "ftnl.h"
#include "ftobj.h"
#include "ft_reserve.h"
#include "ft_topo.h"

int ft_check_reservations(struct ftnl *nl, const char *name, const struct ft_topo *t)
{
	struct ftobj_circuit *c = NULL;
	struct ftobj_link *l = NULL;
	uint64_t *sum = NULL;
	int nc, nlk, i, bad = 0;

	nc = ftobj_circuits(nl, name, &c);
	nlk = ftobj_links(nl, name, &l);
	if (nc >= 0 && nlk > 0)
		sum = calloc(nlk, sizeof(*sum));
	if (!sum) {
		free(c);
		free(l);
		return nc < 0 ? nc : nlk < 0 ? nlk : nlk ? -ENOMEM : -EPROTO;
	}
	for (i = 0; i < nc; i++) {
		u32 port[FT_MAX_LEVELS] = { 0 };
		struct ft_path p;
		uint32_t j;

		for (j = 0; j < c[i].nports && j < FT_MAX_LEVELS; j++)
			port[j] = c[i].ports[j];
		if (ft_topo_path(t, c[i].src, c[i].dst, port, &p)) {
			bad++;
			continue;
		}
		for (j = 0; j < p.n; j++)
			if (p.link[j] < (uint32_t)nlk)
				sum[p.link[j]] += c[i].lanes;
	}
	for (i = 0; i < nlk; i++)
		if (l[i].id >= (uint32_t)nlk || sum[l[i].id] != l[i].reserved ||
		    l[i].reserved > l[i].lanes)
			bad++;
	free(sum);
	free(c);
	free(l);
	return bad;
}
