#!/bin/sh
# dqr_check_cli.sh - dqr-check's verdicts, exit statuses and error
# messages on small captured and constructed fabrics.
set -u
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${top_builddir:=$top_srcdir}"
check="$top_builddir/tools/dqr-check"
data="$top_srcdir/test/data"
out=$(mktemp) || exit 1
trap 'rm -f "$out" "$out.bad"' EXIT
failed=0
passed=0

expect() {	# expect STATUS PATTERN -- ARGS...
	want=$1 pattern=$2
	shift 3
	"$check" "$@" > "$out" 2>&1
	got=$?
	if [ "$got" != "$want" ] || ! grep -q -- "$pattern" "$out"; then
		echo "FAIL: dqr-check $*: status $got (want $want)," \
			"pattern '$pattern'"
		cat "$out"
		failed=$((failed + 1))
	else
		passed=$((passed + 1))
	fi
}

# the real capture from ibsim + OpenSM: everything holds, both formats
expect 0 "result: OK" -- "$data/tiny.ibnd" "$data/tiny.fts"
expect 0 "result: OK" -- "$data/tiny.ibnd" "$data/tiny.osm-lfts"
expect 0 '"ok":true' -- --json "$data/tiny.ibnd" "$data/tiny.fts"
expect 0 "pairs ca-to-ca  *12  unreachable 0" -- \
	"$data/tiny.ibnd" "$data/tiny.fts"
# one entry turned back: a forwarding loop, three CAs lose Hca2
expect 1 "forwarding loops: 2 entries" -- "$data/tiny.ibnd" \
	"$data/tiny-loop.fts"
expect 1 "pairs ca-to-ca  *12  unreachable 3" -- "$data/tiny.ibnd" \
	"$data/tiny-loop.fts"
# loops fail the check even when only CA pairs are judged
expect 1 "result: FAIL" -- --pairs=ca "$data/tiny.ibnd" "$data/tiny-loop.fts"
expect 1 "changed against .*: 1 entries, 1 blocks of 64 LIDs, 1 switches" \
	-- --baseline="$data/tiny.fts" "$data/tiny.ibnd" "$data/tiny-loop.fts"
expect 1 '"changed":{"entries":1,"blocks":1,"switches":1}' -- --json \
	--baseline="$data/tiny.fts" "$data/tiny.ibnd" "$data/tiny-loop.fts"
# a ring routed clockwise: reachable, but a dependency cycle of 3 channels
expect 1 "dependency cycle: yes, 3 channels" -- "$data/tiny-cycle.ibnd" \
	"$data/tiny-cycle.fts"
expect 1 '"cycle":\["0x' -- --json "$data/tiny-cycle.ibnd" \
	"$data/tiny-cycle.fts"
expect 1 "pairs switch-to-switch *6  unreachable 0" -- \
	"$data/tiny-cycle.ibnd" "$data/tiny-cycle.fts"

# malformed input: file:line and status 2
sed '17s/.*/0x0004 0x3 : garbage/' "$data/tiny.fts" > "$out.bad"
expect 2 "$out.bad:17:" -- "$data/tiny.ibnd" "$out.bad"
sed '11s/.*/Switch	8 "S-0000000000200000/' "$data/tiny.ibnd" > "$out.bad"
expect 2 "$out.bad:11:" -- "$out.bad" "$data/tiny.fts"
expect 2 "not in the topology" -- "$data/tiny-cycle.ibnd" "$data/tiny.fts"
expect 2 "nosuchfile" -- "$data/tiny.ibnd" "$data/nosuchfile"
# bad usage
expect 2 "usage" -- "$data/tiny.ibnd"
expect 2 "takes all or ca" -- --pairs=some "$data/tiny.ibnd" \
	"$data/tiny.fts"
expect 0 "usage" -- --help

echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
