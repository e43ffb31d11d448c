#!/bin/sh
# dqr_faults_648.sh - DQR on the 648-CA 2-tier fat tree: three successive
# link faults, then recovery (see faults.sh).
NET="$(cd "$(dirname "$0")/../.." && pwd)/ibsim-topologies/fattree2-36.net"
HOST=ca-0300
LINKS='"sw-L1-0000"[19] "sw-L2-0003"[10] "sw-L1-0020"[30]'
. "$(dirname "$0")/faults.sh"
