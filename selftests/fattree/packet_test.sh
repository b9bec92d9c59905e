#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Packet sockets on a leaf. With a transmit ring (PACKET_TX_RING) the
# kernel hands a slot back to the sender when the skb is orphaned, long
# before the fabric delivers it: the ring marks such skbs zerocopy, and
# the fabric copies their pages when it takes the frame, so a sender
# reusing its slot at once cannot change a frame that waits. With PACKET_QDISC_BYPASS the sender meets a full leaf
# itself: sends past the backlog fail (ENOBUFS), nothing is logged, and
# every frame a send took is delivered.
top=$(cd "$(dirname "$0")" && pwd)
. "$top/ft_lib.sh"
tap_begin 5
a=ftpk-a-$$ b=ftpk-b-$$
tmp=$(mktemp -d)
rpid=
cleanup() {
	[ -n "$rpid" ] && kill "$rpid" 2>/dev/null
	ip netns del $a 2>/dev/null
	ip netns del $b 2>/dev/null
	"$ftctl" fabric del pk 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
ip netns add $a && ip netns add $b || exit 1
"$ftctl" fabric add pk kary 2 2 period manual backlog 4 || exit 1
ip link set pk-l0 netns $a && ip link set pk-l3 netns $b || exit 1
ip -n $a link set pk-l0 up && ip -n $b link set pk-l3 up
dmac=$(ip netns exec $b cat /sys/class/net/pk-l3/address)
smac=$(ip netns exec $a cat /sys/class/net/pk-l0/address)

# The receiver: frames of EtherType 0x88b5 on leaf 3, one line each, the
# payload's first byte and its length.
ip netns exec $b python3 -c '
import socket, sys
s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(0x88b5))
s.bind(("pk-l3", 0x88b5))
with open(sys.argv[1], "w") as f:
    f.write("ready\n"); f.flush()
    while True:
        d = s.recv(65536)
        p = d[14:]
        f.write("%s %d %d\n" % (chr(p[0]), len(p), p.count(p[0]))); f.flush()
' "$tmp/got" &
rpid=$!
until_t $((10 * scale)) 'grep -q ready "$tmp/got" 2>/dev/null'

# TX_RING (TPACKET_V1): frame of 1,000 "A" bytes in slot 0, sent; once the
# kernel hands the slot back, the sender writes "B" over it, as a sender
# reusing its ring does; then the fabric moves the frame.
ring=$(ip netns exec $a python3 -c '
import mmap, socket, struct, sys, time
SOL_PACKET, PACKET_TX_RING = 263, 13
dmac, smac = (bytes.fromhex(m.replace(":", "")) for m in sys.argv[1:3])
s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, 0)
s.bind(("pk-l0", 0))
bs, fs = 8192, 4096
s.setsockopt(SOL_PACKET, PACKET_TX_RING, struct.pack("IIII", bs, 1, fs, 2))
m = mmap.mmap(s.fileno(), bs, mmap.MAP_SHARED, mmap.PROT_READ | mmap.PROT_WRITE)
off = 32                       # TPACKET_ALIGN(sizeof(struct tpacket_hdr))
frame = dmac + smac + struct.pack("!H", 0x88b5) + b"A" * 1000
m[off:off + len(frame)] = frame
struct.pack_into("I", m, 8, len(frame))         # tp_len
struct.pack_into("Q", m, 0, 1)                  # TP_STATUS_SEND_REQUEST
s.send(b"")
end = time.time() + 10
while struct.unpack_from("Q", m, 0)[0] != 0 and time.time() < end:
    time.sleep(0.01)
back = struct.unpack_from("Q", m, 0)[0] == 0
m[off + 14:off + 14 + 1000] = b"B" * 1000
print("slot-back" if back else "slot-held")
' "$dmac" "$smac")
echo "# TX_RING: $ring"
"$ftctl" fabric step pk 4 > /dev/null
until_t $((10 * scale)) '[ "$(grep -c "^[AB] " "$tmp/got")" -ge 1 ]'
check "a TX_RING frame arrives once" '[ "$(grep -c "^[AB] " "$tmp/got")" = 1 ]' "$(cat "$tmp/got")"
check "... as it was sent, though its slot was rewritten while it waited" \
	'grep -q "^A 1000 1000$" "$tmp/got"' "$ring; got: $(grep "^[AB]" "$tmp/got")"

# PACKET_QDISC_BYPASS: 20 frames at a leaf whose backlog is 4. What the
# kernel logs meanwhile: the lines after the first $k0.
k0=$(dmesg | wc -l)
res=$(ip netns exec $a python3 -c '
import socket, struct, sys
SOL_PACKET, PACKET_QDISC_BYPASS = 263, 20
dmac, smac = (bytes.fromhex(m.replace(":", "")) for m in sys.argv[1:3])
s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, 0)
s.bind(("pk-l0", 0))
s.setsockopt(SOL_PACKET, PACKET_QDISC_BYPASS, 1)
ok = err = 0
for i in range(20):
    try:
        s.send(dmac + smac + struct.pack("!H", 0x88b5) + b"C" * 100)
        ok += 1
    except OSError as e:
        err += 1
print(ok, err)
' "$dmac" "$smac")
took=${res% *}
echo "# QDISC_BYPASS: 20 sends, taken and refused: $res"
check "with PACKET_QDISC_BYPASS a full leaf refuses the sends past its backlog" \
	'[ "$res" = "4 16" ]' "$res"
stepped() { "$ftctl" fabric step pk 4 > /dev/null; [ "$(grep -c "^C " "$tmp/got")" -ge "$took" ]; }
until_t $((10 * scale)) stepped
got=$(grep -c "^C " "$tmp/got")
check "... and delivers every frame it took" '[ "$got" = "$took" ]' "took $took, got $got"
check "... with nothing in the kernel log" \
	'! dmesg | tail -n +$((k0 + 1)) | grep -qi "asks to queue\|warn"' "$(dmesg | tail -n +$((k0 + 1)) | tail -3)"
exit $((failed > 0))
