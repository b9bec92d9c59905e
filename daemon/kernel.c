// SPDX-License-Identifier: GPL-2.0
/*
 * fattreed's view of the kernel: the fabric's shape, free lanes (none on
 * failed links), circuits and demand over the fattree generic netlink family (lib/ftnl.c),
 * and the "demand" multicast group that wakes the loop.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <netlink/genl/ctrl.h>

#include "fattreed.h"

int ftd_free_lanes(struct ftnl *nl, const char *name, uint32_t *free_lanes, uint32_t *cap,
		   uint32_t nlinks, uint32_t *failed)
{
	struct ftobj_link *l = NULL;
	uint32_t nfailed = 0;
	int n, i;

	n = ftobj_links(nl, name, &l);
	for (i = 0; i < n; i++) {
		if (l[i].id >= nlinks) {
			snprintf(nl->errmsg, sizeof(nl->errmsg), "link id %u of %u links",
				 l[i].id, nlinks);
			n = -EPROTO;
			break;
		}
		/* A failed link reports no lanes: no free lanes for the scheduler. */
		free_lanes[l[i].id] = l[i].lanes > l[i].reserved ? l[i].lanes - l[i].reserved : 0;
		if (l[i].failed) {
			free_lanes[l[i].id] = 0;
			nfailed++;
		} else if (cap) {
			cap[l[i].id] = l[i].lanes;
		}
	}
	free(l);
	if (n >= 0 && failed)
		*failed = nfailed;
	return n < 0 ? n : 0;
}

int ftd_circuit_add(struct ftnl *nl, const char *name, const struct fattree_circuit *c,
		    uint32_t n)
{
	struct nl_msg *msg = ftnl_batch(nl, FATTREE_CMD_CIRCUIT_ADD, FATTREE_A_CIRCUIT_FABRIC,
					name, FATTREE_A_CIRCUIT_ENTRY, c, n, sizeof(*c));

	return msg ? ftnl_transact(nl, msg, NULL, NULL) : -ENOMEM;
}

int ftd_circuit_del(struct ftnl *nl, const char *name, const struct fattree_pair *p,
		    uint32_t n)
{
	struct nl_msg *msg = ftnl_batch(nl, FATTREE_CMD_CIRCUIT_DEL, FATTREE_A_CIRCUIT_FABRIC,
					name, FATTREE_A_CIRCUIT_PAIR, p, n, sizeof(*p));

	return msg ? ftnl_transact(nl, msg, NULL, NULL) : -ENOMEM;
}

static int ignore(struct nl_msg *msg, void *arg)
{
	(void)msg;
	(void)arg;
	return NL_OK;
}

struct nl_sock *ftd_demand_listen(void)
{
	struct nl_sock *sk = nl_socket_alloc();
	int grp;

	if (sk && ftnl_listen(sk, FATTREE_MCGRP_DEMAND, ignore, NULL, &grp)) {
		nl_socket_free(sk);
		sk = NULL;
	}
	return sk;
}

/* Notifications only wake the loop; the round reads the demand dump. */
void ftd_demand_drain(struct nl_sock *sk)
{
	while (nl_recvmsgs_default(sk) >= 0)
		;
}
