#!/bin/sh
# agree_torus2d_qos.sh - agree.sh on a generated 5x5 torus with the
# option it needs, "qos TRUE" in opensm.conf: base=auto routes it by
# e-cube on 4 virtual layers, repaired with the mesh plug-in in every
# layer; dqr-sim answers on the layers it builds from the tables read
# back (--torus-layers).  A cable of a ring, a wrap cable in each
# dimension, and two whole switches: the plug-in bypasses a switch's
# cables one after the other, and when it took them in the model's
# switch order, dqr-sim on the tables read back from ca-0006 planned
# the loss of sw-x2-y4 in 2 stages, the plugin in 1.
GEN=torus:5x5
HOST=ca-0006
BASE=ecube
QOS=TRUE
SIM=--torus-layers
SHAPE="2D torus 5x5, 25 switches"
[ -n "${FAULTS:-}" ] ||
	FAULTS='"sw-x1-y3"[1] "sw-x4-y2"[1] "sw-x2-y0"[4] "sw-x2-y4" "sw-x2-y2"'
. "$(dirname "$0")/agree.sh"
