#!/bin/bash
# Regenerates the data of doc/grids.md: DQR on meshes, tori and
# hypercubes, the DQR paper's Fig. 3 and Fig. 4 repeated with dqr-sim.
#
#   bash doc/run-grids.sh [DQR_SIM [OUTDIR [GROUP...]]]
#
# DQR_SIM defaults to tools/dqr-sim (run from a build directory), OUTDIR
# to doc/grids-data.  GROUP picks some of: fig3 (10x10 mesh, every mode,
# turns option, with and without the mesh plug-in), fig4 (5x5 to 20x20
# meshes with the plug-in), tori (5x5 to 20x20 tori routed as meshes with
# the plug-in, and by up*/down*), grid3d (4x4x4 mesh and torus, 5x5x5
# torus), cubes (4- to 8-cube, e-cube), ecube (5x5 to 20x20 and 5x5x3
# to 6x6x6 tori under e-cube on virtual layers, dqr-sim --torus-layers),
# updn (5x5 to 20x20 meshes and tori, 3D meshes and tori, routed as the
# plugin's default does: up*/down* from a corner, --routing updn-mesh),
# lash (the DQR paper's Fig. 5: 5x5 to 20x20 tori, shortest routes on
# LASH's layers, dqr-sim --lash), moves (ecube's and lash's tori with
# --layer-moves: routes move to another layer where their own has no
# room); default all.  JOBS (default 2) configurations run at once.  RUNS
# (default 500) runs of 10 faults each, seed 1; BIG_RUNS (default RUNS)
# for the 20x20 tori under up*/down*, the slowest configurations.
#
# Every configuration writes NAME.txt (dqr-sim's table), NAME.dat (for
# doc/plot-grids.gp) and NAME.time (wall seconds and exit status); at the
# end summary.txt lists every configuration with its runs, wall time,
# P(ok) after 1, 2, 5 and 10 faults and dqr-sim's verification line.
# Every state is verified (dqr-sim's default below 2000 LIDs, which all
# these fabrics are).  A verification failure is a bug: the script says
# so on stderr, in OUTDIR/verify-failures.log, and exits with status 1.
set -e

sim=${1:-tools/dqr-sim}
out=${2:-doc/grids-data}
[ $# -gt 2 ] && shift 2 || set --
want=" ${*:-fig3 fig4 tori grid3d cubes ecube updn lash moves} "
jobs=${JOBS:-2}
runs=${RUNS:-500}
big_runs=${BIG_RUNS:-$runs}
done_list=" "

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
	echo "$name: $n runs" >&2
	(
		t0=$(date +%s.%N)
		st=0
		"$sim" --runs "$n" --faults 10 --seed 1 --data "$f.dat" "$@" \
			> "$f.txt" 2> "$f.err" || st=$?
		t1=$(date +%s.%N)
		awk -v a="$t0" -v b="$t1" -v s="$st" \
			'BEGIN { printf "%.2f %d\n", b - a, s }' > "$f.time"
		[ -s "$f.err" ] || rm -f "$f.err"
	) &
}

if [[ $want == *" fig3 "* ]]; then
	for p in plugin noplug; do
		opt=
		[ $p = plugin ] || opt=--no-mesh-plugin
		for m in end-to-end local; do
			for t in each path; do
				one "mesh-10x10-$p-$m-$t" "$runs" \
					--fabric mesh:10x10 --routing dor \
					--mode $m --turns $t $opt
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
			--fabric torus:${n}x$n --routing dor --mode local
		one "torus-${n}x$n-noplug-end-to-end-each" "$runs" \
			--fabric torus:${n}x$n --routing dor --no-mesh-plugin
		one "torus-${n}x$n-updn-plugin-end-to-end-each" "$r" \
			--fabric torus:${n}x$n --routing updn
		one "torus-${n}x$n-updn-noplug-end-to-end-each" "$r" \
			--fabric torus:${n}x$n --routing updn --no-mesh-plugin
	done
fi

if [[ $want == *" grid3d "* ]]; then
	for s in mesh:4x4x4 torus:4x4x4 torus:5x5x5; do
		b=${s/:/-}
		one "$b-plugin-end-to-end-each" "$runs" --fabric $s \
			--routing dor
		one "$b-plugin-local-each" "$runs" --fabric $s --routing dor \
			--mode local
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
				--fabric hypercube:$d --routing ecube --mode $m
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
		one "torus-$s-lash-layers" "$runs" --fabric torus:$s --lash
	done
fi

if [[ $want == *" moves "* ]]; then
	for s in 5x5 10x10 15x15 20x20; do
		one "torus-$s-ecube-layers-moves" "$runs" --fabric torus:$s \
			--torus-layers --layer-moves
		one "torus-$s-lash-layers-moves" "$runs" --fabric torus:$s \
			--lash --layer-moves
	done
fi

wait

# the summary, and the loud failure
bad=0
{
	printf '%-42s %5s %7s %-5s %5s %5s %5s %5s  %s\n' configuration \
		runs wall_s pref P1 P2 P5 P10 verification
	for t in "$out"/*.time; do
		[ -e "$t" ] || continue
		b=${t%.time}
		read -r wall st < "$t"
		n=$(sed -n 's/^  \([0-9]*\) runs of .*/\1/p' "$b.txt")
		p() { awk -v k="$1" '$1 == k { printf "%.3f", $2 }' "$b.dat"; }
		v=$(grep '^verification:' "$b.txt" || echo "verification: missing")
		# the reroute preference dqr-sim used: mesh = the plug-in
		pref=$(sed -n 's/.*reroute preference \([a-z]*\).*/\1/p' "$b.txt")
		# --torus-layers: the plug-in in every layer
		grep -q 'virtual layers' "$b.txt" && pref=layer
		printf '%-42s %5s %7.1f %-5s %5s %5s %5s %5s  %s\n' \
			"$(basename "$b")" "$n" "$wall" "$pref" "$(p 1)" \
			"$(p 2)" "$(p 5)" "$(p 10)" "$v"
		# every count of failures 0 (the layered line has two, and
		# ends with the verdict's time)
		if [ "$st" = 0 ] && [ "$v" != "verification: missing" ] &&
		   ! printf '%s\n' "$v" | grep -Eq '[1-9][0-9]* failed'; then
			continue
		fi
		bad=1
		echo "$(basename "$b"): exit $st, $v" \
			>> "$out/verify-failures.log"
		[ -e "$b.err" ] && cat "$b.err" >> "$out/verify-failures.log"
	done
} > "$out/summary.txt"

if [ $bad -ne 0 ]; then
	echo "run-grids.sh: VERIFICATION FAILED or dqr-sim failed," \
		"see $out/verify-failures.log" >&2
	cat "$out/verify-failures.log" >&2
	exit 1
fi
echo "run-grids.sh: every state verified, summary in $out/summary.txt" >&2
