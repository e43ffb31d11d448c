#!/bin/sh
# grid_faults_torus443_lash_qos_intermediates.sh - the faults of
# grid_faults_torus443.sh (a switch, then two cables while it is down)
# with the options the IN paper's routes need on a 3D torus: qos TRUE,
# base=lash (OpenSM's lash lays the layers and leaves VLs spare) and
# intermediates=2; only those faults (not the two cables at first): its
# repairs move pairs to other SLs, so the SA is asked for every pair of
# switches in every state (about 50 s of CPU a state).  Every state is
# read back and judged per VL with those SLs, every transition replayed
# with the SLs its packets carry, the log must count DLIDs the IN routes
# laid, and the return gives the start's tables.  Not in test-all.sh
# (make check-slow, Makefile.am's INTEGRATION_SLOW says why).
GEN=torus:4x4x3
HOST=ca-0000
: "${SEED:=1}"
SHAPE="3D torus (4x4x3|4x3x4|3x4x4): lash's"
SHAPE_LINE="osmdqr: "
BASE_LINE="dqr: base lash"
PLUGIN=1
QOS=TRUE
OPTIONS="base=lash intermediates=2"
SLS=sa-each
TWO_CABLES=0
IMED=1
AFTER_SWITCH=1
: "${SWITCH_REPAIRED:=1}"
. "$(dirname "$0")/grid_faults.sh"
