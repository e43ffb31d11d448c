#!/bin/sh
# grid_faults_torus333_lash_qos_intermediates.sh - the IN paper's
# scenario on a 3x3x3 torus in ibsim with the options it needs: qos TRUE
# and base=lash (OpenSM's lash lays the layers, one on this torus,
# leaving VLs spare: on e-cube's 8 layers of a 3D torus intermediates=N
# is not used) and intermediates=2.  Five of one switch's six cables
# fail one after another and come back together.  Every state is read
# back and judged per VL with the SLs the SA answered at the start
# (dqr-check and ibdmchk; no repair may move a pair to another SL, the
# test checks the log: the SA's answers for every pair of switches cost
# about 17 s of CPU a state), every transition replayed, the log must
# count DLIDs the IN routes laid, and the return gives the start's
# tables.  Beside it, grid_faults_torus333.sh: the same faults and more
# with the defaults.
GEN=torus:3x3x3
HOST=ca-0000
: "${SEED:=1}"
SHAPE="3D torus 3x3x3: lash's"
SHAPE_LINE="osmdqr: "
BASE_LINE="dqr: base lash"
PLUGIN=1
QOS=TRUE
OPTIONS="base=lash intermediates=2"
SLS=sa
LAYERS_NEEDED=1
IMED=1
SWITCH_CABLES=5
TWO_CABLES=0
SWITCH_FAULT=0
: "${SWITCH_REPAIRED:=1}"
. "$(dirname "$0")/grid_faults.sh"
