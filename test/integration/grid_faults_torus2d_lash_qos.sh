#!/bin/sh
# grid_faults_torus2d_lash_qos.sh - grid_faults.sh on the 5x3 torus of
# grid_faults_torus2d.sh with options it needs, beside the defaults:
# "qos TRUE" and base=lash.  OpenSM's own lash routes the torus on its
# virtual layers; DQR keeps lash's SLs (read through lash's path_sl) and
# repairs in every layer with the mesh plug-in and the search past it.
# Every state is judged per VL with the SLs the SA answers and the SL2VL
# tables the switches and CAs hold.
GEN=torus:5x3
HOST=ca-0000
: "${SEED:=1}"
SHAPE="2D torus (5x3|3x5): lash's"
SHAPE_LINE="osmdqr: "
BASE_LINE="dqr: base lash"
PLUGIN=1
QOS=TRUE
OPTIONS=base=lash
SLS=sa
: "${SWITCH_REPAIRED:=1}"
. "$(dirname "$0")/grid_faults.sh"
