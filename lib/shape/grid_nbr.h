/*
 * grid_nbr.h - the grid neighbours of every switch of a recognised mesh or
 * torus, by dimension and direction, with the port that leads there: what
 * a topology plug-in walks when it lays a path around a fault.
 *
 * Built once from the reference fabric (the one the grid was recognised
 * on); a projection of it keeps the switch and port indices, so the table
 * serves every later state, and dqr_grid_nbr_cabled() tells whether a
 * neighbour's cable is still there.  O(switches x dimensions) memory.
 */
#ifndef DQR_GRID_NBR_H
#define DQR_GRID_NBR_H

#include <stdint.h>

#include "fabric/fabric.h"
#include "shape/grid_shape.h"

#define DQR_GRID_DIRS (2 * DQR_GEN_MAX_DIMS)

struct dqr_grid_nbrs {
	uint32_t num_switches;
	unsigned ndims;
	unsigned dims[DQR_GEN_MAX_DIMS];
	uint8_t wrap[DQR_GEN_MAX_DIMS];
	uint16_t *coord;	/* [sw * DQR_GEN_MAX_DIMS + k] */
	/* [dqr_grid_slot()]: the neighbour's switch index or DQR_NONE, and
	 * the port that leads there (0: none) */
	uint32_t *sw;
	uint8_t *port;
};

/* The slot of switch sw's neighbour in dimension k, downwards if minus. */
static inline uint32_t dqr_grid_slot(uint32_t sw, unsigned k, int minus)
{
	return sw * DQR_GRID_DIRS + 2 * k + (minus ? 1 : 0);
}

static inline uint16_t dqr_grid_coord(const struct dqr_grid_nbrs *n,
				      uint32_t sw, unsigned k)
{
	return n->coord[(size_t)sw * DQR_GEN_MAX_DIMS + k];
}

/* 1 when the neighbour in slot s of switch sw is still cabled in f. */
static inline int dqr_grid_nbr_cabled(const struct dqr_grid_nbrs *n,
				      const struct dqr_fabric *f,
				      uint32_t sw, uint32_t s)
{
	return n->port[s] && n->sw[s] != DQR_NONE &&
	       dqr_peer_switch(f, dqr_port_index(f, f->switches[sw],
						 n->port[s])) == n->sw[s];
}

/* 0, or -1 when out of memory or g is not of f's switches. */
int dqr_grid_nbrs_build(const struct dqr_fabric *f, const struct dqr_grid *g,
			struct dqr_grid_nbrs *n);
void dqr_grid_nbrs_release(struct dqr_grid_nbrs *n);

#endif
