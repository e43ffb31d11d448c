#!/bin/sh
# run.sh - fuzz every reader with libFuzzer for a fixed budget.
#
#   sh test/fuzz/run.sh [SECONDS_PER_TARGET]     (default 60)
#
# Builds each target of test/fuzz/ with clang -fsanitize=fuzzer plus
# ASan and UBSan (lib/ compiled alongside, in a temporary folder), starts
# it from its corpus in test/fuzz/corpus/<target>/ and fails on the first
# crash, leak, input that runs over 2 s, or single allocation over 64 MB
# (the readers size nothing by a number they read; the fuzzer itself,
# its corpus and ASan's shadow get 1 GB).  New inputs go to the temporary
# folder, not into the repository: add a crashing input (crash-*, printed)
# to the corpus by hand once it is fixed.  Prints the executions per
# target.  Environment: CC (default clang), FUZZ_KEEP=1 keeps the folder,
# FUZZ_TARGETS="topo lft" runs only those.
set -u
budget=${1:-60}
top=$(cd "$(dirname "$0")/../.." && pwd)
cc=${CC:-clang}
targets=${FUZZ_TARGETS:-"topo lft record options vls"}
work=$(mktemp -d) || exit 1
[ "${FUZZ_KEEP:-0}" = 1 ] || trap 'rm -rf "$work"' EXIT

if ! echo 'int LLVMFuzzerTestOneInput(const char *d, long n)
{ (void)d; (void)n; return 0; }' > "$work/probe.c" ||
	! $cc -fsanitize=fuzzer "$work/probe.c" -o "$work/probe" 2>/dev/null; then
	echo "run.sh: $cc cannot build libFuzzer targets (apt-get install clang)"
	exit 1
fi

flags="-g -O1 -fsanitize=fuzzer-no-link,address,undefined \
-fno-sanitize-recover=all -I$top/lib -I$top/test/fuzz"
# lib/ as one archive; the readers need only the lower layers, but the
# whole of it keeps this list from drifting
mkdir -p "$work/obj"
for c in "$top"/lib/*/*.c; do
	o="$work/obj/$(basename "$(dirname "$c")")_$(basename "$c" .c).o"
	$cc $flags -std=gnu11 -c "$c" -o "$o" || exit 1
done
ar rcs "$work/libdqr.a" "$work"/obj/*.o || exit 1

status=0
for t in $targets; do
	bin="$work/fuzz_$t"
	$cc $flags -std=gnu11 -fsanitize=fuzzer "$top/test/fuzz/fuzz_$t.c" \
		"$top/test/fuzz/fuzz_common.c" "$work/libdqr.a" -lm \
		-o "$bin" || exit 1
	mkdir -p "$work/new_$t"
	(cd "$work" && "$bin" -max_total_time="$budget" -timeout=2 \
		-rss_limit_mb=1024 -malloc_limit_mb=64 -max_len=4096 -print_final_stats=1 \
		"$work/new_$t" "$top/test/fuzz/corpus/$t" > "$work/log_$t" 2>&1)
	rc=$?
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' \
		"$work/log_$t")
	cov=$(grep -o 'cov: [0-9]*' "$work/log_$t" | tail -1)
	if [ "$rc" = 0 ]; then
		echo "fuzz $t: ${execs:-?} executions in ${budget} s, $cov: ok"
	else
		echo "fuzz $t: FAILED (status $rc) after ${execs:-?} executions"
		grep -E 'ERROR|SUMMARY|crash-|leak-|timeout-|oom-' \
			"$work/log_$t" | head -20
		for f in "$work"/crash-* "$work"/leak-* "$work"/timeout-* \
			"$work"/oom-*; do
			[ -f "$f" ] || continue
			echo "input $f:"
			od -c "$f" | head -20
		done
		status=1
	fi
done
[ "$status" = 0 ] && echo "fuzz: all targets ok"
exit $status
