# scale.gp - doc/scale.svg, the scale curve of doc/scale.md, from scale.dat.
#
#   gnuplot scripts/plot/scale.gp                   (from the source tree)
#   gnuplot -e "data='DIR'; out='DIR'" scripts/plot/scale.gp
#
# scripts/experiments.sh runs it (experiments.sh plot scale).  data: the
# folder of scale.dat (default data/scale); out: where scale.svg goes
# (default doc).

if (!exists("data")) data = "data/scale"
if (!exists("out")) out = "doc"

set terminal svg size 720,440 dynamic font "sans,12"
set output out."/scale.svg"
set logscale xy
set xlabel "CAs (fat trees of 36-, 24-, 36-, 56-port switches)"
set ylabel "one link fault, microseconds"
set key top left
set grid
set xtics ("648" 648, "3,456" 3456, "11,664" 11664, "43,904" 43904)
plot data."/scale.dat" using 1:3 with linespoints title "whole reaction, median", \
     "" using 1:5 with linespoints title "whole reaction, worst", \
     "" using 1:6 with linespoints title "reroute, median", \
     "" using 1:7 with linespoints title "plan, median", \
     "" using 1:8 with linespoints title "verify change, median"
