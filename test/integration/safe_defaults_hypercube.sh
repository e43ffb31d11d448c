#!/bin/sh
# safe_defaults_hypercube.sh - safe_defaults_mesh.sh on the 4-cube: base=auto
# recognises the hypercube from its cabling and routes it with lib's
# e-cube routing, deadlock free on one VL; a cable fails and returns.
NET="$(cd "$(dirname "$0")/../.." && pwd)/ibsim-topologies/hypercube-4.net"
HOST=ca-0000
FAULT='"sw-0001"[2]'
SHAPE="4-cube, 16 switches"
ROUTING='e-cube routing'
BASE=ecube
. "$(dirname "$0")/safe_defaults_mesh.sh"
