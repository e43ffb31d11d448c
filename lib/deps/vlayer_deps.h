/*
 * vlayer_deps.h - the dependencies of a routing on virtual layers, gathered
 * from its destination trees and judged layer by layer.
 *
 * A vertex is l * P + c: channel c (a fabric's port index, of P) in layer
 * l.  Every tree repeats most dependencies of the others, so each is kept
 * once as it comes: a bit per (vertex a, port number of b), since b
 * leaves the node a leads to and its port number names it.  The set then
 * costs the distinct dependencies (layers x ports x degree), not the
 * trees' hops (LIDs x switches).
 */
#ifndef DQR_VLAYER_DEPS_H
#define DQR_VLAYER_DEPS_H

#include <stdint.h>

#include "deps/cdg.h"
#include "deps/channel_list.h"
#include "fabric/fabric.h"

struct dqr_vlayer_deps {
	uint64_t *key;		/* a << 32 | b, in the order they came */
	uint64_t n, cap;
	uint64_t *seen;		/* bit a * stride + b's port number */
	const struct dqr_fabric *f;
	uint32_t num_ports;	/* P */
	unsigned num_layers;
	unsigned stride;	/* the highest port number + 1 */
};

/* An empty set over num_layers layers of f's ports: 0, or -1 no memory. */
int dqr_vlayer_deps_init(struct dqr_vlayer_deps *d, const struct dqr_fabric *f,
			 unsigned num_layers);
void dqr_vlayer_deps_release(struct dqr_vlayer_deps *d);

/* a -> b (vertices l * P + c) into d, once: 0, or -1 no memory. */
int dqr_vlayer_deps_add(struct dqr_vlayer_deps *d, uint32_t a, uint32_t b);

/*
 * The graph of d (keys sorted first, so the order does not depend on how
 * they came) and Kahn's order of it, lowest vertex first.  0 when every
 * layer is acyclic, 1 when some is not (*layer the lowest such; the
 * vertices of cyclic layers never ordered keep pos DQR_NONE), -1 no
 * memory.  With g and cl the caller takes both (and frees them, also
 * after 1); with NULL they are freed here.
 */
int dqr_vlayer_deps_order(struct dqr_vlayer_deps *d, struct dqr_cdg **g,
			  struct dqr_channel_list *cl, unsigned *layer);

#endif
