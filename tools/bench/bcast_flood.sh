#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# bcast_flood.sh KO LEAVES BURSTS: what a broadcast flood pins in the kernel.
# Run in the VM as root: loads the module KO, makes a manual fabric of
# LEAVES leaves (a power of two), all up and without IPv6, and has pktgen
# send BURSTS bursts of 64 broadcasts from leaf 0 (bottom halves off during
# a burst, so no receive poller drains meanwhile). Prints the sk_buff heads
# (skbuff_head_cache) and MemAvailable before, at their sampled peak and
# after, and leaf 0's control_tx and drop_control:
#   tools/vm/ft-vm -- tools/bench/bcast_flood.sh $PWD/kmod/fattree.ko 4096 10
set -u
ko=$1 leaves=$2 bursts=$3
top=$(cd "$(dirname "$0")/../.." && pwd)
ftctl=$top/build/bin/ftctl
pg=/proc/net/pktgen
insmod "$ko" || exit 1
modprobe pktgen 2>/dev/null
[ -d $pg ] || { echo "bcast_flood: no pktgen" >&2; exit 1; }
sysctl -qw net.ipv6.conf.default.disable_ipv6=1
"$ftctl" fabric add fl binary "$leaves" period manual || exit 1
for i in $(seq 0 $((leaves - 1))); do echo "link set fl-l$i up"; done | ip -batch -
sleep 2
echo "add_device fl-l0" > $pg/kpktgend_0
for c in "count $((bursts * 64))" "clone_skb 0" "burst 64" "pkt_size 64" "delay 0" \
	 "dst 10.77.0.2" "dst_mac ff:ff:ff:ff:ff:ff"; do
	echo "$c" > $pg/fl-l0
done
heads() { awk '$1 == "skbuff_head_cache" { print $2 }' /proc/slabinfo; }
avail() { awk '$1 == "MemAvailable:" { print $2 }' /proc/meminfo; }
h0=$(heads) a0=$(avail)
(echo start > $pg/pgctrl) &
pid=$!
hmax=$h0 amin=$a0
while kill -0 $pid 2>/dev/null; do
	h=$(heads) a=$(avail)
	[ "$h" -gt "$hmax" ] && hmax=$h
	[ "$a" -lt "$amin" ] && amin=$a
done
sleep 3
echo "sk_buff heads: before $h0, peak $hmax, after $(heads)"
echo "MemAvailable: before $a0 kB, lowest $amin kB (down $((a0 - amin)) kB), after $(avail) kB"
ethtool -S fl-l0 | grep -E "^ *(control_tx|drop_control):"
echo "rem_device_all" > $pg/kpktgend_0
"$ftctl" fabric del fl
