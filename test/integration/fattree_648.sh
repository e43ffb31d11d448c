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
it_start_plugin "base=auto"
it_first_pass
it_expect_match "$line" "*dqr: base uturn (auto)*cycle no, filled 0 entries*" \
	"expected uturn, acyclic, complete: $line"
it_readback ca-0100 fabric
it_judge fabric --pairs=all
j="$W/fabric.json"
it_expect_fabric "$j" 54 648
it_expect_eq "unreachable CA pairs" "$(grep -o \
	'"ca-to-ca":{"total":[0-9]*,"unreachable":[0-9]*' "$j" |
	grep -o '[0-9]*$')" 0
grep -q '"cycle":\[\]' "$j" || it_fail "dependency cycle"
it_expect_plugin_agrees "$line" "$j" channels dependencies
grep -q '"unreachable":[1-9]' "$j" && it_fail "unreachable pairs"
it_stop_opensm

# --- OpenSM's ftree on the same fabric, for the balance ------------------
it_start_plugin "base=ftree"
it_settle
it_readback ca-0101 ftree
it_uturn_balance fabric ftree
it_log "PASS"
