#!/bin/sh
# reconnect_first.sh - reconnection in the first upload, with the default
# options (no event_plugin_options, no qos, no drain override).  For each
# fault, stock OpenSM (routing_engine ftree) and then the plugin meet it
# on the same emulated fabric.  The plugin's transition must need no
# drain and be answered in full before the first SUBNET UP after the trap
# (its stages go up in order inside one routing pass: every entry that
# reconnects a pair is in the first upload); the tables read back after
# it must reach every pair a cable still joins, loop free and acyclic;
# the recorded transition must replay cleanly on the tables read back
# before it.  Trap -> every CA pair reachable (stock: its first SUBNET
# UP, when it has uploaded everything) and trap -> first SUBNET UP are
# printed side by side: benchmark figures, not asserted (timing belongs
# to benchmarks); RUNS=N times each fault N times, the two taking turns,
# and prints min/median/max.
#
# NET, HOST and FAULTS may be set by a wrapper: one fault per line, an
# expectation and an ibsim Unlink argument.  "first": the whole change is
# answered by the first SUBNET UP after the trap, no stage waits.
# "drain": one stage waits a drain, logged with its reason, and no other
# does (doc/transitions.md); the tables read back during the drain must
# already reach every CA pair, loop free and acyclic (pairs with a switch
# end may wait for the stage after it); everything else is judged the
# same.  "wait": as "drain", but CA pairs may wait for that drain too
# (up*/down* on meshes: doc/transitions.md says why; what the drain
# leaves unreachable is printed).  GEN, when set, names a fabric that
# dqr-genfabric makes (torus:5x5) instead of NET.  The defaults are on
# the 4-ary 3-tree, spread over the fabric: a leaf uplink in the
# anchor's pod and one in another pod, a middle switch's link to a
# core, a whole middle switch outside the anchor's pod and one inside it
# (repaired through the plane plug-in, ftree/plane_entry.h), a whole
# core switch.
. "$(dirname "$0")/common.sh"

: "${NET:=$TOPO_DIR/kary-4-3.net}"
: "${HOST:=ca-0009}"
if [ -z "${FAULTS:-}" ]; then
	FAULTS='first "sw-L1-0000"[5]
first "sw-L2-0004"[7]
first "sw-L2-0005"
first "sw-L2-0000"
first "sw-L3-0005"
drain "sw-L1-0006"[7]'
fi

it_setup
[ -z "${GEN:-}" ] || it_gen_net "$GEN"
it_start_ibsim "$NET"

n=0
report=""
printf '%s\n' "$FAULTS" > "$W/faults.txt"
while read -r expect fault; do
	[ -n "$fault" ] || continue
	n=$((n + 1))
	it_log "=== fault $n: Unlink $fault"

	# --- stock OpenSM on the same fault --------------------------------
	it_stock_fault "$fault"
	stock_ms=$(it_trap_to_up "$W/osm.log")
	"$DQR_CHECK" "$W/osm1.ibnd" "$W/osm1.fts" > "$W/stock$n.txt" 2>&1
	stock_ok=$?
	it_stock_done "$fault"

	# --- the plugin, default options -----------------------------------
	it_write_conf
	it_start_opensm
	it_wait_log "dqr: base " 1
	it_settle
	it_readback "$HOST" before$n
	it_judge before$n --pairs=all
	# the fault's transition is the first after it (the plugin's start
	# may have made one from the tables stock OpenSM left)
	l0=$(wc -l < "$W/osm.log")
	n0=$(it_count "dqr: transition [0-9]+ \(")
	it_ibsim_cmd "Unlink $fault"
	# looked for ten times a second: a stage may wait its drain (about
	# 2 s) right after, and the read-back must fit in it
	it_wait_log "dqr: transition [0-9]+ \(" $((n0 + 1)) 60 10
	tid=$(tail -n +"$((l0 + 1))" "$W/osm.log" |
		grep -oE "dqr: transition [0-9]+ \(" | head -1 | grep -oE "[0-9]+")
	if [ "$expect" != first ]; then
		# the first stages are in force; read them back in the drain
		it_wait_log "dqr: transition $tid stage [0-9]+ waits" 1 60 10
		k=$(grep -oE "dqr: transition $tid stage [0-9]+ waits" \
			"$W/osm.log" | head -1 | grep -oE "[0-9]+ waits" |
			cut -d' ' -f1)
		it_readback "$HOST" mid$n
		# all of it in the drain: stage k not handed over before the
		# read-back ended (else it mixed two states; a loaded machine)
		! grep -q "dqr: transition $tid: stage $k of " "$W/osm.log" ||
			it_fail "fault $n: the read-back outlasted the drain" \
				"before stage $k (run this test alone)"
		"$DQR_CHECK" "$W/mid$n.ibnd" "$W/mid$n.fts" > "$W/mid$n.txt" 2>&1
		grep "^pairs\|^forwarding loops\|^dependency cycle" "$W/mid$n.txt"
		ca_ok=1
		[ "$expect" = wait ] ||
			grep -q "^pairs ca-to-ca  *[0-9]*  unreachable 0 " \
				"$W/mid$n.txt" || ca_ok=0
		[ $ca_ok = 1 ] && grep -q "^forwarding loops: 0 " "$W/mid$n.txt" &&
			grep -q "^dependency cycle: no" "$W/mid$n.txt" ||
			it_fail "fault $n: at the first SUBNET UP a CA pair is" \
				"unreachable, or the tables loop or are cyclic"
	fi
	it_wait_log "dqr: transition $tid complete" 1 120
	it_settle
	it_readback "$HOST" after$n
	it_judge after$n --pairs=all
	tline=$(grep -E "dqr: transition $tid \(.*\): [0-9]+ entries on" \
		"$W/osm.log" | head -1)
	it_log "plugin: ${tline#*-> }"
	it_expect_match "$tline" "*every stage safe; stages that wait a drain: *" \
		"fault $n: the plan is not safe"
	drains=$(printf '%s\n' "$tline" | sed 's/.*wait a drain: //')
	# when the whole transition was answered, against the first SUBNET UP
	first_up=$(awk '/num:128/ { t = 1 } t && /SUBNET UP/ { print NR; exit }' \
		"$W/osm.log")
	done_at=$(grep -n "dqr: transition $tid complete" "$W/osm.log" |
		head -1 | cut -d: -f1)
	if [ "$expect" = first ]; then
		it_expect_eq "fault $n: stages that wait a drain" "$drains" 0
		[ -n "$first_up" ] && [ -n "$done_at" ] &&
			[ "$done_at" -lt "$first_up" ] ||
			it_fail "fault $n: the transition is not complete at" \
				"the first SUBNET UP after the trap"
	else
		it_expect_eq "fault $n: stages that wait a drain" "$drains" 1
		# every stage that waits says so, with its reason
		it_expect_eq "fault $n: waits logged with a reason" \
			"$(grep -c "dqr: transition $tid stage [0-9]* waits [0-9]* ms: [a-z]" \
				"$W/osm.log")" "$drains"
		grep "dqr: transition $tid stage [0-9]* waits" "$W/osm.log" |
			sed 's/^.*-> /  /'
		# a wait for a cycle names its channels
		[ "$expect" = wait ] ||
			it_expect_eq "fault $n: the wait names its cycle" \
				"$(grep -c "dqr: transition $tid stage [0-9]* waits [0-9]* ms: dependency cycle in the union of states [0-9]* and [0-9]*; dependency cycle of [0-9]* channels: " \
				"$W/osm.log")" 1
		# the drain is twice the LifeTime the switches hold (ibsim
		# keeps what OpenSM set: 18, the default packet_life_time)
		it_expect_match "$(grep "dqr: transition $tid: a drain is" \
			"$W/osm.log")" "*a drain is 2148 ms, twice the largest \
LifeTimeValue the switches hold, 18 at 0x*" \
			"fault $n: the drain's length or its source"
		# what was read in the drain was the state before the rest
		[ "$(it_changed after$n mid$n)" -gt 0 ] ||
			it_fail "fault $n: the drain's read-back missed it"
		[ "$expect" = wait ] ||
			it_log "ok: fault $n: every CA pair reachable, loop" \
				"free and acyclic at the first SUBNET UP;" \
				"switch pairs after the drain"
	fi
	stages=$(printf '%s\n' "$tline" | sed -n 's/.* in \([0-9]*\) stages.*/\1/p')
	# the dump's records carry the transition's id
	"$DQR_CHECK" --replay="$W/dqr-transition.dump" --reconf="$tid" \
		--expect="$W/after$n.fts" "$W/after$n.ibnd" "$W/before$n.fts" \
		> "$W/replay$n.txt" 2>&1 ||
		{ cat "$W/replay$n.txt"; it_fail "fault $n: no clean replay"; }
	dqr_ms=$(it_trap_to_up "$W/osm.log")
	reach_ms=$(it_trap_to_reach "$W/osm.log")
	phases=$(it_fast_phases "$W/osm.log")
	how=sweep
	[ "$(it_count "dqr: fast path: reconfiguration")" = 0 ] || how=fast
	it_stop_opensm "osm-dqr$n.log"
	rm -f "$W/dqr-transition.dump" "$W/dqr-reconfig.log"
	it_ibsim_cmd "ReLink $fault"

	done_line=$(grep "dqr: transition $tid complete" "$W/osm-dqr$n.log")
	it_log "plugin: ${done_line#*-> }"
	all_ms=$(printf '%s\n' "$done_line" |
		sed -n 's/.*last after \([0-9.]*\) ms.*/\1/p')
	fmt='%-20s stock %4s ms%s  osm-dqr reachable %5s ms (%s), first'
	line=$(printf "$fmt %4s ms, last %s ms, %s stages, %s drains" \
		"$fault" "$stock_ms" \
		"$([ $stock_ok = 0 ] || echo ' (unsafe)')" "${reach_ms:-?}" \
		"$how" "$dqr_ms" "${all_ms:-?}" "$stages" "$drains")
	report="$report$line
"
	# RUNS > 1 (make bench-live): more timings, the two taking turns
	[ "${RUNS:-1}" -gt 1 ] || continue
	echo "$stock_ms" > "$W/stock$n.ms"
	echo "$dqr_ms $reach_ms $phases" > "$W/dqr$n.ms"
	for r in $(seq 2 "$RUNS"); do
		it_time_stock "$fault" >> "$W/stock$n.ms"
		it_time_plugin "$fault" >> "$W/dqr$n.ms"
	done
	fmt='%-20s %s runs: stock %s ms, osm-dqr reachable %s ms, first %s ms'
	line=$(printf "$fmt" "" "$RUNS" "$(it_min_med_max < "$W/stock$n.ms")" \
		"$(it_min_med_max 2 < "$W/dqr$n.ms")" \
		"$(it_min_med_max 1 < "$W/dqr$n.ms")")
	report="$report$line (min/median/max)
"
	line=$(printf '%-20s %s runs: fast path: ports known %s ms, repair ready %s ms' \
		"" "$RUNS" "$(it_min_med_max 3 < "$W/dqr$n.ms")" \
		"$(it_min_med_max 4 < "$W/dqr$n.ms")")
	report="$report$line (min/median/max)
"
done < "$W/faults.txt"

it_log "trap -> every CA pair reachable, and first SUBNET UP (ms)," \
	"same fabric, same run (stock: its first SUBNET UP; (fast): the" \
	"plugin's fast path answered the trap, (sweep): OpenSM's sweep):"
printf '%s' "$report"
it_log "ok: every fault judged from the switches"
