/*
 * check.c - what a broken invariant does (check.h).
 */
#include <stdio.h>
#include <stdlib.h>

#include "util/check.h"

void dqr_check_failed(const char *what, const char *file, int line)
{
	fprintf(stderr, "dqr: invariant broken at %s:%d: %s\n", file, line,
		what);
	abort();
}
