/*
 * union_find.h - the root of a disjoint-set forest stored as a parent
 * array (parent[v] == v at a root), with path halving so that repeated
 * finds over 10^4 switches stay near O(1).
 */
#ifndef DQR_UNION_FIND_H
#define DQR_UNION_FIND_H

#include <stdint.h>

static inline uint32_t dqr_uf_root(uint32_t *parent, uint32_t v)
{
	while (parent[v] != v) {
		parent[v] = parent[parent[v]];
		v = parent[v];
	}
	return v;
}

#endif
