/*
 * sm_paths.h - directed routes from the subnet manager's port to the
 * switches.
 *
 * A directed-route SMP goes port by port, not by the forwarding tables,
 * so the subnet manager reaches a switch whose tables are broken or
 * about to change; but its route must avoid the cables that are down.
 * The tree here is breadth first over the cables of a fabric (the
 * cabling as it is now); its routes are the shortest.
 */
#ifndef DQR_SM_PATHS_H
#define DQR_SM_PATHS_H

#include <stdint.h>

#include "fabric/fabric.h"

/* the hops a directed route may take (InfiniBand's limit) */
#define DQR_SM_HOPS_MAX 63

/*
 * Breadth first from root (the SM's port: port 0 of a switch, or a CA's
 * port) over f's cables, through switches only (a CA forwards no SMP),
 * never over a cable with avoid[] set at either end (f->num_ports
 * entries, or NULL; all the ports of a switch keep the tree out of it):
 * via[node] (f->num_nodes entries) is the port of f by which the tree
 * enters node, DQR_NONE where it does not (and at root's node).  O(ports).
 * 0, or -1 when out of memory.
 */
int dqr_sm_tree(const struct dqr_fabric *f, uint32_t root,
		const uint8_t *avoid, uint32_t *via);

/*
 * The exit port numbers from root's node to node along the tree:
 * out[0 .. hops - 1].  Returns hops (0 at root's node), or -1 when the
 * tree does not reach node or the route is longer than DQR_SM_HOPS_MAX.
 */
int dqr_sm_route(const struct dqr_fabric *f, const uint32_t *via,
		 uint32_t root, uint32_t node, uint8_t *out);

#endif
