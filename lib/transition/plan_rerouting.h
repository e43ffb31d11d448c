/*
 * plan_rerouting.h - the staged change into tables that carry a re-routing
 * layer (rerouting_layer.h).
 *
 * The planner (transition.h) judges every intermediate state in one
 * layer, and tables with a re-routing layer are cyclic there by design.
 * So the change is split around the layer:
 *
 *   drop   the entries the previous fill wrote that the new one-layer
 *          tables do not hold become DQR_NO_PATH: routes only vanish, so
 *          nothing can loop and no dependency appears;
 *   one    the one-layer part (recon's tables), planned and judged by
 *          dqr_plan_build() as every other change;
 *   add    the new fill, all at once: per DLID it is a tree grown from
 *          routes in force, so any part of it is loop free, and its
 *          dependencies are a subset of the target's, which the two VLs
 *          keep acyclic.
 *
 * A fill entry that stays the same but is not in the one-layer tables is
 * dropped and added again: its sources lose the route for the few
 * stages in between (they had none before the layer either, or the
 * fault that needed the layer changed their route anyway).
 */
#ifndef DQR_PLAN_REROUTING_H
#define DQR_PLAN_REROUTING_H

#include <stdint.h>

#include "fabric/fabric.h"
#include "fabric/lft.h"
#include "reroute/reroute.h"
#include "transition/transition.h"

/*
 * From from (held by the switches) to to, whose one-layer part is one;
 * drop: the fill in force, each entry once (NULL, 0 when none).  rep is
 * dqr_plan_build()'s for the one-layer part, with entries, switches,
 * dlids, stages and max_stage counting the whole plan.  0, or -1 when out
 * of memory.
 */
int dqr_plan_build_rerouting(const struct dqr_fabric *f,
			     const struct dqr_lfts *from,
			     const struct dqr_lfts *one,
			     const struct dqr_lfts *to,
			     const struct dqr_change *drop, uint32_t ndrop,
			     struct dqr_plan *plan,
			     struct dqr_plan_report *rep);

#endif
