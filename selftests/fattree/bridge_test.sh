#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# A leaf as a bridge port and as a macvlan's parent (TAP): the fabric
# learns the stations behind a leaf from what it sends (fattree(4), HOSTS
# ON A LAN). A "LAN" namespace reaches leaf fb-l3's namespace through a
# bridge beside leaf fb-l0 (a veth pair stands for the NIC); a macvlan on
# leaf fb-l1 is reached too; unicast to an unknown MAC is dropped and
# counted; a leaf going down forgets its stations; tagged ARP stays in the
# control class (it resolves on a fabric that does not move); jumbo
# frames and a TCP stream the veth sends in TSO-sized chunks cross whole.
top=$(cd "$(dirname "$0")" && pwd)
. "$top/ft_lib.sh"
tap_begin 12
# The link kinds below come from modules, or are built in (the debug
# kernel's, which has no modules to load): a missing kind ends the test
# where it is first made.
modprobe -a bridge 8021q macvlan veth 2> /dev/null
lan=ftbr-lan-$$ br=ftbr-br-$$ srv=ftbr-srv-$$ mv=ftbr-mv-$$
got_file=$(mktemp)
trap 'for s in $lan $br $srv $mv; do ip netns del $s 2>/dev/null; done; "$ftctl" fabric del fb 2>/dev/null; rm -f "$got_file"' EXIT
for s in $lan $br $srv $mv; do ip netns add "$s" || exit 1; ip -n "$s" link set lo up; done
"$ftctl" fabric add fb kary 2 2 period 1ms || exit 1
lanmac=52:54:00:00:b0:01

# The LAN: a host (veth end) in $lan, its peer and leaf fb-l0 in a bridge.
ip -n $lan link add eth0 address $lanmac type veth peer name lanport netns $br || exit 1
ip -n $lan addr add 10.8.0.100/24 dev eth0
ip -n $lan link set eth0 up
ip -n $lan link add link eth0 name eth0.20 type vlan id 20 || exit 1
ip -n $lan addr add 10.8.20.100/24 dev eth0.20
ip -n $lan link set eth0.20 up
ip link set fb-l0 netns $br
ip -n $br link add br0 type bridge || exit 1
ip -n $br link set lanport master br0
ip -n $br link set fb-l0 master br0
for d in lanport fb-l0 br0; do ip -n $br link set $d up; done
# The server on leaf fb-l3, a VLAN device on it.
ip link set fb-l3 netns $srv
ip -n $srv addr add 10.8.0.3/24 dev fb-l3
ip -n $srv link set fb-l3 up
ip -n $srv link add link fb-l3 name fb-l3.20 type vlan id 20
ip -n $srv addr add 10.8.20.3/24 dev fb-l3.20
ip -n $srv link set fb-l3.20 up
# A macvlan on leaf fb-l1: its own MAC, unknown to the fabric until it speaks.
ip link set fb-l1 netns $mv
ip -n $mv link set fb-l1 up
ip -n $mv link add mv0 link fb-l1 type macvlan mode bridge || exit 1
ip -n $mv addr add 10.8.0.1/24 dev mv0
ip -n $mv link set mv0 up

# noroute: leaf 3's drop_noroute, read in its namespace.
noroute() { "$ftctl" leaf show fb | awk 'NR == 1 { for (c = 1; c <= NF; c++) col[$c] = c; next } $1 == 3 { print $col["drop:noroute"] }'; }

check "a LAN host behind a bridged leaf reaches a process on another leaf" \
	"until_t $((20 * scale)) ip netns exec $lan ping -c 1 -W 1 10.8.0.3 \> /dev/null"
nb=$(ip -n $srv neigh show 10.8.0.100)
check "... which resolved the host's address to the host's own MAC" \
	'echo "$nb" | grep -q "lladdr $lanmac"' "$nb"
check "a macvlan on a leaf is reached at its own MAC" \
	"until_t $((20 * scale)) ip netns exec $srv ping -c 1 -W 1 10.8.0.1 \> /dev/null"

# Unicast to a MAC no leaf sent from: dropped at the sender, counted.
before=$(noroute)
ip -n $srv neigh replace 10.8.0.77 lladdr 52:54:00:00:b0:77 dev fb-l3 nud permanent
ip netns exec $srv ping -c 1 -W 1 10.8.0.77 > /dev/null 2>&1
after=$(noroute)
check "unicast to an unknown MAC is dropped and counted (drop_noroute)" \
	'[ "$after" -eq $((before + 1)) ]' "noroute $before -> $after"

# The bridged leaf goes down: the LAN host is forgotten (while the leaf is
# down nothing can teach it again; a frame routed to the down leaf would
# count there as drop_down instead), and learned again from its next
# frame once the leaf is up. The server's entry for the host is made
# permanent, so that no ARP of the server's teaches the fabric anything.
ip -n $srv neigh replace 10.8.0.100 lladdr $lanmac dev fb-l3 nud permanent
ip -n $br link set fb-l0 down
before=$(noroute)
ip netns exec $srv ping -c 1 -W 1 10.8.0.100 > /dev/null 2>&1
after=$(noroute)
check "a leaf going down forgets the stations behind it" \
	'[ "$after" -eq $((before + 1)) ]' "noroute $before -> $after"
ip -n $br link set fb-l0 up
ip netns exec $lan ping -c 1 -W 2 10.8.0.3 > /dev/null 2>&1
check "... and learns a station again from its next frame" \
	"ip netns exec $srv ping -c 2 -W 2 10.8.0.100 > /dev/null"

# A station heard from another leaf moves there, and back: the macvlan on
# leaf fb-l1 takes the LAN host's MAC, so the server's replies reach it
# only once its frames have moved the entry from fb-l0 (the server's
# entries are permanent: only the fabric's table decides). It is then
# deleted, so that nothing else sends from that MAC on fb-l1, and the LAN
# host's next frame moves the entry back.
ip -n $mv link set mv0 down
ip -n $mv link set mv0 address $lanmac
ip -n $mv link set mv0 up
ip -n $srv neigh replace 10.8.0.1 lladdr $lanmac dev fb-l3 nud permanent
check "a station heard from another leaf moves there" \
	"until_t $((10 * scale)) ip netns exec $mv ping -c 1 -W 1 10.8.0.3 \> /dev/null"
ip -n $mv link del mv0
ip netns exec $lan ping -c 1 -W 2 10.8.0.3 > /dev/null 2>&1
check "... and back from its next frame there" \
	"ip netns exec $srv ping -c 2 -W 2 10.8.0.100 > /dev/null"

# Jumbo frames end to end (the bridge takes its ports' smallest MTU).
ip -n $lan link set eth0 mtu 9000
ip -n $br link set lanport mtu 9000
ip -n $br link set fb-l0 mtu 9000
ip -n $br link set br0 mtu 9000
ip -n $srv link set fb-l3 mtu 9000
check "9000-byte frames cross a bridged leaf both ways (DF set)" \
	"ip netns exec $lan ping -c 2 -W 2 -M do -s 8972 10.8.0.3 > /dev/null"

# A TCP stream from the LAN host: the veth hands the bridge TSO-sized
# chunks, the core segments them before the leaf, each frame one message.
ip netns exec $srv python3 -c '
import socket
s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(("10.8.0.3", 5201)); s.listen(1); c, _ = s.accept(); got = 0
while True:
    b = c.recv(65536)
    if not b:
        break
    got += len(b)
open("'"$got_file"'", "w").write(str(got))' &
srvpid=$!
until_t $((30 * scale)) "ip netns exec $srv ss -Hltn 'sport = :5201' | grep -q 5201"
ip netns exec $lan ethtool -K eth0 tso on gso on > /dev/null 2>&1
d0=$("$ftctl" --json leaf show fb | python3 -c 'import json, sys; print(json.load(sys.stdin)[3]["delivered"])')
ip netns exec $lan python3 -c '
import socket
s = socket.create_connection(("10.8.0.3", 5201)); s.sendall(b"x" * (4 << 20)); s.close()'
wait $srvpid
d1=$("$ftctl" --json leaf show fb | python3 -c 'import json, sys; print(json.load(sys.stdin)[3]["delivered"])')
got=$(cat "$got_file" 2>/dev/null)
check "a 4 MiB TCP stream from the LAN arrives whole" '[ "$got" = $((4 << 20)) ]' "got $got"
frames=$((d1 - d0))
check "... in frames no larger than the MTU (segmented before the leaf)" \
	'[ "$frames" -ge $(( (4 << 20) / 8948 )) ]' "$frames frames delivered to fb-l3"

# Tagged ARP is neighbour resolution too: it resolves on a fabric that
# carries nothing else (manual, never stepped).
"$ftctl" fabric set fb period manual
ip netns exec $srv ping -c 1 -W 2 10.8.20.100 > /dev/null 2>&1
nb=$(ip -n $srv neigh show 10.8.20.100)
check "ARP under a VLAN tag resolves on a manual fabric (control class)" \
	'echo "$nb" | grep -q "lladdr $lanmac"' "$nb"
exit $((failed > 0))
