#!/bin/sh
# safe_budget_ms_0.sh - safe_defaults.sh with budget_ms=0: no
# reconfiguration may spend any time, so each one is past its budget
# (ERR DQ30) and the fallback routes the whole fabric; every state read
# back must still be loop free, acyclic and reach every pair, every
# recorded stage must replay cleanly, and the original tables return.
OPTIONS=budget_ms=0
. "$(dirname "$0")/safe_defaults.sh"
