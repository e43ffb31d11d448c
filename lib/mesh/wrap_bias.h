/*
 * wrap_bias.h - the reroute's preference on a torus routed as its mesh by
 * up*\/down* (DQR_REF_UPDN_MESH, ref_routing.h): a wrap cable costs the
 * search 64 hops more, so it takes one only where the mesh's own cables
 * leave no legal route.
 *
 * Why: the base's order runs from one corner of the mesh across it, and a
 * wrap cable joins the two far ends of a ring.  Reroutes that take it as
 * the short way add turns against that order, which then block the next
 * fault's reroutes: on the 10x10 torus, 200 runs of dqr-sim, two link
 * faults in a row repaired in 187 runs with the wrap cables as cheap as
 * any, in all 200 with this preference.  Under dimension order it
 * changes little either way (doc/grids.md), so only the up*\/down* base
 * takes it.
 *
 * Memory: a byte per port of the reference fabric.
 */
#ifndef DQR_WRAP_BIAS_H
#define DQR_WRAP_BIAS_H

#include <stdint.h>

#include "fabric/fabric.h"
#include "fabric/lft.h"
#include "reroute/reroute.h"
#include "shape/grid_shape.h"

/* What a wrap cable adds to a candidate's cost: 64 links. */
#define DQR_WRAP_BIAS_COST (64 * DQR_REROUTE_HOP_COST)

struct dqr_wrap_bias;

/*
 * The preference for grid g of the reference fabric f (the model the
 * reroute runs on projections of).  *out is NULL when g has no wrap
 * cable: a mesh, a hypercube, rings of 4 read as two dimensions of 2.
 * 0, or -1 when out of memory.
 */
int dqr_wrap_bias_new(const struct dqr_fabric *f, const struct dqr_grid *g,
		      struct dqr_wrap_bias **out);
void dqr_wrap_bias_free(struct dqr_wrap_bias *wb);

/* Sets the preference into o (wb must outlive o's use). */
void dqr_wrap_bias_opts(struct dqr_wrap_bias *wb, struct dqr_reroute_opts *o);

/* The reroute's bias call (reroute.h). */
uint32_t dqr_wrap_bias(void *arg, const struct dqr_fabric *f,
		       const struct dqr_lfts *t, uint32_t sw, uint32_t ch,
		       uint32_t lid);

/* How many ports of the reference fabric lead over a wrap cable. */
uint32_t dqr_wrap_bias_ports(const struct dqr_wrap_bias *wb);

#endif
