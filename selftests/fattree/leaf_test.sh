#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The leaf's data path against the kernel around it (TAP).
# - The backlog bound holds across down/up: a leaf of a manual fabric with
#   backlog 2, taken down and up six times with frames sent after each,
#   still holds 2.
# The kernel log must stay clean (the runner checks it).
here=$(cd "$(dirname "$0")" && pwd)
ftctl=$here/ftctl
py=/usr/bin/python3
scale=${FT_TIMEOUT_SCALE:-1}
tmp=$(mktemp -d)
n=0 failed=0 pids=
t0=$(date +%s)

. "$here/ft_lib.sh"

mac() { cat "/sys/class/net/$1/address"; }
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
echo "1..3"

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

check "the module unloads" 'rmmod fattree'
echo "# $failed of $n failed"
[ $failed = 0 ]
