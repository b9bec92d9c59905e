#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The limits of one host (issue 22, "a fabric across hosts, on paper"):
# for fabrics of 64 to 16384 leaves, what the engine costs per delivery
# cycle and per message, the cycle rate and messages/s that follow, what a
# fabric takes in memory and creation time, and what one scheduling round
# of fattreed puts on netlink. Figures only: nothing passes or fails.
#
#   host_limits.sh core [SIZES]        the engine core in userspace
#                                      (ftsim replay), wherever it runs
#   host_limits.sh kernel KO [SIZES]   inside the VM, as root: the module's
#                                      engine on the same sets, then the
#                                      core figures again in the same boot
#   host_limits.sh vm [SIZES]          boots the VM for "kernel" (ft-vm)
#   host_limits.sh timer               wake-up lateness of a periodic thread
# From the environment (vm passes them on to the guest): REPS (3) and
# REPS_GUEST (2), runs of each core figure, the best kept; IDLE (2000),
# idle cycles timed; MSGS (16), messages per pair; PROCS ("64 256"), the
# fabric sizes of the runs with real processes.
#
# Shapes: FT(2,K), K = sqrt(N) (64, 256, 1024, 4096, 16384 leaves: K = 8,
# 16, 32, 64, 128), one lane per link, path dmodk, arbitration random.
# Message set: a fixed random permutation without fixed points (awk,
# srand(1)), 16 messages per pair, as docs/results.md's engine-cost rows.
#
# core: "ftsim replay" runs exactly the cycles asked for; it is timed for
# 1 cycle (setup, rows, printing), for D cycles (D: the cycle the set
# drained in) and for D + IDLE cycles, so that per loaded cycle =
# (t_D - t_1) / (D - 1) and per idle cycle = (t_{D+IDLE} - t_D) / IDLE;
# best of REPS (default 3) for each.
# kernel: a manual fabric; creation time and MemAvailable taken; IDLE
# cycles stepped (cycle_ns per idle cycle from the counters); the set
# injected and stepped until drained with fttraffic --inject (cycle_ns and
# synth_delivered before and after); the fabric then free-running on a
# 1 us period for 2 s (cycles achieved per second, overruns); deletion
# time. Then real processes (fttraffic, a timed permutation, 3 s) at 64
# and 256 leaves, and one fattreed round on FT(3,16) with 4096 requests,
# its netlink bytes counted on an nlmon device.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
ftsim=$top/build/bin/ftsim
ftctl=$top/build/bin/ftctl
ftt=$top/build/bin/fttraffic
ftd=$top/build/bin/fattreed
REPS=${REPS:-3}
IDLE=${IDLE:-2000}
MSGS=${MSGS:-16}
mode=${1:-core}
shift || true
ko=
if [ "$mode" = kernel ]; then ko=${1:?kernel needs the module}; shift; fi
SIZES=${*:-64 256 1024 4096 16384}
work=${FTVM_OUT:-${TMPDIR:-/tmp}/host_limits.$$}
mkdir -p "$work"

usec() { local s=${1/./}; echo $((10#$s)); }
k_of() { local k=1; while [ $((k * k)) -lt "$1" ]; do k=$((k + 1)); done; echo $k; }
# perm N FILE: "src dst MSGS" rows, a fixed random permutation
perm() {
	awk -v n="$1" -v c="$MSGS" 'BEGIN { srand(1); for (i = 0; i < n; i++) p[i] = i;
		for (i = n - 1; i > 0; i--) { j = int(rand() * (i + 1)); t = p[i]; p[i] = p[j]; p[j] = t }
		do { f = 0; for (i = 0; i < n; i++) if (p[i] == i) {
			j = (i + 1) % n; t = p[i]; p[i] = p[j]; p[j] = t; f = 1 } } while (f)
		for (i = 0; i < n; i++) print i, p[i], c }' > "$2"
}
core() {
	local n k rows line d d0 lb ib l i r
	echo "# engine core in userspace: ftsim replay --timing, FT(2,K), permutation x $MSGS, dmodk"
	echo "# $(uname -r), $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg), best of $REPS"
	printf '%-7s %-10s %9s %7s %10s %10s %11s %12s %12s\n' leaves shape messages cycles \
		"ns/cycle" "ns/idle" "ns/message" "cycles/s" "messages/s"
	for n in $SIZES; do
		k=$(k_of "$n")
		rows=$work/perm.$n
		perm "$n" "$rows"
		# a first run finds D, the cycle the set drains in
		"$ftsim" replay --shape "kary:2:$k" --rows "$rows" --steps 100000 \
			> "$work/replay.out" || { echo "$n: replay failed"; continue; }
		read -r line < "$work/replay.out"
		d0=${line#*drained }; d0=${d0%% *}
		lb='' ib=''
		for ((r = 0; r < REPS; r++)); do
			"$ftsim" replay --timing --shape "kary:2:$k" --rows "$rows" \
				--steps $((d0 + IDLE)) > "$work/replay.out" || break
			read -r line < "$work/replay.out"
			[[ $line =~ loaded_ns\ ([0-9]+)\ idle_ns\ ([0-9]+) ]] || break
			l=${BASH_REMATCH[1]} i=${BASH_REMATCH[2]}
			[ -z "$lb" ] || [ "$l" -lt "$lb" ] && lb=$l
			[ -z "$ib" ] || [ "$i" -lt "$ib" ] && ib=$i
		done
		awk -v n="$n" -v k="$k" -v m=$((n * MSGS)) -v d="$d0" -v l="$lb" -v i="$ib" \
			-v idle="$IDLE" 'BEGIN { c = l / d;
			printf "%-7d %-10s %9d %7d %10.0f %10.0f %11.1f %12.0f %12.0f\n", n,
				"FT(2," k ")", m, d, c, i / idle, l / m, 1e9 / c, m * 1e9 / l }'
	done
}

# json FILE KEY: a number from ftctl's JSON, without another program
num() { local s; s=$(< "$1"); [[ $s =~ \"$2\":\ *([0-9]+) ]] && echo "${BASH_REMATCH[1]}"; }
memavail() { local k v _; while read -r k v _; do [ "$k" = MemAvailable: ] && echo "$v"; done < /proc/meminfo; }
# bytes and skbs the nlmon device saw (netlink both ways, this namespace)
nl_bytes() {
	local d=/sys/class/net/nlmon0/statistics
	echo "$(( $(< $d/rx_bytes) + $(< $d/tx_bytes) )) $(( $(< $d/rx_packets) + $(< $d/tx_packets) ))"
}

kernel() {
	local n k t0 t1 t2 t3 m0 m1 f=$work/show.json b a c0 c1 ns0 ns1 d0 d1 r0 r1 o1 bb
	insmod "$ko" max_leaves=16384 max_fabric_mb=8192 || { echo "insmod failed"; exit 1; }
	echo "# kernel engine: guest $(uname -r), $(nproc) vCPUs, $(memavail) kB available"
	printf '%-7s %-10s %9s %9s %9s %10s %8s %11s %11s %11s %10s %9s\n' leaves shape \
		"create s" "kB/leaf" "idle ns" "loaded ns" cycles "ns/message" "cycles/s" \
		"messages/s" "timer c/s" "delete s"
	for n in $SIZES; do
		k=$(k_of "$n")
		perm "$n" "$work/perm.$n"
		m0=$(memavail)
		t0=$EPOCHREALTIME
		"$ftctl" fabric add hl kary 2 "$k" period manual > /dev/null || { echo "$n: add failed"; continue; }
		t1=$EPOCHREALTIME
		m1=$(memavail)
		"$ftctl" --json fabric show hl > "$f"; ns0=$(num "$f" cycle_ns)
		"$ftctl" fabric step hl "$IDLE" > /dev/null
		"$ftctl" --json fabric show hl > "$f"; ns1=$(num "$f" cycle_ns)
		b=$work/before.$n a=$work/after.$n
		cp "$f" "$b"
		"$ftt" --no-progress --json --inject --file "$work/perm.$n" --timeout 600 \
			hl file > "$work/inject.$n.json" 2> "$work/inject.$n.err" ||
			echo "$n: inject: $(tail -n 1 "$work/inject.$n.err")"
		"$ftctl" --json fabric show hl > "$a"
		c0=$(num "$b" cycle) c1=$(num "$a" cycle)
		d0=$(num "$b" synth_delivered) d1=$(num "$a" synth_delivered)
		bb=$(( $(num "$a" cycle_ns) - $(num "$b" cycle_ns) ))
		"$ftctl" fabric set hl period 1us > /dev/null
		sleep 2
		"$ftctl" fabric set hl period manual > /dev/null 2>&1
		"$ftctl" --json fabric show hl > "$work/timed.$n.json"
		r1=$(num "$work/timed.$n.json" cycle) o1=$(num "$work/timed.$n.json" overruns)
		r0=$(num "$work/timed.$n.json" run_ns)
		t2=$EPOCHREALTIME
		"$ftctl" fabric del hl
		t3=$EPOCHREALTIME
		awk -v n="$n" -v k="$k" -v tc=$(( $(usec "$t1") - $(usec "$t0") )) \
			-v td=$(( $(usec "$t3") - $(usec "$t2") )) -v m0="$m0" -v m1="$m1" \
			-v idle=$(( (ns1 - ns0) / IDLE )) -v bb="$bb" -v c=$((c1 - c0)) \
			-v dl=$((d1 - d0)) -v r1="${r1:-0}" -v r0="${r0:-0}" -v c1="$c1" \
			'BEGIN { if (c < 1) c = 1; if (dl < 1) dl = 1; if (bb < 1) bb = 1;
			printf "%-7d %-10s %9.2f %9.1f %9d %10.0f %8d %11.0f %11.0f %11.0f %10s %9.2f\n",
				n, "FT(2," k ")", tc / 1e6, (m0 - m1) / n, idle, bb / c, c, bb / dl,
				1e9 * c / bb, 1e9 * dl / bb,
				(r0 > 0 ? sprintf("%.0f", 1e9 * (r1 - c1) / r0) : "-"), td / 1e6 }'
		echo "#   $n leaves: timed at 1 us: cycle $r1 after $r0 ns from cycle $c1, overruns $o1"
	done
}

procs() {
	local n k
	for n in ${PROCS:-64 256}; do
		# keep the boot short: 256 processes only with time to spare
		[ "$n" -gt 64 ] && [ $(( $(usec "$EPOCHREALTIME") - $(usec "$tstart") )) -gt 420000000 ] &&
			{ echo "procs $n: skipped for time"; continue; }
		k=$(k_of "$n")
		"$ftctl" fabric add hp kary 2 "$k" period 100us > /dev/null || continue
		"$ftt" --no-progress --json -v --duration 3 --max-procs 256 --timeout 300 \
			hp permutation > "$work/procs.$n.json" 2> "$work/procs.$n.err" ||
			echo "procs $n: $(tail -n 1 "$work/procs.$n.err")"
		"$ftctl" --json fabric show hp > "$work/procs.$n.show.json"
		"$ftctl" fabric del hp
		echo "procs $n done"
	done
}

round() {
	local b0 b1 p0 p1 x
	modprobe nlmon && ip link add nlmon0 type nlmon && ip link set nlmon0 up ||
		{ echo "round: no nlmon"; return; }
	"$ftctl" fabric add dr kary 3 16 path circuit period manual > /dev/null
	MSGS=1 perm 4096 "$work/perm.dr"
	"$ftctl" fabric inject dr file "$work/perm.dr" > /dev/null
	for x in "fabric show" "demand show" "link show" "circuit show"; do
		read -r b0 p0 <<< "$(nl_bytes)"
		"$ftctl" --json $x dr > "$work/round.${x// /_}.json"
		read -r b1 p1 <<< "$(nl_bytes)"
		echo "nl ftctl $x: bytes $((b1 - b0)) skbs $((p1 - p0))"
	done
	read -r b0 p0 <<< "$(nl_bytes)"
	"$ftd" --fabric dr --round-ms 60000 --status-file "$work/ftd.json" 2> "$work/ftd.err" &
	x=$!
	for ((i = 0; i < 600; i++)); do
		[ -s "$work/ftd.json" ] && break
		sleep 0.1
	done
	sleep 0.5
	kill $x; wait $x
	read -r b1 p1 <<< "$(nl_bytes)"
	echo "nl fattreed first round (with start-up): bytes $((b1 - b0)) skbs $((p1 - p0))"
	for x in "circuit show" "demand show"; do
		read -r b0 p0 <<< "$(nl_bytes)"
		"$ftctl" --json $x dr > "$work/round2.${x// /_}.json"
		read -r b1 p1 <<< "$(nl_bytes)"
		echo "nl ftctl $x after the round: bytes $((b1 - b0)) skbs $((p1 - p0))"
	done
	cat "$work/ftd.json" "$work/ftd.err"
	"$ftctl" fabric del dr
}

# timer: how late a userspace thread wakes for absolute CLOCK_MONOTONIC
# deadlines every 100 us and 1 ms (5 s each; Python adds its own few us):
# what a cycle thread on this host loses to wake-ups, against the period
timer() {
	/usr/bin/python3 - <<'PY'
import time
for period_us in (100, 1000):
    late = []
    t = time.clock_gettime_ns(time.CLOCK_MONOTONIC)
    end = t + 5_000_000_000
    while t < end:
        t += period_us * 1000
        while True:
            now = time.clock_gettime_ns(time.CLOCK_MONOTONIC)
            if now >= t:
                break
            time.sleep((t - now) / 1e9)
        late.append(now - t)
    late.sort()
    q = lambda f: late[min(len(late) - 1, int(f * len(late)))] / 1000
    print(f"timer period {period_us} us: {len(late)} wake-ups, late p50 {q(0.5):.1f} us"
          f" p99 {q(0.99):.1f} us p99.9 {q(0.999):.1f} us max {late[-1] / 1000:.1f} us")
PY
}

case $mode in
core) core ;;
timer) timer ;;
kernel)
	# the console reaches the host in blocks: a copy in the results share
	exec > >(exec tee -a "$work/host_limits.txt") 2>&1
	tstart=$EPOCHREALTIME
	kernel
	round
	REPS=${REPS_GUEST:-2} core
	procs
	echo "# guest run took $(( ($(usec "$EPOCHREALTIME") - $(usec "$tstart")) / 1000000 )) s"
	;;
vm)
	cd "$top" && exec nice -n 5 tools/vm/ft-vm --timeout 900 --mem 6144 --out build/vm/host_limits \
		-- env REPS_GUEST="${REPS_GUEST:-2}" IDLE="$IDLE" MSGS="$MSGS" PROCS="${PROCS:-64 256}" \
		tools/bench/host_limits.sh kernel "$top/kmod/fattree.ko" $SIZES
	;;
*) echo "usage: host_limits.sh core|kernel KO|vm [SIZES] | timer" >&2; exit 2 ;;
esac
