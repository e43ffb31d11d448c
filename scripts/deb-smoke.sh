#!/bin/sh
# deb-smoke.sh DEB - install the package, let the stock opensm load the
# installed plugin on an emulated fabric, remove the package again.
#
# As root: dpkg -i DEB; ibsim emulates the 2-ary 3-tree; /usr/sbin/opensm
# runs with the opensm.conf lines the package ships as an example, and
# without LD_LIBRARY_PATH, so its dlopen("libosmdqr.so") must find the
# plugin where the package put it.  Passes when opensm reaches SUBNET UP,
# the plugin registered its routing engine and routed ("dqr: base "),
# the library mapped into opensm is the package's, and the installed
# dqr-check judges the tables read back from the switches OK.  Then
# dpkg -r, also when something failed.  Exit status 77 (skip) when not
# root or when ibsim and the like are missing, unless
# DQR_REQUIRE_INTEGRATION=1.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)

deb=${1:?usage: deb-smoke.sh DEB}
deb=$(cd "$(dirname "$deb")" && pwd)/$(basename "$deb")

say() {
	echo "deb-smoke: $*"
}

if [ "$(id -u)" != 0 ]; then
	say "SKIP: not root (dpkg -i needs root)"
	[ "${DQR_REQUIRE_INTEGRATION:-0}" = 1 ] && exit 1
	exit 77
fi
if dpkg-query -W -f='${Status}' osm-dqr 2>/dev/null | grep -q installed
then
	say "FAIL: osm-dqr is installed already; this test would remove it"
	exit 1
fi

say "dpkg-deb -I $(basename "$deb"):"
dpkg-deb -I "$deb" | sed 's/^/  /'

# common.sh judges with the tools it is given: the installed ones
lib=$(dpkg-deb -c "$deb" | awk '{ print $6 }' |
	sed -n 's|^\./\(usr/lib/.*/libosmdqr\.so\)$|/\1|p')
[ -n "$lib" ] || { say "FAIL: no libosmdqr.so in $deb"; exit 1; }
top_srcdir=$top
top_builddir=$top
. "$top/test/integration/common.sh"
DQR_CHECK=/usr/bin/dqr-check
PLUGIN_DIR=$(dirname "$lib")
OPENSM=/usr/sbin/opensm
installed=0

smoke_end() {
	local st=$1

	if [ -n "${OSM_PID:-}" ]; then
		kill "$OSM_PID" 2>/dev/null
		wait "$OSM_PID" 2>/dev/null
		OSM_PID=""
	fi
	if [ "$installed" = 1 ]; then
		dpkg -r osm-dqr > "$W/dpkg-r.out" 2>&1 || {
			cat "$W/dpkg-r.out"
			say "FAIL: dpkg -r osm-dqr"
			st=1
		}
		if dpkg-query -W -f='${Status}' osm-dqr 2>/dev/null |
			grep -q "install ok"; then
			say "FAIL: osm-dqr still installed"
			st=1
		fi
		[ ! -e "$lib" ] || { say "FAIL: $lib left behind"; st=1; }
		[ "$st" != 0 ] || say "removed osm-dqr (dpkg -r)"
	fi
	(exit "$st")
	it_cleanup
}

# before it_setup, which would skip for a missing dqr-check and plugin
it_require_tools() {
	local t missing=""

	for t in "$IBSIM" "$OPENSM" "$IBNETDISCOVER" "$DUMP_FTS" "$UMAD2SIM"
	do
		[ -n "$t" ] && [ -e "$t" ] || missing="$missing ${t:-?}"
	done
	[ -z "$missing" ] && return 0
	[ "${DQR_REQUIRE_INTEGRATION:-0}" = 1 ] && it_fail "missing:$missing"
	say "SKIP: missing:$missing"
	exit 77
}
it_setup
trap 'smoke_end $?' EXIT

dpkg -i "$deb" > "$W/dpkg-i.out" 2>&1 || {
	cat "$W/dpkg-i.out"
	it_fail "dpkg -i failed (dependencies: opensm of the same build," \
		"installed before)"
}
installed=1
say "installed: $(dpkg-query -W -f='${Package} ${Version}' osm-dqr)," \
	"plugin $lib"

it_start_ibsim "$TOPO_DIR/kary-2-3.net"
{
	grep -v '^#' /usr/share/doc/osm-dqr/examples/opensm.conf.example |
		grep .
	echo "dump_files_dir $W"
} > "$W/opensm.conf" ||
	it_fail "no /usr/share/doc/osm-dqr/examples/opensm.conf.example"
say "opensm.conf: $(grep -v dump_files_dir "$W/opensm.conf" | tr '\n' ';')"
# the environment of a boot-time opensm: no library path of ours
env -u LD_LIBRARY_PATH LD_PRELOAD="$UMAD2SIM" \
	"$OPENSM" -F "$W/opensm.conf" -f "$W/osm.log" -d2 \
	> "$W/opensm.out" 2>&1 &
OSM_PID=$!
IT_PIDS="$IT_PIDS $OSM_PID"
it_wait_log "SUBNET UP" 1 120
it_wait_log "osmdqr .*routing engine 'dqr' registered" 1 10
it_wait_log "dqr: base " 1 30
grep -h "osmdqr\|dqr: base" "$W/osm.log" | sed 's/^.* -> /  /'
grep -q " $lib\$" "/proc/$OSM_PID/maps" ||
	it_fail "opensm did not map $lib: $(grep osmdqr "/proc/$OSM_PID/maps")"
say "ok: /usr/sbin/opensm loaded $lib, SUBNET UP"
it_settle
it_readback ca-0001 smoke
it_judge smoke --pairs=all
say "ok: the installed dqr-check judges the tables read back OK"
it_stop_opensm
say "ok: opensm stopped"
