#!/bin/sh
# grid_faults_torus2d_qos.sh - grid_faults_torus2d.sh with "qos TRUE" in
# opensm.conf, beside the defaults: base=auto still routes the torus as a
# mesh on one VL (the layered e-cube of torus_layers.h is not in the
# plugin yet), every path on SL 0, and DQR repairs with the mesh plug-in.
QOS=TRUE
. "$(dirname "$0")/grid_faults_torus2d.sh"
