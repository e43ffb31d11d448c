#!/bin/sh
# dqr_faults_kary_switch.sh - a switch fault (the FT paper, section VI.B) on
# the 4-ary 3-tree: every cable of middle switch sw-L2-0005 fails at once,
# then a link in another pod; then both recover (see faults.sh).
NET="$(cd "$(dirname "$0")/../.." && pwd)/ibsim-topologies/kary-4-3.net"
HOST=ca-0050
LINKS='"sw-L2-0005" "sw-L1-0009"[6]'
. "$(dirname "$0")/faults.sh"
