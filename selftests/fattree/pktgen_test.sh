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
	for f in pgt pgm; do "$ftctl" fabric del $f 2>/dev/null; done
	rmmod pktgen 2>/dev/null
	rmmod fattree 2>/dev/null
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
echo "1..10"

# setup FABRIC COUNT CLONE BURST: pktgen on thread 0 sends COUNT packets
# from FABRIC's leaf 0 to its leaf 1.
setup() {
	local dev=$1-l0
	pgset $pg/kpktgend_0 rem_device_all
	pgset $pg/kpktgend_0 "add_device $dev"
	pgset $pg/$dev "count $2"
	pgset $pg/$dev "clone_skb $3"
	pgset $pg/$dev "burst $4"
	pgset $pg/$dev "pkt_size 64"
	pgset $pg/$dev "delay 0"
	pgset $pg/$dev "dst 10.77.0.2"
	pgset $pg/$dev "dst_mac $(cat /sys/class/net/$1-l1/address)"
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
rmmod pktgen 2>/dev/null	# (not when built in)
check "pktgen and fattree unload" 'rmmod fattree'

echo "# $failed of $n failed"
[ $failed = 0 ]
