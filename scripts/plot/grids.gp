# grids.gp - the figures of doc/grids.md from dqr-sim --data files.
#
#   gnuplot scripts/plot/grids.gp                   (from the source tree)
#   gnuplot -e "data='DIR'; out='DIR'" scripts/plot/grids.gp
#
# scripts/experiments.sh runs it (experiments.sh plot grids).  data:
# where the experiment wrote NAME.dat (default data/grids); out: where
# the PNGs go (default doc).  Column 1 is the fault k (0: the start
# tables), column 2 P(ok) (all columns: scripts/plot/dqr-sim.gp,
# dqr-sim(1)).  A missing file
# is skipped with a warning.
#
# grids-fig3.png: the DQR paper's Fig. 3 (10x10 mesh, every variant);
# grids-fig4.png: its Fig. 4 (meshes 5x5 to 20x20, mesh plug-in);
# grids-tori.png: tori routed as meshes and by up*/down*, 3D grids and
# hypercubes; grids-ecube.png: tori under e-cube on virtual layers
# (dqr-sim --torus-layers) beside the meshes and the tori routed as meshes;
# grids-moves.png: e-cube's and LASH's layers with and without moves
# between layers (--layer-moves).

if (!exists("data")) data = "data/grids"
if (!exists("out")) out = "doc"

colors = "#1b9e77 #d95f02 #7570b3 #e7298a #66a61e #e6ab02 #a6761d"
f(name) = sprintf("%s/%s.dat", data, name)

set terminal pngcairo size 900,560 font "sans,11" linewidth 1.5
set grid
set xrange [-0.2:10.2]
set xtics 1
set xlabel "link faults k"
set ylabel "P(connected and deadlock free)"
set yrange [0:1.02]
set ytics 0.1

# ---------------------------------------------------------------- Fig. 3
set output out."/grids-fig3.png"
set title "10x10 mesh, dimension order: DQR variants (500 runs each)"
set key right top box opaque font ",10"
modes = "end-to-end local"
plot for [i=1:2] f("mesh-10x10-plugin-".word(modes, i)."-each") \
	using 1:2 with linespoints lc rgb word(colors, i) pt 7 dt 1 \
	title "mesh plug-in, ".word(modes, i).", turns each", \
     for [i=1:2] f("mesh-10x10-plugin-".word(modes, i)."-path") \
	using 1:2 with points lc rgb word(colors, i) pt 6 ps 1.8 \
	title "mesh plug-in, ".word(modes, i).", turns path", \
     for [i=1:2] f("mesh-10x10-noplug-".word(modes, i)."-each") \
	using 1:2 with linespoints lc rgb word(colors, i + 2) pt 5 dt 2 \
	title "no plug-in, ".word(modes, i).", turns each", \
     for [i=1:2] f("mesh-10x10-noplug-".word(modes, i)."-path") \
	using 1:2 with points lc rgb word(colors, i + 2) pt 4 ps 1.8 \
	title "no plug-in, ".word(modes, i).", turns path"

# ---------------------------------------------------------------- Fig. 4
set output out."/grids-fig4.png"
set title "meshes with the mesh plug-in (dimension order, 500 runs each)"
set key right top box opaque font ",10"
sizes = "5x5 10x10 15x15 20x20"
plot for [i=1:4] f("mesh-".word(sizes, i)."-plugin-end-to-end-each") \
	using 1:2 with linespoints lc rgb word(colors, i) pt 7 dt 1 \
	title word(sizes, i)." end-to-end", \
     for [i=1:4] f("mesh-".word(sizes, i)."-plugin-local-each") \
	using 1:2 with linespoints lc rgb word(colors, i) pt 6 dt 2 \
	title word(sizes, i)." local"

# ---------------------------------------------------------------- tori
set terminal pngcairo size 1300,560 font "sans,11" linewidth 1.5
set output out."/grids-tori.png"
set multiplot layout 1,2 title \
	"DQR after k successive random link faults, end-to-end, turns each"
set title "2D tori: routed as meshes + plug-in (solid), up*/down* (dashed)"
set key left bottom box opaque font ",9"
plot for [i=1:4] f("torus-".word(sizes, i)."-plugin-end-to-end-each") \
	using 1:2 with linespoints lc rgb word(colors, i) pt 7 dt 1 \
	title word(sizes, i)." dor + plug-in", \
     for [i=1:4] f("torus-".word(sizes, i)."-updn-plugin-end-to-end-each") \
	using 1:2 with linespoints lc rgb word(colors, i) pt 6 dt 2 \
	title word(sizes, i)." updn + plug-in"

set title "3D grids (dor) and hypercubes (e-cube)"
grids = "mesh-4x4x4-plugin torus-4x4x4-plugin torus-5x5x5-plugin"
grid_titles = "mesh:4x4x4 torus:4x4x4(6-cube,no-plug-in) torus:5x5x5"
plot for [i=1:3] f(word(grids, i)."-end-to-end-each") using 1:2 \
	with linespoints lc rgb word(colors, i) pt 7 dt 1 \
	title word(grid_titles, i), \
     for [d=4:8] f(sprintf("hypercube-%d-ecube-end-to-end-each", d)) \
	using 1:2 with linespoints lc rgb word(colors, d - 1) pt 6 dt 2 \
	title sprintf("%d-cube", d)
unset multiplot

# ---------------------------------------------------------------- e-cube
set terminal pngcairo size 1100,460 font "sans,10" linewidth 1.5
set output out."/grids-ecube.png"
set multiplot layout 1,2 title "tori under e-cube on virtual layers, " . \
	"the mesh plug-in in every layer and the search past it (500 runs each)"
set title "2D (4 layers) solid; the mesh of the same size dashed"
set key right top box opaque font ",9"
plot for [i=1:4] f("torus-".word(sizes, i)."-ecube-layers") \
	using 1:2 with linespoints lc rgb word(colors, i) pt 7 dt 1 \
	title "torus ".word(sizes, i), \
     for [i=1:4] f("mesh-".word(sizes, i)."-plugin-end-to-end-each") \
	using 1:2 with linespoints lc rgb word(colors, i) pt 6 dt 2 \
	title "mesh ".word(sizes, i)

set title "3D (8 layers) solid; 5x5x5 routed as a mesh dashed"
set key left bottom
cubes3 = "5x5x3 5x5x5 6x6x6"
plot for [i=1:3] f("torus-".word(cubes3, i)."-ecube-layers") \
	using 1:2 with linespoints lc rgb word(colors, i) pt 7 dt 1 \
	title "torus ".word(cubes3, i), \
     f("torus-5x5x5-plugin-end-to-end-each") using 1:2 \
	with linespoints lc rgb word(colors, 2) pt 6 dt 2 \
	title "torus 5x5x5 as a mesh"
unset multiplot

# ----------------------------------------------------------------- moves
set output out."/grids-moves.png"
set multiplot layout 1,2 title "2D tori on virtual layers: routes moved " . \
	"to another layer where their own has no room (solid) or never " . \
	"(dashed), 500 runs each"
set title "e-cube's layers"
set key left bottom box opaque font ",9"
plot for [i=1:4] f("torus-".word(sizes, i)."-ecube-layers-moves") \
	using 1:2 with linespoints lc rgb word(colors, i) pt 7 dt 1 \
	title "torus ".word(sizes, i)." moves", \
     for [i=1:4] f("torus-".word(sizes, i)."-ecube-layers") \
	using 1:2 with linespoints lc rgb word(colors, i) pt 6 dt 2 \
	title "torus ".word(sizes, i)
set title "LASH's layers (the DQR paper's Fig. 5)"
plot for [i=1:4] f("torus-".word(sizes, i)."-lash-layers-moves") \
	using 1:2 with linespoints lc rgb word(colors, i) pt 7 dt 1 \
	title "torus ".word(sizes, i)." moves", \
     for [i=1:4] f("torus-".word(sizes, i)."-lash-layers") \
	using 1:2 with linespoints lc rgb word(colors, i) pt 6 dt 2 \
	title "torus ".word(sizes, i)
unset multiplot

set output
