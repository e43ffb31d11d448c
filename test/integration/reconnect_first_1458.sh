#!/bin/sh
# reconnect_first_1458.sh - the largest fat tree here, for make
# bench-live: the 3-tier fat tree of 18-port switches (1,458 CAs, 405
# switches; ibsim needs its limits raised, which dqr-genfabric says).
# A leaf uplink and a whole middle switch, each answered in full by the
# first SUBNET UP (see reconnect_first.sh), stock OpenSM and the plugin
# on the same fault.  Too long for make check.
GEN=fattree3:18
HOST=ca-0700
FAULTS='first "sw-L1-0000"[10]
first "sw-L2-0005"'
. "$(dirname "$0")/reconnect_first.sh"
