#!/bin/sh
# fast_path_no_sweep.sh - the fast path on its own: opensm.conf says
# sweep_on_trap FALSE and sweep_interval 0, so OpenSM itself never
# reacts to a fault, and what the switches hold after a trap the plugin
# sent from its own thread (fast_path=on, the default).  NET, HOST and
# FAULTS may be set by a wrapper: one fault per line, an expectation and
# an ibsim Unlink argument.  "first": the fast path sends the whole
# repair, OpenSM neither routes nor sweeps.  "drain": it sends the
# stages before the one that waits a drain (doc/transitions.md), and the
# tables read back during the drain already reach every CA pair; the
# rest comes from the sweep the drain timer asks for, as in any
# transition.  The defaults spread over the 4-ary 3-tree: a leaf uplink
# in the anchor's pod and one in another, a whole middle switch outside
# the SM's pod and one inside it (whose other neighbours' traps, routed
# by LID through it, never come), a whole core switch.  After each fault the tables read back from the switches
# must reach every pair a cable still joins, loop free and acyclic
# (dqr-check), and the recorded transition must replay cleanly on the
# tables read back before it.  Then the cable comes back: its trap is
# left to OpenSM's sweep (a port coming up needs it), and the tables
# read back after it are the original ones.  The fast path's own line
# gives its times from the trap: printed, not asserted (make bench-live
# times it against stock OpenSM).
. "$(dirname "$0")/common.sh"

: "${NET:=$TOPO_DIR/kary-4-3.net}"
: "${HOST:=ca-0009}"
if [ -z "${FAULTS:-}" ]; then
	FAULTS='first "sw-L1-0000"[5]
first "sw-L2-0005"
first "sw-L2-0000"
drain "sw-L1-0006"[7]
first "sw-L3-0005"'
fi

it_setup
it_start_ibsim "$NET"
it_write_conf "sweep_on_trap FALSE" "sweep_interval 0"
it_start_opensm
it_wait_log "dqr: base " 1
it_settle
it_readback "$HOST" start
it_judge start --pairs=all

# the fast path's lines, and OpenSM's own routing passes and sweeps
fast() { it_count "dqr: fast path: "; }
routed() { echo "$(it_count "tables configured on all switches")" \
	"$(it_count "SUBNET UP")"; }

n=0
report=""
printf '%s\n' "$FAULTS" > "$W/faults.txt"
while read -r expect fault; do
	[ -n "$fault" ] || continue
	n=$((n + 1))
	it_log "=== fault $n: Unlink $fault ($expect)"
	k=$(fast)
	r0=$(routed)
	t0=$(it_count "dqr: transition [0-9]+ complete")
	it_ibsim_cmd "Unlink $fault"
	it_wait_log "dqr: fast path: " $((k + 1)) 30 10
	line=$(grep "dqr: fast path: " "$W/osm.log" | tail -1)
	it_log "plugin: ${line#*-> }"
	if [ "$expect" = first ]; then
		it_expect_match "$line" \
			"*fast path: reconfiguration*complete before*" \
			"fault $n: the fast path did not send it all"
		it_settle
		it_expect_eq "fault $n: OpenSM's passes and SUBNET UPs" \
			"$(routed)" "$r0"
	else
		it_expect_match "$line" \
			"*fast path: reconfiguration*stages answered*drain*" \
			"fault $n: no stage of the fast path before a drain"
		it_readback "$HOST" mid$n
		# all of it in the drain: no pass of OpenSM's before it ended
		it_expect_eq "fault $n: OpenSM's passes in the drain" \
			"$(routed)" "$r0"
		"$DQR_CHECK" "$W/mid$n.ibnd" "$W/mid$n.fts" > "$W/mid$n.txt" 2>&1
		grep -q "^pairs ca-to-ca  *[0-9]*  unreachable 0 " \
			"$W/mid$n.txt" &&
			grep -q "^forwarding loops: 0 " "$W/mid$n.txt" &&
			grep -q "^dependency cycle: no" "$W/mid$n.txt" ||
			it_fail "fault $n: in the drain a CA pair is" \
				"unreachable, or the tables loop or are cyclic"
		it_log "ok: fault $n: every CA pair reachable in the drain"
		it_wait_log "dqr: transition [0-9]+ complete" $((t0 + 1)) 60
		it_settle
	fi
	it_readback "$HOST" after$n
	it_judge after$n --pairs=all
	tid=$(grep -oE "dqr: transition [0-9]+ complete" "$W/osm.log" |
		tail -1 | grep -oE "[0-9]+")
	"$DQR_CHECK" --replay="$W/dqr-transition.dump" --reconf="$tid" \
		--expect="$W/after$n.fts" "$W/after$n.ibnd" "$W/start.fts" \
		> "$W/replay$n.txt" 2>&1 ||
		{ cat "$W/replay$n.txt"; it_fail "fault $n: no clean replay"; }
	report="$report  $fault: ${line#*reconfiguration [0-9]*: }
"
	# --- the cable back: OpenSM's sweep activates it -----------------
	k=$(it_count "dqr: fast path: .*left to OpenSM's sweep")
	t0=$(it_count "dqr: transition [0-9]+ complete")
	it_ibsim_cmd "ReLink $fault"
	it_wait_log "dqr: fast path: .*left to OpenSM's sweep" $((k + 1)) 30
	it_wait_log "dqr: transition [0-9]+ complete" $((t0 + 1)) 60
	it_settle
	it_readback "$HOST" back$n
	it_judge back$n --pairs=all
	it_expect_eq "fault $n: entries changed from the start, cable back" \
		"$(it_changed back$n start)" 0
done < "$W/faults.txt"
it_stop_opensm
it_log "trap -> fast path, same run:"
printf '%s' "$report"
it_log "ok: every fault answered by the fast path alone"
