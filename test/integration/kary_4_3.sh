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
it_start_plugin "base=ftree"
it_first_pass
it_expect_match "$line" "*dqr: base ftree:*" "base=ftree did not run ftree"
it_readback ca-0001 ftree
it_judge ftree --pairs=all
j="$W/ftree.json"
it_expect_fabric "$j" 48 64
grep -q '"cycle":\[\]' "$j" || it_fail "dependency cycle in ftree tables"
it_expect_match "$line" "*filled 816 entries*" \
	"DQR did not fill ftree's 816 switch-to-switch entries"
# the plugin's model of the tables it uploaded = what the switches hold
it_expect_plugin_agrees "$line" "$j" channels dependencies
unreach=$(grep -o '"unreachable":[0-9]*' "$j" |
	awk -F: '{ s += $2 } END { print s }')
it_expect_eq "unrouted pairs (plugin = switches)" \
	"$(printf '%s\n' "$line" |
		sed -n 's/.*unrouted pairs \([0-9]*\).*/\1/p')" "$unreach"
it_expect_match "$line" "*cycle no*" "the plugin saw a cycle"
it_stop_opensm

# --- base=updn: OpenSM's updn leaves switch pairs unrouted too ----------
it_start_plugin "base=updn"
it_first_pass
it_expect_match "$line" "*dqr: base updn:*" "base=updn did not run updn"
sleep 1
it_readback ca-0002 updn
it_judge updn --pairs=all
it_expect_plugin_agrees "$line" "$W/updn.json" dependencies
it_stop_opensm

# --- base=auto: uturn, the plugin's own fat-tree routing ----------------
it_start_plugin "base=auto"
it_first_pass
it_log "$(grep -o 'dqr: uturn: .*' "$W/osm.log" | head -1)"
it_expect_match "$line" "*dqr: base uturn (auto)*cycle no, filled 0 entries*" \
	"auto did not route the tree with uturn by itself: $line"
grep -q "816 switch entries towards switches need a U-turn" "$W/osm.log" ||
	it_fail "uturn did not place the 816 switch-to-switch U-turn routes"
it_readback ca-0003 uturn
it_judge uturn --pairs=all
it_uturn_balance uturn ftree
it_log "PASS"
