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
it_write_conf "event_plugin_options base=auto"
section "opensm with event_plugin_name osmdqr, routing_engine dqr"
it_start_opensm
it_wait_log "osmdqr: routing by" 1
grep -h "osmdqr\|routing_engine\|tables configured" "$W/osm.log" |
	sed 's/^[A-Z][a-z][a-z] [ 0-9]* [0-9:]* [0-9]* \[[0-9A-F]*\] //'

section "tables read back from the switches (ibnetdiscover, dump_fts), \
judged by dqr-check"
it_readback ca-0001 before
"$DQR_CHECK" "$W/before.ibnd" "$W/before.fts"

section "link failure: Unlink $link (ibsim sends trap 128)"
it_ibsim_cmd "Unlink $link"
it_wait_log "osmdqr: routing by" 2
grep -h "osmdqr\|Trap\|trap\|tables configured" "$W/osm.log" | tail -n 6 |
	sed 's/^[A-Z][a-z][a-z] [ 0-9]* [0-9:]* [0-9]* \[[0-9A-F]*\] //'

section "tables after the re-route, read back and judged"
sleep 2
it_readback ca-0001 after
"$DQR_CHECK" "$W/after.ibnd" "$W/after.fts"
echo
echo "OpenSM log, dumps and read-backs: $W (DQR_IT_KEEP=1 keeps them)"
