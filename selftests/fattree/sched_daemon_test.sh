#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# fattreed on fabrics of path scheduled, FT(2,4) (TAP). A real UDP stream whose pair collides with a synthetic one
# arrives whole and in order while it rides its default path before any
# daemon runs, circuits the daemon grants it (their leases ending and
# granted again) and its default path again once the circuits are gone.
# With 4 lanes a link, a big backlog of two colliding pairs gets circuits
# of more than one lane, and once it has drained they are released;
# nothing is lost. fattreed killed with SIGKILL mid-run: its circuits
# stay, the pairs without one go on along their default paths with no
# daemon, a new daemon adopts the circuits in place (the same circuits,
# not granted anew) and releases them once their pairs are idle; nothing
# is lost. The UDP stream's fabric is timed (2 ms), the others stepped
# by hand. Each condition is polled for, within limits scaled by
# FT_TIMEOUT_SCALE.
here=$(cd "$(dirname "$0")" && pwd)
ftd=$here/fattreed
udp=$here/udp_pair
tmp=$(mktemp -d)
pid= upid=
. "$here/ft_lib.sh"

# fabric_stat FABRIC NAME: one of a fabric's counters (ftctl's table).
fabric_stat() { "$ftctl" fabric show "$1" | awk -v k="$2" '{ for (i = 1; i < NF; i++) if ($i == k) print $(i + 1) }'; }
# circuits FABRIC: "src dst lanes created carried" per circuit.
circuits() { "$ftctl" circuit show "$1" | awk 'NR > 1 { print $1, $2, $3, $5, $7 }'; }
ncircuits() { circuits "$1" | wc -l; }
start() { "$ftd" --fabric "$1" --log-level debug --status-file "$tmp/$1.json" "${@:2}" \
	2>>"$tmp/$1.log" & pid=$!; }
stop() { [ -n "$pid" ] && kill -TERM "$pid" 2>/dev/null && wait "$pid"; pid=; }
# status FABRIC KEY: a number of the daemon's status (its first KEY, the
# whole run's, not the last round's); 0 before its first round. No
# python: it takes seconds to start in an emulated machine.
status() { v=$(grep -o "\"$2\": *[0-9]*" "$tmp/$1.json" 2>/dev/null | head -1 | grep -o '[0-9]*$'); echo "${v:-0}"; }
# started FABRIC: wait for the daemon's first round (loading a program
# takes seconds in an emulated machine).
started() { until_t "$wait_s" '[ "$(status '"$1"' rounds)" -ge 1 ]'; }
# rounds_seen FABRIC: the daemon's first rounds that saw demand, for a
# failure's diagnostic.
rounds_seen() { grep -m4 "demand [1-9]" "$tmp/$1.log" | cut -c1-120; }
# granted FABRIC SRC DST: how many circuits the daemons granted the pair.
granted() { grep -c "debug: circuit $2 -> $3\$" "$tmp/$1.log"; }
cleanup() {
	[ -n "$pid" ] && kill -KILL "$pid" 2>/dev/null
	[ -n "$upid" ] && kill -KILL "$upid" 2>/dev/null
	ip netns del sdA 2>/dev/null; ip netns del sdB 2>/dev/null
	for f in sd sl sk; do "$ftctl" fabric del $f 2>/dev/null; done
	rm -rf "$tmp"
}
trap cleanup EXIT
wait_s=$((60 * scale))
tap_begin 9
for f in sd sl sk; do "$ftctl" fabric del $f 2>/dev/null; done

# (a) Leaf 1 to leaf 14 (UDP) and leaf 0 to leaf 10 (synthetic) both climb
# from leaf switch 0 to root 2 by d-mod-k, one lane: they collide.
"$ftctl" fabric add sd kary 2 4 path scheduled period 2ms
ip netns add sdA; ip netns add sdB
ip link set sd-l1 netns sdA; ip link set sd-l14 netns sdB
ip -n sdA addr add 10.95.0.1/24 dev sd-l1; ip -n sdB addr add 10.95.0.2/24 dev sd-l14
tc -n sdA qdisc replace dev sd-l1 root pfifo limit 10000
ip -n sdA link set sd-l1 up; ip -n sdB link set sd-l14 up
# No ARP at the stream's start: the test is of the switch-overs.
neigh_pin sdA sd-l1 10.95.0.2 sdB sd-l14
echo "0 10 100000" > "$tmp/collide"
"$ftctl" fabric inject sd file "$tmp/collide"
"$udp" sdA sdB 10.95.0.2 20000 64 > "$tmp/udp" & upid=$!
rx() { ns_link_stat sdB sd-l14 rx_packets; }
until_t "$wait_s" '[ "$(rx)" -ge 100 ]'
check "no daemon: the UDP pair flows on its default path" \
	'[ "$(rx)" -ge 100 ] && [ "$(ncircuits sd)" = 0 ]' "rx $(rx), circuits: $(circuits sd)"
# Leases of 32 cycles: the pair's circuit ends and is granted again.
start sd --lease 32
until_t "$wait_s" '[ "$(granted sd 1 14)" -ge 3 ]'
check "fattreed grants the colliding pairs circuits, again as leases end" \
	'[ "$(granted sd 1 14)" -ge 3 ] && [ "$(granted sd 0 10)" -ge 1 ]' \
	"grants 1->14: $(granted sd 1 14), 0->10: $(granted sd 0 10); $(tail -3 "$tmp/sd.log")"
stop
"$ftctl" circuit del sd all > /dev/null
before=$(rx)
until_t "$wait_s" '[ "$(rx)" -ge $((before + 100)) ] || [ -s "$tmp/udp" ]'
check "its circuits deleted, the stream goes on along its default path" \
	'[ "$(ncircuits sd)" = 0 ] && [ "$(rx)" -ge $((before + 100)) ]' \
	"rx $before then $(rx); udp_pair: $(cat "$tmp/udp")"
wait $upid; upid=
check "the UDP stream arrives whole and in order across the switch-overs" \
	'grep -q "sent 20000 received 20000 lost 0 reordered 0" "$tmp/udp"' \
	"$(cat "$tmp/udp"); sender's leaf: $(ip netns exec sdA ethtool -S sd-l1 |
		awk '$2 != 0 && !/latency/' | tr -s ' \n' ' '); receiver's: $(ip netns exec sdB \
		ethtool -S sd-l14 | awk '$2 != 0 && !/latency/' | tr -s ' \n' ' ')"
ip netns del sdA; ip netns del sdB
"$ftctl" fabric del sd

# (b) and (c) step their fabrics by hand: a timed fabric in an emulated
# machine that falls behind runs the missed cycles back to back, and a
# backlog can drain in one such burst before any round sees it.
# step_until FABRIC COND: step 200 cycles at a time, letting the daemon's
# rounds (its 10 ms timer, the steps' demand announcements) run between,
# until COND holds or 100 steps.
step_until() {
	local i
	for i in $(seq 1 100); do
		eval "$2" && return 0
		"$ftctl" fabric step "$1" 200 > /dev/null
		sleep 0.05
	done
	eval "$2"
}

# (b) 4 lanes a link: leaf 0 to 5 and leaf 1 to 9 both climb from leaf
# switch 0 to root 1, 4000 messages each. Leases long enough that only
# the daemon ends circuits.
"$ftctl" fabric add sl kary 2 4 lanes 4,4 path scheduled period manual
printf '0 5 4000\n1 9 4000\n' > "$tmp/backlog"
start sl --lease 1000000
started sl
"$ftctl" fabric inject sl file "$tmp/backlog"
"$ftctl" fabric step sl > /dev/null
most=0
widest() { most=$(circuits sl | awk -v m="$most" '$3 > m { m = $3 } END { print m }'); [ "$most" -gt 1 ]; }
until_t "$wait_s" widest
check "a backlog gets circuits of more than one lane" '[ "$most" -gt 1 ]' \
	"widest $most; cycle $(fabric_stat sl cycle), delivered $(fabric_stat sl synth_delivered); $(rounds_seen sl)"
step_until sl '[ "$(fabric_stat sl synth_queued)" = 0 ] && [ "$(ncircuits sl)" = 0 ]'
check "once it has drained its circuits are released, nothing lost" \
	'[ "$(ncircuits sl)" = 0 ] && [ "$(fabric_stat sl synth_delivered)" = 8000 ] && [ "$(status sl released)" -ge 1 ]' \
	"delivered $(fabric_stat sl synth_delivered), queued $(fabric_stat sl synth_queued), released $(status sl released), circuits: $(circuits sl)"
stop
"$ftctl" fabric del sl

# (c) The transpose of leaf switches 0 to 2 (leaf 4a+b to 4b+a): the two
# pairs leaving switch a both climb to root a, so they collide and get
# circuits. Leaves 12 to 15 send to each other within switch 3: no link
# above the leaves, no collision, their d-mod-k paths throughout. Leases
# long enough that only a daemon ends circuits, and an idle release (50
# cycles) no busy pair reaches while the fabric is stopped.
"$ftctl" fabric add sk kary 2 4 path scheduled period manual
for a in 0 1 2; do
	for b in 0 1 2; do [ $a != $b ] && echo "$((4 * a + b)) $((4 * b + a)) 2000"; done
done > "$tmp/transpose"
printf '12 13 1000\n13 12 1000\n14 15 1000\n15 14 1000\n' >> "$tmp/transpose"
total=$(awk '{ t += $3 } END { print t }' "$tmp/transpose")
# into15: what leaf 15's link from its switch carried (14's messages).
into15() { "$ftctl" link show sk level 1 | awk '$3 == 15 && $5 == "down" { print $8 }'; }
start sk --lease 1000000 --idle 50
started sk
"$ftctl" fabric inject sk file "$tmp/transpose"
"$ftctl" fabric step sk > /dev/null
until_t "$wait_s" '[ "$(ncircuits sk)" -ge 3 ]'
kill -KILL $pid; wait $pid 2>/dev/null; pid=
circuits sk | awk '{ print $1, $2, $4 }' | sort > "$tmp/killed"
into=$(into15)
"$ftctl" fabric step sk 100 > /dev/null
circuits sk | awk '{ print $1, $2, $4 }' | sort > "$tmp/still"
check "fattreed SIGKILLed: its circuits stay, default paths carry on with no daemon" \
	'[ "$(wc -l < "$tmp/killed")" -ge 3 ] && cmp -s "$tmp/killed" "$tmp/still" && [ "$(into15)" -ge $((into + 100)) ]' \
	"$(wc -l < "$tmp/killed") circuits, $(wc -l < "$tmp/still") after; into leaf 15: $into then $(into15); $(rounds_seen sk)"
# Nothing steps while the new daemon starts: every circuit is adopted,
# the same one (created in the same cycle), not deleted and granted anew.
rm -f "$tmp/sk.json"
start sk --lease 1000000 --idle 50
until_t "$wait_s" '[ "$(status sk rounds)" -ge 2 ]'
circuits sk | awk '{ print $1, $2, $4 }' | sort > "$tmp/adopted"
check "a restarted fattreed adopts the circuits in place" \
	'[ "$(status sk rounds)" -ge 2 ] && cmp -s "$tmp/still" "$tmp/adopted"' \
	"rounds $(status sk rounds); before: $(tr '\n' ';' < "$tmp/still") now: $(tr '\n' ';' < "$tmp/adopted")"
step_until sk '[ "$(fabric_stat sk synth_queued)" = 0 ] && [ "$(ncircuits sk)" = 0 ]'
check "and releases them once idle, nothing lost" \
	'[ "$(ncircuits sk)" = 0 ] && [ "$(fabric_stat sk synth_delivered)" = "$total" ] && [ "$(status sk released)" -ge "$(wc -l < "$tmp/adopted")" ]' \
	"delivered $(fabric_stat sk synth_delivered) of $total, released $(status sk released), circuits: $(circuits sk | head -3 | tr '\n' ';')"
stop
"$ftctl" fabric del sk
[ "$failed" = 0 ]
