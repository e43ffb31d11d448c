#!/bin/bash
# compare-torus2qos.sh - osm-dqr with its defaults, and with qos TRUE,
# against stock OpenSM's torus-2QoS on the same emulated 2D torus and
# the same link faults.  A measurement, not a test: it is not part of
# make check.
#
# Run from a build tree (configured and built; tools/dqr-check and the
# plugin are taken from it), with ibsim, opensm, infiniband-diags and
# ibutils installed:
#
#	cd BUILD && SRC/scripts/compare-torus2qos.sh
#
# or from anywhere with top_builddir=BUILD.  Environment: GEN (the
# dqr-genfabric spec, default torus:5x5), FAULT1 and FAULT2 (ibsim
# Unlink arguments, applied one after the other and kept), HOST (the
# node reading back), DQR_IT_KEEP=1 keeps the work directory.  It takes
# several minutes: a path SL is read per ordered pair of LIDs with one
# saquery each (umad2sim answers no SA table of more than one MAD).
#
# For each engine it starts ibsim and opensm on the generated net file,
# reads back after the start and after each fault what the fabric holds:
# the LFTs (ibnetdiscover, dump_fts), every path's SL (saquery
# PathRecord) and every switch and CA SL2VL table (smpquery sl2vl).  It
# judges them with dqr-check, on one VL and per (channel, VL) with the
# SLs and SL2VL tables read back, and with ibdmchk given the same.  The
# states between two read-backs are judged too (dqr-check --replay
# --vls): for torus-2QoS every mix of the old and new entries, as OpenSM
# uploads a new routing at once; for the plugin its own stages, from
# its dqr-transition.dump, replayed from the tables read back before
# and checked against those read back after.  Tables, SLs and SL2VL
# tables are never taken from the engines' own dumps.  It prints a
# table; the exit status is 0 unless something could not be measured.

: "${top_srcdir:=$(cd "$(dirname "$0")/.." && pwd)}"
if [ -z "${top_builddir:-}" ]; then
	top_builddir=$top_srcdir
	[ -x "$PWD/tools/dqr-check" ] && top_builddir=$PWD
fi
top_builddir=$(cd "$top_builddir" && pwd)
export top_srcdir top_builddir
# a work directory of its own: clean-ups of /tmp/dqr-it.* leave it alone
: "${TMPDIR:=/tmp/dqr-compare}"
mkdir -p "$TMPDIR" && export TMPDIR
. "$top_srcdir/test/integration/common.sh"
. "$top_srcdir/test/integration/ibdm.sh"

: "${GEN:=torus:5x5}"
: "${HOST:=ca-0007}"
# an x link of ring y=1 and a y link of ring x=3: torus-2QoS routes
# around faults as long as no ring falls into two pieces
: "${FAULT1:=\"sw-x1-y1\"[1]}"
: "${FAULT2:=\"sw-x3-y2\"[3]}"
: "${DQR_IT_TIMEOUT:=120}"

ROWS=""

# run_diag TOOL ARGS...: an infiniband-diags tool through the fabric,
# attached to HOST
run_diag() {
	SIM_HOST="$HOST" LD_PRELOAD="$UMAD2SIM" "$@"
}

# lid_map IBND: "lid kind guid ports" per switch and CA port
lid_map() {
	awk '
	/^switchguid=/ { split(substr($0, 12), a, "[(]"); g = a[1]; next }
	/^caguid=/ { g = substr($0, 8); next }
	/^Switch\t/ && match($0, /base port 0 lid [0-9]+/) {
		print substr($0, RSTART + 16, RLENGTH - 16), "sw", g, $2
		next
	}
	/^\[[0-9]+\]\(/ && match($0, /# lid [0-9]+/) {
		print substr($0, RSTART + 6, RLENGTH - 6), "ca", g, 1
	}' "$1"
}

# sls_from SRC LIDS...: "path_sl SRC DLID SL" per DLID, SL "none" when
# the SA gives no path
sls_from() {
	local s=$1 d sl

	shift
	for d in "$@"; do
		[ "$d" = "$s" ] && continue
		sl=$(run_diag timeout 20 "$SAQUERY" PR --slid "$s" \
			--dlid "$d" 2>/dev/null | awk '/^[ \t]+sl\.+0x/ {
				sub(/^.*\.0x/, ""); print; exit }')
		[ -n "$sl" ] && sl=$((16#$sl))
		echo "path_sl $s $d ${sl:-none}"
	done
}

# read_vls NAME: path SLs and SL2VL tables read back into NAME.vls
# (dqr-check's --vls format; SL2VL rows by node GUID, for ibdm_vl too)
read_vls() {
	local name=$1 lids lid kind guid ports p

	lid_map "$W/$name.ibnd" > "$W/$name.lids"
	lids=$(cut -d' ' -f1 "$W/$name.lids" | sort -n | tr '\n' ' ')
	export -f sls_from run_diag
	export SAQUERY HOST UMAD2SIM IBSIM_SOCKNAME
	# two at a time: the machine has two cores
	printf '%s\n' $lids | xargs -P 2 -I{} bash -c \
		'sls_from "$@"' _ {} $lids | sort -n -k2 -k3 > "$W/$name.psl"
	grep -v ' none$' "$W/$name.psl" > "$W/$name.vls"
	while read -r lid kind guid ports; do
		if [ "$kind" = ca ]; then
			run_diag timeout 20 "$SMPQUERY" sl2vl "$lid" \
				2>/dev/null |
				awk -v g="$guid" '/^ports:/ {
					gsub(/\|/, " "); sub(/^.*: /, "")
					print "ca_sl2vl", g, 1, $0 }'
			continue
		fi
		for p in $(seq 1 "$ports"); do
			run_diag timeout 20 "$SMPQUERY" sl2vl "$lid" "$p" \
				2>/dev/null
		done | awk -v g="$guid" '/^ports:/ {
			match($0, /in +[0-9]+, out +[0-9]+/)
			line = substr($0, RSTART, RLENGTH)
			gsub(/[^0-9]+/, " ", line)
			split(line, io, " ")
			v = $0
			sub(/^[^|]*/, "", v)
			gsub(/\|/, " ", v)
			print "sl2vl", g, io[1], io[2], v }'
	done < "$W/$name.lids" | tr -s ' ' >> "$W/$name.vls"
}

# judge NAME: sets J_UNREACH, J_ONE (dqr-check on one VL), J_VL (per
# (channel, VL) with NAME.vls), I_ONE and I_VL (ibdmchk likewise)
judge() {
	local name=$1 sw dlid port

	"$DQR_CHECK" --json "$W/$name.ibnd" "$W/$name.fts" \
		> "$W/$name.json" 2> "$W/$name.err"
	J_UNREACH=$(grep -o '"unreachable":[0-9]*' "$W/$name.json" |
		awk -F: '{ s += $2 } END { print s + 0 }')
	J_HOPS=$(grep -o '"hops":{"min":[0-9]*,"max":[0-9]*,"mean":[0-9.]*' \
		"$W/$name.json" | awk -F'[:,]' '{ printf "%.2f/%d", $7, $5 }')
	J_ONE=loop
	grep -q '"cycle":\[\]' "$W/$name.json" && J_ONE=none
	# dqr-check judges SLs and SL2VL tables in --replay: a plan of one
	# entry set to what it holds leaves the union the tables themselves
	read -r sw dlid port < <(awk '
		/^Unicast lids / { match($0, /guid 0x[0-9a-fA-F]+/)
			g = substr($0, RSTART + 5, RLENGTH - 5); next }
		g != "" && /^0x[0-9a-fA-F]+ [0-9]+ / {
			print g, $1, $2; exit }' "$W/$name.fts")
	port=$((10#$port))
	echo "1 1 $sw $((dlid)) $port $port" > "$W/$name.noop"
	"$DQR_CHECK" --replay="$W/$name.noop" --vls="$W/$name.vls" \
		"$W/$name.ibnd" "$W/$name.fts" > "$W/$name.vlcheck" 2>&1
	case $? in
	0) J_VL=none ;;
	1) J_VL=loop ;;
	*) J_VL="error"; cat "$W/$name.vlcheck" ;;
	esac
	ibdm_subnet "$W/$name.ibnd" > "$W/$name.lst"
	ibdm_fdbs "$W/$name.fts" > "$W/$name.fdbs"
	I_ONE=$(ibdm_run "$W/$name.ibdm1" "$W/$name.lst" "$W/$name.fdbs" -a)
	ibdm_vl "$W/$name.ibnd" "$W/$name.vls" "$W/$name.ipsl" \
		"$W/$name.islvl"
	I_VL=$(ibdm_run "$W/$name.ibdmv" "$W/$name.lst" "$W/$name.fdbs" \
		-a -c "$W/$name.ipsl" -d "$W/$name.islvl")
}

# sls_changed NAME BASE: paths whose SL differs (or appeared/vanished)
sls_changed() {
	join -j1 <(awk '{ print $2 ":" $3, $4 }' "$W/$1.psl" | sort) \
		<(awk '{ print $2 ":" $3, $4 }' "$W/$2.psl" | sort) -a1 -a2 |
		awk 'NF != 3 || $2 != $3 { n++ } END { print n + 0 }'
}

# sl_summary NAME: "SL:count" of the paths read back
sl_summary() {
	awk '{ c[$4]++ } END { for (s in c) print s ":" c[s] }' \
		"$W/$1.psl" | sort | tr '\n' ' '
}

# diff_plan OLD NEW: the entries that differ as one stage of a plan (an
# upload all at once, as OpenSM's own routing engines do)
diff_plan() {
	awk '
	/^Unicast lids / {
		match($0, /guid 0x[0-9a-fA-F]+/)
		g = substr($0, RSTART + 5, RLENGTH - 5)
		next
	}
	/^0x[0-9a-fA-F]+ [0-9]+ / {
		if (FNR == NR) { old[g, $1] = $2 + 0; next }
		if ((g, $1) in old && old[g, $1] != $2 + 0)
			print g, $1, old[g, $1], $2 + 0
	}' "$W/$1.fts" "$W/$2.fts" | while read -r g l o n; do
		echo "1 1 $g $((l)) $o $n"
	done
}

# transient ENGINE NAME BASE: sets J_TR, the states between read-backs
# BASE and NAME judged per (channel, VL) by dqr-check: the plugin's own
# stages (dqr-transition.dump), or for OpenSM's engines every mix of the
# two tables (one stage)
transient() {
	local plan=$W/$2.plan

	# the plugin's own stages, with or without qos; OpenSM's at once
	if [ "$1" != torus-2QoS ]; then
		mv "$W/dqr-transition.dump" "$plan" 2>/dev/null || : > "$plan"
	else
		diff_plan "$3" "$2" > "$plan"
	fi
	J_TR="- (0 entries)"
	[ -s "$plan" ] || return 0
	"$DQR_CHECK" --replay="$plan" --vls="$W/$2.vls" --expect="$W/$2.fts" \
		"$W/$2.ibnd" "$W/$3.fts" > "$W/$2.trcheck" 2>&1
	case $? in
	0) J_TR=safe ;;
	1) J_TR=unsafe ;;
	*) J_TR=error; cat "$W/$2.trcheck" ;;
	esac
	J_TR="$J_TR ($(grep -c . "$plan") entries, $(grep -o \
		'^stages: [0-9]*' "$W/$2.trcheck" | cut -d' ' -f2) stages)"
}

# measure ENGINE STATE BASE LOGFROM: read back and judge STATE (files
# ENGINE-STATE.*); one row
measure() {
	local engine=$1 state=$2 name=$1-$2 base=${3:+$1-$3} from=$4
	local changed="-" slc="-" ms="-"

	J_TR="-"
	it_readback "$HOST" "$name"
	read_vls "$name"
	judge "$name"
	if [ -n "$base" ]; then
		changed=$(it_changed "$name" "$base")
		slc=$(sls_changed "$name" "$base")
		tail -n +"$from" "$W/osm.log" > "$W/$name.log"
		ms=$(it_trap_to_up "$W/$name.log")
		transient "$engine" "$name" "$base"
		it_log "$engine $state: transition: $J_TR"
		grep -o 'FAIL: forwarding loop towards [0-9]* DLIDs' \
			"$W/$name.trcheck" 2>/dev/null | while read -r l; do
			it_log "$engine $state: transition: $l"
		done
	fi
	it_log "$engine $state: path SL:count $(sl_summary "$name")"
	it_log "$engine $state: dqr-check$(grep -o ' per VL: .*' \
		"$W/$name.vlcheck")"
	ROWS="$ROWS$(printf \
		'%-10s %-6s %6s %7s %3s %7s %7s %6s %8s %7s %6s %4s' \
		"$engine" "$state" "$J_HOPS" "$changed" "$slc" "$J_UNREACH" \
		"$J_ONE" "$J_VL" "$I_ONE" "$I_VL" "${J_TR%% *}" "${ms:--}")
"
}

# fault ENGINE N LINK WAIT: Unlink LINK, wait until the OpenSM log has
# one more line matching WAIT, then measure against the state before
fault() {
	local engine=$1 n=$2 from count

	from=$(($(wc -l < "$W/osm.log") + 1))
	count=$(($(it_count "$4") + 1))
	it_ibsim_cmd "Unlink $3"
	it_wait_log "$4" "$count" 120
	it_settle
	measure "$engine" "fault$n" "$([ "$n" = 1 ] && echo start ||
		echo "fault$((n - 1))")" "$from"
}

# torus_conf: torus-2QoS.conf seeded at sw-x0-y0 by the GUIDs ibsim gave
torus_conf() {
	local dims g0 gx gy

	dims=$(head -1 "$W/gen.net" |
		sed -n 's/^# \([0-9]*\)x\([0-9]*\) .*/\1 \2/p')
	[ -n "$dims" ] || it_fail "not a 2D torus: $(head -1 "$W/gen.net")"
	run_diag "$IBNETDISCOVER" > "$W/pre.ibnd" 2>/dev/null ||
		it_fail "ibnetdiscover before the SM failed"
	guid_of() {
		awk -v n="\"$1\"" '/^switchguid=/ {
			split(substr($0, 12), a, "[(]"); g = a[1] }
			/^Switch\t/ && index($0, n) { print g; exit }' \
			"$W/pre.ibnd"
	}
	g0=$(guid_of sw-x0-y0)
	gx=$(guid_of sw-x1-y0)
	gy=$(guid_of sw-x0-y1)
	{
		echo "torus $dims 1"
		echo "xp_link $g0 $gx"
		echo "yp_link $g0 $gy"
		# radix 4 needs both directions of the seed (torus-2QoS(8))
		echo "$dims" | grep -qw 4 && {
			echo "xm_link $g0 $(guid_of "sw-x$(($(echo "$dims" |
				cut -d' ' -f1) - 1))-y0")"
			echo "ym_link $g0 $(guid_of "sw-x0-y$(($(echo "$dims" |
				cut -d' ' -f2) - 1))")"
		}
	} > "$W/torus-2QoS.conf"
}

run_torus2qos() {
	local t

	it_start_ibsim "$W/gen.net"
	torus_conf
	cat > "$W/opensm.conf" <<-EOF
	routing_engine torus-2QoS
	qos TRUE
	torus_config $W/torus-2QoS.conf
	dump_files_dir $W
	EOF
	LD_PRELOAD="$UMAD2SIM" "$OPENSM" -F "$W/opensm.conf" \
		-f "$W/osm.log" -d2 > "$W/opensm.out" 2>&1 &
	OSM_PID=$!
	IT_PIDS="$IT_PIDS $OSM_PID"
	it_wait_log "SUBNET UP" 1 "$DQR_IT_TIMEOUT"
	it_settle
	grep -E "torus_build_lfts|tables configured" "$W/osm.log" |
		sed 's/^.* -> //' | while read -r l; do
			it_log "opensm: $l"
		done
	grep -q "torus-2QoS tables configured" "$W/osm.log" ||
		it_fail "torus-2QoS did not route the fabric (see above)"
	measure torus-2QoS start "" 0
	t="tables configured on all switches"
	fault torus-2QoS 1 "$FAULT1" "$t"
	fault torus-2QoS 2 "$FAULT2" "$t"
	grep -E "torus|tables configured|ERR" "$W/osm.log" | tail -n +2 |
		sed 's/^.* -> //' | sort | uniq -c | while read -r l; do
			it_log "opensm: $l"; done
	it_stop_opensm torus2qos.log
	it_stop_ibsim
}

# run_dqr NAME [OPENSM.CONF LINE]: the plugin with the two lines only
# (osm-dqr: a torus routed as a mesh on one VL), or with one more
# (dqr-qos: "qos TRUE", e-cube on virtual layers).
run_dqr() {
	local t name=$1

	shift
	it_start_ibsim "$W/gen.net"
	it_write_conf "$@"
	it_start_opensm
	it_wait_log "dqr: base " 1
	it_settle
	it_log "plugin: $(grep 'dqr: shape: ' "$W/osm.log" | head -1 |
		sed 's/^.*-> //')"
	# the stages of the faults only, not those of the first routing
	rm -f "$W/dqr-transition.dump"
	measure "$name" start "" 0
	t="dqr: transition [0-9]+ complete"
	fault "$name" 1 "$FAULT1" "$t"
	fault "$name" 2 "$FAULT2" "$t"
	it_stop_opensm "$name.log"
	it_stop_ibsim
}

it_setup
ibdm_require
[ -n "$SAQUERY" ] && [ -n "$SMPQUERY" ] || it_fail "no saquery or smpquery"
it_gen_net "$GEN"
it_log "$(head -1 "$W/gen.net" | sed 's/^# //'); faults $FAULT1, $FAULT2"
run_torus2qos
run_dqr osm-dqr
run_dqr dqr-qos "qos TRUE"
echo
echo "hops: mean/max over all pairs; entries, SLs: changed against the"
echo "state before; unreach: pairs"
echo "dqr-check unreachable; loop/none: a credit loop on one VL (1vl) or"
echo "per (channel, VL) with the SLs and SL2VL tables read back (vl), by"
echo "dqr-check and by ibdmchk; trans: the states between the two tables"
echo "loop free and acyclic per (channel, VL) (dqr-check --replay --vls:"
echo "the plugin's stages; for torus-2QoS every mix of old and new entries,"
echo "as OpenSM uploads at once); ms: first trap 128 to SUBNET UP"
printf '%-10s %-6s %6s %7s %3s %7s %7s %6s %8s %7s %6s %4s\n' engine \
	state hops entries SLs unreach dqr-1vl dqr-vl ibdm-1vl ibdm-vl trans ms
printf '%s' "$ROWS"
