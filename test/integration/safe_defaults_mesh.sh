#!/bin/sh
# safe_defaults_mesh.sh - a mesh with the default options.  base=auto
# recognises the 2D mesh from its cabling and routes it with lib's
# dimension-order routing, deadlock free on one VL (no ERR DQ29: the
# plugin's up*/down* instead of a cyclic base is not needed), so the
# tables read back from the switches are acyclic and reach every pair;
# then a cable fails (DQR repairs it: a reconfiguration (ok), no DQ13 or
# DQ16) and returns, and each transition replays loop free and acyclic
# on the tables read back before it, ending at those read back after it.
#
# The wrappers set: NET or GEN (a dqr-genfabric spec, generated here),
# HOST, FAULT, SHAPE (what the "dqr: shape: " line says first, an
# extended regular expression),
# ROUTING ("dimension-order" or "e-cube").  On a torus the NOTICE that
# it is routed as a mesh on one VL is expected.
. "$(dirname "$0")/common.sh"

: "${NET:=$TOPO_DIR/mesh-4x4.net}"
: "${HOST:=ca-0000}"
: "${SHAPE:=2D mesh 4x4, 16 switches}"
: "${ROUTING:=dimension-order}"
[ -n "${FAULT:-}" ] || FAULT='"sw-x1-y1"[1]'

it_setup
[ -z "${GEN:-}" ] || it_gen_net "$GEN"
it_start_ibsim "$NET"
it_write_conf
it_start_opensm
it_wait_log "dqr: base " 1
it_settle
grep -Eq "dqr: shape: ($SHAPE)" "$W/osm.log" ||
	it_fail "shape not recognised as $SHAPE: $(grep 'dqr: shape: ' \
		"$W/osm.log" | head -1)"
it_log "plugin: $(grep 'dqr: shape: ' "$W/osm.log" | head -1 |
	sed 's/^.*-> //')"
case "$SHAPE" in
*torus*)
	grep -q "NOTICE: .*routed as a mesh on one VL" "$W/osm.log" ||
		it_fail "no NOTICE that the torus is routed as a mesh"
	;;
esac
grep -Eq "dqr: shape: ($SHAPE).*lib's $ROUTING routing" "$W/osm.log" ||
	it_fail "no $ROUTING routing: $(grep 'dqr: shape: ' "$W/osm.log" |
		head -1)"
grep "ERR DQ29" "$W/osm.log" &&
	it_fail "up*/down* replaced the $ROUTING tables"
grep -Eq "dqr: base (dor|ecube) \(auto" "$W/osm.log" ||
	it_fail "the base is not lib's grid routing: $(grep 'dqr: base ' \
		"$W/osm.log" | head -1)"
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
# DQR itself repaired it, on the base's tables: no DQ13 (DQR off on a
# cyclic base) nor DQ16 (the base routed everything again)
grep -qE "dqr: reconfiguration [0-9]+ \(ok" "$W/osm.log" ||
	it_fail "no reconfiguration (ok): $(grep -E \
		'dqr: reconfiguration [0-9]+ \(' "$W/osm.log" | tail -1)"
grep -E "ERR DQ1[36]" "$W/osm.log" && it_fail "DQR was off or fell back"
it_log "ok: DQR repaired the fault"
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
