# SPDX-License-Identifier: GPL-2.0
# Shell helpers of the fattree selftests; source it after setting $ftctl.
# TAP counters: $n cases, $failed failures; $t0 the start (date +%s).

ok() { n=$((n + 1)); echo "ok $n $1 # $(( $(date +%s) - t0 )) s"; }
not_ok() { n=$((n + 1)); failed=$((failed + 1)); echo "not ok $n $1"; [ -n "$2" ] && echo "$2" | sed 's/^/# /'; }
# check NAME CONDITION [DIAGNOSTIC]: ok when CONDITION (evaluated) holds.
check() { if eval "$2"; then ok "$1"; else not_ok "$1" "$3"; fi; }
skip() { n=$((n + 1)); echo "ok $n $1 # SKIP $2"; }
# leaf_stat FABRIC INDEX KEY: one counter of one leaf.
leaf_stat() { "$ftctl" leaf show "$1" | awk -v i="$2" -v k="$3" 'NR == 1 { for (c = 1; c <= NF; c++) col[$c] = c; next } $1 == i { print $col[k] }'; }
# eth_stat DEV KEY: one of a leaf device's `ethtool -S` counters.
eth_stat() { ethtool -S "$1" | awk -v k="$2:" '$1 == k { print $2 }'; }
# until_t SECS CONDITION: poll CONDITION (a command line) until it holds
# or SECS seconds have passed; the status is the last try's.
until_t() {
	local end=$(( $(date +%s) + $1 ))
	shift
	until eval "$*"; do
		[ "$(date +%s)" -ge $end ] && return 1
		sleep 0.2
	done
}
