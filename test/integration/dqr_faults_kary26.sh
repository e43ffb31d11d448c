#!/bin/sh
# dqr_faults_kary26.sh - the 2-ary 6-tree (k = 2: the FT paper guarantees one
# link fault): a fault in the middle of the tree, then one in another
# group, then recovery (see faults.sh).
NET="$(cd "$(dirname "$0")/../.." && pwd)/ibsim-topologies/kary-2-6.net"
HOST=ca-0030
LINKS='"sw-L3-0010"[3] "sw-L5-0020"[1]'
. "$(dirname "$0")/faults.sh"
