// SPDX-License-Identifier: GPL-2.0
/*
 * fattree: the generic netlink handlers of circuits: CIRCUIT_ADD and
 * CIRCUIT_DEL (batches, admitted all or nothing) and CIRCUIT_GET (a dump
 * of one fabric's circuits).
 */
#include <linux/vmalloc.h>
#include <net/genetlink.h>

#include "compat.h"
#include "netlink.h"

/* Point the refusal's offset at entry @bad: 6.1 has no formatted
 * messages, so the offset is how a caller learns which entry it was.
 */
#define ft_nl_bad_entry(info, bad, msg) do {				\
		struct netlink_ext_ack *ft_extack = (info)->extack;		\
									\
		NL_SET_ERR_MSG_MOD(ft_extack, msg);				\
		NL_SET_BAD_ATTR(ft_extack, (const struct nlattr *)(bad));	\
	} while (0)

/*
 * The extended ack of a batch the circuit table refused (@rf, from
 * ft_circuits_batch() or ft_circuits_admit()), pointing at the offending
 * entry (@where) for a refusal that names one.
 */
static void ft_nl_circuits_refused(struct genl_info *info,
				   const struct ft_circuits_refusal *rf,
				   const void * const *where)
{
	const void *bad = where ? where[rf->bad] : NULL;

	switch (rf->why) {
	case FT_CIRCUITS_OK:
		break;
	case FT_CIRCUITS_EMPTY:
		NL_SET_ERR_MSG_MOD(info->extack, "an empty batch");
		break;
	case FT_CIRCUITS_TOO_MANY:
		NL_SET_ERR_MSG_MOD(info->extack, "more circuits than the circuit table holds");
		break;
	case FT_CIRCUITS_NO_ROOM:
		NL_SET_ERR_MSG_MOD(info->extack, "the circuit table has no room for them");
		break;
	case FT_CIRCUITS_SAME_LEAF:
		ft_nl_bad_entry(info, bad, "a circuit joins two different leaves");
		break;
	case FT_CIRCUITS_BAD:
		ft_nl_bad_entry(info, bad, "no such leaf, a port past w_i, or bad lanes");
		break;
	case FT_CIRCUITS_EXISTS:
		ft_nl_bad_entry(info, bad, "the pair of this circuit has one already");
		break;
	case FT_CIRCUITS_FAILED:
		ft_nl_bad_entry(info, bad, "this circuit crosses a failed link");
		break;
	case FT_CIRCUITS_LANES:
		ft_nl_bad_entry(info, bad, "this circuit would exceed a link's lanes");
		break;
	}
}

/*
 * Gather the entries of every attribute @type of the request, of @size
 * bytes each, into one array; @where keeps each entry's place in the
 * message so a refusal can point at it. A store-and-forward fabric has no
 * circuits; a batch its circuit table could never take
 * (ft_circuits_batch()) is refused before any allocation.
 */
static int ft_nl_entries(struct genl_info *info, const struct ft_fab *fab, int type,
			 size_t size, const void ***where, u32 *nentries)
{
	const int hdrlen = GENL_HDRLEN + ft_genl_family.hdrsize;
	struct ft_circuits_refusal rf;
	const struct nlattr *a;
	const void **w;
	u32 n = 0, i, k = 0;
	int rem, err;

	if (fab->saf) {
		NL_SET_ERR_MSG_ATTR(info->extack, info->attrs[FATTREE_A_CIRCUIT_FABRIC],
				    "circuits do not apply in store-and-forward mode");
		return -EOPNOTSUPP;
	}
	nlmsg_for_each_attr(a, info->nlhdr, hdrlen, rem) {
		if (nla_type(a) != type)
			continue;
		if (!nla_len(a) || nla_len(a) % size) {
			NL_SET_ERR_MSG_ATTR(info->extack, a, "entries are whole structs");
			return -EINVAL;
		}
		n += nla_len(a) / size;
	}
	err = ft_circuits_batch(&fab->circ, n, &rf);
	if (err) {
		ft_nl_circuits_refused(info, &rf, NULL);
		return err;
	}
	w = kvmalloc_array(n, sizeof(*w), GFP_KERNEL);
	if (!w)
		return -ENOMEM;
	nlmsg_for_each_attr(a, info->nlhdr, hdrlen, rem) {
		if (nla_type(a) != type)
			continue;
		for (i = 0; i < nla_len(a) / size; i++)
			w[k++] = (const u8 *)nla_data(a) + i * size;
	}
	*where = w;
	*nentries = n;
	return 0;
}

/* Answer a batch with the number of circuits the fabric now holds. */
static int ft_nl_circuit_reply(struct genl_info *info, u32 count)
{
	struct sk_buff *msg = genlmsg_new(NLMSG_GOODSIZE, GFP_KERNEL);
	void *hdr;

	if (!msg)
		return -ENOMEM;
	hdr = genlmsg_put_reply(msg, info, &ft_genl_family, 0, info->genlhdr->cmd);
	if (!hdr || nla_put_u32(msg, FATTREE_A_CIRCUIT_COUNT, count)) {
		nlmsg_free(msg);
		return -EMSGSIZE;
	}
	genlmsg_end(msg, hdr);
	return genlmsg_reply(msg, info);
}

int fattree_nl_circuit_add_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct ft_fab *fab = info->user_ptr[0];
	struct ft_circuits_refusal rf;
	struct ft_circuit_req *req;
	const void **where;
	u32 n, i, count;
	int err;

	err = ft_nl_entries(info, fab, FATTREE_A_CIRCUIT_ENTRY, sizeof(struct fattree_circuit),
			    &where, &n);
	if (err)
		return err;
	req = kvmalloc_array(n, sizeof(*req), GFP_KERNEL);
	if (!req) {
		kvfree(where);
		return -ENOMEM;
	}
	for (i = 0; i < n; i++) {
		const struct fattree_circuit *c = where[i];

		req[i].src = c->src;
		req[i].dst = c->dst;
		req[i].lanes = c->lanes;
		req[i].lease = c->lease;
		memcpy(req[i].port, c->port, sizeof(req[i].port));
	}
	err = ft_engine_circuits_add(fab, req, n, &rf, &count);
	if (err)
		ft_nl_circuits_refused(info, &rf, where);
	else
		err = ft_nl_circuit_reply(info, count);
	kvfree(req);
	kvfree(where);
	return err;
}

int fattree_nl_circuit_del_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct ft_fab *fab = info->user_ptr[0];
	u32 n, i, bad = 0, count;
	const void **where;
	u32 *pairs;
	int err;

	err = ft_nl_entries(info, fab, FATTREE_A_CIRCUIT_PAIR, sizeof(struct fattree_pair),
			    &where, &n);
	if (err)
		return err;
	pairs = kvmalloc_array(n, 2 * sizeof(u32), GFP_KERNEL);
	if (!pairs) {
		kvfree(where);
		return -ENOMEM;
	}
	for (i = 0; i < n; i++) {
		const struct fattree_pair *pr = where[i];

		pairs[2 * i] = pr->src;
		pairs[2 * i + 1] = pr->dst;
	}
	err = ft_engine_circuits_del(fab, pairs, n, &bad, &count);
	if (err)
		ft_nl_bad_entry(info, where[bad], "no circuit for this pair");
	else
		err = ft_nl_circuit_reply(info, count);
	kvfree(pairs);
	kvfree(where);
	return err;
}

/* Circuits in admission order (struct ft_circuits @active). */
static int ft_nl_circuit_fill(struct sk_buff *msg, struct netlink_callback *cb,
			      struct ft_fab *fab, struct ft_nl_dump_ctx *ctx)
{
	const struct ft_circuit *c;
	u64 now = fab->eng.cycle;
	u32 h;

	if (ctx->pos >= fab->circ.n)
		return 1;
	c = &fab->circ.c[fab->circ.active[ctx->pos]];
	h = ft_topo_common_level(&fab->eng.topo, c->src, c->dst);
	if (nla_put_u32(msg, FATTREE_A_CIRCUIT_SRC, c->src) ||
	    nla_put_u32(msg, FATTREE_A_CIRCUIT_DST, c->dst) ||
	    nla_put_u32(msg, FATTREE_A_CIRCUIT_LANES, c->lanes) ||
	    nla_put(msg, FATTREE_A_CIRCUIT_PORTS, h, c->port) ||
	    nla_put_u64_64bit(msg, FATTREE_A_CIRCUIT_CREATED, c->created, FATTREE_A_CIRCUIT_PAD) ||
	    nla_put_u64_64bit(msg, FATTREE_A_CIRCUIT_EXPIRES, c->expires, FATTREE_A_CIRCUIT_PAD) ||
	    nla_put_u64_64bit(msg, FATTREE_A_CIRCUIT_CARRIED, c->carried, FATTREE_A_CIRCUIT_PAD) ||
	    nla_put_u64_64bit(msg, FATTREE_A_CIRCUIT_IDLE, now - c->last_used,
			      FATTREE_A_CIRCUIT_PAD))
		return -EMSGSIZE;
	return 0;
}

int fattree_nl_circuit_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb)
{
	return ft_nl_dump_objects(skb, cb, FATTREE_A_CIRCUIT_FABRIC, ft_nl_circuit_fill);
}
