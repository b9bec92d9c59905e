#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Namespaces: a leaf whose namespace goes away returns to its fabric's
# namespace (not to the initial one, where its fabric cannot see it); a
# reader without CAP_NET_ADMIN learns the device name and ifindex only of
# the leaves in its own namespace, and cannot listen to a fabric's demand
# (every pair's backlog, containers' leaves included).
top=$(cd "$(dirname "$0")" && pwd)
. "$top/ft_lib.sh"
tap_begin 12
y=ftns-y-$$ a=ftns-a-$$ b=ftns-b-$$
trap 'ip netns del $a 2>/dev/null; ip netns del $b 2>/dev/null; ip netns del $y 2>/dev/null' EXIT
ip netns add $y && ip netns add $a && ip netns add $b || exit 1
ip netns exec $y "$ftctl" fabric add fy kary 2 4 period manual || exit 1
check "ftctl -n NETNS works in that namespace, as ip -n does" \
	'"$ftctl" -n $y fabric show fy > /dev/null && ! "$ftctl" fabric show fy > /dev/null 2>&1'
nserr=$("$ftctl" -n ftns-none-$$ info 2>&1)
nsrc=$?
check "ftctl -n of a namespace that does not exist fails (1), saying so" \
	'[ $nsrc = 1 ] && echo "$nserr" | grep -q "see ip netns list"' "$nserr"

# A leaf of Y's fabric in A; A goes away.
ip -n $y link set fy-l0 netns $a
ip netns del $a
check "a leaf whose namespace dies returns to its fabric's namespace" \
	"until_t $((10 * scale)) ip -n $y link show fy-l0 \> /dev/null 2\>\&1"
check "... and not to the initial namespace" '! ip link show fy-l0 > /dev/null 2>&1'

# Leaf 1 in B, leaf 2 at home in Y: who sees which names.
ip -n $y link set fy-l1 netns $b
leafs() { # [setpriv args]: ftctl --json leaf show fy, in Y
	ip netns exec $y ${1:+setpriv $*} "$ftctl" --json leaf show fy
}
names() { python3 -c 'import json, sys
print(" ".join("%d=%s" % (l["index"], l.get("ifname", "-")) for l in json.load(sys.stdin)[:3]))'; }
root=$(leafs | names)
nobody=$(leafs --reuid=65534 --regid=65534 --clear-groups | names)
echo "# as root: $root; as nobody: $nobody"
check "root sees a leaf's name in another namespace" '[ "$root" = "0=fy-l0 1=fy-l1 2=fy-l2" ]' "$root"
check "nobody does not see a leaf's name in another namespace" 'echo "$nobody" | grep -q "1=-"' "$nobody"
check "nobody sees the names of the leaves in its own namespace" \
	'echo "$nobody" | grep -q "0=fy-l0 .*2=fy-l2"' "$nobody"

# The demand group: root listens (and waits: timeout's 124), nobody may not.
timeout $((3 * scale)) "$ftctl" -n $y demand watch fy count 1 > /dev/null 2>&1
rc=$?
check "root may listen to a fabric's demand" '[ $rc = 124 ]' "status $rc"
out=$(ip netns exec $y setpriv --reuid=65534 --regid=65534 --clear-groups \
	timeout $((3 * scale)) "$ftctl" demand watch fy count 1 2>&1)
rc=$?
check "nobody may not: the join is refused (EPERM), not left to wait" \
	'[ $rc != 0 ] && [ $rc != 124 ] && echo "$out" | grep -q "not permitted"' "status $rc: $out"
out=$(ip netns exec $y setpriv --reuid=65534 --regid=65534 --clear-groups \
	"$ftctl" demand show fy 2>&1)
rc=$?
check "... nor dump it (EPERM)" '[ $rc != 0 ] && echo "$out" | grep -qi "not permitted"' "status $rc: $out"

# Y goes away with a leaf still in B: the fabric and that leaf go too.
ip netns del $y
check "the fabric's namespace dies: its leaf elsewhere goes with it" \
	"until_t $((20 * scale)) ! ip -n $b link show fy-l1 \> /dev/null 2\>\&1"
check "... and nothing came to the initial namespace" '! ip link show | grep -q fy-l'
exit $((failed > 0))
