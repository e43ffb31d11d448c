# agree.sh - the plugin inside opensm and dqr-sim --what-if must answer a
# fault alike.  Sourced by the per-fabric tests after they set NET or GEN
# (a dqr-genfabric spec), HOST (the node that reads the fabric back:
# ibnetdiscover lists the nodes in an order that depends on it, and the
# plugin's model lists them in OpenSM's; the answers must not depend on
# either), FAULTS (ibsim names as Unlink takes them, one cable "sw"[p] or
# a whole switch "sw", each failed alone from the intact fabric),
# SHAPE_LINE and SHAPE (what the plugin's line of the shape it found
# begins with, and what it says: extended regular expressions), BASE
# (what the "dqr: base " line names), QOS (TRUE: opensm.conf says "qos
# TRUE") and SIM (dqr-sim's options for the shape: --torus-layers).
#
#  1. The start: the tables read back from the switches (ibnetdiscover,
#     dump_fts) hold every LID of the fabric on every switch (dump_fts
#     drops the block at LinearFDBTop when that LID is a multiple of 64,
#     and dqr-sim would leave that LID out), and dqr-sim reads them
#     whole: every switch, end port and LID, nothing to fill, no warning.
#  2. For each fault: dqr-sim --what-if on the start's tables, with the
#     plugin's options (and --layer-moves with as many VLs as the
#     plugin's line says its moves may use); then ibsim unlinks it, and
#     the plugin's reconfiguration and transition records (and its log
#     lines of each stage) must give the same entries changed, 64-LID
#     blocks, switches, stages, entries per stage and stages that wait a
#     drain, with the same reason (agree.py).  The entries changed are
#     also read back from the switches.  The fault then comes back, and
#     the start's tables must return exactly, for the next fault.
#  3. The comparison can fail: fault 1's records against the answer to a
#     fault that changes another number of entries disagree.
# AGREE_WRONG=NAME: what-if answers NAME instead of each fault, to see the
# test fail when the two differ.
. "$(dirname "$0")/common.sh"

: "${HOST:=ca-0000}"
: "${BASE:=[a-z-]+}"
: "${SHAPE_LINE:=dqr: shape: }"
: "${SHAPE:=.*}"
: "${SIM:=}"
# the plugin's options: drains of 50 ms instead of OpenSM's packet
# lifetime's two seconds; dqr-sim takes the same string
OPTIONS="drain_ms=50"
RECONF="dqr: reconfiguration [0-9]+ \\("
DQR_SIM="$top_builddir/tools/dqr-sim"

[ -x "$DQR_SIM" ] || it_fail "no $DQR_SIM"

# mark: the number of the OpenSM log's next line.
mark() {
	echo $(($(wc -l < "$W/osm.log") + 1))
}

# records: the number of dqr-reconfig.log's next line.
records() {
	if [ -f "$W/dqr-reconfig.log" ]; then
		echo $(($(wc -l < "$W/dqr-reconfig.log") + 1))
	else
		echo 1
	fi
}

# pass_done NR: a reconfiguration after the NR-th, and every transition
# begun since has ended.
pass_done() {
	local begun

	it_wait_log "$RECONF" $(($1 + 1)) 120
	it_settle
	begun=$(it_count "dqr: transition [0-9]+ \([^)]*\): [0-9]+ entries on")
	it_wait_log "dqr: transition [0-9]+ (complete|left after)" "$begun" 120
	it_settle
}

# lids_whole NAME: every switch's table in read-back NAME holds every
# LID the fabric has, and none is the LID dump_fts would drop.
lids_whole() {
	local lids

	lids=$(grep -oE '(^|[^0-9a-z])lid [0-9]+' "$W/$1.ibnd" |
		awk '{ print $NF }' | sort -un | wc -l)
	awk -v want="$lids" '
	/^Unicast lids / { if (sw != "" && n != want) bad = bad " " sw "=" n
			   sw = $0; sub(/.*\(/, "", sw); sub(/\).*/, "", sw)
			   n = 0; next }
	/^0x[0-9a-f]+ [0-9]+ / { n++ }
	END { if (sw != "" && n != want) bad = bad " " sw "=" n
	      if (sw == "") bad = " no table"
	      if (bad != "") { print "LIDs per switch, want " want ":" bad
			       exit 1 } }' "$W/$1.fts" > "$W/$1.lids" ||
		it_fail "$1: $(cat "$W/$1.lids")"
	LIDS=$lids
}

it_setup
[ -z "${GEN:-}" ] || it_gen_net "$GEN"

# --- 1. the start -------------------------------------------------------------
it_start_ibsim "$NET"
it_write_conf ${QOS:+"qos $QOS"} "event_plugin_options $OPTIONS"
it_start_opensm
it_wait_log "dqr: base " 1
it_settle
grep -Eq "dqr: base ($BASE) \(auto" "$W/osm.log" ||
	it_fail "base not $BASE: $(grep 'dqr: base ' "$W/osm.log" | head -1)"
grep -Eq "$SHAPE_LINE($SHAPE)" "$W/osm.log" ||
	it_fail "shape not $SHAPE: $(grep -E "$SHAPE_LINE" "$W/osm.log")"
it_log "plugin: $(grep -E "$SHAPE_LINE" "$W/osm.log" | head -1 |
	sed 's/^.* dqr: //' | cut -c1-200)"
# the VLs the plugin's moves between layers may use: "moves routes to
# another of layers 0-N"
moves=$(sed -n 's/.*moves routes to another of layers 0-\([0-9]*\).*/\1/p' \
	"$W/osm.log" | tail -1)
[ -z "$moves" ] || SIM="$SIM --layer-moves=$((moves + 1))"
it_readback "$HOST" orig
lids_whole orig
switches=$(grep -c '^Switch' "$W/orig.ibnd")
ends=$(grep -cE '^(Ca|Hca)' "$W/orig.ibnd")
it_log "start: $switches switches, $ends CAs, $LIDS LIDs on every switch"

# --- 2. each fault alone ------------------------------------------------------
# shellcheck disable=SC2086
nfaults=$(set -- $FAULTS; echo $#)
i=0
for fault in $FAULTS; do
	i=$((i + 1))
	# shellcheck disable=SC2086
	"$DQR_SIM" --topology "$W/orig.ibnd" --lfts "$W/orig.fts" $SIM \
		--options "$OPTIONS" --what-if "${AGREE_WRONG:-$fault}" \
		--json > "$W/whatif$i.json" 2> "$W/whatif$i.err"
	st=$?
	[ "$st" = 0 ] || it_fail "dqr-sim --what-if $fault: status $st:" \
		"$(cat "$W/whatif$i.err")"
	[ ! -s "$W/whatif$i.err" ] ||
		it_fail "dqr-sim --what-if $fault says: $(cat "$W/whatif$i.err")"
	it_expect_eq "dqr-sim: switches" \
		"$(json_num "$W/whatif$i.json" switches)" "$switches"
	it_expect_eq "dqr-sim: end ports" \
		"$(json_num "$W/whatif$i.json" end_ports)" "$ends"
	it_expect_eq "dqr-sim: LIDs" "$(json_num "$W/whatif$i.json" lids)" \
		"$LIDS"
	it_expect_eq "dqr-sim: entries filled at the start" \
		"$(json_num "$W/whatif$i.json" filled)" 0

	from=$(records)
	line=$(mark)
	nr=$(it_count "$RECONF")
	it_log "fault $i: Unlink $fault"
	it_ibsim_cmd "Unlink $fault"
	pass_done "$nr"
	tail -n +"$from" "$W/dqr-reconfig.log" > "$W/records$i"
	tail -n +"$line" "$W/osm.log" > "$W/log$i"
	it_readback "$HOST" "fault$i"
	changed=$(it_changed "fault$i" orig)
	python3 "$top_srcdir/test/integration/agree.py" "$W/whatif$i.json" \
		"$W/records$i" "$W/log$i" "$changed" > "$W/agree$i.txt"
	st=$?
	while read -r l; do
		it_log "  $l"
	done < "$W/agree$i.txt"
	[ "$st" = 0 ] || it_fail "fault $i ($fault): the plugin and" \
		"dqr-sim --what-if disagree"
	it_log "ok: fault $i ($fault): the plugin and dqr-sim agree"

	# back to the start for the next fault
	[ "$i" -lt "$nfaults" ] || break
	nr=$(it_count "$RECONF")
	it_ibsim_cmd "ReLink $fault"
	sleep 1
	kill -HUP "$OSM_PID"
	pass_done "$nr"
	it_readback "$HOST" "back$i"
	it_expect_eq "fault $i back: entries that differ from the start" \
		"$(it_changed "back$i" orig)" 0
done

# --- 3. the comparison can fail -----------------------------------------------
k=0
for j in $(seq 2 "$i"); do
	[ "$(json_num "$W/whatif$j.json" changed_entries)" = \
		"$(json_num "$W/whatif1.json" changed_entries)" ] || {
		k=$j
		break
	}
done
if [ "$k" = 0 ]; then
	it_log "no fault changes other entries than fault 1: not checked" \
		"that the comparison fails"
elif python3 "$top_srcdir/test/integration/agree.py" "$W/whatif$k.json" \
	"$W/records1" "$W/log1" > "$W/agree-wrong.txt"; then
	cat "$W/agree-wrong.txt"
	it_fail "fault 1's records agree with the answer to fault $k"
else
	it_log "ok: fault 1's records disagree with the answer to fault $k"
fi
it_log "PASS"
