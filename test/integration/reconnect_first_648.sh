#!/bin/sh
# reconnect_first_648.sh - reconnection in the first upload on the 648-CA
# 2-tier fat tree: a leaf uplink and a spine, answered in full by the
# first SUBNET UP (see reconnect_first.sh).
NET="$(cd "$(dirname "$0")/../.." && pwd)/ibsim-topologies/fattree2-36.net"
HOST=ca-0300
FAULTS='first "sw-L1-0000"[19]
first "sw-L2-0007"'
. "$(dirname "$0")/reconnect_first.sh"
