/*
 * mem.c - growing arrays and string pools (mem.h).
 */
#include <string.h>

#include "util/check.h"
#include "util/mem.h"

int dqr_grow(void **arr, uint32_t *cap, uint32_t need, size_t elem,
	     uint32_t first)
{
	uint32_t ncap;
	void *p;

	if (need <= *cap)
		return 0;
	/* doubling from 0 never ends */
	DQR_CHECK(*cap || first > 0);
	ncap = *cap ? *cap : first;
	while (ncap < need) {
		if (ncap > UINT32_MAX / 2)
			return -1;
		ncap *= 2;
	}
	p = realloc(*arr, (size_t)ncap * elem);
	if (!p)
		return -1;
	*arr = p;
	*cap = ncap;
	return 0;
}

int dqr_pool_add(char **buf, size_t *len, size_t *cap, const char *s,
		 size_t n, size_t *off)
{
	size_t need = *len + n + 1, ncap;
	char *p;

	if (need > *cap) {
		/* doubling keeps a reader of 10^5 names at O(n) copying */
		ncap = *cap ? *cap : 4096;
		while (ncap < need)
			ncap *= 2;
		p = realloc(*buf, ncap);
		if (!p)
			return -1;
		*buf = p;
		*cap = ncap;
	}
	memcpy(*buf + *len, s, n);
	(*buf)[*len + n] = '\0';
	*off = *len;
	*len = need;
	return 0;
}
