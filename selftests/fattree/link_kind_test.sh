#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Leaves as rtnetlink shows them: kind "fattree" in `ip -d link show`, and
# the fabric's name and id and the leaf's index under IFLA_INFO_DATA
# (decoded with libnl alone by ft_linkinfo); a leaf moved to another
# namespace names its fabric's as link-netns. Leaves come and go only
# with their fabric: `ip link add type fattree`, `ip link set ... type
# fattree` and `ip link del` of a leaf are refused and change nothing.
top=$(cd "$(dirname "$0")" && pwd)
. "$top/ft_lib.sh"
tap_begin 11
x=ftlk-x-$$
err=$(mktemp)
trap 'ip netns del $x 2>/dev/null; "$ftctl" fabric del lk 2>/dev/null; rm -f "$err"' EXIT
"$ftctl" fabric add lk binary 4 period manual || exit 1

check "ip -d link show names the kind" \
	'ip -d link show lk-l2 | grep -qw fattree' "$(ip -d link show lk-l2)"
check "ip -j -d link show: info_kind fattree" \
	'ip -j -d link show lk-l2 | grep -q "\"info_kind\":\"fattree\""' "$(ip -j -d link show lk-l2)"
mac=$(cat /sys/class/net/lk-l2/address)
id=$(( 0x$(echo "$mac" | cut -d: -f2)$(echo "$mac" | cut -d: -f3) ))
info=$("$top/ft_linkinfo" lk-l2)
check "IFLA_INFO_DATA: the fabric, its id (as in the MAC, $mac) and the index" \
	'[ "$info" = "kind fattree fabric lk id $id leaf 2" ]' "$info"
info=$("$top/ft_linkinfo" lo)
check "a device of no kind has no fattree data" '[ "$info" = "kind none" ]' "$info"

ip link add ftlk0 type fattree 2> "$err"
check "ip link add type fattree is refused, saying to use ftctl" \
	'grep -q "use ftctl" "$err" && ! ip link show ftlk0 > /dev/null 2>&1' "$(cat "$err")"
ip link set lk-l2 type fattree 2> "$err"
check "ip link set ... type fattree is refused, saying to use ftctl" \
	'grep -q "use ftctl" "$err"' "$(cat "$err")"
ip link del lk-l2 2> "$err"
check "ip link del of a leaf is refused (EOPNOTSUPP), the leaf stays" \
	'grep -q "Operation not supported" "$err" && ip link show lk-l2 > /dev/null' "$(cat "$err")"
check "... and still belongs to its fabric" \
	'[ "$(leaf_stat lk 2 ifname)" = lk-l2 ]' "$("$ftctl" leaf show lk | head -4)"

ip netns add $x && ip link set lk-l3 netns $x
check "a leaf moved out names its fabric's namespace as link-netns" \
	'ip -n $x -d link show lk-l3 | grep -q "link-netns"' "$(ip -n $x -d link show lk-l3)"
info=$(ip netns exec $x "$top/ft_linkinfo" lk-l3)
check "... and keeps its fabric data there" \
	'[ "$info" = "kind fattree fabric lk id $id leaf 3" ]' "$info"
ip netns del $x
check "rmmod with fabrics present removes leaves, then the kind" \
	'until_t 10 ip link show lk-l3 \> /dev/null 2\>\&1 && rmmod fattree && ! ip link show lk-l0 > /dev/null 2>&1'
echo "# $failed of $n failed"
[ $failed = 0 ]
