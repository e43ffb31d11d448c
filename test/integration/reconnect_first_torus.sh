#!/bin/sh
# reconnect_first_torus.sh - reconnection on a 5x5 torus with the default
# options (qos FALSE: up*/down* from a corner on one VL, the wrap cables
# unused; see reconnect_first.sh): a cable of the root's row, answered
# by the first SUBNET UP, and one inside, whose plan waits one drain.
# Its CA pairs may wait for the drain (up*/down* leaves no acyclic
# repair for some destinations there: doc/transitions.md).
GEN=torus:5x5
HOST=ca-0000
FAULTS='first "sw-x2-y0"[1]
wait "sw-x2-y2"[1]'
. "$(dirname "$0")/reconnect_first.sh"
