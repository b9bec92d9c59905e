#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Mininet (Debian's mininet package) over a fabric, no Open vSwitch: mn
# --custom fattree_mininet.py --topo fattree,2,2 pings all pairs; then
# Mininet's Python API on FT(2,3) (mininet_test.py) pings all pairs and
# measures one TCP flow across the tree against the path's capacity. The
# flow must not beat the capacity (the fabric would be leaking lanes);
# how close it comes is a figure, printed. Each fabric is gone once its
# Mininet process ends.
top=$(cd "$(dirname "$0")" && pwd)
ftctl=$top/ftctl
. "$top/ft_lib.sh"
echo "TAP version 13"
if ! command -v mn > /dev/null || ! python3 -c 'import mininet' 2>/dev/null; then
	echo "1..0 # SKIP Mininet is not installed (install-deps check installs mininet)"
	exit 4
fi
echo "1..6"
load_module
export FTCTL="$ftctl"
out=$(mktemp)
trap 'rm -f "$out"; mn -c > /dev/null 2>&1' EXIT
cd /tmp || exit 1

timeout 600 mn --custom "$top/fattree_mininet.py" --topo fattree,2,2,1ms,mn \
	--host fattree --controller none --test pingall > "$out" 2>&1
check "mn --custom --topo fattree,2,2 --test pingall: 0% dropped (12/12)" \
	'grep -q "Results: 0% dropped (12/12 received)" "$out"' "$(tail -5 "$out")"
check "... and the fabric is gone with mn" '! "$ftctl" fabric show mn > /dev/null 2>&1'

PYTHONDONTWRITEBYTECODE=1 timeout 900 python3 "$top/mininet_test.py" > "$out" 2>&1
loss=$(sed -n 's/^loss //p' "$out")
set -- $(sed -n 's/^tcp \([0-9.]*\) capacity \([0-9.]*\)$/\1 \2/p' "$out")
tcp=${1:-0} cap=${2:-0}
echo "# one TCP flow h1 -> h9 across FT(2,3) at period 1ms: $tcp Mbit/s of $cap Mbit/s" \
	"($(echo "$tcp $cap" | awk '{ printf "%.1f", $2 ? 100 * $1 / $2 : 0 }') %)"
check "Mininet's API on FT(2,3): pingAll loses nothing" '[ "$loss" = 0.0 ] || [ "$loss" = 0 ]' \
	"$(tail -5 "$out")"
check "... a TCP flow across the tree moves data" \
	'awk -v t="$tcp" "BEGIN { exit !(t > 0) }"' "$(tail -5 "$out")"
check "... and never beats the path's configured capacity" \
	'awk -v t="$tcp" -v c="$cap" "BEGIN { exit !(c > 0 && t <= 1.02 * c) }"'
check "... and that fabric is gone with the process" '! "$ftctl" fabric show mt > /dev/null 2>&1'
echo "# $failed of $n failed"
[ $failed = 0 ]
