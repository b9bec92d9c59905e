#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Store-and-forward fabrics with real packets (TAP): fttraffic's batch
# mode sends a random permutation and a bit-reversal from one process per
# leaf through a manually stepped store-and-forward fabric of 8 leaves
# (FT(3,2), q 2): every message arrives intact and in order, and the
# counters show every edge queue within q; FIFO (a bit-reversal),
# farthest-first and the rank discipline without ghosts deliver too; a
# timed fabric whose pool fills (backlog 1) holds its senders back and
# loses nothing; bad q and mode combinations are refused with the
# kernel's explanation; deleting a fabric and unloading the module with
# packets inside is clean (the VM runner fails the run on any kernel
# warning).
here=$(cd "$(dirname "$0")" && pwd)
ftctl=$here/ftctl
ftt=$here/fttraffic
tmp=$(mktemp -d)
n=0 failed=0

t0=$(date +%s)
ok() { n=$((n + 1)); echo "ok $n $1 # $(( $(date +%s) - t0 )) s"; }
not_ok() { n=$((n + 1)); failed=$((failed + 1)); echo "not ok $n $1 # $(( $(date +%s) - t0 )) s"; [ -n "$2" ] && echo "$2" | sed 's/^/# /'; }
check() { if eval "$2"; then ok "$1"; else not_ok "$1" "$3"; fi; }
# jeval FILE... -- EXPR...: "True" or "False" per Python expression over
# the JSON documents f[0], f[1]... (one interpreter for them all: starting
# one is slow in the VM)
jeval() {
	/usr/bin/python3 -S -c '
import json, sys
a = sys.argv[1:]
k = a.index("--")
f = [json.load(open(p)) for p in a[:k]]
for e in a[k + 1:]:
    try:
        print(bool(eval(e)))
    except Exception as x:
        print("error")
        print("# " + e + ": " + repr(x), file=sys.stderr)' "$@"
}
cleanup() {
	for f in sp sf sg sx st bq; do "$ftctl" fabric del $f 2>/dev/null; done
	ip netns del sfa 2>/dev/null
	ip netns del sfb 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT

# intact(r): every message of a batch run arrived once, intact, in order
intact='(lambda r: r["received"] == r["messages"] > 0 and r["lost"] + r["corrupted"] + r["duplicated"] + r["reordered"] + r["misdirected"] == 0 and r["drained"])'
# within_q(s): the fabric's counters keep every queue within q
within_q='(lambda s: 1 <= s["qmax"] <= s["q"] and all(l["occupancy_max"] <= s["q"] for l in s["levels"]))'

echo "TAP version 13"
echo "1..22"
[ -d /sys/module/fattree ] || insmod "$here/fattree.ko"

# --- the random-rank discipline, ghosts on: permutation and bit-reversal ---
"$ftctl" fabric add sp kary 3 2 period manual mode saf q 2
"$ftt" --no-progress --json --count 4 --seed 11 sp permutation > "$tmp/perm.json" 2> "$tmp/perm.err"
rc1=$?
"$ftt" --no-progress --json --count 4 --seed 11 sp bit-reversal > "$tmp/bitrev.json" 2> "$tmp/bitrev.err"
rc2=$?
"$ftctl" --json fabric show sp > "$tmp/sp.json"
"$ftctl" fabric show sp > "$tmp/sp.txt"
m='(f[0]["messages"] + f[1]["messages"])'
r=($(jeval "$tmp/perm.json" "$tmp/bitrev.json" "$tmp/sp.json" -- \
	"$intact(f[0])" "$intact(f[1])" "$within_q(f[2][0][\"saf\"])" \
	"(lambda s: s['delivered'] == $m and s['hops'] == 6 * $m and s['batches'] >= 2 and s['ghosts'] and s['ghosts_sent'] > 0 and s['eos'] > 0 and s['stalls'] + s['rescues'] == 0 and s['batch']['done'] and s['batch']['t'] >= 7)(f[2][0]['saf'])" \
	"f[2][0]['stats']['queued'] == 0 and f[2][0]['stats']['delivered'] == $m and f[2][0]['mode'] == 'saf'"))
check "rank, q 2: a permutation arrives intact and in order" \
	'[ $rc1 = 0 ] && [ "${r[0]}" = True ]' "exit $rc1: $(cat "$tmp/perm.err" "$tmp/perm.json" | head -40)"
check "rank, q 2: a bit-reversal arrives intact and in order" \
	'[ $rc2 = 0 ] && [ "${r[1]}" = True ]' "exit $rc2: $(cat "$tmp/bitrev.err" "$tmp/bitrev.json" | head -40)"
check "rank, q 2: no edge queue ever held more than q (qmax, every level)" \
	'[ "${r[2]}" = True ]' "$(cat "$tmp/sp.json")"
check "rank, q 2: the counters add up (delivered, hops = 2h each, batches, ghosts, EOS, no stall)" \
	'[ "${r[3]}" = True ]' "$(cat "$tmp/sp.json")"
check "rank, q 2: the fabric counts its packets delivered and nothing queued" \
	'[ "${r[4]}" = True ]' "$(cat "$tmp/sp.json")"
check "ftctl fabric show names the mode, the batch and the levels' occupancy" \
	'grep -q "mode     store-and-forward  q 2  discipline rank  ghosts on" "$tmp/sp.txt" && grep -q "T/(c+L+lg N)" "$tmp/sp.txt" && grep -q "down 1" "$tmp/sp.txt"' \
	"$(cat "$tmp/sp.txt")"
sed 's/^/# /' "$tmp/sp.txt"

# --- FIFO, farthest-first, and ranks without ghosts ---
"$ftctl" fabric add sf kary 3 2 period manual mode saf q 2 discipline fifo
"$ftctl" fabric add sx kary 3 2 period manual mode saf q 3 discipline farthest path random
"$ftctl" fabric add sg kary 3 2 period manual mode saf q 1 ghosts off
for f in sf sx sg; do
	p=permutation
	[ $f = sf ] && p=bit-reversal
	"$ftt" --no-progress --json --count 4 --seed 5 $f $p > "$tmp/$f.json" 2> "$tmp/$f.err"
	rc=$?
	"$ftctl" --json fabric show $f > "$tmp/$f.show"
	r=($(jeval "$tmp/$f.json" "$tmp/$f.show" -- "$intact(f[0])" \
		"$within_q(f[1][0]['saf']) and (lambda s: s['stalls'] == 0 or (not s['ghosts'] and s['rescues'] > 0))(f[1][0]['saf'])"))
	check "$f ($("$ftctl" fabric show $f | sed -n 's/^  mode *//p')): a $p arrives intact and in order" \
		'[ $rc = 0 ] && [ "${r[0]}" = True ]' \
		"exit $rc: $(cat "$tmp/$f.err" "$tmp/$f.json" | head -40)"
	check "$f: no edge queue above q; a stall only without ghosts, and rescued" \
		'[ "${r[1]}" = True ]' "$(cat "$tmp/$f.show")"
done

# --- a timed fabric whose pool fills: back-pressure, no loss ---
"$ftctl" fabric add st kary 3 2 period 200us backlog 1 mode saf q 2
"$ftt" --no-progress --json --duration 2 st all-to-all > "$tmp/st.json" 2> "$tmp/st.err"
rc=$?
"$ftctl" --json fabric show st > "$tmp/st.show"
# (not "reordered": under back-pressure a timed run's io_uring sender
# retries refused sends out of order, on a delivery-cycle fabric as well)
r=($(jeval "$tmp/st.json" "$tmp/st.show" -- \
	"f[0]['lost'] + f[0]['duplicated'] + f[0]['corrupted'] + f[0]['misdirected'] == 0 and f[0]['received'] == f[0]['sent'] > 0" \
	"(lambda s: s['pool'] == 8 and s['pool_full'] > 0 and s['qmax'] <= 2)(f[1][0]['saf'])"))
check "timed, pool of 8: the senders are held back, nothing is lost" \
	'[ $rc = 0 ] && [ "${r[0]}" = True ]' "exit $rc: $(cat "$tmp/st.err" "$tmp/st.json" | head -30)"
check "timed, pool of 8: the pool filled and queues stayed within q" \
	'[ "${r[1]}" = True ]' "$(cat "$tmp/st.show")"

# --- refusals, with the kernel's own words ---
out=$("$ftctl" fabric add bq kary 3 2 mode saf q 0 2>&1); rc=$?
check "q 0 refused by the kernel, nothing created" \
	'[ $rc = 1 ] && echo "$out" | grep -q "q must be 1 to 64" && ! [ -e /sys/class/net/bq-l0 ]' "exit $rc: $out"
out=$("$ftctl" fabric add bq kary 3 2 mode saf q 65 2>&1); rc=$?
check "q 65 refused by the kernel" \
	'[ $rc = 1 ] && echo "$out" | grep -q "q must be 1 to 64" && ! [ -e /sys/class/net/bq-l0 ]' "exit $rc: $out"
out=$("$ftctl" fabric set sp path circuit 2>&1); rc=$?
check "the circuit path refused on a store-and-forward fabric" \
	'[ $rc = 1 ] && echo "$out" | grep -q "store-and-forward"' "exit $rc: $out"
out=$("$ftctl" circuit add sp 0 5 2>&1); rc=$?
check "circuits refused on a store-and-forward fabric" \
	'[ $rc = 1 ] && echo "$out" | grep -q "circuits do not apply"' "exit $rc: $out"
out=$("$ftctl" link fail sp id 0 2>&1); rc=$?
check "link failures refused on a store-and-forward fabric" \
	'[ $rc = 1 ] && echo "$out" | grep -q "link failures do not apply"' "exit $rc: $out"

# --- packets inside at deletion and at unload ---
# sf (FIFO: deliveries held for order) and sp (ranks), two leaves of each
# in two namespaces; UDP datagrams wait inside, a few steps along.
ip netns add sfa; ip netns add sfb
for f in sf:9 sp:8; do
	fab=${f%:*} net=${f#*:}
	ip link set $fab-l0 netns sfa; ip link set $fab-l7 netns sfb
	ip -n sfa addr add 10.$net.0.1/24 dev $fab-l0; ip -n sfa link set $fab-l0 up
	ip -n sfb addr add 10.$net.0.2/24 dev $fab-l7; ip -n sfb link set $fab-l7 up
done
ip netns exec sfa bash -c 'for i in 1 2 3 4 5 6; do echo x$i > /dev/udp/10.9.0.2/9; echo y$i > /dev/udp/10.8.0.2/9; done' 2>/dev/null
"$ftctl" fabric step sf 3 >/dev/null
"$ftctl" fabric step sp 3 >/dev/null
# queued N on the "stats" line of ftctl fabric show
queued() { "$ftctl" fabric show "$1" | sed -n 's/^  stats   queued \([0-9]*\) .*/\1/p'; }
qf=$(queued sf)
qp=$(queued sp)
check "datagrams wait inside stepped store-and-forward fabrics" '[ "$qf" -ge 1 ] && [ "$qp" -ge 1 ]' "queued: $qf, $qp"
"$ftctl" fabric del sf
check "deleting one with packets inside frees them; its leaves are gone" \
	'! ip -n sfa link show sf-l0 >/dev/null 2>&1 && ! [ -e /sys/class/net/sf-l1 ]' "$(ip -n sfa link)"
"$ftctl" fabric inject sg 1 2 5
"$ftctl" fabric step sg 2 >/dev/null
rmmod fattree
rc=$?
check "unloading the module with packets and messages inside works" \
	'[ $rc = 0 ] && ! [ -d /sys/module/fattree ]' "rmmod: $rc"
ip netns del sfa; ip netns del sfb

echo "# $failed of $n failed in $(( $(date +%s) - t0 )) s"
[ "$failed" = 0 ]
