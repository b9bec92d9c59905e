#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Tracing switched on and off while the fabric works, as someone points
# trace-cmd or perf at a live fabric. Enabling or disabling an event
# rewrites its tracepoint's static branch (text_poke_bp()) in code that
# another CPU may be running at that moment: the fabric's cycle thread,
# the leaves' transmit path. Here
#  - every fattree event, the whole group and comm recording are toggled
#    in a loop while fttraffic runs on a timed fabric: every message must
#    arrive intact;
#  - fabrics are created, given circuits and packets, and deleted with
#    every event on: the trace stays readable and names them;
#  - the module is unloaded with its events on and traffic running, then
#    loaded again: its events are back, and off.
# A lockup or a kernel report on the way fails the whole run (ft-vm).
here=$(cd "$(dirname "$0")" && pwd)
. "$here/ft_lib.sh"
ftt=$here/fttraffic
tmp=$(mktemp -d)
tpid=

cleanup() {
	[ -n "$tpid" ] && kill -TERM "$tpid" 2>/dev/null && wait "$tpid"
	if [ -d $T/events/fattree ]; then
		echo 0 > $T/events/fattree/enable
	fi
	[ -f $T/options/record-cmd ] && echo 1 > $T/options/record-cmd
	[ -f $T/trace ] && echo > $T/trace
	for f in tl tx; do "$ftctl" fabric del $f 2>/dev/null; done
	rm -rf "$tmp"
}
trap cleanup EXIT

tap_begin_tracefs 6
echo 4096 > $T/buffer_size_kb
echo > $T/trace

# tfs FILE VALUE: write a tracefs switch
tfs() { echo "$2" > "$T/$1"; }
events=$(cd $T/events/fattree && echo fattree_*)
nevents=$(echo $events | wc -w)

# 1. Toggles under traffic: each event on and off, the group on and off,
# comm recording flipped (it hooks sched_switch, so the scheduler's code
# is patched too), for as long as a 6 s timed run lasts. The run sends
# 100 messages/s per source: far below what the fabric carries, so that
# a receiver the loop starves of CPU does not hold the fabric back for
# long (its receive queue's mark, rxhold_test.sh).
"$ftctl" fabric add tl kary 2 4 period 100us path dmodk || exit 1
"$ftt" --no-progress --json --duration 6 --rate 100 --timeout $((60 * scale)) tl uniform \
	> "$tmp/a.json" 2> "$tmp/a.err" &
tpid=$!
toggles=0 rounds=0 rc=1
while kill -0 $tpid 2>/dev/null; do
	for e in $events; do
		tfs events/fattree/$e/enable 1
		tfs events/fattree/$e/enable 0
	done
	tfs events/fattree/enable 1
	tfs options/record-cmd $((rounds % 2))
	tfs events/fattree/enable 0
	rounds=$((rounds + 1))
	toggles=$((toggles + 2 * nevents + 3))
done
wait $tpid; rc=$?; tpid=
tfs options/record-cmd 1
check "a timed run delivers every message intact while the events are switched ($toggles switches)" \
	'[ $rc = 0 ] && [ $rounds -ge 2 ]' "exit $rc: $(head -c 600 "$tmp/a.err")"
check "what was traced while on names the fabric" \
	'grep -q "fattree_[a-z]*:.*fabric=tl " $T/trace' "$(grep -c fattree_ $T/trace) fattree lines"
"$ftctl" fabric del tl

# 2. Fabrics come and go with every event on: each event copies what it
# prints, so the buffer outlives them.
echo > $T/trace
tfs events/fattree/enable 1
made=0
for i in 1 2 3 4 5 6 7 8; do
	"$ftctl" fabric add tx kary 2 4 period 1ms path circuit > /dev/null || break
	"$ftctl" circuit add tx 0 5 > /dev/null && "$ftctl" circuit add tx 1 6 > /dev/null &&
	"$ftctl" fabric inject tx 0 5 20 > /dev/null &&
	"$ftctl" fabric inject tx 2 7 20 > /dev/null || break
	sleep 0.0$i
	"$ftctl" fabric del tx || break
	made=$((made + 1))
done
tfs events/fattree/enable 0
check "eight fabrics made, used and deleted with every event on" \
	'[ $made = 8 ] && ! "$ftctl" fabric show tx > /dev/null 2>&1' "made $made"
cat $T/trace > "$tmp/trace"; crc=$?
check "the trace is readable after them and names them" \
	'[ $crc = 0 ] && grep -q "fattree_circuit:.*fabric=tx .*installed" "$tmp/trace" &&
	 grep -q "fattree_cycle:.*fabric=tx " "$tmp/trace"' \
	"cat: $crc; $(grep -c fattree_ "$tmp/trace") fattree lines: $(grep fattree_ "$tmp/trace" | head -3)"

# 3. The module unloaded with its events on, under traffic: the fabric
# goes with it, the traffic ends with an error, the events leave tracefs.
"$ftctl" fabric add tl kary 2 4 period 1ms path dmodk || exit 1
"$ftt" --no-progress --duration 900 --rate 100 --timeout 15 tl uniform \
	> /dev/null 2> "$tmp/b.err" &
tpid=$!
tfs events/fattree/enable 1
until_t $((60 * scale)) '[ "$(leaf_stat tl 0 sent)" -gt 20 ]'
flowing=$?
running=$(kill -0 $tpid 2>/dev/null && echo yes)
for _ in $(seq 1 50); do
	rmmod fattree 2>> "$tmp/rmmod.err" && break
	sleep 0.1
done
gone=no
[ ! -d /sys/module/fattree ] && gone=yes
until_t $((60 * scale)) '! kill -0 $tpid 2>/dev/null' || kill -KILL $tpid
wait $tpid; brc=$?; tpid=
check "rmmod with every event on and traffic running (sending: $running): unloaded, events gone, traffic ended" \
	'[ $flowing = 0 ] && [ "$running" = yes ] && [ $gone = yes ] && [ ! -d $T/events/fattree ] && [ $brc = 1 ] &&
	 cat $T/trace > /dev/null' \
	"leaf 0 sent $flowing (0: over 20), unloaded $gone, fttraffic exit $brc: $(tail -n 3 "$tmp/rmmod.err" "$tmp/b.err")"
load_module
check "loaded again: its events are back, every one off" \
	'[ "$(cat $T/events/fattree/enable)" = 0 ] &&
	 [ "$(cd $T/events/fattree && echo fattree_*)" = "$events" ]' \
	"enable: $(cat $T/events/fattree/enable 2>&1)"
echo "# $failed of $n failed"
[ $failed = 0 ]
