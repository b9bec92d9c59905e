#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# saf_hold.sh KO N...: how long a store-and-forward fabric keeps a reader
# of a leaf's stats waiting while it takes in N synthetic messages and
# starts their batch. Run in the VM as root (two CPUs): loads the module
# KO; for each N, a manual fabric of 256 leaves (kary 2 16, q 2) with a
# pool of N, an inject of N messages from leaf 0 to leaf 1, then one
# step. Prints, per N, the kernel's time for the inject and for the step
# (the request's sendmsg under strace -T: a generic netlink request runs
# inside it) and the longest wait of a stats read during each and during
# 5 s idle before, each with that of a control read beside it (the
# guest's own stalls); the reader (ft_lock.sh: a leaf's sysfs tx_packets
# every 5 ms, ndo_get_stats64 under the fabric's lock, and its mtu, read
# without it) runs on CPU 1, ftctl on CPU 0:
#   tools/vm/ft-vm -- tools/bench/saf_hold.sh $PWD/kmod/fattree.ko 1048576 8388608
set -u
ko=$1
shift
top=$(cd "$(dirname "$0")/../.." && pwd)
ftctl=$top/build/bin/ftctl
. "$top/selftests/fattree/ft_lock.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
[ -d /sys/module/fattree ] || insmod "$ko" || exit 1
command -v strace > /dev/null || { echo "saf_hold: no strace" >&2; exit 1; }

# timed ARGS...: ftctl ARGS on CPU 0; prints its longest sendmsg in ms
timed() {
	taskset -c 0 strace -T -e trace=sendmsg -o "$tmp/strace" "$ftctl" "$@" > /dev/null ||
		echo "saf_hold: ftctl $* failed" >&2
	awk -F'<' '/sendmsg/ { v = $NF + 0; if (v > m) m = v } END { printf "%d", m * 1000 }' \
		"$tmp/strace"
}
# window NAME CMD...: CMD while ft_lock.sh's lock_reader reads leaf 0's
# tx_packets (and mtu) on CPU 1; its worst waits go to $tmp/NAME
window() {
	local name=$1
	shift
	lock_window "$tmp/$name" hold-l0 "$@"
}
# worst NAME: the worst stats read of window NAME, then the control's
worst() {
	local w
	read -r -a w < "$tmp/$1"
	echo "${w[0]} (control ${w[1]})"
}

for n in "$@"; do
	taskset -c 0 "$ftctl" fabric add hold kary 2 16 period manual mode saf q 2 \
		backlog $(((n + 255) / 256)) || exit 1
	window idle sleep 5
	window inject eval 'inject=$(timed fabric inject hold 0 1 $n)'
	window step eval 'step=$(timed fabric step hold 1)'
	echo "N=$n inject_ms=$inject first_step_ms=$step" \
	     "worst_read_inject_ms=$(worst inject) worst_read_step_ms=$(worst step)" \
	     "worst_read_idle_ms=$(worst idle)"
	"$ftctl" fabric del hold
done
