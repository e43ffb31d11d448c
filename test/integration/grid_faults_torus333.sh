#!/bin/sh
# grid_faults_torus333.sh - the faults of
# grid_faults_torus333_lash_qos_intermediates.sh with the defaults (qos
# FALSE: the torus on one VL, DQR's repairs): on a 3x3x3 torus in ibsim
# two cables fail and come back, a switch fails and comes back, then
# five of one switch's six cables fail one after another and come back
# together; every state is read back and judged, every transition
# replayed, and every return gives the start's tables.
GEN=torus:3x3x3
HOST=ca-0000
: "${SEED:=1}"
SHAPE="3D torus 3x3x3, 27 switches"
PLUGIN=1
: "${BASE:=updn}"
SWITCH_CABLES=5
: "${SWITCH_REPAIRED:=1}"
. "$(dirname "$0")/grid_faults.sh"
