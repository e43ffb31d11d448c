#!/bin/sh
# grid_faults_hypercube.sh - grid_faults.sh on the 4-cube of
# ibsim-topologies, routed by e-cube; the mesh plug-in serves meshes only:
# DQR's own search repairs the hypercube.
NET="$(cd "$(dirname "$0")/../.." && pwd)/ibsim-topologies/hypercube-4.net"
HOST=ca-0000
: "${SEED:=1}"
SHAPE="4-cube, 16 switches"
PLUGIN=0
. "$(dirname "$0")/grid_faults.sh"
