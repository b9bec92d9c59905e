#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Link failures under traffic, and the live view (TAP): a UDP stream
# whose path loses a link and then a whole top switch arrives whole and
# in order over the other paths, the failed links carrying nothing while
# failed; an all-to-all through failures coming and going, and a leaf cut
# off for a while, loses nothing; fattreed schedules around a failed link
# and, when a switch fails under live circuits, the pairs it cut off get
# new circuits and complete; ftctl monitor runs under a pseudo-terminal
# for a few intervals and exits 0 (also on SIGTERM), and --json streams
# one object per interval.
here=$(cd "$(dirname "$0")" && pwd)
ftctl=$here/ftctl
. "$here/ft_lib.sh"
ftd=$here/fattreed
udp=$here/udp_pair
py=/usr/bin/python3
tmp=$(mktemp -d)
n=0 failed=0 pid=

ok() { n=$((n + 1)); echo "ok $n $1"; }
not_ok() { n=$((n + 1)); failed=$((failed + 1)); echo "not ok $n $1"; [ -n "$2" ] && echo "# $2"; }
check() { if eval "$2"; then ok "$1"; else not_ok "$1" "$3"; fi; }
# stat FABRIC KEY: one of the fabric's counters (no python: it starts
# slowly in an emulated guest)
stat() { "$ftctl" fabric show "$1" | tr -s ' ' '\n' | awk -v k="$2" 'p { print; exit } $0 == k { p = 1 }'; }
# carried FABRIC LEVEL NODE PORT DIR: a directed link's carried counter
carried() {
	"$ftctl" --json link show "$1" level "$2" | $py -c "
import json, sys
for l in json.load(sys.stdin):
    if l['node'] == $3 and l['port'] == $4 and l['direction'] == '$5':
        print(l['carried'])"
}
# reserved_or_carried FABRIC LEVEL NODE PORT: both directions' sum
busy() { echo $(( $(carried "$@" up) + $(carried "$@" down) )); }
drain() { # FABRIC SECONDS: until no synthetic message waits
	for _ in $(seq 1 $(( $2 * 4 ))); do
		[ "$(stat "$1" synth_queued)" = 0 ] && return 0
		sleep 0.25
	done
	return 1
}
drops() { # FABRIC: drops of every cause on every leaf
	"$ftctl" --json leaf show "$1" | $py -c "
import json, sys
print(sum(l.get(k, 0) for l in json.load(sys.stdin) for k in ('drop_noroute', 'drop_down', 'drop_teardown')))"
}
stop() { [ -n "$pid" ] && kill -TERM "$pid" 2>/dev/null && wait "$pid"; pid=; }
cleanup() {
	stop
	"$ftctl" fabric del lt 2>/dev/null
	"$ftctl" fabric del lc 2>/dev/null
	ip netns del lA 2>/dev/null
	ip netns del lB 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT

echo "TAP version 13"
echo "1..17"
[ -d /sys/module/fattree ] || insmod "$here/fattree.ko"
cleanup 2>/dev/null
tmp=$(mktemp -d)

# --- real packets: a UDP stream loses its link, then its next switch ---
"$ftctl" fabric add lt kary 2 4 path dmodk period 1ms
ip netns add lA; ip netns add lB
ip link set lt-l1 netns lA; ip link set lt-l14 netns lB
ip -n lA addr add 10.98.0.1/24 dev lt-l1; ip -n lB addr add 10.98.0.2/24 dev lt-l14
ip -n lA link set lt-l1 up; ip -n lB link set lt-l14 up
tc -n lA qdisc replace dev lt-l1 root pfifo limit 10000
# No ARP at the stream's start: the link failures are what this tests.
neigh_pin lA lt-l1 10.98.0.2 lB lt-l14
# 1 -> 14: dmodk takes port 14 mod 4 = 2 out of leaf switch 0, so top
# switch 2; next come port 3 (top switch 3), then port 0. The stream is
# long (8 s at least, FT_TIMEOUT_SCALE times that on a slow kernel, where
# the debug lane saw the stream end before the second failure) and the
# failures come early, read with ftctl alone (a busy emulated guest starts
# programs slowly).
count=$((8000 * ${FT_TIMEOUT_SCALE:-1}))
"$udp" lA lB 10.98.0.2 $count 64 >"$tmp/udp" 2>&1 &
upid=$!
sleep 0.5
"$ftctl" link fail lt level 2 node 0 port 2 >"$tmp/fail1"
"$ftctl" link show lt level 2 >"$tmp/l1"
sleep 0.5
"$ftctl" switch fail lt level 2 node 3 >"$tmp/fail2"
"$ftctl" link show lt level 2 >"$tmp/l2"
running=0
kill -0 $upid 2>/dev/null && running=1
sleep 1
"$ftctl" link show lt level 2 >"$tmp/l3"
wait $upid
res=$(cat "$tmp/udp")
# udp_diag: where a lost datagram could have gone (the two leaves' non-zero
# counters, the fabric's stats, the stack's backlog drops)
udp_diag() {
	echo "l1: $(ip netns exec lA ethtool -S lt-l1 | awk '$2 != 0 && !/latency/' | tr -s ' \n' ' ');" \
		"l14: $(ip netns exec lB ethtool -S lt-l14 | awk '$2 != 0 && !/latency/' | tr -s ' \n' ' ');" \
		"fabric: $("$ftctl" fabric show lt | tr -s ' \n' ' ');" \
		"softnet drops: $(awk '{ print $2 }' /proc/net/softnet_stat | tr '\n' ' ');" \
		"ARP unresolved discards: $(arp_discards);" \
		"lA udp: $(udp_errors lA); lB udp: $(udp_errors lB);" \
		"lA qdisc: $(tc -n lA -s qdisc show dev lt-l1 | grep -o 'dropped [0-9]*, overlimits [0-9]*')"
}
udp_errors() { # NS: the namespace's non-zero UDP error counters
	ip netns exec "$1" awk '/^Udp:/ { if (!h) { split($0, k); h = 1 } else
		for (i = 2; i <= NF; i++) if (k[i] ~ /Err/ && $i != 0) printf "%s %s ", k[i], $i }' /proc/net/snmp
}
arp_discards() { # the neighbour table's, summed over the CPUs (hex columns)
	local v sum=0

	for v in $(awk 'NR > 1 { print $12 }' /proc/net/stat/arp_cache); do
		sum=$((sum + 16#$v))
	done
	echo $sum
}
# col FILE NODE PORT DIR: the carried column of a link show line
col() { awk -v n="$2" -v p="$3" -v d="$4" '$3 == n && $4 == p && $5 == d { print $8 }' "$1"; }
name="a UDP stream through failures arrives whole and in order"
if [ $running = 1 ] && echo "$res" | grep -q "received $count lost 0 reordered 0"; then
	ok "$name"
else
	not_ok "$name" "still running after the failures: $running; $res; $(udp_diag)"
fi
check "the failed link and switch carried nothing while failed" \
	'[ "$(col "$tmp/l1" 0 2 up)" = "$(col "$tmp/l3" 0 2 up)" ] && [ "$(col "$tmp/l2" 0 3 up)" = "$(col "$tmp/l3" 0 3 up)" ]' \
	"port 2: $(col "$tmp/l1" 0 2 up) -> $(col "$tmp/l3" 0 2 up), port 3: $(col "$tmp/l2" 0 3 up) -> $(col "$tmp/l3" 0 3 up)"
check "the stream went on over port 0" '[ "$(col "$tmp/l3" 0 0 up)" -gt "$(col "$tmp/l2" 0 0 up)" ]' \
	"port 0: $(col "$tmp/l2" 0 0 up) -> $(col "$tmp/l3" 0 0 up)"
check "fail reports what changed" \
	'grep -q "2 directed links failed; 2 failed" "$tmp/fail1" && grep -q "8 directed links failed; 10 failed" "$tmp/fail2"' \
	"$(cat "$tmp/fail1" "$tmp/fail2")"
"$ftctl" switch show lt level 2 >"$tmp/sw"
check "switch show marks the failed switch down and its neighbours degraded" \
	'grep -Eq "^ *2 +3 +8 +8 down" "$tmp/sw" && grep -Eq "^ *2 +2 +8 +2 degraded" "$tmp/sw"' "$(cat "$tmp/sw")"
"$ftctl" switch restore lt level 2 node 3 >/dev/null
"$ftctl" link restore lt level 2 node 0 port 2 >/dev/null
check "restored, no link is failed" '[ "$(stat lt failed_links)" = 0 ] && [ -z "$("$ftctl" link show lt failed | sed 1d)" ]'

# --- synthetic all-to-all while links fail and come back ---
# On a stepped fabric, so that the failures fall between known cycles.
all2all() { # COUNT: every ordered pair of the 16 leaves, COUNT messages
	for s in $(seq 0 15); do for d in $(seq 0 15); do [ $s != $d ] && echo "$s $d $1"; done; done
}
all2all 20 >"$tmp/a2a20"
all2all 3 >"$tmp/a2a3"
"$ftctl" fabric set lt period manual
total=$(( $(stat lt synth_delivered) + 240 * 20 ))
"$ftctl" fabric inject lt file "$tmp/a2a20"
# Leaf 3 cut off for a while: its pairs wait, counted.
"$ftctl" link fail lt level 1 node 3 port 0 >/dev/null
"$ftctl" fabric step lt 20 >/dev/null
held=$(stat lt failure_held)
"$ftctl" link restore lt level 1 node 3 port 0 >/dev/null
for k in 0 1 2 3 4 5; do
	"$ftctl" link fail lt level 2 node $((k % 4)) port $(((k + 1) % 4)) >/dev/null
	[ $k = 2 ] && "$ftctl" switch fail lt level 1 node 2 >/dev/null
	"$ftctl" fabric step lt 15 >/dev/null
	"$ftctl" link restore lt level 2 node $((k % 4)) port $(((k + 1) % 4)) >/dev/null
	"$ftctl" fabric step lt 5 >/dev/null
done
mid=$(stat lt synth_queued)
"$ftctl" switch restore lt level 1 node 2 >/dev/null
"$ftctl" fabric step lt 2000 >/dev/null
check "an all-to-all through failures loses nothing" \
	'[ "$mid" -gt 0 ] && [ "$(stat lt synth_delivered)" = $total ] && [ "$(drops lt)" = 0 ]' \
	"waiting after the failures $mid; delivered $(stat lt synth_delivered) of $total, drops $(drops lt)"
check "pairs without a path were held, counted" '[ "$held" -ge 20 ]' "failure_held $held"
"$ftctl" fabric set lt period 1ms

# --- the monitor under a pseudo-terminal ---
# ptyrun SECONDS_BEFORE_TERM ARGS...: run ftctl on a pty, print its output,
# then "exit N" (N < 0: killed by signal -N); SIGTERM that long after its
# first output (a frame: it handles signals by then), unless it is 0.
ptyrun() {
	$py - "$ftctl" "$@" <<'EOF'
import os, pty, select, signal, sys, time
ftctl, term, args = sys.argv[1], float(sys.argv[2]), sys.argv[3:]
pid, fd = pty.fork()
if pid == 0:
    os.execv(ftctl, [ftctl] + args)
out, start, sent, first = b"", time.time(), False, None
while True:
    if term and not sent and first is not None and time.time() - first > term:
        os.kill(pid, signal.SIGTERM)
        sent = True
    r, _, _ = select.select([fd], [], [], 0.1)
    if r:
        try:
            data = os.read(fd, 65536)
        except OSError:
            break
        if not data:
            break
        out += data
        if first is None:
            first = time.time()
    if time.time() - start > 120:
        os.kill(pid, signal.SIGKILL)
        break
_, status = os.waitpid(pid, 0)
sys.stdout.write(out.decode("utf-8", "replace"))
code = os.WEXITSTATUS(status) if os.WIFEXITED(status) else -os.WTERMSIG(status)
print("\nexit %d" % code)
EOF
}
for s in $(seq 0 15); do echo "$s $(( (s + 5) % 16 )) 4000"; done >"$tmp/perm"
"$ftctl" fabric inject lt file "$tmp/perm"
"$ftctl" link fail lt level 2 node 1 port 1 >/dev/null
ptyrun 0 monitor lt interval 0.5 count 3 >"$tmp/mon"
frames=$(grep -c "cycles/s" "$tmp/mon")
check "monitor on a terminal: 3 frames, then exit 0" \
	'[ "$frames" = 3 ] && tail -n 1 "$tmp/mon" | grep -q "^exit 0"' "$frames frames; $(tail -n 3 "$tmp/mon")"
check "it redraws in place and shows the tree by level" \
	'grep -q $'"'"'\033\[H'"'"' "$tmp/mon" && grep -q "^L2 up" "$tmp/mon" && grep -q "^L1 down" "$tmp/mon"'
check "the failed link is marked on the map and listed" \
	'grep -q "failed:  L2 node 1 port 1 both (link)" "$tmp/mon" && grep -q "^L2 up .*X" "$tmp/mon"' \
	"$(grep -a "failed" "$tmp/mon" | head -3)"
ptyrun 1.5 monitor lt interval 0.2 >"$tmp/mon2"
check "SIGTERM ends the monitor with status 0" 'tail -n 1 "$tmp/mon2" | grep -q "^exit 0"' \
	"$(tail -n 2 "$tmp/mon2")"
"$ftctl" --json monitor lt interval 0.3 count 2 >"$tmp/json"
check "--json: one object per interval, with levels and links" \
	'$py -c "
import json, sys
frames = [json.loads(l) for l in open(sys.argv[1])]
assert len(frames) == 2, len(frames)
for f in frames:
    assert len(f[\"levels\"]) == 2 and len(f[\"links\"]) == 64
    assert f[\"failed_links\"] == 2
    assert sum(1 for l in f[\"links\"] if l[\"failed\"] == [\"link\"]) == 2
assert sum(f[\"cycles\"] for f in frames) > 0
" "$tmp/json"' "$(head -c 300 "$tmp/json")"
"$ftctl" link restore lt level 2 node 1 port 1 >/dev/null
"$ftctl" monitor lt clear count 1 interval 0.2 >"$tmp/mon3"; rc=$?
check "monitor clear zeroes the counters first" '[ $rc = 0 ] && grep -q "cycles/s" "$tmp/mon3"' \
	"exit $rc: $(head -3 "$tmp/mon3")"
"$ftctl" fabric set lt period manual
"$ftctl" fabric del lt

# --- the daemon schedules around failures ---
"$ftctl" fabric add lc kary 2 4 path circuit period 1ms
"$ftctl" link fail lc level 2 node 0 port 1 >/dev/null
"$ftd" --fabric lc --lease 16 --idle 8 --log-level info --status-file "$tmp/status" \
	2>>"$tmp/ftd.log" &
pid=$!
for s in $(seq 0 15); do echo "$s $(( (s + 4) % 16 )) 20"; done >"$tmp/shift"
"$ftctl" fabric inject lc file "$tmp/shift"
"$ftctl" fabric inject lc file "$tmp/a2a3"
drain lc 90; rc=$?
check "with a failed link fattreed's traffic completes" \
	'[ $rc = 0 ] && [ "$(stat lc synth_delivered)" = $((320 + 720)) ]' \
	"delivered $(stat lc synth_delivered) of 1040"
check "no circuit was ever placed across the failed link" '[ "$(busy lc 2 0 1)" = 0 ]'
stop
# A top switch fails under live circuits: they are torn down, their pairs
# come back as demand and get circuits around it. Stepped by hand, so the
# circuits are there when the switch fails.
"$ftctl" fabric set lc period manual
"$ftctl" circuit del lc all >/dev/null 2>&1
"$ftd" --fabric lc --lease 100 --idle 0 --log-level info --status-file "$tmp/status" \
	2>>"$tmp/ftd.log" &
pid=$!
for s in $(seq 0 15); do echo "$s $(( (s + 4) % 16 )) 200"; done >"$tmp/shift"
"$ftctl" fabric inject lc file "$tmp/shift"
for _ in $(seq 1 100); do [ "$(stat lc circuits)" -ge 12 ] && break; sleep 0.1; done
circ=$(stat lc circuits)
"$ftctl" switch fail lc level 2 node 2 >"$tmp/cut"
cut=$(stat lc circuits_cut)
for _ in $(seq 1 300); do
	[ "$(stat lc synth_queued)" = 0 ] && break
	"$ftctl" fabric step lc 50 >/dev/null
	sleep 0.05
done
check "a switch failing under live circuits: they are cut and the pairs complete" \
	'[ "$(stat lc synth_delivered)" = $((1040 + 16 * 200)) ] && [ "$cut" -gt 0 ] && grep -q "failed_links.: *10" "$tmp/status"' \
	"$(cat "$tmp/cut"); circuits $circ, cut $cut; delivered $(stat lc synth_delivered); $(grep failed_links "$tmp/status"); $(tail -3 "$tmp/ftd.log")"
stop
[ "$failed" = 0 ]
