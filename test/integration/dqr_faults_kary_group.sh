#!/bin/sh
# dqr_faults_kary_group.sh - the FT paper's k-1 link faults in one switch
# group of the 4-ary 3-tree (k = 4): three of the sixteen cables between
# pod 1's leaves and its four middle switches fail in turn, then recover
# (see faults.sh).
NET="$(cd "$(dirname "$0")/../.." && pwd)/ibsim-topologies/kary-4-3.net"
HOST=ca-0040
LINKS='"sw-L1-0004"[5] "sw-L1-0005"[6] "sw-L1-0006"[7]'
. "$(dirname "$0")/faults.sh"
