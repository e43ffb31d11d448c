#!/bin/sh
# ibdmchk_agree.sh - dqr-check and ibdmchk (Debian ibutils), the credit-loop
# checker operators already trust, judge the same tables read back from the
# switches and must agree:
#  1. the 4-ary 3-tree routed by the plugin (base=auto), before and after a
#     link fault: both find no credit loop;
#  2. the 4x4 torus routed by a stock opensm with minhop on one VL: both
#     find a credit loop.  ibdmchk also judges OpenSM's own dumps of that
#     routing, which checks the conversion (ibdm.sh);
#  3. the plugin's re-routing layer after a switch fault: on one VL both
#     find a credit loop, on its two VLs neither (ibdmchk: CA routes only).
# Both also count the same paths, every one of them routed.
#
# ibdm.sh converts the read-backs and runs ibdmchk (-a: every path, one VL).
. "$(dirname "$0")/common.sh"
. "$(dirname "$0")/ibdm.sh"

# agree NAME WANT: dqr-check and ibdmchk on read-back NAME both say WANT
# (loop or none), and both saw every pair routed.
agree() {
	local name=$1 want=$2 d i st paths pairs

	"$DQR_CHECK" --json "$W/$name.ibnd" "$W/$name.fts" \
		> "$W/$name.json" 2> "$W/$name.err"
	st=$?
	[ "$st" -le 1 ] ||
		it_fail "dqr-check cannot read $name: $(cat "$W/$name.err")"
	d=loop
	grep -q '"cycle":\[\]' "$W/$name.json" && d=none
	ibdm_subnet "$W/$name.ibnd" > "$W/$name.lst"
	ibdm_fdbs "$W/$name.fts" > "$W/$name.fdbs"
	i=$(ibdm_run "$W/$name.ibdm" "$W/$name.lst" "$W/$name.fdbs" -a)
	grep -E -- "credit loop|Scanned|^-E-" "$W/$name.ibdm" | head -8 |
		while read -r l; do it_log "ibdmchk $name: $l"; done
	[ "$i" != "?" ] || {
		tail -20 "$W/$name.ibdm"
		it_fail "ibdmchk gave no verdict on $name"
	}
	it_log "$name: dqr-check says $d, ibdmchk says $i"
	"$DQR_CHECK" "$W/$name.ibnd" "$W/$name.fts" 2>&1 |
		grep "^dependency cycle" | while read -r l; do
			it_log "dqr-check $name: $l"
		done
	[ "$d" = "$i" ] ||
		it_fail "$name: dqr-check ($d) and ibdmchk ($i) disagree"
	it_expect_eq "credit loop in $name" "$d" "$want"
	# the same paths, all routed: ibdmchk prints an -E- line per missing one
	pairs=$(grep -o '"total":[0-9]*' "$W/$name.json" |
		awk -F: '{ s += $2 } END { print s + 0 }')
	paths=$(sed -n 's/^-I- Scanned:\([0-9]*\) paths.*/\1/p' "$W/$name.ibdm")
	it_expect_eq "$name: paths ibdmchk scanned (= dqr-check's pairs)" \
		"$paths" "$pairs"
	it_expect_eq "$name: CA to CA paths (ibdmchk = dqr-check)" \
		"$(sed -n 's/^-I- Scanned:\([0-9]*\) CA to CA.*/\1/p' \
			"$W/$name.ibdm")" \
		"$(grep -o '"ca-to-ca":{"total":[0-9]*' "$W/$name.json" |
			grep -o '[0-9]*$')"
	it_expect_eq "$name: unreachable pairs (dqr-check)" \
		"$(grep -o '"unreachable":[0-9]*' "$W/$name.json" |
			awk -F: '{ s += $2 } END { print s + 0 }')" 0
	grep -q -- "-E- Fail to find a path" "$W/$name.ibdm" &&
		it_fail "$name: ibdmchk finds paths missing"
	return 0
}

it_setup
ibdm_require

# --- 1. the 4-ary 3-tree routed by the plugin, then a fault ---------------
FAULT='"sw-L1-0000"[5]'
it_start_ibsim "$TOPO_DIR/kary-4-3.net"
it_start_plugin "base=auto drain_ms=50"
it_settle
it_readback ca-0009 tree
agree tree none
n=$(it_count "[1-9][0-9]* switch ports newly down")
done=$(it_count "dqr: transition [0-9]+ complete")
it_ibsim_cmd "Unlink $FAULT"
it_wait_log "[1-9][0-9]* switch ports newly down" $((n + 1))
it_wait_log "dqr: transition [0-9]+ complete" $((done + 1))
it_settle
it_readback ca-0009 tree-fault
agree tree-fault none
[ "$(it_changed tree-fault tree)" -gt 0 ] ||
	it_fail "the fault changed no table entry"
it_stop_opensm
it_stop_ibsim

# --- 2. the 4x4 torus routed by a stock opensm: minhop, one VL ------------
# log_flags 0x43 adds the routing dumps (opensm.fdbs) to opensm-subnet.lst
it_start_ibsim "$TOPO_DIR/torus-4x4.net"
cat > "$W/opensm.conf" <<-EOF2
routing_engine minhop
dump_files_dir $W
log_flags 0x43
EOF2
it_start_opensm
it_settle
it_readback ca-0001 torus
agree torus loop
# OpenSM's own dumps of its model, judged alike: the conversion is faithful
i=$(ibdm_run "$W/torus-osm.ibdm" "$W/opensm-subnet.lst" "$W/opensm.fdbs" -a)
it_expect_eq "ibdmchk on OpenSM's own dumps of the torus" "$i" loop
it_stop_opensm
it_stop_ibsim

# --- 3. the plugin's re-routing layer on the tree: one VL, then two -------
# After switch sw-L2-0000 fails one VL cannot hold the repair: the plugin
# moves the U-turn routes to VL 1 (SLs 1 and 2).  On one VL both checkers
# must find the cycle, which only the switch-to-switch U-turn routes close
# (ibdmchk without -a sees none).  On the two VLs that dqr-check computes
# from the read-back (--vl-dump: what dqr_layer_kary.sh finds in the
# switches' SL2VL tables and the SA's SLs) ibdmchk judges the CA routes
# only: it puts a route's first hop on VL = SL, so SL 2 on a switch's own
# route has no channel (it crashes), and it cannot map a switch's own
# SL 1 routes to VL 0 at their first hop as the plugin does.
it_start_ibsim "$TOPO_DIR/kary-4-3.net"
it_start_plugin "base=uturn drain_ms=50 stretch=0" "qos TRUE"
it_settle
done=$(it_count "dqr: transition [0-9]+ complete")
it_ibsim_cmd 'Unlink "sw-L2-0000"'
it_wait_log "dqr: transition [0-9]+ complete" $((done + 1))
it_settle
grep -q "dqr: re-routing layer: [1-9]" "$W/osm.log" ||
	it_fail "the plugin did not use the re-routing layer"
it_readback ca-0050 layer
agree layer loop
"$DQR_CHECK" --json --vl-layers --vl-dump="$W/layer.vl" \
	"$W/layer.ibnd" "$W/layer.fts" > "$W/layer-vl.json"
d=loop
grep -q '"deadlock_free":true' "$W/layer-vl.json" && d=none
ibdm_vl "$W/layer.ibnd" "$W/layer.vl" "$W/layer.psl" "$W/layer.slvl"
i=$(ibdm_run "$W/layer-vl.ibdm" "$W/layer.lst" "$W/layer.fdbs" \
	-c "$W/layer.psl" -d "$W/layer.slvl")
grep -E -- "SLs|VLs|credit loop|^-E-" "$W/layer-vl.ibdm" | head -6 |
	while read -r l; do it_log "ibdmchk layer on 2 VLs: $l"; done
it_log "layer on two VLs: dqr-check says $d, ibdmchk (CA routes) says $i"
[ "$d" = "$i" ] ||
	it_fail "layer on two VLs: dqr-check ($d) and ibdmchk ($i) disagree"
it_expect_eq "credit loop in layer on two VLs" "$d" none
it_log "PASS"
