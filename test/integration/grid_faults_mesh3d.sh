#!/bin/sh
# grid_faults_mesh3d.sh - grid_faults.sh on a generated 3x3x3 mesh, routed
# by lib's up*/down* from its corner (the default); DQR must repair the
# lost switch itself too.
GEN=mesh:3x3x3
HOST=ca-0000
: "${SEED:=1}"
SHAPE="3D mesh 3x3x3, 27 switches"
PLUGIN=1
BASE=updn
SWITCH_REPAIRED=1
. "$(dirname "$0")/grid_faults.sh"
