/*
 * edge_list.h - dependency graphs given by hand, for the tests and
 * benchmarks of the channel list: a graph from a list of edges, and a
 * topological order of it whose ties the caller breaks.
 */
#ifndef DQR_EDGE_LIST_H
#define DQR_EDGE_LIST_H

#include <stdint.h>

#include "deps/cdg.h"
#include "deps/channel_list.h"

/*
 * The graph over n vertices (all of them channels) with the m edges
 * e[2i] -> e[2i + 1]; successors keep the order of e.  NULL when out of
 * memory; dqr_cdg_free() releases it.
 */
struct dqr_cdg *dqr_cdg_of_edges(uint32_t n, const uint32_t *e, uint32_t m);

/*
 * Kahn's algorithm: a topological order of g in *cl, where pick(ctx, r)
 * chooses which of the r ready vertices comes next (an index below r).
 * 0; 1 when g is cyclic (the vertices never ready keep pos DQR_NONE);
 * -1 when out of memory (nothing to free then).
 */
int dqr_topo_order(const struct dqr_cdg *g,
		   uint32_t (*pick)(void *ctx, uint32_t r), void *ctx,
		   struct dqr_channel_list *cl);

#endif
