/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fattree: what the generic netlink family's handlers share.
 *
 * The handlers are split by object, as net/devlink/ splits its own:
 * nl_fabric.c (fabrics, their steps, injection and counters), nl_link.c
 * (links and their failures), nl_leaf.c (leaves), nl_circuit.c (circuits)
 * and nl_demand.c (demand, dumped and announced). netlink.c keeps what is
 * family-wide: the request counters, the pre_doit and post_doit hooks,
 * the dump helpers below, INFO_GET, and the family's init and exit.
 */
#ifndef FT_NETLINK_H
#define FT_NETLINK_H

#include <net/genetlink.h>

#include "fattree.h"
#include "netlink_gen.h"

struct ft_nl_dump_ctx;

/*
 * Put the attributes of the fabric's object at ctx->pos, under the
 * fabric's lock: 0, -EMSGSIZE when the message is full, or 1 when there
 * is no object there.
 */
typedef int (*ft_nl_fill_fn)(struct sk_buff *skb, struct netlink_callback *cb,
			     struct ft_fab *fab, struct ft_nl_dump_ctx *ctx);

/*
 * Where a dump of one fabric's objects stands between its parts, in
 * cb->ctx: the fabric, by serial (a fabric deleted and re-created under
 * the same name ends the dump rather than continue it from another's
 * position), the position of the next object, whether the reader may
 * administer the fabric's namespace (ft_nl_dump_admin(): 0 not asked
 * yet, 1 no, 2 yes), and the fill of a dump of objects kept by position
 * (ft_nl_dump_objects()).
 */
struct ft_nl_dump_ctx {
	u64 serial;
	u32 pos;
	u8 admin;
	ft_nl_fill_fn fill;
};

/* Put the fabric's objects from ctx->pos on: 0, or -EMSGSIZE when full. */
typedef int (*ft_nl_dump_fn)(struct sk_buff *skb, struct netlink_callback *cb,
			     struct ft_fab *fab, struct ft_nl_dump_ctx *ctx);

int ft_nl_dump_fabric(struct sk_buff *skb, struct netlink_callback *cb, int type,
		      ft_nl_dump_fn dump);
int ft_nl_dump_objects(struct sk_buff *skb, struct netlink_callback *cb, int type,
		       ft_nl_fill_fn fill);
bool ft_nl_dump_admin(struct netlink_callback *cb, const struct ft_fab *fab,
		      struct ft_nl_dump_ctx *ctx);
void *ft_nl_dump_put(struct sk_buff *skb, struct netlink_callback *cb, u8 cmd);

#endif /* FT_NETLINK_H */
