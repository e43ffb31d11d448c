/*
 * plan_change.c - the plan for one change of tables, as the plugin makes
 * it and the simulator replays it (transition.h: dqr_plan_change).
 */
#include <string.h>

#include "transition/transition.h"

/*
 * Above this many (switch, LID) entries the exact planner is not tried
 * against a proved plan: its union checks walk every entry, 2.1 s on a
 * 3-tier tree of 1,620 switches and 13,284 LIDs, which would delay the
 * first stage by about as long as the drain it might save.  Below it
 * (2-tier 648-CA trees, 10x10 meshes and smaller: 40k entries and less)
 * it takes milliseconds.
 */
#define EXACT_MAX_ENTRIES (1u << 20)

/*
 * The exact planner's plan instead of the proved one in plan, when it
 * is safe and waits fewer drains: 1 taken, 0 not, -1 out of memory.
 */
static int fewer_drains(const struct dqr_fabric *f,
			const struct dqr_lfts *from, const struct dqr_lfts *to,
			struct dqr_plan *plan, struct dqr_plan_report *rep)
{
	struct dqr_plan_report arep;
	struct dqr_plan alt;

	dqr_plan_init(&alt);
	if (dqr_plan_build(f, from, to, &alt, &arep)) {
		dqr_plan_release(&alt);
		return -1;
	}
	if (!arep.safe || dqr_plan_drains(&alt) >= dqr_plan_drains(plan)) {
		dqr_plan_release(&alt);
		return 0;
	}
	arep.ms += rep->ms;
	dqr_plan_release(plan);
	*plan = alt;
	*rep = arep;
	return 1;
}

int dqr_plan_change(const struct dqr_fabric *f, const struct dqr_lfts *from,
		    const struct dqr_lfts *to, struct dqr_dyn_order *cl,
		    int settled, struct dqr_plan *plan,
		    struct dqr_plan_report *rep)
{
	struct dqr_plan_report wrep;
	size_t mark = 0;
	int r = 0;

	if (cl) {
		mark = dqr_dyn_mark(cl);
		r = dqr_plan_proved(f, from, to, NULL, 0, cl, plan, rep);
	}
	if (r < 0)
		return -1;
	if (r) {
		if (dqr_plan_drains(plan) && settled &&
		    (uint64_t)f->num_switches * to->lid_count <=
		    EXACT_MAX_ENTRIES) {
			r = fewer_drains(f, from, to, plan, rep);
			if (r < 0)
				return -1;
			if (r)
				dqr_dyn_rollback(cl, mark);
		}
		/* the folded plan's dependencies are a part of these: the
		 * list keeps holding what may be in use */
		return dqr_plan_fold_drains(f, plan, rep);
	}
	if (dqr_plan_build(f, from, to, plan, rep))
		return -1;
	if (rep->safe)
		return dqr_plan_fold_drains(f, plan, rep);
	if (!rep->new_ok)
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
