#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Store-and-forward fabrics with real packets (TAP): fttraffic's batch
# mode sends a random permutation and a bit-reversal from one process per
# leaf through a manually stepped store-and-forward fabric of 16 leaves
# (FT(2,4), q 2): every message arrives intact and in order, and the
# counters show every edge queue within q; FIFO, farthest-first and the
# rank discipline without ghosts deliver too; a timed fabric whose pool
# fills (backlog 1) holds its senders back and loses nothing; bad q and
# mode combinations are refused with the kernel's explanation; deleting a
# fabric and unloading the module with packets inside is clean (the VM
# runner fails the run on any kernel warning).
here=$(cd "$(dirname "$0")" && pwd)
ftctl=$here/ftctl
ftt=$here/fttraffic
tmp=$(mktemp -d)
n=0 failed=0

t0=$(date +%s)
ok() { n=$((n + 1)); echo "ok $n $1"; }
not_ok() { n=$((n + 1)); failed=$((failed + 1)); echo "not ok $n $1"; [ -n "$2" ] && echo "$2" | sed 's/^/# /'; }
check() { if eval "$2"; then ok "$1"; else not_ok "$1" "$3"; fi; }
# jget FILE EXPR: a Python expression over the JSON document f
jget() { /usr/bin/python3 -c "import json,sys; f=json.load(open(sys.argv[1])); print($2)" "$1"; }
cleanup() {
	for f in sp sf sg sx st bq; do "$ftctl" fabric del $f 2>/dev/null; done
	ip netns del sfa 2>/dev/null
	ip netns del sfb 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT

# intact FILE: every message of a batch run arrived once, intact, in order
intact='f["received"] == f["messages"] > 0 and f["lost"] + f["corrupted"] + f["duplicated"] + f["reordered"] + f["misdirected"] == 0 and f["drained"]'
# within_q FILE: the fabric's counters keep every queue within q
within_q='(lambda s: 1 <= s["qmax"] <= s["q"] and all(l["occupancy_max"] <= s["q"] for l in s["levels"]) and s["stalls"] == 0)(f[0]["saf"])'

echo "TAP version 13"
echo "1..22"
[ -d /sys/module/fattree ] || insmod "$here/fattree.ko"

# --- the random-rank discipline, ghosts on: permutation and bit-reversal ---
"$ftctl" fabric add sp kary 2 4 period manual mode saf q 2
for p in permutation bit-reversal; do
	"$ftt" --no-progress --json --count 4 --seed 11 sp $p > "$tmp/$p.json" 2> "$tmp/$p.err"
	rc=$?
	check "rank, q 2: a $p arrives intact and in order" \
		'[ $rc = 0 ] && [ "$(jget "$tmp/$p.json" "$intact")" = True ]' \
		"exit $rc: $(cat "$tmp/$p.err" "$tmp/$p.json" | head -40)"
done
msgs=$(( $(jget "$tmp/permutation.json" 'f["messages"]') + $(jget "$tmp/bit-reversal.json" 'f["messages"]') ))
"$ftctl" --json fabric show sp > "$tmp/sp.json"
check "rank, q 2: no edge queue ever held more than q (qmax, every level)" \
	'[ "$(jget "$tmp/sp.json" "$within_q")" = True ]' "$(cat "$tmp/sp.json")"
check "rank, q 2: the counters add up (delivered, hops = 2h each, batches, ghosts, EOS)" \
	'[ "$(jget "$tmp/sp.json" "(lambda s: s[\"delivered\"] == $msgs and s[\"hops\"] == 4 * $msgs and s[\"batches\"] >= 2 and s[\"ghosts\"] > 0 and s[\"eos\"] > 0 and s[\"batch\"][\"done\"] and s[\"batch\"][\"t\"] >= 5)(f[0][\"saf\"])")" = True ]' \
	"$(cat "$tmp/sp.json")"
check "rank, q 2: the fabric counts its packets delivered and nothing queued" \
	'[ "$(jget "$tmp/sp.json" "f[0][\"stats\"][\"queued\"] == 0 and f[0][\"stats\"][\"delivered\"] == $msgs and f[0][\"mode\"] == \"saf\"")" = True ]' \
	"$(cat "$tmp/sp.json")"
"$ftctl" fabric show sp > "$tmp/sp.txt"
check "ftctl fabric show names the mode, the batch and the levels' occupancy" \
	'grep -q "mode     store-and-forward  q 2  discipline rank  ghosts on" "$tmp/sp.txt" && grep -q "T/(c+L+lg N)" "$tmp/sp.txt" && grep -q "down 1" "$tmp/sp.txt"' \
	"$(cat "$tmp/sp.txt")"
sed 's/^/# /' "$tmp/sp.txt"

# --- FIFO, farthest-first, and ranks without ghosts ---
"$ftctl" fabric add sf kary 2 4 period manual mode saf q 2 discipline fifo
"$ftctl" fabric add sx kary 2 4 period manual mode saf q 3 discipline farthest path random
"$ftctl" fabric add sg kary 2 4 period manual mode saf q 1 ghosts off
for f in sf sx sg; do
	"$ftt" --no-progress --json --count 4 --seed 5 $f permutation > "$tmp/$f.json" 2> "$tmp/$f.err"
	rc=$?
	check "$f ($("$ftctl" fabric show $f | sed -n 's/^  mode *//p')): a permutation arrives intact and in order" \
		'[ $rc = 0 ] && [ "$(jget "$tmp/$f.json" "$intact")" = True ]' \
		"exit $rc: $(cat "$tmp/$f.err" "$tmp/$f.json" | head -40)"
	"$ftctl" --json fabric show $f > "$tmp/$f.show"
	check "$f: no edge queue above q" \
		'[ "$(jget "$tmp/$f.show" "(lambda s: 1 <= s[\"qmax\"] <= s[\"q\"] and all(l[\"occupancy_max\"] <= s[\"q\"] for l in s[\"levels\"]))(f[0][\"saf\"])")" = True ]' \
		"$(cat "$tmp/$f.show")"
done
"$ftt" --no-progress --json --count 4 --seed 5 sf bit-reversal > "$tmp/sf2.json" 2>&1
check "fifo: a bit-reversal arrives intact and in order" \
	'[ "$(jget "$tmp/sf2.json" "$intact")" = True ]' "$(head -40 "$tmp/sf2.json")"

# --- a timed fabric whose pool fills: back-pressure, no loss ---
"$ftctl" fabric add st kary 2 4 period 200us backlog 1 mode saf q 2
"$ftt" --no-progress --json --duration 2 st all-to-all > "$tmp/st.json" 2> "$tmp/st.err"
rc=$?
"$ftctl" --json fabric show st > "$tmp/st.show"
# (not "reordered": under back-pressure a timed run's io_uring sender
# retries refused sends out of order, on a delivery-cycle fabric as well)
check "timed, pool of 16: the senders are held back, nothing is lost" \
	'[ $rc = 0 ] && [ "$(jget "$tmp/st.json" "f[\"lost\"] + f[\"duplicated\"] + f[\"corrupted\"] + f[\"misdirected\"] == 0 and f[\"received\"] == f[\"sent\"] > 0")" = True ]' \
	"exit $rc: $(cat "$tmp/st.err" "$tmp/st.json" | head -30)"
check "timed, pool of 16: the pool filled and queues stayed within q" \
	'[ "$(jget "$tmp/st.show" "(lambda s: s[\"pool\"] == 16 and s[\"pool_full\"] > 0 and s[\"qmax\"] <= 2)(f[0][\"saf\"])")" = True ]' \
	"$(cat "$tmp/st.show")"

# --- refusals, with the kernel's own words ---
out=$("$ftctl" fabric add bq kary 2 4 mode saf q 0 2>&1); rc=$?
check "q 0 refused by the kernel, nothing created" \
	'[ $rc = 1 ] && echo "$out" | grep -q "q must be 1 to 64" && ! [ -e /sys/class/net/bq-l0 ]' "exit $rc: $out"
out=$("$ftctl" fabric add bq kary 2 4 mode saf q 65 2>&1); rc=$?
check "q 65 refused by the kernel" \
	'[ $rc = 1 ] && echo "$out" | grep -q "q must be 1 to 64" && ! [ -e /sys/class/net/bq-l0 ]' "exit $rc: $out"
out=$("$ftctl" fabric set sp path circuit 2>&1); rc=$?
check "the circuit path refused on a store-and-forward fabric" \
	'[ $rc = 1 ] && echo "$out" | grep -q "store-and-forward"' "exit $rc: $out"
out=$("$ftctl" circuit add sp 0 5 2>&1); rc=$?
check "circuits refused on a store-and-forward fabric" \
	'[ $rc = 1 ] && echo "$out" | grep -q "circuits do not apply"' "exit $rc: $out"

# --- packets inside at deletion and at unload ---
# sf (FIFO: deliveries held for order) and sp (ranks), two leaves of each
# in two namespaces; UDP datagrams wait inside, a few steps along.
ip netns add sfa; ip netns add sfb
for f in sf:9 sp:8; do
	fab=${f%:*} net=${f#*:}
	ip link set $fab-l0 netns sfa; ip link set $fab-l9 netns sfb
	ip -n sfa addr add 10.$net.0.1/24 dev $fab-l0; ip -n sfa link set $fab-l0 up
	ip -n sfb addr add 10.$net.0.2/24 dev $fab-l9; ip -n sfb link set $fab-l9 up
done
ip netns exec sfa bash -c 'for i in 1 2 3 4 5 6; do echo x$i > /dev/udp/10.9.0.2/9; echo y$i > /dev/udp/10.8.0.2/9; done' 2>/dev/null
"$ftctl" fabric step sf 3 >/dev/null
"$ftctl" fabric step sp 3 >/dev/null
qf=$("$ftctl" --json fabric show sf | /usr/bin/python3 -c "import json,sys; print(json.load(sys.stdin)[0]['stats']['queued'])")
qp=$("$ftctl" --json fabric show sp | /usr/bin/python3 -c "import json,sys; print(json.load(sys.stdin)[0]['stats']['queued'])")
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
