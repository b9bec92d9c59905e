#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The fattree tracepoints through tracefs: every event is there, and a
# known run's events add up to the fabric's counters. A many-to-one set
# (fttraffic, 15 sources x 4 packets into one lane) on a manual fabric:
# one fattree_queue and one fattree_deliver per packet, one
# fattree_blocked per refused offer (the fabric's blocked), one
# fattree_cycle per cycle run, their offered adding up to the fabric's.
# Then packets to a MAC of no leaf (fattree_drop, cause noroute, against
# drop_noroute), circuits installed, expired, cut and deleted
# (fattree_circuit), a link failed and restored (fattree_link), and
# demand announced to a listener (fattree_demand). Last, idle cycles,
# which skip the engine core on an untraced fabric, leave the same
# history as when fattree_cycle is traced and each one runs the core.
top=$(cd "$(dirname "$0")" && pwd)
ftt=$top/fttraffic
. "$top/ft_lib.sh"
tap_begin_tracefs 14
trap 'echo 0 > $T/events/fattree/enable; echo > $T/trace
      for f in tr tc tq1 tq2; do "$ftctl" fabric del $f 2>/dev/null; done' EXIT

events="queue blocked deliver drop cycle circuit demand link"
missing=
for e in $events; do [ -f $T/events/fattree/fattree_$e/format ] || missing="$missing $e"; done
check "tracefs lists the eight events" '[ -z "$missing" ]' "missing:$missing"

# count EVENT: lines of fattree_EVENT in the trace buffer
count() { grep -c "fattree_$1:" $T/trace; }
# total EVENT FIELD: FIELD added over the fattree_EVENT lines
total() { sed -n "s/.*fattree_$1:.* $2=\([0-9]*\).*/\1/p" $T/trace | awk '{ s += $1 } END { print s + 0 }'; }
# stat FABRIC KEY: a number of ftctl --json fabric show (the first KEY)
stat() { "$ftctl" --json fabric show $1 | sed -n "s/^ *\"$2\":\([0-9]*\).*/\1/p" | head -1; }
start() { echo 0 > $T/events/fattree/enable; echo > $T/trace; echo 1 > $T/events/fattree/enable; }

echo 16384 > $T/buffer_size_kb
"$ftctl" fabric add tr kary 2 4 period manual path dmodk
start
"$ftt" --no-progress -n 4 tr many-to-one > /dev/null 2>&1
echo 0 > $T/events/fattree/enable
q=$(count queue) d=$(count deliver) b=$(count blocked) c=$(count cycle)
echo "# events: queue $q deliver $d blocked $b cycle $c; fabric: delivered $(stat tr delivered) blocked $(stat tr blocked) offered $(stat tr offered) cycle $(stat tr cycle)"
check "one fattree_queue per packet sent (60)" '[ "$q" = 60 ]'
check "one fattree_deliver per packet delivered" '[ "$d" = "$(stat tr delivered)" ] && [ "$d" = 60 ]'
check "one fattree_blocked per refused offer (the fabric's blocked)" \
	'[ "$b" = "$(stat tr blocked)" ] && [ "$b" -gt 0 ]'
check "one fattree_cycle per cycle run, offered adding up to the fabric's" \
	'[ "$c" = "$(stat tr cycle)" ] && [ "$(total cycle offered)" = "$(stat tr offered)" ]' \
	"offered in events $(total cycle offered)"
check "waits add up: each delivery waited at least one cycle" \
	'[ "$(total deliver waited)" -ge 60 ] && ! grep -q "fattree_deliver:.* waited=0 " $T/trace'

# Packets to a MAC no leaf has: dropped at their source, counted.
ip addr add 10.213.0.1/24 dev tr-l1 && ip link set tr-l1 up
ip neigh replace 10.213.0.2 lladdr 02:ff:ff:00:00:09 dev tr-l1 nud permanent
start
ping -c 3 -i 0.2 -W 1 10.213.0.2 > /dev/null 2>&1
echo 0 > $T/events/fattree/enable
check "fattree_drop cause=noroute adds up to drop_noroute (3)" \
	'[ "$(total drop count)" = 3 ] && [ "$(eth_stat tr-l1 drop_noroute)" = 3 ] &&
	 [ "$(grep -c "fattree_drop:.*leaf=1 cause=noroute count=1" $T/trace)" = 3 ]' \
	"$(grep fattree_drop: $T/trace | head -3)"

# Circuits: 0->5 with a lease of 2 cycles expires, 1->6 is cut by a
# failed link on its path, 2->7 is deleted.
"$ftctl" fabric add tc kary 2 4 period manual path circuit
start
{ "$ftctl" circuit add tc 0 5 lease 2 && "$ftctl" circuit add tc 1 6 && "$ftctl" circuit add tc 2 7; } > /dev/null
"$ftctl" fabric step tc 3 > /dev/null
"$ftctl" link fail tc level 1 node 1 port 0 up > /dev/null
"$ftctl" circuit del tc 2 7 > /dev/null
"$ftctl" link restore tc level 1 node 1 port 0 up > /dev/null
echo 0 > $T/events/fattree/enable
check "fattree_circuit: three installed, one expired, one cut, one deleted" \
	'[ "$(grep -c "fattree_circuit:.* installed" $T/trace)" = 3 ] &&
	 grep -q "fattree_circuit:.*src=0 dst=5 lanes=1 expired" $T/trace &&
	 grep -q "fattree_circuit:.*src=1 dst=6 lanes=1 cut" $T/trace &&
	 grep -q "fattree_circuit:.*src=2 dst=7 lanes=1 deleted" $T/trace &&
	 [ "$(count circuit)" = 6 ]' "$(grep fattree_circuit: $T/trace)"
check "fattree_link: the link failed, then restored" \
	'[ "$(count link)" = 2 ] && grep -q "fattree_link:.* failed" $T/trace &&
	 grep -q "fattree_link:.* restored" $T/trace' "$(grep fattree_link: $T/trace)"

# Demand: announced only to a listener.
start
"$ftctl" fabric inject tc 3 4 5 > /dev/null
"$ftctl" fabric step tc 1 > /dev/null
check "no listener, no fattree_demand" '[ "$(count demand)" = 0 ]'
"$ftctl" demand watch tc count 1 > /dev/null 2>&1 &
w=$!
until_t 20 '"$ftctl" fabric step tc 1 > /dev/null; [ "$(count demand)" -gt 0 ]'
kill $w 2>/dev/null; wait $w 2>/dev/null
check "a listener: fattree_demand announces the pair in demand" \
	'grep -q "fattree_demand:.* pairs=1 last=1" $T/trace' "$(grep fattree_demand: $T/trace | head -3)"
echo 0 > $T/events/fattree/enable
check "the events are off again: a run adds none" \
	'echo > $T/trace; "$ftctl" fabric step tr 5 > /dev/null; [ "$(count cycle)" = 0 ]'

# hist FABRIC: create it, step it idle, with messages and idle again (the
# random choices of one seed each time), and print its cycle and
# counters, then its busy links.
hist() {
	"$ftctl" fabric add $1 kary 2 4 period manual path random injection random \
		arbitration random seed 7 > /dev/null
	"$ftctl" fabric step $1 5 > /dev/null
	for m in "0 5 6" "1 5 4" "2 9 5"; do "$ftctl" fabric inject $1 $m > /dev/null; done
	"$ftctl" fabric step $1 1000 > /dev/null
	for m in "3 12 7" "0 12 3"; do "$ftctl" fabric inject $1 $m > /dev/null; done
	"$ftctl" fabric step $1 1000 > /dev/null
	"$ftctl" --json fabric show $1 |
		grep -E '"(cycle|offered|delivered|blocked|drained_cycle|synth_delivered)":'
	"$ftctl" link show $1 busy
	"$ftctl" fabric del $1
}
quiet=$(hist tq1)
echo > $T/trace
echo 1 > $T/events/fattree/fattree_cycle/enable
traced=$(hist tq2)
c=$(count cycle)
echo 0 > $T/events/fattree/fattree_cycle/enable
check "idle cycles skipping the core: the cycle is the steps asked for (2005)" \
	'echo "$quiet" | grep -q "\"cycle\":2005," && [ "$c" = 2005 ]' "cycle events $c; $quiet"
check "untraced (idle cycles skip the core) and traced (each runs it) end alike" \
	'[ "$quiet" = "$traced" ] && echo "$quiet" | grep -q "\"synth_delivered\":25"' \
	"untraced: $quiet; traced: $traced"
echo "# $failed of $n failed"
[ $failed = 0 ]
