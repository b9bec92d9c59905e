#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# ftctl, the command-line tool: it answers, speaks JSON, explains bad
# command lines, and tells a missing module apart from other failures.
top=$(cd "$(dirname "$0")" && pwd)
ftctl=${FTCTL:-$top/ftctl}
n=0 failed=0
check() { # NAME EXPECTED_RC COMMAND...
	name=$1 want=$2
	shift 2
	out=$("$@" 2>&1)
	rc=$?
	n=$((n + 1))
	if [ "$rc" -eq "$want" ]; then
		echo "ok $n $name"
	else
		echo "not ok $n $name"
		echo "# exit $rc (expected $want): $out"
		failed=$((failed + 1))
	fi
}
contains() { # NAME PATTERN COMMAND...
	name=$1 pat=$2
	shift 2
	n=$((n + 1))
	if "$@" 2>&1 | grep -q -- "$pat"; then
		echo "ok $n $name"
	else
		echo "not ok $n $name"
		failed=$((failed + 1))
	fi
}

echo "TAP version 13"
echo "1..33"
[ -d /sys/module/fattree ] || insmod "$top/fattree.ko"
check info_answers 0 "$ftctl" info
contains info_names_version "fattree $(cat /sys/module/fattree/version)" "$ftctl" info
contains json_is_json '"max_leaves": *[0-9]' "$ftctl" --json info
check help_succeeds 0 "$ftctl" --help
check unknown_command_is_usage_error 2 "$ftctl" frobnicate
check extra_argument_is_usage_error 2 "$ftctl" info extra
# circuits and demand, on a manual circuit fabric (nothing moves unstepped)
tmp=$(mktemp -d)
"$ftctl" fabric add ftc kary 2 4 path circuit period manual
check circuit_add 0 "$ftctl" circuit add ftc 0 13
contains circuit_show_dmodk_ports '^ *0 *13 *1 0,1 ' "$ftctl" circuit show ftc
check circuit_add_twice_refused 1 "$ftctl" circuit add ftc 0 13
printf '# src dst [lanes [lease [ports]]]\n1 14\n2 15 1 100\n0 13\n' >"$tmp/rows"
contains circuit_refusal_names_line "$tmp/rows:4: circuit 0 -> 13" \
	"$ftctl" circuit add ftc file "$tmp/rows"
contains circuit_refused_batch_added_none "deleted 1 circuit, 0 installed" \
	"$ftctl" circuit del ftc 0 13
contains circuit_file_batch "added 3 circuits, 3 installed" \
	"$ftctl" circuit add ftc file "$tmp/rows"
contains circuit_json '"expires": 100' "$ftctl" --json circuit show ftc
contains circuit_del_all "deleted 3 circuits, 0 installed" "$ftctl" circuit del ftc all
contains circuit_none_left "no circuits" "$ftctl" circuit show ftc
"$ftctl" fabric inject ftc 0 13 5
"$ftctl" fabric step ftc 2 >/dev/null
contains demand_lists_pair '^ *0 *13 *5 *- *2$' "$ftctl" demand show ftc
contains demand_summary "1 pair in demand, backlog 5 messages, oldest waiting 2 cycles" \
	"$ftctl" demand show ftc
# A watcher subscribes some time after it starts: step until it has heard
# one (the pair stays in demand: no circuit), then it must exit by itself.
timeout 60 "$ftctl" demand watch ftc count 1 >"$tmp/watch" 2>&1 &
pid=$!
i=0
while kill -0 $pid 2>/dev/null && [ $i -lt 100 ]; do
	"$ftctl" fabric step ftc 1 >/dev/null
	sleep 0.2
	i=$((i + 1))
done
wait $pid
check demand_watch_count_exits_0 0 test $? -eq 0
contains demand_watch_notified "^ftc cycle [0-9]*: 1 pair in demand" cat "$tmp/watch"
# SIGTERM ends a watch with status 0 (here once it listens: it printed).
: >"$tmp/term"
"$ftctl" --json demand watch >"$tmp/term" 2>&1 &
pid=$!
i=0
while [ ! -s "$tmp/term" ] && [ $i -lt 100 ]; do
	"$ftctl" fabric step ftc 1 >/dev/null
	sleep 0.2
	i=$((i + 1))
done
kill -TERM $pid
wait $pid
check demand_watch_sigterm_exits_0 0 test $? -eq 0
contains demand_watch_json '^{"fabric":"ftc","cycle":' cat "$tmp/term"
# A leaf name taken by another device, past the first batch of leaves the
# module registers under one hold of rtnl: the creation fails whole, says
# why, and leaves no leaf behind (only the device that held the name).
ip link set ftc-l0 name ftx-l100
contains clash_refused_with_reason "name is taken" "$ftctl" fabric add ftx kary 4 4 period manual
check clash_leaves_no_leaf 0 test "$(ip -o link show | grep -c ': ftx-l')" -eq 1
check clash_leaves_no_fabric 1 "$ftctl" fabric show ftx
check clash_name_freed_creates 0 "$ftctl" fabric add ftx kary 2 4 period manual
"$ftctl" fabric del ftx
"$ftctl" fabric del ftc
rm -rf "$tmp"
# -batch: every line checked before any runs; the first failure stops
# the rest unless -force; the exit status is the first failure's.
b=$(mktemp)
printf 'fabric add bt1 kary 2 4 period 1.5ms  # a comment\n\nfabric add bt2 binary 4\n' > "$b"
check batch_runs_every_line 0 "$ftctl" -batch "$b"
check batch_made_both 0 sh -c "'$ftctl' fabric show bt1 && '$ftctl' fabric show bt2"
printf 'fabric del bt1\nfabric add bt2 binary 4\nfabric del bt2\n' > "$b"
check batch_stops_at_a_failure 1 "$ftctl" -batch "$b"
check batch_stopped_there 0 "$ftctl" fabric show bt2
printf 'fabric add bt3 binary 4\nfabric del nosuch\nfabric del bt2\nfabric del bt3\n' > "$b"
check batch_force_runs_on_and_fails 1 "$ftctl" -batch "$b" -force
printf 'fabric add bt4 binary 4\nfabric show bt4 levle\n' > "$b"
check batch_bad_line_runs_nothing 2 sh -c "'$ftctl' -batch '$b'; rc=\$?; ! '$ftctl' fabric show bt4 > /dev/null 2>&1 && exit \$rc"
rm -f "$b"

rmmod fattree
check missing_module_is_exit_3 3 "$ftctl" info
contains missing_module_explained "not loaded" "$ftctl" info
insmod "$top/fattree.ko"
[ "$failed" -eq 0 ]
