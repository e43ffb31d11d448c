#!/bin/sh
# test_lists.sh - the test lists of Makefile.am agree: every integration
# test that SAN_INTEGRATION_SHARED, SAN_INTEGRATION_ALONE or
# DISTCHECK_TESTS names is one of INTEGRATION_SHARED or
# INTEGRATION_ALONE (make check can make logs only for tests of TESTS),
# and none is in both of those.  A test left out of CI's lists, by hand,
# goes in INTEGRATION_SLOW instead.
set -u
cd "${top_srcdir:-.}" || exit 1

awk '
	# one logical line per variable: join the continuations
	{ line = line $0 }
	/\\$/ { sub(/\\$/, "", line); next }
	{ split(line, w, /[ \t=]+/); name = w[1]
	  for (i = 2; i in w; i++)
		if (w[i] ~ /^test\/integration\//) list[name, w[i]] = 1
	  names[name] = 1; line = "" }
	END {
		for (k in list) {
			split(k, p, SUBSEP)
			if (p[1] == "INTEGRATION_SHARED" &&
			    ((("INTEGRATION_ALONE", p[2]) in list))) {
				print "test_lists: " p[2] " is shared and alone"
				bad = 1
			}
			if (p[1] !~ /^(SAN_INTEGRATION_(SHARED|ALONE)|DISTCHECK_TESTS)$/)
				continue
			if ((("INTEGRATION_SHARED", p[2]) in list) ||
			    (("INTEGRATION_ALONE", p[2]) in list))
				continue
			print "test_lists: " p[1] " names " p[2] \
			    ", which no list of TESTS holds"
			bad = 1
		}
		exit bad
	}' Makefile.am || exit 1
echo "test_lists: the sanitized and distcheck lists name only tests of TESTS"
