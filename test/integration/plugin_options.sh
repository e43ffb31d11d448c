#!/bin/sh
# plugin_options.sh - event_plugin_options as an operator meets them:
# a bad key or value gives one ERROR line naming it and OpenSM runs as
# without the plugin; every base engine runs through its exported setup
# function and its tables, read back from the switches, connect every CA
# pair (and, for up/down engines, have no dependency cycle).
. "$(dirname "$0")/common.sh"

it_setup
it_start_ibsim "$TOPO_DIR/kary-2-3.net"

# bad_option OPTIONS NAME: one ERROR line naming NAME, no dqr routing
bad_option() {
	it_write_conf "event_plugin_options $1"
	it_start_opensm
	it_wait_log "tables configured on all switches" 1
	n=$(grep "ERR\|ERROR\|error" "$W/osm.log" | grep -c -- "$2")
	it_expect_eq "ERROR lines naming '$2' for '$1'" "$n" 1
	grep -q "dqr: base " "$W/osm.log" &&
		it_fail "plugin routed despite '$1'"
	grep -q "minhop tables configured" "$W/osm.log" ||
		it_fail "OpenSM did not fall back to minhop for '$1'"
	it_stop_opensm
}

bad_option "base=nosuch" "base"
bad_option "base=ftree colour=blue" "colour"
bad_option "base=" "base"
bad_option "verify=maybe" "verify"
bad_option "base=updn base=ftree" "base"
bad_option "mesh_routing=ecube" "mesh_routing"
bad_option "layer_moves=maybe" "layer_moves"
bad_option "fast_path=soon" "fast_path"
bad_option "tolerance_s=1d" "tolerance_s"
bad_option "intermediates=5" "intermediates"

# options that cannot work together are named at load (ERR DQ32) with
# what happens instead, and the plugin routes all the same
it_start_plugin "base=ftree vl_layer=on stretch=1 transition=oneshot \
drain_ms=100 mesh_routing=updn layer_moves=on intermediates=2"
for what in "vl_layer=on cannot work with base=ftree" \
	"stretch=1 needs the re-routing layer, which base=ftree" \
	"drain_ms cannot work with transition=oneshot" \
	"mesh_routing=updn applies to base=auto on a mesh" \
	"layer_moves=on needs routes on virtual layers, which qos FALSE" \
	"intermediates=2 needs routes on virtual layers, which qos FALSE"; do
	it_expect_eq "ERR DQ32 lines '$what'" \
		"$(it_count "ERR DQ32: osmdqr: $what")" 1
done
it_expect_eq "ERR DQ32 lines in all" "$(it_count "ERR DQ32")" 6
it_stop_opensm

# every engine; the up/down family must also be deadlock free
for engine in ftree updn dnup minhop dor lash dfsssp sssp nue; do
	it_start_plugin "base=$engine"
	it_first_pass
	# a one-VL base whose tables are cyclic gives way to the plugin's
	# up*/down* (ERR DQ29), and the summary says so
	case $line in
	*"dqr: base $engine:"* | *"dqr: base updn instead of $engine:"*) ;;
	*) it_fail "base=$engine did not run $engine" ;;
	esac
	# vl_layer=on by default meets qos FALSE: a NOTICE, no error; the
	# SL engines need qos TRUE, which the operator asked for by name
	case $engine in
	lash|dfsssp|nue) want=1 ;;
	*) want=0 ;;
	esac
	it_expect_eq "base=$engine: ERR DQ32 lines" "$(it_count "ERR DQ32")" \
		"$want"
	it_expect_eq "base=$engine: qos FALSE NOTICEs" \
		"$(it_count "NOTICE: qos FALSE, one VL")" 1
	it_readback ca-0003 "$engine"
	"$DQR_CHECK" --json --pairs=ca "$W/$engine.ibnd" "$W/$engine.fts" \
		> "$W/$engine.json"
	it_expect_eq "$engine: unreachable CA pairs" "$(grep -o \
		'"ca-to-ca":{"total":56,"unreachable":[0-9]*' "$W/$engine.json" |
		grep -o '[0-9]*$')" 0
	case $engine in
	ftree|updn|dnup)
		grep -q '"cycle":\[\]' "$W/$engine.json" ||
			it_fail "$engine: dependency cycle"
		;;
	esac
	it_stop_opensm
done
it_log "PASS"
