#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# fattreed with the kernel, end to end (TAP): on a circuit fabric, traffic
# waits until the daemon grants it; a permutation, an all-to-all and a hot
# spot each complete; circuits only ever exist for pairs that had demand;
# a real UDP stream arrives whole and in order; a TCP connection is set
# up through circuits granted each way (its time in cycles printed);
# killing the daemon with
# SIGKILL mid-traffic and starting it again loses nothing, keeps the
# circuits, and later frees the adopted ones that went idle; bad flags and
# a bad config file give a clear error and exit status 2; the Prometheus
# metrics file parses and agrees with --status; --rounds stops it after a
# number of rounds, with the phases of the last in its status; free lanes
# worked out from the circuits schedule as a link dump does; a step's
# demand announcement, several messages long, makes one round, and another
# fabric's announcements none.
here=$(cd "$(dirname "$0")" && pwd)
ftctl=$here/ftctl
ftd=$here/fattreed
udp=$here/udp_pair
tmp=$(mktemp -d)
n=0 failed=0 pid= t0=$(date +%s)
. "$here/ft_lib.sh"
json() { "$ftctl" --json fabric show "$1" | /usr/bin/python3 -c "import json,sys; f=json.load(sys.stdin)[0]; print($2)"; }
start() { "$ftd" --fabric c0 --log-level warning "$@" 2>>"$tmp/ftd.log" & pid=$!; }
stop() { [ -n "$pid" ] && kill -TERM "$pid" 2>/dev/null && wait "$pid"; pid=; }
cleanup() { stop; "$ftctl" fabric del c0 2>/dev/null; "$ftctl" fabric del c1 2>/dev/null; "$ftctl" fabric del c2 2>/dev/null; ip netns del dA 2>/dev/null; ip netns del dB 2>/dev/null; rm -rf "$tmp"; }
trap cleanup EXIT
# Wait until the fabric's synthetic messages have all arrived (or S secs).
drain() {
	for _ in $(seq 1 $(( $1 * 4 ))); do
		[ "$(json c0 'f["stats"]["synth_queued"]')" = 0 ] && return 0
		sleep 0.25
	done
	return 1
}
rows() { # pattern: permutation, alltoall, hotspot -> rows file
	case $1 in
	permutation) /usr/bin/python3 -c 'import random; r=random.Random(3); p=list(range(16)); r.shuffle(p); [print(s, d, 5) for s, d in enumerate(p) if s != d]' ;;
	alltoall) for s in $(seq 0 15); do for d in $(seq 0 15); do [ $s != $d ] && echo "$s $d 2"; done; done ;;
	hotspot) for s in $(seq 1 15); do echo "$s 0 4"; done ;;
	esac > "$tmp/$1"
	awk '{ t += $3 } END { print t }' "$tmp/$1"
}

echo "TAP version 13"
echo "1..19"
[ -d /sys/module/fattree ] || insmod "$here/fattree.ko"
"$ftctl" fabric del c0 2>/dev/null

# Bad flags and config files: a clear message, exit 2, nothing started.
out=$("$ftd" --fabric c0 --lease 0 2>&1); rc=$?
check "zero lease refused" '[ $rc = 2 ] && echo "$out" | grep -q "lease"' "exit $rc: $out"
out=$("$ftd" --fabric c0 --algorithm telepathy 2>&1); rc=$?
check "unknown algorithm refused" '[ $rc = 2 ] && echo "$out" | grep -q "telepathy"' "exit $rc: $out"
printf 'algorithm = levelwise\nlease = 12\nfrobnicate = 3\n' > "$tmp/bad.conf"
out=$("$ftd" --fabric c0 --config "$tmp/bad.conf" 2>&1); rc=$?
check "bad config line named" '[ $rc = 2 ] && echo "$out" | grep -q "bad.conf:3"' "exit $rc: $out"
out=$("$ftd" --fabric nosuch 2>&1); rc=$?
check "missing fabric is exit 1" '[ $rc = 1 ] && echo "$out" | grep -q "nosuch"' "exit $rc: $out"

"$ftctl" fabric add c0 kary 2 4 path circuit period 1ms
total=$(rows permutation)
"$ftctl" fabric inject c0 file "$tmp/permutation"
sleep 0.5
check "without the daemon nothing moves" '[ "$(json c0 "f[\"stats\"][\"synth_delivered\"]")" = 0 ]'
# The daemon logs every circuit it installs (debug level).
start --lease 16 --idle 8 --log-level debug --metrics-file "$tmp/fattreed-c0.prom"
drain 30; rc=$?
check "per-round statistics through fattreed --status" \
	'"$ftd" --fabric c0 --status | /usr/bin/python3 -c "import json,sys; s=json.load(sys.stdin); assert s[\"rounds\"] > 0 and 0 < s[\"schedulability_ratio\"] <= 1"'
check "a permutation completes" '[ $rc = 0 ] && [ "$(json c0 "f[\"stats\"][\"synth_delivered\"]")" = $total ]'
for p in alltoall hotspot; do
	before=$(json c0 'f["stats"]["synth_delivered"]')
	total=$(rows $p)
	"$ftctl" fabric inject c0 file "$tmp/$p"
	drain 60; rc=$?
	after=$(json c0 'f["stats"]["synth_delivered"]')
	check "a $p completes" '[ $rc = 0 ] && [ $((after - before)) = $total ]' "$((after - before)) of $total"
done
stop
# Stopping writes the metrics once more: they and the status tell the same.
check "Prometheus metrics agree with --status" '/usr/bin/python3 - "$tmp/fattreed-c0.prom" /run/fattreed/c0.json <<"EOF"
import json, sys
from prometheus_client.parser import text_string_to_metric_families as parse
fams = {f.name: f for f in parse(open(sys.argv[1]).read())}
st = json.load(open(sys.argv[2]))
one = lambda name: [s.value for s in fams[name].samples if s.labels["fabric"] == "c0"][0]
assert one("fattreed_rounds") == st["rounds"], "rounds"
assert one("fattreed_requests") == st["requests"] > 0, "requests"
assert one("fattreed_granted") == st["granted"] > 0, "granted"
assert abs(one("fattreed_schedulability_ratio") - st["schedulability_ratio"]) < 1e-9
h = fams["fattreed_schedule_seconds"]
assert h.type == "histogram"
b = [s.value for s in h.samples if s.name.endswith("_bucket")]
count = [s.value for s in h.samples if s.name.endswith("_count")][0]
assert b == sorted(b) and b[-1] == count and 0 < count <= st["rounds"], (b, count)
EOF' "$(cat "$tmp/fattreed-c0.prom" 2>&1 | head -20)"
cat "$tmp/permutation" "$tmp/alltoall" "$tmp/hotspot" | awk '{ print $1, $2 }' | sort -u > "$tmp/demanded"
sed -n 's/.*debug: circuit \([0-9]*\) -> \([0-9]*\)$/\1 \2/p' "$tmp/ftd.log" | sort -u > "$tmp/seen.u"
check "circuits only for pairs that had demand" '[ -s "$tmp/seen.u" ] && [ -z "$(comm -23 "$tmp/seen.u" "$tmp/demanded")" ]' \
	"unexpected: $(comm -23 "$tmp/seen.u" "$tmp/demanded" | head -3 | tr '\n' ' ')"

# --rounds: a daemon that stops by itself, its round's phases in the status.
"$ftd" --fabric c0 --rounds 2 --status-file "$tmp/rounds.json" --log-level warning 2>>"$tmp/ftd.log"
rc=$?
check "--rounds 2 stops after two rounds, the round's phases in the status" \
	'[ $rc = 0 ] && /usr/bin/python3 - "$tmp/rounds.json" <<"EOF"
import json, sys
s = json.load(open(sys.argv[1]))
r = s["last_round"]
assert s["rounds"] == 2 and r["round"] == 2, s
parts = [r[k] for k in ("circuits_us", "demand_us", "links_us", "schedule_us", "install_us")]
assert min(parts) >= 0 and r["circuits_us"] > 0 and r["demand_us"] > 0, r
assert sum(parts) <= r["round_us"], r
EOF' "exit $rc: $(cat "$tmp/rounds.json" 2>&1 | head -30)"

# Free lanes worked out from the circuits' paths make the same schedule as
# a link dump: on a stepped fabric (nothing moves, nothing expires) with
# two circuits already holding lanes, one round of each grants the same
# circuits with the same ports.
"$ftctl" fabric add c1 kary 2 4 path circuit period manual
"$ftctl" fabric inject c1 file "$tmp/permutation"
held() { "$ftctl" circuit add c1 0 5 ports 0,0 && "$ftctl" circuit add c1 1 6 ports 0,1; }
circuits() { "$ftctl" --json circuit show c1 | /usr/bin/python3 -c '
import json, sys
print(sorted((c["src"], c["dst"], tuple(c["ports"])) for c in json.load(sys.stdin)))'; }
held
"$ftd" --fabric c1 --rounds 1 --idle 0 --free-lanes dump --status-file "$tmp/dump.json" \
	--log-level warning 2>>"$tmp/ftd.log"
by_dump=$(circuits)
"$ftctl" circuit del c1 all > /dev/null
held
"$ftd" --fabric c1 --rounds 1 --idle 0 --status-file "$tmp/circ.json" \
	--log-level warning 2>>"$tmp/ftd.log"
by_circuits=$(circuits)
from() { /usr/bin/python3 -c 'import json, sys; r = json.load(open(sys.argv[1]))["last_round"]; print(r["links_from"], r["granted"])' "$1"; }
check "free lanes from the circuits schedule as a link dump does" \
	'[ "$by_dump" = "$by_circuits" ] && [ "$(from "$tmp/dump.json")" = "dump $(from "$tmp/circ.json" | cut -d" " -f2)" ] &&
	 [ "$(from "$tmp/circ.json" | cut -d" " -f1)" = circuits ] && [ "$(from "$tmp/circ.json" | cut -d" " -f2)" -gt 0 ]' \
	"dump: $by_dump ($(from "$tmp/dump.json")); circuits: $by_circuits ($(from "$tmp/circ.json"))"
"$ftctl" fabric del c1

# One announcement, one round. At 512 leaves a step announces every pair,
# in several messages; with a lease of one cycle each step ends the
# round's circuits, so each round finds the whole permutation again. Steps
# of another fabric (c2) wake nobody. The round timer (60 s) never fires.
"$ftctl" fabric add c1 kary 3 8 path circuit period manual
"$ftctl" fabric add c2 kary 2 4 path circuit period manual
/usr/bin/python3 -c 'import random; r=random.Random(5); p=list(range(512)); r.shuffle(p); [print(s, d, 100) for s, d in enumerate(p) if s != d]' > "$tmp/perm512"
"$ftctl" fabric inject c1 file "$tmp/perm512"
"$ftctl" fabric inject c2 file "$tmp/permutation"
"$ftd" --fabric c1 --lease 1 --idle 0 --round-ms 60000 --status-file "$tmp/one.json" \
	--log-level info 2>"$tmp/one.log" & one=$!
rounds() { /usr/bin/python3 -c 'import json, sys; s = json.load(open(sys.argv[1])); r = s["last_round"]; print(s["rounds"], r["requests"], r["granted"])' "$tmp/one.json" 2>/dev/null; }
until_t 60 '[ "$(rounds | cut -d" " -f1)" = 1 ]'
for r in 2 3 4; do
	"$ftctl" fabric step c2 3 > /dev/null
	"$ftctl" fabric step c1 > /dev/null
	until_t 60 '[ "$(rounds | cut -d" " -f1)" -ge $r ]'
done
sleep 1
last=$(rounds)
read -r nrounds nreq ngranted <<< "${last:-0 0 0}"
kill -TERM $one; wait $one
check "a step's announcement makes one round, another fabric's none" \
	'[ "$nrounds" = 4 ] && [ "$nreq" -ge 500 ] && [ "$ngranted" -gt 0 ] && [ "$(grep -c "round [0-9]*: demand" "$tmp/one.log")" = 4 ]' \
	"rounds, requests, granted: $last; $(grep "round [0-9]*: demand" "$tmp/one.log" | cut -c1-90 | tr '\n' ';')"
"$ftctl" fabric del c1
"$ftctl" fabric del c2

# Real packets: a UDP stream between namespaces, granted by the daemon.
ip netns add dA; ip netns add dB
ip link set c0-l1 netns dA; ip link set c0-l14 netns dB
ip -n dA addr add 10.97.0.1/24 dev c0-l1; ip -n dB addr add 10.97.0.2/24 dev c0-l14
ip -n dA link set c0-l1 up; ip -n dB link set c0-l14 up
tc -n dA qdisc replace dev c0-l1 root pfifo limit 10000
start --lease 64 --idle 16
res=$("$udp" dA dB 10.97.0.2 3000 64)
check "a UDP stream arrives whole and in order" 'echo "$res" | grep -q "received 3000 lost 0 reordered 0"' \
	"$res; fabric: $(json c0 '" ".join("%s %s" % kv for kv in f["stats"].items() if kv[1])'); \
dB: $(ip netns exec dB nstat -az 2>/dev/null | awk '/Udp|Ip.*Discard|Ip.*Errors/ && $2 { printf "%s %s ", $1, $2 }')"

# TCP across circuits: the SYN waits for a circuit one way, the SYN-ACK
# for one the other way; the daemon grants each as demand. Once the old
# circuits are idle and gone, connect() is timed in the client and turned
# into cycles by the fabric's own mean cycle length.
until_t 20 '[ -z "$("$ftctl" circuit show c0 | awk "NR > 1")" ]'
ip netns exec dB /usr/bin/python3 -c '
import socket; s = socket.socket(); s.bind(("10.97.0.2", 5300)); s.listen()
c, _ = s.accept(); c.sendall(c.recv(5))' & srv=$!
until_t 20 'ip netns exec dB ss -Hltn "sport = :5300" | grep -q 5300'
conn=$(ip netns exec dA /usr/bin/python3 -c '
import socket, time; s = socket.socket(); s.settimeout(30); t = time.monotonic()
s.connect(("10.97.0.2", 5300)); c = time.monotonic() - t; s.sendall(b"hello")
assert s.recv(5) == b"hello"; print("%.6f" % c)' 2>&1); rc=$?
wait $srv
ns_per_cycle=$(json c0 'f["stats"]["run_ns"] / max(f["cycle"], 1)')
check "a TCP connection across circuits is set up both ways and carries data" '[ $rc = 0 ]' "$conn"
[ $rc = 0 ] && /usr/bin/python3 -c "import sys; c, ns = float(sys.argv[1]), float(sys.argv[2]); \
	print('# TCP connect through fattreed: %.1f ms, %.0f cycles of %.2f ms' % (c * 1e3, c * 1e9 / ns, ns / 1e6))" \
	"$conn" "$ns_per_cycle"

# SIGKILL mid-traffic, then a new daemon: nothing lost, circuits kept.
total=$(( $(json c0 'f["stats"]["synth_delivered"]') + $(awk '{ t += $3 } END { print t }' "$tmp/alltoall") ))
"$ftctl" fabric inject c0 file "$tmp/alltoall"
sleep 0.3
kill -KILL $pid; wait $pid 2>/dev/null; pid=
"$ftctl" circuit show c0 | awk 'NR > 1 { print $1, $2 }' | sort > "$tmp/before"
start --lease 64 --idle 16
sleep 0.05
"$ftctl" circuit show c0 | awk 'NR > 1 { print $1, $2 }' | sort > "$tmp/after"
check "a restarted daemon keeps the circuits in place" '[ -z "$(comm -23 "$tmp/before" "$tmp/after")" ]' \
	"$(wc -l < "$tmp/before") before, lost: $(comm -23 "$tmp/before" "$tmp/after" | head -3 | tr '\n' ' ')"
drain 60; rc=$?
check "after SIGKILL and restart nothing is lost" '[ $rc = 0 ] && [ "$(json c0 "f[\"stats\"][\"synth_delivered\"]")" = $total ]'
sleep 1
left=$("$ftctl" circuit show c0 | awk 'NR > 1' | wc -l)
check "adopted circuits are freed once idle" '[ "$left" = 0 ]' "$left circuits left"
[ "$failed" = 0 ]
