/*
 * plan_withdraw.c - the OSR paper's way across an incompatible change
 * (transition.h: dqr_plan_build_withdraw).
 *
 * When no order of single entries keeps every union of consecutive
 * states acyclic, the old routes that carry the conflicting dependencies
 * must be gone before the new ones appear.  Stage 1 withdraws every
 * changed entry that still forwards somewhere (DQR_NO_PATH: the switch
 * drops such packets), stage 2 installs the new entries after the drain.
 * The union of states 0 and 1 is a part of the old tables, that of
 * states 1 and 2 a part of the new ones: each is loop free and acyclic
 * when its tables are.  The price is that the changed pairs are cut off
 * for the drain; connectivity yields, deadlock freedom does not.
 */
#include <stdlib.h>
#include <string.h>

#include "transition/transition-internal.h"
#include "util/check.h"
#include "util/timing.h"

/* 1 when the entry forwards on a channel in t: it carries dependencies. */
static int forwards(const struct dqr_fabric *f, const struct dqr_lfts *t,
		    uint32_t sw, uint32_t lid)
{
	return dqr_next_channel(f, t, sw, lid) != DQR_NONE;
}

/*
 * The changed entries into plan: withdrawals (every one that forwards
 * in from, and every one that ends without a path) as stage 1 at the
 * front, installs behind them.  Counts into *nw and *ni.
 */
static void split_changes(const struct dqr_fabric *f,
			  const struct dqr_lfts *from,
			  const struct dqr_lfts *to, uint32_t lc,
			  struct dqr_plan_entry *wd, struct dqr_plan_entry *in,
			  uint32_t *nw, uint32_t *ni)
{
	uint32_t sw, lid;
	uint8_t a, b;
	int fw;

	*nw = *ni = 0;
	for (sw = 0; sw < f->num_switches; sw++)
		for (lid = 0; lid < lc; lid++) {
			a = dqr_lft_get(from, sw, lid);
			b = dqr_lft_get(to, sw, lid);
			if (a == b)
				continue;
			fw = forwards(f, from, sw, lid);
			if (fw || b == DQR_NO_PATH)
				wd[(*nw)++] = (struct dqr_plan_entry){
					.sw = sw, .lid = lid, .old_port = a,
					.new_port = DQR_NO_PATH };
			if (b != DQR_NO_PATH)
				in[(*ni)++] = (struct dqr_plan_entry){
					.sw = sw, .lid = lid,
					.old_port = fw ? DQR_NO_PATH : a,
					.new_port = b };
		}
}

int dqr_plan_build_withdraw(const struct dqr_fabric *f,
			    const struct dqr_lfts *from,
			    const struct dqr_lfts *to, struct dqr_plan *plan,
			    struct dqr_plan_report *rep)
{
	struct dqr_plan_entry *in;
	double t0 = dqr_now_ms();
	uint32_t lc, sw, lid, n = 0, nw, ni, i, s;
	uint8_t *lid_seen, *sw_seen;

	memset(rep, 0, sizeof(*rep));
	lc = from->lid_count > to->lid_count ? from->lid_count : to->lid_count;
	for (sw = 0; sw < f->num_switches; sw++)
		for (lid = 0; lid < lc; lid++)
			n += dqr_lft_get(from, sw, lid) !=
			     dqr_lft_get(to, sw, lid);
	in = malloc(sizeof(*in) * (n ? n : 1));
	lid_seen = calloc(lc ? lc : 1, 1);
	sw_seen = calloc(f->num_switches ? f->num_switches : 1, 1);
	if (!in || !lid_seen || !sw_seen || dqr_plan_alloc(plan, 2 * n)) {
		free(in);
		free(lid_seen);
		free(sw_seen);
		return -1;
	}
	split_changes(f, from, to, lc, plan->entries, in, &nw, &ni);
	memcpy(plan->entries + nw, in, sizeof(*in) * ni);
	plan->num_entries = nw + ni;
	plan->num_stages = 0;
	plan->stage_off[0] = 0;
	if (nw) {
		plan->stage_drain[0] = 0;
		plan->stage_off[++plan->num_stages] = nw;
	}
	if (ni) {
		/* the withdrawn routes' packets must be gone first */
		plan->stage_drain[plan->num_stages] = nw ? DQR_DRAIN_WITHDRAW :
						       0;
		plan->stage_off[++plan->num_stages] = nw + ni;
	}
	for (s = 0; s < plan->num_stages; s++) {
		plan->stage_num[s] = s + 1;
		plan->stage_reconf[s] = 0;
	}
	for (i = 0; i < plan->num_entries; i++) {
		lid_seen[plan->entries[i].lid] = 1;
		sw_seen[plan->entries[i].sw] = 1;
	}
	for (i = 0; i < lc; i++)
		rep->dlids += lid_seen[i];
	for (i = 0; i < f->num_switches; i++)
		rep->switches += sw_seen[i];
	rep->entries = n;
	rep->stages = plan->num_stages;
	rep->levels = plan->num_stages;
	rep->max_stage = nw > ni ? nw : ni;
	rep->withdrawn = nw;
	rep->safe = 1;
	/* every change withdrawn, installed, or both: in one stage each */
	dqr_plan_check(plan);
	DQR_CHECK(nw <= n && ni <= n && nw + ni >= n);
	free(in);
	free(lid_seen);
	free(sw_seen);
	rep->ms = dqr_now_ms() - t0;
	return 0;
}
