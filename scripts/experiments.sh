#!/bin/bash
# experiments.sh - regenerates data/, the data behind the experiment
# pages of doc/, and the figures those pages show.
#
#   bash scripts/experiments.sh [-s DQR_SIM] [-o DATA] [-f FIGS] [-n]
#                               EXPERIMENT [PART...]
#
# EXPERIMENT (data/README says what each folder holds):
#   dqr-sim      doc/dqr-sim.md: the DQR paper's section V on fat trees
#                and meshes -> DATA/dqr-sim, doc/dqr-sim-*.png
#   grids        doc/grids.md: meshes, tori, hypercubes, the DQR paper's
#                Figs. 3 to 5 -> DATA/grids, doc/grids-*.png
#   uturn-fig11  doc/uturn-fig11.md: the FT paper's Fig. 11 ->
#                DATA/uturn-fig11, doc/uturn-fig11.png
#   scale        doc/scale.md: one fault's reaction on fat trees of 648
#                to 43,904 CAs -> DATA/scale/scale.dat, doc/scale.svg
#   intermediates doc/intermediate-switches.md: the busiest channel of
#                an 8x8x8 torus after up to 14 faults, five ways ->
#                DATA/intermediates, doc/intermediates-load.png
#   hypercubes   doc/hypercubes.md: two-phase routing against e-cube,
#                permutation loads and the pairs of whole groups kept
#                through cable faults -> DATA/hypercubes,
#                doc/hypercubes-faults.png
#   all          the six, one after the other (no PART)
#   plot         only the figures, from DATA as it stands; PARTs name
#                the experiments (default: all six)
# PART picks part of an experiment (default: all of it):
#   dqr-sim      kary-4-3 kary-4-3-dsl fattree2-36 fattree2-36-dsl
#                fattree3-36 fattree3-36-dsl mesh-10x10 mesh-20x20 bench
#   grids        fig3 fig4 tori grid3d cubes ecube updn lash moves
#   uturn-fig11  (none; ONLY=TEXT runs the configurations whose NAME-MODE
#                contains TEXT, e.g. ONLY=-vl the two-layer runs)
#   scale        fattree2:36 fattree3:24 fattree3:36 fattree3:56 (the
#                rows of scale.dat they give are replaced, the others kept)
#   hypercubes   perm faults
#
# -s DQR_SIM  the dqr-sim to run (default: $DQR_SIM, else tools/dqr-sim
#             when run from a build directory, else build/tools/dqr-sim
#             of the source tree, else dqr-sim on PATH)
# -o DATA     where the data go (default: data/ of the source tree, which
#             the committed files are overwritten in; give another folder
#             to compare)
# -f FIGS     where the figures go (default: doc/ of the source tree)
# -n          no figures
#
# Environment: RUNS (default 500) runs of 10 random faults each, seed 1,
# for every configuration but the slow fat tree: FT3_RUNS (default 100)
# runs of fattree3:36 with turns=each, FT3_RUNS_PATH (20) end-to-end with
# turns=path, FT3_RUNS_LOCAL_PATH (5) local with turns=path, which costs
# seconds per fault, FT3_DSL_RUNS_LOCAL_PATH (default 0: skipped) the
# same for fattree3-36-dsl, more than 30 s per fault (a configuration
# given 0 runs is skipped); BIG_RUNS (default RUNS) for grids' 20x20 tori
# under up*/down*; JOBS (default 2) grids configurations at once; TRIALS
# overrides the faults of every benchmark (dqr-sim bench: 200, 20 for
# turns=path on fattree3:36; scale: 100, 10 at 43,904 CAs); IMED_RUNS
# (default 10) runs of IMED_FAULTS (14) faults on IMED_FABRIC
# (torus:8x8x8) for intermediates; HC_DIMS (default 6 to 12) the
# hypercubes of the permutation table, HC_RUNS (default 100) runs of
# HC_FAULTS (100) cable faults on HC_FABRIC (hypercube:10) for
# hypercubes faults.
#
# Every state is verified.  dqr-sim and uturn-fig11: a verification
# failure (dqr-sim's exit status 1) does not stop the run; its messages go
# to DATA/NAME/verify-failures.log, removed when empty.  grids: it is a
# bug; the script says so, writes the log and exits with status 1.
# Exit status: 0 done, 1 a step failed, 2 bad usage.  Needs bash, awk,
# and gnuplot for the figures.
set -e
prog=experiments.sh
top=$(cd "$(dirname "$0")/.." && pwd)

usage() {
	sed -n '5,6p' "$0" | sed 's/^# \{0,1\}//' >&2
	echo "EXPERIMENT: dqr-sim, grids, uturn-fig11, scale, intermediates," \
		"hypercubes, all, plot (see the head of $0)" >&2
	exit 2
}

sim=${DQR_SIM:-}
data=$top/data
figs=$top/doc
plots=1
while getopts s:o:f:nh opt; do
	case $opt in
	s) sim=$OPTARG ;;
	o) data=$OPTARG ;;
	f) figs=$OPTARG ;;
	n) plots=0 ;;
	*) usage ;;
	esac
done
shift $((OPTIND - 1))
[ $# -ge 1 ] || usage
what=$1
shift

experiments="dqr-sim grids uturn-fig11 scale intermediates hypercubes"
case $what in
dqr-sim|grids|uturn-fig11|scale|intermediates|hypercubes|plot) ;;
all) [ $# = 0 ] || usage ;;
*) echo "$prog: no experiment '$what'" >&2; usage ;;
esac

if [ "$what" != plot ]; then
	if [ -z "$sim" ]; then
		if [ -x tools/dqr-sim ]; then
			sim=tools/dqr-sim
		elif [ -x "$top/build/tools/dqr-sim" ]; then
			sim=$top/build/tools/dqr-sim
		else
			sim=$(command -v dqr-sim || true)
		fi
	fi
	if [ -z "$sim" ] || ! command -v "$sim" > /dev/null 2>&1; then
		echo "$prog: no dqr-sim (build the tree, or give -s DQR_SIM)" >&2
		exit 2
	fi
	case $sim in
	*/*) sim=$(cd "$(dirname "$sim")" && pwd)/$(basename "$sim") ;;
	esac
fi
mkdir -p "$data" "$figs"
data=$(cd "$data" && pwd)
figs=$(cd "$figs" && pwd)

runs=${RUNS:-500}

# ---------------------------------------------------------------- dqr-sim
# Every fabric under every mode and turns option, then the benchmarks.
# Each configuration writes NAME-MODE-TURNS.txt (dqr-sim's table) and
# NAME-MODE-TURNS.dat (the gnuplot columns); each benchmark
# bench-NAME-TURNS.txt.  The fat trees are routed by lib's ftree-mod,
# switch LIDs by up*/down*; -dsl: the switch LIDs routed by DQR
# (--dqr-switch-lids), as in the paper.
exp_dqr_sim() {
	local out=$data/dqr-sim
	local want=${*:-"kary-4-3 kary-4-3-dsl fattree2-36 fattree2-36-dsl
		fattree3-36 fattree3-36-dsl mesh-10x10 mesh-20x20 bench"}
	local ft3_runs=${FT3_RUNS:-100}
	local ft3_runs_path=${FT3_RUNS_PATH:-20}
	local ft3_runs_local_path=${FT3_RUNS_LOCAL_PATH:-5}
	local ft3_dsl_runs_local_path=${FT3_DSL_RUNS_LOCAL_PATH:-0}

	mkdir -p "$out"
	: > "$out/verify-failures.log"

	wanted() {
		case " $(echo $want) " in *" $1 "*) return 0 ;; esac
		return 1
	}

	# name spec mode turns runs [dqr-sim options]: one configuration
	one() {
		local name=$1 spec=$2 mode=$3 turns=$4 n=$5 st=0
		shift 5
		[ "$n" -gt 0 ] || return 0
		local f="$out/$name-$mode-$turns"
		echo "dqr-sim: $name $mode $turns: $n runs" >&2
		"$sim" --fabric "$spec" --runs "$n" --faults 10 --seed 1 \
			--mode "$mode" --turns "$turns" --data "$f.dat" "$@" \
			> "$f.txt" 2>> "$out/verify-failures.log" || st=$?
		# 1: a verification failed; keep going, the log says
		[ $st -le 1 ] || exit $st
	}

	# name spec runs-e2e-each runs-e2e-path runs-local-each
	# runs-local-path [dqr-sim options]: the four configurations
	fabric() {
		wanted "$1" || return 0
		local fname=$1 fspec=$2 ree=$3 rep=$4 rle=$5 rlp=$6
		shift 6
		one "$fname" "$fspec" end-to-end each "$ree" "$@"
		one "$fname" "$fspec" end-to-end path "$rep" "$@"
		one "$fname" "$fspec" local each "$rle" "$@"
		one "$fname" "$fspec" local path "$rlp" "$@"
	}

	# the DQR paper's settings: OpenSM's ftree (lib's model of it) on
	# fat trees, dimension order on meshes
	local r=$runs ft="--routing ftree-mod"
	fabric kary-4-3 kary:4,3 $r $r $r $r $ft
	fabric kary-4-3-dsl kary:4,3 $r $r $r $r $ft --dqr-switch-lids
	fabric fattree2-36 fattree2:36 $r $r $r $r $ft
	fabric fattree2-36-dsl fattree2:36 $r $r $r $r $ft --dqr-switch-lids
	fabric fattree3-36 fattree3:36 "$ft3_runs" "$ft3_runs_path" \
		"$ft3_runs" "$ft3_runs_local_path" $ft
	fabric fattree3-36-dsl fattree3:36 "$ft3_runs" "$ft3_runs_path" \
		"$ft3_runs" "$ft3_dsl_runs_local_path" $ft --dqr-switch-lids
	fabric mesh-10x10 mesh:10x10 $r $r $r $r --routing dor
	fabric mesh-20x20 mesh:20x20 $r $r $r $r --routing dor

	# name spec turns trials [dqr-sim options]
	bench() {
		local name=$1 spec=$2 turns=$3 n=${TRIALS:-$4} st=0
		shift 4
		echo "dqr-sim: bench $name $turns: $n trials" >&2
		"$sim" --bench --fabric "$spec" --routing ftree-mod \
			--turns "$turns" --trials "$n" "$@" \
			> "$out/bench-$name-$turns.txt" \
			2>> "$out/verify-failures.log" || st=$?
		[ $st -le 1 ] || exit $st
	}

	if wanted bench; then
		bench fattree2-36 fattree2:36 each 200
		bench fattree2-36 fattree2:36 path 200
		bench fattree2-36-dsl fattree2:36 each 200 --dqr-switch-lids
		bench fattree3-36 fattree3:36 each 200
		bench fattree3-36 fattree3:36 path 20
		bench fattree3-36-dsl fattree3:36 each 200 --dqr-switch-lids
	fi

	[ -s "$out/verify-failures.log" ] || rm -f "$out/verify-failures.log"
}

# ---------------------------------------------------------------- grids
# DQR on meshes, tori and hypercubes, the DQR paper's Figs. 3 to 5
# repeated with dqr-sim.  Groups: fig3 (10x10 mesh, every mode, turns
# option, with and without the mesh plug-in), fig4 (5x5 to 20x20 meshes
# with the plug-in), tori (5x5 to 20x20 tori routed as meshes with the
# plug-in, and by up*/down*), grid3d (4x4x4 mesh and torus, 5x5x5
# torus), cubes (4- to 8-cube, e-cube), ecube (5x5 to 20x20 and 5x5x3 to
# 6x6x6 tori under e-cube on virtual layers, --torus-layers), updn (5x5
# to 20x20 meshes and tori, 3D meshes and tori, routed as the plugin's
# default does: up*/down* from a corner, --routing updn-mesh), lash (the
# DQR paper's Fig. 5: 5x5 to 20x20 tori, shortest routes on LASH's
# layers, --lash), moves (ecube's and lash's tori with --layer-moves).
# Every configuration writes NAME.txt (dqr-sim's table), NAME.dat (the
# gnuplot columns) and NAME.time (wall seconds and exit status); at the
# end summary.txt lists every configuration with its runs, wall time,
# P(ok) after 1, 2, 5 and 10 faults and dqr-sim's verification line.
exp_grids() {
	local out=$data/grids
	local want=" ${*:-fig3 fig4 tori grid3d cubes ecube updn lash moves} "
	local jobs=${JOBS:-2}
	local big_runs=${BIG_RUNS:-$runs}
	local done_list=" "

	mkdir -p "$out"
	rm -f "$out/verify-failures.log"

	# name runs [dqr-sim options]: one configuration, in the background
	one() {
		local name=$1 n=$2 f="$out/$1"
		shift 2
		case "$done_list" in *" $name "*) return 0 ;; esac
		done_list="$done_list$name "
		while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do
			wait -n || true
		done
		echo "grids: $name: $n runs" >&2
		(
			t0=$(date +%s.%N)
			st=0
			"$sim" --runs "$n" --faults 10 --seed 1 \
				--data "$f.dat" "$@" \
				> "$f.txt" 2> "$f.err" || st=$?
			t1=$(date +%s.%N)
			awk -v a="$t0" -v b="$t1" -v s="$st" \
				'BEGIN { printf "%.2f %d\n", b - a, s }' \
				> "$f.time"
			[ -s "$f.err" ] || rm -f "$f.err"
		) &
	}

	local p m t n r s d opt b
	if [[ $want == *" fig3 "* ]]; then
		for p in plugin noplug; do
			opt=
			[ $p = plugin ] || opt=--no-mesh-plugin
			for m in end-to-end local; do
				for t in each path; do
					one "mesh-10x10-$p-$m-$t" "$runs" \
						--fabric mesh:10x10 \
						--routing dor --mode $m \
						--turns $t $opt
				done
			done
		done
	fi

	if [[ $want == *" fig4 "* ]]; then
		for n in 5 10 15 20; do
			for m in end-to-end local; do
				one "mesh-${n}x$n-plugin-$m-each" "$runs" \
					--fabric mesh:${n}x$n --routing dor \
					--mode $m --turns each
			done
		done
	fi

	if [[ $want == *" tori "* ]]; then
		for n in 5 10 15 20; do
			r=$runs
			[ $n -lt 20 ] || r=$big_runs
			one "torus-${n}x$n-plugin-end-to-end-each" "$runs" \
				--fabric torus:${n}x$n --routing dor
			one "torus-${n}x$n-plugin-local-each" "$runs" \
				--fabric torus:${n}x$n --routing dor \
				--mode local
			one "torus-${n}x$n-noplug-end-to-end-each" "$runs" \
				--fabric torus:${n}x$n --routing dor \
				--no-mesh-plugin
			one "torus-${n}x$n-updn-plugin-end-to-end-each" "$r" \
				--fabric torus:${n}x$n --routing updn
			one "torus-${n}x$n-updn-noplug-end-to-end-each" "$r" \
				--fabric torus:${n}x$n --routing updn \
				--no-mesh-plugin
		done
	fi

	if [[ $want == *" grid3d "* ]]; then
		for s in mesh:4x4x4 torus:4x4x4 torus:5x5x5; do
			b=${s/:/-}
			one "$b-plugin-end-to-end-each" "$runs" --fabric $s \
				--routing dor
			one "$b-plugin-local-each" "$runs" --fabric $s \
				--routing dor --mode local
			one "$b-noplug-end-to-end-each" "$runs" --fabric $s \
				--routing dor --no-mesh-plugin
		done
		one "torus-4x4x4-updn-plugin-end-to-end-each" "$runs" \
			--fabric torus:4x4x4 --routing updn
	fi

	if [[ $want == *" cubes "* ]]; then
		for d in 4 5 6 7 8; do
			for m in end-to-end local; do
				one "hypercube-$d-ecube-$m-each" "$runs" \
					--fabric hypercube:$d --routing ecube \
					--mode $m
			done
		done
	fi

	if [[ $want == *" updn "* ]]; then
		for s in mesh:5x5 mesh:10x10 mesh:15x15 mesh:20x20 mesh:3x3x3 \
			mesh:4x4x4 mesh:5x4x3 torus:5x3 torus:5x5 torus:10x10 \
			torus:15x15 torus:20x20 torus:4x3x3 torus:5x5x5; do
			one "${s/:/-}-updn-mesh-plugin-end-to-end-each" "$runs" \
				--fabric $s --routing updn-mesh
		done
	fi

	if [[ $want == *" ecube "* ]]; then
		for s in 5x5 10x10 15x15 20x20 5x5x3 5x5x5 6x6x6; do
			one "torus-$s-ecube-layers" "$runs" --fabric torus:$s \
				--torus-layers
		done
	fi

	if [[ $want == *" lash "* ]]; then
		for s in 5x5 10x10 15x15 20x20; do
			one "torus-$s-lash-layers" "$runs" --fabric torus:$s \
				--lash
		done
	fi

	if [[ $want == *" moves "* ]]; then
		for s in 5x5 10x10 15x15 20x20; do
			one "torus-$s-ecube-layers-moves" "$runs" \
				--fabric torus:$s --torus-layers --layer-moves
			one "torus-$s-lash-layers-moves" "$runs" \
				--fabric torus:$s --lash --layer-moves
		done
	fi

	wait

	# the summary, and the loud failure
	local bad=0 tf wall st v pref
	{
		printf '%-42s %5s %7s %-5s %5s %5s %5s %5s  %s\n' \
			configuration runs wall_s pref P1 P2 P5 P10 \
			verification
		for tf in "$out"/*.time; do
			[ -e "$tf" ] || continue
			b=${tf%.time}
			read -r wall st < "$tf"
			n=$(sed -n 's/^  \([0-9]*\) runs of .*/\1/p' "$b.txt")
			p() {
				awk -v k="$1" '$1 == k { printf "%.3f", $2 }' \
					"$b.dat"
			}
			v=$(grep '^verification:' "$b.txt" ||
				echo "verification: missing")
			# the reroute preference dqr-sim used: mesh = the plug-in
			pref=$(sed -n \
				's/.*reroute preference \([a-z]*\).*/\1/p' \
				"$b.txt")
			# --torus-layers: the plug-in in every layer
			grep -q 'virtual layers' "$b.txt" && pref=layer
			printf '%-42s %5s %7.1f %-5s %5s %5s %5s %5s  %s\n' \
				"$(basename "$b")" "$n" "$wall" "$pref" \
				"$(p 1)" "$(p 2)" "$(p 5)" "$(p 10)" "$v"
			# every count of failures 0 (the layered line has
			# two, and ends with the verdict's time)
			if [ "$st" = 0 ] &&
			   [ "$v" != "verification: missing" ] &&
			   ! printf '%s\n' "$v" |
				grep -Eq '[1-9][0-9]* failed'; then
				continue
			fi
			bad=1
			echo "$(basename "$b"): exit $st, $v" \
				>> "$out/verify-failures.log"
			[ -e "$b.err" ] && cat "$b.err" \
				>> "$out/verify-failures.log"
		done
	} > "$out/summary.txt"

	if [ $bad -ne 0 ]; then
		echo "$prog: grids: VERIFICATION FAILED or dqr-sim failed," \
			"see $out/verify-failures.log" >&2
		cat "$out/verify-failures.log" >&2
		exit 1
	fi
	echo "$prog: grids: every state verified, summary in" \
		"$out/summary.txt" >&2
}

# ---------------------------------------------------------------- uturn-fig11
# The FT paper's figure 11 (probability of connectivity after 0..10
# random link faults, 500 samples) on the 4-ary 3-tree and the 2-ary
# 6-tree.  Every configuration runs twice with the same seed: once for
# the text table and the gnuplot data (timed, wall time in NAME.time),
# once for the JSON (NAME.json; not for stretch=0).  Every state of
# every run is checked (--verify all).
exp_uturn_fig11() {
	local out=$data/uturn-fig11
	local only=${ONLY:-}
	local json=1
	[ $# = 0 ] || usage

	mkdir -p "$out"
	: > "$out/verify-failures.log"

	# name spec mode [dqr-sim options]
	one() {
		local name=$1 spec=$2 mode=$3 st=0 start end
		shift 3
		case "$name-$mode" in
		*"$only"*) ;;
		*) return 0 ;;
		esac
		local f="$out/$name-$mode"
		echo "uturn-fig11: $name $mode: $runs runs" >&2
		start=$(date +%s.%N)
		"$sim" --fabric "$spec" --runs "$runs" --faults 10 --seed 1 \
			--mode "$mode" --verify all --data "$f.dat" "$@" \
			> "$f.txt" 2>> "$out/verify-failures.log" || st=$?
		end=$(date +%s.%N)
		echo "$start $end" |
			awk '{ printf "%.1f s wall\n", $2 - $1 }' > "$f.time"
		[ $st -le 1 ] || exit $st
		[ $json = 1 ] || return 0
		st=0
		"$sim" --fabric "$spec" --runs "$runs" --faults 10 --seed 1 \
			--mode "$mode" --verify all --json "$@" \
			> "$f.json" 2>> "$out/verify-failures.log" || st=$?
		[ $st -le 1 ] || exit $st
	}

	local fab fname fspec fmode
	for fab in kary-4-3:kary:4,3 kary-2-6:kary:2,6; do
		fname=${fab%%:*} fspec=${fab#*:}
		for fmode in end-to-end local; do
			one "$fname-uturn" "$fspec" "$fmode" --routing uturn
			one "$fname-uturn-nobias" "$fspec" "$fmode" \
				--routing uturn --no-uturn-bias
			one "$fname-ftree-mod" "$fspec" "$fmode" \
				--routing ftree-mod
			one "$fname-ftree-mod-dsl" "$fspec" "$fmode" \
				--routing ftree-mod --dqr-switch-lids
		done
	done

	# finding 3 of doc/uturn-fig11.md: uturn's tables with their
	# switch-LID entries cleared and filled by DQR instead
	one kary-4-3-uturn-dsl kary:4,3 end-to-end --routing uturn \
		--dqr-switch-lids
	one kary-4-3-uturn-nobias-dsl kary:4,3 end-to-end --routing uturn \
		--no-uturn-bias --dqr-switch-lids

	# the re-routing layer on a second VL where one layer fails, as the
	# plugin installs it (--vl-layers)
	for fab in kary-4-3:kary:4,3 kary-2-6:kary:2,6; do
		fname=${fab%%:*} fspec=${fab#*:}
		for fmode in end-to-end local; do
			one "$fname-uturn-vl" "$fspec" "$fmode" \
				--routing uturn --vl-layers
			one "$fname-uturn-nobias-vl" "$fspec" "$fmode" \
				--routing uturn --no-uturn-bias --vl-layers
		done
	done

	# the layer with stretch=0, the FT paper's short local reroute
	# (doc/uturn.md), end-to-end; text and gnuplot data only
	json=0
	for fab in kary-4-3:kary:4,3 kary-2-6:kary:2,6; do
		fname=${fab%%:*} fspec=${fab#*:}
		one "$fname-uturn-vl-s0" "$fspec" end-to-end --routing uturn \
			--vl-layers --stretch 0
	done

	[ -s "$out/verify-failures.log" ] || rm -f "$out/verify-failures.log"
}

# ---------------------------------------------------------------- scale
# dqr-sim --bench on fat trees of 648, 3,456, 11,664 and 43,904 CAs, as
# `make bench` runs it: single random switch-to-switch link faults, each
# from the start state.  Each size writes bench-SPEC.txt (dqr-sim's
# output, ':' in SPEC written '-'); scale.dat takes one row per size
# from it (columns in its header), sorted by CAs.
exp_scale() {
	local out=$data/scale
	local sizes=${*:-"fattree2:36 fattree3:24 fattree3:36 fattree3:56"}
	local s n f rows=
	mkdir -p "$out"
	for s in $sizes; do
		case $s in
		fattree3:56) n=${TRIALS:-10} ;;
		*) n=${TRIALS:-100} ;;
		esac
		f=$out/bench-${s//:/-}.txt
		echo "scale: $s: $n trials" >&2
		"$sim" --bench --fabric "$s" --routing ftree-mod \
			--trials "$n" > "$f"
		rows="$rows $f"
	done
	# a row per bench output, replacing the row of the same CAs
	local head="# CAs switches whole_median_us whole_p90_us"
	head="$head whole_worst_us reroute_median_us plan_median_us"
	head="$head verify_median_us peak_rss_mib entries_median"
	[ -e "$out/scale.dat" ] || echo "$head" > "$out/scale.dat"
	awk -v head="$head" '
	# the value after the word w on this line
	function after(w,   i) {
		for (i = 1; i < NF; i++)
			if ($i == w)
				return $(i + 1)
		return "?"
	}
	FILENAME ~ /scale\.dat$/ {
		if ($0 !~ /^#/ && NF)
			row[$1] = $0
		next
	}
	FNR == 1 {
		cas = ""
		if (match($0, /[0-9]+ switches of/))
			sw = substr($0, RSTART, RLENGTH - 12)
		if (match($0, /[0-9]+ CAs/))
			cas = substr($0, RSTART, RLENGTH - 4)
	}
	/^whole reaction/ {
		wm = after("median"); wp = after("p90"); ww = after("worst")
	}
	/reroute compute/ { rm = after("median") }
	/transition plan/ { pm = after("median") }
	/change verified \(/ { vm = after("median") }
	/peak memory/ {
		rss = after("(RSS)")
		em = after("median")
		sub(/,$/, "", em)
		if (cas != "")
			row[cas] = cas " " sw " " wm " " wp " " ww " " rm " " \
				pm " " vm " " rss " " em
	}
	END {
		print head
		n = 0
		for (c in row)
			key[++n] = c + 0
		# insertion sort, by CAs
		for (i = 2; i <= n; i++)
			for (j = i; j > 1 && key[j - 1] > key[j]; j--) {
				t = key[j]; key[j] = key[j - 1]; key[j - 1] = t
			}
		for (i = 1; i <= n; i++)
			print row[key[i]]
	}' "$out/scale.dat" $rows > "$out/scale.dat.new"
	mv "$out/scale.dat.new" "$out/scale.dat"
}

# ---------------------------------------------------------- intermediates
# The busiest switch-to-switch channel under all-to-all after each fault
# (dqr-sim --load all-to-all), the same faults for every way: the
# defaults (one VL), DQR with moves on e-cube's and on LASH's layers,
# LASH's with the IN paper's routes first (intermediates=2), and the
# model's own tables made afresh per state.  NAME.txt is dqr-sim's
# output, NAME.dat its load lines: k, mean of the busiest channel over
# the runs that held, mean routes per channel, the worst run's busiest.
exp_intermediates() {
	local out=$data/intermediates n opt
	local ir=${IMED_RUNS:-10} ik=${IMED_FAULTS:-14}
	local spec=${IMED_FABRIC:-torus:8x8x8}

	mkdir -p "$out"
	for n in defaults ecube-moves lash-moves lash-moves-imed model; do
		case $n in
		defaults) opt= ;;
		ecube-moves) opt="--torus-layers --layer-moves" ;;
		lash-moves) opt="--lash --layer-moves" ;;
		lash-moves-imed) opt="--lash --layer-moves --intermediates 2" ;;
		model) opt="--intermediates 2" ;;
		esac
		echo "intermediates: $n: $ir runs of $ik faults on $spec" >&2
		# exit 1: a run lost a pair, which the figure counts anyway
		"$sim" --fabric "$spec" --runs "$ir" --faults "$ik" --seed 1 \
			--load all-to-all $opt > "$out/$n.txt" ||
			[ $? = 1 ] || return 1
		awk '/^load: after [0-9]+ faults: max/ {
			gsub(/[(,]/, " ")
			print $3, $6, $8, $11 }' "$out/$n.txt" > "$out/$n.dat"
		[ -s "$out/$n.dat" ] || {
			echo "$prog: no load lines in $out/$n.txt" >&2
			return 1
		}
	done
}

# ------------------------------------------------------------- hypercubes
# perm: perm.txt, one line per hypercube, routing (ecube, twophase), LMC
# (0, 2) and permutation, with dqr-sim's start line of --permutation
# (no fault).  faults: ROUTING.txt, dqr-sim --active-pairs with
# --permutation bit-reversal on HC_FABRIC, the same cable faults for
# both; ROUTING.dat its lines: k, P(hold), whole %, active %, and the
# busiest channel of bit-reversal averaged over the states that held.
exp_hypercubes() {
	local out=$data/hypercubes parts=${*:-perm faults} n r l p
	local hr=${HC_RUNS:-100} hk=${HC_FAULTS:-100}
	local spec=${HC_FABRIC:-hypercube:10}

	mkdir -p "$out"
	case " $parts " in
	*" perm "*)
		: > "$out/perm.txt"
		for n in ${HC_DIMS:-6 7 8 9 10 11 12}; do
		for r in ecube twophase; do
		for l in 0 2; do
		for p in bit-reversal transpose random; do
			echo "hypercubes: perm: $n-cube $r lmc $l $p" >&2
			"$sim" --fabric "hypercube:$n,lmc=$l" --routing $r \
				--runs 1 --faults 0 --verify none \
				--permutation $p > "$out/perm.one" ||
				return 1
			sed -n "s/^permutation $p: start: /$n $r $l $p /p" \
				"$out/perm.one" >> "$out/perm.txt"
		done
		done
		done
		done
		rm -f "$out/perm.one" ;;
	esac
	case " $parts " in
	*" faults "*)
		for r in ecube twophase; do
			echo "hypercubes: faults: $r: $hr runs of $hk on $spec" >&2
			"$sim" --fabric "$spec" --routing $r --runs "$hr" \
				--faults "$hk" --seed 1 --active-pairs \
				--permutation bit-reversal --verify sample:10 \
				> "$out/$r.txt" || return 1
			awk '/^active pairs: after [0-9]+ faults:/ {
				gsub(/[()%,]/, " ")
				a[$4] = $4 " " $8 " " $14 " " $16 }
			/^permutation bit-reversal: start:/ {
				gsub(/,/, " "); b[0] = $7 }
			/^permutation bit-reversal: after [0-9]+ faults:/ {
				gsub(/,/, " "); b[$4] = $9 }
			END { for (k = 0; k in a; k++)
				print a[k], (k in b) ? b[k] : "nan" }' \
				"$out/$r.txt" > "$out/$r.dat"
			[ -s "$out/$r.dat" ] || {
				echo "$prog: no active pairs in $out/$r.txt" >&2
				return 1
			}
		done ;;
	esac
}

# ---------------------------------------------------------------- figures
plot() {
	local e=$1
	if ! command -v gnuplot > /dev/null 2>&1; then
		echo "$prog: gnuplot is not installed (Debian: apt install" \
			"gnuplot-nox); no figures for $e" >&2
		return 1
	fi
	echo "$prog: figures of $e into $figs" >&2
	gnuplot -e "data='$data/$e'; out='$figs'" "$top/scripts/plot/$e.gp"
}

run() {
	local e=$1
	shift
	case $e in
	dqr-sim) exp_dqr_sim "$@" ;;
	grids) exp_grids "$@" ;;
	uturn-fig11) exp_uturn_fig11 "$@" ;;
	scale) exp_scale "$@" ;;
	intermediates) exp_intermediates "$@" ;;
	hypercubes) exp_hypercubes "$@" ;;
	esac
	[ $plots = 0 ] || plot "$e"
}

case $what in
all)
	for e in $experiments; do
		run "$e"
	done ;;
plot)
	for e in ${*:-$experiments}; do
		case " $experiments " in
		*" $e "*) plot "$e" ;;
		*) echo "$prog: no experiment '$e'" >&2; usage ;;
		esac
	done ;;
*)
	run "$what" "$@" ;;
esac
