#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The leaf's data path against the kernel around it (TAP).
# - The backlog bound holds across down/up: a leaf of a manual fabric with
#   backlog 2, taken down and up six times with frames sent after each,
#   still holds 2.
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
echo "1..7"

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
