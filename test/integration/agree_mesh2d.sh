#!/bin/sh
# agree_mesh2d.sh - agree.sh on a generated 5x5 mesh, default options
# (up*/down* from the corner, repaired with the mesh plug-in and DQR's
# search): a cable next to the corner, one in the middle, and a whole
# switch inside.  Read back from ca-0001, ibnetdiscover lists the
# switches from sw-x4-y4 on, the plugin's model from sw-x0-y0: when
# DQR's search broke its ties by the model's switch index, the loss of
# sw-x1-y2 changed 100 entries in the plugin and 96 in dqr-sim.
GEN=mesh:5x5
HOST=ca-0001
BASE=updn
SHAPE="2D mesh 5x5, 25 switches"
[ -n "${FAULTS:-}" ] ||
	FAULTS='"sw-x1-y0"[3] "sw-x2-y2"[1] "sw-x1-y2"'
. "$(dirname "$0")/agree.sh"
