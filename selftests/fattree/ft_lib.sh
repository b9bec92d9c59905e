# SPDX-License-Identifier: GPL-2.0
# Shell helpers of the fattree selftests, and the start they share.
# Sourcing it sets the TAP counters ($n cases, $failed failures), $t0 the
# start (date +%s) unless the script set it, $scale (FT_TIMEOUT_SCALE, the
# factor a slow machine stretches timeouts by), $ft_dir (the collection's
# directory: the module and the programs) and $ftctl unless the script
# set it (FTCTL, else the collection's).
n=0 failed=0
t0=${t0:-$(date +%s)}
scale=${FT_TIMEOUT_SCALE:-1}
ft_dir=$(cd "$(dirname "$0")" && pwd)
ftctl=${ftctl:-${FTCTL:-$ft_dir/ftctl}}

# neigh_pin NS DEV ADDR PEER_NS PEER_DEV: ADDR is a permanent neighbour of
# DEV in NS at PEER_DEV's address, so a stream's first packets do not wait
# for ARP (on a loaded guest the reply can come after the sender has
# overflowed the queue of unresolved packets, and packets sent as it lands
# can pass those flushed from that queue: the stack's doing, not the
# fabric's).
neigh_pin() {
	ip -n "$1" neigh replace "$3" dev "$2" nud permanent \
		lladdr "$(ip netns exec "$4" cat "/sys/class/net/$5/address")"
}

# load_module: the module under test, unless it is in already; a test
# without it stops.
load_module() { [ -d /sys/module/fattree ] || insmod "$ft_dir/fattree.ko" || exit 1; }
# tap_begin PLAN: the TAP header and plan, then the module.
tap_begin() {
	echo "TAP version 13"
	echo "1..$1"
	load_module
}
# tap_begin_tracefs PLAN: tap_begin with tracefs at $T (set here),
# mounted if need be; without tracefs the whole program is skipped.
tap_begin_tracefs() {
	T=/sys/kernel/tracing
	[ -d $T/events ] || mount -t tracefs nodev $T 2>/dev/null
	if [ ! -d $T/events ]; then
		printf 'TAP version 13\n1..0 # SKIP no tracefs at %s\n' "$T"
		exit 4
	fi
	tap_begin "$1"
}

ok() { n=$((n + 1)); echo "ok $n $1 # $(( $(date +%s) - t0 )) s"; }
not_ok() { n=$((n + 1)); failed=$((failed + 1)); echo "not ok $n $1"; [ -n "$2" ] && echo "$2" | sed 's/^/# /'; }
# check NAME CONDITION [DIAGNOSTIC]: ok when CONDITION (evaluated) holds.
check() { if eval "$2"; then ok "$1"; else not_ok "$1" "$3"; fi; }
skip() { n=$((n + 1)); echo "ok $n $1 # SKIP $2"; }
# leaf_stat FABRIC INDEX KEY: one counter of one leaf.
leaf_stat() { "$ftctl" leaf show "$1" | awk -v i="$2" -v k="$3" 'NR == 1 { for (c = 1; c <= NF; c++) col[$c] = c; next } $1 == i { print $col[k] }'; }
# eth_stat DEV KEY: one of a leaf device's `ethtool -S` counters.
eth_stat() { ethtool -S "$1" | awk -v k="$2:" '$1 == k { print $2 }'; }
# ns_eth_stat NS DEV KEY: eth_stat of a leaf in network namespace NS.
ns_eth_stat() { ip netns exec "$1" ethtool -S "$2" | awk -v k="$3:" '$1 == k { print $2 }'; }
# ns_link_stat NS DEV NAME: a device's ip -s link counter in namespace NS
# (/sys/class/net/DEV/statistics/NAME: tx_dropped, rx_bytes, multicast...).
ns_link_stat() { ip netns exec "$1" cat "/sys/class/net/$2/statistics/$3"; }
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
