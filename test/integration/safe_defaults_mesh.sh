#!/bin/sh
# safe_defaults_mesh.sh - a mesh with the default options.  OpenSM's
# engines that base=auto tries leave it to minhop, whose tables have a
# credit loop on one VL: the plugin must route with its own up*/down*
# instead (ERR DQ29), so the tables read back from the switches are
# acyclic and reach every pair; then a cable fails and returns, and each
# transition replays loop free and acyclic on the tables read back before
# it, ending at those read back after it.
. "$(dirname "$0")/common.sh"

: "${NET:=$TOPO_DIR/mesh-4x4.net}"
: "${HOST:=ca-0000}"
[ -n "${FAULT:-}" ] || FAULT='"sw-x1-y1"[1]'

it_setup
it_start_ibsim "$NET"
it_write_conf
it_start_opensm
it_wait_log "dqr: base " 1
it_settle
grep -q "ERR DQ29" "$W/osm.log" ||
	it_fail "no up*/down* instead of a cyclic base: $(grep 'dqr: base ' \
		"$W/osm.log" | head -1)"
it_log "plugin: $(grep 'ERR DQ29' "$W/osm.log" | head -1 | sed 's/^.*-> //')"
it_readback "$HOST" start
it_judge start --pairs=all

# replay_step NAME PREV: every stage recorded since PREV replays cleanly
replay_step() {
	"$DQR_CHECK" --replay="$W/dqr-transition.dump" --expect="$W/$1.fts" \
		"$W/$1.ibnd" "$W/$2.fts" > "$W/$1.replay" 2>&1 ||
		{ cat "$W/$1.replay"; it_fail "$1 does not replay cleanly"; }
	rm -f "$W/dqr-transition.dump"
	it_log "ok: $1 replays loop free and acyclic from $2"
}

n=$(it_count "dqr: transition [0-9]+ \(")
it_ibsim_cmd "Unlink $FAULT"
it_wait_log "dqr: transition [0-9]+ \(" $((n + 1)) 60
it_wait_log "dqr: transition [0-9]+ complete" $((n + 1)) 120
it_settle
it_readback "$HOST" fault
it_judge fault --pairs=all
replay_step fault start
grep "dqr: transition [0-9]* (" "$W/osm.log" | tail -1 | sed 's/^.*-> /  /'

n=$(it_count "dqr: transition [0-9]+ \(")
it_ibsim_cmd "ReLink $FAULT"
sleep 1
kill -HUP "$OSM_PID"
it_wait_log "dqr: transition [0-9]+ \(" $((n + 1)) 60
it_wait_log "dqr: transition [0-9]+ complete" $((n + 1)) 120
it_settle
it_readback "$HOST" back
it_judge back --pairs=all
replay_step back fault
it_expect_eq "entries that differ from the start" "$(it_changed back start)" 0
grep -E "ERR DQ2[12]" "$W/osm.log" &&
	it_fail "a transition went up unchecked or NOT safe"
it_log "PASS"
