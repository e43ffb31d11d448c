#!/bin/sh
# safe_defaults.sh - never an unsafe state with the default options (no
# event_plugin_options, no qos line: one VL).  On the 4-ary 3-tree the
# four cables of one middle switch to the cores fail one after another,
# then a whole other middle switch, then everything returns (ReLink and
# a heavy sweep).  After each step: the tables read back are loop free
# and acyclic and reach every pair a cable joins; every stage recorded
# since the step before replays loop free and acyclic on the tables read
# back then and ends at the tables read back now; no transition was
# logged "NOT safe" (ERR DQ22) or uploaded without a check (DQ21).  At the
# end the original tables are back.
#
# INTERRUPT=1 (the wrapper safe_defaults_interrupt.sh): the second cable
# fails while the first fault's transition waits its drain, so a
# transition is planned from a state a staged one left behind.
#
# OPTIONS=budget_ms=0 (the wrapper safe_budget_ms_0.sh): no time for DQR,
# so every step is past its budget (ERR DQ30) and the fallback routes;
# the same judgement of every state holds.  With the defaults no
# reconfiguration may be past its budget.
. "$(dirname "$0")/common.sh"

: "${NET:=$TOPO_DIR/kary-4-3.net}"
: "${HOST:=ca-0009}"
[ -n "${CABLES:-}" ] ||
	CABLES='"sw-L2-0004"[5] "sw-L2-0004"[6] "sw-L2-0004"[7] "sw-L2-0004"[8]'
[ -n "${SWITCH:-}" ] || SWITCH='"sw-L2-0009"'
: "${INTERRUPT:=0}"
: "${OPTIONS:=}"

it_setup
it_start_ibsim "$NET"
if [ -n "$OPTIONS" ]; then
	it_write_conf "event_plugin_options $OPTIONS"
else
	it_write_conf
fi
it_start_opensm
it_wait_log "dqr: base " 1
it_settle
it_readback "$HOST" orig
it_judge orig --pairs=all

prev=orig
step=0

# step_done NAME: read back, judge, replay what was recorded since the
# step before from its read-back, expect this read-back at the end.
step_done() {
	local name=$1

	it_settle
	it_readback "$HOST" "$name"
	it_judge "$name" --pairs=all
	it_replay_since "$prev" "$name"
	grep -E "dqr: transition [0-9]+ \(|ERR DQ(16|2[0-9]|30)" "$W/osm.log" |
		tail -n +"$((${logged:-0} + 1))" | sed 's/^.*-> /  /' | cut -c1-200
	logged=$(grep -cE "dqr: transition [0-9]+ \(|ERR DQ(16|2[0-9]|30)" \
		"$W/osm.log")
	if grep -E "ERR DQ2[12]" "$W/osm.log"; then
		it_fail "$name: a transition went up unchecked or NOT safe"
	fi
	# a fault goes to DQR; what returns after a fallback is hardware
	# its model lacks, for the base engine
	over=$(it_count "ERR DQ30")
	case "$OPTIONS:$name" in
	*budget_ms=0*:back) ;;
	*budget_ms=0*)
		[ "$over" -gt "${over_seen:-0}" ] ||
			it_fail "$name: budget_ms=0 but no reconfiguration" \
				"was past its budget" ;;
	*)
		[ "$over" = 0 ] ||
			it_fail "$name: past its budget with the defaults" ;;
	esac
	over_seen=$over
	prev=$name
}


set -- $CABLES
for cable in "$@"; do
	step=$((step + 1))
	n=$(it_count "dqr: transition [0-9]+ \(")
	it_ibsim_cmd "Unlink $cable"
	if [ "$INTERRUPT" = 1 ] && [ $step = 1 ]; then
		# the next fault while the first transition waits its drain
		# (about 2 s): looked for ten times a second
		it_wait_log "dqr: transition [0-9]+ \(" $((n + 1)) 60 10
		it_wait_log "dqr: transition [0-9]+ stage [0-9]+ waits" 1 60 10
		continue
	fi
	it_wait_log "dqr: transition [0-9]+ \(" $((n + 1)) 60
	it_wait_quiet
	step_done "cable$step"
done

n=$(it_count "dqr: transition [0-9]+ \(")
it_ibsim_cmd "Unlink $SWITCH"
it_wait_log "dqr: transition [0-9]+ \(" $((n + 1)) 60
it_wait_quiet
step_done switch

n=$(it_count "dqr: transition [0-9]+ \(")
for cable in "$@"; do
	it_ibsim_cmd "ReLink $cable"
done
it_ibsim_cmd "ReLink $SWITCH"
sleep 1
kill -HUP "$OSM_PID"
it_wait_log "dqr: transition [0-9]+ \(" $((n + 1)) 60
it_wait_quiet
step_done back
it_expect_eq "entries that differ from the original tables" \
	"$(it_changed back orig)" 0
if [ "$INTERRUPT" = 1 ]; then
	grep -q "dqr: transition 1 left after" "$W/osm.log" ||
		it_fail "the first transition was not cut short"
	it_log "ok: $(grep -m1 'left after' "$W/osm.log" | sed 's/^.*-> //')"
fi
it_log "fallbacks and withdrawals on the way:" \
	"$(grep -cE 'ERR DQ(16|28|29|30)' "$W/osm.log")"
grep -E "ERR DQ(16|28|29|30)" "$W/osm.log" | sed 's/^.*-> /  /' | head -5
it_log "PASS"
