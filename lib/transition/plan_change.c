/*
 * plan_change.c - the plan for one change of tables, as the plugin makes
 * it and the simulator replays it (transition.h: dqr_plan_change).
 */
#include <string.h>

#include "transition/transition.h"

int dqr_plan_change(const struct dqr_fabric *f, const struct dqr_lfts *from,
		    const struct dqr_lfts *to, struct dqr_dyn_order *cl,
		    struct dqr_plan *plan, struct dqr_plan_report *rep)
{
	struct dqr_plan_report wrep;
	int r = 0;

	if (cl)
		r = dqr_plan_proved(f, from, to, NULL, 0, cl, plan, rep);
	if (r)
		return r < 0 ? -1 : 0;
	if (dqr_plan_build(f, from, to, plan, rep))
		return -1;
	if (rep->safe || !rep->new_ok)
		return 0;
	/* no order of single entries: withdraw, drain, install */
	if (dqr_plan_build_withdraw(f, from, to, plan, &wrep))
		return -1;
	wrep.old_ok = rep->old_ok;
	wrep.new_ok = rep->new_ok;
	wrep.checks = rep->checks;
	wrep.ms += rep->ms;
	memcpy(wrep.reason, rep->reason, sizeof(wrep.reason));
	*rep = wrep;
	return 0;
}
