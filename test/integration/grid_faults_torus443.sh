#!/bin/sh
# grid_faults_torus443.sh - a 4x4x3 torus in ibsim with the defaults (qos
# FALSE: one VL, DQR's repairs): two cables fail and come back, then a
# whole switch fails and, while it is down, two more cables, one after
# another; the switch and both cables come back together.  Every state
# is read back and judged, every transition replayed, and every return
# gives the start's tables.  Beside it, with the options of the IN
# paper's routes: grid_faults_torus443_qos_intermediates.sh.
GEN=torus:4x4x3
HOST=ca-0000
: "${SEED:=1}"
SHAPE="3D torus (4x4x3|4x3x4|3x4x4), 48 switches"
PLUGIN=1
: "${BASE:=updn}"
AFTER_SWITCH=1
: "${SWITCH_REPAIRED:=1}"
. "$(dirname "$0")/grid_faults.sh"
