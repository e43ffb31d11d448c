/*
 * check_change.c - DQR's update judged where it changed the tables
 * (dqr_react_check_change(), reaction.h): the fast path's proof before
 * its upload, and the fault-tolerance walk's per fault, at the cost of
 * the routes the fault touched instead of the whole fabric's.
 */
#include <string.h>

#include "reaction/reaction.h"

int dqr_react_check_change(struct dqr_reactor *x,
			   const struct dqr_fabric *proj,
			   const struct dqr_topo_diff *d,
			   const struct dqr_lfts *held,
			   const struct dqr_reaction *r,
			   struct dqr_change_report *rep)
{
	struct dqr_recon *rc = &x->recon;

	memset(rep, 0, sizeof(*rep));
	/*
	 * One layer, DQR's own incremental change: its list orders every
	 * dependency of the tables held and of the new ones.  A restart,
	 * a second layer, virtual layers or a base's own SLs are judged
	 * whole.
	 */
	if (!x->ready || !rc->cl || !rc->rr || r->answer !=
	    DQR_ANSWER_UPDATE || r->layer != 0 || r->target != rc->cur ||
	    x->topo.base_sls || dqr_react_second_layer(x))
		return 0;
	if (!x->check) {
		x->check = dqr_change_check_new(rc->ref);
		if (!x->check)
			return -1;
	}
	if (dqr_recon_check_change(rc, x->check, proj, held,
				   d->missing_ports, d->num_missing_ports,
				   rep))
		return -1;
	return rep->ok;
}
