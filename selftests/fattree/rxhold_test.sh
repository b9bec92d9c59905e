#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# A receiver that falls behind holds its senders back (TAP).
# The receiving leaf's NAPI poller is made to fall behind on purpose: it
# runs threaded, pinned to CPU 1, where a SCHED_FIFO loop leaves it only
# what RT throttling gives back (50 ms a second); the sender, the
# receiver process and the fabric's cycle thread run on CPU 0. The
# fabric then fills the leaf's receive queue faster than the poller
# empties it. Rather than drop what it carried at the full queue
# (drop_rxfull, as a NIC's ring would), the fabric holds the leaf's
# messages at their sources once the queue reaches its mark, and the
# back-pressure reaches the blocking sender, on a delivery-cycle fabric
# and on a store-and-forward one:
#  - every one of udp_pair's datagrams arrives, in order, none dropped;
#  - the leaf counts holds (ethtool -S rx_holds) and no drop_rxfull;
#  - once the poller catches up the hold ends: nothing waits in the
#    fabric, and the leaf answers a ping;
#  - a store-and-forward fabric deleted while messages wait for the
#    receiver frees them.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/ft_lib.sh"
udp=$here/udp_pair
hog=
sender=

cleanup() {
	# timeout passes TERM on to the loop
	[ -n "$hog" ] && kill -TERM "$hog" 2>/dev/null
	[ -n "$sender" ] && kill "$sender" 2>/dev/null
	for ns in rha rhb; do ip netns del $ns 2>/dev/null; done
	"$ftctl" fabric del rh 2>/dev/null
}
trap cleanup EXIT

# RT throttling is what lets the starved poller run at all.
rt=$(cat /proc/sys/kernel/sched_rt_runtime_us 2> /dev/null)
if [ "$(nproc)" -lt 2 ] || ! command -v chrt > /dev/null || [ "${rt:--1}" -le 0 ]; then
	printf 'TAP version 13\n1..0 # SKIP needs two CPUs, chrt and RT throttling (sched_rt_runtime_us %s)\n' "$rt"
	exit 4
fi
tap_begin 13

# The fabric rh with its parameters "$@": the bench's data-path fabric,
# 256 lanes a link, so a cycle can bring a leaf 256 frames over its
# links and 256 from itself; it holds at 500. A store-and-forward fabric
# keeps what reaches a leaf whose queue is at that mark until the queue
# has room. Leaf 0 sends from rha, leaf 5 receives in rhb, its poller
# threaded on CPU 1 ($napi), the cycle thread ($cyc) on CPU 0.
setup() {
	"$ftctl" fabric add rh xgft 2 4,4 1,4 lanes 256,256 "$@"
	echo 1 > /sys/class/net/rh-l5/threaded
	napi=$(pgrep '^napi/rh-l5-')
	cyc=$(pgrep -x 'fattree/rh')
	for ns in rha rhb; do ip netns add $ns; done
	ip link set rh-l0 netns rha
	ip link set rh-l5 netns rhb
	ip -n rha addr add 10.9.0.1/24 dev rh-l0
	ip -n rhb addr add 10.9.0.2/24 dev rh-l5
	ip -n rha link set rh-l0 up
	ip -n rhb link set rh-l5 up
	# A FIFO, so that the back-pressure reaches the sender (fq_codel
	# would drop what waits long in front of a held fabric).
	tc -n rha qdisc replace dev rh-l0 root pfifo limit 10000
	# The sender's neighbour entry is fixed: its probes would otherwise
	# wait in the starved queue too, and a failed entry drops datagrams.
	ip -n rha neigh replace 10.9.0.2 lladdr "$(ip netns exec rhb cat /sys/class/net/rh-l5/address)" \
		dev rh-l0 nud permanent
	pinned=0
	# A stepped fabric has no cycle thread.
	taskset -p 2 "$napi" > /dev/null &&
		{ [ -z "$cyc" ] || taskset -p 1 "$cyc" > /dev/null; } && pinned=1
}

# CPU 1 taken by a SCHED_FIFO loop, which ends on its own should the
# script be killed.
hog_start() {
	timeout -s KILL $((600 * scale)) taskset -c 1 chrt -f 10 bash -c 'while :; do :; done' &
	hog=$!
}

hog_stop() {
	kill -TERM "$hog"
	wait "$hog" 2> /dev/null
	hog=
}

rx_stat() { ip netns exec rhb ethtool -S rh-l5 | awk -v k="$1:" '$1 == k { print $2 }'; }
# A store-and-forward fabric's messages waiting for their receivers.
waiting() { "$ftctl" fabric show rh | sed -n 's/.*  waiting \([0-9]*\).*/\1/p'; }

# One fabric of each kind in turn: $1 names it, the rest are its
# parameters.
starve() {
	local kind=$1 out lost holds full w
	shift
	setup "$@"
	check "$kind: the poller runs in its own thread ($napi) on CPU 1, the cycle thread ($cyc) on CPU 0" \
		'[ -n "$napi" ] && [ -n "$cyc" ] && [ $pinned = 1 ]'
	hog_start
	out=$(timeout $((300 * scale)) taskset -c 0 "$udp" rha rhb 10.9.0.2 20000 64)
	hog_stop
	lost=$(echo "$out" | awk '{ print $6 }')
	holds=$(rx_stat rx_holds)
	full=$(rx_stat drop_rxfull)
	check "$kind: a starved receiver: all 20000 datagrams arrive, in order (${out:-udp_pair did not finish})" \
		'[ "$lost" = 0 ] && echo "$out" | grep -q "received 20000 .*reordered 0 "' "$out"
	check "$kind: its leaf held the fabric ($holds times) and dropped nothing (drop_rxfull $full)" \
		'[ "${holds:-0}" -gt 0 ] && [ "$full" = 0 ]' "rx_holds $holds drop_rxfull $full"

	# The poller caught up once the loop stopped: the hold is over.
	check "$kind: the hold ended: a ping passes" \
		'ip netns exec rha ping -q -c 1 -W $((5 * scale)) 10.9.0.2 > /dev/null'
	if [ "$kind" != cycle ]; then
		w=$(waiting)
		check "$kind: nothing waits in the fabric (waiting $w)" '[ "$w" = 0 ]'
	fi
	cleanup
}

starve cycle period 100us
starve store-and-forward period 100us mode saf q 2

# Deleting a store-and-forward fabric while messages wait for a starved
# receiver frees them (kmemleak watches in the debug lane), and the
# sender blocked on the fabric gets on. Stepped, so that only the steps
# hand waiting messages over, and with room for 2,000 messages a source,
# so that one step can bring the receiver more than its queue's mark even
# on a slow kernel: they wait until the fabric goes.
setup period manual backlog 2000 mode saf q 2
hog_start
timeout $((300 * scale)) taskset -c 0 "$udp" rha rhb 10.9.0.2 20000 64 > /dev/null 2>&1 &
sender=$!
for _ in $(seq 60); do
	sleep 1
	"$ftctl" fabric step rh 20 > /dev/null
	[ "$(waiting)" -gt 500 ] 2> /dev/null && break
done
w=$(waiting)
check "store-and-forward, stepped: messages wait for the starved receiver (waiting $w)" \
	'[ "${w:-0}" -gt 500 ]'
# The poller free again, one cycle hands what the queue has room for
# (its mark, 500), and the rest waits.
hog_stop
sleep 1
d1=$(rx_stat delivered)
"$ftctl" fabric step rh 1 > /dev/null
d2=$(rx_stat delivered) w=$(waiting)
check "store-and-forward, stepped: the receiver drained, a cycle hands over no more than the mark, 500 (delivered $d1, then $d2; waiting $w)" \
	'[ "${d2:-0}" -gt "${d1:-0}" ] && [ $((d2 - d1)) -le 500 ] && [ "${w:-0}" -gt 0 ]'
check "store-and-forward: the fabric is deleted with messages waiting" \
	'"$ftctl" fabric del rh && ! "$ftctl" fabric show rh > /dev/null 2>&1'
kill "$sender" 2> /dev/null
wait "$sender" 2> /dev/null
sender=
check "store-and-forward: its leaves are gone from both namespaces" \
	'! ip -n rha link show rh-l0 > /dev/null 2>&1 && ! ip -n rhb link show rh-l5 > /dev/null 2>&1'
exit $((failed > 0))
