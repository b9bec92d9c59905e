// SPDX-License-Identifier: GPL-2.0
/*
 * fattreed's view of the kernel: the fabric's shape, free lanes (none on
 * failed links), circuits and demand over the fattree generic netlink family (lib/ftnl.c),
 * and the "demand" multicast group that wakes the loop.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <netlink/genl/ctrl.h>

#include "fattreed.h"

static int fabric_reply(struct nl_msg *msg, void *arg)
{
	struct nlattr *tb[FATTREE_A_FABRIC_MAX + 1];
	struct ftd_fabric *f = arg;
	uint32_t h;

	if (ftnl_parse(msg, tb, FATTREE_A_FABRIC_MAX) || !tb[FATTREE_A_FABRIC_LEVELS] ||
	    !tb[FATTREE_A_FABRIC_DOWN] || !tb[FATTREE_A_FABRIC_UP] || !tb[FATTREE_A_FABRIC_LANES])
		return -EPROTO;
	h = nla_get_u32(tb[FATTREE_A_FABRIC_LEVELS]);
	if (!h || h > FATTREE_MAX_LEVELS || nla_len(tb[FATTREE_A_FABRIC_DOWN]) != (int)(4 * h) ||
	    nla_len(tb[FATTREE_A_FABRIC_UP]) != (int)(4 * h) ||
	    nla_len(tb[FATTREE_A_FABRIC_LANES]) != (int)(4 * h))
		return -EPROTO;
	f->h = h;
	memcpy(f->m, nla_data(tb[FATTREE_A_FABRIC_DOWN]), 4 * h);
	memcpy(f->w, nla_data(tb[FATTREE_A_FABRIC_UP]), 4 * h);
	memcpy(f->lanes, nla_data(tb[FATTREE_A_FABRIC_LANES]), 4 * h);
	f->n = tb[FATTREE_A_FABRIC_LEAVES] ? nla_get_u32(tb[FATTREE_A_FABRIC_LEAVES]) : 0;
	f->cycle = tb[FATTREE_A_FABRIC_CYCLE] ? nla_get_u64(tb[FATTREE_A_FABRIC_CYCLE]) : 0;
	f->path = tb[FATTREE_A_FABRIC_PATH] ? nla_get_u32(tb[FATTREE_A_FABRIC_PATH]) : 0;
	f->failed_links = 0;
	if (tb[FATTREE_A_FABRIC_STATS]) {
		struct nlattr *st[FATTREE_A_STATS_MAX + 1];

		if (nla_parse_nested(st, FATTREE_A_STATS_MAX, tb[FATTREE_A_FABRIC_STATS], NULL))
			return -EPROTO;
		if (st[FATTREE_A_STATS_FAILED_LINKS])
			f->failed_links = nla_get_u64(st[FATTREE_A_STATS_FAILED_LINKS]);
	}
	return 0;
}

int ftd_fabric_get(struct ftnl *nl, const char *name, struct ftd_fabric *f)
{
	return ftnl_fabric_transact(nl, FATTREE_CMD_FABRIC_GET, 0, FATTREE_A_FABRIC_NAME,
				    name, fabric_reply, f);
}

struct free_acc {
	uint32_t *free, *cap, n, failed;
};

static int link_reply(struct nl_msg *msg, void *arg)
{
	struct nlattr *tb[FATTREE_A_LINK_MAX + 1];
	struct free_acc *a = arg;
	uint32_t id, lanes, reserved;

	if (ftnl_parse(msg, tb, FATTREE_A_LINK_MAX) || !tb[FATTREE_A_LINK_ID] ||
	    !tb[FATTREE_A_LINK_LANES] || !tb[FATTREE_A_LINK_RESERVED])
		return -EPROTO;
	id = nla_get_u32(tb[FATTREE_A_LINK_ID]);
	lanes = nla_get_u32(tb[FATTREE_A_LINK_LANES]);
	reserved = nla_get_u32(tb[FATTREE_A_LINK_RESERVED]);
	if (id >= a->n)
		return -EPROTO;
	/* A failed link reports no lanes: no free lanes for the scheduler. */
	a->free[id] = lanes > reserved ? lanes - reserved : 0;
	if (tb[FATTREE_A_LINK_FAILED] && nla_get_u8(tb[FATTREE_A_LINK_FAILED])) {
		a->free[id] = 0;
		a->failed++;
	} else if (a->cap) {
		a->cap[id] = lanes;
	}
	return 0;
}

int ftd_free_lanes(struct ftnl *nl, const char *name, uint32_t *free, uint32_t *cap,
		   uint32_t nlinks, uint32_t *failed)
{
	struct free_acc a = { free, cap, nlinks, 0 };
	int err;

	err = ftnl_fabric_transact(nl, FATTREE_CMD_LINK_GET, NLM_F_DUMP,
				   FATTREE_A_LINK_FABRIC, name, link_reply, &a);
	if (!err && failed)
		*failed = a.failed;
	return err;
}

static int circuit_reply(struct nl_msg *msg, void *arg)
{
	struct nlattr *tb[FATTREE_A_CIRCUIT_MAX + 1];
	struct ftd_circuit *c;

	if (ftnl_parse(msg, tb, FATTREE_A_CIRCUIT_MAX) || !tb[FATTREE_A_CIRCUIT_SRC] ||
	    !tb[FATTREE_A_CIRCUIT_DST] || !tb[FATTREE_A_CIRCUIT_IDLE])
		return -EPROTO;
	c = ftnl_array_next(arg);
	if (!c)
		return -ENOMEM;
	c->src = nla_get_u32(tb[FATTREE_A_CIRCUIT_SRC]);
	c->dst = nla_get_u32(tb[FATTREE_A_CIRCUIT_DST]);
	c->lanes = tb[FATTREE_A_CIRCUIT_LANES] ? nla_get_u32(tb[FATTREE_A_CIRCUIT_LANES]) : 0;
	c->carried = tb[FATTREE_A_CIRCUIT_CARRIED] ?
		     nla_get_u64(tb[FATTREE_A_CIRCUIT_CARRIED]) : 0;
	c->idle = nla_get_u64(tb[FATTREE_A_CIRCUIT_IDLE]);
	/* Its up-ports, one a level climbed: where its lanes are held. */
	c->hh = tb[FATTREE_A_CIRCUIT_PORTS] ? nla_len(tb[FATTREE_A_CIRCUIT_PORTS]) : 0;
	if (c->hh > FATTREE_MAX_LEVELS)
		return -EPROTO;
	for (uint32_t i = 0; i < c->hh; i++)
		c->port[i] = ((const uint8_t *)nla_data(tb[FATTREE_A_CIRCUIT_PORTS]))[i];
	return 0;
}

int ftd_circuits(struct ftnl *nl, const char *name, struct ftd_circuit **out)
{
	return ftnl_dump_array(nl, FATTREE_CMD_CIRCUIT_GET, FATTREE_A_CIRCUIT_FABRIC, name,
			       circuit_reply, sizeof(**out), (void **)out);
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

	if (!sk)
		return NULL;
	if (genl_connect(sk))
		goto fail;
	grp = genl_ctrl_resolve_grp(sk, FATTREE_GENL_NAME, FATTREE_MCGRP_DEMAND);
	if (grp < 0 || nl_socket_add_membership(sk, grp))
		goto fail;
	nl_socket_disable_seq_check(sk);
	nl_socket_modify_cb(sk, NL_CB_VALID, NL_CB_CUSTOM, ignore, NULL);
	nl_socket_set_nonblocking(sk);
	return sk;
fail:
	nl_socket_free(sk);
	return NULL;
}

/* Notifications only wake the loop; the round reads the demand dump. */
void ftd_demand_drain(struct nl_sock *sk)
{
	while (nl_recvmsgs_default(sk) >= 0)
		;
}
