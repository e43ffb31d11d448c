#!/bin/sh
# safe_defaults_interrupt.sh - safe_defaults.sh with a fault injected
# during a staged transition: a leaf uplink outside the anchor's pod
# first (its repair waits a drain between its stages; the anchor pod's
# leaf uplinks go up in one stage), and the next cable fails while it
# waits.
INTERRUPT=1
CABLES='"sw-L1-0006"[7] "sw-L2-0004"[5] "sw-L2-0004"[6]'
. "$(dirname "$0")/safe_defaults.sh"
