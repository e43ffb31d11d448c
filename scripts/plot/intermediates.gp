# intermediates.gp - doc/intermediates-load.png, the busiest channel of
# the 8x8x8 torus after each fault, from NAME.dat of
# scripts/experiments.sh intermediates (columns: fault k, busiest channel
# averaged over the runs, mean routes per channel, the worst run's
# busiest).
#
#   gnuplot scripts/plot/intermediates.gp           (from the source tree)
#   gnuplot -e "data='DIR'; out='DIR'" scripts/plot/intermediates.gp
#
# data: the folder of the .dat files (default data/intermediates); out:
# where the PNG goes (default doc).

if (!exists("data")) data = "data/intermediates"
if (!exists("out")) out = "doc"
f(name) = sprintf("%s/%s.dat", data, name)

set terminal pngcairo size 900,560 font "sans,11" linewidth 1.5
set output out."/intermediates-load.png"
set grid
set xrange [-0.3:14.3]
set xtics 1
set yrange [0:3000]
set xlabel "random cable faults, one after another (8x8x8 torus, all-to-all)"
set ylabel "routes on the busiest channel"
set key at graph 0.98, graph 0.78 right
# the fault-free e-cube's busiest channel, and the issue's bound
set arrow from -0.3,640 to 14.3,640 nohead dashtype 3 lc rgb "#666666"
set arrow from -0.3,960 to 14.3,960 nohead dashtype 2 lc rgb "#666666"
set label "e-cube, no fault: 640" at 1.2,590 tc rgb "#666666"
set label "1.5 x e-cube: 960" at 1.2,1010 tc rgb "#666666"
plot f("defaults") using 1:2 with linespoints lc rgb "#7570b3" \
	title "defaults (up*/down*, one VL)", \
     f("ecube-moves") using 1:2 with linespoints lc rgb "#d95f02" \
	title "qos TRUE: e-cube's layers, DQR, moves", \
     f("lash-moves") using 1:2 with linespoints lc rgb "#e7298a" \
	title "LASH's layers, DQR, moves", \
     f("lash-moves-imed") using 1:2 with linespoints lc rgb "#1b9e77" \
	title "LASH's layers, intermediates=2", \
     f("lash-moves-imed") using 1:4 with points pt 6 lc rgb "#1b9e77" \
	title "  its worst run", \
     f("model") using 1:2 with linespoints dashtype 4 lc rgb "#66a61e" \
	title "the IN model's own tables, afresh per state"
