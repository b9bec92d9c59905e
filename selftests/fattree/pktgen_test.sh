#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Stock pktgen on leaves (TAP). pktgen's clone_skb hands the same skb to
# the leaf several times and burst hands it again before the fabric has
# delivered it: each must still be one packet of its own. On a timed
# fabric (clone_skb 4, then burst 8) and on a manual fabric stepped while
# pktgen waits on the leaf's stopped queue (clone_skb 4 with burst 8, ten
# times the backlog), pktgen ends having sent every packet without error,
# and the destination leaf counts every one delivered. The kernel log
# must stay clean (the runner checks it).
#
# pktgen's burst also sends with bottom halves off, so no receive poller
# runs until it ends: a burst of broadcasts shows what the control class
# may pin in receive queues. A 2-leaf fabric's receiving leaf holds at most
# 1000 frames (the rest counted drop_rxfull); on 256 leaves, a burst of 64
# broadcasts (16,320 clones) is cut to what the fabric's control budget of
# 4,096 frames holds, the rest refused whole and counted drop_control.
here=$(cd "$(dirname "$0")" && pwd)
ftctl=$here/ftctl
scale=${FT_TIMEOUT_SCALE:-1}
pg=/proc/net/pktgen
tmp=$(mktemp -d)
n=0 failed=0
t0=$(date +%s)

. "$here/ft_lib.sh"

# pgset FILE COMMAND: one pktgen command; pktgen answers in FILE's Result.
pgset() {
	echo "$2" > "$1" 2>>"$tmp/pg.err"
	[ "$1" = "$pg/pgctrl" ] || grep -q "Result: OK" "$1" ||
		echo "$1: $2: $(grep Result: "$1")" >> "$tmp/pg.err"
}
cleanup() {
	[ -w $pg/pgctrl ] && echo stop > $pg/pgctrl
	[ -w $pg/kpktgend_0 ] && echo rem_device_all > $pg/kpktgend_0
	for f in pgt pgm pgr pgb; do "$ftctl" fabric del $f 2>/dev/null; done
	rmmod pktgen 2>/dev/null
	rmmod fattree 2>/dev/null
	[ -n "$v6" ] && sysctl -qw net.ipv6.conf.default.disable_ipv6=$v6
	rm -rf "$tmp"
}
trap cleanup EXIT

echo "TAP version 13"
# (Built in, as in make check-debug's kernel, it needs no module.)
if [ ! -d /proc/net/pktgen ] && ! modprobe pktgen 2>"$tmp/modprobe.err"; then
	echo "1..0 # SKIP no pktgen module: $(cat "$tmp/modprobe.err")"
	exit 4
fi
[ -d /sys/module/fattree ] || insmod "$here/fattree.ko" || exit 1
echo "1..15"

# setup FABRIC COUNT CLONE BURST [DST_MAC]: pktgen on thread 0 sends COUNT
# packets from FABRIC's leaf 0 to its leaf 1 (or to DST_MAC).
setup() {
	local dev=$1-l0 mac=${5:-$(cat /sys/class/net/$1-l1/address)}
	pgset $pg/kpktgend_0 rem_device_all
	pgset $pg/kpktgend_0 "add_device $dev"
	pgset $pg/$dev "count $2"
	pgset $pg/$dev "clone_skb $3"
	pgset $pg/$dev "burst $4"
	pgset $pg/$dev "pkt_size 64"
	pgset $pg/$dev "delay 0"
	pgset $pg/$dev "dst 10.77.0.2"
	pgset $pg/$dev "dst_mac $mac"
}
# sofar FABRIC: the packets pktgen sent from FABRIC's leaf 0.
sofar() { sed -n 's/.*pkts-sofar: \([0-9]*\) .*/\1/p' $pg/$1-l0; }
# result FABRIC COUNT BURST: pktgen sent COUNT packets without error (a
# burst may overshoot COUNT by up to BURST - 1: pktgen checks between
# bursts).
result() {
	local sent
	sent=$(sofar $1)
	[ -n "$sent" ] && [ "$sent" -ge $2 ] && [ "$sent" -lt $(($2 + $3)) ] &&
		grep -q "errors: 0" $pg/$1-l0
}

# timed NAME CLONE BURST
timed() {
	local count=2000 burst=$3
	"$ftctl" fabric add pgt binary 4 period 100us backlog 64
	ip link set pgt-l0 up && ip link set pgt-l1 up
	setup pgt $count "$2" "$3"
	timeout $((300 * scale)) sh -c "echo start > $pg/pgctrl"
	local rc=$?
	check "timed fabric, $1: pktgen ends, $count packets sent without error ($(sofar pgt))" \
		'[ $rc = 0 ] && result pgt $count $burst && [ ! -s "$tmp/pg.err" ]' \
		"start: exit $rc; $(cat "$tmp/pg.err"; grep -A3 Result: $pg/pgt-l0)"
	local sent
	sent=$(sofar pgt)
	until_t $((60 * scale)) '[ "$(leaf_stat pgt 1 delivered)" = "$sent" ]'
	check "timed fabric, $1: the destination leaf counts every packet delivered" \
		'[ "$(leaf_stat pgt 1 delivered)" = "$sent" ] && [ "$(leaf_stat pgt 0 sent)" = "$sent" ]' \
		"$("$ftctl" leaf show pgt | head -3)"
	pgset $pg/kpktgend_0 rem_device_all
	"$ftctl" fabric del pgt
	check "timed fabric, $1: the fabric is deleted" '! ip link show pgt-l0 >/dev/null 2>&1'
	: > "$tmp/pg.err"
}

timed "clone_skb 4" 4 1
timed "burst 8" 0 8

# A manual fabric: pktgen fills the leaf's backlog (16), spins on its
# stopped queue, and goes on as the fabric is stepped.
count=160
"$ftctl" fabric add pgm binary 4 period manual backlog 16
ip link set pgm-l0 up && ip link set pgm-l1 up
setup pgm $count 4 8
(echo start > $pg/pgctrl) &
spid=$!
until_t $((60 * scale)) '[ "$(leaf_stat pgm 0 queued)" = 16 ]'
queued=$(leaf_stat pgm 0 queued)
check "manual fabric, clone_skb 4 and burst 8: pktgen fills the backlog and waits (queued $queued)" \
	'[ "$queued" = 16 ] && kill -0 $spid 2>/dev/null'
end=$(( $(date +%s) + 300 * scale ))
while kill -0 $spid 2>/dev/null && [ "$(date +%s)" -lt $end ]; do
	"$ftctl" fabric step pgm 64 >/dev/null
done
if kill -0 $spid 2>/dev/null; then
	echo stop > $pg/pgctrl
	rc=timeout
else
	wait $spid; rc=$?
fi
"$ftctl" fabric step pgm 64 >/dev/null
check "manual fabric, stepped: pktgen ends, $count packets sent without error" \
	'[ "$rc" = 0 ] && result pgm $count 8 && [ ! -s "$tmp/pg.err" ]' \
	"start: $rc; $(cat "$tmp/pg.err"; grep -A3 Result: $pg/pgm-l0)"
check "manual fabric: every packet delivered, nothing left queued" \
	'[ "$(leaf_stat pgm 1 delivered)" = "$(sofar pgm)" ] && [ "$(leaf_stat pgm 0 queued)" = 0 ]' \
	"$("$ftctl" leaf show pgm | head -3)"
pgset $pg/kpktgend_0 rem_device_all
"$ftctl" fabric del pgm
# flood FABRIC LEAVES BURST: a binary fabric of LEAVES leaves, all up;
# pktgen sends one burst of BURST broadcasts from leaf 0.
# Leaves come up without IPv6, whose neighbour discovery and MLD would
# flood the control class too.
flood() {
	local i
	sysctl -qw net.ipv6.conf.default.disable_ipv6=1
	"$ftctl" fabric add $1 binary $2 period manual
	sysctl -qw net.ipv6.conf.default.disable_ipv6=$v6
	for i in $(seq 0 $(($2 - 1))); do echo "link set $1-l$i up"; done |
		ip -batch -
	broadcast $1 $3
}
# broadcast FABRIC BURST: one burst of BURST broadcasts from leaf 0.
broadcast() {
	setup $1 $2 0 $2 ff:ff:ff:ff:ff:ff
	timeout $((300 * scale)) sh -c "echo start > $pg/pgctrl"
}
# rx_sum FABRIC STAT: a device statistic added over the fabric's leaves,
# in one read (ethtool per leaf takes minutes under emulation). With no
# unicast, rx_packets counts control_rx and rx_dropped drop_down plus
# drop_rxfull.
rx_sum() { cat /sys/class/net/$1-l*/statistics/$2 | awk '{ s += $1 } END { print s + 0 }'; }

v6=$(sysctl -n net.ipv6.conf.default.disable_ipv6)
flood pgr 2 1500
rx=$(eth_stat pgr-l1 control_rx) full=$(eth_stat pgr-l1 drop_rxfull)
check "1500 broadcasts in one burst to one leaf: it queues 1000, counts 500 drop_rxfull (control_rx $rx)" \
	'[ "$rx" = 1500 ] && [ "$full" = 500 ]' "control_rx $rx drop_rxfull $full"
check "... and counts them in rx_dropped" \
	'[ "$(cat /sys/class/net/pgr-l1/statistics/rx_dropped)" = 500 ]' \
	"rx_dropped $(cat /sys/class/net/pgr-l1/statistics/rx_dropped)"
pgset $pg/kpktgend_0 rem_device_all
"$ftctl" fabric del pgr

flood pgb 256 64
tx=$(eth_stat pgb-l0 control_tx) refused=$(eth_stat pgb-l0 drop_control)
rx=$(rx_sum pgb rx_packets)
check "64 broadcasts in one burst on 256 leaves: 16 pass (4096 frames), 48 refused (sent $tx, refused $refused)" \
	'[ "$tx" = 16 ] && [ "$refused" = 48 ]'
check "... and the leaves received 16 x 255 frames, none dropped (control_rx $rx)" \
	'[ "$rx" = $((16 * 255)) ] && [ "$(rx_sum pgb rx_dropped)" = 0 ]'
# Once the pollers ran, the budget is whole again: one more broadcast passes.
until_t $((30 * scale)) 'broadcast pgb 1; [ "$(eth_stat pgb-l0 control_tx)" -gt 16 ]'
check "... the budget is whole again once the leaves received them: a broadcast passes" \
	'[ "$(eth_stat pgb-l0 control_tx)" = 17 ]' \
	"control_tx $(eth_stat pgb-l0 control_tx) drop_control $(eth_stat pgb-l0 drop_control)"
pgset $pg/kpktgend_0 rem_device_all
"$ftctl" fabric del pgb
rmmod pktgen 2>/dev/null	# (not when built in)
check "pktgen and fattree unload" 'rmmod fattree'

echo "# $failed of $n failed"
[ $failed = 0 ]
