/*
 * grid_symmetry.h - the symmetries of a mesh or torus acting on its
 * cables, and every set of K failed cables up to them: one set per class,
 * with the number of sets in its class.  A model that treats symmetric
 * fault sets alike (intermediate.h's) then judges each class once, which
 * turns the 25,621,596 sets of 5 cables of the 3x3x3 torus into 21,398.
 *
 * The maps: a translation (tori), a reflection of any dimensions, and a
 * swap of dimensions of one size.  Dimension order routing does not treat
 * dimensions alike, and takes the upper way round a ring of even size
 * when both are shortest, so a model of it asks for fewer maps
 * (DQR_SYM_*).
 *
 * Orderly generation: a set's representative is the least, as a sorted
 * tuple, of its images.  That tuple begins with the least cable of its
 * orbit, so the sets tried are those whose first cable is the least of its
 * orbit and whose others lie in orbits whose least is no smaller, and a
 * set is kept when no image under a map that takes one of its cables to
 * that first cable is smaller.  Cost per set tried: O(K^2 x maps / cables
 * of the orbit); memory O(maps x cables).
 */
#ifndef DQR_GRID_SYMMETRY_H
#define DQR_GRID_SYMMETRY_H

#include <stddef.h>
#include <stdint.h>

#include "shape/grid_links.h"

#define DQR_SYM_TRANSLATE	0x1	/* tori only */
#define DQR_SYM_REFLECT		0x2
#define DQR_SYM_SWAP_DIMS	0x4
#define DQR_SYM_ALL		0x7

#define DQR_FAULT_SET_MAX 32

struct dqr_grid_symmetry {
	uint32_t num_maps;
	uint32_t num_links;
	uint32_t *map;		/* [g * num_links + cable]: its image */
	uint32_t *rep;		/* per cable: the least cable of its orbit */
	/* per cable c, to_rep[to_rep_first[c] ..]: the g with g(c) = rep */
	uint32_t *to_rep_first;
	uint32_t *to_rep;
};

/*
 * The maps of gl that flags allow.  0 with *out set, or -1 with why in
 * err: more than 2^24 (map, cable) images, no memory.
 */
int dqr_grid_symmetry_new(const struct dqr_grid_links *gl, unsigned flags,
			  struct dqr_grid_symmetry **out, char *err,
			  size_t errlen);
void dqr_grid_symmetry_free(struct dqr_grid_symmetry *s);

/*
 * Called once per class of k-sets: set holds its representative, sorted,
 * and members the number of sets in its class.  Nonzero stops the walk.
 */
typedef int (*dqr_fault_class_fn)(const uint32_t *set, unsigned k,
				  uint64_t members, void *arg);

/*
 * Visits every class of sets of k cables (1 to DQR_FAULT_SET_MAX).  0
 * when every class was visited, else what visit returned.
 */
int dqr_fault_classes(const struct dqr_grid_symmetry *s, unsigned k,
		      dqr_fault_class_fn visit, void *arg);

/* n choose k, or UINT64_MAX when it does not fit. */
uint64_t dqr_choose(uint64_t n, unsigned k);

#endif
