#!/bin/sh
# grid_faults_torus2d_qos_moves.sh - grid_faults.sh on a 5x5 torus with
# the option it needs, "qos TRUE", beside the defaults: e-cube on 4
# virtual layers, and two cables whose second repair no path in the
# routes' own layers can make (lib/vlayers/vlayers_move.c; 16 such ordered
# pairs of its 50 cables).  The plugin moves those routes to another
# layer (layer_moves=on, the default): the SA answers their new SL, every
# state is judged per VL with the SLs the SA answers then, and both
# cables back give the start's tables and SLs.
GEN=torus:5x5
HOST=ca-0000
: "${SEED:=1}"
CABLE1='"sw-x0-y0"[3] "sw-x0-y1"[4]'
CABLE2='"sw-x4-y0"[4] "sw-x4-y4"[3]'
SHAPE="2D torus 5x5"
SHAPE_LINE="osmdqr: "
BASE=ecube
PLUGIN=1
QOS=TRUE
SLS=sa-each
MOVES=1
: "${SWITCH_REPAIRED:=1}"
. "$(dirname "$0")/grid_faults.sh"
