#!/bin/sh
# dqr_check_torus.sh - dqr-check --torus-layers: e-cube tables of
# generated tori judged per virtual layer, broken ones failed, and the
# --vl-dump read back by --replay --vls and by ibdmchk (when installed).
set -u
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
. "$top_srcdir/test/tools/cli_lib.sh"
tool="$top_builddir/tools/dqr-check"
name=dqr-check
W=$(mktemp -d) || exit 1
trap 'rm -f "$out"; rm -rf "$W"' EXIT

# torus_ibnd NET: dqr-genfabric's net file as ibnetdiscover prints it:
# node and port GUIDs (switches 0x200000 on, CAs 0x100000 on, a CA's
# port GUID one above), "base port 0 lid" on switch headers, "Ca".
torus_ibnd() {
	awk '
	/^Switch\t/ {
		g = sprintf("%x", 2097152 + nsw++)
		printf "switchguid=0x%s(%s)\n", g, g
		sub(/# "[^"]*" lid/, "& base port 0 lid")
		sub(/" lid base port 0 lid/, "\" base port 0 lid")
		print
		next
	}
	/^Hca\t/ {
		g = 1048576 + 2 * nca++
		printf "caguid=0x%x\n", g
		sub(/^Hca/, "Ca")
		print
		ca = 1
		next
	}
	/^$/ { ca = 0 }
	ca && /^\[[0-9]+\]\t/ { sub(/\]/, sprintf("](%x)", g + 1)) }
	{ print }
	' "$1"
}

# torus_fts IBND [ORDER]: e-cube's tables of torus_ibnd's output as
# dump_fts prints them, computed from the switch names' coordinates:
# each ring the shorter way, upwards on a tie (as lib's e-cube),
# dimensions x, y, z in turn.  ORDER "mixed" takes y before x towards
# odd LIDs: every route still minimal, but the dimension order broken,
# so that e-cube's layers close cycles.
torus_fts() {
	awk -v order="${2:-xyz}" '
	function coords(name, c,   i, n, a) {
		n = split(name, a, "-")
		for (i = 2; i <= n; i++)
			c[i - 1] = substr(a[i], 2) + 0
		return n - 1
	}
	/^switchguid=/ { split(substr($0, 12), a, /[(]/); guid = a[1] }
	/^Switch\t/ {
		split($0, q, "\"")
		cur = q[2]
		sw[++ns] = cur
		sguid[cur] = guid
		match($0, /base port 0 lid [0-9]+/)
		l = substr($0, RSTART + 16, RLENGTH - 16) + 0
		slid[cur] = l
		owner[l] = cur
		oport[l] = 0
		nd = coords(cur, c)
		for (k = 1; k <= nd; k++) {
			xy[cur, k] = c[k]
			if (c[k] + 1 > dim[k])
				dim[k] = c[k] + 1
		}
		next
	}
	/^Ca\t/ { cur = ""; next }
	cur != "" && /^\[[0-9]+\]/ {
		match($0, /^\[[0-9]+\]/)
		p = substr($0, 2, RLENGTH - 2)
		split($0, q, "\"")
		if (q[2] ~ /^sw-/) {
			to[cur, q[2]] = p
			next
		}
		match($0, /lid [0-9]+/)
		l = substr($0, RSTART + 4, RLENGTH - 4) + 0
		owner[l] = cur
		oport[l] = p
	}
	# the port of s towards coordinate nc in dimension k
	function towards(s, k, nc,   j, t, i, same) {
		for (j = 1; j <= ns; j++) {
			t = sw[j]
			same = xy[t, k] == nc
			for (i = 1; i <= nd; i++)
				if (i != k && xy[t, i] != xy[s, i])
					same = 0
			if (same)
				return to[s, t]
		}
		return 255
	}
	function hop(s, d, l,   i, k, n, plus, step) {
		if (s == d)
			return oport[l]
		for (i = 1; i <= nd; i++) {
			k = i
			if (order == "mixed" && l % 2 && k <= 2)
				k = 3 - k
			if (xy[s, k] == xy[d, k])
				continue
			n = dim[k]
			plus = (xy[d, k] - xy[s, k] + n) % n
			step = 2 * plus <= n ? 1 : n - 1
			return towards(s, k, (xy[s, k] + step) % n)
		}
		return 255
	}
	END {
		for (l in owner)
			if (l + 0 > top)
				top = l + 0
		for (i = 1; i <= ns; i++) {
			s = sw[i]
			g = substr(sguid[s], 3)
			while (length(g) < 16)
				g = "0" g
			printf "Unicast lids [0x0-0x%x] of switch Lid %d guid " \
			       "0x%s (%s):\n", top, slid[s], g, s
			print "  Lid  Out   Destination"
			print "       Port     Info "
			for (l = 1; l <= top; l++)
				if (l in owner)
					printf "0x%04x %03d : (%s)\n", l,
					       hop(s, owner[l], l), owner[l]
			printf "%d valid lids dumped \n", top
		}
	}
	' "$1"
}

# make_torus SPEC NAME: NAME.ibnd, its e-cube tables NAME.fts and the
# mixed ones NAME-mixed.fts
make_torus() {
	"$top_builddir/tools/dqr-genfabric" "torus:$1" > "$W/$2.net" ||
		exit 1
	torus_ibnd "$W/$2.net" > "$W/$2.ibnd"
	torus_fts "$W/$2.ibnd" > "$W/$2.fts"
	torus_fts "$W/$2.ibnd" mixed > "$W/$2-mixed.fts"
}

make_torus 5x3 t5
make_torus 6x3 t6
make_torus 4x4 t4
t5="$W/t5.ibnd"
t6="$W/t6.ibnd"

# e-cube on one VL closes the 5-ring: the plain check fails, the layers
# (2 rings: 4 layers, every one used) hold; 5x3 with a CA per switch has
# 15 + 15 ports, 30 x 29 pairs
expect 1 "dependency cycle: yes, 5 channels" -- "$t5" "$W/t5.fts"
expect 0 "^result: OK" -- --torus-layers "$t5" "$W/t5.fts"
expect 0 "torus layers: 2D torus 5x3, 4 layers, SL l on VL l" -- \
	--torus-layers "$t5" "$W/t5.fts"
expect 0 "SLs used 4 (mask 0x000f), VLs used 4" -- --torus-layers "$t5" \
	"$W/t5.fts"
expect 0 "torus layers: pairs 870, unreachable 0," -- --torus-layers \
	"$t5" "$W/t5.fts"
expect 0 "one-layer dependency graph (every hop on one VL): cyclic" -- \
	--torus-layers "$t5" "$W/t5.fts"
expect 0 "deadlock free on 4 VLs: yes" -- --torus-layers "$t5" "$W/t5.fts"
# an even ring: its ties (upwards) voted from the tables
expect 1 "dependency cycle: yes, 6 channels" -- "$t6" "$W/t6.fts"
expect 0 "deadlock free on 4 VLs: yes" -- --torus-layers "$t6" "$W/t6.fts"
# JSON: the report's totals sum to the layers' pairs (ibdmchk's paths)
expect 0 ',"torus_layers":{"grid":"2D torus 5x3","layers":4,"sls_used":4,"sl_mask":15,"vls_used":4,"pairs":870,"unreachable":0,"dependencies":[0-9]*,"edges":\[[0-9,]*\],"acyclic":\[true,true,true,true\],"deadlock_free":true,"one_layer_acyclic":false,.*"ok":true}$' \
	-- --json --torus-layers "$t5" "$W/t5.fts"
total=$(grep -o '"total":[0-9]*' "$out" | awk -F: '{ s += $2 } END { print s }')
[ "$total" = 870 ]
tally $? "--json --torus-layers: report totals $total, want 870" "$out"

# dimension order broken: minimal routes, but cyclic layers
expect 1 "vl 0: dependencies [0-9]*, cycle: yes" -- --torus-layers "$t5" \
	"$W/t5-mixed.fts"
expect 1 "deadlock free on 4 VLs: no" -- --torus-layers "$t6" \
	"$W/t6-mixed.fts"
expect 1 '"deadlock_free":false,.*"ok":false}$' -- --json --torus-layers \
	"$t6" "$W/t6-mixed.fts"
# sw-x1-y0 sends LID 1 (sw-x0-y0) back to sw-x2-y0, which sent it there
awk '/sw-x1-y0\):$/ { s = 1 } /valid lids/ { s = 0 }
     s && /^0x0001 / { sub(/ 002 /, " 001 ") } { print }' "$W/t5.fts" \
	> "$W/t5-back.fts"
expect 1 "forwarding loops: 2 entries" -- --torus-layers "$t5" \
	"$W/t5-back.fts"
expect 1 "torus layers: pairs 870, unreachable [1-9]" -- --torus-layers \
	"$t5" "$W/t5-back.fts"
expect 1 "^result: FAIL" -- --torus-layers "$t5" "$W/t5-back.fts"

# no torus: status 2 (a 4x4 torus is the 4-cube by its cabling)
expect 2 "not a torus with a ring of 3 switches or more: a 4-cube" -- \
	--torus-layers "$W/t4.ibnd" "$W/t4.fts"
expect 2 "not a torus" -- --torus-layers "$data/tiny.ibnd" \
	"$data/tiny.fts"
expect 2 "does not go with --vl-layers" -- --torus-layers --vl-layers \
	"$t5" "$W/t5.fts"
expect 2 "--torus-layers does not go with" -- --torus-layers --load \
	"$t5" "$W/t5.fts"

# --vl-dump: every route's SL, SL l on VL l at every port pair
expect 0 "^result: OK" -- --torus-layers --vl-dump="$W/t5.vl" "$t5" \
	"$W/t5.fts"
[ "$(grep -c '^path_sl ' "$W/t5.vl")" = 870 ] &&
	grep -q '^sl2vl 0x0000000000200000 1 2 0 1 2 3 0 0 0 0 0 0 0 0 0 0 0 0$' \
		"$W/t5.vl" &&
	grep -q '^ca_sl2vl 0x0000000000100000 1 0 1 2 3 0 0 0 0 0 0 0 0 0 0 0 0$' \
		"$W/t5.vl"
tally $? "--vl-dump: not 870 paths and SL l on VL l" "$W/t5.vl"
# read back by the replay, one stage that changes nothing: the same
# layers, judged per (channel, VL) by vl_replay.c
printf '1 1 0x0000000000200000 2 1 1\n' > "$W/noop"
deps=$("$tool" --torus-layers "$t5" "$W/t5.fts" |
	sed -n 's/^torus layers: pairs .*, dependencies \([0-9]*\)$/\1/p')
expect 0 "per VL: $deps dependencies on VLs 0 1 2 3: acyclic; on one VL: cyclic, not judged" \
	-- --replay="$W/noop" --vls="$W/t5.vl" "$t5" "$W/t5.fts"
"$tool" --torus-layers --vl-dump="$W/t6m.vl" "$t6" "$W/t6-mixed.fts" \
	> /dev/null 2>&1
expect 1 "on VLs 0 1 2 3: cyclic" -- --replay="$W/noop" --vls="$W/t6m.vl" \
	"$t6" "$W/t6-mixed.fts"

# ibdmchk (Debian ibutils), the checker operators trust: a credit loop
# on one VL, none on the layers; the mixed tables loop on them too
: "${IBDMCHK:=$(command -v ibdmchk || true)}"
if [ -n "$IBDMCHK" ]; then
	. "$top_srcdir/test/integration/ibdm.sh"
	ibdm_subnet "$t5" > "$W/t5.lst"
	"$tool" --torus-layers --vl-dump="$W/t5m.vl" "$t5" "$W/t5-mixed.fts" \
		> /dev/null 2>&1
	ibdm_vl "$t5" "$W/t5.vl" "$W/t5.psl" "$W/t5.slvl"
	ibdm_vl "$t5" "$W/t5m.vl" "$W/t5m.psl" "$W/t5m.slvl"
	for x in t5 t5-mixed; do
		ibdm_fdbs "$W/$x.fts" > "$W/$x.fdbs"
	done
	# on failure: ibdmchk's verdict lines, not its whole report
	brief() { grep -E -- "Scanned|SLs|credit loop|^-E-" "$1" |
		head -8 > "$1.brief"; }
	v=$(ibdm_run "$W/i1" "$W/t5.lst" "$W/t5.fdbs" -a)
	[ "$v" = loop ] && grep -q -- "-I- Scanned:870 paths" "$W/i1"
	r=$?
	brief "$W/i1"
	tally $r "ibdmchk -a on one VL: '$v', want loop, 870 paths" \
		"$W/i1.brief"
	v=$(ibdm_run "$W/i2" "$W/t5.lst" "$W/t5.fdbs" -a -c "$W/t5.psl" \
		-d "$W/t5.slvl")
	[ "$v" = none ] && grep -q "4 SLs, 4 VLs used" "$W/i2"
	r=$?
	brief "$W/i2"
	tally $r "ibdmchk -a on the layers: '$v', want none" "$W/i2.brief"
	v=$(ibdm_run "$W/i3" "$W/t5.lst" "$W/t5-mixed.fdbs" -a \
		-c "$W/t5m.psl" -d "$W/t5m.slvl")
	[ "$v" = loop ]
	r=$?
	brief "$W/i3"
	tally $r "ibdmchk -a on mixed layers: '$v', want loop" "$W/i3.brief"
else
	echo "ibdmchk not installed: its checks skipped"
fi
summary
