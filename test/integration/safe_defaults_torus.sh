#!/bin/sh
# safe_defaults_torus.sh - safe_defaults_mesh.sh on the 4x4 torus: with
# one VL no shortest routing of a ring is deadlock free, so the plugin
# routes up*/down* (ERR DQ29) and keeps every state safe.
NET="$(cd "$(dirname "$0")/../.." && pwd)/ibsim-topologies/torus-4x4.net"
HOST=ca-0000
FAULT='"sw-x1-y1"[1]'
. "$(dirname "$0")/safe_defaults_mesh.sh"
