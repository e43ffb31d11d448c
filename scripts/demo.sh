#!/bin/sh
# demo.sh - set up a fresh Debian machine, build osm-dqr, and show it at
# work in one screen: ibsim emulates a fat tree, a stock opensm routes it
# with the plugin loaded, a cable is pulled, and the tables read back from
# the switches are judged before and after.  Then stock OpenSM alone meets
# the same fault, for comparison.  Everything else (package installation,
# the build, ibsim's and opensm's output, dqr-check's full reports) goes
# to demo.log in the build directory; the OpenSM logs and read-backs stay
# in the working directory named at the end.
#
# Exit status: 0 when the tables read back before and after the fault
# reach every pair a cable joins, loop free and deadlock free; 1 otherwise
# or when a step fails.  Stock OpenSM's verdict does not count.
#
# DQR_DEMO_FABRIC  net file (default ibsim-topologies/kary-4-3.net)
# DQR_DEMO_LINK    link to fail as ibsim names it, "switch"[port]
#                  (default: the first switch-to-switch link of the
#                  fabric's first switch)
# DQR_DEMO_STOCK=0 skip stock OpenSM
# DQR_DEMO_BUILD   build directory (default ./build; one already built
#                  is used as it is)
set -e
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
build=${DQR_DEMO_BUILD:-$top/build}
mkdir -p "$build"
build=$(cd "$build" && pwd)
log=$build/demo.log
exec 4>&1 > "$log" 2>&1

say() {
	printf '%s\n' "$*" >&4
	printf 'demo: %s\n' "$*"
}

# on any exit: a failure says where to look, every exit names the log
demo_end() {
	st=$1
	if [ "$st" != 0 ]; then
		printf 'FAILED (exit status %s); the end of the log:\n' "$st" >&4
		tail -15 "$log" | sed 's/^/  | /' >&4
	fi
	say "Full log: $log"
	[ -z "${W:-}" ] || say "OpenSM logs, dumps and read-backs: $W"
}
trap 'demo_end $?' EXIT

fabric=${DQR_DEMO_FABRIC:-$top/ibsim-topologies/kary-4-3.net}
[ -r "$fabric" ] || { say "no fabric file $fabric"; exit 1; }
fabric=$(cd "$(dirname "$fabric")" && pwd)/$(basename "$fabric")

# link_peer NET SWITCH PORT: the peer "name"[port] of a switch port, and
# whether it is a switch: "sw <peer>" or "ca <peer>"; empty if no link.
link_peer() {
	awk -v sw="\"$2\"" -v port="[$3]" '
	NR == FNR { if ($1 == "Switch") is_sw[$3] = 1; next }
	$1 == "Switch" || $1 == "Hca" { in_sw = ($3 == sw); next }
	in_sw && $1 == port {
		peer = $2
		sub(/\[.*/, "", peer)
		print (peer in is_sw ? "sw " : "ca ") $2
		exit
	}' "$1" "$1"
}

if [ -n "${DQR_DEMO_LINK:-}" ]; then
	link=$DQR_DEMO_LINK
else
	# the first port of the first switch that leads to a switch
	link=$(awk '
	NR == FNR { if ($1 == "Switch") is_sw[$3] = 1; next }
	$1 == "Switch" { sw = $3; next }
	$1 == "Hca" { sw = ""; next }
	sw != "" && $1 ~ /^\[[0-9]+\]$/ {
		peer = $2
		sub(/\[.*/, "", peer)
		if (peer in is_sw) { print sw $1; exit }
	}' "$fabric" "$fabric")
fi
link_sw=$(printf '%s\n' "$link" | sed -n 's/^"\([^"]*\)"\[\([0-9]*\)\]$/\1/p')
link_port=$(printf '%s\n' "$link" | sed -n 's/^"[^"]*"\[\([0-9]*\)\]$/\1/p')
peer=""
[ -z "$link_sw" ] || peer=$(link_peer "$fabric" "$link_sw" "$link_port")
case $peer in
sw\ *) ;;
ca\ *)
	say "DQR_DEMO_LINK $link leads to a CA (${peer#ca }): pick a" \
		"switch-to-switch link of $fabric"
	exit 1 ;;
*)
	say "DQR_DEMO_LINK '$link' is no linked switch port of $fabric" \
		"(write it as ibsim does: '\"sw-L1-0000\"[5]')"
	exit 1 ;;
esac

say "osm-dqr demo: installing packages and building (a few minutes the" \
	"first time)"
sh scripts/install-deps.sh
if [ ! -x "$build/tools/dqr-check" ] ||
	[ ! -e "$build/plugin/.libs/libosmdqr.so" ]
then
	[ -x configure ] || autoreconf -fi
	(cd "$build" && "$top/configure" &&
		make -j"$(nproc 2>/dev/null || echo 2)")
fi

top_srcdir=$top
top_builddir=$build
export DQR_REQUIRE_INTEGRATION=1
DQR_IT_KEEP=1
HOST=ca-0001
. "$top/test/integration/common.sh"
set +e

it_setup
trap 'st=$?; demo_end $st; (exit $st); it_cleanup' EXIT

# verdict NAME [BASE]: dqr-check on the read-back NAME (against the
# read-back BASE); prints the verdict in one line after "  read back: "
# and returns dqr-check's status.
verdict() {
	"$DQR_CHECK" --pairs=all ${2:+--baseline="$W/$2.fts"} \
		"$W/$1.ibnd" "$W/$1.fts" > "$W/$1.txt" 2>&1
	local st=$?

	cat "$W/$1.txt" >&2
	awk '
	/^pairs / { n += $3; bad += $5; cut += $8 + 0 }
	/^forwarding loops:/ { loops = $3 }
	/^dependency cycle: yes/ { cyc = 1 }
	/^result:/ { res = $2 }
	END {
		if (res == "") { print "dqr-check could not judge it"; exit }
		s = (bad - cut == 0) ? \
		    sprintf("every pair reachable (%d pairs", n) : \
		    sprintf("%d of %d pairs UNREACHABLE (", bad - cut, n)
		if (cut)
			s = s sprintf(", %d without a cable path", cut)
		s = s "), "
		s = s (loops == 0 ? "loop free" : \
		       "FORWARDING LOOPS on " loops " entries") ", "
		s = s (cyc ? "dependency CYCLE (deadlock possible)" : \
		       "deadlock free (acyclic)")
		print s
	}' "$W/$1.txt"
	return $st
}

# json NAME FILE: the value of "NAME" in the last JSON line holding it
json() {
	grep -o "\"$1\":[^,}]*" "$2" | tail -1 | cut -d: -f2 | tr -d '"'
}

# ms NUMBER: rounded to 0.1
ms() {
	printf '%.1f' "$1"
}

ok=0
say ""
say "Fabric: $(head -1 "$fabric" | sed 's/^# //')"
say "  emulated by ibsim ($(basename "$fabric"))"
it_start_ibsim "$fabric"
it_start_plugin "base=auto"
it_settle
grep -h "osmdqr\|dqr: \|tables configured" "$W/osm.log"
base=$(grep -o "dqr: base [^:]*" "$W/osm.log" | head -1 | sed 's/dqr: base //')
filled=$(plugin_field "$(plugin_pass_line 1)" "entries")
say ""
say "Stock opensm $(dpkg-query -W -f='${Version}' opensm 2>/dev/null)" \
	"loaded the plugin (event_plugin_name osmdqr," \
	"routing_engine dqr)."
say "  First routing: base engine $base$([ "${filled:-0}" = 0 ] ||
	echo ", $filled entries it left unrouted filled by DQR")"
it_readback "$HOST" before
v=$(verdict before) || ok=1
say "  read back: $(printf '%s\n' "$v" | tail -1)"

say ""
far=$(printf '%s\n' "${peer#sw }" | sed 's/^"\(.*\)"\[\(.*\)\]$/\1 port \2/')
say "Fault: the cable $link_sw port $link_port -- $far is pulled"
say "  (ibsim Unlink $link; the switch sends trap 128)"
l0=$(wc -l < "$W/osm.log")
n=$(it_count "dqr: reconfiguration [0-9]+ \(")
it_ibsim_cmd "Unlink $link"
it_wait_log "dqr: reconfiguration [0-9]+ \(" $((n + 1))
tid=""
for i in $(seq 1 60); do
	tid=$(tail -n +"$((l0 + 1))" "$W/osm.log" |
		grep -oE "dqr: transition [0-9]+ \(" | head -1 | grep -oE "[0-9]+")
	[ -n "$tid" ] && break
	sleep 1
done
[ -n "$tid" ] && it_wait_log "dqr: transition $tid complete" 1
it_settle
tail -n +"$((l0 + 1))" "$W/osm.log" | grep "num:128\|dqr: \|ERR DQ"
cat "$W/dqr-reconfig.log"
rec=$(grep '^{"id":' "$W/dqr-reconfig.log" | tail -1)
printf '%s\n' "$rec" > "$W/demo-rec.json"
grep "^{\"transition\":$tid," "$W/dqr-reconfig.log" > "$W/demo-tr.json"
r=$W/demo-rec.json
waits=$(grep "dqr: transition $tid (" "$W/osm.log" | head -1 |
	sed -n 's/.*stages that wait a drain: \([0-9]*\).*/\1/p')
t=$W/demo-tr.json
say "What the plugin did (reconfiguration $(json id "$r"):" \
	"$(json outcome "$r")):"
say "  $(json disconnected_entries "$r") forwarding entries lost their" \
	"route; DQR rerouted them and"
say "  changed $(json changed_entries "$r") entries in" \
	"$(json changed_blocks "$r") LFT blocks on" \
	"$(json switches_touched "$r") switches; every other entry kept"
say "  uploaded in $(json stages "$t") stages, each checked loop and" \
	"deadlock free ($waits waited the $(json drain_delay_ms "$t") ms drain)"
say "  from the $(json since "$r") to the first stage: handed to OpenSM" \
	"$(ms "$(json handed_ms "$r")") ms,"
say "  answered $(ms "$(json first_answered_ms "$t")") ms; last stage" \
	"answered $(ms "$(json last_answered_ms "$t")") ms"
dqr_up=$(it_trap_to_up "$W/osm.log")
it_readback "$HOST" after
v=$(verdict after before) || ok=1
say "  read back: $(printf '%s\n' "$v" | tail -1)"
say "  read back against before: $(sed -n 's/^changed against [^:]*: //p' \
	"$W/after.txt") changed"
it_stop_opensm osm-dqr.log

if [ "${DQR_DEMO_STOCK:-1}" != 0 ]; then
	say ""
	say "Stock OpenSM alone (routing_engine ftree), same fault:"
	it_ibsim_cmd "ReLink $link"
	it_stock_fault "$link"
	stock_up=$(it_trap_to_up "$W/osm.log")
	v=$(verdict osm1 osm0)
	say "  changed $(it_changed osm1 osm0) entries, all uploaded at once"
	say "  read back: $(printf '%s\n' "$v" | tail -1)"
	say "  trap -> first SUBNET UP: stock OpenSM ${stock_up:-?} ms," \
		"osm-dqr ${dqr_up:-?} ms"
	it_stop_opensm osm-stock.log
fi

say ""
if [ "$ok" = 0 ]; then
	say "Verdict: OK. Before and after the fault the tables the switches" \
		"hold"
	say "  reach every connected pair, loop free and deadlock free."
else
	say "Verdict: BAD: the tables read back fail dqr-check (see" \
		"$W/before.txt, $W/after.txt)"
fi
exit $ok
