#!/bin/sh
# experiments_cli.sh - scripts/experiments.sh regenerates data/: small
# runs of each experiment write the files data/ holds under the same
# names, scale.dat keeps the rows of the sizes not run, bad usage exits
# 2, and every figure the doc/ pages show is drawn from data/ as stored,
# with no file a plot reads missing.  Without gnuplot the figures are
# not checked and the test ends SKIP.
set -u
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
. "$top_srcdir/test/tools/cli_lib.sh"
tool=env
name=experiments.sh
script="$top_srcdir/scripts/experiments.sh"
stored="$top_srcdir/data"
sim="$top_builddir/tools/dqr-sim"
dir=$(mktemp -d) || exit 1
trap 'rm -rf "$out" "$dir"' EXIT

# usage
expect 2 "EXPERIMENT" -- bash "$script"
expect 2 "no experiment 'bogus'" -- bash "$script" bogus
expect 2 "no experiment 'nope'" -- bash "$script" plot nope
expect 2 "EXPERIMENT" -- bash "$script" all dqr-sim
expect 2 "no dqr-sim" -- bash "$script" -s "$dir/none" -n -o "$dir/x" scale

# same_names EXP GLOB: the files the run wrote for GLOB are the ones
# data/ holds for it
same_names() {
	(cd "$stored/$1" && ls $2) > "$dir/want" 2>&1
	(cd "$dir/d/$1" && ls $2) > "$dir/got" 2>&1
	cmp -s "$dir/want" "$dir/got"
	tally $? "$1: the run wrote other files than data/$1 holds for $2" \
		"$dir/got"
}

# one configuration group of each experiment, 2 runs or trials
expect 0 "kary-4-3 local path: 2 runs" -- RUNS=2 bash "$script" -n -s "$sim" \
	-o "$dir/d" dqr-sim kary-4-3
same_names dqr-sim 'kary-4-3-[el]*'
expect 0 "bench fattree3-36-dsl each: 2 trials" -- TRIALS=2 \
	bash "$script" -n -s "$sim" -o "$dir/d" dqr-sim bench
same_names dqr-sim 'bench-*'
expect 0 "every state verified" -- RUNS=2 bash "$script" -n -s "$sim" \
	-o "$dir/d" grids fig3
same_names grids 'mesh-10x10-[pn]*'
awk 'NR > 1 && $NF == "failed" && $(NF - 1) == 0 { n++ }
	END { exit n != 8 }' "$dir/d/grids/summary.txt"
tally $? "grids: summary.txt does not list 8 verified configurations" \
	"$dir/d/grids/summary.txt"
expect 0 "kary-4-3-uturn end-to-end: 2 runs" -- RUNS=2 \
	ONLY=kary-4-3-uturn-end bash "$script" -n -s "$sim" -o "$dir/d" \
	uturn-fig11
same_names uturn-fig11 'kary-4-3-uturn-end-*'
# intermediates: the five ways, small: each NAME.dat has the start and a
# load line per fault
expect 0 "intermediates: model: 2 runs of 2 faults on torus:4x4x3" -- \
	IMED_RUNS=2 IMED_FAULTS=2 IMED_FABRIC=torus:4x4x3 \
	bash "$script" -n -s "$sim" -o "$dir/d" intermediates
same_names intermediates '*'
for n in defaults ecube-moves lash-moves lash-moves-imed model; do
	awk 'NF != 4 || $1 != NR - 1 { bad = 1 } END { exit bad || NR != 3 }' \
		"$dir/d/intermediates/$n.dat"
	tally $? "intermediates: $n.dat is not 3 load lines" \
		"$dir/d/intermediates/$n.dat"
done

# hypercubes: a small table and 2 runs of 3 faults on the 5-cube; each
# ROUTING.dat has a line per fault count from 0, the first fields
# k and P(hold)
expect 0 "hypercubes: faults: twophase: 2 runs of 3 on hypercube:5" -- \
	HC_DIMS=5 HC_RUNS=2 HC_FAULTS=3 HC_FABRIC=hypercube:5 \
	bash "$script" -n -s "$sim" -o "$dir/d" hypercubes
same_names hypercubes '*'
awk '$1 == 5 && $5 == "max" { n++ } END { exit n != 12 }' \
	"$dir/d/hypercubes/perm.txt"
tally $? "hypercubes: perm.txt is not 12 lines of the 5-cube" \
	"$dir/d/hypercubes/perm.txt"
for r in ecube twophase; do
	awk 'NF != 5 || $1 != NR - 1 || $2 > 1 { bad = 1 }
	     END { exit bad || NR != 4 }' "$dir/d/hypercubes/$r.dat"
	tally $? "hypercubes: $r.dat is not 4 lines" "$dir/d/hypercubes/$r.dat"
done

# scale: the 648-CA row is measured again, the stored others stay
mkdir -p "$dir/d/scale"
cp "$stored/scale/scale.dat" "$dir/d/scale/"
expect 0 "fattree2:36: 2 trials" -- TRIALS=2 bash "$script" -n -s "$sim" \
	-o "$dir/d" scale fattree2:36
awk 'NR == FNR { if (FNR > 2) keep[FNR] = $0; next }
	FNR == 1 { head = /^# CAs switches whole_median_us/ }
	FNR == 2 { row = $1 == 648 && $2 == 54 && NF == 10 }
	FNR > 2 && keep[FNR] != $0 { bad = 1 }
	END { exit !head || !row || bad || FNR != 5 }' \
	"$stored/scale/scale.dat" "$dir/d/scale/scale.dat"
tally $? "scale: scale.dat is not the 648-CA row new and the rest kept" \
	"$dir/d/scale/scale.dat"
[ -s "$dir/d/scale/bench-fattree2-36.txt" ]
tally $? "scale: no bench-fattree2-36.txt" "$out"

# every figure of doc/, drawn from data/ as stored
if ! command -v gnuplot > /dev/null 2>&1; then
	echo "SKIP: gnuplot is not installed; figures not checked"
	summary || exit 1
	exit 77
fi
expect 0 "figures of scale into" -- bash "$script" -f "$dir/fig" plot
! grep -i "cannot find\|warning\|error" "$out"
tally $? "plot: gnuplot missed files of data/ or warned" "$out"
for f in dqr-sim-probability.png dqr-sim-time.png dqr-sim-changed.png \
	grids-fig3.png grids-fig4.png grids-tori.png grids-ecube.png \
	grids-moves.png uturn-fig11.png scale.svg intermediates-load.png \
	hypercubes-faults.png; do
	[ -s "$dir/fig/$f" ] && [ -e "$top_srcdir/doc/$f" ]
	tally $? "plot: $f not drawn, or doc/ does not show it" "$out"
done
summary
