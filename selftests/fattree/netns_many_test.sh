#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# A namespace holding hundreds of leaves is deleted while another
# namespace uses the fabric: every leaf returns to its fabric's namespace,
# a few at a time per hold of rtnl, so that other rtnl users wait for a
# few leaves at most, not for all of them (before: one hold for the lot,
# 3,968 ms for 256 leaves under emulation, the hung-task territory the
# create and delete paths were already cut up for); the namespace using
# the fabric meanwhile keeps its traffic.
top=$(cd "$(dirname "$0")" && pwd)
. "$top/ft_lib.sh"
tap_begin 4
y=ftmany-y-$$ d=ftmany-d-$$ u=ftmany-u-$$ v=ftmany-v-$$
tmp=$(mktemp -d)
wpid= ppid=
cleanup() {
	[ -n "$wpid" ] && kill "$wpid" 2>/dev/null
	[ -n "$ppid" ] && kill "$ppid" 2>/dev/null
	for ns in $d $u $v $y; do ip netns del $ns 2>/dev/null; done
	rm -rf "$tmp"
}
trap cleanup EXIT
ip netns add $y && ip netns add $d && ip netns add $u && ip netns add $v || exit 1
ip netns exec $y "$ftctl" fabric add fm kary 2 16 period 1ms || exit 1
# Leaves 0 and 255 carry pings from U to V; leaves 1..254 go to D.
ip -n $y link set fm-l0 netns $u && ip -n $y link set fm-l255 netns $v || exit 1
i=1
while [ $i -le 254 ]; do echo "link set fm-l$i netns $d"; i=$((i + 1)); done > "$tmp/batch"
ip -n $y -batch "$tmp/batch" || exit 1
moved=$(ip -n $d -o link show | grep -c "fm-l")
ip -n $u link set fm-l0 up && ip -n $v link set fm-l255 up
ip -n $u addr add 10.89.0.1/24 dev fm-l0 && ip -n $v addr add 10.89.0.2/24 dev fm-l255
ip netns exec $u ping -c 1 -W $((5 * scale)) 10.89.0.2 > /dev/null
ip netns exec $u ping -i 0.2 -W 2 10.89.0.2 > "$tmp/ping" 2>&1 &
ppid=$!

ip netns exec $y "$ft_dir/rtnl_wait" --interval 2000 --ready "$tmp/ready" > "$tmp/wait" &
wpid=$!
until_t $((10 * scale)) '[ -e "$tmp/ready" ]'
before=$(grep -c 'bytes from' "$tmp/ping")
t1=$(date +%s%N)
ip netns del $d
until_t $((300 * scale)) '[ "$(ip -n $y -o link show | grep -c "fm-l")" = 254 ]'
t2=$(date +%s%N)
sleep 1
kill -TERM $wpid
wait $wpid
wpid=
kill $ppid
wait $ppid 2>/dev/null
ppid=
home=$(ip -n $y -o link show | grep -c "fm-l")
total=$(( (t2 - t1) / 1000000 ))
max=$(python3 -c 'import json,sys; print(int(json.load(open(sys.argv[1]))["max_ms"]))' "$tmp/wait")
echo "# $moved leaves in the deleted namespace: all home after $total ms; rtnl waited at most $max ms"
check "all $moved leaves of a deleted namespace return to their fabric's namespace" \
	'[ "$moved" = 254 ] && [ "$home" = 254 ]' "moved $moved, home $home"
check "other rtnl users wait for a share of them, not for all: at most a quarter of the $total ms" \
	'[ $((max * 4)) -le "$total" ]' "max wait $max ms of $total ms"
after=$(grep -c 'bytes from' "$tmp/ping")
check "the namespace using the fabric meanwhile kept its traffic" \
	'[ "$after" -gt "$before" ]' "pings answered: $before before the deletion, $after at the end"
ip netns del $y
check "the fabric's own namespace deleted after: nothing left behind" \
	"until_t $((60 * scale)) '! ip -o link show | grep -q fm-l'"
exit $((failed > 0))
