# hypercubes.gp - doc/hypercubes-faults.png: the 10-cube through random
# cable faults, e-cube with DQR against two-phase routing on the same
# faults, from ROUTING.dat of scripts/experiments.sh hypercubes
# (columns: fault k, P(hold), switches of whole groups %, active %, the
# busiest channel of bit-reversal averaged over the states that held).
#
#   gnuplot scripts/plot/hypercubes.gp           (from the source tree)
#   gnuplot -e "data='DIR'; out='DIR'" scripts/plot/hypercubes.gp
#
# data: the folder of the .dat files (default data/hypercubes); out:
# where the PNG goes (default doc).

if (!exists("data")) data = "data/hypercubes"
if (!exists("out")) out = "doc"
f(name) = sprintf("%s/%s.dat", data, name)

set terminal pngcairo size 900,760 font "sans,11" linewidth 1.5
set output out."/hypercubes-faults.png"
set multiplot layout 2,1
set grid
set xlabel "random cable faults, one after another"
set ylabel "runs whose every pair of whole groups is routed"
set yrange [0:1.05]
set key bottom left
plot f("twophase") using 1:2 with lines lc rgb "#1b9e77" \
	title "two-phase routing (base=twophase)", \
     f("ecube") using 1:2 with lines lc rgb "#d95f02" \
	title "e-cube with DQR (base=auto)", \
     f("ecube") using 1:($3 / 100) with lines dashtype 2 \
	lc rgb "#666666" title "switches of whole groups (fraction)"
set ylabel "routes on the busiest channel, bit-reversal"
set yrange [0:*]
set key top left
plot f("twophase") using 1:5 with lines lc rgb "#1b9e77" \
	title "two-phase routing", \
     f("ecube") using 1:5 with lines lc rgb "#d95f02" \
	title "e-cube with DQR"
unset multiplot
