// SPDX-License-Identifier: GPL-2.0
/*
 * A worker's host: its leaf device alone in a network namespace, up,
 * addressed, with a pfifo qdisc deep enough that the fabric's
 * back-pressure stops the sender instead of dropping (fq_codel, the
 * default, drops in front of a slow fabric), IPv6 off (no neighbour
 * discovery chatter in the message counts) and permanent neighbour
 * entries for the leaves it sends to (no ARP in front of the first
 * message of a batch). Done over rtnetlink with libnl-route.
 *
 * Without --netns the namespace is the worker's own (unshare), so it dies
 * with the worker whatever way that ends and the kernel hands the leaf
 * back; on a normal exit the worker hands it back itself, to the
 * namespace it came from.
 */
#include <errno.h>
#include <fcntl.h>
#include <net/if.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <netlink/netlink.h>
#include <netlink/route/addr.h>
#include <netlink/route/link.h>
#include <netlink/route/link/veth.h>
#include <netlink/route/neighbour.h>
#include <netlink/route/qdisc.h>
#include <netlink/route/qdisc/fifo.h>
#include <linux/neighbour.h>
#include <linux/pkt_sched.h>

#include "fttraffic.h"

struct ftt_host_ns {
	struct nl_sock *home;	/* rtnetlink in the namespace we came from */
	struct nl_sock *sk;	/* rtnetlink in the host's namespace */
	int home_fd;
	int ns_fd;
	bool moved;		/* we moved the leaf here: move it back */
	char ifname[IFNAMSIZ];
};

static struct nl_sock *rtnl_open(void)
{
	struct nl_sock *sk = nl_socket_alloc();

	if (sk && nl_connect(sk, NETLINK_ROUTE)) {
		nl_socket_free(sk);
		sk = NULL;
	}
	return sk;
}

/*
 * Change link @ifname: move it to the namespace @to_fd (>= 0) or bring it
 * up; its ifindex, before the change, in @ifindex if set.
 */
static int change_link(struct nl_sock *sk, const char *ifname, int to_fd, int *ifindex)
{
	struct rtnl_link *link, *chg;
	int err;

	err = rtnl_link_get_kernel(sk, 0, ifname, &link);
	if (err)
		return err;
	if (ifindex)
		*ifindex = rtnl_link_get_ifindex(link);
	chg = rtnl_link_alloc();
	if (!chg) {
		rtnl_link_put(link);
		return -NLE_NOMEM;
	}
	if (to_fd >= 0)
		rtnl_link_set_ns_fd(chg, to_fd);
	else
		rtnl_link_set_flags(chg, IFF_UP);
	err = rtnl_link_change(sk, link, chg, 0);
	rtnl_link_put(chg);
	rtnl_link_put(link);
	return err;
}

/*
 * Whether @ifname exists in @sk's namespace. Asked over rtnetlink: a
 * lookup by ioctl (if_nametoindex) of a missing name makes the kernel
 * try to load a module "netdev-NAME", a modprobe per call.
 */
static bool link_present(struct nl_sock *sk, const char *ifname)
{
	struct rtnl_link *link;

	if (rtnl_link_get_kernel(sk, 0, ifname, &link))
		return false;
	rtnl_link_put(link);
	return true;
}

static int move_link(struct nl_sock *sk, const char *ifname, int to_fd)
{
	return change_link(sk, ifname, to_fd, NULL);
}

static int link_up(struct nl_sock *sk, const char *ifname, int *ifindex)
{
	return change_link(sk, ifname, -1, ifindex);
}

static int write_sysctl(const char *path, const char *val)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC), ok;

	if (fd < 0)
		return -errno;
	ok = write(fd, val, strlen(val)) == (ssize_t)strlen(val);
	close(fd);
	return ok ? 0 : -EIO;
}

/* The first IPv4 address of @ifindex, if any. */
static bool find_addr(struct nl_sock *sk, int ifindex, struct in_addr *out)
{
	struct nl_cache *cache;
	struct nl_object *o;
	bool found = false;

	if (rtnl_addr_alloc_cache(sk, &cache))
		return false;
	for (o = nl_cache_get_first(cache); o && !found; o = nl_cache_get_next(o)) {
		struct rtnl_addr *a = (struct rtnl_addr *)o;
		struct nl_addr *l = rtnl_addr_get_local(a);

		if (rtnl_addr_get_ifindex(a) == ifindex && rtnl_addr_get_family(a) == AF_INET && l) {
			memcpy(out, nl_addr_get_binary_addr(l), sizeof(*out));
			found = true;
		}
	}
	nl_cache_free(cache);
	return found;
}

static int add_addr(struct nl_sock *sk, int ifindex, struct in_addr a)
{
	struct rtnl_addr *addr = rtnl_addr_alloc();
	struct nl_addr *local = nl_addr_build(AF_INET, &a, sizeof(a));
	int err = -NLE_NOMEM;

	if (addr && local) {
		rtnl_addr_set_ifindex(addr, ifindex);
		nl_addr_set_prefixlen(local, 8);
		err = rtnl_addr_set_local(addr, local);
		if (!err)
			err = rtnl_addr_add(sk, addr, 0);
	}
	nl_addr_put(local);
	rtnl_addr_put(addr);
	return err;
}

static int set_pfifo(struct nl_sock *sk, int ifindex, uint32_t limit)
{
	struct rtnl_qdisc *q = rtnl_qdisc_alloc();
	int err;

	if (!q)
		return -NLE_NOMEM;
	rtnl_tc_set_ifindex(TC_CAST(q), ifindex);
	rtnl_tc_set_parent(TC_CAST(q), TC_H_ROOT);
	err = rtnl_tc_set_kind(TC_CAST(q), "pfifo");
	if (!err)
		err = rtnl_qdisc_fifo_set_limit(q, (int)limit);
	if (!err)
		err = rtnl_qdisc_add(sk, q, NLM_F_CREATE | NLM_F_REPLACE);
	rtnl_qdisc_put(q);
	return err;
}

/* 10.0.0.0/8: leaf i is 10.x.y.z with x.y.z = i + 1. */
static struct in_addr leaf_addr(uint32_t leaf)
{
	struct in_addr a = { htonl((10U << 24) | ((leaf + 1) & 0xffffff)) };

	return a;
}

#define FAIL(...) do { snprintf(err, errlen, __VA_ARGS__); goto fail; } while (0)

struct ftt_host_ns *ftt_host_enter(struct ftt_host *h, const struct ftt_host_cfg *cfg,
				   char *err, size_t errlen)
{
	struct ftt_host_ns *ns = calloc(1, sizeof(*ns));
	char path[128];
	int ifindex, e;

	if (!ns)
		FAIL("out of memory");
	ns->home_fd = ns->ns_fd = -1;
	snprintf(ns->ifname, sizeof(ns->ifname), "%s", h->ifname);
	ns->home = rtnl_open();
	ns->home_fd = open("/proc/self/ns/net", O_RDONLY | O_CLOEXEC);
	if (!ns->home || ns->home_fd < 0)
		FAIL("cannot open this network namespace: %s", strerror(errno));
	if (cfg->netns_prefix) {
		snprintf(path, sizeof(path), "/run/netns/%s%u", cfg->netns_prefix, h->leaf);
		ns->ns_fd = open(path, O_RDONLY | O_CLOEXEC);
		if (ns->ns_fd < 0)
			FAIL("network namespace %s%u: %s", cfg->netns_prefix, h->leaf,
			     strerror(errno));
		if (setns(ns->ns_fd, CLONE_NEWNET))
			FAIL("cannot enter %s: %s", path, strerror(errno));
	} else {
		if (unshare(CLONE_NEWNET))
			FAIL("cannot create a network namespace: %s", strerror(errno));
		ns->ns_fd = open("/proc/self/ns/net", O_RDONLY | O_CLOEXEC);
		if (ns->ns_fd < 0)
			FAIL("cannot open the new namespace: %s", strerror(errno));
	}
	ns->sk = rtnl_open();
	if (!ns->sk)
		FAIL("cannot open rtnetlink in the host's namespace");
	if (!link_present(ns->sk, h->ifname)) {
		e = move_link(ns->home, h->ifname, ns->ns_fd);
		if (e)
			FAIL("cannot move %s into its namespace: %s", h->ifname, nl_geterror(e));
		ns->moved = true;
	}
	snprintf(path, sizeof(path), "/proc/sys/net/ipv6/conf/%s/disable_ipv6", h->ifname);
	write_sysctl(path, "1");	/* best effort: IPv6 may be absent */
	e = link_up(ns->sk, h->ifname, &ifindex);
	if (!e)
		e = set_pfifo(ns->sk, ifindex, cfg->qdisc_limit);
	if (e)
		FAIL("cannot set up %s: %s", h->ifname, nl_geterror(e));
	if (!find_addr(ns->sk, ifindex, &h->addr)) {
		if (cfg->netns_prefix)
			FAIL("%s in %s%u has no IPv4 address", h->ifname, cfg->netns_prefix, h->leaf);
		h->addr = leaf_addr(h->leaf);
		e = add_addr(ns->sk, ifindex, h->addr);
		if (e)
			FAIL("cannot address %s: %s", h->ifname, nl_geterror(e));
	}
	return ns;
fail:
	ftt_host_leave(ns);
	return NULL;
}

int ftt_host_neighbours(struct ftt_host_ns *ns, const struct ftt_host *h,
			const struct ftt_host *all, uint32_t n, char *err, size_t errlen)
{
	int ifindex = (int)if_nametoindex(h->ifname);
	uint32_t i;

	for (i = 0; i < n; i++) {
		struct rtnl_neigh *nb;
		struct nl_addr *ip, *ll;
		int e = -NLE_NOMEM;

		if (&all[i] == h)
			continue;
		nb = rtnl_neigh_alloc();
		ip = nl_addr_build(AF_INET, &all[i].addr, sizeof(all[i].addr));
		ll = nl_addr_build(AF_LLC, all[i].mac, sizeof(all[i].mac));
		if (nb && ip && ll) {
			rtnl_neigh_set_ifindex(nb, ifindex);
			rtnl_neigh_set_dst(nb, ip);
			rtnl_neigh_set_lladdr(nb, ll);
			rtnl_neigh_set_state(nb, NUD_PERMANENT);
			e = rtnl_neigh_add(ns->sk, nb, NLM_F_CREATE | NLM_F_REPLACE);
		}
		nl_addr_put(ll);
		nl_addr_put(ip);
		rtnl_neigh_put(nb);
		if (e) {
			snprintf(err, errlen, "neighbour entry for leaf %u: %s", all[i].leaf,
				 nl_geterror(e));
			return -1;
		}
	}
	return 0;
}

void ftt_host_leave(struct ftt_host_ns *ns)
{
	if (!ns)
		return;
	if (ns->moved && ns->sk)
		move_link(ns->sk, ns->ifname, ns->home_fd);
	if (ns->sk)
		nl_socket_free(ns->sk);
	if (ns->home)
		nl_socket_free(ns->home);
	if (ns->ns_fd >= 0)
		close(ns->ns_fd);
	if (ns->home_fd >= 0)
		close(ns->home_fd);
	free(ns);
}

int ftt_host_mac(const char *ifname, uint8_t mac[6])
{
	struct nl_sock *sk = rtnl_open();
	struct rtnl_link *link = NULL;
	struct nl_addr *a;
	int err = -1;

	if (sk && !rtnl_link_get_kernel(sk, 0, ifname, &link)) {
		a = rtnl_link_get_addr(link);
		if (a && nl_addr_get_len(a) == 6) {
			memcpy(mac, nl_addr_get_binary_addr(a), 6);
			err = 0;
		}
		rtnl_link_put(link);
	}
	if (sk)
		nl_socket_free(sk);
	return err;
}

bool ftt_host_present(const char *ifname)
{
	struct nl_sock *sk = rtnl_open();
	bool here = sk && link_present(sk, ifname);

	if (sk)
		nl_socket_free(sk);
	return here;
}

/* The baseline: a veth pair @a, @b in this namespace, for the same run. */
int ftt_veth_create(const char *a, const char *b, char *err, size_t errlen)
{
	struct nl_sock *sk = rtnl_open();
	int e = sk ? rtnl_link_veth_add(sk, a, b, getpid()) : -NLE_NOMEM;

	if (e)
		snprintf(err, errlen, "cannot create the veth pair %s/%s: %s", a, b, nl_geterror(e));
	if (sk)
		nl_socket_free(sk);
	return e ? -1 : 0;
}

void ftt_veth_delete(const char *a)
{
	struct nl_sock *sk = rtnl_open();
	struct rtnl_link *link = rtnl_link_alloc();

	if (sk && link) {
		rtnl_link_set_name(link, a);
		rtnl_link_delete(sk, link);
	}
	rtnl_link_put(link);
	if (sk)
		nl_socket_free(sk);
}

/* What @ifname dropped so far, both ways (in the caller's namespace). */
int ftt_host_dev_drops(struct nl_sock **sk, const char *ifname, uint64_t *drops)
{
	struct rtnl_link *link;

	if (!*sk)
		*sk = rtnl_open();
	if (!*sk || rtnl_link_get_kernel(*sk, 0, ifname, &link))
		return -1;
	*drops = rtnl_link_get_stat(link, RTNL_LINK_RX_DROPPED) +
		 rtnl_link_get_stat(link, RTNL_LINK_TX_DROPPED);
	rtnl_link_put(link);
	return 0;
}
