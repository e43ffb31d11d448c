#!/bin/sh
# safe_defaults_mesh.sh - a mesh with the default options.  base=auto
# recognises the 2D mesh from its cabling and routes it with lib's
# up*/down* from its corner (mesh_routing=updn), deadlock free on one VL
# (no ERR DQ29: the plugin's up*/down* instead of a cyclic base is not
# needed), so the
# tables read back from the switches are acyclic and reach every pair;
# then a cable fails (DQR repairs it: a reconfiguration (ok), no DQ13 or
# DQ16) and returns, and each transition replays loop free and acyclic
# on the tables read back before it, ending at those read back after it.
#
# The wrappers set: NET or GEN (a dqr-genfabric spec, generated here),
# HOST, FAULT, SHAPE (what the "dqr: shape: " line says first, an
# extended regular expression),
# ROUTING (how the shape line names lib's routing, an extended regular
# expression), BASE (how the summary line names it), OPTIONS
# (event_plugin_options; unset: none) and LOAD_MAX (unset:
# not checked; the most routes the busiest switch link of the start may
# carry under all-to-all CA traffic, dqr-check --load).  On a torus the
# NOTICE that it is routed as a mesh on one VL is expected.
. "$(dirname "$0")/common.sh"

if [ -z "${NET:-}${GEN:-}" ]; then
	NET=$TOPO_DIR/mesh-4x4.net
	# lib's up*/down* on this mesh rooted at each of its 16 switches in
	# turn: 22 to 26 routes on the busiest link from a corner, 32 to 40
	# from inside (dimension order: 16).  The plugin roots at a corner.
	: "${LOAD_MAX:=26}"
fi
: "${HOST:=ca-0000}"
: "${SHAPE:=2D mesh 4x4, 16 switches}"
: "${ROUTING:=up\*/down\* routing from the corner}"
: "${BASE:=updn}"
[ -n "${FAULT:-}" ] || FAULT='"sw-x1-y1"[1]'

it_setup
[ -z "${GEN:-}" ] || it_gen_net "$GEN"
it_start_ibsim "$NET"
it_write_conf ${OPTIONS:+"event_plugin_options $OPTIONS"}
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
	case $BASE in
	updn) how='up\*/down\*' ;;
	*) how='dimension order' ;;
	esac
	grep -Eq "NOTICE: .*routed as a mesh on one VL \($how " \
		"$W/osm.log" ||
		it_fail "no NOTICE that the torus is routed as a mesh by" \
			"$how"
	;;
esac
grep -Eq "dqr: shape: ($SHAPE).*lib's $ROUTING" "$W/osm.log" ||
	it_fail "not lib's $ROUTING: $(grep 'dqr: shape: ' "$W/osm.log" |
		head -1)"
grep "ERR DQ29" "$W/osm.log" &&
	it_fail "up*/down* replaced lib's $BASE tables"
grep -Eq "dqr: base $BASE \(auto" "$W/osm.log" ||
	it_fail "the base is not lib's grid routing: $(grep 'dqr: base ' \
		"$W/osm.log" | head -1)"
it_readback "$HOST" start
it_judge start --pairs=all
if [ -n "${LOAD_MAX:-}" ]; then
	"$DQR_CHECK" --json --load "$W/start.ibnd" "$W/start.fts" \
		> "$W/start.load" || it_fail "dqr-check --load failed"
	busiest=$(grep -o '"all_to_all":{[^}]*' "$W/start.load" |
		grep -o '"max":[0-9]*' | grep -o '[0-9]*$')
	[ -n "$busiest" ] && [ "$busiest" -le "$LOAD_MAX" ] ||
		it_fail "busiest link carries ${busiest:-?} routes, more than" \
			"$LOAD_MAX: up*/down* is not rooted at a corner"
	it_log "ok: busiest link $busiest routes (at most $LOAD_MAX)"
fi

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
