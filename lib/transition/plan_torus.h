/*
 * plan_torus.h - the layers of an e-cube torus (torus_layers.h) as the
 * layered planner (transition.h: struct dqr_plan_layers) asks them: the
 * layer of a route is dqr_torus_layers_sl() of its source's switch (a
 * CA's: the switch at its cable) and the switch that owns the DLID.
 */
#ifndef DQR_PLAN_TORUS_H
#define DQR_PLAN_TORUS_H

#include "fabric/fabric.h"
#include "repair/torus_layers.h"
#include "transition/transition.h"

struct dqr_torus_plan {
	struct dqr_plan_layers lay;	/* ctx is this struct */
	const struct dqr_torus_layers *tl;
	const struct dqr_fabric *f;
};

/*
 * Fills tp for tl on f, the reference topology (its cables say which
 * switch an end port hangs on, also once the cable failed).  tp must
 * stay where it is while tp->lay is used.
 */
void dqr_torus_plan_init(struct dqr_torus_plan *tp,
			 const struct dqr_torus_layers *tl,
			 const struct dqr_fabric *f);

#endif
