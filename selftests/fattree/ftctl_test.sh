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
echo "1..8"
[ -d /sys/module/fattree ] || insmod "$top/fattree.ko"
check info_answers 0 "$ftctl" info
contains info_names_version "fattree $(cat /sys/module/fattree/version)" "$ftctl" info
contains json_is_json '"max_leaves": *[0-9]' "$ftctl" --json info
check help_succeeds 0 "$ftctl" --help
check unknown_command_is_usage_error 2 "$ftctl" frobnicate
check extra_argument_is_usage_error 2 "$ftctl" info extra
rmmod fattree
check missing_module_is_exit_3 3 "$ftctl" info
contains missing_module_explained "not loaded" "$ftctl" info
insmod "$top/fattree.ko"
[ "$failed" -eq 0 ]
