#!/bin/sh
# fast_path_no_sweep_648.sh - the fast path on its own (sweep_on_trap
# FALSE, sweep_interval 0) on the 648-CA 2-tier fat tree: a leaf uplink
# and a whole spine, each answered in full by the plugin's own thread
# while OpenSM neither routes nor sweeps (see fast_path_no_sweep.sh).
NET="$(cd "$(dirname "$0")/../.." && pwd)/ibsim-topologies/fattree2-36.net"
HOST=ca-0300
FAULTS='first "sw-L1-0000"[19]
first "sw-L2-0007"'
. "$(dirname "$0")/fast_path_no_sweep.sh"
