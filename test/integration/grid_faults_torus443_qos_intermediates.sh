#!/bin/sh
# grid_faults_torus443_qos_intermediates.sh - the faults of
# grid_faults_torus443.sh (a switch, then two cables while it is down)
# with qos TRUE and intermediates=2: e-cube on the 8 virtual layers a 3D
# torus needs, every state judged per VL.  Those layers leave no VL
# spare for later moves, so the IN paper's routes are not used (they
# would take the room later repairs need, doc/intermediate-switches.md):
# no repair may lay DLIDs by them, and a NOTICE must say why.  With
# base=lash they are: grid_faults_torus333_lash_qos_intermediates.sh.
GEN=torus:4x4x3
HOST=ca-0000
: "${SEED:=1}"
SHAPE="3D torus (4x4x3|4x3x4|3x4x4), 48 switches"
PLUGIN=1
QOS=TRUE
LAYERS=8
BASE=ecube
OPTIONS=intermediates=2
IMED=unused
AFTER_SWITCH=1
: "${SWITCH_REPAIRED:=1}"
. "$(dirname "$0")/grid_faults.sh"
