#!/bin/sh
# dqr_faults_kary.sh - DQR on the 4-ary 3-tree: four successive link
# faults at every level, then recovery (see faults.sh).
NET="$(cd "$(dirname "$0")/../.." && pwd)/ibsim-topologies/kary-4-3.net"
HOST=ca-0009
LINKS='"sw-L1-0000"[5] "sw-L2-0004"[7] "sw-L3-0009"[2] "sw-L1-0007"[8]'
. "$(dirname "$0")/faults.sh"
