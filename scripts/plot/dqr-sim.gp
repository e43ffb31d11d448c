# dqr-sim.gp - the figures of doc/dqr-sim.md from dqr-sim --data files.
#
#   gnuplot scripts/plot/dqr-sim.gp                   (from the source tree)
#   gnuplot -e "data='DIR'; out='DIR'" scripts/plot/dqr-sim.gp
#
# scripts/experiments.sh runs it (experiments.sh plot dqr-sim).  data:
# where the experiment wrote NAME-MODE-TURNS.dat (default data/dqr-sim);
# out: where the PNGs go (default doc).
#
# Columns of a .dat file (see dqr-sim(1)): 1 fault, 2 p_ok, 3 reached,
# 4 ok, 5 failed, 6 split, 7 broken_frac, 8 changed_frac, 9 pairs_frac,
# 10 turns, 11 reorders, 12 moved, 13 refused, 14 reroute_us_med,
# 15 reroute_us_max, 16 update_us_med, 17 update_us_max.
#
# turns=each and turns=path give the same tables in every experiment of
# doc/dqr-sim.md (only their cost differs), so the figures show
# turns=each.  A missing file is skipped with a warning.

if (!exists("data")) data = "data/dqr-sim"
if (!exists("out")) out = "doc"

trees = "kary-4-3 fattree2-36 fattree3-36"
tree_titles = "kary:4,3 fattree2:36 fattree3:36"
meshes = "mesh-10x10 mesh-20x20"
mesh_titles = "mesh:10x10 mesh:20x20"
all = trees." ".meshes
all_titles = tree_titles." ".mesh_titles
colors = "#1b9e77 #d95f02 #7570b3 #e7298a #66a61e"
f(name, mode) = sprintf("%s/%s-%s-each.dat", data, name, mode)

set terminal pngcairo size 1300,560 font "sans,11" linewidth 1.5
set grid
set xrange [0.8:10.2]
set xtics 1

# ---------------------------------------------------------------- P(ok)
set output out."/dqr-sim-probability.png"
set multiplot layout 1,2 title \
	"DQR: probability that the tables are connected and deadlock free after k successive random switch-link faults"
set xlabel "link faults k"
set ylabel "P(ok) over the runs"
set yrange [0:1.02]
set ytics 0.1
set key left bottom box opaque font ",10"

set title "fat trees (ftree-mod; -dsl: switch LIDs routed by DQR)"
plot for [i=1:words(trees)] f(word(trees, i), "end-to-end") using 1:2 \
	with linespoints lc rgb word(colors, i) pt 7 dt 1 \
	title word(tree_titles, i)." end-to-end", \
     for [i=1:words(trees)] f(word(trees, i), "local") using 1:2 \
	with linespoints lc rgb word(colors, i) pt 6 dt 2 \
	title word(tree_titles, i)." local", \
     for [i=1:words(trees)] f(word(trees, i)."-dsl", "end-to-end") \
	using 1:2 with linespoints lc rgb word(colors, i) pt 5 ps 0.7 dt 3 \
	title word(tree_titles, i)." -dsl end-to-end"

set title "meshes (dor: XY)"
set key right top
plot for [i=1:words(meshes)] f(word(meshes, i), "end-to-end") using 1:2 \
	with linespoints lc rgb word(colors, i + 3) pt 7 dt 1 \
	title word(mesh_titles, i)." end-to-end", \
     for [i=1:words(meshes)] f(word(meshes, i), "local") using 1:2 \
	with linespoints lc rgb word(colors, i + 3) pt 6 dt 2 \
	title word(mesh_titles, i)." local"
unset multiplot

set terminal pngcairo size 900,560 font "sans,11" linewidth 1.5
set key outside right top box opaque font ",10"

# ---------------------------------------------------------------- time
set output out."/dqr-sim-time.png"
set title "DQR reroute compute time per fault (end-to-end, turns=each, shared machine)"
set ylabel "microseconds (log scale)"
set logscale y
set yrange [*:*]
set ytics auto
set format y "10^{%L}"
plot for [i=1:words(all)] f(word(all, i), "end-to-end") using 1:14 \
	with linespoints lc rgb word(colors, i) pt 7 dt 1 \
	title word(all_titles, i)." median", \
     for [i=1:words(all)] f(word(all, i), "end-to-end") using 1:15 \
	with linespoints lc rgb word(colors, i) pt 6 dt 3 \
	title word(all_titles, i)." worst"
unset logscale y
set format y "%g"

# ---------------------------------------------------------------- changed
set output out."/dqr-sim-changed.png"
set title "(switch, DLID) entries DQR rewrote per fault (end-to-end, turns=each)"
set ylabel "entries changed (% of switches x LIDs, log scale)"
set logscale y
set yrange [*:*]
plot for [i=1:words(all)] f(word(all, i), "end-to-end") \
	using 1:($8 * 100) with linespoints lc rgb word(colors, i) pt 7 \
	title word(all_titles, i)

set output
