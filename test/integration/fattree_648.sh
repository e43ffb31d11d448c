#!/bin/sh
# fattree_648.sh - opensm + plugin on the 2-tier fat tree of 36-port
# switches (648 CAs, 54 switches): SUBNET UP, every CA pair reachable and
# no dependency cycle in the tables read back from the switches; the
# plugin's figures match what the switches hold.  base=auto routes it
# with uturn (every pair, switches too, by itself); its balance is
# compared with OpenSM's ftree on the same fabric.
. "$(dirname "$0")/common.sh"

it_setup
it_start_ibsim "$TOPO_DIR/fattree2-36.net"
it_write_conf "event_plugin_options base=auto"
it_start_opensm
it_wait_log "dqr: base " 1
line=$(plugin_pass_line 1)
it_log "plugin: $line"
case "$line" in
*"dqr: base uturn (auto)"*"cycle no, filled 0 entries"*) ;;
*) it_fail "expected uturn, acyclic, complete: $line" ;;
esac
it_readback ca-0100 fabric
it_judge fabric --pairs=all
j="$W/fabric.json"
it_expect_eq "switches seen" "$(json_num "$j" switches)" 54
it_expect_eq "CA ports seen" "$(json_num "$j" end_ports)" 648
it_expect_eq "CA pairs" "$(grep -o '"ca-to-ca":{"total":[0-9]*' "$j" |
	grep -o '[0-9]*$')" $((648 * 647))
it_expect_eq "unreachable CA pairs" "$(grep -o \
	'"ca-to-ca":{"total":[0-9]*,"unreachable":[0-9]*' "$j" |
	grep -o '[0-9]*$')" 0
grep -q '"cycle":\[\]' "$j" || it_fail "dependency cycle"
it_expect_eq "channels (plugin = switches)" \
	"$(plugin_field "$line" channels)" "$(json_num "$j" channels)"
it_expect_eq "dependencies (plugin = switches)" \
	"$(plugin_field "$line" dependencies)" "$(json_num "$j" dependencies)"
grep -q '"unreachable":[1-9]' "$j" && it_fail "unreachable pairs"
kill "$OSM_PID"
wait "$OSM_PID" 2>/dev/null

# --- OpenSM's ftree on the same fabric, for the balance ------------------
rm -f "$W/osm.log"
it_write_conf "event_plugin_options base=ftree"
it_start_opensm
it_wait_log "dqr: base " 1
it_settle
it_readback ca-0101 ftree
it_uturn_balance fabric ftree
it_log "PASS"
