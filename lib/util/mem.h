/*
 * mem.h - a structure's arrays allocated and freed from one table, freed
 * in one statement, growing arrays and string pools.
 *
 * Most lib/ objects own a dozen or more separately allocated arrays (one
 * per per-channel or per-switch attribute, so that each stays a dense
 * uint32_t array the inner loops can stream through).  Their destructors
 * were long runs of free() lines that differed only in the field names;
 * DQR_FREE_ALL() keeps the list of what an object owns in one place and
 * the loop that frees it in another.
 */
#ifndef DQR_MEM_H
#define DQR_MEM_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

/* free() on each of the n pointers; NULL entries are fine, as for free(). */
static inline void dqr_free_array(void *const *ptrs, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(ptrs[i]);
}

/*
 * DQR_FREE_ALL(a, b, ...) frees every argument.  The arguments go into a
 * compound literal of void pointers; sizeof counts them without
 * evaluating them a second time.
 */
#define DQR_FREE_ALL(...)						\
	dqr_free_array((void *const[]){ __VA_ARGS__ },			\
		       sizeof((void *const[]){ __VA_ARGS__ }) /	\
		       sizeof(void *))

/*
 * One owned array of a struct: where its pointer lives and its size.  A
 * struct lists its arrays once, in one table, and that table both
 * allocates (zeroed) and frees them, so the two can never disagree.
 */
struct dqr_buf {
	void **p;
	size_t n, size;
};

/* A table row: the array at ptr, n elements (at least one) of its type. */
#define DQR_BUF(ptr, n)							\
	{ (void **)&(ptr), (n) != 0 ? (n) : 1, sizeof(*(ptr)) }

static inline void dqr_bufs_free(const struct dqr_buf *b, size_t nb)
{
	size_t i;

	for (i = 0; i < nb; i++) {
		free(*b[i].p);
		*b[i].p = NULL;
	}
}

/*
 * Every array of b, zeroed; 0, or -1 with none of them left and every
 * pointer NULL.  The pointers need not be set before: only those this
 * call allocated are freed, so a struct on the stack is safe.
 */
static inline int dqr_bufs_alloc(const struct dqr_buf *b, size_t nb)
{
	size_t i, j;

	for (i = 0; i < nb; i++) {
		*b[i].p = calloc(b[i].n, b[i].size);
		if (*b[i].p)
			continue;
		dqr_bufs_free(b, i);
		for (j = i; j < nb; j++)
			*b[j].p = NULL;
		return -1;
	}
	return 0;
}

/*
 * Room for need elements of elem bytes in *arr, which has room for *cap:
 * the capacity doubles from first, so that n appends cost O(n) copying.
 * Returns 0, or -1 when out of memory or past 2^31 elements (*arr and
 * *cap as they were).
 */
int dqr_grow(void **arr, uint32_t *cap, uint32_t need, size_t elem,
	     uint32_t first);

/*
 * String pools: one growing buffer of NUL-terminated strings that the
 * owners address by offset, so that the buffer may move as it grows.
 * Appends the n bytes at s and a NUL to *buf, which holds *len bytes of
 * *cap; *off is where the copy starts.  Returns 0, or -1 when out of
 * memory with the pool as it was.
 */
int dqr_pool_add(char **buf, size_t *len, size_t *cap, const char *s,
		 size_t n, size_t *off);

#endif
