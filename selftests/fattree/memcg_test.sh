#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# A fabric's memory is charged to the memory cgroup of the process that
# creates it: over the cgroup's limit the creation fails cleanly (ENOMEM,
# with the reason, nothing left behind, no OOM kill, no warning), under it
# the cgroup pays for the fabric, and deleting the fabric gives it back.
top=$(cd "$(dirname "$0")" && pwd)
. "$top/ft_lib.sh"

echo "TAP version 13"
load_module
cgroot=/sys/fs/cgroup
if [ ! -f $cgroot/cgroup.controllers ]; then
	mkdir -p $cgroot
	mount -t cgroup2 none $cgroot || { echo "1..0 # SKIP no cgroup2"; exit 4; }
fi
grep -qw memory $cgroot/cgroup.controllers || { echo "1..0 # SKIP no memory controller"; exit 4; }
echo "1..8"
echo +memory > $cgroot/cgroup.subtree_control
cg=$cgroot/fattree-memcg-$$
mkdir $cg
trap 'rmdir $cg 2>/dev/null' EXIT
kib() { echo $(($(cat $cg/memory.current) / 1024)); }
# in_cg COMMAND...: run it as a member of the cgroup
in_cg() { sh -c 'echo $$ > "$0/cgroup.procs" && exec "$@"' "$cg" "$@"; }

# FT(2,16): 256 leaves and a pair pool of 65,536 synthetic pairs besides
# the packets': some 25 MiB.
start=$(kib)
echo $(((start + 8192) * 1024)) > $cg/memory.max
out=$(in_cg "$ftctl" fabric add mcg kary 2 16 period manual 2>&1)
rc=$?
check "over the limit: the creation fails" '[ $rc -eq 1 ]' "exit $rc: $out"
check "over the limit: it says why" \
	'echo "$out" | grep -q "not enough memory for the fabric"' "$out"
check "over the limit: no fabric left" '! "$ftctl" fabric show mcg > /dev/null 2>&1'
check "over the limit: no OOM kill" '[ "$(sed -n "s/^oom_kill //p" $cg/memory.events)" = 0 ]' \
	"$(tr '\n' ' ' < $cg/memory.events)"

echo max > $cg/memory.max
start=$(kib)
in_cg "$ftctl" fabric add mcg kary 2 16 period manual
charged=$(($(kib) - start))
echo "# the 256-leaf fabric charged its creator's cgroup $charged KiB"
check "under the limit: the cgroup pays for the fabric (>= 8 MiB)" '[ $charged -ge 8192 ]' \
	"charged $charged KiB"
"$ftctl" fabric del mcg
check "deleted: no fabric" '! "$ftctl" fabric show mcg > /dev/null 2>&1'
left=$(($(kib) - start))
echo "# after the deletion the cgroup holds $left KiB more than before the creation"
check "deleted: the charge is returned (within 1 MiB)" '[ $left -le 1024 ]' "left $left KiB"

# Seed 002's FT(2,4): 16 leaves have 256 pairs, so the pool holds no
# 65,536 synthetic ones (it once took 13 MiB here).
sleep 1		# the leaves above are freed after an RCU grace period
start=$(kib)
in_cg "$ftctl" fabric add mcg kary 2 4 period manual
charged=$(($(kib) - start))
echo "# the 16-leaf fabric charged its creator's cgroup $charged KiB"
check "a 16-leaf fabric costs under 4 MiB" '[ $charged -lt 4096 ]' "charged $charged KiB"
"$ftctl" fabric del mcg
exit $((failed > 0))
