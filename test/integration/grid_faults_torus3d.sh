#!/bin/sh
# grid_faults_torus3d.sh - grid_faults.sh on a generated 4x3x3 torus,
# routed as its mesh on one VL by up*/down* from a corner (the default),
# the lost switch repaired by DQR too.  A ring of 4 is cabled as 2x2, so
# the recogniser first finds 2x2x3x3 and folds the pair back into the
# ring: a 3D torus with a ring of 4 is recognised with the defaults too.
GEN=torus:4x3x3
HOST=ca-0000
: "${SEED:=1}"
SHAPE="3D torus (4x3x3|3x4x3|3x3x4), 36 switches"
PLUGIN=1
BASE=updn
SWITCH_REPAIRED=1
. "$(dirname "$0")/grid_faults.sh"
