/*
 * test_check.c - DQR_CHECK (util/check.h) stops the program where an
 * invariant breaks and says which and where, holds its peace when the
 * invariant holds, and is compiled into lib/ as well: a check that never
 * fires proves nothing, so each is made to fire, in a child process.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "death.h"
#include "unit.h"
#include "util/check.h"
#include "util/mem.h"

#ifdef DQR_CHECKS

/* A broken invariant: the child must abort, naming the check's line. */
static const int check_line = __LINE__ + 5;
static void breaks(void *arg)
{
	int *x = arg;

	DQR_CHECK(*x + 1 == 3);
}

/* An invariant that holds: the child must go on and exit 0. */
static void holds(void *arg)
{
	int *x = arg;

	DQR_CHECK(*x + 1 == 2);
	fputs("went on", stderr);
}

/*
 * A check inside lib/: dqr_grow() doubles its capacity from first, so a
 * first of 0 would never grow; that is the caller's bug, not input.
 */
static void lib_breaks(void *arg)
{
	uint32_t cap = 0;
	void *p = NULL;

	(void)arg;
	dqr_grow(&p, &cap, 1, 1, 0);
	free(p);
}

static void test_fires(void)
{
	char want[256], out[4096];
	int x = 1, status;

	snprintf(want, sizeof(want), "dqr: invariant broken at %s:%d: "
		 "*x + 1 == 3", __FILE__, check_line);
	CHECK(unit_dies(breaks, &x, want));
	status = unit_child(holds, &x, out, sizeof(out));
	CHECK(status != -1 && WIFEXITED(status) && !WEXITSTATUS(status));
	CHECK(strstr(out, "went on") != NULL);
	CHECK(strstr(out, "invariant broken") == NULL);
	CHECK(unit_dies(lib_breaks, NULL, "util/mem.c:"));
	CHECK(unit_dies(lib_breaks, NULL, "first > 0"));
}

/* The condition is evaluated once, whether it holds or not. */
static void test_once(void)
{
	int n = 0;

	DQR_CHECK(++n == 1);
	CHECK_EQ(n, 1);
}

int main(void)
{
	test_fires();
	test_once();
	return unit_finish();
}

#else

int main(void)
{
	/* built with --disable-checks: nothing to test (automake's skip) */
	printf("DQR_CHECK compiled out: skipped\n");
	return 77;
}

#endif
