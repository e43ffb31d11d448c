# faults.sh - the DQR fault scenario, sourced by the per-fabric tests
# after they set NET, HOST and LINKS (ibsim link names, failed in order).
#
#  1. OpenSM alone (routing_engine ftree): the first fault, and how many
#     LFT entries its fallback rewrites, read back from the switches.
#  2. OpenSM with the plugin: every fault in turn; after each, the tables
#     read back connect every physically connected pair (CA and switch
#     sources), have no dependency cycle, no fallback happened, and the
#     entries that changed are the ones the plugin reported, and the
#     records time every phase and stage (it_check_times).
#  3. Every link comes back: the original tables return exactly.
#  Every reconfiguration's log line and record name the cables that failed
#  or came back by both ends, and the switches lost or back (named_links).
. "$(dirname "$0")/common.sh"

RECONF_LINE="dqr: reconfiguration [0-9]+ \\("

# it_named LINK failed|returned NR FROM: the reconfiguration lines after
# the NR-th and the records from line FROM name LINK's cables and
# switches (test/integration/named_links.py).
it_named() {
	grep -E "$RECONF_LINE" "$W/osm.log" | tail -n +"$(($3 + 1))" \
		> "$W/named.lines"
	tail -n +"$4" "$W/dqr-reconfig.log" > "$W/named.json"
	python3 "$top_srcdir/test/integration/named_links.py" \
		"$W/orig.ibnd" "$1" \
		"$W/named.json" "$W/named.lines" "$2" ||
		it_fail "$1 $2 but not named: $(cat "$W/named.lines")"
}

it_setup
it_start_ibsim "$NET"
set -- $LINKS

# --- 1. stock OpenSM -------------------------------------------------------
it_stock_fault "$1"
osm_changed=$(it_changed osm1 osm0)
"$DQR_CHECK" --json "$W/osm1.ibnd" "$W/osm1.fts" > "$W/osm1.json"
osm_engine=$(grep "tables configured on all switches" "$W/osm.log" |
	tail -1 | sed 's/.*-> //; s/ tables configured.*//; s/^.*: //')
osm_cycle=no
grep -q '"cycle":\[\]' "$W/osm1.json" || osm_cycle=yes
it_log "OpenSM alone after Unlink $1: $osm_engine, $osm_changed entries" \
	"changed, dependency cycle: $osm_cycle"
it_stock_done "$1"

# --- 2. OpenSM with the plugin ----------------------------------------------
it_start_plugin "base=${BASE:-auto} drain_ms=50"
# on these fat trees auto means the plugin's own U-turn routing
[ -n "${BASE:-}" ] || grep -q "dqr: base uturn (auto)" "$W/osm.log" ||
	it_fail "base=auto did not route with uturn"
it_settle
it_readback "$HOST" orig
it_judge orig --pairs=all
prev=orig
i=0
for link in "$@"; do
	i=$((i + 1))
	from=1
	[ -f "$W/dqr-reconfig.log" ] &&
		from=$(($(wc -l < "$W/dqr-reconfig.log") + 1))
	n=$(it_count "[1-9][0-9]* switch ports newly down")
	done=$(it_count "dqr: transition [0-9]+ complete")
	nr=$(it_count "$RECONF_LINE")
	it_ibsim_cmd "Unlink $link"
	it_wait_log "[1-9][0-9]* switch ports newly down" $((n + 1))
	# the new tables go out in stages: judge them once all are in
	it_wait_log "dqr: transition [0-9]+ complete" $((done + 1))
	it_settle
	it_readback "$HOST" "fault$i"
	it_judge "fault$i" --pairs=all
	grep -q "ERR DQ1[5-8]" "$W/osm.log" &&
		it_fail "fallback after Unlink $link: $(grep 'ERR DQ1' "$W/osm.log")"
	changed=$(it_changed "fault$i" "$prev")
	it_expect_eq "entries changed by fault $i (switches = plugin)" \
		"$changed" "$(it_sum_json changed_entries "$from")"
	[ "$changed" -gt 0 ] || it_fail "fault $i changed nothing"
	[ $i = 1 ] && dqr_changed=$changed
	it_check_times "$from"
	it_named "$link" failed "$nr" "$from"
	it_log "fault $i (Unlink $link): $changed entries changed," \
		"$(it_sum_json changed_blocks "$from") blocks," \
		"$(it_sum_json compute_us "$from") us"
	prev="fault$i"
done
it_log "first fault: OpenSM alone changed $osm_changed entries" \
	"($osm_engine, cycle $osm_cycle), DQR changed $dqr_changed:" \
	"$(awk "BEGIN { printf \"%.3f\", $dqr_changed / $osm_changed }")" \
	"of OpenSM's"
[ "$dqr_changed" -lt "$osm_changed" ] ||
	it_fail "DQR changed no fewer entries than OpenSM alone"

# --- 3. every link back: the original tables ---------------------------------
n=$(it_count "$RECONF_LINE")
done=$(it_count "dqr: transition [0-9]+ complete")
from=$(($(wc -l < "$W/dqr-reconfig.log") + 1))
for link in "$@"; do
	it_ibsim_cmd "ReLink $link"
done
sleep 1
kill -HUP "$OSM_PID"
it_wait_log "dqr: reconfiguration [0-9]+ \(" $((n + 1))
it_wait_log "dqr: transition [0-9]+ complete" $((done + 1))
it_settle
it_readback "$HOST" back
it_judge back --pairs=all
it_expect_eq "entries that differ from the original tables" \
	"$(it_changed back orig)" 0
grep -q '"from_original":true' "$W/dqr-reconfig.log" ||
	it_fail "recovery did not start from the original tables"
it_check_times "$from"
for link in "$@"; do
	it_named "$link" returned "$n" "$from"
done
it_log "PASS"
