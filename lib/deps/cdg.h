/*
 * cdg.h - the channel dependency graph of a routing.
 *
 * Vertices are channels (global index of the sending port); an edge a -> b
 * means a packet holding a may next request b.  Sources are every CA port
 * and every switch (port 0), destinations every LID, so one entry at switch
 * X for DLID d adds, for every in-channel that carries d into X, one
 * dependency to X's out-channel for d.
 */
#ifndef DQR_CDG_H
#define DQR_CDG_H

#include <stdint.h>

#include "fabric/fabric.h"
#include "fabric/lft.h"

struct dqr_cdg {
	uint32_t num_vertices;	/* = fabric->num_ports; unlinked ports idle */
	uint32_t num_channels;	/* linked ports, the real channels */
	uint64_t num_edges;
	/* CSR: successors of v are succ[succ_off[v] .. succ_off[v + 1]) */
	uint64_t *succ_off;
	uint32_t *succ;
	/* the same edges reversed */
	uint64_t *pred_off;
	uint32_t *pred;
};

/*
 * The dependencies of tables t on f, every LID with an owner walked once:
 * O(switches x LIDs) time, O(channels x radix) memory however many LIDs.
 * NULL when out of memory.
 */
struct dqr_cdg *dqr_cdg_build(const struct dqr_fabric *f,
			      const struct dqr_lfts *t);
/*
 * The union of the dependencies of several routings of one fabric: what
 * can exist while switches forward by a mix of them.
 */
struct dqr_cdg *dqr_cdg_build_multi(const struct dqr_fabric *f,
				    const struct dqr_lfts *const *ts,
				    unsigned nt);
void dqr_cdg_free(struct dqr_cdg *g);

/*
 * Builds g's reversed edges (pred_off, pred) from its successors, for a
 * graph whose num_vertices, num_edges, succ_off and succ are set.  0, or
 * -1 when out of memory (pred_off and pred may then be set; the caller's
 * dqr_cdg_free() releases them).
 */
int dqr_cdg_index_preds(struct dqr_cdg *g);

/*
 * 1 when a -> b is a dependency of g: a scan of a's successors, for
 * tests and reports; the reroute asks dqr_dyn_has_edge() in O(1).
 */
int dqr_cdg_has_edge(const struct dqr_cdg *g, uint32_t a, uint32_t b);

#endif
