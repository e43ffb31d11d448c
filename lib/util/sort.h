/*
 * sort.h - qsort() comparators for the plain index and key arrays that
 * several modules sort (channel sets, switch ports, packed keys).
 */
#ifndef DQR_SORT_H
#define DQR_SORT_H

#include <stdint.h>

static inline int dqr_cmp_u32(const void *x, const void *y)
{
	uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;

	return (a > b) - (a < b);
}

static inline int dqr_cmp_u64(const void *x, const void *y)
{
	uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;

	return (a > b) - (a < b);
}

#endif
