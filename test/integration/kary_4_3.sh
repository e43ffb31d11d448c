#!/bin/sh
# kary_4_3.sh - opensm + plugin (routing_engine dqr) on an emulated 4-ary
# 3-tree reaches SUBNET UP; the tables read back from the switches connect
# every pair, switches included (ftree leaves the 816 switch-to-switch
# pairs unrouted, DQR fills them), and have an acyclic channel dependency
# graph; the plugin's own figures agree with what the switches hold.
# Then the same with base=updn, and with base=auto, which picks the
# plugin's own fat-tree routing (uturn): every pair routed by itself,
# acyclic, balanced at least as well as ftree (dqr-check --load).
. "$(dirname "$0")/common.sh"

it_setup
it_start_ibsim "$TOPO_DIR/kary-4-3.net"

# --- base=ftree: OpenSM's ftree, DQR fills its holes ------------------
it_write_conf "event_plugin_options base=ftree"
it_start_opensm
it_wait_log "dqr: base " 1
line=$(plugin_pass_line 1)
it_log "plugin: $line"
case "$line" in
*"dqr: base ftree:"*) ;;
*) it_fail "base=ftree did not run ftree" ;;
esac
it_readback ca-0001 ftree
it_judge ftree --pairs=all
j="$W/ftree.json"
it_expect_eq "switches seen" "$(json_num "$j" switches)" 48
it_expect_eq "CA ports seen" "$(json_num "$j" end_ports)" 64
it_expect_eq "CA pairs" "$(grep -o '"ca-to-ca":{"total":[0-9]*' "$j" |
	grep -o '[0-9]*$')" $((64 * 63))
grep -q '"cycle":\[\]' "$j" || it_fail "dependency cycle in ftree tables"
case "$line" in
*"filled 816 entries"*) ;;
*) it_fail "DQR did not fill ftree's 816 switch-to-switch entries" ;;
esac
# the plugin's model of the tables it uploaded = what the switches hold
it_expect_eq "channels (plugin = switches)" \
	"$(plugin_field "$line" channels)" "$(json_num "$j" channels)"
it_expect_eq "dependencies (plugin = switches)" \
	"$(plugin_field "$line" dependencies)" "$(json_num "$j" dependencies)"
unreach=$(grep -o '"unreachable":[0-9]*' "$j" |
	awk -F: '{ s += $2 } END { print s }')
it_expect_eq "unrouted pairs (plugin = switches)" \
	"$(printf '%s\n' "$line" | sed -n 's/.*unrouted pairs \([0-9]*\).*/\1/p')" \
	"$unreach"
case "$line" in
*"cycle no"*) ;;
*) it_fail "the plugin saw a cycle" ;;
esac
kill "$OSM_PID"
wait "$OSM_PID" 2>/dev/null

# --- base=updn: OpenSM's updn leaves switch pairs unrouted too ----------
rm -f "$W/osm.log"
it_write_conf "event_plugin_options base=updn"
it_start_opensm
it_wait_log "dqr: base " 1
line=$(plugin_pass_line 1)
it_log "plugin: $line"
case "$line" in
*"dqr: base updn:"*) ;;
*) it_fail "base=updn did not run updn" ;;
esac
sleep 1
it_readback ca-0002 updn
it_judge updn --pairs=all
it_expect_eq "dependencies (plugin = switches)" \
	"$(plugin_field "$line" dependencies)" \
	"$(json_num "$W/updn.json" dependencies)"
kill "$OSM_PID"
wait "$OSM_PID" 2>/dev/null

# --- base=auto: uturn, the plugin's own fat-tree routing ----------------
rm -f "$W/osm.log"
it_write_conf "event_plugin_options base=auto"
it_start_opensm
it_wait_log "dqr: base " 1
line=$(plugin_pass_line 1)
it_log "plugin: $line"
it_log "$(grep -o 'dqr: uturn: .*' "$W/osm.log" | head -1)"
case "$line" in
*"dqr: base uturn (auto)"*"cycle no, filled 0 entries"*) ;;
*) it_fail "auto did not route the tree with uturn by itself: $line" ;;
esac
grep -q "816 switch entries towards switches need a U-turn" "$W/osm.log" ||
	it_fail "uturn did not place the 816 switch-to-switch U-turn routes"
it_readback ca-0003 uturn
it_judge uturn --pairs=all
it_uturn_balance uturn ftree
it_log "PASS"
