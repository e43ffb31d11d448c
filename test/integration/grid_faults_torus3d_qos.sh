#!/bin/sh
# grid_faults_torus3d_qos.sh - grid_faults.sh on a generated 4x3x3 torus
# with "qos TRUE": e-cube on 8 virtual layers (SL = VL = the rings a route
# wraps), the mesh plug-in in every layer and the topology-agnostic
# search past it (DQR must repair the lost switch too), every state
# judged per VL.
# A ring of 4: the recogniser finds 2x2x3x3 and folds the pair back into
# the ring, and dqr-check, reading the switches back in another order,
# must find the same layers.  Not 3x3x3: on rings of 3 every segment is
# one hop and e-cube has no cycle even on one VL, so the layers would
# test nothing; a ring of 4 closes one (checked by ibdmchk on one VL).
GEN=torus:4x3x3
HOST=ca-0000
: "${SEED:=1}"
SHAPE="3D torus (4x3x3|3x4x3|3x3x4), 36 switches"
PLUGIN=1
QOS=TRUE
LAYERS=8
SWITCH_REPAIRED=1
. "$(dirname "$0")/grid_faults.sh"
