#!/bin/sh
# test-all.sh - set up a fresh Debian machine and run every test:
# unit and integration tests (ibsim + opensm), the unit tests and the
# fuzz corpus again under AddressSanitizer/UBSan (and the plugin inside
# opensm through the fault scenarios) and under valgrind, the
# readers fuzzed (test/fuzz/run.sh), the dqr-sim soak, make distcheck
# and the Debian package.
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
	make -j"$jobs" &&
	make -j"$jobs" check TESTS='$(UNIT_TESTS) $(FUZZ_TESTS)') ||
	{ cat build-asan/test-suite.log 2>/dev/null; exit 1; }
# the ASan/UBSan plugin inside the stock opensm (test/integration/common.sh
# preloads the runtimes; a report of ours or a dead opensm fails): the
# fault and transition scenarios, every base engine, the VL layer, a
# restart reading the switches' tables, the grid routing, a torus on
# e-cube's layers (also with routes moved between them), and one on
# lash's
san_it=""
for t in dqr_faults_kary dqr_faults_kary_switch dqr_faults_kary_group \
	transitions plugin_options kary_4_3 dqr_layer_kary safe_defaults \
	safe_defaults_interrupt restart_rebalance safe_defaults_hypercube \
	grid_faults_torus2d_qos grid_faults_torus2d_lash_qos \
	grid_faults_torus2d_qos_moves; do
	san_it="$san_it test/integration/$t.sh"
done
(cd build-asan && DQR_IT_SANITIZE=1 make -j"$jobs" check TESTS="$san_it") ||
	{ cat build-asan/test-suite.log 2>/dev/null; exit 1; }
# every reader fuzzed with libFuzzer for a fixed budget: 5 x 45 s
sh test/fuzz/run.sh 45
(cd build && make check-valgrind)
# 200 random fault/recovery sequences per fabric, every transition judged
(cd build && make soak)
count() {
	cat $(find build build-asan -name '*.trs') | grep -c "^:test-result: $1"
}
pass=$(count PASS || true)
fail=$(count '\(FAIL\|ERROR\|XPASS\)' || true)
skip=$(count SKIP || true)

# distcheck proves the tarball: everything again, integration tests too
(cd build && make distcheck > distcheck.log 2>&1) ||
	{ tail -50 build/distcheck.log; exit 1; }
echo "distcheck: ok"

# the Debian package, built in a copy of the tree; it must depend on
# exactly the installed opensm (scripts/build-deb.sh checks)
sh scripts/build-deb.sh build-deb

echo "tests: $pass passed, $fail failed, $skip skipped"
[ "$fail" = 0 ] && [ "$skip" = 0 ]
