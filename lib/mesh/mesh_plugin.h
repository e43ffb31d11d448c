/*
 * mesh_plugin.h - the DQR paper's plug-in for meshes (section IV.C): a
 * failed link is bypassed by a local path that turns towards the centre of
 * the mesh, and the turns needed to enter, follow and leave that path are
 * enabled in the channel list before the search, so that every
 * disconnected flow then finds a route without a new illegal turn.
 *
 * Destination-based forwarding: for every DLID whose route crossed the
 * failed channel a->b, the local path a->a'->b'->b (a' and b' one step
 * aside in another dimension) is laid over that DLID's tree: a forwards
 * to a', a' to b' unless its own entry already leaves the path forwards,
 * b' likewise to b.  The dependencies of those patched entries - every
 * channel that carries the DLID into a patched switch, the end ports
 * there, and the patched channel into the next switch's channel - are
 * what the plug-in adds.  Both directions of the link take the same side,
 * so the two local paths cannot close a ring around the link.  A side
 * whose dependencies would close a cycle is rolled back and the next one
 * tried: towards the centre first, then away from it, each other
 * dimension in turn.
 *
 * When every failed link is bypassed the search is told so (the run's
 * reorders then cost far more than any detour, reroute.h), which keeps
 * later searches from spending the freedom the next fault needs.  A link
 * of a lost switch, or one no side fits, is left to the topology-agnostic
 * search: the paper's fallback.
 *
 * Coordinates come from the grid recognised at start (grid_shape.h): the
 * plug-in serves meshes and tori routed as meshes, not hypercubes.
 * Memory O(switches x dimensions); a run costs O(failed links x LIDs x
 * ports per switch).
 */
#ifndef DQR_MESH_PLUGIN_H
#define DQR_MESH_PLUGIN_H

#include <stdint.h>

#include "deps/dyn_order.h"
#include "fabric/fabric.h"
#include "fabric/lft.h"
#include "reroute/reroute.h"
#include "shape/grid_shape.h"

struct dqr_mesh_stats {
	uint32_t links_failed;	/* grid links down that carried routes */
	uint32_t links_bypassed;	/* of those, with a local path */
	uint32_t turns;		/* dependencies the local paths added */
	uint32_t reorders;	/* of those, after a reorder */
};

struct dqr_mesh_plugin;

/*
 * The plug-in for grid g of the reference fabric f (the model the reroute
 * runs on projections of: same switch and port indices).  NULL when out
 * of memory or g is a hypercube.
 */
struct dqr_mesh_plugin *dqr_mesh_plugin_new(const struct dqr_fabric *f,
					    const struct dqr_grid *g);
void dqr_mesh_plugin_free(struct dqr_mesh_plugin *mp);

/* Sets the plug-in into o (mp must outlive o's use). */
void dqr_mesh_plugin_opts(struct dqr_mesh_plugin *mp,
			  struct dqr_reroute_opts *o);

/*
 * The reroute's plug-in call (reroute.h): f the fabric as it is now, t
 * the tables before the repair.  Returns 1 when every failed link that
 * carries routes is bypassed, 0 when some is not, -1 when out of memory.
 */
int dqr_mesh_plugin_run(void *arg, const struct dqr_fabric *f,
			const struct dqr_lfts *t, struct dqr_dyn_order *cl);

/* What the last run did. */
const struct dqr_mesh_stats *dqr_mesh_plugin_stats(
	const struct dqr_mesh_plugin *mp);

#endif
