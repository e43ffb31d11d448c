# common.sh - shared by the integration tests: an emulated fabric (ibsim),
# a stock opensm with the plugin, read-back with ibnetdiscover and
# dump_fts, and clean-up of everything started.  Sourced, not run.
#
# The tests judge what the switches hold: the tables are read back through
# the emulated fabric and checked with dqr-check, never taken from the
# plugin's own model.

set -u

: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${top_builddir:=$top_srcdir}"
: "${IBSIM:=$(command -v ibsim || true)}"
: "${OPENSM:=$(command -v opensm || true)}"
: "${IBNETDISCOVER:=$(command -v ibnetdiscover || true)}"
: "${DUMP_FTS:=$(command -v dump_fts || true)}"
: "${IBROUTE:=$(command -v ibroute || true)}"
: "${SMPQUERY:=$(command -v smpquery || true)}"
: "${SAQUERY:=$(command -v saquery || true)}"
: "${SMPDUMP:=$(command -v smpdump || true)}"
: "${UMAD2SIM:=/usr/lib/x86_64-linux-gnu/umad2sim/libumad2sim.so}"

DQR_CHECK="$top_builddir/tools/dqr-check"
TOPO_DIR="$top_srcdir/ibsim-topologies"
PLUGIN_DIR="$top_builddir/plugin/.libs"
# seconds to wait for SUBNET UP; the 648-CA tree needs the most
: "${DQR_IT_TIMEOUT:=300}"

IT_PIDS=""
W=""

it_log() {
	printf '%s: %s\n' "$(basename "$0" .sh)" "$*"
}

it_fail() {
	it_log "FAIL: $*"
	exit 1
}

# Missing emulator or SM: skip, unless CI demands that these tests run.
it_require_tools() {
	local t missing=""

	# the Debian package build (debian/rules): no fabric to emulate there
	if [ "${DQR_IT_SKIP:-0}" = 1 ]; then
		it_log "SKIP: DQR_IT_SKIP=1"
		exit 77
	fi

	for t in "$IBSIM" "$OPENSM" "$IBNETDISCOVER" "$DUMP_FTS" "$UMAD2SIM"; do
		[ -n "$t" ] && [ -e "$t" ] || missing="$missing ${t:-?}"
	done
	[ -x "$DQR_CHECK" ] || missing="$missing $DQR_CHECK"
	[ -e "$PLUGIN_DIR/libosmdqr.so" ] || missing="$missing libosmdqr.so"
	[ -z "$missing" ] && return 0
	if [ "${DQR_REQUIRE_INTEGRATION:-0}" = 1 ]; then
		it_fail "missing:$missing"
	fi
	it_log "SKIP: missing:$missing"
	exit 77
}

# The plugin built with --enable-sanitizers runs inside the stock opensm
# (test-all.sh: build-asan).  ASan's runtime must come first in a process
# not built with it, so it is preloaded with UBSan's; their reports go to
# $W/san.PID, which it_sanitizer_check judges.  The plugin is preloaded
# too: opensm unloads it before LeakSanitizer looks at exit, which would
# leave its leaks without a module to blame.  Suppressed: what the
# interceptors see of ibsim's umad2sim and of libibumad (a read past a
# buffer, a MAD sent after its free: theirs, not ours).
# DQR_IT_SANITIZE=1: fail unless the plugin is built with them.
it_sanitizer_setup() {
	SAN_PRELOAD=$(ldd "$PLUGIN_DIR/libosmdqr.so" 2>/dev/null | awk '
		$1 ~ /^libasan\.so/ { a = $3 }
		$1 ~ /^libubsan\.so/ { u = $3 }
		END { if (a != "") print a, u }')
	if [ -z "$SAN_PRELOAD" ]; then
		[ "${DQR_IT_SANITIZE:-0}" = 1 ] &&
			it_fail "DQR_IT_SANITIZE=1: the plugin has no ASan"
		return 0
	fi
	SAN_PRELOAD="$SAN_PRELOAD $PLUGIN_DIR/libosmdqr.so"
	printf '%s\n' "interceptor_via_lib:libumad2sim.so" \
		"interceptor_via_lib:libibumad.so" > "$W/asan.supp"
	SAN_ASAN="log_path=$W/san:suppressions=$W/asan.supp:detect_leaks=1"
	SAN_ASAN="$SAN_ASAN:exitcode=23"
	SAN_UBSAN="log_path=$W/san:print_stacktrace=1:exitcode=23"
	it_log "opensm runs the plugin under ASan/UBSan ($SAN_PRELOAD)"
}

# it_sanitizer_check: 0 unless a report in $W/san.* is ours.  Every ASan
# and UBSan error counts (the plugin's code is the only instrumented code
# in opensm).  Of the leaks, only those allocated through our code count:
# opensm's own (MADs outstanding at exit, option strings) are not ours.
it_sanitizer_check() {
	local f st=0 ours

	[ -n "${SAN_PRELOAD:-}" ] || return 0
	# a frame of ours: in libosmdqr.so, or a source file of plugin/, lib/
	ours='libosmdqr|(^|[ /])(plugin|lib/[a-z]+)/[a-z_]+[.][ch]:'
	for f in "$W"/san.*; do
		[ -e "$f" ] || continue
		awk -v ours="$ours" '
		/ERROR: LeakSanitizer: detected memory leaks/ { next }
		/ERROR:|runtime error:/ { bad = 1 }
		/^(Direct|Indirect) leak/ { leak = 1; next }
		/^$/ { leak = 0 }
		leak && $0 ~ ours { bad = 1 }
		END { exit !bad }' "$f" || continue
		cat "$f"
		it_log "FAIL: sanitizer report $f"
		st=1
	done
	return $st
}

# it_alive PID: the process runs (a child that ended stays a zombie until
# waited for, and kill -0 still finds it).
it_alive() {
	case $(cut -d' ' -f3 "/proc/$1/stat" 2>/dev/null) in
	Z|"") return 1 ;;
	esac
}

# it_osm_exit STATUS: opensm ended well on SIGTERM (under the sanitizers
# their exit status 23 too, which opensm's own leaks give: the reports
# are judged by it_sanitizer_check).
it_osm_exit() {
	[ "$1" = 0 ] && return 0
	[ -n "${SAN_PRELOAD:-}" ] && [ "$1" = 23 ] && return 0
	return 1
}

it_cleanup() {
	local p st=$? i

	# under the sanitizers opensm must end by itself, for LeakSanitizer
	if [ -n "${SAN_PRELOAD:-}" ] && [ -n "${OSM_PID:-}" ]; then
		kill "$OSM_PID" 2>/dev/null
		for i in $(seq 1 60); do
			it_alive "$OSM_PID" || break
			sleep 0.5
		done
		kill -9 "$OSM_PID" 2>/dev/null
		wait "$OSM_PID" 2>/dev/null
		it_osm_exit $? || {
			it_log "FAIL: opensm died or did not stop"
			st=1
		}
		it_forget_pid "$OSM_PID"
		it_sanitizer_check || st=1
	fi
	for p in $IT_PIDS; do
		kill "$p" 2>/dev/null
	done
	sleep 0.5
	for p in $IT_PIDS; do
		kill -9 "$p" 2>/dev/null
	done
	exec 3>&- 2>/dev/null
	if [ -n "$W" ] && [ -d "$W" ]; then
		if [ "${DQR_IT_KEEP:-0}" = 1 ]; then
			it_log "kept $W"
		else
			rm -rf "$W"
		fi
	fi
	exit $st
}

it_setup() {
	it_require_tools
	W=$(mktemp -d "${TMPDIR:-/tmp}/dqr-it.XXXXXX") || exit 1
	trap it_cleanup EXIT
	trap 'exit 1' INT TERM
	# umad2sim fakes sysfs in ./sys-PID of each process it is preloaded
	# into and removes it only from atexit(): a process killed leaves it
	# behind.  Started from $W, those go with $W, not into the build
	# tree (make distcheck refuses leftovers).  Every path here is
	# absolute.
	cd "$W" || exit 1
	export IBSIM_SOCKNAME="dqr-it-$$-$(date +%s%N)"
	export OSM_CACHE_DIR="$W"
	export OSM_TMP_DIR="$W"
	it_sanitizer_setup
}

# it_gen_net SPEC: NET = $W/gen.net, the ibsim net file dqr-genfabric
# makes of SPEC (mesh:5x5, torus:5x3, ...); IBSIM_LIMITS = the -N -S -P
# it says ibsim needs for a fabric beyond ibsim's default limits.
it_gen_net() {
	"$top_builddir/tools/dqr-genfabric" -o "$W/gen.net" "$1" \
		> "$W/genfabric.log" 2>&1 ||
		it_fail "dqr-genfabric $1: $(cat "$W/genfabric.log")"
	NET="$W/gen.net"
	IBSIM_LIMITS=$(grep -o -- '-N [0-9]* -S [0-9]* -P [0-9]*' \
		"$W/genfabric.log")
}

# it_start_ibsim NETFILE: the emulator reads its console from a FIFO kept
# open on fd 3, so that it_ibsim_cmd can inject faults later.  Ready once
# it prints its first prompt (a large net file under load takes a while).
it_start_ibsim() {
	mkfifo "$W/ibsim.in"
	# shellcheck disable=SC2086 # IBSIM_LIMITS: words of its own
	"$IBSIM" ${IBSIM_LIMITS:-} -s "$1" < "$W/ibsim.in" \
		> "$W/ibsim.out" 2>&1 &
	IBSIM_PID=$!
	IT_PIDS="$IT_PIDS $!"
	IBSIM_LINES=0
	exec 3> "$W/ibsim.in"
	it_ibsim_wait "start on $1"
	sleep 1
	kill -0 "$IBSIM_PID" 2>/dev/null || {
		cat "$W/ibsim.out"
		it_fail "ibsim did not start on $1"
	}
}

# it_ibsim_wait WHAT: wait until ibsim has read the IBSIM_LINES lines sent
# to its console: it prints its prompt "sim> " once when ready and once
# after each line, so the prompts in ibsim.out count what it carried out.
# Fails after 60 s or if ibsim died, saying WHAT it was doing.
it_ibsim_wait() {
	local i n

	for i in $(seq 1 600); do
		n=$(grep -o 'sim> ' "$W/ibsim.out" 2>/dev/null | wc -l)
		[ "$n" -gt "$IBSIM_LINES" ] && return 0
		it_alive "$IBSIM_PID" || {
			cat "$W/ibsim.out"
			it_fail "ibsim died before it did: $1"
		}
		sleep 0.1
	done
	it_fail "ibsim did not $1 within 60 s"
}

# it_stop_ibsim: stop the emulator (opensm first) and forget its fabric,
# OpenSM's cached LIDs included, so that another can be started.
it_stop_ibsim() {
	exec 3>&-
	kill "$IBSIM_PID" 2>/dev/null
	wait "$IBSIM_PID" 2>/dev/null
	it_forget_pid "$IBSIM_PID"
	rm -f "$W/ibsim.in" "$W/guid2lid" "$W/guid2mkey" "$W/neighbors"
	export IBSIM_SOCKNAME="$IBSIM_SOCKNAME-n"
}

# it_forget_pid PID: a process waited for leaves IT_PIDS, so that
# it_cleanup never kills another process that got its number since.
it_forget_pid() {
	local p l=""

	for p in $IT_PIDS; do
		[ "$p" = "$1" ] || l="$l $p"
	done
	IT_PIDS=$l
}

# it_ibsim_cmd COMMAND: one line to the emulator's console; returns once
# ibsim has carried it out, so that what follows (a SIGHUP to opensm after
# a ReLink, a read-back) meets the fabric changed however loaded the
# machine is (the integration tests run side by side).
it_ibsim_cmd() {
	printf '%s\n' "$*" >&3
	IBSIM_LINES=$((IBSIM_LINES + 1))
	it_ibsim_wait "carry out '$*'"
}

# it_write_conf [EXTRA-LINES...]: opensm.conf loading the plugin.
it_write_conf() {
	{
		echo "event_plugin_name osmdqr"
		echo "routing_engine dqr"
		echo "dump_files_dir $W"
		for l in "$@"; do
			echo "$l"
		done
	} > "$W/opensm.conf"
}

# it_start_plugin OPTIONS [EXTRA-LINES...]: opensm with the plugin and
# event_plugin_options OPTIONS, up to the plugin's first routing pass.
it_start_plugin() {
	local opts=$1

	shift
	it_write_conf "event_plugin_options $opts" "$@"
	it_start_opensm
	it_wait_log "dqr: base " 1
}

# it_stop_opensm [KEEP]: stop opensm; its log is removed, or kept as KEEP.
# Fails if opensm had died, or if the sanitizers report on it.
it_stop_opensm() {
	kill "$OSM_PID"
	wait "$OSM_PID" 2>/dev/null
	it_osm_exit $? || it_fail "opensm died (see $W/opensm.out)"
	it_forget_pid "$OSM_PID"
	OSM_PID=""
	it_sanitizer_check || it_fail "sanitizer report"
	it_fast_count
	if [ -n "${1:-}" ]; then
		mv "$W/osm.log" "$W/$1"
	else
		rm -f "$W/osm.log"
	fi
}

# it_fast_count: how many traps the plugin's fast path answered and how
# many it left to OpenSM's sweep, said when there were any.
it_fast_count() {
	local fast left

	fast=$(it_count "dqr: fast path: reconfiguration")
	left=$(it_count "dqr: fast path: .* left to OpenSM's sweep")
	[ "$fast$left" = 00 ] ||
		it_log "fast path: $fast answered, $left left to the sweep"
}

# it_start_opensm: waits until SUBNET UP or fails.
it_start_opensm() {
	local i

	LD_LIBRARY_PATH="$PLUGIN_DIR${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
	LD_PRELOAD="${SAN_PRELOAD:+$SAN_PRELOAD }$UMAD2SIM" \
	ASAN_OPTIONS="${SAN_ASAN:-${ASAN_OPTIONS:-}}" \
	UBSAN_OPTIONS="${SAN_UBSAN:-${UBSAN_OPTIONS:-}}" \
		"$OPENSM" -F "$W/opensm.conf" -f "$W/osm.log" -d2 \
		> "$W/opensm.out" 2>&1 &
	IT_PIDS="$IT_PIDS $!"
	OSM_PID=$!
	for i in $(seq 1 "$DQR_IT_TIMEOUT"); do
		grep -q "SUBNET UP" "$W/osm.log" 2>/dev/null && {
			it_slow "SUBNET UP" "$i" "$DQR_IT_TIMEOUT"
			return 0
		}
		it_alive "$OSM_PID" || break
		sleep 1
	done
	tail -20 "$W/osm.log" 2>/dev/null
	it_fail "opensm did not reach SUBNET UP"
}

# it_slow WHAT N LIMIT: a wait that needed N of its LIMIT polls (one a
# second) says so when N is past half of LIMIT (DQR_IT_SLOW=K: past 1/K):
# the integration tests run side by side, and a wait near its limit is a
# failure to come on a machine more loaded.
it_slow() {
	[ $(($2 * ${DQR_IT_SLOW:-2})) -gt "$3" ] || return 0
	it_log "slow: $1 after $2 of $3 polls"
}

# it_wait_log PATTERN COUNT [SECONDS [PER-SECOND]]: wait until PATTERN
# (grep -E) occurs COUNT times in the OpenSM log, looking PER-SECOND
# times a second (default 1).  A line that opens a short window, such as
# a stage that waits a drain delay of about 2 s, wants 10: looking once a
# second sees it up to a second late, half the window gone.
it_wait_log() {
	local i n polls=$((${3:-120} * ${4:-1})) nap

	nap=$(awk -v n="${4:-1}" 'BEGIN { print 1 / n }')
	for i in $(seq 1 "$polls"); do
		n=$(grep -cE -- "$1" "$W/osm.log" 2>/dev/null)
		[ "${n:-0}" -ge "$2" ] && {
			it_slow "'$1'" "$i" "$polls"
			return 0
		}
		[ -z "${OSM_PID:-}" ] || it_alive "$OSM_PID" ||
			it_fail "opensm died before '$1' (see $W/opensm.out)"
		sleep "$nap"
	done
	it_fail "'$1' did not appear $2 times in the OpenSM log"
}

# it_readback HOST NAME: topology and LFTs as the switches hold them, read
# through the fabric from HOST (not the SM's node).
it_readback() {
	SIM_HOST="$1" LD_PRELOAD="$UMAD2SIM" "$IBNETDISCOVER" \
		> "$W/$2.ibnd" 2> "$W/$2.ibnd.err" ||
		it_fail "ibnetdiscover failed: $(cat "$W/$2.ibnd.err")"
	SIM_HOST="$1" LD_PRELOAD="$UMAD2SIM" "$DUMP_FTS" \
		> "$W/$2.fts" 2> "$W/$2.fts.err" ||
		it_fail "dump_fts failed: $(cat "$W/$2.fts.err")"
	it_fts_top "$1" "$2"
}

# it_fts_top HOST NAME: dump_fts of infiniband-diags 44.0 reads the LFT
# blocks below ALIGN(top, 64) / 64 only (dump_unicast_tables: "block <
# endblock"), so on a switch whose LinearFDBTop is a multiple of 64 it
# never reads the block that starts there, and read-back NAME lacks that
# LID although the switch holds it (the 6-cube's LIDs 1-128: LID 128).
# Such a section gets the entry smpdump reads from that block by the
# section's own path, as dump_fts would print it: none for a port the
# switch lacks.
it_fts_top() {
	local from="$1" name="$2" sec top path b port

	# "SECTION TOP PATH" of each section whose top LID is such a multiple
	# and not listed; PATH as smpdump takes it
	awk '
	function hex(s,   i, v) {
		s = tolower(s)
		sub(/^0x/, "", s)
		for (i = 1; i <= length(s); i++)
			v = v * 16 + index("0123456789abcdef",
					   substr(s, i, 1)) - 1
		return v
	}
	function flush() {
		if (sec && top > 0 && top % 64 == 0 && !has)
			print sec, top, path
	}
	/^Unicast lids / {
		flush()
		sec++
		has = 0
		match($0, /-0x[0-9a-fA-F]+\]/)
		top = hex(substr($0, RSTART + 1, RLENGTH - 2))
		path = "?"
		if (match($0, /; [0-9,]+ guid /))
			path = "-D " substr($0, RSTART + 2, RLENGTH - 8)
		else if (match($0, /Lid [0-9]+ guid /))
			path = substr($0, RSTART + 4, RLENGTH - 10)
		next
	}
	/^0x[0-9a-fA-F]+ / && hex($1) == top { has = 1 }
	END { flush() }' "$W/$name.fts" > "$W/$name.fts.tops"
	[ -s "$W/$name.fts.tops" ] || return 0
	while read -r sec top path; do
		[ "$path" != "?" ] ||
			it_fail "$name: section $sec of dump_fts has no path"
		b=$((top / 64))
		# shellcheck disable=SC2086 # PATH: "-D 0,1,..", or a LID
		port=$(SIM_HOST="$from" LD_PRELOAD="$UMAD2SIM" "$SMPDUMP" \
			$path 0x19 "$b" 2> "$W/$name.smpdump.err" |
			head -1 | cut -c1-2)
		[ -n "$port" ] ||
			it_fail "smpdump of LFT block $b ($path) failed:" \
				"$(cat "$W/$name.smpdump.err")"
		echo "$sec $top $((0x$port))"
	done < "$W/$name.fts.tops" > "$W/$name.fts.add"
	awk '
	FILENAME == ARGV[1] { add[$1] = $2 " " $3; next }
	FILENAME == ARGV[2] {
		if ($1 == "Switch") {
			split($0, q, "\"")
			np[tolower(substr(q[2], 3))] = $2
		}
		next
	}
	# the entry read, before the section ends; n: it was printed
	function put(   e) {
		if (!(sec in add) || done)
			return
		done = 1
		split(add[sec], e, " ")
		if (e[2] > nports)
			return
		printf "0x%04x %03d : (read by smpdump: dump_fts skips " \
		       "this block)\n", e[1], e[2]
		n = 1
	}
	/^Unicast lids / {
		put()
		sec++
		done = n = 0
		match($0, /guid 0x[0-9a-fA-F]+/)
		g = tolower(substr($0, RSTART + 7, RLENGTH - 7))
		while (length(g) < 16)
			g = "0" g
		nports = np[g] + 0
		print
		next
	}
	/^[0-9]+ (valid )?lids dumped/ {
		put()
		$1 += n
		print
		next
	}
	{ print }
	END { put() }
	' "$W/$name.fts.add" "$W/$name.ibnd" "$W/$name.fts" \
		> "$W/$name.fts.new" || it_fail "$name: it_fts_top"
	mv "$W/$name.fts.new" "$W/$name.fts"
	it_log "$name: LID $(cut -d' ' -f2 "$W/$name.fts.add" | sort -u |
		tr '\n' ' ')read by smpdump on $(wc -l < "$W/$name.fts.add")" \
		"switches (dump_fts skips the block at LinearFDBTop)"
}

# it_sa_prs HOST: for each "SLID DLID" read, "SLID DLID SL", SL that of
# the SA's PathRecord between them, asked from HOST (empty: none).  A
# saquery a pair, their answers parsed together: here a process costs as
# much as the query, and ibsim answers no multi-MAD query (no RMPP).
it_sa_prs() {
	local s d

	while read -r s d; do
		echo "pair $s $d"
		SIM_HOST="$1" LD_PRELOAD="$UMAD2SIM" "$SAQUERY" PR \
			--slid "$s" --dlid "$d" 2>&1
	done | awk 'function out() { if (p != "") print p, sl }
		    $1 == "pair" { out(); p = $2 " " $3; sl = ""; next }
		    $1 ~ /^sl\./ && sl == "" {
			sub(/^sl\.*/, "", $1); sl = $1 + 0 }
		    END { out() }'
}

# it_smp_sl2vls HOST: for each "LID [PORT]" read, the SL2VL rows smpquery
# reads from HOST, as "LID IN OUT VL-of-SL-0 .. 15".  A query that fails
# ends the test, so not in a pipeline (it_fail would end a subshell).
it_smp_sl2vls() {
	local l p

	while read -r l p; do
		echo "lid $l"
		SIM_HOST="$1" LD_PRELOAD="$UMAD2SIM" "$SMPQUERY" sl2vl \
			"$l" $p 2>&1 || echo "failed: smpquery sl2vl $l $p"
	done > "$W/sl2vl.out"
	! grep -q '^failed: ' "$W/sl2vl.out" ||
		it_fail "$(grep -B3 -m1 '^failed: ' "$W/sl2vl.out")"
	awk '$1 == "lid" { l = $2; next }
	     /^ports:/ { gsub(/[,:|]/, " "); r = l " " $3 " " $5
			 for (k = 6; k <= NF; k++) r = r " " $k
			 print r }' "$W/sl2vl.out"
}

# json_num FILE KEY: the first number after "KEY": in a JSON report.
json_num() {
	grep -o "\"$2\":[0-9.]*" "$1" | head -1 | cut -d: -f2
}

# The plugin's INFO line of its N-th routing pass (default: the last).
plugin_pass_line() {
	grep "dqr: base " "$W/osm.log" | sed -n "${1:-\$}p"
}

# plugin_field LINE WORD: the number just before WORD in the INFO line.
plugin_field() {
	printf '%s\n' "$1" | grep -o "[0-9][0-9]* $2" | head -1 |
		cut -d' ' -f1
}

# it_expect_eq WHAT GOT WANT
it_expect_eq() {
	[ "$2" = "$3" ] || it_fail "$1: got '$2', want '$3'"
	it_log "ok: $1 = $2"
}

# it_first_pass: line = the plugin's INFO line of its first pass, logged.
it_first_pass() {
	line=$(plugin_pass_line 1)
	it_log "plugin: $line"
	# on tables an opensm before left, the start is a transition
	it_settle
}

# it_expect_match TEXT PATTERN WHY: fails with WHY unless TEXT matches
# the shell PATTERN.
it_expect_match() {
	case "$1" in
	$2) ;;
	*) it_fail "$3" ;;
	esac
}

# it_expect_fabric JSON SWITCHES CAS: dqr-check's report JSON saw every
# switch and CA port, and judged every ordered CA pair.
it_expect_fabric() {
	it_expect_eq "switches seen" "$(json_num "$1" switches)" "$2"
	it_expect_eq "CA ports seen" "$(json_num "$1" end_ports)" "$3"
	it_expect_eq "CA pairs" "$(grep -o '"ca-to-ca":{"total":[0-9]*' "$1" |
		grep -o '[0-9]*$')" $(($3 * ($3 - 1)))
}

# it_expect_plugin_agrees LINE JSON KEY...: the plugin's own figure for
# each KEY in its pass LINE equals dqr-check's in JSON.
it_expect_plugin_agrees() {
	local pass=$1 json=$2 key

	shift 2
	for key in "$@"; do
		it_expect_eq "$key (plugin = switches)" \
			"$(plugin_field "$pass" "$key")" \
			"$(json_num "$json" "$key")"
	done
}

# it_judge NAME [DQR-CHECK OPTIONS]: dqr-check on a read-back; fails the
# test when dqr-check finds a problem.  The JSON report is left in
# $W/NAME.json.
it_judge() {
	local name=$1

	shift
	"$DQR_CHECK" "$@" "$W/$name.ibnd" "$W/$name.fts" \
		> "$W/$name.txt" 2> "$W/$name.err"
	local st=$?
	"$DQR_CHECK" --json "$@" "$W/$name.ibnd" "$W/$name.fts" \
		> "$W/$name.json" 2>> "$W/$name.err"
	cat "$W/$name.txt"
	[ "$st" = 0 ] || it_fail "dqr-check judged $name: status $st $(cat "$W/$name.err")"
}

# it_replay_since PREV NAME: the stages dqr-transition.dump recorded
# since the last call (IT_SEEN lines) replay loop free and acyclic from
# read-back PREV and end at read-back NAME's tables; fails otherwise.
it_replay_since() {
	local lines

	lines=$(wc -l < "$W/dqr-transition.dump" 2>/dev/null || echo 0)
	if [ "$lines" -gt "${IT_SEEN:-0}" ]; then
		tail -n +"$((${IT_SEEN:-0} + 1))" "$W/dqr-transition.dump" \
			> "$W/$2.plan"
		"$DQR_CHECK" --replay="$W/$2.plan" --expect="$W/$2.fts" \
			"$W/$2.ibnd" "$W/$1.fts" > "$W/$2.replay" 2>&1 ||
			{ cat "$W/$2.replay"
			  it_fail "$2: the stages recorded since $1 do" \
				"not replay cleanly"; }
		it_log "ok: $2: the stages recorded since $1 replay" \
			"loop free and acyclic and end at its tables"
	fi
	IT_SEEN=$lines
}

# it_wait_quiet: every transition begun so far is complete or was left.
it_wait_quiet() {
	it_wait_log "dqr: transition [0-9]+ (complete|left after)" \
		"$(it_count "dqr: transition [0-9]+ \(")" 120
}

# it_changed NAME BASE: entries that differ between two read-backs.
it_changed() {
	"$DQR_CHECK" --json --baseline="$W/$2.fts" "$W/$1.ibnd" "$W/$1.fts" \
		2>/dev/null | grep -o '"changed":{"entries":[0-9]*' |
		grep -o '[0-9]*$'
}

# it_trap_to_up LOG: ms from the first trap 128 to the first SUBNET UP
# after it, from OpenSM's own time stamps (Mon DD HH:MM:SS usec).
it_trap_to_up() {
	awk '
	function t(   s) {
		split($3, s, ":")
		return (s[1] * 3600 + s[2] * 60 + s[3]) * 1000 + $4 / 1000
	}
	!trap && /num:128/ { trap = t(); next }
	trap && /SUBNET UP/ { printf "%.0f\n", t() - trap; exit }
	' "$1"
}

# it_trap_to_reach LOG: ms from the first trap to every pair with a CA
# at one end reachable: the plugin's first transition from a trap says
# when its first stage was answered, and that stage reconnects them
# (reconnect_first.sh checks it on the switches).  The plugin's clock
# starts when OpenSM reports the trap, a fraction of a ms after it logs
# it.
it_trap_to_reach() {
	grep -m1 -o "from the trap: first stage answered after [0-9.]* ms" \
		"$1" | sed 's/.* after \([0-9.]*\) ms/\1/'
}

# it_fast_phases LOG: the first fast reaction's "PORTS READY" (ms from
# the trap: every PortInfo answered, the repair planned), "- -" when the
# fast path did not answer.
it_fast_phases() {
	grep -m1 "dqr: fast path: reconfiguration" "$1" |
		sed -n 's/.*known after \([0-9.]*\) ms, repair ready after \([0-9.]*\) ms.*/\1 \2/p' |
		grep . || echo "- -"
}

# it_count PATTERN: lines of the OpenSM log matching PATTERN (grep -E).
it_count() {
	grep -cE -- "$1" "$W/osm.log" 2>/dev/null || true
}

# it_settle: wait until OpenSM has routed and the log is quiet for 2 s.
it_settle() {
	local last="" now i begun ended

	for i in $(seq 1 60); do
		now=$(wc -c < "$W/osm.log")
		if [ "$now" = "$last" ]; then
			# a transition waiting its drain is not settled (one
			# from the tables a previous SM left, at the start)
			begun=$(it_count "dqr: transition [0-9]+ \(.*stages that wait")
			ended=$(it_count "dqr: transition [0-9]+ (complete|left after)")
			[ "$ended" -ge "$begun" ] && return 0
		fi
		last=$now
		sleep 2
	done
}

# it_sum_json KEY FROM: sum of KEY over dqr-reconfig.log lines FROM.. .
it_sum_json() {
	tail -n +"$2" "$W/dqr-reconfig.log" 2>/dev/null |
		grep -o "\"$1\":[0-9]*" | cut -d: -f2 |
		awk '{ s += $1 } END { print s + 0 }'
}

# it_stock_fault LINK: a stock opensm (routing_engine ftree, no plugin)
# routes the fabric; the tables are read back as osm0, LINK fails, and
# after OpenSM's own re-route they are read back as osm1.  opensm keeps
# running (OSM_PID) until it_stock_done.
it_stock_fault() {
	cat > "$W/opensm.conf" <<-EOF2
	routing_engine ftree
	dump_files_dir $W
	EOF2
	LD_PRELOAD="$UMAD2SIM" "$OPENSM" -F "$W/opensm.conf" \
		-f "$W/osm.log" -d2 > "$W/opensm.out" 2>&1 &
	OSM_PID=$!
	IT_PIDS="$IT_PIDS $OSM_PID"
	it_wait_log "SUBNET UP" 1
	it_settle
	it_readback "$HOST" osm0
	n0=$(it_count "tables configured on all switches")
	it_ibsim_cmd "Unlink $1"
	it_wait_log "tables configured on all switches" $((n0 + 1))
	it_settle
	it_readback "$HOST" osm1
}

# it_stock_done LINK: stop that opensm and bring LINK back.
it_stock_done() {
	it_stop_opensm
	it_ibsim_cmd "ReLink $1"
}

# it_time_stock LINK / it_time_plugin LINK: one more timing of LINK's
# failure, trap -> first SUBNET UP in ms on stdout, judged by nobody: stock
# OpenSM (ftree), or the plugin with the default options, then (plugin)
# trap -> every CA pair reachable and the fast path's phases
# (it_fast_phases); LINK comes back.
it_time_stock() {
	it_stock_fault "$1" > /dev/null
	it_trap_to_up "$W/osm.log"
	it_stock_done "$1"
}

it_time_plugin() {
	local n0

	it_write_conf
	it_start_opensm
	it_wait_log "dqr: base " 1
	it_settle
	n0=$(it_count "SUBNET UP")
	it_ibsim_cmd "Unlink $1"
	it_wait_log "SUBNET UP" $((n0 + 1))
	it_settle
	echo "$(it_trap_to_up "$W/osm.log") $(it_trap_to_reach "$W/osm.log")" \
		"$(it_fast_phases "$W/osm.log")"
	# its lines are not figures
	it_stop_opensm >&2
	it_ibsim_cmd "ReLink $1"
}

# it_min_med_max [COLUMN]: "min/median/max" of the numbers in COLUMN
# (default 1) of the lines on stdin.
it_min_med_max() {
	awk -v c="${1:-1}" '{ print $c }' | sort -n | awk '{ v[NR] = $1 }
	END { printf "%s/%s/%s", v[1], v[int((NR + 1) / 2)], v[NR] }'
}

# it_uturn_balance UTURN FTREE: routes per switch-to-switch link of two
# read-backs under all-to-all and shift traffic (dqr-check --load); uturn
# must be balanced at least as well as OpenSM's ftree.
it_uturn_balance() {
	"$DQR_CHECK" --load "$W/$1.ibnd" "$W/$1.fts" > "$W/$1.load" ||
		it_fail "dqr-check --load $1"
	"$DQR_CHECK" --load "$W/$2.ibnd" "$W/$2.fts" > "$W/$2.load" ||
		it_fail "dqr-check --load $2"
	it_log "uturn: $(grep '^load' "$W/$1.load" | tr '\n' ';')"
	it_log "ftree: $(grep '^load' "$W/$2.load" | tr '\n' ';')"
	local um fm us fs
	um=$(sed -n 's/^load all-to-all:.* max \([0-9]*\),.*/\1/p' "$W/$1.load")
	fm=$(sed -n 's/^load all-to-all:.* max \([0-9]*\),.*/\1/p' "$W/$2.load")
	us=$(sed -n 's/^load shift:.*worst max \([0-9]*\),.*/\1/p' "$W/$1.load")
	fs=$(sed -n 's/^load shift:.*worst max \([0-9]*\),.*/\1/p' "$W/$2.load")
	[ -n "$um" ] && [ -n "$fm" ] && [ -n "$us" ] && [ -n "$fs" ] ||
		it_fail "no load figures"
	[ "$um" -le "$fm" ] ||
		it_fail "uturn all-to-all max $um above ftree's $fm"
	[ "$us" -le "$fs" ] ||
		it_fail "uturn shift worst max $us above ftree's $fs"
}

# it_check_times FROM: the records of dqr-reconfig.log lines FROM.. time
# their reconfigurations and transitions.  A reconfiguration gives each
# phase (project_ms, reroute_ms, verify_ms, plan_ms) and handed_ms, the
# sweep's start to its first stage handed to OpenSM: numbers >= 0, the
# phases together no more than the total.  A transition gives one upload
# per stage and a drain between two, together no more than
# last_answered_ms, and as many stages as dqr-transition.dump holds for
# it.  Fails the test otherwise; prints the figures.
it_check_times() {
	tail -n +"$1" "$W/dqr-reconfig.log" > "$W/times.json"
	grep -q '^{"id":' "$W/times.json" ||
		it_fail "no reconfiguration record from line $1"
	grep -q '^{"transition":' "$W/times.json" ||
		it_fail "no transition record from line $1"
	awk '
	function bad(why) { print "times: " why ": " $0; err = 1 }
	function isnum(v) { return v ~ /^[0-9]+(\.[0-9]+)?$/ }
	function num(key,   v) {
		if (!match($0, "\"" key "\":[^,}]*"))
			return bad("no " key)
		v = substr($0, RSTART + length(key) + 3,
			   RLENGTH - length(key) - 3)
		if (!isnum(v))
			return bad(key " is " v)
		return v + 0
	}
	# list(KEY): sum of the numbers of array KEY, their count in cnt
	function list(key,   v, a, i, s) {
		cnt = -1
		if (!match($0, "\"" key "\":\\[[0-9.,]*\\]"))
			return bad("no list " key)
		v = substr($0, RSTART + length(key) + 4,
			   RLENGTH - length(key) - 5)
		cnt = v == "" ? 0 : split(v, a, ",")
		for (i = 1; i <= cnt; i++)
			if (isnum(a[i]))
				s += a[i]
			else
				bad(key " holds " a[i])
		return s
	}
	NR == FNR {
		if (!seen[$1 " " $2]++)
			dumped[$1]++
		next
	}
	/^{"id":/ {
		p = num("project_ms") + num("reroute_ms") + \
		    num("verify_ms") + num("plan_ms")
		t = num("handed_ms")
		if (p > t)
			bad("phases " p " ms above the total " t " ms")
		printf "reconfiguration:"
		n = split("since project_ms reroute_ms verify_ms plan_ms " \
			  "handed_ms", k, " ")
		for (i = 1; i <= n; i++)
			if (match($0, "\"" k[i] "\":[^,}]*"))
				printf " %s", substr($0, RSTART, RLENGTH)
		print ""
		next
	}
	/^{"transition":/ {
		id = num("transition")
		st = num("stages")
		if (st != dumped[id] + 0)
			bad(st " stages, dqr-transition.dump holds " \
			    dumped[id] + 0)
		u = list("upload_ms")
		if (cnt != st)
			bad(cnt " uploads for " st " stages")
		d = list("drain_ms")
		if (cnt != st - 1)
			bad(cnt " drains for " st " stages")
		f = num("first_answered_ms")
		l = num("last_answered_ms")
		if (f > l || u + d > l)
			bad("uploads and drains above the last answer")
		printf "transition %d: %d stages, uploads %.1f ms, drains " \
		       "%.1f ms, first answered %.1f ms, last %.1f ms\n",
		       id, st, u, d, f, l
		next
	}
	{ bad("unknown record") }
	END { exit err }
	' "$W/dqr-transition.dump" "$W/times.json" > "$W/times.txt"
	local st=$?

	while read -r l; do
		it_log "$l"
	done < "$W/times.txt"
	[ "$st" = 0 ] || it_fail "the records of line $1 on do not add up"
}
