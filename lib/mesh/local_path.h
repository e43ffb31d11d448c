/*
 * local_path.h - a short path around a failed grid link, and what one
 * destination's tree does when it takes it: the common part of the DQR
 * paper's mesh plug-in (IV.C) on one layer (mesh_plugin.h) and on the
 * virtual layers of a torus (vlayers.h).
 *
 * The failed link a->b lies in dimension k.  Its local path steps aside in
 * another dimension j, runs along k and steps back: a->a'->b'->b.  The
 * side is chosen towards the centre of dimension j first, as the paper
 * does, so that local paths of nearby faults turn the same way.
 *
 * Destination-based forwarding: for a DLID whose route crossed a->b, a
 * forwards to a' instead; a' forwards to b' only when its own route led
 * back to a (or over a dead port), else the packet leaves the path there
 * on a''s route; b' likewise.  Those entries are the patch.
 */
#ifndef DQR_LOCAL_PATH_H
#define DQR_LOCAL_PATH_H

#include <stdint.h>

#include "fabric/fabric.h"
#include "fabric/lft.h"
#include "shape/grid_nbr.h"

#define DQR_LOCAL_PATH_LEN 4	/* switches of a->a'->b'->b */

struct dqr_local_path {
	uint32_t sw[DQR_LOCAL_PATH_LEN];
	uint8_t port[DQR_LOCAL_PATH_LEN - 1];	/* sw[i]'s towards sw[i+1] */
};

/* 1 when switch a's centre lies downwards of it in dimension j. */
int dqr_local_path_centre_minus(const struct dqr_grid_nbrs *n, uint32_t a,
				unsigned j);

/*
 * The path from a around its link in dimension k (downwards if k_minus):
 * aside in dimension j (downwards if j_minus), along k, back.  1 with lp
 * filled when every switch and cable of it is there in f, else 0.
 */
int dqr_local_path_aside(const struct dqr_grid_nbrs *n,
			 const struct dqr_fabric *f, uint32_t a, unsigned k,
			 int k_minus, unsigned j, int j_minus,
			 struct dqr_local_path *lp);

/*
 * The patch of lid's tree in t when it takes lp: the switches in sw[] and
 * their new ports in port[] (at most DQR_LOCAL_PATH_LEN - 1).  Returns
 * their number, or -1 when the path's end would send lid back into it.
 */
int dqr_local_path_patch(const struct dqr_local_path *lp,
			 const struct dqr_fabric *f, const struct dqr_lfts *t,
			 uint32_t lid, uint32_t *sw, uint8_t *port);

/*
 * Calls fn(arg, a, b, k) for every grid link, from switch a to its +
 * neighbour b in dimension k, that f lacks and some route of t still
 * crosses, in either direction: the links a plug-in must bypass.  The
 * switches a are taken in GUID order, whatever the model's numbering.
 * Returns 0, fn's first non-zero value, or -1 when out of memory.
 */
int dqr_local_path_each_dead(const struct dqr_grid_nbrs *n,
			     const struct dqr_fabric *f,
			     const struct dqr_lfts *t,
			     int (*fn)(void *arg, uint32_t a, uint32_t b,
				       unsigned k),
			     void *arg);

#endif
