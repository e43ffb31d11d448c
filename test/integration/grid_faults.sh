#!/bin/sh
# grid_faults.sh - faults on a mesh, torus or hypercube with the default
# options (the two opensm.conf lines only), judged from the tables read
# back from the switches by dqr-check and by ibdmchk (ibdm.sh):
#  1. the start: every pair routed, no loop, no cycle, no credit loop, and
#     a few SA PathRecords on SL 0 (qos FALSE: one VL);
#  2. two switch-to-switch cables fail one after the other, drawn from the
#     net file by SEED (printed; SEED=.. picks others).  After each: DQR
#     itself repaired it (a reconfiguration (ok), no ERR DQ13 nor DQ16),
#     on a mesh or torus with the mesh plug-in when the cable carried
#     routes, the tables read back pass as at the start, and every stage
#     of the transition replays loop free and acyclic;
#  3. both come back: the start's tables exactly;
#  4. a whole switch fails (drawn by SEED, not the SM's nor HOST's): the
#     pairs a cable still joins are routed, no cycle, no credit loop, the
#     transition replays; DQR may report that it found no legal route
#     (ERR DQ16, the base engine routes: logged, allowed only here).  It
#     comes back and the start's tables return.
#
# The wrappers set: NET or GEN (a dqr-genfabric spec, generated here),
# HOST, SEED (the default of the wrapper), SHAPE (what the "dqr: shape: "
# line says, an extended regular expression), PLUGIN (1 when the mesh
# plug-in serves the shape: meshes and tori, not hypercubes), QOS
# (TRUE: opensm.conf says "qos TRUE"; unset: OpenSM's default), LMC
# (opensm.conf's lmc: 2^LMC LIDs per CA port; unset: OpenSM's 0), OPTIONS
# (event_plugin_options; unset: none), BASE (lib's routing the summary
# line names, an extended regular expression; unset: dor or ecube),
# SWITCH_REPAIRED (1: DQR must
# repair the lost switch itself, no ERR DQ16) and LAYERS
# (a torus the plugin routes by e-cube on that many virtual layers: every
# state is judged per VL, with the SLs and SL2VL tables dqr-check
# --torus-layers computes, which the SA and a switch must answer too).
# SLS=sa (with OPTIONS base=lash): the layers are lash's, as many as the
# plugin's line says; the SLs come from the SA (every pair of switch
# LIDs, a CA taking its switch's, which the SA is then asked to confirm)
# and the SL2VL tables from every switch and CA port (smpquery), and
# every state is judged per VL with them.  SLS=sa-each: the same, with
# the SLs the SA answers in each state (a move changes some), and every
# transition replayed with those its packets carry (replay_step).
# BASE_LINE and SHAPE_LINE: what the base's and the shape's log lines
# begin with.  CABLE1 and CABLE2: the two cables, instead of SEED's
# ('"A"[p] "B"[q]', A < B).
# MOVES=1: some repair moves routes to another layer (the plugin's NOTICE
# and the SA's SLs say so) and both cables back give the start's SLs.
# IMED=1 (with OPTIONS intermediates=N): the repairs laid DLIDs by the IN
# paper's routes first (the plugin's INFO line says how many); unused:
# none did, and a NOTICE said why.
# AFTER_SWITCH=1: while the switch is down, two more cables (none of
# its) fail one after another (fault3, fault4); the switch and both come
# back together.  SWITCH_CABLES=K: at the end, K of the switch's cables
# fail one after another (fault5 on), then all come back together.
# TWO_CABLES=0 leaves out the two cables (and their return) at first,
# SWITCH_FAULT=0 the switch's fault (and its return).
. "$(dirname "$0")/common.sh"
. "$(dirname "$0")/ibdm.sh"

: "${HOST:=ca-0000}"
: "${SEED:=1}"
: "${PLUGIN:=1}"
RECONF="dqr: reconfiguration [0-9]+ \\("

# rand N: R = the next number in 0..N-1 drawn from SEED: draw number
# DRAW of SEED hashed (a 32-bit integer mix in shell arithmetic, so the
# same cables on every machine and shell; an LCG's small seeds drew
# alike).
rand() {
	local h

	DRAW=$((DRAW + 1))
	h=$(((SEED * 65599 + DRAW) % 4294967296))
	h=$((((h >> 16) ^ h) * 73244475 % 4294967296))
	h=$((((h >> 16) ^ h) * 73244475 % 4294967296))
	R=$((((h >> 16) ^ h) % $1))
}

# cables NET: each switch-to-switch cable once, '"A"[p] "B"[q]'.
cables() {
	awk -F'"' '
	/^Switch/ { sw[$2] = 1 }
	{ line[NR] = $0 }
	END {
		for (i = 1; i <= NR; i++) {
			$0 = line[i]
			if ($0 ~ /^(Switch|Hca|Ca)/) { a = $2; continue }
			if ($0 !~ /^\[[0-9]+\]/ || !(a in sw) || !($2 in sw))
				continue
			p = substr($1, 2) + 0
			q = substr($3, 2) + 0
			if (a < $2 || (a == $2 && p < q))
				printf "\"%s\"[%d] \"%s\"[%d]\n", a, p, $2, q
		}
	}' "$1"
}

# switch_of NET CA: the switch the CA is cabled to.
switch_of() {
	awk -F'"' -v ca="$2" '
	/^(Hca|Ca)/ { on = $2 == ca; next }
	on && /^\[/ { print $2; exit }' "$1"
}

# ca_ports NET [SWITCH]: the CA ports cabled (to SWITCH).
ca_ports() {
	awk -F'"' -v sw="${2:-}" '
	/^(Hca|Ca)/ { ca = 1; next }
	/^Switch/ { ca = 0; next }
	ca && /^\[/ && (sw == "" || $2 == sw) { n++ }
	END { print n + 0 }' "$1"
}

# carries NAME END: entries of read-back NAME that leave by END ("sw"[p]).
carries() {
	local sw=${2%%\"\[*} port=${2##*\[}

	awk -v sw="${sw#\"}" -v port="${port%\]}" '
	/^Unicast lids / { on = $NF == "(" sw "):" ; next }
	on && /^0x[0-9a-f]+ [0-9]+ / && $2 + 0 == port { n++ }
	END { print n + 0 }' "$W/$1.fts"
}

# ibdm_judge NAME: ibdmchk finds no credit loop in read-back NAME, and
# walks as many paths as dqr-check judged pairs (it_judge's JSON), none
# missing.
ibdm_judge() {
	local name=$1 v paths pairs

	ibdm_subnet "$W/$name.ibnd" > "$W/$name.lst"
	ibdm_fdbs "$W/$name.fts" > "$W/$name.fdbs"
	v=$(ibdm_run "$W/$name.ibdm" "$W/$name.lst" "$W/$name.fdbs" -a)
	[ "$v" = none ] || {
		grep -E -- "credit loop|^-E-" "$W/$name.ibdm" | head -8
		it_fail "ibdmchk on $name: '$v', want no credit loop"
	}
	grep -q -- "-E- Fail to find a path" "$W/$name.ibdm" &&
		it_fail "$name: ibdmchk finds paths missing"
	pairs=$(grep -o '"total":[0-9]*' "$W/$name.json" |
		awk -F: '{ s += $2 } END { print s + 0 }')
	paths=$(sed -n 's/^-I- Scanned:\([0-9]*\) paths.*/\1/p' \
		"$W/$name.ibdm")
	# with LMC, ibdmchk walks a pair of ports by their base LIDs only
	# (its -l wants every port's LIDs aligned, switches' too); dqr-check
	# judges every LID of theirs
	[ "$paths" = "$pairs" ] || [ -n "${LMC:-}" ] ||
		it_fail "$name: ibdmchk scanned '$paths' paths," \
			"dqr-check judged $pairs pairs"
	it_log "ok: ibdmchk: no credit loop in $name, $paths paths"
}

# ibdm_judge_layers NAME: ibdmchk on read-back NAME with the path SLs and
# SL2VL tables dqr-check --torus-layers computed (NAME.vl): no credit
# loop on any VL.  At the start the same tables must have one on one VL
# (e-cube round a ring), or the layers would test nothing; later states
# may be up*/down*, which has none.  LAYERS_NEEDED=1: the start's routes
# fit one layer (lash's on a 3x3x3 torus, whose shortest routes never
# go round a ring): none there either, the later layers are the moves'.
ibdm_judge_layers() {
	local name=$1 v one

	ibdm_subnet "$W/$name.ibnd" > "$W/$name.lst"
	ibdm_fdbs "$W/$name.fts" > "$W/$name.fdbs"
	ibdm_vl "$W/$name.ibnd" "$W/$name.vl" "$W/$name.psl" "$W/$name.slvl"
	v=$(ibdm_run "$W/$name.ibdm" "$W/$name.lst" "$W/$name.fdbs" \
		-c "$W/$name.psl" -d "$W/$name.slvl")
	[ "$v" = none ] || {
		grep -E -- "credit loop|^-E-" "$W/$name.ibdm" | head -8
		it_fail "ibdmchk on $name per VL: '$v', want no credit loop"
	}
	it_log "ok: ibdmchk: no credit loop in $name on the layers' VLs"
	[ "$name" = start ] || return 0
	one=$(ibdm_run "$W/$name.one.ibdm" "$W/$name.lst" "$W/$name.fdbs" -a)
	if [ "${LAYERS_NEEDED:-}" = 1 ]; then
		[ "$one" = none ] ||
			it_fail "ibdmchk on $name on one VL: '$one', want none"
		it_log "ok: ibdmchk: on a single VL $name has no credit loop"
		return 0
	fi
	[ "$one" = loop ] ||
		it_fail "ibdmchk on $name on one VL: '$one', want the loop" \
			"round a ring that the layers break"
	it_log "ok: ibdmchk: on a single VL $name has a credit loop"
}

# judge NAME: dqr-check --pairs=all (every connected pair reachable, no
# loop, no cycle, with LAYERS on every layer of the torus: its report is
# printed) and ibdmchk on read-back NAME.
judge() {
	it_readback "$HOST" "$1"
	if [ "${SLS:-}" = sa-each ]; then
		sa_vls "$1"
	elif [ "${SLS:-}" = sa ]; then
		# the start's SLs stand only while no repair moved a pair
		! grep -q "NOTICE: no path fitted the own layers" \
			"$W/osm.log" || it_fail "$1: a repair moved pairs to" \
			"other SLs, which SLS=sa does not read: use SLS=sa-each"
		[ "$1" != start ] || sa_vls start
		start_vls "$1"
		cp "$W/$1.svl" "$W/$1.vl"
	fi
	if [ -n "${SLS:-}" ]; then
		it_judge "$1" --pairs=all --vls="$W/$1.vl"
		grep -q "^per VL .*, acyclic$" "$W/$1.txt" ||
			it_fail "$1: dqr-check --vls gives no acyclic verdict"
		it_log "ok: dqr-check --vls on $1 (the SA's SLs, the switches'" \
			"SL2VL): every pair routed, every VL acyclic"
		ibdm_judge_layers "$1"
		return 0
	fi
	if [ -n "${LAYERS:-}" ]; then
		it_judge "$1" --pairs=all --torus-layers --vl-dump="$W/$1.vl"
		it_log "ok: dqr-check --torus-layers on $1: every pair" \
			"routed, every layer acyclic"
		ibdm_judge_layers "$1"
		return 0
	fi
	it_judge "$1" --pairs=all
	it_log "ok: dqr-check --pairs=all on $1: $(sed -n \
		's/^fabric: //p' "$W/$1.txt"), every pair routed, acyclic"
	ibdm_judge "$1"
}

# sa_sl SLID DLID: the SL of the SA's PathRecord between them (empty: none).
sa_sl() {
	echo "$1 $2" | it_sa_prs "$HOST" | cut -d' ' -f3
}

# sa_from FROM SWITCHES: "S D SL" for each switch LID S of file FROM and
# each other switch LID D (first column of SWITCHES), SL the SA's answer
# (empty: none).
sa_from() {
	awk 'NR == FNR { to[++n] = $1; next }
	     { for (i = 1; i <= n; i++) if (to[i] != $1) print $1, to[i] }' \
		"$2" "$1" | it_sa_prs "$HOST"
}

: "${SA_ASKERS:=5}"

# sa_vls NAME: NAME.vl from what the fabric answers: the SA's SL for every
# pair of switch LIDs (a CA's paths take its switch's: lash's SLs go by
# switch; the SA is asked for a few CA pairs below) and every switch's
# and CA's SL2VL tables.
sa_vls() {
	local f=$W/$1.vl s d p pids k

	# every switch's LID and GUID
	awk '/^switchguid=/ { g = substr($0, 12); sub(/\(.*/, "", g) }
	     /^Switch/ { for (i = 1; i <= NF; i++) if ($i == "lid")
				print $(i + 1), g }' "$W/$1.ibnd" \
		> "$W/$1.swguid"
	# a saquery process a pair (600 on a 5x5 torus, a read-back each),
	# each mostly waiting for ibsim and the SA: SA_ASKERS ask at once,
	# each for the pairs from its share of the switches
	pids=""
	for k in $(seq 1 "$SA_ASKERS"); do
		awk -v k="$k" -v n="$SA_ASKERS" 'NR % n == k - 1 { print $1 }' \
			"$W/$1.swguid" > "$W/$1.from$k"
		sa_from "$W/$1.from$k" "$W/$1.swguid" > "$W/$1.swsl$k" &
		pids="$pids $!"
	done
	for p in $pids; do
		wait "$p"
	done
	for k in $(seq 1 "$SA_ASKERS"); do
		cat "$W/$1.swsl$k"
	done > "$W/$1.swsl"
	s=$(wc -l < "$W/$1.swguid")
	[ "$(wc -l < "$W/$1.swsl")" = $((s * (s - 1))) ] ||
		it_fail "SA: $(wc -l < "$W/$1.swsl") pairs of switches asked" \
			"of $((s * (s - 1)))"
	d=$(awk '$3 == "" { print $1, "->", $2; exit }' "$W/$1.swsl")
	[ -z "$d" ] || it_fail "SA: no PathRecord $d"
	# every LID with its switch's LID and kind; every cabled switch port
	awk '/^Switch/ { for (i = 1; i <= NF; i++) if ($i == "lid")
				sw = $(i + 1); on = 1
			 print sw, sw, "sw"; next }
	     /^(Ca|Hca)/ { on = 0; next }
	     on && /^\[/ { p = substr($1, 2) + 0; print sw, p > port
			   if ($0 !~ /"S-/ && match($0, /lid [0-9]+/))
				print substr($0, RSTART + 4, RLENGTH - 4), sw,
				      "ca" }' port="$W/$1.swports" \
		"$W/$1.ibnd" > "$W/$1.lidsw"
	awk 'FILENAME ~ /swsl$/ { sl[$1 " " $2] = $3; next }
	     { sw[$1] = $2; lid[++n] = $1 }
	     END { for (i = 1; i <= n; i++) for (j = 1; j <= n; j++) {
			a = sw[lid[i]]; b = sw[lid[j]]
			if (i == j) continue
			v = a == b ? 0 : sl[a " " b]
			print "path_sl", lid[i], lid[j], v } }' \
		"$W/$1.swsl" "$W/$1.lidsw" > "$f"
	# a switch's tables as dqr-check --vl-dump writes them, which
	# ibdm_vl reads too: sl2vl GUID IN OUT VL-of-SL-0 .. 15
	it_smp_sl2vls "$HOST" < "$W/$1.swports" > "$W/$1.rows"
	awk 'NR == FNR { g[$1] = $2; next } { $1 = "sl2vl " g[$1]; print }' \
		"$W/$1.swguid" "$W/$1.rows" >> "$f"
	# a CA port's table as ca_sl2vl GUID PORT VL-of-SL-0 .. 15, by GUID
	# so that start_vls can drop the CAs a later state has lost
	awk '/^caguid=/ { g = substr($0, 8) }
	     /^(Ca|Hca)/ { on = 1; next }
	     /^Switch/ { on = 0 }
	     on && /^\[/ && match($0, /# lid [0-9]+/) {
		print substr($0, RSTART + 6, RLENGTH - 6), g,
		      substr($1, 2) + 0 }' "$W/$1.ibnd" > "$W/$1.caguid"
	cut -d' ' -f1 "$W/$1.caguid" > "$W/$1.calids"
	it_smp_sl2vls "$HOST" < "$W/$1.calids" > "$W/$1.rows"
	awk 'NR == FNR { g[$1] = $2 " " $3; next }
	     { r = "ca_sl2vl " g[$1]
	       for (k = 4; k <= NF; k++) r = r " " $k
	       print r }' "$W/$1.caguid" "$W/$1.rows" >> "$f"
	it_log "ok: $1: $(grep -c '^path_sl' "$f") path SLs from the SA" \
		"($(wc -l < "$W/$1.swsl") switch pairs asked), SL2VL of" \
		"$(grep -c '^sl2vl ' "$f") switch port pairs read"
}

# vls_of NAME SRC: SRC.vl's SLs and SL2VL tables for the nodes and LIDs
# read-back NAME still has, into NAME.svl.
vls_of() {
	awk 'function norm(g) { g = tolower(g); sub(/^0x0*/, "", g); return g }
	     FNR == NR && /^(switchguid|caguid)=/ {
		g = $0; sub(/^[a-z]*=/, "", g); sub(/\(.*/, "", g)
		guid[norm(g)] = 1; next }
	     FNR == NR && match($0, /lid [0-9]+/) {
		lid[substr($0, RSTART + 4, RLENGTH - 4)] = 1; next }
	     FNR == NR { next }
	     $1 == "path_sl" { if (($2 in lid) && ($3 in lid)) print; next }
	     $1 ~ /sl2vl$/ { if (norm($2) in guid) print; next }
	     { print }' "$W/$1.ibnd" "$W/$2.vl" > "$W/$1.svl"
}

# start_vls NAME: the start's SLs (those of the connections in flight,
# which never change) for NAME, into NAME.svl.
start_vls() {
	vls_of "$1" start
}

# left_out NAME: the (source, DLID) pairs NAME's replay left out, their
# SL changed by the transition (dqr-check --vls-after); empty without.
left_out() {
	sed -n 's/^SLs once in force from [^:]*: \([0-9]*\) .*/\1/p' \
		"$W/$1.replay"
}

# replay_step NAME PREV: every stage recorded since PREV replays cleanly
# and ends at NAME; without a stage recorded nothing may have changed.
# With the SA's SLs read after each change (sa-each), the stages are
# judged by those PREV's packets carry, as the SA answers them until the
# change is in force; a pair whose SL the change moves (NAME's) is left
# out: its packets keep PREV's SL on the new routes, the caveat of a
# move (doc/grids.md).
replay_step() {
	local after=

	[ -z "${LAYERS:-}" ] || start_vls "$1"
	if [ ! -s "$W/dqr-transition.dump" ]; then
		it_expect_eq "entries changed without a transition" \
			"$(it_changed "$1" "$2")" 0
		return 0
	fi
	if [ "${SLS:-}" = sa-each ]; then
		vls_of "$1" "$2"
		after=$W/$1.vl
	fi
	"$DQR_CHECK" --replay="$W/dqr-transition.dump" --expect="$W/$1.fts" \
		${LAYERS:+--vls="$W/$1.svl"} ${after:+--vls-after="$after"} \
		"$W/$1.ibnd" "$W/$2.fts" > "$W/$1.replay" 2>&1 ||
		{ cat "$W/$1.replay"; it_fail "$1 does not replay cleanly"; }
	rm -f "$W/dqr-transition.dump"
	it_log "ok: $1 replays loop free and acyclic from $2 ($(grep \
		'^stages: ' "$W/$1.replay" | cut -d';' -f1)${after:+; $(left_out \
		"$1") (source, DLID) pairs whose SL it moved left out})"
}

# wait_pass NR: a reconfiguration after the NR-th, and every transition
# begun since ended (an ERR DQ28 line names a transition too).
wait_pass() {
	it_wait_log "$RECONF" $(($1 + 1)) 60
	wait_transitions
}

# wait_transitions: every transition begun has ended.
wait_transitions() {
	local begun

	it_settle
	begun=$(it_count "dqr: transition [0-9]+ \([^)]*\): [0-9]+ entries on")
	it_wait_log "dqr: transition [0-9]+ (complete|left after)" "$begun" 60
	it_settle
}

# mark: the number of the OpenSM log's next line.
mark() {
	echo $(($(wc -l < "$W/osm.log") + 1))
}

# no_fallback WHAT LINE [ALLOW]: since LINE DQR itself served every pass:
# no DQ13 (DQR off on a cyclic base), DQ15 (out of memory), DQ16 (the base
# routed everything again), DQ17, DQ18 (the verifier refused DQR's
# tables), DQ21/22 (a transition unchecked or not safe), DQ30 (past the
# budget); but for ALLOW (an extended regular expression of codes).
no_fallback() {
	tail -n +"$2" "$W/osm.log" | grep -E "ERR DQ(1[35678]|2[12]|30)" |
		grep -vE "ERR DQ(${3:-none}):" > "$W/fallback" || return 0
	cat "$W/fallback"
	grep -E "$RECONF" "$W/osm.log" | tail -2
	it_fail "$1: DQR was off or fell back"
}

# expect_ok WHAT NR: the reconfiguration after the NR-th says ok.
expect_ok() {
	local l

	l=$(grep -E "$RECONF" "$W/osm.log" | tail -n +$(($2 + 1)) | head -1)
	it_expect_match "$l" "*reconfiguration [0-9]* (ok*" \
		"$1: no reconfiguration (ok): ${l#* dqr: }"
	it_log "ok: $1: ${l#* dqr: }" | cut -c1-200
}

# status_safe WHAT: dqr-status calls the tables handed over safe (on a
# torus's layers: deadlock free on their VLs, not a one-VL cycle).
status_safe() {
	local v

	v=$(sed -n 's/^verdict: //p' "$W/dqr-status")
	grep -qx "tables: safe" "$W/dqr-status" ||
		it_fail "$1: dqr-status: $(grep '^tables: ' "$W/dqr-status")" \
			"($v)"
	it_log "ok: $1: dqr-status: tables safe ($v)"
}

# link_fault I CABLE PREV: Unlink one end of CABLE, judge read-back faultI.
link_fault() {
	local i=$1 end=${2%% *} nr np used from

	from=$(mark)
	nr=$(it_count "$RECONF")
	np=$(it_count "dqr: mesh plug-in: ")
	used=$(($(carries "$3" "$end") + $(carries "$3" "${2#* }")))
	it_log "fault $i: Unlink $end (cable $2, $used entries used it)"
	it_ibsim_cmd "Unlink $end"
	wait_pass "$nr"
	no_fallback "fault $i" "$from"
	expect_ok "fault $i" "$nr"
	if [ "$PLUGIN" = 1 ] && [ "$used" -gt 0 ]; then
		[ "$(it_count "dqr: mesh plug-in: ")" -gt "$np" ] ||
			it_fail "fault $i: no mesh plug-in line"
		it_log "ok: $(grep "dqr: mesh plug-in: " "$W/osm.log" |
			tail -1 | sed 's/^.* dqr: //')"
	fi
	judge "fault$i"
	status_safe "fault $i"
	replay_step "fault$i" "$3"
}

it_setup
ibdm_require
[ -z "${GEN:-}" ] || it_gen_net "$GEN"
cables "$NET" > "$W/cables"
n=$(wc -l < "$W/cables")
[ "$n" -ge 2 ] || it_fail "$n switch-to-switch cables in $NET"
case $SEED in
''|*[!0-9]*) it_fail "SEED=$SEED: not a number" ;;
esac
DRAW=0
rand "$n"
i=$((R + 1))
c1=$(sed -n "${i}p" "$W/cables")
rand $((n - 1))
c2=$(sed "${i}d" "$W/cables" | sed -n "$((R + 1))p")
# CABLE1 and CABLE2 (the wrapper's, in the cables' format) replace both
for c in "${CABLE1:-}" "${CABLE2:-}"; do
	[ -z "$c" ] || grep -qxF "$c" "$W/cables" ||
		it_fail "cable $c is not one of $NET's"
done
c1=${CABLE1:-$c1}
c2=${CABLE2:-$c2}
awk -F'"' '/^Switch/ { print $2 }' "$NET" > "$W/switches"
sm=$(switch_of "$NET" "$(awk -F'"' '/^(Hca|Ca)/ { print $2; exit }' "$NET")")
host=$(switch_of "$NET" "$HOST")
grep -vxF -e "$sm" -e "$host" "$W/switches" > "$W/candidates"
rand "$(wc -l < "$W/candidates")"
sw=$(sed -n "$((R + 1))p" "$W/candidates")
it_log "SEED=$SEED: of $n cables $c1 and then $c2 fail; then switch $sw"

# --- 1. the start ----------------------------------------------------------
it_start_ibsim "$NET"
it_write_conf ${QOS:+"qos $QOS"} ${LMC:+"lmc $LMC"} \
	${OPTIONS:+"event_plugin_options $OPTIONS"}
it_start_opensm
it_wait_log "dqr: base " 1
it_settle
SHAPE_LINE=${SHAPE_LINE:-dqr: shape: }
grep -Eq "$SHAPE_LINE($SHAPE)" "$W/osm.log" ||
	it_fail "shape not $SHAPE: $(grep "$SHAPE_LINE" "$W/osm.log")"
grep -Eq "${BASE_LINE:-dqr: base (${BASE:-dor|ecube}) \(auto}" \
	"$W/osm.log" || it_fail "the base is not lib's grid routing:" \
		"$(grep 'dqr: base ' "$W/osm.log" | head -1)"
it_log "plugin: $(grep -E "$SHAPE_LINE" "$W/osm.log" | head -1 |
	sed 's/^.* \(dqr\|osmdqr\): //')"
if [ -n "${SLS:-}" ]; then
	LAYERS=$(grep -E "$SHAPE_LINE($SHAPE)" "$W/osm.log" | head -1 |
		sed -n "s/.* \([0-9]*\) virtual layers.*/\1/p")
	[ -n "$LAYERS" ] || it_fail "no line says how many layers there are"
fi
judge start
status_safe start
# with LMC, a CA's LIDs are trees of their own: at some switch two of
# them leave by different ports (two-phase routing: other intermediates)
if [ -n "${LMC:-}" ]; then
	apart=$(awk '
	/^Unicast lids / { sec++; next }
	/^0x[0-9a-f]+ [0-9]+ .*portguid 0x/ {
		match($0, /portguid 0x[0-9a-f]+/)
		k = sec " " substr($0, RSTART, RLENGTH)
		if ((k in port) && port[k] != $2 + 0)
			diff[k] = 1
		port[k] = $2 + 0
	}
	END { n = 0; for (k in diff) n++; print n }' "$W/start.fts")
	[ "$apart" -gt 0 ] ||
		it_fail "lmc $LMC: no switch sends a CA's LIDs different ways"
	it_log "ok: lmc $LMC: $apart (switch, CA) pairs send the CA's" \
		"LIDs by more than one port"
fi
# one VL, every path on SL 0 (with qos TRUE too: the routing is the same,
# and OpenSM's default SL2VL maps SL 0 to VL 0); on layers the SL
# dqr-check computed; the SA's answer for a few pairs
awk '/^Ca/ { ca = 1; next }
     ca && /^\[1\]/ { for (i = 1; i <= NF; i++)
			if ($i == "lid") { print $(i + 1); break }
		      ca = 0 }' "$W/start.ibnd" | sort -n > "$W/ca.all"
head -4 "$W/ca.all" > "$W/ca.lids"
# on layers also a route that wraps: SL 0 for all would fail there
# (unless the start needs one layer)
wrap=${LAYERS:+wrap}
[ "${LAYERS_NEEDED:-}" != 1 ] || wrap=
[ -z "$wrap" ] || awk 'NR == FNR { ca[$1] = 1; next }
	$1 == "path_sl" && ($2 in ca) && ($3 in ca) && $4 > 0 {
		print $2, $3; exit }' "$W/ca.all" "$W/start.vl" > "$W/ca.wrap"
sls=""
for d in $(cat "$W/ca.lids") $wrap; do
	s=$(head -1 "$W/ca.lids")
	[ "$d" = "$s" ] && s=$(tail -1 "$W/ca.lids")
	if [ "$d" = wrap ]; then
		read -r s d < "$W/ca.wrap" ||
			it_fail "dqr-check gives no CA route a layer above 0"
	fi
	sl=$(sa_sl "$s" "$d")
	want=0
	[ -z "${LAYERS:-}" ] || want=$(awk -v s="$s" -v d="$d" \
		'$1 == "path_sl" && $2 == s && $3 == d { print $4 }' \
		"$W/start.vl")
	[ "$sl" = "$want" ] ||
		it_fail "SA PathRecord $s -> $d: SL '$sl', want '$want'"
	sls="$sls $s->$d:$sl"
done
it_log "ok: SA PathRecords on the SLs wanted:$sls"
if [ -n "${QOS:-}" ]; then
	# OpenSM programs SL2VL with qos TRUE: SL l must be on VL l (SL 0
	# on VL 0 for one VL) on every in/out pair of a switch (its first,
	# port 1 out)
	lid=$(awk '/^Switch/ { for (i = 1; i <= NF; i++)
			if ($i == "lid") { print $(i + 1); exit } }' \
		"$W/start.ibnd")
	SIM_HOST="$HOST" LD_PRELOAD="$UMAD2SIM" "$SMPQUERY" sl2vl "$lid" 1 \
		> "$W/start.sl2vl" 2>&1 ||
		it_fail "smpquery sl2vl $lid 1: $(cat "$W/start.sl2vl")"
	nsl=1
	[ -z "${LAYERS:-}" ] || nsl=$LAYERS
	bad=$(awk -v nsl="$nsl" '/^ports:/ { n = split($0, f, "|"); rows++
			for (l = 0; l < nsl; l++)
				if (n < 3 + l || f[2 + l] + 0 != l) bad++ }
		   END { print rows ? bad + 0 : "none" }' "$W/start.sl2vl")
	[ "$bad" = 0 ] ||
		it_fail "SL2VL of LID $lid: SL l not on VL l for l < $nsl" \
			"($bad rows): $(cat "$W/start.sl2vl")"
	it_log "ok: qos $QOS: SL l on VL l for l < $nsl in switch LID" \
		"$lid's SL2VL"
fi
rm -f "$W/dqr-transition.dump"

last=start
# --- 2. and 3., unless TWO_CABLES=0 -------------------------------------------
if [ "${TWO_CABLES:-1}" = 1 ]; then
	# --- 2. two cables fail ------------------------------------------------------
	link_fault 1 "$c1" start
	link_fault 2 "$c2" fault1

	# MOVES=1: the wrapper's cables leave a repair no path in its routes' own
	# layers, and the plugin says it moved them (layer_moves=on, the default)
	if [ "${MOVES:-0}" = 1 ]; then
		grep -q "osmdqr: NOTICE: no path fitted the own layers" \
			"$W/osm.log" || it_fail "no repair moved routes to another layer"
		it_log "ok: $(grep "osmdqr: NOTICE: no path fitted the own layers" \
			"$W/osm.log" | tail -1 | sed 's/^.*NOTICE: //' | cut -c1-200)"
		[ "$(sort "$W/fault2.swsl")" != "$(sort "$W/start.swsl")" ] ||
			it_fail "the SA answers the start's SLs after the moves"
	fi

	# --- 3. both come back -------------------------------------------------------
	nr=$(it_count "$RECONF")
	from=$(mark)
	it_ibsim_cmd "ReLink ${c1%% *}"
	it_ibsim_cmd "ReLink ${c2%% *}"
	sleep 1
	kill -HUP "$OSM_PID"
	wait_pass "$nr"
	no_fallback "both cables back" "$from"
	judge back
	replay_step back fault2
	# MOVES=1: the return put moved pairs back on their start SL, which the
	# SA answers only once the original tables are in force
	if [ "${MOVES:-0}" = 1 ]; then
		n=$(left_out back)
		[ "${n:-0}" -gt 0 ] ||
			it_fail "back: no pair's SL changed with the return"
	fi
	it_expect_eq "entries that differ from the start" "$(it_changed back start)" 0
	if [ "${MOVES:-0}" = 1 ]; then
		[ "$(sort "$W/back.swsl")" = "$(sort "$W/start.swsl")" ] ||
			it_fail "both cables back: the SA does not answer the start's SLs"
		grep -q "are back on their start SL" "$W/osm.log" ||
			it_fail "both cables back: no line says the SLs are back"
		it_log "ok: both cables back: the SA answers the start's SLs again"
	fi
	last=back
fi

# --- 4. and 5., unless SWITCH_FAULT=0 -----------------------------------------
if [ "${SWITCH_FAULT:-1}" = 1 ]; then
	# --- 4. a whole switch ------------------------------------------------------
	nr=$(it_count "$RECONF")
	from=$(mark)
	it_log "switch $sw fails"
	it_ibsim_cmd "Unlink \"$sw\""
	wait_pass "$nr"
	# DQR may find no legal route for what crossed the switch (the mesh
	# plug-in bypasses links, not switches) and say so: ERR DQ16, the base
	# engine routes the fabric without it.  Either way the tables must hold.
	if [ "${SWITCH_REPAIRED:-0}" = 1 ]; then
		no_fallback "switch $sw" "$from"
	else
		no_fallback "switch $sw" "$from" 16
	fi
	fell_back=0
	if tail -n +"$from" "$W/osm.log" | grep -q "ERR DQ16:"; then
		fell_back=1
		it_log "switch $sw: DQR fell back: $(tail -n +"$from" "$W/osm.log" |
			sed -n 's/^.*ERR DQ16: dqr: //p' | head -1 | cut -c1-120)"
		it_log "  $(grep -E "$RECONF" "$W/osm.log" | tail -n +$((nr + 1)) |
			head -1 | sed 's/^.* dqr: //' | cut -c1-200)"
	else
		expect_ok "switch $sw" "$nr"
	fi
	judge swfault
	# the plugin's up*/down* in force is named so, not as the base it replaced
	if tail -n +"$from" "$W/osm.log" | grep -q "ERR DQ29:"; then
		grep -q "^base: updn instead of " "$W/dqr-status" ||
			it_fail "switch $sw: ERR DQ29, yet dqr-status says" \
				"$(grep '^base: ' "$W/dqr-status")"
		it_log "ok: switch $sw: $(grep '^base: ' "$W/dqr-status")"
	fi
	it_expect_eq "switches seen without $sw" \
		"$(json_num "$W/swfault.json" switches)" \
		$(($(wc -l < "$W/switches") - 1))
	it_expect_eq "CA ports seen without $sw's" \
		"$(json_num "$W/swfault.json" end_ports)" \
		$(($(ca_ports "$NET") - $(ca_ports "$NET" "$sw")))
	replay_step swfault "$last"
	last=swfault
	if [ "${AFTER_SWITCH:-0}" = 1 ]; then
		grep -vF "\"$sw\"[" "$W/cables" > "$W/others"
		rand "$(wc -l < "$W/others")"
		i=$((R + 1))
		c3=$(sed -n "${i}p" "$W/others")
		rand $(($(wc -l < "$W/others") - 1))
		c4=$(sed "${i}d" "$W/others" | sed -n "$((R + 1))p")
		it_log "with switch $sw down, $c3 and then $c4 fail"
		link_fault 3 "$c3" swfault
		link_fault 4 "$c4" fault3
		last=fault4
	fi
	nr=$(it_count "$RECONF")
	nb=$(it_count "dqr: base ")
	from=$(mark)
	it_ibsim_cmd "ReLink \"$sw\""
	[ "$last" = swfault ] || {
		it_ibsim_cmd "ReLink ${c3%% *}"
		it_ibsim_cmd "ReLink ${c4%% *}"
	}
	sleep 1
	kill -HUP "$OSM_PID"
	if [ "$fell_back" = 1 ]; then
		# the base routed the fabric without the switch: its return is a
		# new switch to that model, so the base routes again (a full pass)
		it_wait_log "dqr: base " $((nb + 1)) 60
		wait_transitions
	else
		wait_pass "$nr"
	fi
	no_fallback "switch $sw back" "$from"
	judge swback
	replay_step swback "$last"
	it_expect_eq "entries that differ from the start" \
		"$(it_changed swback start)" 0
	last=swback
fi

# --- 6. SWITCH_CABLES=K: K of the switch's cables, one after another -------
if [ "${SWITCH_CABLES:-0}" -gt 0 ]; then
	grep -F "\"$sw\"[" "$W/cables" | head -n "$SWITCH_CABLES" \
		> "$W/swcables"
	[ "$(wc -l < "$W/swcables")" = "$SWITCH_CABLES" ] ||
		it_fail "switch $sw has fewer than $SWITCH_CABLES cables"
	it_log "$SWITCH_CABLES cables of switch $sw fail one after another"
	k=0
	while [ "$k" -lt "$SWITCH_CABLES" ]; do
		k=$((k + 1))
		link_fault $((k + 4)) "$(sed -n "${k}p" "$W/swcables")" "$last"
		last=fault$((k + 4))
	done
	nr=$(it_count "$RECONF")
	from=$(mark)
	for k in $(seq "$SWITCH_CABLES"); do
		c=$(sed -n "${k}p" "$W/swcables")
		it_ibsim_cmd "ReLink ${c%% *}"
	done
	sleep 1
	kill -HUP "$OSM_PID"
	wait_pass "$nr"
	no_fallback "the switch's cables back" "$from"
	judge cback
	replay_step cback "$last"
	it_expect_eq "entries that differ from the start" \
		"$(it_changed cback start)" 0
fi
# IMED=unused: the layers leave no VL spare, and the log says the option
# is not used
if [ "${IMED:-0}" = unused ]; then
	l=$(grep "osmdqr: NOTICE: intermediates=[0-9]* not used" \
		"$W/osm.log" | tail -1)
	[ -n "$l" ] || it_fail "no NOTICE says intermediates=N is not used"
	! grep -q "dqr: the IN paper's routes through at most" "$W/osm.log" ||
		it_fail "the IN paper's routes laid DLIDs on full layers"
	it_log "ok: ${l#*NOTICE: }" | cut -c1-200
fi
# IMED=1: the model's routes took part (vlayers_imed.c)
if [ "${IMED:-0}" = 1 ]; then
	l=$(grep "dqr: the IN paper's routes through at most" "$W/osm.log" |
		tail -1)
	[ -n "$l" ] || it_fail "no repair laid DLIDs by the IN paper's routes"
	it_log "ok: ${l#*dqr: }"
fi
it_log "PASS"
