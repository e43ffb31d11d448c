# uturn-fig11.gp - doc/uturn-fig11.png from the dqr-sim --data files of
# the uturn-fig11 experiment.
#
#   gnuplot scripts/plot/uturn-fig11.gp             (from the source tree)
#   gnuplot -e "data='DIR'; out='DIR'" scripts/plot/uturn-fig11.gp
#
# scripts/experiments.sh runs it (experiments.sh plot uturn-fig11).
# data: where the experiment wrote NAME-MODE.dat (default
# data/uturn-fig11); out: where uturn-fig11.png goes (default doc).
#
# Column 1 is the number of faults k (row 0: the start tables), column
# 18 p_connected, column 24 p_ends (see dqr-sim(1)).  The top row shows
# the whole range, the bottom row the top of it.  The paper's figure 11
# is given only as far as its text states numbers: on the 4-ary 3-tree
# all 500 samples connected up to 4 faults, about 97 % at 10.  The thick
# lines are the uturn runs with the re-routing layer on a second VL
# (--vl-layers, files NAME-vl), end-to-end as the plugin runs.

if (!exists("data")) data = "data/uturn-fig11"
if (!exists("out")) out = "doc"

confs = "uturn uturn-nobias ftree-mod ftree-mod-dsl"
titles = "uturn|uturn --no-uturn-bias|ftree-mod|ftree-mod --dqr-switch-lids"
colors = "#d95f02 #7570b3 #1b9e77 #444444"
f(fab, conf, mode) = sprintf("%s/%s-%s-%s.dat", data, fab, conf, mode)
t(i) = system(sprintf("echo '%s' | cut -d'|' -f%d", titles, i))
# the two-layer runs: the first two configurations with -vl
vlconfs = "uturn-vl uturn-nobias-vl"

$paper43 << EOD
0 1
1 1
2 1
3 1
4 1
10 0.97
EOD

set terminal pngcairo size 1300,1000 font "sans,11" linewidth 1.5
set output out."/uturn-fig11.png"
set multiplot layout 2,2 title \
	"P(connected) after k successive random switch-link faults: " . \
	"dqr-sim, 500 runs each, seed 1, every state verified\n" . \
	"(solid: end-to-end, dashed: local, thick: uturn with the " . \
	"re-routing layer on a second VL; connected = every pair a " . \
	"cable joins is routed, CA and switch sources and destinations)"
set grid
set xrange [-0.2:10.2]
set xtics 1
set xlabel "link faults k"
set ylabel "P(connected)"

do for [row=1:2] {
	if (row == 1) {
		set yrange [0:1.02]
		set ytics 0.1
	} else {
		set yrange [0.84:1.004]
		set ytics 0.02
	}
	do for [col=1:2] {
		fab = col == 1 ? "kary-4-3" : "kary-2-6"
		if (col == 1) {
			set title (row == 1 ? "4-ary 3-tree (kary:4,3)" : \
				   "4-ary 3-tree, top of the range")
		} else {
			set title (row == 1 ? \
				   "2-ary 6-tree (kary:2,6); paper: below 1 from k = 2, DDRC lowest" : \
				   "2-ary 6-tree, top of the range")
		}
		if (row == 1 && col == 1) {
			set key left bottom box opaque font ",9"
		} else {
			unset key
		}
		if (col == 1) {
			plot for [i=1:words(confs)] \
				f(fab, word(confs, i), "end-to-end") using 1:18 \
				with linespoints lc rgb word(colors, i) pt 7 \
				dt 1 title t(i)." (end-to-end)", \
			     for [i=1:words(confs)] \
				f(fab, word(confs, i), "local") using 1:18 \
				with linespoints lc rgb word(colors, i) pt 6 \
				dt 2 title t(i)." (local)", \
			     for [i=1:words(vlconfs)] \
				f(fab, word(vlconfs, i), "end-to-end") \
				using 1:18 with linespoints \
				lc rgb word(colors, i) pt 5 ps 1.2 lw 3 dt 1 \
				title t(i)." --vl-layers (end-to-end)", \
			     f(fab, "uturn", "end-to-end") using 1:24 \
				with lines lc rgb "black" dt 3 \
				title "uturn (end-to-end): P(ends), no CA cut off", \
			     $paper43 using 1:2 with points lc rgb "red" \
				pt 9 ps 2.2 title "paper, as its text states"
		} else {
			plot for [i=1:words(confs)] \
				f(fab, word(confs, i), "end-to-end") using 1:18 \
				with linespoints lc rgb word(colors, i) pt 7 \
				dt 1 notitle, \
			     for [i=1:words(confs)] \
				f(fab, word(confs, i), "local") using 1:18 \
				with linespoints lc rgb word(colors, i) pt 6 \
				dt 2 notitle, \
			     for [i=1:words(vlconfs)] \
				f(fab, word(vlconfs, i), "end-to-end") \
				using 1:18 with linespoints \
				lc rgb word(colors, i) pt 5 ps 1.2 lw 3 dt 1 \
				notitle, \
			     f(fab, "uturn", "end-to-end") using 1:24 \
				with lines lc rgb "black" dt 3 notitle
		}
	}
}
unset multiplot
set output
