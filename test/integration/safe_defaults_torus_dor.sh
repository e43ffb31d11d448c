#!/bin/sh
# safe_defaults_torus_dor.sh - safe_defaults_torus.sh with
# "mesh_routing=dor": the torus routed as its mesh by dimension order, as
# the NOTICE says, repaired by the mesh plug-in.
GEN=torus:5x3
HOST=ca-0000
FAULT='"sw-x1-y1"[1]'
SHAPE="2D torus 5x3, 15 switches|2D torus 3x5, 15 switches"
OPTIONS="mesh_routing=dor"
ROUTING='dimension-order routing'
BASE=dor
. "$(dirname "$0")/safe_defaults_mesh.sh"
