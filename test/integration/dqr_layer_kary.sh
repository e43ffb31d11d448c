#!/bin/sh
# dqr_layer_kary.sh - the FT paper's re-routing layer on VL 1, on the 4-ary
# 3-tree: middle switch sw-L2-0000, one of the four above the anchor leaf
# (lowest GUID), fails.  stretch=0: one-layer routes longer than the
# shortest go to the layer (the FT paper's local reroute), and DQR's
# repair of this switch is up to two links longer for some switch
# entries.  With qos TRUE the plugin routes them outside the channel
# list and moves every route with a U-turn to VL 1 at its first U-turn
# (path_sl and update_sl2vl).
#
#  1. The tables read back connect every physically connected pair, and
#     dqr-check, computing the layers itself from them, finds both VLs
#     acyclic (the one-layer graph is cyclic: the layer is needed).
#  2. The SL2VL tables the switches hold are dqr-check's, for every
#     linked out port and every in port; the SLs the SA hands out are
#     dqr-check's for the U-turn routes from CAs (and 0 for others).
#     Then a cable in another pod fails too, while the layer is in force:
#     the same checks.
#  3. Both come back: the original tables return, and OpenSM's own SL2VL
#     tables with them.
#  4. Without qos one layer holds the loss of sw-L2-0000 (the plane
#     plug-in, ftree/plane_entry.h: stretch= needs the layer, so the
#     longer routes stay in one layer): no ERR DQ25 nor DQ16, and the
#     read-back reaches every pair a cable joins.  Then sw-L2-0001, a
#     second middle switch of the anchor's pod, goes too: the layer is
#     refused loudly (ERR DQ25) and the base engine routes the whole
#     fabric (fallback=base, ERR DQ16); ERR DQ33 names the LIDs cut off
#     and the switches that cannot reach them.
#     opensm was restarted on the same dump_files_dir: its
#     reconfiguration and transition ids come after the first run's.
. "$(dirname "$0")/common.sh"

NET="$TOPO_DIR/kary-4-3.net"
HOST=ca-0050
SW='"sw-L2-0000"'
SW2='"sw-L2-0001"'
LINK='"sw-L1-0009"[6]'

for t in "$SMPQUERY" "$SAQUERY"; do
	[ -n "$t" ] && [ -e "$t" ] && continue
	[ "${DQR_REQUIRE_INTEGRATION:-0}" = 1 ] &&
		it_fail "missing smpquery/saquery (infiniband-diags)"
	it_log "SKIP: missing smpquery/saquery"
	exit 77
done

# lids NAME: "0x<guid> <lid> <kind>" of every node in NAME's read-back.
lids() {
	awk '/^Switch/ { g = $3; gsub(/"S-|"/, "", g)
			 for (i = 1; i <= NF; i++) if ($i == "lid") l = $(i + 1)
			 print "0x" g, l, "sw" }
	     /^Ca/     { g = $3; gsub(/"H-|"/, "", g); ca = 1; next }
	     ca && /^\[1\]/ { for (i = 1; i <= NF; i++)
				if ($i == "lid") { print "0x" g, $(i + 1), "ca"
						   break }
			      ca = 0 }' "$W/$1.ibnd"
}

# linked NAME: "GUID LID PORT" for every linked port of every switch in
# NAME's read-back.
linked() {
	awk '/^Switch/ { g = "0x" substr($3, 4, 16)
			 for (i = 1; i <= NF; i++) if ($i == "lid") l = $(i + 1)
			 on = 1; next }
	     on && /^\[[0-9]+\]/ { p = $1; gsub(/[^0-9]/, "", p)
				   print g, l, p }
	     /^$/ { on = 0 }' "$W/$1.ibnd"
}

# held_sl2vl NAME OUT: the SL2VL rows with a VL above 0 that the switches
# hold, for every linked out port, in the format of dqr-check --vl-dump;
# OUT gets every row (for part 3).  CA ports are left out: nothing
# depends into a CA's sending channel, so its injection VL cannot close
# a cycle, and the plugin leaves those tables to OpenSM's QoS setup.
held_sl2vl() {
	linked "$1" > "$W/$1.linked"
	cut -d' ' -f2,3 "$W/$1.linked" > "$W/$1.outports"
	it_smp_sl2vls "$HOST" < "$W/$1.outports" > "$W/$1.rows"
	awk 'NR == FNR { g[$2] = $1; next } { $1 = "sl2vl " g[$1]; print }' \
		"$W/$1.linked" "$W/$1.rows" > "$2"
	grep -v ' 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0$' "$2" | sort
}

# layer_fault WHAT NAME: WHAT fails (ibsim Unlink); once the change is in,
# the read-back NAME is judged on two VLs and the switches' SL2VL tables
# and the SA's SLs are compared with dqr-check's (parts 1 and 2).
layer_fault() {
	local name=$2 layers done s d

	layers=$(it_count "dqr: re-routing layer: [1-9]")
	done=$(it_count "dqr: transition [0-9]+ complete")
	it_ibsim_cmd "Unlink $1"
	it_wait_log "dqr: transition [0-9]+ complete" $((done + 1))
	it_settle
	[ "$(it_count "dqr: re-routing layer: [1-9]")" -gt "$layers" ] ||
		it_fail "Unlink $1: the plugin did not use the re-routing layer"
	grep -E "ERR DQ(1[5-8]|2[2-7])" "$W/osm.log" &&
		it_fail "fallback or unsafe transition with the re-routing layer"
	it_readback "$HOST" "$name"
	it_judge "$name" --pairs=all --vl-layers --vl-dump="$W/$name.vl"
	grep -q '"one_layer_acyclic":false' "$W/$name.json" ||
		it_fail "one layer holds the tables: the scenario tests nothing"
	grep -q '"deadlock_free":true' "$W/$name.json" ||
		it_fail "dqr-check: the two VLs are not deadlock free"
	it_log "Unlink $1: $(grep "dqr: re-routing layer:" "$W/osm.log" |
		tail -1 | sed 's/.*re-routing layer: //')"

	grep '^sl2vl ' "$W/$name.vl" | sort > "$W/$name.want.sl2vl"
	held_sl2vl "$name" "$W/$name.sl2vl.all" > "$W/$name.held.sl2vl"
	[ -s "$W/$name.want.sl2vl" ] || it_fail "dqr-check lists no VL-1 table"
	diff "$W/$name.want.sl2vl" "$W/$name.held.sl2vl" \
		> "$W/$name.sl2vl.diff" ||
		it_fail "SL2VL tables held differ from dqr-check's:" \
			"$(head -20 "$W/$name.sl2vl.diff")"
	it_log "ok: $(wc -l < "$W/$name.held.sl2vl") SL2VL rows with VL 1 on" \
		"the switches, as dqr-check computes them;" \
		"$(grep -c ' 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0$' \
			"$W/$name.sl2vl.all") rows all VL 0"
	lids "$name" | awk '$3 == "ca" { print $2 }' | sort -n > "$W/ca.lids"
	awk 'NR == FNR { ca[$1] = 1; next }
	     $1 == "path_sl" && ($2 in ca) { print $2, $3, $4 }' \
		"$W/ca.lids" "$W/$name.vl" | head -40 > "$W/$name.want.sl"
	[ -s "$W/$name.want.sl" ] || it_fail "dqr-check gives no CA route an SL"
	# and two routes without a U-turn: SL 0
	s=$(tail -1 "$W/ca.lids")
	for d in $(head -2 "$W/ca.lids"); do
		grep -q "^path_sl $s $d " "$W/$name.vl" || echo "$s $d 0"
	done >> "$W/$name.want.sl"
	cut -d' ' -f1,2 "$W/$name.want.sl" | it_sa_prs "$HOST" \
		> "$W/$name.got.sl"
	diff "$W/$name.want.sl" "$W/$name.got.sl" > "$W/$name.sl.diff" ||
		it_fail "SA PathRecord SLs (SLID DLID SL) differ from" \
			"dqr-check's: $(head -10 "$W/$name.sl.diff")"
	it_log "ok: SA PathRecord SLs of $(wc -l < "$W/$name.want.sl")" \
		"routes from CAs as dqr-check computes them"
}

it_setup
it_start_ibsim "$NET"

# --- 1, 2. two faults on two VLs -------------------------------------------
it_start_plugin "base=uturn drain_ms=50 stretch=0" "qos TRUE"
it_wait_log "dqr: base uturn" 1
it_settle
it_readback "$HOST" orig
it_judge orig --pairs=all
held_sl2vl orig "$W/orig.sl2vl.all" > /dev/null
layer_fault "$SW" fault1
# a cable in another pod while the layer is in force: the old fill is
# dropped, the one-layer part planned, the new fill added
layer_fault "$LINK" fault2

# --- 3. everything comes back ------------------------------------------------
n=$(it_count "dqr: reconfiguration [0-9]+ \(")
done=$(it_count "dqr: transition [0-9]+ complete")
it_ibsim_cmd "ReLink $SW"
it_ibsim_cmd "ReLink $LINK"
sleep 1
kill -HUP "$OSM_PID"
it_wait_log "dqr: reconfiguration [0-9]+ \(" $((n + 1))
it_wait_log "dqr: transition [0-9]+ complete" $((done + 1))
it_settle
grep -q "re-routing layer is no longer needed" "$W/osm.log" ||
	it_fail "the layer stayed in force after the switch came back"
it_readback "$HOST" back
it_judge back --pairs=all
it_expect_eq "entries that differ from the original tables" \
	"$(it_changed back orig)" 0
held_sl2vl back "$W/back.sl2vl.all" > /dev/null
sort "$W/orig.sl2vl.all" > "$W/a"
sort "$W/back.sl2vl.all" > "$W/b"
cmp -s "$W/a" "$W/b" ||
	it_fail "SL2VL tables after recovery differ from the original ones"
it_log "ok: OpenSM's own SL2VL tables are back on every port"

# --- 4. without qos: one layer holds one switch, not two -------------------
last_id=$(grep -o '^{"id":[0-9]*' "$W/dqr-reconfig.log" | cut -d: -f2 |
	sort -n | tail -1)
last_tr=$(grep -oE '^[0-9]+' "$W/dqr-transition.dump" | sort -n | tail -1)
[ -n "$last_id" ] && [ -n "$last_tr" ] || it_fail "no ids in the first run"
it_stop_opensm osm-qos.log
it_start_plugin "base=uturn drain_ms=50"
it_wait_log "dqr: base uturn" 1
grep -q "holds records up to reconfiguration $last_id and transition" \
	"$W/osm.log" || it_fail "no note of the first run's ids"
it_settle
# one layer holds the switch's loss (the plane plug-in): no layer is
# asked for, nothing falls back, every pair a cable joins is reachable
it_ibsim_cmd "Unlink $SW"
it_wait_log "dqr: transition [0-9]+ complete" 1
it_settle
grep -qE "ERR DQ(16|25): " "$W/osm.log" &&
	it_fail "without qos, DQR did not hold the loss of $SW in one layer"
grep -qE "dqr: reconfiguration [0-9]+ \(ok\)" "$W/osm.log" ||
	it_fail "no reconfiguration after the restart"
it_readback "$HOST" noqos
it_judge noqos --pairs=all
# a second middle switch of the anchor's pod: one layer cannot hold both
it_ibsim_cmd "Unlink $SW2"
it_wait_log "ERR DQ25: .*qos TRUE" 1
it_wait_log "ERR DQ16: " 1
it_settle
node='"[^"]+" 0x[0-9a-f]{16}'
grep -qE "ERR DQ33: .* LID [0-9]+ \($node\) from $node" "$W/osm.log" ||
	it_fail "ERR DQ33 names no LID cut off and switch"
for id in $(grep -oE "dqr: (reconfiguration|transition) [0-9]+ \(" \
		"$W/osm.log" | cut -d' ' -f2,3 | tr ' ' :); do
	case $id in
	reconf*) [ "${id#*:}" -gt "$last_id" ] ;;
	*) [ "${id#*:}" -gt "$last_tr" ] ;;
	esac || it_fail "$id after a restart: the first run ended at" \
		"reconfiguration $last_id, transition $last_tr"
done
dups=$(grep -oE '^\{"(id|transition)":[0-9]+' "$W/dqr-reconfig.log" |
	sort | uniq -d)
[ -z "$dups" ] || it_fail "ids repeat in dqr-reconfig.log: $dups"
grep -q "dqr: re-routing layer: [1-9]" "$W/osm.log" &&
	it_fail "re-routing layer used without qos"
it_log "ok: without qos: one layer holds one switch; for two," \
	"$(grep -o 'ERR DQ25: .*' "$W/osm.log" | head -1 | cut -c1-80)..."
it_log "PASS"
