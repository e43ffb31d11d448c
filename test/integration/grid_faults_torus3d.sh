#!/bin/sh
# grid_faults_torus3d.sh - grid_faults.sh on a generated 3x3x3 torus,
# routed as a mesh on one VL.  Not rings of 4: a ring of 4 counts as 2x2,
# so 3x3x4 is a grid of 4 dimensions, which the plugin does not route.
GEN=torus:3x3x3
HOST=ca-0000
: "${SEED:=1}"
SHAPE="3D torus 3x3x3, 27 switches"
PLUGIN=1
. "$(dirname "$0")/grid_faults.sh"
