/*
 * plan_vlayers.h - the layers of an e-cube torus (vlayers.h) as the
 * layered planner (transition.h: struct dqr_plan_vlayers) asks them: the
 * layer of a route is dqr_vlayers_sl() of its source's switch (a
 * CA's: the switch at its cable) and the switch that owns the DLID.
 */
#ifndef DQR_PLAN_VLAYERS_H
#define DQR_PLAN_VLAYERS_H

#include "fabric/fabric.h"
#include "vlayers/vlayers.h"
#include "transition/transition.h"

struct dqr_vlayers_plan {
	struct dqr_plan_vlayers lay;	/* ctx is this struct */
	const struct dqr_vlayers *tl;
	const struct dqr_fabric *f;
	/* the SLs the SA answers (dqr_vlayers_plan_sent()), else NULL */
	const struct dqr_vlayers_sls *answered;
};

/*
 * Fills tp for tl on f, the reference topology (its cables say which
 * switch an end port hangs on, also once the cable failed).  tp must
 * stay where it is while tp->lay is used.
 */
void dqr_vlayers_plan_init(struct dqr_vlayers_plan *tp,
			 const struct dqr_vlayers *tl,
			 const struct dqr_fabric *f);
/*
 * The same for the packets sent while tables made with tl's SLs go up
 * and the SA still answers those of answered: a pair whose SL the two
 * disagree on is left out (DQR_PLAN_UNJUDGED), the others keep theirs
 * (transition.h: dqr_plan_change_vlayers()'s sent); answered NULL, or
 * no pair they disagree on: dqr_vlayers_plan_init().
 */
void dqr_vlayers_plan_sent(struct dqr_vlayers_plan *tp,
			   const struct dqr_vlayers *tl,
			   const struct dqr_fabric *f,
			   const struct dqr_vlayers_sls *answered);

#endif
