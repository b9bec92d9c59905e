# SPDX-License-Identifier: GPL-2.0
# Bash helpers of the fattree selftests (and tools/bench/saf_hold.sh)
# that measure how long a reader waits for a fabric's lock. Apart from
# ft_lib.sh, which sh scripts source too.

# lock_reader FILE CONTROL STOP: read FILE, then CONTROL, every 5 ms
# until STOP exists, then print the longest read of each in ms. FILE is a
# leaf's sysfs statistic, which ndo_get_stats64 reads under the fabric's
# lock: pinned to a CPU of its own, a read that finds the lock taken
# spins for it, so its time is its wait for the lock. CONTROL is a sysfs
# file read without it (the leaf's mtu): what it waits is the guest's
# own stalls (under emulation on a busy host the whole guest stops now
# and then), which FILE's reads meet as well. Bash's own read, no fork;
# the pause is a read that times out on a pipe nobody writes (reading
# flat out would hog its vCPU under TCG, where the vCPUs take turns on
# one host thread).
lock_reader() {
	local worst=0 wctl=0 a b c x nap
	exec {nap}<> <(:)
	while [ ! -e "$3" ]; do
		a=${EPOCHREALTIME/./}
		read -r x < "$1" || return 1
		b=${EPOCHREALTIME/./}
		read -r x < "$2" || return 1
		c=${EPOCHREALTIME/./}
		((b - a > worst)) && worst=$((b - a))
		((c - b > wctl)) && wctl=$((c - b))
		read -r -t 0.005 -u $nap x
	done
	echo $((worst / 1000)) $((wctl / 1000))
}
# lock_window OUT DEV CMD...: CMD while lock_reader reads leaf DEV's
# tx_packets (and mtu) on CPU 1, from half a second before to half a
# second after; the longest reads in ms go to OUT ("stats control"),
# CMD's status is returned.
lock_window() {
	local out=$1 dev=/sys/class/net/$2 r rc
	shift 2
	rm -f "$out.stop"
	taskset -c 1 bash -c "$(declare -f lock_reader); lock_reader \
		$dev/statistics/tx_packets $dev/mtu $out.stop" > "$out" &
	r=$!
	sleep 0.5
	"$@"
	rc=$?
	sleep 0.5
	touch "$out.stop"
	wait $r
	rm -f "$out.stop"
	return $rc
}
