/*
 * unit.h - the few macros the unit tests share.
 *
 * Each CHECK counts as one assertion; the program ends with the plain
 * "N passed, N failed" line and exits non-zero when anything failed.
 */
#ifndef DQR_UNIT_H
#define DQR_UNIT_H

#include <stdio.h>
#include <stdlib.h>

static unsigned unit_passed, unit_failed;

#define CHECK(cond) do { \
	if (cond) { \
		unit_passed++; \
	} else { \
		unit_failed++; \
		fprintf(stderr, "%s:%d: CHECK failed: %s\n", \
			__FILE__, __LINE__, #cond); \
	} \
} while (0)

#define CHECK_EQ(a, b) do { \
	long long unit_a_ = (long long)(a), unit_b_ = (long long)(b); \
	if (unit_a_ == unit_b_) { \
		unit_passed++; \
	} else { \
		unit_failed++; \
		fprintf(stderr, "%s:%d: CHECK_EQ failed: %s == %lld, " \
			"%s == %lld\n", __FILE__, __LINE__, #a, unit_a_, \
			#b, unit_b_); \
	} \
} while (0)

/* Stops the test program: later checks would only dereference NULL. */
#define REQUIRE(cond) do { \
	int unit_ok_ = !!(cond); \
	CHECK(unit_ok_); \
	if (!unit_ok_) { \
		printf("%u passed, %u failed\n", unit_passed, unit_failed); \
		exit(1); \
	} \
} while (0)

static inline int unit_finish(void)
{
	printf("%u passed, %u failed\n", unit_passed, unit_failed);
	return unit_failed ? 1 : (unit_passed ? 0 : 1);
}

#endif
