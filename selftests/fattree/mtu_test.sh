#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Mixed MTUs: leaves may have different MTUs (68 to 9000; a container
# sets its own). A frame larger than its destination's MTU is refused when
# the fabric would take it, counted once at its source (drop_mtu, in
# tx_dropped), as veth refuses it at transmit; the fabric never counts it
# sent or delivered, nor drops it later at the receiver. A frame the
# fabric took under the MTU of the time is delivered though the
# destination's MTU fell meanwhile: the fabric loses nothing it took.
top=$(cd "$(dirname "$0")" && pwd)
. "$top/ft_lib.sh"
tap_begin 8
a=ftmtu-a-$$ b=ftmtu-b-$$
cleanup() {
	ip netns del $a 2>/dev/null
	ip netns del $b 2>/dev/null
	"$ftctl" fabric del mt 2>/dev/null
}
trap cleanup EXIT
ip netns add $a && ip netns add $b || exit 1
"$ftctl" fabric add mt kary 2 2 period 1ms || exit 1
ip link set mt-l0 netns $a && ip link set mt-l3 netns $b || exit 1
ip -n $a link set mt-l0 mtu 9000 up && ip -n $a addr add 10.86.0.1/24 dev mt-l0
ip -n $b link set mt-l3 mtu 1500 up && ip -n $b addr add 10.86.0.2/24 dev mt-l3
# The receiver counts what arrives; the sender sends datagrams of the
# given payload sizes, one at a time (neighbour resolution needs no cycle).
recv() { # NS PORT FILE: count datagrams and their sizes until killed
	ip netns exec "$1" python3 -c '
import socket, sys
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.bind(("0.0.0.0", int(sys.argv[1])))
with open(sys.argv[2], "w") as f:
    f.write("ready\n"); f.flush()
    while True:
        d = s.recv(65536)
        f.write("%d\n" % len(d)); f.flush()
' "$2" "$3" &
}
send() { # NS DST PORT SIZE...
	ns=$1 dst=$2 port=$3
	shift 3
	ip netns exec "$ns" python3 -c '
import socket, sys
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
for size in sys.argv[3:]:
    s.sendto(b"m" * int(size), (sys.argv[1], int(sys.argv[2])))
' "$dst" "$port" "$@"
}
got=$(mktemp)
recv $b 9100 "$got"
rpid=$!
trap 'kill $rpid 2>/dev/null; cleanup; rm -f "$got"' EXIT
until_t $((10 * scale)) grep -q ready "$got"
ip netns exec $a ping -c 1 -W $((5 * scale)) 10.86.0.2 > /dev/null 2>&1

sent0=$(ns_eth_stat $a mt-l0 sent)
send $a 10.86.0.2 9100 3000 100
until_t $((10 * scale)) 'grep -q "^100$" "$got"'
mtu=$(ns_eth_stat $a mt-l0 drop_mtu) sent=$(($(ns_eth_stat $a mt-l0 sent) - sent0))
down=$(ns_eth_stat $b mt-l3 drop_down)
txd=$(ns_link_stat $a mt-l0 tx_dropped)
rxd=$(ns_link_stat $b mt-l3 rx_dropped)
check "a 3,042-byte frame to a leaf of MTU 1,500 is refused at its source: drop_mtu 1" \
	'[ "$mtu" = 1 ]' "drop_mtu $mtu"
check "... never counted sent (the small one was: sent +1)" '[ "$sent" = 1 ]' "sent +$sent"
check "... counted once, in the sender's tx_dropped, none at the receiver" \
	'[ "$txd" = 1 ] && [ "$rxd" = 0 ] && [ "$down" = 0 ]' "tx_dropped $txd rx_dropped $rxd drop_down $down"
check "... and the datagram that fits arrives alone" \
	'[ "$(grep -c "^[0-9]" "$got")" = 1 ]' "$(cat "$got")"

# Taken at MTU 1,500, then the receiver's MTU falls to 1,000.
"$ftctl" fabric set mt period manual > /dev/null
send $a 10.86.0.2 9100 1400
until_t $((10 * scale)) '[ "$(ns_eth_stat $a mt-l0 queued)" = 1 ]'
ip -n $b link set mt-l3 mtu 1000
"$ftctl" fabric step mt 4 > /dev/null
check "a frame taken before the destination's MTU fell is still delivered" \
	"until_t $((5 * scale)) 'grep -q \"^1400$\" \"$got\"'" "$(cat "$got")"
rxd=$(ns_link_stat $b mt-l3 rx_dropped)
check "... and nothing was dropped at the receiver" '[ "$rxd" = 0 ] && [ "$(ns_eth_stat $b mt-l3 drop_down)" = 0 ]' \
	"rx_dropped $rxd"

# Broadcast floods skip a leaf whose MTU is too small, counted at the source.
ip -n $b link set mt-l3 mtu 1500
before=$(ns_eth_stat $a mt-l0 drop_mtu) rx0=$(ns_eth_stat $b mt-l3 control_rx)
ip netns exec $a python3 -c '
import socket
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.setsockopt(socket.SOL_SOCKET, socket.SO_BROADCAST, 1)
s.sendto(b"b" * 3000, ("10.86.0.255", 9100))
'
after=$(ns_eth_stat $a mt-l0 drop_mtu)
check "a 3,042-byte broadcast skips the leaf of MTU 1,500 up, counted at the source" \
	'[ $((after - before)) = 1 ]' "drop_mtu $before -> $after"
rx=$(ns_eth_stat $b mt-l3 control_rx)
check "... and does not reach it" '[ "$rx" = "$rx0" ] && ! grep -q "^3000$" "$got"' \
	"control_rx $rx0 -> $rx"
exit $((failed > 0))
