#!/bin/sh
# transitions_648.sh - ordered transitions on the 648-CA 2-tier fat tree
# (see transitions.sh).
NET="$(cd "$(dirname "$0")/../.." && pwd)/ibsim-topologies/fattree2-36.net"
HOST=ca-0300
NEWLINK='"ca-0647"[1]'
FAULT='"sw-L1-0000"[19]'
DRAIN=100
# 648 switch cables and 54 switches (NEWLINK is a CA's), then 647
TOL_START=702
TOL_FAULT=701
. "$(dirname "$0")/transitions.sh"
