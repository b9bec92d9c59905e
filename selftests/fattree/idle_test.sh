#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# An idle fabric on a timer: its cycle thread dozes instead of waking
# every period, the cycles still count at the configured rate, the first
# packet wakes it, and a traced fabric ticks every period again.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/ft_lib.sh"

fab=fd
cleanup() {
	"$ftctl" fabric del $fab 2>/dev/null
	ip netns del iA 2>/dev/null
	ip netns del iB 2>/dev/null
	[ -n "$T" ] && echo 0 > "$T/events/fattree/fattree_cycle/enable" 2>/dev/null
}
trap cleanup EXIT

tap_begin 6
cleanup

# cycle: the fabric's cycle counter
cycle() { "$ftctl" fabric show $fab | tr -s ' ' '\n' | awk '$0 == "cycle" { getline; print; exit }'; }
# wakes: the cycle thread's context switches so far
wakes() {
	awk '/^(non)?voluntary_ctxt_switches/ { s += $2 } END { print s }' "/proc/$tid/status"
}
now_ns() { date +%s%N; }

"$ftctl" fabric add $fab kary 2 4 period 1ms path dmodk || exit 1
tid=$(pgrep -x "fattree/$fab")
if [ -z "$tid" ]; then
	not_ok "the fabric has a cycle thread" "no task named fattree/$fab"
	exit 1
fi
sleep 0.5

# Before dozing a thread woke every period: 2,000 times in 2 s here.
w0=$(wakes)
sleep 2
w1=$(wakes)
check "an idle fabric's thread sleeps through its periods (woke $((w1 - w0)) times in 2 s)" \
	'[ $((w1 - w0)) -lt 100 ]' "woke $((w1 - w0)) times in 2 s at period 1ms"

# The count between two reads lies between the periods that surely
# passed between them and those that may have (each read brackets the
# moment it was taken); the thread may be up to a few periods behind
# when it is not dozing, so a little slack on both sides.
a0=$(now_ns); c0=$(cycle); b0=$(now_ns)
sleep 2
a1=$(now_ns); c1=$(cycle); b1=$(now_ns)
lo=$(( (a1 - b0) / 1000000 - 20 )) hi=$(( (b1 - a0) / 1000000 + 20 ))
d=$((c1 - c0))
check "its cycles still count at the configured rate ($d in $(( (a1 - b0) / 1000000 ))-$(( (b1 - a0) / 1000000 )) ms at 1ms)" \
	'[ $d -ge $lo ] && [ $d -le $hi ]' "cycles $c0 -> $c1: $d, expected $lo to $hi"

# The first packet wakes it: ping across the fabric, then it dozes again.
ip netns add iA; ip netns add iB
ip link set $fab-l0 netns iA; ip link set $fab-l15 netns iB
ip -n iA addr add 10.97.0.1/24 dev $fab-l0; ip -n iB addr add 10.97.0.2/24 dev $fab-l15
ip -n iA link set $fab-l0 up; ip -n iB link set $fab-l15 up
sleep 1
out=$(ip netns exec iA ping -c 3 -i 0.5 -w 10 10.97.0.2 2>&1)
check "a ping through the dozing fabric is answered" \
	'echo "$out" | grep -q " 3 received"' "$out"
sleep 0.5
w0=$(wakes)
sleep 2
w1=$(wakes)
check "after the traffic it dozes again (woke $((w1 - w0)) times in 2 s)" \
	'[ $((w1 - w0)) -lt 100 ]' "woke $((w1 - w0)) times in 2 s"

# Traced cycles are run one by one: the thread ticks every period.
T=/sys/kernel/tracing
[ -d $T/events ] || T=/sys/kernel/debug/tracing
if [ -w "$T/events/fattree/fattree_cycle/enable" ]; then
	echo 1 > "$T/events/fattree/fattree_cycle/enable"
	sleep 0.5
	w0=$(wakes); c0=$(cycle)
	sleep 2
	w1=$(wakes); c1=$(cycle)
	echo 0 > "$T/events/fattree/fattree_cycle/enable"
	check "with fattree_cycle traced the thread wakes for its cycles ($((w1 - w0)) times, $((c1 - c0)) cycles)" \
		'[ $((w1 - w0)) -ge 200 ]' "woke $((w1 - w0)) times in 2 s at period 1ms"
else
	skip "with fattree_cycle traced the thread wakes for its cycles" "no tracefs"
fi

"$ftctl" fabric del $fab
check "the dozing fabric's thread ends with it" '! kill -0 "$tid" 2>/dev/null' \
	"task $tid is still there"
exit $((failed > 0))
