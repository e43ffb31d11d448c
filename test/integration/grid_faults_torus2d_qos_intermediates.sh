#!/bin/sh
# grid_faults_torus2d_qos_intermediates.sh - grid_faults_torus2d_qos.sh
# (the 5x3 torus with "qos TRUE": e-cube on 4 of the 8 VLs) with the
# option it tests, intermediates=2, beside it and beside the defaults
# (grid_faults_torus2d.sh): each repair lays the IN paper's routes
# through at most two intermediate switches first (vlayers_imed.c),
# where the layers hold them, then the mesh plug-in and the search.
# Every state is judged per VL with the SLs the SA answers (the chains
# may move pairs to other layers), every transition replayed with those
# its packets carry, the log must count DLIDs the routes laid, and both
# cables back give the start's tables.
OPTIONS=intermediates=2
IMED=1
SLS=sa-each
SHAPE="2D torus (5x3|3x5)"
SHAPE_LINE="osmdqr: "
. "$(dirname "$0")/grid_faults_torus2d_qos.sh"
