#!/bin/sh
# grid_faults_torus2d.sh - grid_faults.sh on a generated 5x3 torus, routed
# as its mesh on one VL by up*/down* from a corner (the default): the
# wrap cables carry only repairs, and the search takes one only where the
# mesh's cables hold no legal route, so DQR must repair the lost switch
# too.  A fault on a wrap cable (no entry used it) changes nothing and
# needs no plug-in.
GEN=torus:5x3
HOST=ca-0000
: "${SEED:=1}"
: "${SHAPE:=2D torus (5x3|3x5), 15 switches}"
PLUGIN=1
: "${BASE:=updn}"
: "${SWITCH_REPAIRED:=1}"
. "$(dirname "$0")/grid_faults.sh"
