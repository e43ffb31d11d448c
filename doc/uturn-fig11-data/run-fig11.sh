#!/bin/sh
# Regenerates doc/uturn-fig11-data: the FT paper's figure 11 (probability of
# connectivity after 0..10 random link faults, 500 samples) with dqr-sim
# on the 4-ary 3-tree and the 2-ary 6-tree.
#
#   sh doc/uturn-fig11-data/run-fig11.sh [DQR_SIM [OUTDIR]]
#
# DQR_SIM defaults to tools/dqr-sim (run from a build directory), OUTDIR
# to doc/uturn-fig11-data.  Every configuration runs twice with the same
# seed: once for the text table and the gnuplot data (timed, wall time in
# NAME.time), once for the JSON.  Every state of every run is checked
# (--verify all).  Verification failures (exit status 1) do not stop the
# script: their messages go to OUTDIR/verify-failures.log, which is
# removed when empty.  ONLY=TEXT runs only the configurations whose
# NAME-MODE contains TEXT (ONLY=-vl: the two-layer runs).
set -e

sim=${1:-tools/dqr-sim}
out=${2:-doc/uturn-fig11-data}
runs=${RUNS:-500}
only=${ONLY:-}

mkdir -p "$out"
: > "$out/verify-failures.log"

# name spec mode [dqr-sim options]
one() {
	name=$1 spec=$2 mode=$3
	shift 3
	case "$name-$mode" in
	*"$only"*) ;;
	*) return 0 ;;
	esac
	f="$out/$name-$mode"
	echo "$name $mode: $runs runs" >&2
	st=0
	start=$(date +%s.%N)
	"$sim" --fabric "$spec" --runs "$runs" --faults 10 --seed 1 \
		--mode "$mode" --verify all --data "$f.dat" "$@" \
		> "$f.txt" 2>> "$out/verify-failures.log" || st=$?
	end=$(date +%s.%N)
	echo "$start $end" | awk '{ printf "%.1f s wall\n", $2 - $1 }' \
		> "$f.time"
	[ $st -le 1 ] || exit $st
	st=0
	"$sim" --fabric "$spec" --runs "$runs" --faults 10 --seed 1 \
		--mode "$mode" --verify all --json "$@" \
		> "$f.json" 2>> "$out/verify-failures.log" || st=$?
	[ $st -le 1 ] || exit $st
}

# one() sets name, spec and mode: the loops use their own variables
for fab in kary-4-3:kary:4,3 kary-2-6:kary:2,6; do
	fname=${fab%%:*} fspec=${fab#*:}
	for fmode in end-to-end local; do
		one "$fname-uturn" "$fspec" "$fmode" --routing uturn
		one "$fname-uturn-nobias" "$fspec" "$fmode" --routing uturn \
			--no-uturn-bias
		one "$fname-ftree-mod" "$fspec" "$fmode" --routing ftree-mod
		one "$fname-ftree-mod-dsl" "$fspec" "$fmode" \
			--routing ftree-mod --dqr-switch-lids
	done
done

# finding 3 of doc/uturn-fig11.md: uturn's tables with their switch-LID
# entries cleared and filled by DQR instead
one kary-4-3-uturn-dsl kary:4,3 end-to-end --routing uturn --dqr-switch-lids
one kary-4-3-uturn-nobias-dsl kary:4,3 end-to-end --routing uturn \
	--no-uturn-bias --dqr-switch-lids

# the re-routing layer on a second VL where one layer fails, as the
# plugin installs it (--vl-layers)
for fab in kary-4-3:kary:4,3 kary-2-6:kary:2,6; do
	fname=${fab%%:*} fspec=${fab#*:}
	for fmode in end-to-end local; do
		one "$fname-uturn-vl" "$fspec" "$fmode" --routing uturn \
			--vl-layers
		one "$fname-uturn-nobias-vl" "$fspec" "$fmode" \
			--routing uturn --no-uturn-bias --vl-layers
	done
done

[ -s "$out/verify-failures.log" ] || rm -f "$out/verify-failures.log"
