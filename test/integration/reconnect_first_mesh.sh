#!/bin/sh
# reconnect_first_mesh.sh - reconnection on the 4x4 mesh with the default
# options (up*/down* from a corner, one VL; see reconnect_first.sh): a
# cable at the corner, answered by the first SUBNET UP; and two inside,
# whose plans wait one drain, the second folded from two (its later
# entries withdrawn before the drain).  Their CA pairs may wait for the
# drain (the shortfall doc/transitions.md measures).
NET="$(cd "$(dirname "$0")/../.." && pwd)/ibsim-topologies/mesh-4x4.net"
HOST=ca-0000
FAULTS='first "sw-x0-y0"[1]
wait "sw-x1-y1"[1]
wait "sw-x2-y1"[1]'
. "$(dirname "$0")/reconnect_first.sh"
