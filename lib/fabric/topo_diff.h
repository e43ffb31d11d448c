/*
 * topo_diff.h - the fabric as it is now, in the shape of the fabric the
 * channel list was built for.
 *
 * DQR's tables, channel list and reroute context are indexed by the node
 * and port numbers of a reference topology.  After a fault the subnet
 * manager sees fewer links (and, when a switch dies, fewer nodes); the
 * projection is the reference with those links removed, so every index
 * stays valid.  Anything the reference does not know (a new node, a
 * recabled port, a changed LID) is counted: DQR cannot handle it and the
 * caller must route from scratch.
 */
#ifndef DQR_TOPO_DIFF_H
#define DQR_TOPO_DIFF_H

#include <stdint.h>

#include "fabric/fabric.h"

struct dqr_topo_diff {
	uint32_t links_missing;		/* reference cables now absent */
	uint32_t nodes_missing;		/* reference nodes now absent */
	uint32_t nodes_new;		/* nodes the reference lacks */
	uint32_t links_new;		/* cables the reference lacks */
	uint32_t lids_changed;		/* ports whose LID range changed */
	/* switch ports of the absent cables (reference port indices) */
	uint32_t *missing_ports;
	uint32_t num_missing_ports;
};

/* 1 when DQR can serve cur from ref: nothing new, only things missing. */
static inline int dqr_topo_diff_degraded_only(const struct dqr_topo_diff *d)
{
	return !d->nodes_new && !d->links_new && !d->lids_changed;
}

/*
 * A copy of ref without the cables and nodes cur lacks (nodes matched by
 * GUID, ports by number).  LIDs of absent nodes are dropped from the LID
 * index: nobody can send to them.  NULL when out of memory.
 */
struct dqr_fabric *dqr_fabric_project(const struct dqr_fabric *ref,
				      const struct dqr_fabric *cur,
				      struct dqr_topo_diff *d);
/*
 * The projection kept up to date cable by cable, in the time of the
 * change and not of the fabric: proj (a projection of ref, or a copy of
 * ref) loses the cables at the given ports of ref (either end; ports
 * without a cable in ref, or already cut, are skipped), and d, proj's
 * diff against ref (zeroed for a copy of ref), counts them and lists
 * their switch ports.  For cables whose ends the caller knows (a trap,
 * a port state change); a node that vanished, a new cable or a changed
 * LID needs dqr_fabric_project().  0, or -1 when out of memory (d then
 * lists what was cut so far).
 */
int dqr_fabric_project_cut(struct dqr_fabric *proj,
			   const struct dqr_fabric *ref,
			   const uint32_t *ports, uint32_t nports,
			   struct dqr_topo_diff *d);
/*
 * What the subnet manager's sweep would find after those cuts: the
 * nodes it cannot reach from root (its port in proj, as in
 * fabric/sm_paths.h) are absent, as dqr_fabric_project() makes an
 * absent node: every cable of theirs cut, their LIDs dropped from the
 * LID index, counted in d->nodes_missing.  A dead switch cut around by
 * dqr_fabric_project_cut() and the CAs that hang on it alone are such
 * nodes.  0, or -1 when out of memory (d then lists what was cut so
 * far).
 */
int dqr_fabric_project_unreached(struct dqr_fabric *proj,
				 const struct dqr_fabric *ref, uint32_t root,
				 struct dqr_topo_diff *d);

/* Frees the list d holds (d itself is the caller's). */
void dqr_topo_diff_release(struct dqr_topo_diff *d);

#endif
