/*
 * plane_entry.h - the fat tree's topology plug-in (the DQR paper, section
 * IV.C): a way back into the plane of a lost switch on the anchor's side.
 *
 * The plane of a switch d: the other lower switches of its group above
 * (ftree_shape.h), in a k-ary n-tree the switches at d's level that share
 * d's upper switches, and (through them) those upper switches.  When d
 * is an up*-ancestor of the anchor below the top, the switch routes of
 * uturn_route.h reach the anchor from the plane, and the plane from the
 * anchor, through d.  With d gone, the only ways left cross the plane's
 * border at a switch one level below it: a U-turn there, from a switch
 * of another plane into the plane (towards the plane's switches) or out
 * of it (towards the anchor).  DQR repairs destination by destination
 * and places the crossings out of the plane first, each at the U-turn
 * switch of its own group; a crossing in at one lower switch and one out
 * at another close a cycle with the old routes, and the crossings in are
 * then refused for every switch of the plane: the repair fails and the
 * plugin falls back to a full routing (a drain, pairs cut meanwhile).
 *
 * So before the search, for each such d, this plug-in enables one
 * crossing in: at the lower switch x nearest the anchor (outside d's
 * group below) that is cabled to the plane and to another switch at d's
 * level, the U-turn (that switch -> x) -> (x -> the plane's switch).
 * DQR's search then keeps the crossings at x, the repair is legal and
 * touches only broken entries.  On the 4-ary 3-tree this turns the loss
 * of each switch of the anchor's pod above its leaves from a fallback
 * into a one-stage repair without a drain (doc/transitions.md).
 *
 * Nothing else changes: a fault elsewhere has no such d, and the turn is
 * only enabled where the channel list admits it (a refused one is left
 * to the search).  O(switches x ports) per run.
 */
#ifndef DQR_PLANE_ENTRY_H
#define DQR_PLANE_ENTRY_H

#include "deps/dyn_order.h"
#include "fabric/fabric.h"
#include "fabric/lft.h"
#include "shape/ftree_shape.h"

struct dqr_plane_entry;

/*
 * The plug-in for fat tree ft of the reference fabric ref (the model the
 * reroute runs on projections of: same switch and port indices; ft must
 * outlive it).  NULL when out of memory.
 */
struct dqr_plane_entry *dqr_plane_entry_new(const struct dqr_fabric *ref,
					    const struct dqr_ftree *ft);
void dqr_plane_entry_free(struct dqr_plane_entry *pe);

/*
 * The plug-in itself (reroute.h's plugin; arg a struct dqr_plane_entry).
 * Returns 0 (the search must still find the routes), -1 when out of
 * memory.
 */
int dqr_plane_entry(void *arg, const struct dqr_fabric *f,
		    const struct dqr_lfts *t, struct dqr_dyn_order *cl);

#endif
