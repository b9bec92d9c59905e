#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Leaves that change their address: a leaf given another MAC (ip link set
# ... address, up or down) stays reachable at it, ARP replies included; a
# bond's slaves share one address, and an active-backup bond answers
# before and after a failover, a balance-xor bond and a team (teamd,
# activebackup) answer too. The fabric learns an address from the leaf
# that sends from it, as a switch does (fattree(4), stations).
top=$(cd "$(dirname "$0")" && pwd)
. "$top/ft_lib.sh"
tap_begin 9
a=ftbd-a-$$ b=ftbd-b-$$
tpid=
cleanup() {
	[ -n "$tpid" ] && kill "$tpid" 2>/dev/null
	ip netns del $a 2>/dev/null
	ip netns del $b 2>/dev/null
	"$ftctl" fabric del bd 2>/dev/null
}
trap cleanup EXIT
modprobe bonding max_bonds=0 2>/dev/null
ip netns add $a && ip netns add $b || exit 1
"$ftctl" fabric add bd kary 2 4 period 1ms || exit 1
ip link set bd-l0 netns $a && ip -n $a link set bd-l0 up &&
	ip -n $a addr add 10.88.0.1/24 dev bd-l0 || exit 1
for i in 5 9 13; do ip link set bd-l$i netns $b || exit 1; done
ip -n $b link set bd-l5 up && ip -n $b addr add 10.88.0.2/24 dev bd-l5
# pings COUNT: replies from 10.88.0.2 to COUNT pings, one at a time.
pings() {
	ip netns exec $a ping -c "$1" -i 0.3 -W $((2 * scale)) 10.88.0.2 2>/dev/null |
		awk '/received/ { for (i = 1; i <= NF; i++) if ($i ~ /received/) print $(i - 1) }'
}
fresh() { ip -n $a neigh flush dev bd-l0; }

r=$(pings 3)
check "a leaf at its own address answers 3/3 pings" '[ "$r" = 3 ]' "$r/3"
ip -n $b link set bd-l5 address 12:34:56:78:9a:bc
addr=$(ip netns exec $b cat /sys/class/net/bd-l5/address)
fresh
r=$(pings 3)
noroute=$(ip netns exec $a ethtool -S bd-l0 | awk '$1 == "drop_noroute:" { print $2 }')
check "given another MAC while up (as veth may), it answers 3/3 (0/3 before: drop_noroute)" \
	'[ "$addr" = 12:34:56:78:9a:bc ] && [ "$r" = 3 ]' "address $addr, $r/3, drop_noroute $noroute"
ip -n $b link set bd-l5 down
ip -n $b link set bd-l5 address 02:00:00:aa:bb:cc
ip -n $b link set bd-l5 up
fresh
r=$(pings 3)
check "given another MAC while down, it answers 3/3 once up" '[ "$r" = 3 ]' "$r/3"
ip -n $b addr flush dev bd-l5
ip -n $b link set bd-l5 down

# bond MODE: a bond over leaves 9 and 13 in B, 10.88.0.2 (an error when
# enslaving a leaf fails); no bonding driver at all is a skip.
bond() {
	ip -n $b link set bd-l9 down
	ip -n $b link set bd-l13 down
	ip -n $b link set bd-l9 master ftbond &&
		ip -n $b link set bd-l13 master ftbond &&
		ip -n $b link set ftbond up &&
		ip -n $b addr add 10.88.0.2/24 dev ftbond
}
newbond() { ip -n $b link del ftbond 2>/dev/null; ip -n $b link add ftbond type bond mode "$1" miimon 50; }
# failover: wait until a ping is answered again, then count 3.
answered() { [ "$(pings 1)" = 1 ]; }
if newbond active-backup; then
	bond
	made=$?
	check "an active-backup bond over two leaves is made" '[ $made = 0 ]'
	fresh
	r=$(pings 3)
	check "... and answers 3/3" '[ "$r" = 3 ]' "$r/3"
	active=$(ip netns exec $b cat /sys/class/net/ftbond/bonding/active_slave)
	ip -n $b link set "$active" down
	until_t $((10 * scale)) '[ "$(ip netns exec $b cat /sys/class/net/ftbond/bonding/active_slave)" != "$active" ]'
	until_t $((10 * scale)) answered
	r=$(pings 3)
	check "... and 3/3 after a failover (0/3 before)" '[ "$r" = 3 ]' "$r/3"
	ip -n $b link set "$active" up
else
	skip "an active-backup bond over two leaves is made" "no bonding driver"
	skip "... and answers 3/3" "no bonding driver"
	skip "... and 3/3 after a failover" "no bonding driver"
fi
if newbond balance-xor; then
	bond
	fresh
	r=$(pings 5)
	check "a balance-xor bond over two leaves answers 5/5" '[ "$r" = 5 ]' "$r/5"
else
	skip "a balance-xor bond over two leaves answers 5/5" "no bonding driver"
fi
ip -n $b link del ftbond 2>/dev/null

# A team with teamd's activebackup runner, over the same two leaves. The
# driver may be a module or built in (the debug kernel has no modules).
modprobe team 2>/dev/null
if command -v teamd > /dev/null && ip -n $b link add ftprobe type team 2>/dev/null &&
	ip -n $b link del ftprobe; then
	ip -n $b link set bd-l9 down
	ip -n $b link set bd-l13 down
	# A team's ports are not slaves to IPv6: without this the backup
	# port's own neighbour discovery sends from the team's address.
	for p in bd-l9 bd-l13; do
		ip netns exec $b sysctl -qw net.ipv6.conf.$p.disable_ipv6=1 2>/dev/null
	done
	ip netns exec $b teamd -t ftteam -c '{"runner": {"name": "activebackup"},
		"link_watch": {"name": "ethtool"},
		"ports": {"bd-l9": {}, "bd-l13": {}}}' > /dev/null 2>&1 &
	tpid=$!
	until_t $((20 * scale)) ip -n $b link show ftteam \> /dev/null 2\>\&1
	ip -n $b link set ftteam up && ip -n $b addr add 10.88.0.2/24 dev ftteam
	# teamd picks its active port once the ports' links are up.
	until_t $((20 * scale)) '[ -n "$(ip netns exec $b teamdctl ftteam state item get runner.active_port 2>/dev/null)" ]'
	fresh
	until_t $((20 * scale)) '[ "$(pings 1)" = 1 ]'
	sleep 1
	r=$(pings 3)
	check "a team (activebackup) over two leaves answers 3/3" '[ "$r" = 3 ]' "$r/3"
	port=$(ip netns exec $b teamdctl ftteam state item get runner.active_port 2>/dev/null)
	[ -n "$port" ] && ip -n $b link set "$port" down
	until_t $((10 * scale)) answered
	r=$(pings 3)
	check "... and 3/3 after its active port ($port) goes down" \
		'[ -n "$port" ] && [ "$r" = 3 ]' "port '$port', $r/3"
else
	skip "a team (activebackup) over two leaves answers 3/3" "no teamd or team driver"
	skip "... and 3/3 after its active port goes down" "no teamd or team driver"
fi
exit $((failed > 0))
