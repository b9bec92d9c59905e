// SPDX-License-Identifier: GPL-2.0
/*
 * fattree: leaf link devices, one Ethernet net_device per leaf.
 *
 * A leaf named <fabric>-l<index> has the MAC 02:ii:ii:ll:ll:ll (fabric id,
 * leaf index), so a destination MAC names a leaf without a table. Unicast
 * frames queue per (source, destination) pair until a delivery cycle
 * carries them, or enter a store-and-forward fabric's engine (saf.c).
 * The fabric may hold a packet for as long as it does not move, so what
 * it holds is the leaf's own and tied to no namespace: orphaned, scrubbed
 * of its route and conntrack entry, a clone when the caller shares it
 * (pktgen). A leaf holding its backlog bound (or finding a
 * store-and-forward pool full) stops its transmit queue until a cycle
 * frees room; what then waits in the qdisc stays charged to its sockets,
 * so a sender still feels the fabric. Broadcast, multicast
 * and neighbour resolution (ARP and IPv6 neighbour discovery, unicast
 * replies included) travel in a control class outside lanes and cycles,
 * so neighbours resolve on every fabric, a manual or scheduled one too;
 * a budget per fabric bounds what it may hold (ft_leaf_control_take()).
 * Every leaf's receive queue is bounded too (FT_RXQ_MAX).
 *
 * A leaf may be a bridge port (or carry a macvlan): frames it sends from
 * a MAC that names no leaf teach the fabric that this station lives behind
 * it, as a bridge learns (ft_fdb_learn()), and unicast to that MAC from
 * any other leaf goes to it through the lanes like any message.
 *
 * A leaf moved into another namespace returns to its fabric's namespace
 * when that namespace goes away (ft_leaves_send_home()), whatever it has
 * queued (the packets it queued do not keep the namespace alive); it
 * leaves with its fabric.
 * Netpoll (netconsole) transmits through a work item (ft_leaf_netpoll_xmit).
 */
#include <linux/etherdevice.h>
#include <linux/ethtool.h>
#include <linux/icmpv6.h>
#include <linux/if_arp.h>
#include <linux/if_vlan.h>
#include <linux/ipv6.h>
#include <linux/jhash.h>
#include <linux/netpoll.h>
#include <linux/rtnetlink.h>
#include <net/ndisc.h>
#include <net/sch_generic.h>

#include "compat.h"
#include "fattree.h"
#include "trace.h"

#define FT_MAC_PREFIX	0x02	/* locally administered, unicast */

struct ft_leaf *ft_leaf_of(struct net_device *dev)
{
	return netdev_priv(dev);
}

static void ft_leaf_mac(const struct ft_fab *fab, u32 index, u8 *mac)
{
	mac[0] = FT_MAC_PREFIX;
	mac[1] = fab->id >> 8;
	mac[2] = fab->id & 0xff;
	mac[3] = index >> 16;
	mac[4] = index >> 8;
	mac[5] = index;
}

/* The leaf a destination MAC names, or -1. */
static s64 ft_leaf_by_mac(const struct ft_fab *fab, const u8 *mac)
{
	u32 index;

	if (mac[0] != FT_MAC_PREFIX || mac[1] != (fab->id >> 8) ||
	    mac[2] != (fab->id & 0xff))
		return -1;
	index = (u32)mac[3] << 16 | (u32)mac[4] << 8 | mac[5];
	return index < fab->n ? index : -1;
}

/*
 * Stations behind leaves, and leaves that changed their address. A leaf
 * bridged to a NIC sends its LAN's frames with their own source MACs, and
 * the replies come back addressed to them: the fabric learns each such
 * MAC from the leaf that sent it, as a bridge learns a port's stations
 * (br_fdb_update()), and routes unicast to it there. A leaf given another
 * address (ip link set ... address, a bond's or a team's slave) is one
 * more such station, its own: it is learned when set (if no other leaf
 * has that address) and from every frame the leaf sends from it, and,
 * as a bridge's local entry, it does not age. An address that names a
 * leaf (02:ii:ii:ll:ll:ll) routes to that leaf without a look-up, until
 * another leaf that has it as its own address sends from it: an
 * active-backup bond's slaves share the first slave's address, and after
 * a failover the new active slave's gratuitous ARP moves it, as it does
 * on a switch (fdb_named counts such entries; the owner sending from its
 * own address again takes it back). A frame that only claims an address
 * another leaf has (a raw socket's, a LAN's from another host) moves
 * nothing.
 *
 * The table is fixed per fabric (FT_FDB_SETS sets of FT_FDB_WAYS, salted
 * hash, no allocation on the data path): a new station takes a free or
 * expired entry of its set, else the one heard from least recently (a
 * leaf's own address only when its whole set is such), so a flood of
 * source MACs costs at most re-learning. A station heard from another
 * leaf moves there; one silent for FT_FDB_AGE no longer routes; a leaf
 * going down forgets its stations, as a bridge port does.
 *
 * Every bridged frame looks its source up and most of them its
 * destination too, from every CPU that transmits: as in the bridge, both
 * read without the lock (a seqcount retries a read that a change
 * overlapped), a station heard again from the same leaf only refreshes
 * its time, and the lock is taken to add, move or forget one. As in the
 * bridge, a station heard from two leaves at once may stay with the one
 * that moved it, though the other spoke last; its next frame there
 * moves it back.
 */
static struct ft_fdb_entry *ft_fdb_set(const struct ft_fab *fab, const u8 *mac)
{
	u32 h = jhash(mac, ETH_ALEN, fab->fdb_salt) & (FT_FDB_SETS - 1);

	return &fab->fdb[h * FT_FDB_WAYS];
}

static bool ft_fdb_live(const struct ft_fdb_entry *e, unsigned long now)
{
	return e->used &&
	       (e->local || time_before(now, READ_ONCE(e->seen) + FT_FDB_AGE));
}

/* The live entry of @mac in @set and its leaf (*@leaf), or NULL; lockless. */
static struct ft_fdb_entry *ft_fdb_find(struct ft_fab *fab,
					struct ft_fdb_entry *set,
					const u8 *mac, unsigned long now,
					u32 *leaf, bool *local)
{
	struct ft_fdb_entry *e, *found;
	unsigned int seq;

	do {
		seq = read_seqcount_begin(&fab->fdb_seq);
		found = NULL;
		for (e = set; e < set + FT_FDB_WAYS; e++) {
			if (ft_fdb_live(e, now) &&
			    ether_addr_equal(e->mac, mac)) {
				found = e;
				*leaf = e->leaf;
				*local = e->local;
				break;
			}
		}
	} while (read_seqcount_retry(&fab->fdb_seq, seq));
	return found;
}

/* Empty entry @e; under fdb_lock, inside fdb_seq. */
static void ft_fdb_clear(struct ft_fab *fab, struct ft_fdb_entry *e)
{
	if (e->used && e->named)
		WRITE_ONCE(fab->fdb_named, fab->fdb_named - 1);
	e->used = false;
	e->local = false;
	e->named = false;
}

/*
 * Which entry of @set @mac takes: its own, else a free or expired one,
 * else the one heard from least recently, a leaf's own address last.
 * Under fdb_lock.
 */
static struct ft_fdb_entry *ft_fdb_victim(struct ft_fdb_entry *set,
					  const u8 *mac, unsigned long now)
{
	struct ft_fdb_entry *e, *victim = NULL;

	for (e = set; e < set + FT_FDB_WAYS; e++) {
		if (e->used && ether_addr_equal(e->mac, mac))
			return e;
		if (!victim || (ft_fdb_live(victim, now) &&
				(!ft_fdb_live(e, now) ||
				 victim->local > e->local ||
				 (victim->local == e->local &&
				  time_before(READ_ONCE(e->seen),
					      READ_ONCE(victim->seen))))))
			victim = e;
	}
	return victim;
}

/*
 * @leaf sent a frame from @mac (or took it as its address: @local, its
 * own), a unicast MAC that names no leaf or names another one (@named).
 */
static void ft_fdb_learn(struct ft_leaf *leaf, const u8 *mac, bool local,
			 bool named)
{
	struct ft_fab *fab = leaf->fab;
	struct ft_fdb_entry *set = ft_fdb_set(fab, mac), *e;
	unsigned long now = jiffies;
	bool was_local;
	u32 at;

	/*
	 * Heard again from where it is: a refresh, as br_fdb_update(). The
	 * entry may have been reused since it was found: the store then only
	 * stamps a just-written entry with about the same time, or an unused
	 * one, and never changes its MAC, use or leaf.
	 */
	e = ft_fdb_find(fab, set, mac, now, &at, &was_local);
	if (likely(e && at == leaf->index && was_local == local)) {
		if (READ_ONCE(e->seen) != now)
			WRITE_ONCE(e->seen, now);
		return;
	}
	/* The scan only reads (under the lock): readers wait for the stores. */
	spin_lock_bh(&fab->fdb_lock);
	e = ft_fdb_victim(set, mac, now);
	/*
	 * Another leaf's own address is not taken by a frame from a station
	 * that merely uses it, as a bridge ignores frames from its local
	 * entries' addresses (br_fdb_update()).
	 */
	if (e->used && e->local && e->leaf != leaf->index && !local &&
	    ether_addr_equal(e->mac, mac)) {
		spin_unlock_bh(&fab->fdb_lock);
		return;
	}
	write_seqcount_begin(&fab->fdb_seq);
	ft_fdb_clear(fab, e);
	ether_addr_copy(e->mac, mac);
	e->used = true;
	e->local = local;
	e->named = named;
	e->leaf = leaf->index;
	WRITE_ONCE(e->seen, now);
	if (named)
		WRITE_ONCE(fab->fdb_named, fab->fdb_named + 1);
	write_seqcount_end(&fab->fdb_seq);
	spin_unlock_bh(&fab->fdb_lock);
}

/* The leaf a station was learned behind, or -1. */
static s64 ft_fdb_lookup(struct ft_fab *fab, const u8 *mac)
{
	bool local;
	u32 leaf;

	if (!ft_fdb_find(fab, ft_fdb_set(fab, mac), mac, jiffies, &leaf,
			 &local))
		return -1;
	return leaf;
}

/*
 * Forget @mac's entry if it is @leaf's (@mine), or another leaf's (!@mine).
 * Any context.
 */
static void ft_fdb_forget(struct ft_leaf *leaf, const u8 *mac, bool mine)
{
	struct ft_fab *fab = leaf->fab;
	struct ft_fdb_entry *set = ft_fdb_set(fab, mac), *e;

	spin_lock_bh(&fab->fdb_lock);
	for (e = set; e < set + FT_FDB_WAYS; e++) {
		bool here = e->leaf == leaf->index;

		if (!e->used || !ether_addr_equal(e->mac, mac) || here != mine)
			continue;
		write_seqcount_begin(&fab->fdb_seq);
		ft_fdb_clear(fab, e);
		write_seqcount_end(&fab->fdb_seq);
	}
	spin_unlock_bh(&fab->fdb_lock);
}

/* @leaf went down: the stations behind it are no longer reachable. */
static void ft_fdb_flush(struct ft_leaf *leaf)
{
	struct ft_fab *fab = leaf->fab;
	u32 i;

	/* Readers wait for the whole table's scan: only ndo_stop gets here. */
	spin_lock_bh(&fab->fdb_lock);
	write_seqcount_begin(&fab->fdb_seq);
	for (i = 0; i < FT_FDB_SETS * FT_FDB_WAYS; i++)
		if (fab->fdb[i].used && fab->fdb[i].leaf == leaf->index)
			ft_fdb_clear(fab, &fab->fdb[i]);
	write_seqcount_end(&fab->fdb_seq);
	spin_unlock_bh(&fab->fdb_lock);
}

/* Does @leaf have the address its index names (its MAC at creation)? */
static bool ft_leaf_has_own_mac(const struct ft_leaf *leaf)
{
	return ft_leaf_by_mac(leaf->fab, leaf->dev->dev_addr) == leaf->index;
}

/*
 * @leaf is up with another address than its own: take it in the table,
 * unless another leaf has it (its own, or one learned there): that one
 * keeps it until @leaf sends from it. Process context, rtnl held.
 */
static void ft_fdb_claim(struct ft_leaf *leaf)
{
	struct ft_fab *fab = leaf->fab;
	const u8 *mac = leaf->dev->dev_addr;
	s64 named = ft_leaf_by_mac(fab, mac), at;
	struct ft_leaf *owner;

	if (named == leaf->index || !is_valid_ether_addr(mac))
		return;
	if (named >= 0) {
		owner = fab->leaf[named];
		if (owner && ft_leaf_has_own_mac(owner))
			return;
	}
	at = ft_fdb_lookup(fab, mac);
	if (at >= 0 && at != leaf->index)
		return;
	ft_fdb_learn(leaf, mac, true, named >= 0);
}

/*
 * Learn from the source of a frame @leaf sends: a station behind it, its
 * own changed address, another leaf's address it took over, or its own
 * address taken back. The usual frame, from a leaf's own address with
 * no address moved anywhere, costs two comparisons.
 */
static void ft_fdb_heard(struct ft_leaf *leaf, const u8 *mac)
{
	struct ft_fab *fab = leaf->fab;
	s64 named = ft_leaf_by_mac(fab, mac);
	bool local;

	if (likely(named == leaf->index)) {
		/* Its own address: taken back from a leaf that sent from it. */
		if (unlikely(READ_ONCE(fab->fdb_named)) &&
		    ft_fdb_lookup(fab, mac) >= 0)
			ft_fdb_forget(leaf, mac, false);
		return;
	}
	if (!is_valid_ether_addr(mac))
		return;
	local = ether_addr_equal(mac, leaf->dev->dev_addr);
	/*
	 * Another leaf's address moves only with a leaf that has it as its
	 * own (a bond's slave), not with any frame that claims it (a
	 * container's raw socket, a LAN bridged in from another host whose
	 * fabric ids are the same).
	 */
	if (named >= 0 && !local)
		return;
	ft_fdb_learn(leaf, mac, local, named >= 0);
}

/*
 * The leaf a unicast frame from @leaf goes to: the one its MAC names
 * (unless another leaf took that address), or the one its station was
 * learned behind; -1 for none, and for a station behind @leaf itself (a
 * bridge flooding an unknown destination back: a switch filters that
 * frame too).
 */
static s64 ft_leaf_route(struct ft_leaf *leaf, const u8 *dmac)
{
	s64 named = ft_leaf_by_mac(leaf->fab, dmac), dst;

	if (likely(named >= 0 && !READ_ONCE(leaf->fab->fdb_named)))
		return named;
	dst = ft_fdb_lookup(leaf->fab, dmac);
	if (dst < 0)
		return named;
	return dst == leaf->index && named != dst ? -1 : dst;
}

/* Has the leaf room for another packet? Under the fabric's lock. */
static bool ft_leaf_has_room(const struct ft_leaf *leaf)
{
	return leaf->backlog < leaf->fab->backlog_max && !leaf->pool_wait;
}

/*
 * A cycle freed room: restart a leaf that is up (ft_leaf_open() decides
 * for one that is not yet). Under the fabric's lock.
 */
void ft_leaf_wake(struct ft_leaf *leaf)
{
	if (ft_leaf_has_room(leaf) && netif_running(leaf->dev) &&
	    netif_queue_stopped(leaf->dev))
		netif_wake_queue(leaf->dev);
}

/*
 * Count @n packets @leaf dropped for @cause, from any context, with or
 * without the fabric's lock: a receive queue that overflows while the
 * cycle delivers must not wait for the cycle's lock to count it.
 */
void ft_leaf_drop(struct ft_leaf *leaf, enum ft_drop_cause cause, u32 n)
{
	atomic64_add(n, &leaf->st.drop[cause]);
	trace_fattree_drop(leaf->fab, leaf->index, cause, n);
}

u64 ft_leaf_drops(const struct ft_leaf *leaf, enum ft_drop_cause cause)
{
	return atomic64_read(&leaf->st.drop[cause]);
}

/* A control-class frame left the receive queues: its room is free. */
static void ft_leaf_control_put(struct ft_fab *fab, struct sk_buff *skb)
{
	if (ft_skb_cb(skb)->control)
		atomic_dec(&fab->control_held);
}

/*
 * A cycle brings a leaf at most w_1 x lanes over its level-1 links and as
 * many from itself (ft_leaf_rx_mark()). The queue holds FT_RXQ_MAX frames,
 * and always room for one cycle's arrivals above the mark: on a fabric of
 * many lanes a cycle may bring more than FT_RXQ_MAX / 2, and the fabric
 * must not drop what it carried. The backlog bound of every sender still
 * bounds what the queues hold in all.
 */
static u32 ft_leaf_rx_max(const struct ft_fab *fab)
{
	const struct ft_topo *t = &fab->eng.topo;

	u64 room = (u64)ft_leaf_rx_mark(fab) + 2ULL * t->w[1] * t->lanes[1];

	return clamp_t(u64, room, FT_RXQ_MAX, U32_MAX);
}

/*
 * Queue a frame for @dst's receive path (any context, no fabric lock
 * held); ft_leaf_kick() then starts its poller. @control: the frame holds
 * a place in the fabric's control budget, given back when it leaves the
 * queue. A leaf that is down drops it, counted; so does a full queue (at
 * ft_leaf_rx_max(), as a NIC's ring or veth's backlog would): the poller runs in
 * softirq and may fall behind a fabric that delivers from process context.
 * The fabric holds a leaf's messages before that (ft_leaf_rx_check(), and
 * a store-and-forward fabric's wait list), so what fills the queue is
 * control frames or a cycle's arrivals beyond FT_RXQ_MAX / 2.
 * One queue and one NAPI poller per leaf keep the order in which the
 * fabric delivered, whichever CPU ran the cycle.
 */
void ft_leaf_deliver(struct ft_leaf *dst, struct sk_buff *skb, bool control)
{
	struct sk_buff_head *q = &dst->rxq;
	unsigned long flags;
	bool full;

	ft_skb_cb(skb)->control = control;
	if (!netif_running(dst->dev)) {
		ft_leaf_control_put(dst->fab, skb);
		kfree_skb(skb);
		ft_leaf_drop(dst, FT_DROP_DOWN, 1);
		return;
	}
	/*
	 * Scrubs the skb for its new device, without the MTU check of
	 * __dev_forward_skb(): the fabric took the frame under the MTU it
	 * had then (ft_leaf_fits()) and does not lose it now. It refuses
	 * only a frame whose pages it cannot copy, counted in the core's
	 * rx_dropped, and frees it.
	 */
	if (____dev_forward_skb(dst->dev, skb, false)) {
		if (control)
			atomic_dec(&dst->fab->control_held);
		return;
	}
	skb->protocol = eth_type_trans(skb, dst->dev);
	skb_postpull_rcsum(skb, eth_hdr(skb), ETH_HLEN);
	spin_lock_irqsave(&q->lock, flags);
	full = skb_queue_len(q) >= ft_leaf_rx_max(dst->fab);
	if (!full)
		__skb_queue_tail(q, skb);
	spin_unlock_irqrestore(&q->lock, flags);
	if (full) {
		ft_leaf_control_put(dst->fab, skb);
		kfree_skb(skb);
		ft_leaf_drop(dst, FT_DROP_RXFULL, 1);
	}
}

void ft_leaf_kick(struct ft_leaf *dst)
{
	if (skb_queue_empty_lockless(&dst->rxq))
		return;
	local_bh_disable();
	napi_schedule(&dst->napi);
	local_bh_enable();
}

/*
 * The receive queue's length at which the fabric holds a leaf's messages
 * (ft_pairs_hold()): room is left for one cycle's arrivals, FT_RXQ_MAX / 2
 * at most, so that a poller that falls behind holds the senders back, as
 * a lossless interconnect's credits would, rather than dropping what the
 * fabric carried. A cycle brings a leaf at most w_1 x lanes over its
 * level-1 links and as many from itself (a pair to itself crosses no
 * link). The hold ends once the poller has taken the queue down to half
 * the mark. A store-and-forward fabric fills the queue up to the mark
 * and keeps the rest waiting (saf.c): there the room above the mark is
 * for control frames, and hand-over goes on as soon as the queue is below
 * the mark again.
 */
u32 ft_leaf_rx_mark(const struct ft_fab *fab)
{
	const struct ft_topo *t = &fab->eng.topo;

	return FT_RXQ_MAX - (u32)min_t(u64, 2ULL * t->w[1] * t->lanes[1],
				       FT_RXQ_MAX / 2);
}

/* Hold or release @leaf's messages in the fabric. */
static void ft_leaf_rx_hold(struct ft_leaf *leaf, bool on)
{
	struct ft_fab *fab = leaf->fab;

	spin_lock_bh(&fab->lock);
	if (ft_pairs_hold(&fab->pairs, leaf->index, on)) {
		WRITE_ONCE(leaf->rx_held, on);
		if (on)
			leaf->st.rx_holds++;
	}
	spin_unlock_bh(&fab->lock);
}

/*
 * After the engine queued arrivals for @leaf (process context, no fabric
 * lock held): at the mark, hold its messages. The poller may have taken
 * the queue down meanwhile without seeing the hold (it reads rx_held with
 * no lock): the barrier pairs with the poller's, so one of the two sees
 * the other's change, and the hold ends at once if the queue is short.
 */
void ft_leaf_rx_check(struct ft_leaf *leaf)
{
	struct ft_fab *fab = leaf->fab;

	if (READ_ONCE(leaf->rx_held) ||
	    skb_queue_len_lockless(&leaf->rxq) < ft_leaf_rx_mark(fab))
		return;
	ft_leaf_rx_hold(leaf, true);
	smp_mb();	/* the hold, then the length: see ft_leaf_poll() */
	if (skb_queue_len_lockless(&leaf->rxq) <= ft_leaf_rx_mark(fab) / 2)
		ft_leaf_rx_hold(leaf, false);
}

static int ft_leaf_poll(struct napi_struct *napi, int budget)
{
	struct ft_leaf *leaf = container_of(napi, struct ft_leaf, napi);
	struct sk_buff *skb;
	int done = 0;

	while (done < budget && (skb = skb_dequeue(&leaf->rxq))) {
		ft_leaf_control_put(leaf->fab, skb);
		netif_receive_skb(skb);
		done++;
	}
	/*
	 * Only after taking some: netpoll polls with budget 0, maybe with
	 * interrupts off, where the fabric's lock may not be taken.
	 */
	if (done) {
		smp_mb();	/* the dequeues, then the hold: see rx_check */
		if (READ_ONCE(leaf->rx_held) &&
		    skb_queue_len_lockless(&leaf->rxq) <=
		    ft_leaf_rx_mark(leaf->fab) / 2)
			ft_leaf_rx_hold(leaf, false);
	}
	if (done < budget && napi_complete_done(napi, done) &&
	    !skb_queue_empty_lockless(&leaf->rxq))
		napi_schedule(napi);
	return done;
}

/* Frames that arrived for a leaf that is no longer up. */
static void ft_leaf_purge_rx(struct ft_leaf *leaf)
{
	struct sk_buff *skb;
	u32 n = 0;

	while ((skb = skb_dequeue(&leaf->rxq))) {
		ft_leaf_control_put(leaf->fab, skb);
		kfree_skb(skb);
		n++;
	}
	if (n)
		ft_leaf_drop(leaf, FT_DROP_DOWN, n);
}

/*
 * Neighbour resolution: ARP, or ICMPv6 router/neighbour discovery, also
 * under one or two VLAN tags (a VLAN device on a leaf, or tagged frames
 * a bridge passes on). The leaf offers no VLAN transmit offload, so the
 * core has put any tag inside the frame before transmit.
 */
static bool ft_leaf_is_resolution(struct sk_buff *skb)
{
	const struct ethhdr *eth = (const struct ethhdr *)skb->data;
	const struct ipv6hdr *ip6;
	const struct icmp6hdr *icmp6;
	unsigned int off = ETH_HLEN;
	__be16 proto = eth->h_proto;
	int tags;

	for (tags = 0; tags < 2 && eth_type_vlan(proto); tags++) {
		const struct vlan_hdr *vh;

		if (!pskb_may_pull(skb, off + VLAN_HLEN))
			return false;
		vh = (const struct vlan_hdr *)(skb->data + off);
		proto = vh->h_vlan_encapsulated_proto;
		off += VLAN_HLEN;
	}
	if (proto == htons(ETH_P_ARP))
		return true;
	if (proto != htons(ETH_P_IPV6) ||
	    !pskb_may_pull(skb, off + sizeof(*ip6) + sizeof(*icmp6)))
		return false;
	ip6 = (const struct ipv6hdr *)(skb->data + off);
	if (ip6->nexthdr != IPPROTO_ICMPV6)
		return false;
	icmp6 = (const struct icmp6hdr *)(skb->data + off + sizeof(*ip6));
	return icmp6->icmp6_type >= NDISC_ROUTER_SOLICITATION &&
	       icmp6->icmp6_type <= NDISC_REDIRECT;
}

/*
 * Does @skb fit @dev's MTU, as is_skb_forwardable() counts (room for a
 * VLAN tag)? Leaves may have different MTUs: a frame is checked against
 * its destination's when the fabric takes it, as veth does, and refused
 * there, counted once at its source (drop_mtu). A frame already taken
 * is delivered even if the destination's MTU fell meanwhile.
 */
static bool ft_leaf_fits(const struct net_device *dev,
			 const struct sk_buff *skb)
{
	return skb->len <= READ_ONCE(dev->mtu) + dev->hard_header_len +
			   VLAN_HLEN || skb_is_gso(skb);
}

/* A control-class frame arrives at @dst: counted as it is received. */
static void ft_leaf_control_count(struct ft_leaf *dst, const struct sk_buff *skb)
{
	struct ft_fab *fab = dst->fab;

	spin_lock(&fab->lock);
	dst->st.control_rx++;
	dst->st.bytes_delivered += skb->len;
	if (is_multicast_ether_addr(((const struct ethhdr *)skb->data)->h_dest))
		dst->st.multicast++;
	spin_unlock(&fab->lock);
}

/*
 * Take room for @want control-class frames in the fabric's budget, all or
 * none: the budget bounds what one broadcast (a frame for every other
 * leaf) and a flood of them can pin in receive queues, since the fabric
 * charges clones to no socket.
 */
static bool ft_leaf_control_take(struct ft_fab *fab, u32 want)
{
	if (atomic_add_return(want, &fab->control_held) <= fab->control_max)
		return true;
	atomic_sub(want, &fab->control_held);
	return false;
}

/*
 * Control class, now and outside the lanes: a unicast frame to its leaf,
 * a broadcast or multicast one to every other leaf that is up. A frame
 * the budget has no room for is dropped whole, counted at its source; a
 * leaf whose MTU the frame exceeds is skipped, counted at the source too
 * (drop_mtu), as a bridge skips such a port. Packets and bytes count at
 * both ends as for any message, broadcast and multicast frames also in
 * the receivers' multicast counter.
 */
static void ft_leaf_control(struct ft_leaf *src, struct sk_buff *skb, s64 to)
{
	struct ft_fab *fab = src->fab;
	u32 want = to >= 0 ? 1 : fab->n - 1;
	u32 i, used = 0, big = 0;

	if (!ft_leaf_control_take(fab, want)) {
		ft_leaf_drop(src, FT_DROP_CONTROL, 1);
		kfree_skb(skb);
		return;
	}
	spin_lock(&fab->lock);
	src->st.control_tx++;
	src->st.bytes_sent += skb->len;
	fab->st.control++;
	spin_unlock(&fab->lock);
	if (to >= 0) {
		struct ft_leaf *dst = READ_ONCE(fab->leaf[to]);

		if (dst) {
			ft_leaf_control_count(dst, skb);
			ft_leaf_deliver(dst, skb, true);
			ft_leaf_kick(dst);
		} else {
			atomic_dec(&fab->control_held);
			kfree_skb(skb);
		}
		return;
	}
	for (i = 0; i < fab->n; i++) {
		struct ft_leaf *dst = READ_ONCE(fab->leaf[i]);
		struct sk_buff *copy;

		/* A flood skips leaves that are not up: no loss, no count. */
		if (!dst || dst == src || !netif_running(dst->dev))
			continue;
		if (!ft_leaf_fits(dst->dev, skb)) {
			big++;
			continue;
		}
		copy = skb_clone(skb, GFP_ATOMIC);
		if (!copy)
			break;
		ft_leaf_control_count(dst, copy);
		used++;
		ft_leaf_deliver(dst, copy, true);
		ft_leaf_kick(dst);
	}
	if (big)
		ft_leaf_drop(src, FT_DROP_MTU, big);
	atomic_sub(want - used, &fab->control_held);
	consume_skb(skb);
}

/*
 * Netpoll (netconsole) transmits with interrupts off, maybe from a hard
 * interrupt: no fabric lock (taken with only bottom halves off, it may be
 * held by the code this CPU interrupted) and no bottom-half toggling may
 * happen there. The frame waits on the leaf's netpoll queue (its own
 * interrupt-safe lock) for a work item that sends it through the device's
 * ordinary path: qdisc, back-pressure and all. At most FT_NETPOLL_MAX
 * wait; past that a frame is dropped and counted (tx_dropped).
 */
#define FT_NETPOLL_MAX	1024

static netdev_tx_t ft_leaf_netpoll_xmit(struct ft_leaf *leaf,
					struct sk_buff *skb)
{
	if (skb_queue_len(&leaf->npq) >= FT_NETPOLL_MAX) {
		dev_core_stats_tx_dropped_inc(leaf->dev);
		dev_kfree_skb_any(skb);
		return NETDEV_TX_OK;
	}
	skb_queue_tail(&leaf->npq, skb);
	schedule_work(&leaf->npwork);
	return NETDEV_TX_OK;
}

static void ft_leaf_netpoll_work(struct work_struct *work)
{
	struct ft_leaf *leaf = container_of(work, struct ft_leaf, npwork);
	struct sk_buff *skb;

	while ((skb = skb_dequeue(&leaf->npq)))
		dev_queue_xmit(skb);
}

/*
 * Make @skb one the fabric may hold for as long as it waits, before the
 * fabric's lock is taken. Returns the skb to queue (@skb or a clone of
 * it), or NULL when it could not be made (nothing was changed then).
 *
 * - pktgen's clone_skb and burst hand the same skb again and again (the
 *   device keeps IFF_TX_SKB_SHARING from ether_setup()), before the
 *   fabric delivered the previous use: a shared skb is cloned, so every
 *   transmit queues its own sk_buff; the data is shared read-only, as
 *   the stack does for clones. The caller drops its reference to the
 *   original once the clone is taken (or frees the clone on a refusal).
 * - Its pages must stay as they were sent: zerocopy pages are copied
 *   (skb_orphan_frags_rx()). A packet socket's transmit ring (TX_RING)
 *   marks its skbs so, and its slot goes back to the sender when the skb
 *   is orphaned, long before the fabric delivers it.
 *
 * What ties it to its sender (ft_leaf_detach()) stays until the fabric
 * takes it: a frame refused for room goes back to the qdisc still
 * charged to its socket.
 */
static struct sk_buff *ft_leaf_own(struct sk_buff *skb)
{
	struct sk_buff *own = skb;

	if (skb_shared(skb)) {
		own = skb_clone(skb, GFP_ATOMIC);
		if (!own)
			return NULL;
	}
	if (unlikely(skb_orphan_frags_rx(own, GFP_ATOMIC))) {
		if (own != skb)
			kfree_skb(own);
		return NULL;
	}
	return own;
}

/*
 * The fabric takes @skb: its software transmit timestamp is taken now
 * (SO_TIMESTAMPING, as veth does at transmit), while it still has its
 * socket. Nothing it holds may keep a namespace alive (as tun, which
 * also holds packets for an unbounded time), so it is orphaned (the
 * sending socket no longer pays for it; the leaf's backlog bound and its
 * stopped queue, whose qdisc-held packets stay charged to their sockets,
 * carry the back-pressure), and its route, conntrack entry and
 * extensions are dropped (skb_scrub_packet()).
 */
void ft_leaf_detach(struct sk_buff *skb)
{
	skb_tx_timestamp(skb);
	skb_orphan(skb);
	skb_scrub_packet(skb, false);
}

/*
 * A leaf without a qdisc (tc qdisc ... noqueue, as container tools set on
 * virtual links): nothing can wait in front of it, and the core takes a
 * stopped queue or a busy answer there for a broken device ("Virtual
 * device ... asks to queue packet!", ENETDOWN to the sender). Such a leaf
 * never stops its queue; a frame that finds it full is dropped, counted
 * at the leaf (drop_busy), as veth drops what its peer has no room for.
 * In transmit, under rcu_read_lock_bh() or with bottom halves off.
 */
static bool ft_leaf_queueless(struct net_device *dev)
{
	struct netdev_queue *txq = netdev_get_tx_queue(dev, 0);

	return !rcu_dereference_bh(txq->qdisc)->enqueue;
}

static netdev_tx_t ft_leaf_xmit(struct sk_buff *orig, struct net_device *dev)
{
	struct ft_leaf *leaf = netdev_priv(dev);
	struct ft_fab *fab = leaf->fab;
	const struct ethhdr *eth;
	struct ft_leaf *to;
	struct sk_buff *skb;
	bool queueless;
	u32 slot;
	s64 dst;
	int err;

	if (unlikely(netpoll_tx_running(dev)))
		return ft_leaf_netpoll_xmit(leaf, orig);
	skb = ft_leaf_own(orig);
	if (unlikely(!skb)) {
		dev_core_stats_tx_dropped_inc(dev);
		kfree_skb(orig);
		return NETDEV_TX_OK;
	}
	if (skb->len < ETH_HLEN)
		goto drop_noroute;
	eth = (const struct ethhdr *)skb->data;
	/* A station behind this leaf (a bridge port's LAN, a macvlan), or
	 * an address it took.
	 */
	ft_fdb_heard(leaf, eth->h_source);
	if (is_multicast_ether_addr(eth->h_dest)) {
		ft_leaf_detach(skb);
		ft_leaf_control(leaf, skb, -1);
		goto taken;
	}
	dst = ft_leaf_route(leaf, eth->h_dest);
	if (dst < 0)
		goto drop_noroute;
	to = READ_ONCE(fab->leaf[dst]);
	if (unlikely(to && !ft_leaf_fits(to->dev, skb))) {
		ft_leaf_drop(leaf, FT_DROP_MTU, 1);
		kfree_skb(skb);
		goto taken;
	}
	if (ft_leaf_is_resolution(skb)) {
		ft_leaf_detach(skb);
		ft_leaf_control(leaf, skb, dst);
		goto taken;
	}

	queueless = ft_leaf_queueless(dev);
	spin_lock(&fab->lock);
	if (fab->dead) {
		err = -ENODEV;
	} else if (unlikely(leaf->backlog >= fab->backlog_max)) {
		/* Past a stopped queue (lockless transmit on two CPUs at
		 * once): the bound holds, the pair pool's size rests on it.
		 */
		if (!queueless)
			netif_stop_queue(dev);
		err = -ENOBUFS;
	} else if (fab->saf) {
		err = ft_fab_saf_xmit(fab, leaf, dst, skb, !queueless);
	} else {
		ft_engine_kick(fab);
		ft_leaf_detach(skb);
		err = ft_pairs_add(&fab->pairs, leaf->index, dst, FT_TAG_PACKET,
				   1, fab->eng.cycle, &slot);
	}
	if (unlikely(err == -ENOBUFS || (err == -ENOSPC && fab->saf))) {
		spin_unlock(&fab->lock);
		if (queueless) {
			ft_leaf_drop(leaf, FT_DROP_BUSY, 1);
			kfree_skb(skb);
			goto taken;
		}
		/* The leaf's backlog or the store-and-forward pool is full:
		 * the queue is stopped until a cycle or batch frees room, the
		 * qdisc keeps the skb (the caller's, still referenced when a
		 * clone was made), still charged to its socket.
		 */
		if (skb != orig)
			kfree_skb(skb);
		return NETDEV_TX_BUSY;
	}
	if (unlikely(err)) {
		/* A fabric going away; a full pair pool cannot happen (it is
		 * sized for every leaf's whole backlog) but is told apart.
		 */
		if (WARN_ON_ONCE(err == -ENOSPC))
			ft_leaf_drop(leaf, FT_DROP_NOPAIR, 1);
		else
			ft_leaf_drop(leaf, FT_DROP_TEARDOWN, 1);
		spin_unlock(&fab->lock);
		kfree_skb(skb);
		goto taken;
	}
	if (!fab->saf) {
		ft_skb_cb(skb)->cycle = fab->eng.cycle;
		__skb_queue_tail(&fab->slotq[slot], skb);
	}
	++leaf->backlog;
	trace_fattree_queue(fab, leaf->index, dst, leaf->backlog, skb->len);
	if (leaf->backlog >= fab->backlog_max && !queueless)
		netif_stop_queue(dev);
	spin_unlock(&fab->lock);
	goto taken;

drop_noroute:
	spin_lock(&fab->lock);
	ft_leaf_drop(leaf, FT_DROP_NOROUTE, 1);
	spin_unlock(&fab->lock);
	kfree_skb(skb);
taken:
	if (skb != orig)
		consume_skb(orig);
	return NETDEV_TX_OK;
}

static void ft_leaf_get_stats64(struct net_device *dev,
				struct rtnl_link_stats64 *s)
{
	struct ft_leaf *leaf = netdev_priv(dev);
	struct ft_fab *fab = leaf->fab;

	spin_lock_bh(&fab->lock);
	s->tx_packets = leaf->st.sent + leaf->st.control_tx;
	s->tx_bytes = leaf->st.bytes_sent;
	s->rx_packets = leaf->st.delivered + leaf->st.control_rx;
	s->rx_bytes = leaf->st.bytes_delivered;
	s->tx_dropped = ft_leaf_drops(leaf, FT_DROP_NOROUTE) +
			ft_leaf_drops(leaf, FT_DROP_TEARDOWN) +
			ft_leaf_drops(leaf, FT_DROP_NOPAIR) +
			ft_leaf_drops(leaf, FT_DROP_CONTROL) +
			ft_leaf_drops(leaf, FT_DROP_MTU) +
			ft_leaf_drops(leaf, FT_DROP_BUSY);
	s->multicast = leaf->st.multicast;
	s->rx_dropped = ft_leaf_drops(leaf, FT_DROP_DOWN) +
			ft_leaf_drops(leaf, FT_DROP_RXFULL);
	spin_unlock_bh(&fab->lock);
}

/*
 * Packets queued before the leaf went down still wait in the fabric and
 * count against its backlog. The queue starts in any case: the qdisc the
 * leaf will have is not attached yet (the core activates it after
 * ndo_open), and a leaf without one must never be stopped; a transmit
 * past the bound stops a leaf that has one (ft_leaf_xmit()).
 */
static int ft_leaf_open(struct net_device *dev)
{
	struct ft_leaf *leaf = netdev_priv(dev);

	ft_leaf_purge_rx(leaf);
	ft_leaf_rx_hold(leaf, false);	/* as ndo_stop left it, in any case */
	napi_enable(&leaf->napi);
	ft_fdb_claim(leaf);
	netif_carrier_on(dev);
	netif_start_queue(dev);
	return 0;
}

static int ft_leaf_stop(struct net_device *dev)
{
	struct ft_leaf *leaf = netdev_priv(dev);

	netif_stop_queue(dev);
	netif_carrier_off(dev);
	napi_disable(&leaf->napi);
	ft_leaf_purge_rx(leaf);
	/* Its messages go on, to be dropped as the leaf is down. */
	ft_leaf_rx_hold(leaf, false);
	ft_fdb_flush(leaf);
	return 0;
}

static void ft_leaf_uninit(struct net_device *dev)
{
	struct ft_leaf *leaf = netdev_priv(dev);

	netif_napi_del(&leaf->napi);
	ft_leaf_purge_rx(leaf);
	/* Netpoll is detached and no transmit runs any more. */
	cancel_work_sync(&leaf->npwork);
	skb_queue_purge(&leaf->npq);
}

/*
 * A new address (ip link set ... address, a bond or team taking its
 * slave): the old one, if the table had it here, no longer routes here;
 * the new one does, if no other leaf has it (ft_fdb_claim()).
 */
static int ft_leaf_set_mac(struct net_device *dev, void *p)
{
	struct ft_leaf *leaf = netdev_priv(dev);
	u8 old[ETH_ALEN];
	int err;

	ether_addr_copy(old, dev->dev_addr);
	err = eth_mac_addr(dev, p);
	if (err)
		return err;
	if (ether_addr_equal(old, dev->dev_addr))
		return 0;
	ft_fdb_forget(leaf, old, true);
	if (netif_running(dev))
		ft_fdb_claim(leaf);
	return 0;
}

static const struct net_device_ops ft_leaf_netdev_ops = {
	.ndo_open = ft_leaf_open,
	.ndo_stop = ft_leaf_stop,
	.ndo_uninit = ft_leaf_uninit,
	.ndo_start_xmit = ft_leaf_xmit,
	.ndo_get_stats64 = ft_leaf_get_stats64,
	.ndo_set_mac_address = ft_leaf_set_mac,
	.ndo_validate_addr = eth_validate_addr,
};

/* ethtool -S: the leaf's counters, then its latency histogram. */
static const char ft_leaf_stat_names[][ETH_GSTRING_LEN] = {
	"queued", "sent", "delivered", "blocked", "drop_noroute",
	"drop_down", "drop_teardown", "control_tx", "control_rx",
	"drop_nopair", "drop_rxfull", "drop_control", "rx_holds",
	"drop_mtu", "drop_busy", "multicast",
};

#define FT_LEAF_NSTATS	(ARRAY_SIZE(ft_leaf_stat_names) + FATTREE_LATENCY_BUCKETS)

static int ft_leaf_get_sset_count(struct net_device *dev, int sset)
{
	return sset == ETH_SS_STATS ? FT_LEAF_NSTATS : -EOPNOTSUPP;
}

static void ft_leaf_get_strings(struct net_device *dev, u32 sset, u8 *data)
{
	u32 i;

	if (sset != ETH_SS_STATS)
		return;
	memcpy(data, ft_leaf_stat_names, sizeof(ft_leaf_stat_names));
	data += sizeof(ft_leaf_stat_names);
	for (i = 0; i < FATTREE_LATENCY_BUCKETS; i++, data += ETH_GSTRING_LEN)
		snprintf(data, ETH_GSTRING_LEN, "latency_lt_2^%u_cycles", i);
}

static void ft_leaf_get_ethtool_stats(struct net_device *dev,
				      struct ethtool_stats *stats, u64 *data)
{
	struct ft_leaf *leaf = netdev_priv(dev);
	struct ft_fab *fab = leaf->fab;

	spin_lock_bh(&fab->lock);
	data[0] = leaf->backlog;
	data[1] = leaf->st.sent;
	data[2] = leaf->st.delivered;
	data[3] = leaf->st.blocked;
	data[4] = ft_leaf_drops(leaf, FT_DROP_NOROUTE);
	data[5] = ft_leaf_drops(leaf, FT_DROP_DOWN);
	data[6] = ft_leaf_drops(leaf, FT_DROP_TEARDOWN);
	data[7] = leaf->st.control_tx;
	data[8] = leaf->st.control_rx;
	data[9] = ft_leaf_drops(leaf, FT_DROP_NOPAIR);
	data[10] = ft_leaf_drops(leaf, FT_DROP_RXFULL);
	data[11] = ft_leaf_drops(leaf, FT_DROP_CONTROL);
	data[12] = leaf->st.rx_holds;
	data[13] = ft_leaf_drops(leaf, FT_DROP_MTU);
	data[14] = ft_leaf_drops(leaf, FT_DROP_BUSY);
	data[15] = leaf->st.multicast;
	memcpy(data + 16, leaf->st.latency, sizeof(leaf->st.latency));
	spin_unlock_bh(&fab->lock);
}

static void ft_leaf_get_drvinfo(struct net_device *dev,
				struct ethtool_drvinfo *info)
{
	struct ft_leaf *leaf = netdev_priv(dev);

	strscpy(info->driver, KBUILD_MODNAME, sizeof(info->driver));
	strscpy(info->version, FATTREE_VERSION, sizeof(info->version));
	snprintf(info->bus_info, sizeof(info->bus_info), "%s:%u",
		 leaf->fab->name, leaf->index);
}

static const struct ethtool_ops ft_leaf_ethtool_ops = {
	.get_drvinfo = ft_leaf_get_drvinfo,
	.get_link = ethtool_op_get_link,
	.get_sset_count = ft_leaf_get_sset_count,
	.get_strings = ft_leaf_get_strings,
	.get_ethtool_stats = ft_leaf_get_ethtool_stats,
};

static void ft_leaf_setup(struct net_device *dev)
{
	ether_setup(dev);
	dev->netdev_ops = &ft_leaf_netdev_ops;
	dev->ethtool_ops = &ft_leaf_ethtool_ops;
	dev->needs_free_netdev = true;
	/* One frame is one message: no segmentation offloads (the core
	 * segments what a bridge passes on from a NIC's GRO). No VLAN
	 * offload either: tags stay inside the frame, where the control
	 * class sees through them. A VLAN device on a leaf keeps its
	 * checksum and scatter-gather, as one on a veth does.
	 */
	dev->features |= NETIF_F_HW_CSUM | NETIF_F_SG | NETIF_F_HIGHDMA;
	dev->vlan_features = dev->features;
	/* Transmit takes the fabric's lock, not the queue's. */
	ft_compat_set_lltx(dev);
	dev->hw_features = 0;
	/* An address may change while up, as veth's (ft_leaf_set_mac()). */
	dev->priv_flags |= IFF_LIVE_ADDR_CHANGE;
	dev->min_mtu = ETH_MIN_MTU;
	dev->max_mtu = 9000;
}

/*
 * Leaves registered per hold of rtnl. A 4,096-leaf fabric takes seconds to
 * register under emulation and minutes under a debug kernel; holding rtnl
 * for all of it stalls every other rtnl user that long (addrconf's worker
 * tripped the hung-task detector). In batches of 16 an RTM_GETLINK waited
 * at most 58 ms under emulation, against 3.8 s for one hold.
 */
#define FT_LEAVES_PER_RTNL	16

static int ft_leaf_register(struct ft_fab *fab, u32 i)
{
	char name[IFNAMSIZ];
	u8 mac[ETH_ALEN];
	struct net_device *dev;
	struct ft_leaf *leaf;
	int err;

	ASSERT_RTNL();
	/* At most 7 + 2 + 5 characters (names and max_leaves are bounded);
	 * refuse rather than register a truncated name.
	 */
	if (snprintf(name, sizeof(name), "%s-l%u", fab->name, i) >=
	    (int)sizeof(name))
		return -ENAMETOOLONG;
	dev = alloc_netdev(sizeof(*leaf), name, NET_NAME_USER, ft_leaf_setup);
	if (!dev)
		return -ENOMEM;
	dev_net_set(dev, fab->net);
	dev->rtnl_link_ops = &ft_leaf_link_ops;
	leaf = netdev_priv(dev);
	leaf->fab = fab;
	leaf->dev = dev;
	leaf->index = i;
	skb_queue_head_init(&leaf->rxq);
	__skb_queue_head_init(&leaf->rx_wait);
	INIT_LIST_HEAD(&leaf->rx_wait_node);
	skb_queue_head_init(&leaf->npq);
	INIT_WORK(&leaf->npwork, ft_leaf_netpoll_work);
	netif_napi_add(dev, &leaf->napi, ft_leaf_poll);
	ft_leaf_mac(fab, i, mac);
	eth_hw_addr_set(dev, mac);
	/* Down until opened, as veth: operstate then goes up, not unknown. */
	netif_carrier_off(dev);
	err = register_netdevice(dev);
	if (err) {
		netif_napi_del(&leaf->napi);
		free_netdev(dev);
		return err;
	}
	fab->leaf[i] = leaf;
	return 0;
}

/*
 * Register the fabric's leaves, FT_LEAVES_PER_RTNL at a time. The fabric is
 * not yet published, so nothing steps it; a leaf brought up meanwhile may
 * queue packets (to leaves not yet there too: delivery waits for the
 * engine). On failure the leaves registered so far stay in fab->leaf[]:
 * the caller tears the fabric down as a deletion does, queued packets
 * included.
 */
int ft_leaves_create(struct ft_fab *fab)
{
	u32 i = 0;
	int err = 0;

	while (i < fab->n && !err) {
		u32 end = min_t(u32, fab->n, i + FT_LEAVES_PER_RTNL);

		rtnl_lock();
		for (; i < end && !err; i++)
			err = ft_leaf_register(fab, i);
		rtnl_unlock();
		cond_resched();
	}
	return err;
}

/* Queue the fabric's leaves on @kill; the caller holds rtnl. */
void ft_leaves_destroy(struct ft_fab *fab, struct list_head *kill)
{
	u32 i;

	ASSERT_RTNL();
	for (i = 0; i < fab->n; i++) {
		if (!fab->leaf[i])
			continue;
		unregister_netdevice_queue(fab->leaf[i]->dev, kill);
		WRITE_ONCE(fab->leaf[i], NULL);
	}
}

/*
 * @net is going away: send the leaves it holds home to their fabrics'
 * namespaces, rather than let the core push them to the initial namespace
 * as it does a physical device (it runs after this, from an older pernet
 * operation). A leaf whose fabric's namespace is dying too stays: that
 * namespace's exit deletes its fabric, leaves included, wherever they are.
 * FT_LEAVES_PER_RTNL leaves per hold of rtnl, as fabrics are created and
 * deleted: a namespace holding a few hundred leaves would otherwise hold
 * every other rtnl user for seconds. Nothing can enter a dying namespace,
 * so each hold scans again from the start what is left.
 */
void ft_leaves_send_home(struct net *net)
{
	struct net_device *dev, *tmp;
	u32 moved;

	/* Alive: the module is going, and its fabrics with it. */
	if (check_net(net))
		return;
	do {
		moved = 0;
		rtnl_lock();
		for_each_netdev_safe(net, dev, tmp) {
			struct net *home;

			if (dev->netdev_ops != &ft_leaf_netdev_ops)
				continue;
			home = ft_leaf_of(dev)->fab->net;
			if (net_eq(home, net) || !check_net(home))
				continue;
			/* A name taken meanwhile at home: the core's fallback. */
			if (dev_change_net_namespace(dev, home, "dev%d")) {
				netdev_warn(dev, "cannot return to its fabric's namespace\n");
				continue;
			}
			if (++moved == FT_LEAVES_PER_RTNL)
				break;
		}
		rtnl_unlock();
		cond_resched();
	} while (moved == FT_LEAVES_PER_RTNL);
}
