#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Faults under traffic (TAP). fattreed killed with SIGKILL again and again
# while fttraffic runs a message set on a circuit fabric: every message
# arrives. The module unloaded while traffic and the daemon run: rmmod
# refuses while the module is in use or succeeds, never an oops; then the
# daemon and the traffic stop with an error and every leaf is gone. A
# fabric deleted under blocked UDP senders, TCP streams and io_uring
# traffic: the senders wake, the traffic ends. A namespace holding leaves
# deleted under traffic: the leaves come home and the fabric goes on; the
# fabric's own namespace deleted: the fabric and its leaves elsewhere go.
# 1000 create/delete cycles: no fabric left, slab and vmalloc back to
# their baseline. Two processes changing circuits at once on a timed
# fabric whose leases expire meanwhile: afterwards, from ftctl's dumps,
# every link's reserved lanes are the sum of its circuits' lanes and never
# more than its lanes. The kernel log must stay clean throughout.
here=$(cd "$(dirname "$0")" && pwd)
ftctl=$here/ftctl
ftt=$here/fttraffic
ftd=$here/fattreed
stress=$here/ft_stress
py=/usr/bin/python3
tmp=$(mktemp -d)
n=0 failed=0 dpid= faults=0 pids=
t_start=$(date +%s)
t0=$t_start
# ok, not_ok, check, leaf_stat, until_t
. "$here/ft_lib.sh"

jget() { "$py" -c "import json,sys; f=json.load(open(sys.argv[1])); print($2)" "$1"; }
# fabric_stat FABRIC NAME: one of a fabric's counters (ftctl's table:
# polling starts no python, which is slow to start in the VM).
fabric_stat() { "$ftctl" fabric show "$1" | awk -v k="$2" '{ for (i = 1; i < NF; i++) if ($i == k) print $(i + 1) }'; }
loaded() { [ -d /sys/module/fattree ]; }
load() { loaded || insmod "$here/fattree.ko"; }
start_daemon() { "$ftd" --fabric "$1" --log-level warning --lease 32 --idle 8 --round-ms 5 \
	--status-file "$tmp/ftd.json" 2>>"$tmp/ftd.log" & dpid=$!; }
# wait_gone PID SECS: 0 once PID has exited (reaped), 1 if still there.
wait_gone() {
	for _ in $(seq 1 $(( $2 * 10 ))); do kill -0 "$1" 2>/dev/null || break; sleep 0.1; done
	! kill -0 "$1" 2>/dev/null
}
# reap PID SECS: wait SECS for PID to exit, kill it if it has not, reap
# it: $gone is 0 when it exited by itself, $xrc its exit status.
reap() { wait_gone "$1" "$2"; gone=$?; [ $gone = 0 ] || kill -KILL "$1"; wait "$1"; xrc=$?; }
# A process that sends UDP datagrams as fast as it can, blocking, until a
# send fails: prints the count and the errno.
udp_sender() {
	exec ip netns exec "$1" "$py" -c '
import socket, sys
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 16384)
n = 0
try:
    while True:
        s.sendto(b"x" * 64, (sys.argv[1], 9))
        n += 1
except OSError as e:
    print(n, e.errno, flush=True)
' "$2"
}
# place FABRIC LEAF NETNS ADDR: move a leaf into a namespace with an address.
place() {
	ip netns add "$3" 2>/dev/null
	ip link set "$1-l$2" netns "$3" && ip -n "$3" addr add "$4/24" dev "$1-l$2" &&
		ip -n "$3" link set "$1-l$2" up && ip -n "$3" link set lo up &&
		tc -n "$3" qdisc replace dev "$1-l$2" root pfifo limit 1000
}
section() { echo "# --- $1 ($(( $(date +%s) - t_start )) s)"; }
cleanup() {
	[ -n "$dpid" ] && kill -KILL "$dpid" 2>/dev/null
	for p in $pids; do kill -KILL "$p" 2>/dev/null; done
	for ns in $(ip netns list 2>/dev/null | awk '/^flt/ { print $1 }'); do ip netns del "$ns"; done
	if loaded; then
		for f in fa fb fc fd fe fn cyc0 cyc1 cyc2 cyc3 cc; do "$ftctl" fabric del $f 2>/dev/null; done
	fi
	rm -rf "$tmp"
}
trap cleanup EXIT

daemon() {
	section "fattreed killed with SIGKILL under traffic"
	"$ftctl" fabric add fa binary 8 period manual path circuit backlog 64
	start_daemon fa
	"$ftt" --no-progress --json --count 2 --settle 20 --timeout $((120 * scale)) fa all-to-all \
		> "$tmp/a.json" 2> "$tmp/a.err" &
	tpid=$!; pids="$pids $tpid"
	kills=0
	# A kill a second (scaled): a daemon that cannot start and finish
	# a round in that time never installs a circuit, and fttraffic steps
	# its million cycles in vain (the debug lane's guest, on one host
	# thread, hung here for over half an hour with a kill a second).
	sleep "$scale"
	while kill -0 $tpid 2>/dev/null; do
		kill -KILL $dpid; wait $dpid 2>/dev/null
		kills=$((kills + 1))
		start_daemon fa
		sleep "$scale"
	done
	wait $tpid; rc=$?
	faults=$((faults + kills))
	check "fattreed SIGKILLed $kills times and restarted mid-run: every message of an all-to-all arrives" \
		'[ $rc = 0 ] && [ $kills -ge 2 ] && [ "$(jget "$tmp/a.json" "f[\"received\"] == f[\"messages\"] == 112 and f[\"lost\"] + f[\"corrupted\"] + f[\"duplicated\"] + f[\"misdirected\"] == 0")" = True ]' \
		"exit $rc, $kills kills: $(cat "$tmp/a.err" "$tmp/a.json" | head -20)"
	kill -TERM $dpid; wait $dpid; dpid=
	"$ftctl" fabric del fa
}

unload() {
	section "the module unloaded under traffic and the daemon"
	"$ftctl" fabric add fb kary 1 4 period 1ms path circuit
	start_daemon fb
	# A run far longer than the test: it must stop because the module went.
	"$ftt" --no-progress --json --duration 900 --rate 100 --timeout 15 fb permutation --no-fixed-points \
		> "$tmp/b.json" 2> "$tmp/b.err" &
	tpid=$!; pids="$pids $tpid"
	until_t 120 '[ "$(leaf_stat fb 0 sent)" -gt 20 ]'
	t_running=$(kill -0 $tpid 2>/dev/null && echo yes)
	refused=0
	for _ in $(seq 1 50); do
		rmmod fattree 2>>"$tmp/rmmod.err" && break
		refused=$((refused + 1))
		sleep 0.1
	done
	faults=$((faults + 1))
	check "rmmod with fttraffic (sending: $t_running) and fattreed running: unloaded ($refused refusals while in use)" \
		'[ "$t_running" = yes ] && ! loaded' "$(tail -3 "$tmp/rmmod.err")"
	reap $tpid 60
	check "the traffic stops with an error, no worker left behind" \
		'[ $gone = 0 ] && [ $xrc = 1 ] && [ -z "$(pgrep -x fttraffic)" ]' \
		"exit $xrc: $(tail -5 "$tmp/b.err")"
	wait_gone $dpid 20; d_ok=$?
	wait $dpid; drc=$?; dpid=
	check "fattreed stops: its fabric is gone (exit 1)" '[ $d_ok = 0 ] && [ $drc = 1 ]' \
		"exit $drc: $(tail -3 "$tmp/ftd.log")"
	check "no leaf device left in any namespace" \
		'[ -z "$(ip -o link show | grep " fb-l")" ] && for ns in $(ip netns list | awk "{print \$1}"); do ip -n $ns -o link show | grep -q " fb-l" && exit 1; done; true'
	load
}

senders() {
	section "a fabric deleted under its senders"
	"$ftctl" fabric add fc kary 1 4 period manual backlog 16
	place fc 0 fltA 10.98.0.1 && place fc 1 fltB 10.98.0.2
	# Blocking UDP senders to a fabric that never moves: they fill it, then
	# the qdisc, then their socket buffers, and sleep in sendto().
	udp_sender fltA 10.98.0.2 > "$tmp/c1.out" 2>&1 &
	spid1=$!
	udp_sender fltA 10.98.0.2 > "$tmp/c2.out" 2>&1 &
	spid2=$!; pids="$pids $spid1 $spid2"
	until_t 60 '[ "$(leaf_stat fc 0 queued)" = 16 ]'
	queued=$(leaf_stat fc 0 queued)
	sleep 0.5
	blocked=$(cat /proc/$spid1/wchan 2>/dev/null)
	# A TCP stream on a timed fabric deleted at the same time.
	"$ftctl" fabric add fd kary 1 4 period 1ms
	place fd 0 fltC 10.98.1.1 && place fd 1 fltD 10.98.1.2
	ip netns exec fltD "$py" -c '
import socket
s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(("10.98.1.2", 5001)); s.listen(1); c, _ = s.accept()
while c.recv(65536): pass
' > /dev/null 2>&1 &
	srv=$!; pids="$pids $srv"
	# On a slow guest the server may need seconds to listen.
	until_t 30 'ip netns exec fltD ss -Hltn "sport = :5001" | grep -q 5001'
	ip netns exec fltC "$py" -c '
import socket
s = socket.create_connection(("10.98.1.2", 5001), timeout=30)
while True: s.sendall(b"y" * 65536)
' > "$tmp/tcp.out" 2>&1 &
	cli=$!; pids="$pids $cli"
	# io_uring traffic on a third fabric.
	"$ftctl" fabric add fe kary 1 4 period 1ms
	"$ftt" --no-progress --duration 900 --rate 200 --timeout 15 fe all-to-all > "$tmp/e.out" 2>&1 &
	epid=$!; pids="$pids $epid"
	until_t 120 '[ "$(leaf_stat fd 0 sent)" -gt 100 ] && [ "$(leaf_stat fe 0 sent)" -gt 20 ]'
	tcp_flowing=$([ "$(leaf_stat fd 0 sent)" -gt 100 ] && echo True)
	e_running=$(kill -0 $epid 2>/dev/null && echo yes)
	"$ftctl" fabric del fc; "$ftctl" fabric del fd; "$ftctl" fabric del fe
	faults=$((faults + 3))
	wait_gone $spid1 10 && wait_gone $spid2 10; s_ok=$?
	check "blocked UDP senders (fabric full: $queued queued, wchan $blocked) wake when the fabric is deleted" \
		'[ $s_ok = 0 ] && [ "$queued" = 16 ]' "$(cat "$tmp/c1.out" "$tmp/c2.out")"
	reap $epid 60
	check "io_uring traffic (sending: $e_running) on a deleted fabric stops with an error" \
		'[ "$e_running" = yes ] && [ $gone = 0 ] && [ $xrc = 1 ]' \
		"exit $xrc: $(tail -5 "$tmp/e.out")"
	kill -KILL $cli $srv 2>/dev/null; wait $cli $srv 2>/dev/null
	check "a TCP stream was flowing when its fabric went; its sockets close cleanly" \
		'[ "$tcp_flowing" = True ] && ip netns del fltC && ip netns del fltD' "$(cat "$tmp/tcp.out")"
	check "the namespaces that held the leaves are empty and deletable" \
		'[ -z "$(ip -n fltA -o link show | grep fc-l)" ] && ip netns del fltA && ip netns del fltB'
}

netns() {
	section "namespaces holding leaves deleted under traffic"
	"$ftctl" fabric add fn kary 1 4 period 1ms
	place fn 0 fltN0 10.98.2.1 && place fn 1 fltN1 10.98.2.2
	udp_sender fltN0 10.98.2.2 > /dev/null 2>&1 &
	spid=$!; pids="$pids $spid"
	sleep 1
	ip netns del fltN0
	kill -KILL $spid; wait $spid 2>/dev/null
	faults=$((faults + 1))
	until_t 20 'ip link show fn-l0 >/dev/null 2>&1'
	check "a leaf whose namespace is deleted under traffic returns to its fabric's namespace (the initial one)" \
		'ip link show fn-l0 >/dev/null 2>&1' "$(ip -o link show | grep fn-l)"
	before=$(fabric_stat fn synth_delivered)
	"$ftctl" fabric inject fn 2 3 10
	until_t 20 '[ "$(fabric_stat fn synth_delivered)" = $((before + 10)) ]'
	check "the fabric goes on: 10 more messages arrive" \
		'[ "$(fabric_stat fn synth_delivered)" = $((before + 10)) ]'
	# The fabric's own namespace goes, its leaves in two others under traffic.
	ip netns add fltH; ip netns add fltL0; ip netns add fltL1
	ip netns exec fltH "$ftctl" fabric add fh kary 1 4 period 1ms
	for i in 0 1; do
		ip -n fltH link set fh-l$i netns fltL$i
		ip -n fltL$i addr add 10.98.3.$((i + 1))/24 dev fh-l$i; ip -n fltL$i link set fh-l$i up
	done
	udp_sender fltL0 10.98.3.2 > "$tmp/h.out" 2>&1 &
	spid=$!; pids="$pids $spid"
	sleep 1
	ip netns del fltH
	faults=$((faults + 1))
	until_t 20 '! ip -n fltL0 link show fh-l0 >/dev/null 2>&1'
	check "the fabric leaves with its namespace, and its leaves in other namespaces with it" \
		'! ip -n fltL0 link show fh-l0 >/dev/null 2>&1 && ! ip -n fltL1 link show fh-l1 >/dev/null 2>&1'
	wait_gone $spid 10; h_ok=$?
	check "the sender on a leaf that went away stops with an error" '[ $h_ok = 0 ]' "$(cat "$tmp/h.out")"
	kill -KILL $spid 2>/dev/null
	ip netns del fltN1; ip netns del fltL0; ip netns del fltL1
	"$ftctl" fabric del fn
}

cycles() {
	section "1000 create/delete cycles"
	"$stress" mem > "$tmp/mem0"
	# Four processes of 250 cycles each, on fabrics of their own.
	cpids=
	for i in 0 1 2 3; do
		"$stress" cycles 250 cyc$i > "$tmp/cyc$i.out" 2>&1 &
		cpids="$cpids $!"
	done
	pids="$pids $cpids"
	rc=0 done_cycles=0
	for p in $cpids; do wait $p || rc=1; done
	for i in 0 1 2 3; do
		done_cycles=$((done_cycles + $(awk '/^cycles/ { print $2 }' "$tmp/cyc$i.out")))
	done
	left=$("$ftctl" fabric show | grep -c "^fabric ")
	# What a leak of a few hundred bytes per cycle would show; objects freed
	# after an RCU grace period may take a moment.
	for _ in $(seq 1 20); do
		"$stress" mem > "$tmp/mem1"
		read -r _ s0 _ v0 _ vs < "$tmp/mem0"; read -r _ s1 _ v1 _ _ < "$tmp/mem1"
		[ $((s1 - s0)) -lt 262144 ] && [ $((v1 - v0)) -le "$vs" ] && break
		sleep 0.25
	done
	check "$done_cycles cycles by four processes: none left, slab $((s1 - s0)) and vmalloc $((v1 - v0)) bytes from the baseline" \
		'[ $rc = 0 ] && [ "$done_cycles" = 1000 ] && [ "$left" = 0 ] && [ $((s1 - s0)) -lt 262144 ] && [ $((v1 - v0)) -le "$vs" ]' \
		"$(cat "$tmp"/cyc?.out)"
}

circuits() {
	section "two processes changing circuits at once"
	"$ftctl" fabric add cc kary 2 4 lanes 2,2 path circuit period 1ms
	"$stress" circuits cc 8 1 > "$tmp/s1" 2>&1 & p1=$!
	"$stress" circuits cc 8 2 > "$tmp/s2" 2>&1 & p2=$!
	pids="$pids $p1 $p2"
	wait $p1; r1=$?; wait $p2; r2=$?
	check "two writers: $(cat "$tmp/s1"); $(cat "$tmp/s2")" \
		'[ $r1 = 0 ] && [ $r2 = 0 ] && grep -q "added [1-9]" "$tmp/s1" && grep -q "refused [1-9]" "$tmp/s2"'
	# Stop the clock so that the dumps see one state, then recompute.
	"$ftctl" fabric set cc period manual
	"$ftctl" --json fabric show cc > "$tmp/cf.json"
	"$ftctl" --json circuit show cc > "$tmp/cc.json"
	"$ftctl" --json link show cc > "$tmp/cl.json"
	res=$("$py" - "$tmp/cf.json" "$tmp/cc.json" "$tmp/cl.json" <<-'EOF'
	import json, sys
	f = json.load(open(sys.argv[1]))[0]
	circuits = json.load(open(sys.argv[2]))
	links = json.load(open(sys.argv[3]))
	m, w = f["down"], f["up"]
	mprod, wprod = [1], [1]
	for i in range(len(m)):
	    mprod.append(mprod[-1] * m[i])
	    wprod.append(wprod[-1] * w[i])
	# The path of a circuit (seed 002, Theorem 2): up through ports P_1..P_H
	# from the source, down the same ports to the destination; a link is
	# (level, lower node, port, direction).
	use = {}
	for c in circuits:
	    s, d, ports, y = c["src"], c["dst"], c["ports"], 0
	    for i in range(1, len(ports) + 1):
	        p = ports[i - 1]
	        for leaf, way in ((s, "up"), (d, "down")):
	            key = (i, (leaf // mprod[i - 1]) * wprod[i - 1] + y, p, way)
	            use[key] = use.get(key, 0) + c["lanes"]
	        y = y * w[i - 1] + p
	bad = 0
	for l in links:
	    key = (l["level"], l["node"], l["port"], l["direction"])
	    if use.pop(key, 0) != l["reserved"] or l["reserved"] > l["lanes"]:
	        bad += 1
	print(len(links), len(circuits), bad + len(use), sum(l["reserved"] for l in links))
	EOF
	)
	read -r nlinks ncirc nbad nres <<< "$res"
	check "after them, every one of $nlinks links holds exactly its $ncirc circuits' lanes ($nres reserved), never more than its lanes" \
		'[ -n "$nbad" ] && [ "$nbad" = 0 ] && [ "$ncirc" -gt 0 ]' "$res"
	"$ftctl" fabric del cc
}

echo "TAP version 13"
echo "1..17"
load
dmesg_start=$(dmesg | wc -l)

# FT_FAULTS picks sections (default: all), for working on one of them.
for sec in daemon:1 unload:4 senders:4 netns:4 cycles:1 circuits:2; do
	name=${sec%:*}
	case " ${FT_FAULTS:-daemon unload senders netns cycles circuits} " in
	*" $name "*) $name ;;
	*) for _ in $(seq 1 ${sec#*:}); do ok "# SKIP $name not in FT_FAULTS"; done ;;
	esac
done

new=$(dmesg | tail -n +$((dmesg_start + 1)) | grep -E 'BUG:|WARNING:|Oops|general protection|Call Trace:|UBSAN:|KASAN:|refcount_t:|INFO: task')
check "$faults faults injected; the kernel log holds no report" '[ -z "$new" ]' "$new"
echo "# done in $(( $(date +%s) - t_start )) s"
echo "# $failed of $n failed"
[ "$failed" = 0 ]
