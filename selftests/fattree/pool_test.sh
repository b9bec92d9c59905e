#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The pair pool is sized from what can really be waiting: a leaf holds at
# most its backlog of packets, to at most every other leaf. A shape whose
# pool would pass the ceiling is refused (E2BIG, with the reason) rather
# than clamped (packets then found the pool full and were dropped as
# "teardown"), and a backlog larger than the fabric does not make the pool
# larger than the fabric can fill.
top=$(cd "$(dirname "$0")" && pwd)
. "$top/ft_lib.sh"
free_kib() { awk '/^MemFree:/ { print $2 }' /proc/meminfo; }
# cost SHAPE...: KiB a fabric of this shape takes (MemFree, caches dropped)
cost() {
	sync; echo 3 > /proc/sys/vm/drop_caches
	a=$(free_kib)
	"$ftctl" fabric add pool "$@" period manual || return 1
	b=$(free_kib)
	"$ftctl" fabric del pool
	sleep 1		# the leaves are freed after an RCU grace period
	echo $((a - b))
}

tap_begin 3

# 4,096 leaves x backlog 2,048: 8 M waiting pairs, past the 4 M ceiling.
out=$("$ftctl" fabric add big kary 2 64 backlog 2048 period manual 2>&1)
rc=$?
check "a pool past the ceiling is refused" '[ $rc -eq 1 ]' "exit $rc: $out"
check "... saying why" 'echo "$out" | grep -q "lower the backlog"' "$out"
"$ftctl" fabric del big 2> /dev/null

# 16 leaves: a backlog of 65,536 holds at most 16 pairs per leaf, as 16 does.
small=$(cost kary 2 4 backlog 16)
large=$(cost kary 2 4 backlog 65536)
echo "# 16 leaves: backlog 16 takes $small KiB, backlog 65536 takes $large KiB"
# (MemFree moves by some MiB between two creations; a pool of 16 x 65,536
# pairs would add over 100 MiB.)
check "a backlog past the leaves' count does not grow the pool" \
	'[ -n "$small" ] && [ -n "$large" ] && [ "$large" -lt $((small + 32768)) ]' \
	"$small KiB against $large KiB"
exit $((failed > 0))
