#!/bin/sh
# grid_faults_mesh2d.sh - grid_faults.sh on a generated 5x5 mesh, routed
# by lib's up*/down* from its corner (the default, mesh_routing=updn).
# Seed 2 loses switch sw-x3-y2, inside the mesh, which dimension order's
# tables cannot keep (grid_faults_mesh2d_dor.sh): up*/down* leaves DQR
# the room, so DQR must repair the two link faults and the lost switch
# itself (no ERR DQ16), judged as every state is.
GEN=mesh:5x5
HOST=ca-0000
: "${SEED:=2}"
SHAPE="2D mesh 5x5, 25 switches"
PLUGIN=1
BASE=updn
SWITCH_REPAIRED=1
. "$(dirname "$0")/grid_faults.sh"
