#!/bin/sh
# test-all.sh - set up a fresh Debian machine and run every test:
# unit and integration tests (ibsim + opensm), the unit tests again under
# AddressSanitizer/UBSan and under valgrind, and make distcheck.
set -e
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
sh scripts/install-deps.sh
autoreconf -fi > /dev/null

jobs=$(nproc 2>/dev/null || echo 2)
export DQR_REQUIRE_INTEGRATION=1

rm -rf build build-asan
mkdir -p build build-asan
(cd build && ../configure -q && make -j"$jobs" &&
	make -j"$jobs" check) || { cat build/test-suite.log 2>/dev/null; exit 1; }
(cd build-asan && ../configure -q --enable-sanitizers &&
	make -j"$jobs" && make -j"$jobs" check TESTS='$(UNIT_TESTS)') ||
	{ cat build-asan/test-suite.log 2>/dev/null; exit 1; }
(cd build && make check-valgrind)
count() {
	cat $(find build build-asan -name '*.trs') | grep -c "^:test-result: $1"
}
pass=$(count PASS || true)
fail=$(count '\(FAIL\|ERROR\|XPASS\)' || true)
skip=$(count SKIP || true)

# the integration tests already ran above; distcheck proves the tarball
(cd build && DQR_IT_SKIP=1 make distcheck > distcheck.log 2>&1) ||
	{ tail -50 build/distcheck.log; exit 1; }
echo "distcheck: ok"

echo "tests: $pass passed, $fail failed, $skip skipped"
[ "$fail" = 0 ] && [ "$skip" = 0 ]
