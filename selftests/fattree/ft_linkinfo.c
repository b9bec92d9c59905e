// SPDX-License-Identifier: GPL-2.0
/*
 * ft_linkinfo DEV: what rtnetlink says of DEV's kind, decoded from
 * IFLA_LINKINFO with libnl alone, as any netlink user would: one line
 *   kind KIND [fabric NAME id ID leaf INDEX]
 * (link_kind_test.sh compares it with ftctl and the MAC). Exit 1 when the
 * device cannot be read.
 */
#include <net/if.h>
#include <stdio.h>
#include <string.h>

#include <linux/if_link.h>
#include <linux/if_fattree.h>
#include <netlink/msg.h>
#include <netlink/netlink.h>

static int on_link(struct nl_msg *msg, void *arg)
{
	struct nlattr *tb[IFLA_MAX + 1], *info[IFLA_INFO_MAX + 1];
	struct nlattr *data[IFLA_FATTREE_MAX + 1];
	int *found = arg;

	if (nlmsg_parse(nlmsg_hdr(msg), sizeof(struct ifinfomsg), tb, IFLA_MAX, NULL) < 0)
		return NL_SKIP;
	*found = 1;
	if (!tb[IFLA_LINKINFO] ||
	    nla_parse_nested(info, IFLA_INFO_MAX, tb[IFLA_LINKINFO], NULL) < 0 ||
	    !info[IFLA_INFO_KIND]) {
		printf("kind none\n");
		return NL_OK;
	}
	printf("kind %s", nla_get_string(info[IFLA_INFO_KIND]));
	if (info[IFLA_INFO_DATA] &&
	    !nla_parse_nested(data, IFLA_FATTREE_MAX, info[IFLA_INFO_DATA], NULL) &&
	    data[IFLA_FATTREE_FABRIC] && data[IFLA_FATTREE_FABRIC_ID] && data[IFLA_FATTREE_LEAF])
		printf(" fabric %s id %u leaf %u", nla_get_string(data[IFLA_FATTREE_FABRIC]),
		       nla_get_u32(data[IFLA_FATTREE_FABRIC_ID]),
		       nla_get_u32(data[IFLA_FATTREE_LEAF]));
	printf("\n");
	return NL_OK;
}

int main(int argc, char **argv)
{
	struct ifinfomsg ifi = { .ifi_family = AF_UNSPEC };
	struct nl_sock *sk;
	struct nl_msg *msg;
	int found = 0, err;

	if (argc != 2 || !(ifi.ifi_index = (int)if_nametoindex(argv[1]))) {
		fprintf(stderr, "usage: ft_linkinfo DEV (an existing device)\n");
		return 1;
	}
	sk = nl_socket_alloc();
	msg = nlmsg_alloc_simple(RTM_GETLINK, NLM_F_REQUEST);
	if (!sk || !msg || nl_connect(sk, NETLINK_ROUTE) < 0 ||
	    nlmsg_append(msg, &ifi, sizeof(ifi), NLMSG_ALIGNTO) < 0) {
		fprintf(stderr, "ft_linkinfo: cannot ask rtnetlink\n");
		return 1;
	}
	nl_socket_modify_cb(sk, NL_CB_VALID, NL_CB_CUSTOM, on_link, &found);
	err = nl_send_auto(sk, msg);
	if (err >= 0)
		err = nl_recvmsgs_default(sk);
	nlmsg_free(msg);
	nl_socket_free(sk);
	if (err < 0 || !found) {
		fprintf(stderr, "ft_linkinfo: %s: %s\n", argv[1], err < 0 ? nl_geterror(err) : "no answer");
		return 1;
	}
	return 0;
}
