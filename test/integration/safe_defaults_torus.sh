#!/bin/sh
# safe_defaults_torus.sh - safe_defaults_mesh.sh on a 5x3 torus (rings of
# 5 and of 3).  With one VL no shortest routing of a ring is deadlock
# free, so the plugin routes the torus as its mesh (up*/down* from a
# corner without the wrap cables) and says so in a NOTICE; the mesh
# plug-in repairs it, the wrap cables as a last resort.
# Not ibsim-topologies/torus-4x4.net: rings of 4 make the 4x4 torus the
# 4-cube by its cabling (safe_defaults_hypercube.sh's shape).
GEN=torus:5x3
HOST=ca-0000
FAULT='"sw-x1-y1"[1]'
SHAPE="2D torus 5x3, 15 switches|2D torus 3x5, 15 switches"
ROUTING='up\*/down\* routing from a corner of the mesh inside the torus'
BASE=updn
. "$(dirname "$0")/safe_defaults_mesh.sh"
