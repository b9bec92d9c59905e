#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The tracing recipes of fattree(4) and docs/usage.md, run as written there, over
# a known run (fttraffic, 15 sources x 4 packets to leaf 0 on a manual
# fabric: 60 packets delivered): perf stat counts the events, bpftrace
# draws the latency histogram per pair and the top blocked links,
# trace-cmd records and reports. Each tool that is missing or cannot run
# in this kernel is skipped with the reason.
top=$(cd "$(dirname "$0")" && pwd)
ftt=$top/fttraffic
. "$top/ft_lib.sh"
tmp=$(mktemp -d)
tap_begin 5
[ -d /sys/kernel/tracing/events ] || mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null
[ -d /sys/kernel/debug/tracing ] || mount -t debugfs nodev /sys/kernel/debug 2>/dev/null
trap '"$ftctl" fabric del rc 2>/dev/null; rm -rf "$tmp"' EXIT
"$ftctl" fabric add rc kary 2 4 period manual path dmodk || exit 1
# The known run, again and again on the same fabric.
run="$ftt --no-progress -n 4 rc many-to-one"
# usable TOOL PROBE...: the tool is there and PROBE runs; else the reason
usable() {
	tool=$1
	shift
	if ! command -v "$tool" > /dev/null; then
		why="$tool is not installed (install-deps check installs it)"
		return 1
	fi
	"$@" > "$tmp/probe" 2>&1 && return 0
	# The tool's own first error line says why; else its last line.
	why=$(grep -m1 -i "error" "$tmp/probe" || tail -1 "$tmp/probe")
	[ "$tool" = bpftrace ] && [ ! -d /sys/fs/bpf ] && ! grep -qw bpf /proc/filesystems &&
		why="this kernel has no BPF (CONFIG_BPF_SYSCALL); $why"
	why="$tool cannot run here: $why"
	return 1
}
# show FILE: a tool's output as TAP diagnostics
show() { sed 's/^/# /' "$1"; }

# perf stat -e 'fattree:*' -a -- CMD
if usable perf perf stat -e fattree:fattree_cycle -a -- true; then
	perf stat -e 'fattree:*' -a -- $run > /dev/null 2> "$tmp/perf"
	show "$tmp/perf"
	check "perf stat -e 'fattree:*': 60 fattree_deliver, 60 fattree_queue" \
		'grep -Eq "^ *60 +fattree:fattree_deliver" "$tmp/perf" &&
		 grep -Eq "^ *60 +fattree:fattree_queue" "$tmp/perf"'
else
	skip "perf stat -e 'fattree:*'" "$why"
fi

# bpftrace: a latency histogram in cycles per pair, the top blocked links
if usable bpftrace bpftrace -e 'tracepoint:fattree:fattree_cycle { exit(); } BEGIN { exit(); }'; then
	bpftrace -e 'tracepoint:fattree:fattree_deliver { @cycles[args->src, args->dst] = hist(args->waited); }' \
		-c "$run" > "$tmp/hist" 2>&1
	show "$tmp/hist"
	check "bpftrace: a latency histogram per pair (15 pairs into leaf 0)" \
		'[ "$(grep -c "^@cycles\[[0-9]*, 0\]:" "$tmp/hist")" = 15 ]'
	bpftrace -e 'tracepoint:fattree:fattree_blocked /args->link >= 0/ { @blocked[args->link] = count(); }
		     END { print(@blocked, 5); clear(@blocked); }' -c "$run" > "$tmp/top" 2>&1
	show "$tmp/top"
	check "bpftrace: the top blocked links" \
		'[ "$(grep -c "^@blocked\[[0-9]*\]: [0-9]*" "$tmp/top")" = 5 ]'
else
	skip "bpftrace: a latency histogram per pair" "$why"
	skip "bpftrace: the top blocked links" "$why"
fi

# trace-cmd record -e fattree -- CMD; trace-cmd report
if usable trace-cmd trace-cmd list -e fattree; then
	(cd "$tmp" && trace-cmd record -q -e fattree -o "$tmp/trace.dat" $run > /dev/null 2>&1)
	trace-cmd report -i "$tmp/trace.dat" > "$tmp/report" 2>/dev/null
	head -5 "$tmp/report" | show /dev/stdin
	check "trace-cmd record -e fattree, then report: 60 deliveries" \
		'[ "$(grep -c "fattree_deliver:" "$tmp/report")" = 60 ]' \
		"$(grep -c "fattree_deliver:" "$tmp/report") deliveries"
	check "... and 60 queued, with each delivery's wait" \
		'[ "$(grep -c "fattree_queue:" "$tmp/report")" = 60 ] &&
		 grep -q "fattree_deliver:.* waited=[1-9]" "$tmp/report"'
else
	skip "trace-cmd record -e fattree, then report" "$why"
	skip "... and 60 queued" "$why"
fi
echo "# $failed of $n failed"
[ $failed = 0 ]
