#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Unmodified Open MPI programs on a fabric's leaves (TAP), through
# ftmpirun: an all-to-all and a ring over 16 leaves complete with every
# byte checked on a timed fabric of each path choice (dmodk, random, and
# circuit with fattreed granting the demand, TCP's handshake included);
# an all-to-all through the top of FT(3,4); a rank killed mid-run ends the job with an
# error, leaves no process or namespace behind, and the fabric carries the
# next job; bad command lines are refused before anything is touched.
# Each launch costs a minute or more under emulation (each rank and orted
# takes seconds of emulated CPU to start), so the cases share launches.
# Skips when Open MPI (openmpi-bin) or ftmpi_jobs (libopenmpi-dev) is
# missing.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/ft_lib.sh"
ftctl=$here/ftctl
run=$here/ftmpirun
jobs=$here/ftmpi_jobs
n=0 failed=0 dpid= t0=$(date +%s)

cleanup() {
	[ -n "$dpid" ] && kill -TERM "$dpid" 2>/dev/null && wait "$dpid" 2>/dev/null
	for f in m0 m1 m2 m3; do "$ftctl" fabric del "$f" 2>/dev/null; done
}
trap cleanup EXIT

echo "TAP version 13"
echo "1..15"
if ! command -v mpirun >/dev/null || [ ! -x "$jobs" ]; then
	for i in $(seq 1 15); do skip "MPI case $i" "no Open MPI (openmpi-bin, libopenmpi-dev)"; done
	exit 0
fi
[ -d /sys/module/fattree ] || insmod "$here/fattree.ko"
export PATH=$here:$PATH

# job FABRIC NP|LEAVES PATTERN BYTES ITERS...: ftmpirun's output and status
# in $out, $rc; a comma-separated list of leaves instead of NP runs a rank
# on each of them.
#
# Open MPI 4.1's runtime can report a rank as "exiting improperly" after
# it called MPI_Finalize, when the rank's exit reaches its orted before
# the finalize notice does (open-mpi/ompi#7833 and #9389, not fixed in
# 4.x; once in CI's 64-rank all-to-all). When that notice is all that went
# wrong, every job having reported its bytes right, the jobs run once more
# and the second run's result counts.
job() {
	local f=$1 sel=(-np "$2") try
	[[ $2 == *,* ]] && sel=(--leaves "$2")
	shift 2
	for try in 1 2; do
		rc=0
		out=$(timeout $((600 * scale)) "$run" --fabric "$f" "${sel[@]}" --ftctl "$ftctl" --keep -- \
			"$jobs" "$@" 2>&1) || rc=$?
		if [ "$rc" = 0 ] || [ $try = 2 ] || ! teardown_race; then
			break
		fi
		echo "# Open MPI reported a rank exiting improperly after its jobs completed" \
			"with every byte right (its teardown race): once more"
		until_t $((30 * scale)) mpi_gone
	done
}
# No rank and no orted running.
mpi_gone() { ! pgrep -x ftmpi_jobs >/dev/null && ! pgrep -x orted >/dev/null; }
teardown_race() {
	grep -q "exiting improperly" <<<"$out" && grep -q '^job ' <<<"$out" &&
		! grep '^job ' <<<"$out" | grep -qv ' errors 0$'
}
verified() { [ "$rc" = 0 ] && grep -q "^job $1 ranks $2 .* errors 0$" <<<"$out"; }
nsdel() { ip netns list | awk -v p="ftmpi-$1-" 'index($1, p) == 1 { print $1 }' |
	while read -r ns; do ip netns del "$ns"; done; }

out=$("$run" --fabric m0 -np 0 -- "$jobs" ring 8 1 2>&1); rc=$?
check "-np 0 refused (2), saying so" '[ $rc = 2 ] && grep -q "positive" <<<"$out"' "$rc: $out"
out=$("$run" --fabric nosuch -- "$jobs" ring 8 1 2>&1); rc=$?
check "a missing fabric is named (1)" '[ $rc = 1 ] && grep -q nosuch <<<"$out"' "$rc: $out"

# A rank killed mid-run: the job ends with an error, nothing stays, and
# the fabric's next job (the first of the path choices below) runs.
# Four ranks: the launch is most of the case's time, and Open MPI ends a
# job the same way whichever of its ranks dies.
"$ftctl" fabric add m0 kary 2 4 period 1ms path dmodk
job_bg() { timeout $((600 * scale)) "$run" --fabric m0 -np 4 --ftctl "$ftctl" -- "$jobs" ring 4096 100000 \
	> "$1" 2>&1; echo $? >> "$1.rc"; }
tmp=$(mktemp -d)
job_bg "$tmp/out" & bg=$!
until_t $((300 * scale)) '[ "$(pgrep -c -x ftmpi_jobs)" -ge 4 ]'
sleep 2
victim=$(pgrep -x ftmpi_jobs | tail -n 1)
kill -KILL "$victim"
wait $bg
rc=$(cat "$tmp/out.rc")
check "a rank killed mid-run ends the job with an error" '[ "$rc" != 0 ] && [ -n "$victim" ]' \
	"status $rc, victim $victim: $(tail -n 3 "$tmp/out")"
echo "# $(grep -m 1 -i "exited\|killed\|signal" "$tmp/out")"
until_t $((30 * scale)) mpi_gone
check "... and no rank or orted is left running" mpi_gone \
	"left: $(pgrep -a -x ftmpi_jobs; pgrep -a -x orted)"
left=$(ip netns list | grep -c "^ftmpi-m0-")
check "... and the namespaces it made are gone" '[ "$left" = 0 ]' "$left left"
rm -rf "$tmp"

for path in dmodk random; do
	f=m0
	[ $path = random ] && f=m1 && "$ftctl" fabric add $f kary 2 4 period 1ms path $path
	job $f 16 alltoall 1024 3 ring 16384 5 alltoall/4 2048 2
	[ $path = dmodk ] &&
		check "... and the fabric carries the next job" 'verified ring 16' "$rc: $out"
	check "alltoall over 16 leaves, path $path: every byte arrives" 'verified alltoall 16' "$rc: $out"
	check "ring over 16 leaves, path $path: every byte arrives" 'verified ring 16' "$rc: $out"
	check "alltoall among every 4th of 16 ranks, path $path: every byte arrives" \
		'verified alltoall/4 4' "$rc: $out"
	grep '^job' <<<"$out" | sed 's/^/# /'
	nsdel $f
done

# A circuit fabric: nothing moves until fattreed grants a pair's demand,
# each way (a TCP connection needs both).
"$ftctl" fabric add m2 kary 2 4 period 1ms path circuit
"$here/fattreed" --fabric m2 --lease 64 --idle 32 --log-level warning & dpid=$!
job m2 16 alltoall 1024 3 ring 16384 5
check "alltoall over 16 leaves, circuits by fattreed: every byte arrives" 'verified alltoall 16' \
	"$rc: $out"
check "ring over 16 leaves, circuits by fattreed: every byte arrives" 'verified ring 16' "$rc: $out"
grant=$("$ftctl" --json fabric show m2 | /usr/bin/python3 -c \
	'import json,sys; print(json.load(sys.stdin)[0]["stats"]["circuits"])')
echo "# circuit fabric: $grant circuits in place after the jobs"
kill -TERM $dpid; wait $dpid 2>/dev/null; dpid=
nsdel m2

"$ftctl" fabric del m0; "$ftctl" fabric del m1; "$ftctl" fabric del m2
# Three levels: one rank per edge switch of FT(3,4), so every byte crosses
# level 2 or the top. (64 ranks, one per leaf, take six minutes to start
# under emulation; make bench's MPI section runs them.)
"$ftctl" fabric add m3 kary 3 4 period 1ms path dmodk
job m3 "$(seq -s, 0 4 60)" alltoall 1024 2
check "alltoall among one leaf per edge switch of FT(3,4): every byte arrives" \
	'verified alltoall 16' "$rc: $out"
echo "# $(grep '^job' <<<"$out")"
nsdel m3
echo "# $failed of $n failed"
[ "$failed" = 0 ]
