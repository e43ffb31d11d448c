/*
 * node_index.h - O(1) lookup of nodes by name and by node GUID.
 *
 * The readers resolve every port line and every LFT section header to a
 * node; with 10^4 nodes and 10^5 ports a linear dqr_fabric_find_* per line
 * would be quadratic.  An index is either built over a finished fabric in
 * one O(n) pass, or filled incrementally while a reader adds nodes.  It
 * keeps its own copy of the names, so it can also map keys that are not
 * fabric names (the topology reader maps ibnetdiscover node ids).
 */
#ifndef DQR_NODE_INDEX_H
#define DQR_NODE_INDEX_H

#include <stdint.h>

#include "fabric/fabric.h"

struct dqr_node_index;

/* dqr_node_index_add() results, or-ed: the key was already present */
#define DQR_NODE_INDEX_DUP_NAME 1
#define DQR_NODE_INDEX_DUP_GUID 2

/* An empty index; NULL when out of memory. */
struct dqr_node_index *dqr_node_index_new(void);

/*
 * Indexes every node of f by name and by node GUID (GUID 0 means unknown
 * and is not indexed).  When two nodes share a key the first one wins.
 * NULL when out of memory.
 */
struct dqr_node_index *dqr_node_index_build(const struct dqr_fabric *f);

/*
 * Maps name (unless NULL) and guid (unless 0) to node.  A key already
 * present keeps its first node and sets its DQR_NODE_INDEX_DUP_* bit in
 * the result; the other key is still added.  Returns -1 when out of
 * memory.
 */
int dqr_node_index_add(struct dqr_node_index *ix, const char *name,
		       uint64_t guid, uint32_t node);

/* The node of a name or GUID, or DQR_NONE. */
uint32_t dqr_node_index_name(const struct dqr_node_index *ix,
			     const char *name);
uint32_t dqr_node_index_guid(const struct dqr_node_index *ix, uint64_t guid);

/* Releases ix (NULL is fine). */
void dqr_node_index_free(struct dqr_node_index *ix);

#endif
