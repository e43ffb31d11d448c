#!/bin/sh
# demo.sh - set up a fresh Debian machine, build osm-dqr, and show it at
# work: ibsim emulates a fat tree, a stock opensm routes it with the
# plugin loaded, the tables are read back from the switches and judged,
# then a link fails and the same report follows the re-route.
#
# DQR_DEMO_FABRIC  net file (default ibsim-topologies/kary-4-3.net)
# DQR_DEMO_LINK    link to fail as ibsim names it (default "sw-L1-0000"[5])
set -e
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
sh scripts/install-deps.sh
if [ ! -x build/tools/dqr-check ] || [ ! -e build/plugin/.libs/libosmdqr.so ]
then
	autoreconf -fi > /dev/null
	mkdir -p build
	(cd build && ../configure -q && make -j"$(nproc 2>/dev/null || echo 2)")
fi

top_srcdir=$top
top_builddir=$top/build
export DQR_REQUIRE_INTEGRATION=1
DQR_IT_KEEP=1
. "$top/test/integration/common.sh"
set +e

fabric=${DQR_DEMO_FABRIC:-$top/ibsim-topologies/kary-4-3.net}
link=${DQR_DEMO_LINK:-'"sw-L1-0000"[5]'}

section() {
	printf '\n=== %s\n' "$*"
}

it_setup
section "ibsim: $(head -1 "$fabric" | sed 's/^# //')"
it_start_ibsim "$fabric"
section "opensm with event_plugin_name osmdqr, routing_engine dqr"
it_start_plugin "base=auto drain_ms=100"
it_settle
grep -h "osmdqr\|dqr: \|tables configured" "$W/osm.log" |
	sed 's/^.* -> //'

section "tables read back from the switches (ibnetdiscover, dump_fts), \
judged by dqr-check"
it_readback ca-0001 before
"$DQR_CHECK" "$W/before.ibnd" "$W/before.fts"

section "link failure: Unlink $link (ibsim sends trap 128)"
n=$(it_count "dqr: reconfiguration [0-9]+ \(")
it_ibsim_cmd "Unlink $link"
it_wait_log "dqr: reconfiguration [0-9]+ \(" $((n + 1))
it_wait_log "dqr: transition [0-9]+ complete" 1
it_settle
grep -h "num:128\|dqr: reconf\|dqr: transition\|ERR DQ" "$W/osm.log" |
	sed 's/^.* -> //'

section "DQR's report (JSON, $W/dqr-reconfig.log)"
cat "$W/dqr-reconfig.log"

section "tables after the reconfiguration, read back and judged against \
the tables before"
it_readback ca-0001 after
"$DQR_CHECK" --baseline="$W/before.fts" "$W/after.ibnd" "$W/after.fts"
echo
echo "OpenSM log, dumps and read-backs are kept in $W"
