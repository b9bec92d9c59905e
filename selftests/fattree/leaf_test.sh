#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The leaf's data path against the kernel around it (TAP).
# - The backlog bound holds across down/up: a leaf of a manual fabric with
#   backlog 2, taken down and up six times with frames sent after each,
#   still holds 2.
# - Packets the fabric holds pin no namespace: a leaf in namespace A with
#   one datagram from A queued on a fabric that does not move (manual;
#   circuit without circuits; store-and-forward, manual) comes back to the
#   fabric's namespace as soon as A is deleted, without a step; a fabric
#   created inside namespace X, whose own process sent into it, goes away
#   once X is deleted.
# - Back-pressure still holds: a blocking UDP sender into a manual fabric
#   of backlog 4 waits in sendto() and, stepped, loses nothing.
# - netconsole on a leaf: its lines reach a listener behind another leaf,
#   logged from process context and from a hard interrupt (the helper
#   module ft_irqlog), to a unicast and to the broadcast MAC. The kernel
#   log must stay clean (the runner checks it).
here=$(cd "$(dirname "$0")" && pwd)
ftctl=$here/ftctl
py=/usr/bin/python3
scale=${FT_TIMEOUT_SCALE:-1}
tmp=$(mktemp -d)
n=0 failed=0 pids=
t0=$(date +%s)

. "$here/ft_lib.sh"

mac() { cat "/sys/class/net/$1/address"; }
# place LEAF NETNS ADDR: move a leaf into a namespace (made if needed),
# with an address, up.
place() {
	ip netns add "$2" 2>/dev/null
	ip link set "$1" netns "$2" && ip -n "$2" addr add "$3/24" dev "$1" &&
		ip -n "$2" link set "$1" up && ip -n "$2" link set lo up
}
# udp_send NETNS DST COUNT: send COUNT datagrams (blocking) from NETNS.
udp_send() {
	ip netns exec "$1" "$py" -c '
import socket, sys
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 4096)
for i in range(int(sys.argv[2])):
    s.sendto(i.to_bytes(4, "big") + b"x" * 60, (sys.argv[1], 9000))
print("sent", sys.argv[2], flush=True)
' "$2" "$3"
}
cleanup() {
	for p in $pids; do kill -KILL "$p" 2>/dev/null; done
	rmmod netconsole 2>/dev/null
	for ns in $(ip netns list 2>/dev/null | awk '/^lt/ { print $1 }'); do ip netns del "$ns"; done
	for f in lb lpa lpc lps lx bp nc; do "$ftctl" fabric del $f 2>/dev/null; done
	rmmod fattree 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT

echo "TAP version 13"
[ -d /sys/module/fattree ] || insmod "$here/fattree.ko" || exit 1
echo "1..13"

# --- the backlog bound across down/up
"$ftctl" fabric add lb binary 4 period manual backlog 2
sent=$("$py" -c '
import socket, subprocess, sys
dev, dmac = sys.argv[1], bytes.fromhex(sys.argv[2].replace(":", ""))
frame = dmac + bytes.fromhex("020000000001") + b"\x88\xb5" + b"x" * 50
sent = 0
for r in range(6):
    subprocess.run(["ip", "link", "set", dev, "down"], check=True)
    subprocess.run(["ip", "link", "set", dev, "up"], check=True)
    s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW)
    s.bind((dev, 0))
    for i in range(3):
        try:
            s.send(frame, socket.MSG_DONTWAIT)
            sent += 1
        except OSError:
            pass
    s.close()
print(sent)
' lb-l0 "$(mac lb-l1)" 2>&1)
queued=$(leaf_stat lb 0 queued)
check "backlog 2, six rounds of down, up and three frames sent ($sent accepted): the leaf holds $queued" \
	'[ "$queued" = 2 ]' "$("$ftctl" leaf show lb | head -2)"
"$ftctl" fabric step lb 4 >/dev/null
queued=$(leaf_stat lb 0 queued)
check "stepped, the leaf's queue restarts and holds at most its backlog ($queued)" \
	'[ "$queued" -le 2 ] && [ "$(leaf_stat lb 0 sent)" -ge 2 ]' "$("$ftctl" leaf show lb | head -2)"
"$ftctl" fabric del lb

# --- a namespace deleted with a datagram of its own queued
# away NAME OPTIONS...: a fabric that does not move; its leaf 0 in
# namespace ltA sends one datagram to leaf 1; A deleted, leaf 0 returns.
away() {
	local f=$1
	shift
	"$ftctl" fabric add $f binary 4 "$@"
	ip addr add 10.79.0.2/24 dev $f-l1 && ip link set $f-l1 up
	place $f-l0 ltA 10.79.0.1
	ip -n ltA neigh replace 10.79.0.2 lladdr "$(mac $f-l1)" dev $f-l0 nud permanent
	udp_send ltA 10.79.0.2 1 > "$tmp/away.out" 2>&1
	until_t $((10 * scale)) '[ "$(leaf_stat $f 0 queued)" = 1 ]'
	local queued=$(leaf_stat $f 0 queued) t=$(date +%s)
	ip netns del ltA
	until_t $((30 * scale)) '[ -e /sys/class/net/$f-l0 ]'
	check "$f ($*): namespace A deleted with its datagram queued ($queued): the leaf comes back in $(( $(date +%s) - t )) s, unstepped" \
		'[ "$queued" = 1 ] && [ -e /sys/class/net/$f-l0 ]' "$(cat "$tmp/away.out")"
	"$ftctl" fabric del $f
}
away lpa period manual
away lpc period 1ms path circuit
away lps period manual mode saf q 2

# A fabric made inside namespace X, one datagram from a process of X to
# leaf 1 (moved to this namespace) queued; the process exits and X is
# deleted: the fabric goes, leaf 1 with it.
ip netns add ltX
ip netns exec ltX "$ftctl" fabric add lx binary 4 period manual
ip -n ltX link set lx-l1 netns $$
ip addr add 10.80.0.2/24 dev lx-l1 && ip link set lx-l1 up
ip -n ltX addr add 10.80.0.1/24 dev lx-l0 && ip -n ltX link set lx-l0 up
ip -n ltX neigh replace 10.80.0.2 lladdr "$(mac lx-l1)" dev lx-l0 nud permanent
udp_send ltX 10.80.0.2 1 > "$tmp/x.out" 2>&1
queued=$(ip netns exec ltX "$ftctl" leaf show lx | awk 'NR == 1 { for (c = 1; c <= NF; c++) col[$c] = c; next } $1 == 0 { print $col["queued"] }')
t=$(date +%s)
ip netns del ltX
until_t $((30 * scale)) '[ ! -e /sys/class/net/lx-l1 ]'
check "a fabric made in namespace X, one datagram of X's queued ($queued): X deleted, the fabric is gone in $(( $(date +%s) - t )) s" \
	'[ "$queued" = 1 ] && [ ! -e /sys/class/net/lx-l1 ]' "$(cat "$tmp/x.out"; ip link show lx-l1)"

# --- back-pressure: a blocking sender waits and loses nothing
count=200
"$ftctl" fabric add bp binary 4 period manual backlog 4
place bp-l0 ltS 10.81.0.1
place bp-l1 ltR 10.81.0.2
ip -n ltS neigh replace 10.81.0.2 lladdr "$(ip netns exec ltR cat /sys/class/net/bp-l1/address)" \
	dev bp-l0 nud permanent
ip netns exec ltR "$py" -c '
import socket, sys
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1 << 20)
s.bind(("10.81.0.2", 9000))
s.settimeout(float(sys.argv[2]))
seen = set()
print("ready", flush=True)
try:
    while len(seen) < int(sys.argv[1]):
        seen.add(int.from_bytes(s.recv(100)[:4], "big"))
except socket.timeout:
    pass
print(len(seen), flush=True)
' $count $((300 * scale)) > "$tmp/bp.rx" 2>&1 &
rpid=$!; pids="$pids $rpid"
until_t $((30 * scale)) 'grep -q ready "$tmp/bp.rx"'
udp_send ltS 10.81.0.2 $count > "$tmp/bp.tx" 2>&1 &
spid=$!; pids="$pids $spid"
until_t $((30 * scale)) '[ "$(leaf_stat bp 0 queued)" = 4 ]'
sleep 2
check "a blocking UDP sender into a stopped fabric (backlog 4) waits: queued $(leaf_stat bp 0 queued), still sending" \
	'[ "$(leaf_stat bp 0 queued)" = 4 ] && kill -0 $spid 2>/dev/null' "$(cat "$tmp/bp.tx")"
end=$(( $(date +%s) + 300 * scale ))
while kill -0 $spid 2>/dev/null && [ "$(date +%s)" -lt $end ]; do
	"$ftctl" fabric step bp 32 >/dev/null
done
"$ftctl" fabric step bp 16 >/dev/null
wait $rpid
check "stepped, the sender finishes and all $count datagrams arrive" \
	'grep -q "sent $count" "$tmp/bp.tx" && [ "$(tail -1 "$tmp/bp.rx")" = $count ]' \
	"$(cat "$tmp/bp.tx" "$tmp/bp.rx")"
kill -KILL $spid 2>/dev/null
ip netns del ltS; ip netns del ltR
"$ftctl" fabric del bp

# --- netconsole on a leaf
# netcons TARGET WHAT: netconsole from nc-l0 to TARGET (port@ip/mac); a
# line from process context and 8 from a hard interrupt must arrive.
netcons() {
	local tag="ftnc-$2"
	ip netns exec ltN "$py" -c '
import socket, sys
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.bind(("0.0.0.0", 6666))
s.settimeout(float(sys.argv[1]))
print("ready", flush=True)
try:
    while True:
        print(s.recv(2000).decode(errors="replace").strip(), flush=True)
except socket.timeout:
    pass
' $((20 * scale)) > "$tmp/nc.rx" 2>&1 &
	local lpid=$!
	pids="$pids $lpid"
	until_t $((30 * scale)) 'grep -q ready "$tmp/nc.rx"'
	if ! modprobe netconsole "netconsole=6665@10.82.0.1/nc-l0,$1" 2>"$tmp/nc.err"; then
		not_ok "netconsole to $2: loads" "$(cat "$tmp/nc.err"; dmesg | grep -i netcon | tail -3)"
		kill $lpid
		return
	fi
	echo "<2>$tag process" > /dev/kmsg
	if [ -e "$here/ft_irqlog.ko" ] && insmod "$here/ft_irqlog.ko" lines=8 text="$tag-irq" 2>>"$tmp/nc.err"; then
		rmmod ft_irqlog
		irq=8
	else
		irq=0
	fi
	until_t $((20 * scale)) '[ $(grep -c "$tag" "$tmp/nc.rx") -ge $((1 + irq)) ]'
	check "netconsole to $2: the line logged in process context arrives" \
		'grep -q "$tag process" "$tmp/nc.rx"' "$(tail -5 "$tmp/nc.rx")"
	if [ $irq = 8 ]; then
		check "netconsole to $2: the 8 lines logged in a hard interrupt arrive" \
			'[ $(grep -c "$tag-irq [0-9]* in_hardirq=1" "$tmp/nc.rx") = 8 ]' "$(tail -9 "$tmp/nc.rx")"
	else
		skip "netconsole to $2: lines logged in a hard interrupt" "ft_irqlog.ko does not load here: $(cat "$tmp/nc.err")"
	fi
	rmmod netconsole
	kill $lpid 2>/dev/null
	wait $lpid 2>/dev/null
}
if modinfo netconsole >/dev/null 2>&1; then
	"$ftctl" fabric add nc binary 4 period 1ms
	ip addr add 10.82.0.1/24 dev nc-l0 && ip link set nc-l0 up
	place nc-l1 ltN 10.82.0.2
	netcons "6666@10.82.0.2/" broadcast
	netcons "6666@10.82.0.2/$(ip netns exec ltN cat /sys/class/net/nc-l1/address)" unicast
	ip netns del ltN
	"$ftctl" fabric del nc
else
	for w in "broadcast: process" "broadcast: irq" "unicast: process" "unicast: irq"; do
		skip "netconsole to $w" "no netconsole module"
	done
fi

check "the module unloads" 'rmmod fattree'
echo "# $failed of $n failed"
[ $failed = 0 ]
