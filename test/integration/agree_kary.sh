#!/bin/sh
# agree_kary.sh - agree.sh on the 4-ary 3-tree, default options (base=auto
# routes it with the plugin's uturn, and DQR prefers the FT paper's
# reroutes): a leaf's uplink, a middle-to-core cable in another pod, and
# a whole middle switch.
NET="$(cd "$(dirname "$0")/../.." && pwd)/ibsim-topologies/kary-4-3.net"
HOST=ca-0050
BASE=uturn
SHAPE_LINE="dqr: uturn: "
SHAPE="fat tree of 3 levels, 8 switch groups, 64 end ports"
[ -n "${FAULTS:-}" ] ||
	FAULTS='"sw-L1-0002"[6] "sw-L2-0009"[7] "sw-L2-0005"'
. "$(dirname "$0")/agree.sh"
