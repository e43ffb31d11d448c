#!/bin/sh
# transitions.sh - ordered table transitions (OSR order), judged from the
# switches: for a full re-route forced by a cable the channel list does
# not know, for a DQR reroute after a fault, and for the return of that
# link, the plan the plugin recorded in dqr-transition.dump replays
# cleanly on the tables read back before the change (every stage union
# loop free and acyclic) and ends exactly at the tables read back after
# it.  OpenSM's own one-shot upload (ftree falling back to minhop) is
# judged the same way.
#
# NET, HOST, NEWLINK (down at start, then added), FAULT, DRAIN,
# TOL_START and TOL_FAULT may be set by a wrapper; the defaults are the
# 4-ary 3-tree.
. "$(dirname "$0")/common.sh"

: "${NET:=$TOPO_DIR/kary-4-3.net}"
: "${HOST:=ca-0009}"
: "${NEWLINK:=\"sw-L2-0006\"[6]}"
: "${FAULT:=\"sw-L1-0000\"[5]}"
: "${DRAIN:=50}"
# the fault-tolerance report's single faults: at the start (NEWLINK
# down), and after FAULT
: "${TOL_START:=175}"
: "${TOL_FAULT:=175}"

it_setup

# The far end of FAULT gets a description with a double quote and a
# backslash, which the records must carry as JSON strings.  Unquoted in
# the net file, ibsim ends it at " lid ".
fault_sw=$(echo "$FAULT" | sed 's/^"\([^"]*\)".*/\1/')
fault_port=$(echo "$FAULT" | sed 's/.*\[\([0-9]*\)\]$/\1/')
far=$(awk -v sw="$fault_sw" -v port="$fault_port" '
	/^(Switch|Hca|Ca)/ { cur = $0; sub(/^[^"]*"/, "", cur)
		sub(/".*/, "", cur); next }
	cur == sw && index($0, "[" port "]") == 1 {
		sub(/^[^"]*"/, ""); sub(/".*/, ""); print; exit }' "$NET")
[ -n "$far" ] || it_fail "no cable at $FAULT in $NET"
ODD_DESC="$far \"odd\\desc"
export ODD_DESC
awk -v far="$far" '
	$1 == "Switch" && $3 == "\"" far "\"" &&
	(i = index($0, "# \"" far "\"")) {
		$0 = substr($0, 1, i + 1) ENVIRON["ODD_DESC"] \
			substr($0, i + 4 + length(far))
	}
	{ print }' "$NET" > "$W/odd.net"
grep -qF "# $ODD_DESC lid" "$W/odd.net" ||
	it_fail "$far is no switch header in $NET"
it_start_ibsim "$W/odd.net"

# transition_done N: wait until transition N completed
transition_done() {
	it_wait_log "dqr: transition $1 complete" 1 180
	it_settle
	grep "dqr: transition $1 " "$W/osm.log" | sed 's/^.* -> //'
}

# replay NAME BEFORE AFTER ID: the recorded plan of transition ID must
# replay on BEFORE and end at AFTER
replay() {
	"$DQR_CHECK" --replay="$W/dqr-transition.dump" --reconf="$4" \
		--expect="$W/$3.fts" "$W/$3.ibnd" "$W/$2.fts" \
		> "$W/replay-$1.txt" 2>&1
	st=$?
	cat "$W/replay-$1.txt"
	[ $st = 0 ] || it_fail "transition $4 ($1) does not replay cleanly"
	it_log "ok: transition $4 ($1) replays stage by stage and ends at" \
		"the tables read back"
}

# prom_ok: dqr.prom in node_exporter's text format, as promtool reads
# it: HELP and TYPE before the samples of a name, every sample line
# name{label="value",...} number, label values quoted and escaped
prom_ok() {
	awk '
	/^# HELP / { help[$3] = 1; next }
	/^# TYPE / {
		if (!($3 in help) || ($4 != "counter" && $4 != "gauge"))
			bad = bad " TYPE:" $3
		type[$3] = 1
		next
	}
	/^#/ { bad = bad " line" NR; next }
	{
		if ($0 !~ /^[a-zA-Z_:][a-zA-Z0-9_:]*(\{[a-zA-Z_][a-zA-Z0-9_]*="([^"\\]|\\.)*"(,[a-zA-Z_][a-zA-Z0-9_]*="([^"\\]|\\.)*")*\})? [-+0-9.eE]+$/)
			bad = bad " line" NR
		name = $0
		sub(/[{ ].*/, "", name)
		if (!(name in type))
			bad = bad " no-TYPE:" name
		n++
	}
	END { if (bad != "" || !n) { print "dqr.prom:" bad; exit 1 } }' \
		"$W/dqr.prom" || it_fail "dqr.prom does not parse ($1)"
}

# prom_sum NAME: the sum of NAME's samples in dqr.prom
prom_sum() {
	awk -v m="$1" '!/^#/ { n = $0; sub(/[{ ].*/, "", n)
		if (n == m) s += $NF } END { print s + 0 }' "$W/dqr.prom"
}

# status KEY: the value of KEY in dqr-status
status() {
	sed -n "s/^$1: //p" "$W/dqr-status"
}

# tolerance RECONF FAULTS: the fault-tolerance report of reconfiguration
# RECONF (0: the first routing) in dqr-status, every one of the FAULTS
# single faults judged, none cutting pairs off (the fat trees here
# absorb each, as dqr-sim --what-if all says), and dqr.prom agreeing.
# The 4-ary 3-tree at the start: 127 switch cables (NEWLINK down) and
# 48 switches.
tolerance() {
	i=0
	until status fault_tolerance |
		grep -q "^after reconfiguration $1: "; do
		i=$((i + 1))
		[ $i -le 600 ] || it_fail "no fault-tolerance report of" \
			"reconfiguration $1 in 60 s: $(status fault_tolerance)"
		sleep 0.1
	done
	line=$(status fault_tolerance)
	it_log "fault_tolerance: $line"
	echo "$line" | grep -q ": $2 single faults (.*), $2 judged in " ||
		it_fail "not $2 faults judged: $line"
	echo "$line" | grep -q ", 0 cut pairs off$" ||
		it_fail "a single fault would cut pairs off: $line"
	# the plugin writes dqr-status, then dqr.prom, then the INFO line:
	# give the later ones their moment (a CI run read dqr.prom between)
	i=0
	while [ "$(prom_sum osmdqr_tolerance_judged)" != "$2" ] &&
	      [ $i -lt 50 ]; do
		i=$((i + 1))
		sleep 0.1
	done
	it_expect_eq "osmdqr_tolerance_judged" \
		"$(prom_sum osmdqr_tolerance_judged)" "$2"
	it_expect_eq "osmdqr_tolerance_fate" \
		"$(prom_sum osmdqr_tolerance_fate)" "$2"
	it_wait_log "dqr: fault tolerance of reconfiguration $1: $2 of $2" 1 10
}

# --- 1. OpenSM alone: its one-shot upload ------------------------------
it_stock_fault "$FAULT"
"$DQR_CHECK" --one-shot-from="$W/osm0.fts" "$W/osm1.ibnd" "$W/osm1.fts" \
	> "$W/oneshot.txt" 2>&1
it_log "OpenSM's one-shot upload after Unlink $FAULT:"
cat "$W/oneshot.txt"
it_stock_done "$FAULT"

# --- 2. the plugin: a cable it has never seen -> full re-route -----------
it_ibsim_cmd "Unlink $NEWLINK"
it_start_plugin "base=auto drain_ms=$DRAIN"
it_settle
# the status files exist from the first routing on
[ -s "$W/dqr-status" ] || it_fail "no dqr-status after the first routing"
prom_ok "first routing"
it_expect_eq "reconfiguration in dqr-status" "$(status reconfiguration)" none
tolerance 0 "$TOL_START"
# the start on the tables stock OpenSM left is a transition of its own
# (from them, planned): the ones this test makes come after it
k=$(grep -oE "dqr: transition [0-9]+ complete" "$W/osm.log" | tail -1 |
	grep -oE "[0-9]+" || true)
k=${k:-0}
it_readback "$HOST" t0
it_ibsim_cmd "ReLink $NEWLINK"
sleep 1
kill -HUP "$OSM_PID"
transition_done $((k + 1))
it_readback "$HOST" t1
it_judge t1 --pairs=all
replay full-reroute t0 t1 $((k + 1))

# --- 3. a fault: DQR's reroute --------------------------------------------
it_ibsim_cmd "Unlink $FAULT"
transition_done $((k + 2))
it_readback "$HOST" t2
it_judge t2 --pairs=all
replay dqr-reroute t1 t2 $((k + 2))
# what the operator sees: the cable missing, the transition complete with
# the stages the log counted, counters in a parsable dqr.prom
cat "$W/dqr-status"
it_expect_eq "failed_links in dqr-status" "$(status failed_links)" 1
status failed_link | grep -q "(sw-L1-0000)" ||
	it_fail "dqr-status does not name the failed cable's switch"
it_expect_eq "reconfiguration in dqr-status" "$(status reconfiguration)" 1
stages=$(grep -o "dqr: transition $((k + 2)) (.*in [0-9]* stages" "$W/osm.log" |
	grep -o '[0-9]* stages$')
it_expect_eq "last transition in dqr-status" \
	"$(status last_transition)" "$((k + 2)) complete, $stages"
it_expect_eq "transition under way in dqr-status" "$(status transition)" \
	none
prom_ok "after the fault"
it_expect_eq "osmdqr_failed_links" "$(prom_sum osmdqr_failed_links)" 1
it_expect_eq "osmdqr_tables_verified" "$(prom_sum osmdqr_tables_verified)" 1
rec1=$(prom_sum osmdqr_reconfigurations_total)
st1=$(prom_sum osmdqr_stages_total)
it_expect_eq "osmdqr_reconfigurations_total after one fault" "$rec1" 1
tolerance 1 "$TOL_FAULT"
[ "$st1" -ge "${stages% stages}" ] ||
	it_fail "osmdqr_stages_total $st1 < the fault's ${stages% stages}"

# --- 4. the link returns ----------------------------------------------------
it_ibsim_cmd "ReLink $FAULT"
sleep 1
kill -HUP "$OSM_PID"
transition_done $((k + 3))
it_readback "$HOST" t3
it_judge t3 --pairs=all
replay recovery t2 t3 $((k + 3))
prom_ok "after the recovery"
it_expect_eq "failed_links in dqr-status after the recovery" \
	"$(status failed_links)" 0
it_expect_eq "osmdqr_reconfigurations_total after the recovery" \
	"$(prom_sum osmdqr_reconfigurations_total)" $((rec1 + 1))
[ "$(prom_sum osmdqr_stages_total)" -gt "$st1" ] ||
	it_fail "osmdqr_stages_total did not grow with the recovery"
it_expect_eq "entries that differ from the tables before the fault" \
	"$(it_changed t3 t1)" 0

# --- 5. the records: one JSON object a line, the odd description intact --
python3 - "$W/dqr-reconfig.log" "$ODD_DESC" <<'EOF' ||
import json, sys
recs = [json.loads(line) for line in open(sys.argv[1])]
ends = [e for r in recs for c in r.get("links_failed", []) + r.get(
    "links_returned", []) for e in (c["a"], c["b"]) if e]
if sys.argv[2] not in [e["desc"] for e in ends]:
    sys.exit("no cable end named %r in %d records" % (sys.argv[2], len(recs)))
print("records: %d lines of JSON, %r named" % (len(recs), sys.argv[2]))
EOF
	it_fail "dqr-reconfig.log: a line that is no JSON, or no $ODD_DESC"
it_log "PASS"
