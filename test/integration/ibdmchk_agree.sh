#!/bin/sh
# ibdmchk_agree.sh - dqr-check and ibdmchk (Debian ibutils), the credit-loop
# checker operators already trust, judge the same tables read back from the
# switches and must agree:
#  1. the 4-ary 3-tree routed by the plugin (base=auto), before and after a
#     link fault: both find no credit loop;
#  2. the 4x4 torus routed by a stock opensm with minhop on one VL: both
#     find a credit loop.  ibdmchk also judges OpenSM's own dumps of that
#     routing, which checks the conversion below;
#  3. the plugin's re-routing layer after a switch fault: on one VL both
#     find a credit loop, on its two VLs neither (ibdmchk: CA routes only).
# Both also count the same paths, every one of them routed.
#
# ibdmchk reads an OpenSM subnet.lst and unicast FDB dump (opensm.fdbs), not
# what ibnetdiscover and dump_fts print; ibdm_subnet and ibdm_fdbs convert.
# It is run with -a (every path, switches included, as dqr-check judges),
# one SL and no SL2VL file: one VL, as dqr-check without --vl-layers.
. "$(dirname "$0")/common.sh"

: "${IBDMCHK:=$(command -v ibdmchk || true)}"

# ibdm_subnet IBND: ibnetdiscover's output as OpenSM's subnet.lst: a line
# per port of each link, "{ end } { remote end } PHY=.. LOG=ACT SPD=..".
ibdm_subnet() {
	awk '
	function hex16(g) {
		sub(/^0x/, "", g)
		while (length(g) < 16)
			g = "0" g
		return g
	}
	function speed(s) {
		if (s ~ /^DDR/) return "5"
		if (s ~ /^(QDR|FDR10)/) return "10"
		if (s ~ /^FDR/) return "14"
		if (s ~ /^EDR/) return "25"
		if (s ~ /^HDR/) return "50"
		return "2.5"
	}
	function end(id, p) {
		return sprintf("{ %s Ports:%02X SystemGUID:%s NodeGUID:%s " \
			"PortGUID:%s VenID:000000 DevID:0000 Rev:00000000 " \
			"{%s} LID:%04X PN:%02X }", type[id], nports[id],
			sysg[id], nodeg[id], pg[id, p], desc[id], lid[id, p], p)
	}
	/^sysimgguid=/ { sys = substr($0, 12); next }
	/^switchguid=/ {
		split(substr($0, 12), a, /[()]/)
		guid = a[1]
		swpg = hex16(a[2])
		next
	}
	/^caguid=/ { guid = substr($0, 8); next }
	/^(Switch|Ca)\t/ {
		split($0, q, "\"")
		id = q[2]
		desc[id] = q[4]
		gsub(/}/, "", desc[id])
		type[id] = $1 == "Switch" ? "SW" : "CA"
		nports[id] = $2
		# a node without a system GUID is a system of its own
		sysg[id] = hex16(sys != "" ? sys : guid)
		nodeg[id] = hex16(guid)
		sys = ""
		swlid = ""
		if (match($0, /base port 0 lid [0-9]+/))
			swlid = substr($0, RSTART + 16, RLENGTH - 16)
		next
	}
	/^\[[0-9]+\]/ {
		match($0, /^\[[0-9]+\]/)
		p = substr($0, 2, RLENGTH - 2)
		if (type[id] == "SW") {
			lid[id, p] = swlid
			pg[id, p] = swpg
		} else {
			# a CA port: "[1](portguid) ... # lid N lmc 0 ..."
			match($0, /^\[[0-9]+\]\([0-9a-fA-F]+\)/)
			pg[id, p] = hex16(substr($0, length(p) + 4,
						 RLENGTH - length(p) - 4))
			match($0, /# lid [0-9]+/)
			lid[id, p] = substr($0, RSTART + 6, RLENGTH - 6)
		}
		split($0, q, "\"")
		match(q[3], /^\[[0-9]+\]/)
		n++
		la[n] = id
		lp[n] = p
		ra[n] = q[2]
		rp[n] = substr(q[3], 2, RLENGTH - 2)
		match($0, /[0-9]+x[A-Z0-9]+[ \t]*$/)
		w = substr($0, RSTART, RLENGTH)
		wid[n] = substr(w, 1, index(w, "x"))
		spd[n] = speed(substr(w, index(w, "x") + 1))
	}
	END {
		for (i = 1; i <= n; i++)
			if ((ra[i], rp[i]) in lid)
				printf "%s %s PHY=%s LOG=ACT SPD=%s\n",
				       end(la[i], lp[i]), end(ra[i], rp[i]),
				       wid[i], spd[i]
	}
	' "$1"
}

# ibdm_fdbs FTS: dump_fts output as OpenSM's unicast FDB dump (opensm.fdbs,
# "dump_ucast_routes: Switch 0xGUID", then "0xLID : PORT : HOPS : yes").
# ibdmchk uses only the port; the hops it computes itself.
ibdm_fdbs() {
	awk '
	/^Unicast lids / {
		match($0, /guid 0x[0-9a-fA-F]+/)
		g = tolower(substr($0, RSTART + 7, RLENGTH - 7))
		while (length(g) < 16)
			g = "0" g
		printf "dump_ucast_routes: Switch 0x%s\n", g
		print "LID    : Port : Hops : Optimal"
		next
	}
	/^0x[0-9a-fA-F]+ [0-9]+ / {
		printf "%s : %03d  : 00   : yes\n", $1, $2
	}
	' "$1"
}

# ibdm_vl IBND VLDUMP PSL SLVL: dqr-check's --vl-dump as ibdmchk's path
# SLs (-c, "0xSRC-NODE-GUID DLID SL") and switch SL2VL tables (-d,
# "0xGUID IN OUT 0x(sl0)(sl1) .. 0x(sl14)(sl15)").  ibdmchk wants a whole
# table from a node it has any row of (a missing one is an error, and a
# node without rows gets SL 0 or the identity SL2VL), so those are
# written in full, with dqr-check's SL 0 and VL 0 where it lists nothing.
# Rows of in port 0 are left out: ibdmchk puts a route's first hop on
# VL = SL, at CAs and switches alike.
ibdm_vl() {
	awk -v psl="$3" -v slvl="$4" '
	function hex16(g) {
		sub(/^0x/, "", g)
		g = tolower(g)
		while (length(g) < 16)
			g = "0" g
		return g
	}
	FNR == NR && /^switchguid=/ {
		split(substr($0, 12), a, /[()]/)
		guid = hex16(a[1])
		next
	}
	FNR == NR && /^caguid=/ { guid = hex16(substr($0, 8)); next }
	FNR == NR && /^Switch\t/ {
		match($0, /base port 0 lid [0-9]+/)
		node[substr($0, RSTART + 16, RLENGTH - 16)] = guid
		nports[guid] = $2
		next
	}
	FNR == NR && /^\[[0-9]+\]\(/ && match($0, /# lid [0-9]+/) {
		node[substr($0, RSTART + 6, RLENGTH - 6)] = guid
		next
	}
	FNR == NR { next }
	$1 == "path_sl" { src[node[$2]] = 1; sl[node[$2], $3] = $4 }
	$1 == "sl2vl" && $3 != 0 {
		sw[hex16($2)] = 1
		for (k = 0; k < 16; k++)
			vl[hex16($2), $3, $4, k] = $(5 + k)
	}
	function row(s, i, o,   k, r) {
		r = sprintf("0x%s %d %d", s, i, o)
		for (k = 0; k < 16; k += 2)
			r = r sprintf(" 0x%x%x", vl[s, i, o, k],
				      vl[s, i, o, k + 1])
		return r
	}
	END {
		for (s in src)
			for (d in node)
				printf "0x%s %d %d\n", s, d, sl[s, d] > psl
		for (s in sw)
			for (i = 1; i <= nports[s]; i++)
				for (o = 1; o <= nports[s]; o++)
					print row(s, i, o) > slvl
	}' "$1" "$2"
	: >> "$3"
	: >> "$4"
}

# ibdm_run OUT SUBNET FDBS [OPTIONS]: ibdmchk's verdict, "loop" or "none",
# with its report in OUT.  ibdmchk 1.5.7 crashes in CrdLoopCleanup() right
# after printing its verdict, so its output is judged, not its exit status.
ibdm_run() {
	local out=$1 subnet=$2 fdbs=$3

	shift 3
	: > "$W/empty.mcfdbs"
	"$IBDMCHK" -s "$subnet" -f "$fdbs" -m "$W/empty.mcfdbs" "$@" \
		> "$out" 2>&1
	if grep -q -- "-E- credit loops in routing" "$out"; then
		echo loop
	elif grep -q -- "-I- no credit loops found" "$out"; then
		echo none
	else
		echo "?"
	fi
}

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
if [ -z "$IBDMCHK" ]; then
	[ "${DQR_REQUIRE_INTEGRATION:-0}" = 1 ] && it_fail "missing: ibdmchk"
	it_log "SKIP: missing: ibdmchk (Debian ibutils)"
	exit 77
fi

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
