// SPDX-License-Identifier: GPL-2.0
/*
 * fattreed's view of the kernel: the fabric's shape, free lanes (none on
 * failed links), circuits and demand over the fattree generic netlink family (lib/ftnl.c),
 * and the "demand" multicast group that wakes the loop.
 */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
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

static int demand_note(struct nl_msg *msg, void *arg)
{
	struct nlmsghdr *nlh = nlmsg_hdr(msg);
	struct ftd_wake *w = arg;
	struct ftobj_demand dm;

	if (nlh->nlmsg_type != w->family || !genlmsg_valid_hdr(nlh, 0) ||
	    genlmsg_hdr(nlh)->cmd != FATTREE_CMD_DEMAND_NTF ||
	    ftobj_demand_decode(msg, &dm) || !FTOBJ_HAS(&dm, FATTREE_A_DEMAND_FABRIC) ||
	    strcmp(dm.fabric, w->fabric))
		return NL_SKIP;
	w->last |= dm.last;
	return NL_OK;
}

struct nl_sock *ftd_demand_listen(struct ftd_wake *w)
{
	struct nl_sock *sk = nl_socket_alloc();
	int grp;

	if (sk && ftnl_listen(sk, FATTREE_MCGRP_DEMAND, demand_note, w, &grp)) {
		nl_socket_free(sk);
		sk = NULL;
	}
	return sk;
}

static double now_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

/*
 * The notifications only wake the loop; the round reads the demand dump.
 * A wake-up per message would run a round on a half-read announcement and
 * another on its rest, the second finding the first's circuits in place.
 * A socket that overflowed (ENOBUFS) may have lost the last message: that
 * wakes the loop too. A signal (poll's EINTR) ends the wait.
 */
void ftd_demand_wait(struct nl_sock *sk, struct ftd_wake *w, uint32_t ms)
{
	double end = now_ms() + ms;
	int left = ms, err;

	w->last = false;
	for (;;) {
		struct pollfd p = { .fd = sk ? nl_socket_get_fd(sk) : -1, .events = POLLIN };

		if (poll(&p, 1, left) <= 0)
			return;
		do
			err = nl_recvmsgs_default(sk);
		while (err >= 0);
		if (w->last || err != -NLE_AGAIN)
			return;
		left = end - now_ms();
		if (left <= 0)
			return;
	}
}
