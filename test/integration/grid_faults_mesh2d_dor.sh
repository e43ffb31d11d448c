#!/bin/sh
# grid_faults_mesh2d_updn.sh - grid_faults_mesh2d.sh's 5x5 mesh and seed
# with "mesh_routing=updn": lib's up*/down* instead of dimension order,
# as short on a mesh, and the room DQR needs for the switch that seed
# loses inside the mesh, which dimension order's tables cannot give
# (grid_faults_mesh2d.sh: ERR DQ16, DQ29).  DQR must repair the two link
# faults and the lost switch itself, judged as there.
GEN=mesh:5x5
HOST=ca-0000
: "${SEED:=2}"
SHAPE="2D mesh 5x5, 25 switches"
PLUGIN=1
OPTIONS="mesh_routing=updn"
BASE=updn
SWITCH_REPAIRED=1
. "$(dirname "$0")/grid_faults.sh"
