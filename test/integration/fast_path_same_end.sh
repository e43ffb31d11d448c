#!/bin/sh
# fast_path_same_end.sh - with OpenSM's default sweeps the fast path
# changes when the switches are repaired, not what they end with.  Two
# opensm runs on the same fabric and the same faults, one after the
# other: the defaults (fast_path=on), then fast_path=off (the normal
# path: DQR repairs in the routing pass of OpenSM's sweep).  For each
# fault, with the defaults, the fast path answers the trap and OpenSM's
# sweep that follows finds the repair in force: no transition of its own
# begins after the fast reaction's.  The tables read back once all is
# quiet are the same in both runs, entry for entry, and judged clean
# (every pair a cable still joins reachable, loop free, acyclic); each
# cable back gives the original tables.  The 4-ary 3-tree: a leaf
# uplink, a whole middle switch, a whole core switch.
. "$(dirname "$0")/common.sh"

: "${NET:=$TOPO_DIR/kary-4-3.net}"
: "${HOST:=ca-0009}"
FAULTS='"sw-L1-0000"[5]
"sw-L2-0005"
"sw-L3-0005"'

it_setup
it_start_ibsim "$NET"

# run MODE OPTIONS: every fault in turn, read back after it as MODE-n
run() {
	local n=0 fault k t f

	if [ -n "$2" ]; then
		it_start_plugin "$2"
	else
		it_write_conf
		it_start_opensm
		it_wait_log "dqr: base " 1
	fi
	it_settle
	it_readback "$HOST" "$1-start"
	while read -r fault; do
		[ -n "$fault" ] || continue
		n=$((n + 1))
		k=$(it_count "SUBNET UP")
		f=$(it_count "dqr: fast path: reconfiguration")
		t=$(it_count "dqr: transition [0-9]+ \(")
		it_ibsim_cmd "Unlink $fault"
		# OpenSM's sweep after the trap, and every stage of the repair
		it_wait_log "SUBNET UP" $((k + 1)) 60
		it_wait_quiet
		it_settle
		f=$(($(it_count "dqr: fast path: reconfiguration") - f))
		t=$(($(it_count "dqr: transition [0-9]+ \(") - t))
		if [ "$1" = fast ]; then
			[ "$f" -ge 1 ] ||
				it_fail "fast: $fault: no fast reaction"
			# one transition per fast reaction, none of the sweep's
			it_expect_eq "fast: $fault: transitions begun" "$t" "$f"
		else
			it_expect_eq "normal: $fault: fast reactions" "$f" 0
		fi
		it_readback "$HOST" "$1-$n"
		it_judge "$1-$n" --pairs=all
		k=$(it_count "dqr: transition [0-9]+ complete")
		it_ibsim_cmd "ReLink $fault"
		it_wait_log "dqr: transition [0-9]+ complete" $((k + 1)) 60
		it_settle
		it_readback "$HOST" "$1-back$n"
		it_expect_eq "$1: $fault back: entries changed from the start" \
			"$(it_changed "$1-back$n" "$1-start")" 0
	done < "$W/faults.txt"
	it_stop_opensm "$1.log"
}

printf '%s\n' "$FAULTS" > "$W/faults.txt"
run fast ""
run normal "fast_path=off"
it_expect_eq "the two runs' start tables: entries that differ" \
	"$(it_changed normal-start fast-start)" 0
n=0
while read -r fault; do
	[ -n "$fault" ] || continue
	n=$((n + 1))
	what="$fault: entries where the fast path's end and the normal"
	it_expect_eq "$what path's differ" \
		"$(it_changed "fast-$n" "normal-$n")" 0
done < "$W/faults.txt"
it_log "ok: the fast path ends where the normal path does, for each fault"
