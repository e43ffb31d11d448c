/*
 * grid_links.h - the switches and cables of a mesh or torus as numbers
 * alone: coordinates, distances and one index per cable, for the models
 * that judge fault sets by the thousand (grid_symmetry.h, intermediate.h)
 * and need no fabric, ports or LIDs.
 *
 * A switch is numbered as topo_gen.h places it, x + X * (y + Y * z); a
 * cable is numbered by the switch it leaves upwards and its dimension, in
 * that order, skipping the mesh's edges.  A torus needs rings of 3 or
 * more: a ring of 2 would cable one pair twice.
 */
#ifndef DQR_GRID_LINKS_H
#define DQR_GRID_LINKS_H

#include <stddef.h>
#include <stdint.h>

#include "fabric/topo_gen.h"

struct dqr_grid_links {
	unsigned ndims;
	unsigned dims[DQR_GEN_MAX_DIMS];
	int torus;			/* every dimension a ring */
	uint32_t num_nodes;
	uint32_t num_links;
	uint32_t *low;		/* per cable: the switch it leaves upwards */
	uint32_t *high;		/* per cable: the switch one step up */
	uint8_t *dim;		/* per cable */
	/* [node * ndims + d]: the cable from node one step up in d, or -1 */
	int32_t *up;
};

/*
 * The grid of spec (DQR_GEN_MESH or DQR_GEN_TORUS, 1 to 3 dimensions).
 * 0 with *out set, or -1 with why in err: another kind, a ring of 2, a
 * grid of more than 2^20 switches, no memory.
 */
int dqr_grid_links_new(const struct dqr_gen_spec *spec,
		       struct dqr_grid_links **out, char *err,
		       size_t errlen);
void dqr_grid_links_free(struct dqr_grid_links *gl);

/* The switch at coordinates c (each below its dimension). */
uint32_t dqr_grid_node(const struct dqr_grid_links *gl, const unsigned *c);
/* The coordinates of switch node into c[0 .. ndims - 1]. */
void dqr_grid_coords(const struct dqr_grid_links *gl, uint32_t node,
		     unsigned *c);
/* Hops on a shortest path from a to b, cables all up. */
unsigned dqr_grid_dist(const struct dqr_grid_links *gl, uint32_t a,
		       uint32_t b);
/*
 * The cable joining neighbours a and b, with *down set when a to b runs
 * it downwards (a is its high end); -1 when they are not neighbours.
 */
int32_t dqr_grid_cable(const struct dqr_grid_links *gl, uint32_t a,
		       uint32_t b, int *down);

#endif
