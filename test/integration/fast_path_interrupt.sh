#!/bin/sh
# fast_path_interrupt.sh - faults that meet the fast path in the middle,
# with the default options (fast_path=on, OpenSM sweeping on traps) on
# the 4-ary 3-tree: a second cable fails right after the first, while
# the first one's PortInfo or LFT blocks may be in flight; a cable fails
# and comes back at once; a cable fails and OpenSM gets SIGHUP at once
# (it rereads its configuration and sweeps heavy).  After each, once
# everything is quiet: opensm is up, the tables read back reach every
# pair a cable joins, loop free and acyclic, and every stage recorded
# since the read-back before replays cleanly from it to them.  At the
# end every cable is back and so are the original tables.
. "$(dirname "$0")/common.sh"

: "${NET:=$TOPO_DIR/kary-4-3.net}"
: "${HOST:=ca-0009}"
A='"sw-L1-0000"[5]'
B='"sw-L2-0004"[7]'
C='"sw-L1-0002"[6]'
D='"sw-L3-0005"'

it_setup
it_start_ibsim "$NET"
it_write_conf
it_start_opensm
it_wait_log "dqr: base " 1
it_settle
it_readback "$HOST" orig
it_judge orig --pairs=all
prev=orig

# hup: SIGHUP, and OpenSM's heavy sweep it starts done (SUBNET UP once
# more): under load the log can pause for longer than it_settle's two
# seconds before the routing step, and a read-back then would catch the
# tables half way (seen once under ASan with eight tests side by side).
hup() {
	local n

	n=$(it_count "SUBNET UP")
	kill -HUP "$OSM_PID"
	it_wait_log "SUBNET UP" $((n + 1)) 120
}

# step NAME: everything quiet, opensm up, the state judged and replayed.
step() {
	sleep 1
	it_wait_quiet
	it_settle
	it_alive "$OSM_PID" || it_fail "$1: opensm died"
	it_readback "$HOST" "$1"
	it_judge "$1" --pairs=all
	it_replay_since "$prev" "$1"
	prev=$1
}

it_log "=== two cables, back to back: $A $B"
printf 'Unlink %s\nUnlink %s\n' "$A" "$B" >&3
IBSIM_LINES=$((IBSIM_LINES + 2))
it_ibsim_wait "fail two cables"
step two

it_log "=== a cable that comes back at once: $C"
printf 'Unlink %s\nReLink %s\n' "$C" "$C" >&3
IBSIM_LINES=$((IBSIM_LINES + 2))
it_ibsim_wait "flap a cable"
step flap

it_log "=== a whole switch, and SIGHUP at once: $D"
it_ibsim_cmd "Unlink $D"
hup
step hup

it_log "=== everything back"
for c in "$A" "$B" "$D"; do
	it_ibsim_cmd "ReLink $c"
done
sleep 1
hup
step back
it_expect_eq "entries that differ from the original tables" \
	"$(it_changed back orig)" 0
it_stop_opensm
it_log "ok: every state after a fault in the middle clean"
