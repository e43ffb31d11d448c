#!/bin/sh
# hypercube6_twophase_lmc2.sh - grid_faults.sh on the generated 6-cube
# with base=twophase (two-phase routing, doc/hypercubes.md) and lmc 2
# in opensm.conf (2^2 LIDs per CA port, each a destination tree through
# its own intermediate), every other option the default.
# Two cables fail and come back, then a switch, and two more cables
# while it is down.  After each: every pair routed (these seeds lose
# none, not even pairs of the groups two-phase routing leaves out), no
# loop, no dependency cycle on one VL (dqr-check and ibdmchk), every
# transition replays; the start's tables come back.
GEN=hypercube:6
HOST=ca-0000
: "${SEED:=1}"
SHAPE="6-cube, 64 switches"
PLUGIN=0
OPTIONS=base=twophase
BASE_LINE="dqr: base twophase:"
AFTER_SWITCH=1
LMC=2
. "$(dirname "$0")/grid_faults.sh"
