# ibdm.sh - ibdmchk (Debian ibutils), the credit-loop checker operators
# already trust, fed with the tables read back from the switches.  Sourced
# after common.sh, not run.
#
# ibdmchk reads an OpenSM subnet.lst and unicast FDB dump (opensm.fdbs), not
# what ibnetdiscover and dump_fts print; ibdm_subnet and ibdm_fdbs convert.
# It is run with -a (every path, switches included, as dqr-check judges),
# one SL and no SL2VL file: one VL, as dqr-check without --vl-layers.

: "${IBDMCHK:=$(command -v ibdmchk || true)}"

# ibdm_require: skip without ibdmchk, unless CI demands that it runs.
ibdm_require() {
	[ -n "$IBDMCHK" ] && return 0
	[ "${DQR_REQUIRE_INTEGRATION:-0}" = 1 ] && it_fail "missing: ibdmchk"
	it_log "SKIP: missing: ibdmchk (Debian ibutils)"
	exit 77
}

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
