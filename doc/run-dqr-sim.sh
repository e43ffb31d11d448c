#!/bin/sh
# Regenerates the figures of doc/dqr-sim.md: every fabric under every mode
# and turns option, then the benchmarks.
#
#   sh doc/run-dqr-sim.sh [DQR_SIM [OUTDIR [EXPERIMENT...]]]
#
# DQR_SIM defaults to tools/dqr-sim (run from a build directory), OUTDIR
# to doc/dqr-sim-data.  EXPERIMENT picks some of: kary-4-3 fattree2-36
# fattree3-36 (the fat trees as lib's ftree-mod routes them, switch LIDs
# by up*/down*), kary-4-3-dsl fattree2-36-dsl fattree3-36-dsl (the same
# with the switch LIDs routed by DQR, --dqr-switch-lids, as in the
# paper), mesh-10x10 mesh-20x20, bench (default: all).  Each run writes
# NAME-MODE-TURNS.txt (the table) and NAME-MODE-TURNS.dat (for gnuplot).
# fattree3:36 is the slow one: FT3_RUNS (default 100) runs with
# turns=each, FT3_RUNS_PATH (20) end-to-end with turns=path and
# FT3_RUNS_LOCAL_PATH (5) local with turns=path, which costs seconds per
# fault; FT3_DSL_RUNS_LOCAL_PATH (default 0: skipped) the same for
# fattree3-36-dsl, which costs more than 30 s per fault.  A
# configuration given 0 runs is skipped.
# Verification failures (exit status 1) do not stop the script: their
# messages go to OUTDIR/verify-failures.log, which is removed when empty.
set -e

sim=${1:-tools/dqr-sim}
out=${2:-doc/dqr-sim-data}
[ $# -gt 2 ] && shift 2 || set --
want=${*:-"kary-4-3 kary-4-3-dsl fattree2-36 fattree2-36-dsl fattree3-36
fattree3-36-dsl mesh-10x10 mesh-20x20 bench"}
ft3_runs=${FT3_RUNS:-100}
ft3_runs_path=${FT3_RUNS_PATH:-20}
ft3_runs_local_path=${FT3_RUNS_LOCAL_PATH:-5}
ft3_dsl_runs_local_path=${FT3_DSL_RUNS_LOCAL_PATH:-0}

mkdir -p "$out"
: > "$out/verify-failures.log"

wanted() {
	case " $(echo $want) " in *" $1 "*) return 0 ;; esac
	return 1
}

# name spec mode turns runs [dqr-sim options]: one configuration
one() {
	name=$1 spec=$2 mode=$3 turns=$4 runs=$5
	shift 5
	[ "$runs" -gt 0 ] || return 0
	f="$out/$name-$mode-$turns"
	echo "$name $mode $turns: $runs runs" >&2
	st=0
	"$sim" --fabric "$spec" --runs "$runs" --faults 10 --seed 1 \
		--mode "$mode" --turns "$turns" --data "$f.dat" "$@" \
		> "$f.txt" 2>> "$out/verify-failures.log" || st=$?
	# 1: a verification failed; keep going, the log says
	[ $st -le 1 ] || exit $st
}

# name spec runs-e2e-each runs-e2e-path runs-local-each runs-local-path
# [dqr-sim options]: the four configurations of one fabric
fabric() {
	wanted "$1" || return 0
	fname=$1 fspec=$2 ree=$3 rep=$4 rle=$5 rlp=$6
	shift 6
	one "$fname" "$fspec" end-to-end each "$ree" "$@"
	one "$fname" "$fspec" end-to-end path "$rep" "$@"
	one "$fname" "$fspec" local each "$rle" "$@"
	one "$fname" "$fspec" local path "$rlp" "$@"
}

fabric kary-4-3 kary:4,3 500 500 500 500
fabric kary-4-3-dsl kary:4,3 500 500 500 500 --dqr-switch-lids
fabric fattree2-36 fattree2:36 500 500 500 500
fabric fattree2-36-dsl fattree2:36 500 500 500 500 --dqr-switch-lids
fabric fattree3-36 fattree3:36 "$ft3_runs" "$ft3_runs_path" "$ft3_runs" \
	"$ft3_runs_local_path"
fabric fattree3-36-dsl fattree3:36 "$ft3_runs" "$ft3_runs_path" "$ft3_runs" \
	"$ft3_dsl_runs_local_path" --dqr-switch-lids
fabric mesh-10x10 mesh:10x10 500 500 500 500
fabric mesh-20x20 mesh:20x20 500 500 500 500

# name spec turns trials
bench() {
	echo "bench $2 $3: $4 trials" >&2
	st=0
	"$sim" --bench --fabric "$2" --turns "$3" --trials "$4" \
		> "$out/bench-$1-$3.txt" 2>> "$out/verify-failures.log" || st=$?
	[ $st -le 1 ] || exit $st
}

if wanted bench; then
	bench fattree2-36 fattree2:36 each 200
	bench fattree2-36 fattree2:36 path 200
	bench fattree3-36 fattree3:36 each 200
	bench fattree3-36 fattree3:36 path 20
fi

[ -s "$out/verify-failures.log" ] || rm -f "$out/verify-failures.log"
