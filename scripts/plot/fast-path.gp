# fast-path.gp - doc/fast-path.svg: trap -> every CA pair reachable
# against the fabric size (doc/fast-path.md).
#
#   gnuplot scripts/plot/fast-path.gp               (from the source tree)
#   gnuplot -e "out='DIR'" scripts/plot/fast-path.gp
#
# The figures are the medians of `make bench-live` that doc/fast-path.md
# tables (ibsim and opensm run live: no script of data/ makes them);
# out: where fast-path.svg goes (default doc).

if (!exists("out")) out = "doc"

# CAs, stock trap -> SUBNET UP, osm-dqr trap -> every CA pair
# reachable, every PortInfo answered, the repair ready (ms)
$leaf << EOD
64 116 17.8 13.2 14.2
648 444 28.9 16.3 17.9
1458 1649 96.4 10.7 32.4
EOD
$switch << EOD
64 117 46.3
648 983 307
1458 1495 154
EOD

set terminal svg size 720,440 dynamic font "sans,12"
set output out."/fast-path.svg"
set logscale xy
set xlabel "CAs (4-ary 3-tree; fat trees of 36- and 18-port switches)"
set ylabel "ms from the trap, medians"
set key top left
set grid
set xtics ("64" 64, "648" 648, "1,458" 1458)
set xrange [50:2000]
plot $leaf using 1:2 with linespoints lt 1 pt 7 \
	title "stock OpenSM, trap -> SUBNET UP: a leaf uplink", \
     $switch using 1:2 with linespoints lt 1 pt 5 dt 2 \
	title "... a whole middle switch or spine", \
     $leaf using 1:3 with linespoints lt 2 pt 7 \
	title "osm-dqr, trap -> every CA pair reachable: a leaf uplink", \
     $switch using 1:3 with linespoints lt 2 pt 5 dt 2 \
	title "... a whole middle switch or spine", \
     $leaf using 1:4 with points lt 3 pt 6 \
	title "osm-dqr, leaf uplink: every PortInfo answered", \
     $leaf using 1:5 with points lt 4 pt 4 \
	title "osm-dqr, leaf uplink: the repair ready"
