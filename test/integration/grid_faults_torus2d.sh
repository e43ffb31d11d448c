#!/bin/sh
# grid_faults_torus2d.sh - grid_faults.sh on a generated 5x3 torus, routed
# as a mesh on one VL: the wrap cables carry only repairs, and a fault on
# one (no entry used it) changes nothing and needs no plug-in.
GEN=torus:5x3
HOST=ca-0000
: "${SEED:=1}"
SHAPE="2D torus (5x3|3x5), 15 switches"
PLUGIN=1
. "$(dirname "$0")/grid_faults.sh"
