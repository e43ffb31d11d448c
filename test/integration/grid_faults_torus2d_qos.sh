#!/bin/sh
# grid_faults_torus2d_qos.sh - grid_faults_torus2d.sh with "qos TRUE" in
# opensm.conf, beside the defaults: base=auto routes the torus by e-cube
# on 4 virtual layers (SL = VL = the rings a route wraps), repairs in
# every layer with the mesh plug-in, past it (the lost switch) with the
# topology-agnostic search in each route's own layer, and every state is
# judged per VL.
QOS=TRUE
LAYERS=4
BASE=ecube
SWITCH_REPAIRED=1
. "$(dirname "$0")/grid_faults_torus2d.sh"
