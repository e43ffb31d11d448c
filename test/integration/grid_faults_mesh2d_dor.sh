#!/bin/sh
# grid_faults_mesh2d_dor.sh - grid_faults_mesh2d.sh's 5x5 mesh and seed
# with "mesh_routing=dor": dimension order, whose links are balanced.
# Seed 2 loses switch sw-x3-y2, inside the mesh: no one-VL repair keeps
# dimension order's other routes there (doc/grids.md, "A lost switch
# inside a mesh"), so DQR says so (ERR DQ33, DQ16), the base's dimension
# order on the mesh without it leaves connected pairs unrouted, and the
# plugin routes up*/down* instead (ERR DQ29): every pair routed, no
# cycle.  The two link faults before it DQR repairs itself.
GEN=mesh:5x5
HOST=ca-0000
: "${SEED:=2}"
SHAPE="2D mesh 5x5, 25 switches"
PLUGIN=1
OPTIONS="mesh_routing=dor"
BASE=dor
. "$(dirname "$0")/grid_faults.sh"
