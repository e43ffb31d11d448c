#!/bin/sh
# restart_rebalance.sh - opensm started again on a fabric whose switches hold
# the tables of the SM before it (a restart; a standby taking over goes
# the same way: OpenSM's first sweep as master), with the default
# options.  A cable fails and the plugin repairs it; that opensm stops
# and a new one starts: its routing from scratch differs from the
# repaired tables in force.  It must read what the switches hold and go
# there as a planned transition, never one unordered upload: the stages
# it records replay loop free and acyclic from the tables read back
# before the restart and end at those read back after it, which reach
# every pair.  The fault's record and the restart's keep distinct ids.
#
# Then a rebalance: a second cable fails and DQR repairs it; the operator
# asks for a rebalance (the file dqr-rebalance in dump_files_dir and a
# heavy sweep): the base engine routes the fabric as it is and the change
# goes up as a planned transition, judged the same way, and the file is
# taken.
. "$(dirname "$0")/common.sh"

: "${NET:=$TOPO_DIR/kary-4-3.net}"
: "${HOST:=ca-0009}"
[ -n "${FAULT:-}" ] || FAULT='"sw-L1-0000"[5]'
[ -n "${FAULT2:-}" ] || FAULT2='"sw-L2-0004"[5]'

# unlink_judged LINK NAME: LINK fails, the plugin starts a transition
# for it; the tables are then read back as NAME and must hold.
unlink_judged() {
	local n

	n=$(it_count "dqr: transition [0-9]+ \(")
	it_ibsim_cmd "Unlink $1"
	it_wait_log "dqr: transition [0-9]+ \(" $((n + 1)) 60
	it_settle
	it_readback "$HOST" "$2"
	it_judge "$2" --pairs=all
}

it_setup
DUMP="$W/dqr-transition.dump"
it_start_ibsim "$NET"
it_write_conf
it_start_opensm
it_wait_log "dqr: base " 1
it_settle
grep -q "dqr: first sweep as master: .*route nothing yet" "$W/osm.log" ||
	it_fail "a fabric no SM had routed was not read as such"

unlink_judged "$FAULT" held
seen=$(wc -l < "$DUMP")
it_stop_opensm first.log

it_start_opensm
it_wait_log "dqr: base " 1
it_settle
grep -q "ERR DQ34" "$W/osm.log" &&
	it_fail "$(grep 'ERR DQ34' "$W/osm.log" | sed 's/^.*-> //')"
grep -q "dqr: first sweep as master: .*hold the tables of an SM" \
	"$W/osm.log" ||
	it_fail "the restarted plugin did not read the tables in force"
it_log "plugin: $(grep -m1 'dqr: first sweep as master' "$W/osm.log" |
	sed 's/^.*-> //')"
it_readback "$HOST" new
it_judge new --pairs=all
changed=$(it_changed new held)
[ "${changed:-0}" -gt 0 ] ||
	it_fail "the routing after the restart equals the one before:" \
		"nothing to prove"
it_log "entries the restart changed: $changed"

tail -n +"$((seen + 1))" "$DUMP" > "$W/restart.plan"
[ -s "$W/restart.plan" ] ||
	it_fail "the change went up unrecorded (at once)"
grep "dqr: transition [0-9]* (" "$W/osm.log" | sed 's/^.*-> /  /' |
	cut -c1-200
"$DQR_CHECK" --replay="$W/restart.plan" --expect="$W/new.fts" \
	"$W/new.ibnd" "$W/held.fts" > "$W/restart.replay" 2>&1 ||
	{ cat "$W/restart.replay"
	  it_fail "the restart's stages do not replay cleanly from the" \
		"tables held"; }
it_log "ok: the restart's transition (id $(cut -d' ' -f1 "$W/restart.plan" |
	sort -u | tr '\n' ' ')) replays loop free and acyclic from the" \
	"tables held and ends at the new ones"

# ids: the records of the restart do not reuse the fault's
ids_before=$(head -n "$seen" "$DUMP" | cut -d' ' -f1 | sort -u)
for id in $(cut -d' ' -f1 "$W/restart.plan" | sort -u); do
	for old in $ids_before; do
		[ "$id" != "$old" ] ||
			it_fail "reconfiguration id $id recorded before and" \
				"after the restart"
	done
done

# --- a rebalance ---------------------------------------------------------
unlink_judged "$FAULT2" repaired
seen=$(wc -l < "$DUMP")
: > "$W/dqr-rebalance"
kill -HUP "$OSM_PID"
it_wait_log "dqr: rebalance asked for" 1 60
it_settle
[ ! -e "$W/dqr-rebalance" ] || it_fail "the rebalance request was not taken"
it_log "plugin: $(grep -m1 'dqr: rebalance asked for' "$W/osm.log" |
	sed 's/^.*-> //')"
it_readback "$HOST" rebalanced
it_judge rebalanced --pairs=all
changed=$(it_changed rebalanced repaired)
[ "${changed:-0}" -gt 0 ] ||
	it_fail "the rebalance changed nothing: nothing to prove"
tail -n +"$((seen + 1))" "$DUMP" > "$W/rebalance.plan"
[ -s "$W/rebalance.plan" ] ||
	it_fail "the rebalance went up unrecorded (at once)"
"$DQR_CHECK" --replay="$W/rebalance.plan" --expect="$W/rebalanced.fts" \
	"$W/rebalanced.ibnd" "$W/repaired.fts" > "$W/rebalance.replay" 2>&1 ||
	{ cat "$W/rebalance.replay"
	  it_fail "the rebalance's stages do not replay cleanly"; }
it_log "ok: the rebalance changed $changed entries in a transition that" \
	"replays loop free and acyclic from the repaired tables"
it_log "PASS"
