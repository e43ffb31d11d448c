# doc/scale.gp - the scale curve of doc/scale.md: cd doc && gnuplot scale.gp
set terminal svg size 720,440 dynamic font "sans,12"
set output "scale.svg"
set logscale xy
set xlabel "CAs (fat trees of 36-, 24-, 36-, 56-port switches)"
set ylabel "one link fault, microseconds"
set key top left
set grid
set xtics ("648" 648, "3,456" 3456, "11,664" 11664, "43,904" 43904)
plot "scale.dat" using 1:3 with linespoints title "whole reaction, median", \
     "" using 1:5 with linespoints title "whole reaction, worst", \
     "" using 1:6 with linespoints title "reroute, median", \
     "" using 1:7 with linespoints title "plan, median", \
     "" using 1:8 with linespoints title "verify change, median"
