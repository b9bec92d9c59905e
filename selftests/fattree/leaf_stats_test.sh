#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# What a leaf reports as any Ethernet device does: broadcast, multicast
# and neighbour-resolution frames (the control class) count in bytes as
# well as packets, at both ends, and in the receivers' multicast counter;
# a leaf's operstate is "down" until it is brought up and "up" after (not
# "unknown"), so tools that wait for up (networkd-wait-online) go on; a
# socket that asks for software transmit timestamps (SO_TIMESTAMPING) gets
# one for what it sends through a leaf, taken when the fabric takes it.
top=$(cd "$(dirname "$0")" && pwd)
. "$top/ft_lib.sh"
tap_begin 7
a=ftls-a-$$ b=ftls-b-$$
cleanup() {
	ip netns del $a 2>/dev/null
	ip netns del $b 2>/dev/null
	"$ftctl" fabric del ls 2>/dev/null
}
trap cleanup EXIT
ip netns add $a && ip netns add $b || exit 1
"$ftctl" fabric add ls kary 2 2 period manual || exit 1
state=$(cat /sys/class/net/ls-l0/operstate)
check "a new leaf's operstate is down" '[ "$state" = down ]' "$state"
ip link set ls-l0 netns $a && ip link set ls-l3 netns $b || exit 1
ip -n $a link set ls-l0 up && ip -n $b link set ls-l3 up
check "a leaf brought up is up, not unknown" \
	"until_t $((5 * scale)) '[ \"\$(ip netns exec $a cat /sys/class/net/ls-l0/operstate)\" = up ]'" \
	"$(ip netns exec $a cat /sys/class/net/ls-l0/operstate)"
ip -n $a addr add 10.90.0.1/24 dev ls-l0 && ip -n $b addr add 10.90.0.2/24 dev ls-l3
stats() { # NS DEV DIR FIELD: rx/tx bytes, or multicast
	if [ "$4" = multicast ]; then ns_link_stat "$1" "$2" multicast; else ns_link_stat "$1" "$2" "$3_$4"; fi
}
tb0=$(stats $a ls-l0 tx bytes) rb0=$(stats $b ls-l3 rx bytes) mc0=$(stats $b ls-l3 rx multicast)
# Ten broadcasts of 1,000 bytes of payload: 1,042-byte frames.
ip netns exec $a python3 -c '
import socket
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.setsockopt(socket.SOL_SOCKET, socket.SO_BROADCAST, 1)
for i in range(10):
    s.sendto(b"c" * 1000, ("10.90.0.255", 9300))
'
until_t $((5 * scale)) '[ $(($(stats $b ls-l3 rx multicast) - mc0)) -ge 10 ]'
tb=$(($(stats $a ls-l0 tx bytes) - tb0)) rb=$(($(stats $b ls-l3 rx bytes) - rb0))
mc=$(($(stats $b ls-l3 rx multicast) - mc0))
echo "# 10 broadcasts of 1,042 bytes: tx_bytes +$tb, rx_bytes +$rb, multicast +$mc"
check "broadcasts count their bytes at the sender (0 before)" '[ "$tb" -ge 10420 ]' "tx_bytes +$tb"
check "... and at the receiver" '[ "$rb" -ge 10420 ]' "rx_bytes +$rb"
check "... and in the receiver's multicast counter (never counted before)" '[ "$mc" -ge 10 ]' "multicast +$mc"
eth() { ip netns exec $b ethtool -S ls-l3 | awk '$1 == "multicast:" { print $2 }'; }
e1=$(eth) sys=$(stats $b ls-l3 rx multicast) e2=$(eth)
check "ethtool -S multicast says the same" '[ "$e1" -le "$sys" ] && [ "$sys" -le "$e2" ]' \
	"ethtool $e1, then ip $sys, then ethtool $e2"
ts=$(ip netns exec $a python3 -c '
import select, socket, struct
SO_TIMESTAMPING = 37
TX_SOFTWARE, SOFTWARE, OPT_ID, OPT_TSONLY = 1 << 1, 1 << 4, 1 << 7, 1 << 11
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.setsockopt(socket.SOL_SOCKET, SO_TIMESTAMPING, TX_SOFTWARE | SOFTWARE | OPT_ID | OPT_TSONLY)
s.sendto(b"t" * 100, ("10.90.0.2", 9301))
p = select.poll()
p.register(s, select.POLLERR)
if not p.poll(5000):
    print("none")
else:
    d, anc, fl, ad = s.recvmsg(0, 1024, socket.MSG_ERRQUEUE)
    stamps = [struct.unpack("qqqqqq", c[2][:48]) for c in anc
              if c[0] == socket.SOL_SOCKET and c[1] == SO_TIMESTAMPING]
    print("stamp" if stamps and stamps[0][0] > 0 else "none")
')
check "SO_TIMESTAMPING gets a software transmit timestamp from a leaf" '[ "$ts" = stamp ]' "$ts"
exit $((failed > 0))
