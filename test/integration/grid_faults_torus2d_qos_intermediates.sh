#!/bin/sh
# grid_faults_torus2d_qos_intermediates.sh - grid_faults.sh on a 5x5
# torus with the options it needs, "qos TRUE" and intermediates=2, beside
# the defaults (grid_faults_torus2d.sh) and qos TRUE alone
# (grid_faults_torus2d_qos_moves.sh): e-cube on 4 of the 8 VLs, each
# repair lays the IN paper's routes through at most two intermediate
# switches first (vlayers_imed.c), where the layers hold them, then the
# mesh plug-in and the search.  Every state is judged per VL with the SLs
# the SA answers then, and both cables back give the start's tables.
GEN=torus:5x5
HOST=ca-0000
: "${SEED:=1}"
SHAPE="2D torus 5x5"
SHAPE_LINE="osmdqr: "
BASE=ecube
PLUGIN=1
QOS=TRUE
OPTIONS=intermediates=2
SLS=sa-each
IMED=1
: "${SWITCH_REPAIRED:=1}"
. "$(dirname "$0")/grid_faults.sh"
