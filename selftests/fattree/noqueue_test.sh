#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# A leaf without a qdisc (tc qdisc replace ... root noqueue, as container
# tools set on virtual links): nothing can wait in front of it, so a full
# leaf never stops its queue, which the core would take for a broken
# device ("Virtual device ... asks to queue packet!" in the kernel log,
# ENETDOWN to the sender). A frame that finds it full is dropped and
# counted at the leaf (drop_busy, in tx_dropped), as veth drops what its
# peer has no room for; what it took is delivered. Back under a qdisc,
# the leaf holds its senders back again and loses nothing.
top=$(cd "$(dirname "$0")" && pwd)
. "$top/ft_lib.sh"
tap_begin 9
a=ftnq-a-$$ b=ftnq-b-$$
cleanup() {
	ip netns del $a 2>/dev/null
	ip netns del $b 2>/dev/null
	"$ftctl" fabric del nq 2>/dev/null
	"$ftctl" fabric del nqs 2>/dev/null
}
trap cleanup EXIT
ip netns add $a && ip netns add $b || exit 1
"$ftctl" fabric add nq kary 2 2 period manual backlog 4 || exit 1
ip link set nq-l0 netns $a && ip link set nq-l3 netns $b || exit 1
ip -n $a link set nq-l0 up && ip -n $a addr add 10.87.0.1/24 dev nq-l0
ip -n $b link set nq-l3 up && ip -n $b addr add 10.87.0.2/24 dev nq-l3
ip -n $a neigh add 10.87.0.2 lladdr "$(ip -n $b -j link show nq-l3 |
	python3 -c 'import json,sys; print(json.load(sys.stdin)[0]["address"])')" dev nq-l0
tc -n $a qdisc replace dev nq-l0 root noqueue || exit 1
# send NS COUNT: COUNT datagrams, each send's errno (0 when it went).
send() {
	ip netns exec "$1" python3 -c '
import socket, sys
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
errs = {}
for i in range(int(sys.argv[1])):
    try:
        s.sendto(b"q" * 100, ("10.87.0.2", 9200))
        errs[0] = errs.get(0, 0) + 1
    except OSError as e:
        errs[e.errno] = errs.get(e.errno, 0) + 1
print(" ".join("%d:%d" % kv for kv in sorted(errs.items())))
' "$2"
}
crit0=$(dmesg | grep -c "asks to queue packet")
res=$(send $a 20)
crit=$(($(dmesg | grep -c "asks to queue packet") - crit0))
busy=$(ns_eth_stat $a nq-l0 drop_busy) queued=$(ns_eth_stat $a nq-l0 queued)
echo "# 20 sends under noqueue, backlog 4: errno:count $res; drop_busy $busy; queued $queued"
check "under noqueue a full leaf answers no send with an error (ENETDOWN before)" \
	'[ "$res" = "0:20" ]' "$res"
check "... logs no \"asks to queue packet\"" '[ "$crit" = 0 ]' "$crit lines"
check "... takes its backlog, 4, and drops the rest, counted: drop_busy 16" \
	'[ "$queued" = 4 ] && [ "$busy" = 16 ]' "queued $queued drop_busy $busy"
txd=$(ns_link_stat $a nq-l0 tx_dropped)
check "... in the leaf's tx_dropped" '[ "$txd" = 16 ]' "tx_dropped $txd"
# Down and up while full: a leaf opened without room must not be stopped
# either (the qdisc it will have is attached only after it opens).
ip -n $a link set nq-l0 down && ip -n $a link set nq-l0 up
tc -n $a qdisc replace dev nq-l0 root noqueue
ip -n $a neigh replace 10.87.0.2 lladdr "$(ip -n $b -j link show nq-l3 |
	python3 -c 'import json,sys; print(json.load(sys.stdin)[0]["address"])')" dev nq-l0
res=$(send $a 5)
crit=$(($(dmesg | grep -c "asks to queue packet") - crit0))
busy=$(ns_eth_stat $a nq-l0 drop_busy)
check "a full noqueue leaf brought down and up still takes sends: no error, no log" \
	'[ "$res" = "0:5" ] && [ "$crit" = 0 ] && [ "$busy" = 21 ]' "$res, $crit lines, drop_busy $busy"

"$ftctl" fabric step nq 8 > /dev/null
del=$(ns_eth_stat $b nq-l3 delivered)
check "what it took is delivered" '[ "$del" = 4 ]' "delivered $del"

# Back under a qdisc: the queue stops and the qdisc holds the rest.
tc -n $a qdisc replace dev nq-l0 root pfifo limit 100 || exit 1
res=$(send $a 20)
busy2=$(ns_eth_stat $a nq-l0 drop_busy)
check "under pfifo the same sends all go and nothing more is dropped" \
	'[ "$res" = "0:20" ] && [ "$busy2" = 21 ]' "$res drop_busy $busy2"
# Each step frees room; the qdisc refills the leaf between steps.
stepped() { "$ftctl" fabric step nq 4 > /dev/null; [ "$(ns_eth_stat $b nq-l3 delivered)" = 24 ]; }
check "... and all 20 are delivered as cycles free room" \
	"until_t $((20 * scale)) stepped" "delivered $(ns_eth_stat $b nq-l3 delivered)"

# A busy answer: a store-and-forward fabric whose pool (4 leaves x 4)
# synthetic messages fill. The frame the leaf answers busy for goes back
# to the qdisc still charged to its socket (SIOCOUTQ counts it), as the
# frames behind it are (before: orphaned, one fewer).
"$ftctl" fabric add nqs kary 2 2 mode saf q 2 period manual backlog 4 || exit 1
ip link set nqs-l0 netns $a && ip -n $a link set nqs-l0 up &&
	ip -n $a addr add 10.87.1.1/24 dev nqs-l0 || exit 1
ip -n $a neigh add 10.87.1.2 lladdr "$(cat /sys/class/net/nqs-l3/address)" dev nqs-l0
"$ftctl" fabric inject nqs 1 2 16 > /dev/null || exit 1
res=$(ip netns exec $a python3 -c '
import array, fcntl, socket, termios
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
def outq():
    b = array.array("i", [0])
    fcntl.ioctl(s.fileno(), termios.TIOCOUTQ, b, True)
    return b[0]
for i in range(5):
    s.sendto(b"q" * 100, ("10.87.1.2", 9200))
o5 = outq()
s.sendto(b"q" * 100, ("10.87.1.2", 9200))
one = outq() - o5
print(o5 // one if one and o5 % one == 0 else "%d/%d" % (o5, one))
')
"$ftctl" fabric del nqs
check "a frame a full pool answers busy for stays charged to its socket: 5 of 5 counted" \
	'[ "$res" = 5 ]' "SIOCOUTQ: $res datagrams"
exit $((failed > 0))
