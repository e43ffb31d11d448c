# what-if.gp - fault tolerance at a glance, from dqr-sim --what-if all.
#
#   dqr-sim --fabric kary:4,3 --what-if all --data what-if.dat
#   gnuplot -e "data='what-if.dat'; out='what-if.png'" \
#       scripts/plot/what-if.gp
#
# One bar per single fault (every switch-to-switch cable, then every
# switch), each from the same start: the (switch, DLID) entries the
# plugin's answer changes, colored by the verdict (green: survived,
# connected and deadlock free; orange: a pair that a cable path still
# joins is lost, the plugin's fallback= decides; red: loops or not
# deadlock free).  Points: the stages of its transition (right axis).
#
# Columns of the data file (dqr-sim(1)): 1 n, 2 name, 3 kind (link or
# switch), 4 entries changed, 5 stages, 6 stages that wait a drain,
# 7 pairs lost, 8 verdict (0 survived, 1 lost, 2 unsafe), 9 ms.

if (!exists("data")) data = "what-if.dat"
if (!exists("out")) out = "what-if.png"

color(v) = v == 0 ? 0x1b9e77 : v == 1 ? 0xd95f02 : 0xd7191c

set terminal pngcairo size 1200,520 font "sans,11"
set output out
set title "dqr-sim --what-if all: entries changed per single fault (".data.")"
set xlabel "fault (cables first, then switches; see the data file for names)"
set ylabel "entries changed"
set y2label "stages"
set ytics nomirror
set y2tics 1
set y2range [0:*]
set yrange [0:*]
set xrange [0.4:*]
set grid ytics
set style fill solid 0.9 noborder
set boxwidth 0.8
set key top left box opaque
plot data using 1:4:(color($8)) with boxes lc rgb variable notitle, \
     NaN with boxes lc rgb "#1b9e77" title "survived", \
     NaN with boxes lc rgb "#d95f02" title "connected pair lost", \
     NaN with boxes lc rgb "#d7191c" title "unsafe", \
     data using 1:5 axes x1y2 with points pt 7 ps 0.4 lc rgb "#444444" \
	title "stages"
set output
