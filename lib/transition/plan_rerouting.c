/*
 * plan_rerouting.c - drop the old fill, plan the one-layer part, add the
 * new fill.
 */
#include <stdlib.h>
#include <string.h>

#include "transition/plan_rerouting.h"

/* Appends e as one more entry of the open stage. */
static void put(struct dqr_plan *p, uint32_t sw, uint32_t lid, uint8_t old,
		uint8_t new_port)
{
	struct dqr_plan_entry *e = &p->entries[p->num_entries++];

	e->sw = sw;
	e->lid = lid;
	e->line = 0;
	e->old_port = old;
	e->new_port = new_port;
}

/*
 * Closes the open stage when it holds anything; drain: why it waits
 * (plan.h), unless it is the first.
 */
static void close_stage(struct dqr_plan *p, uint8_t drain)
{
	uint32_t s = p->num_stages;

	if (p->num_entries == p->stage_off[s])
		return;
	p->stage_num[s] = s + 1;
	p->stage_drain[s] = s ? drain : 0;
	p->num_stages++;
	p->stage_off[s + 1] = p->num_entries;
}

/*
 * The report's figures of the finished plan p: entries, stages, the
 * largest stage, and the switches and DLIDs it touches (seen_* are the
 * caller's zeroed marks).
 */
static void count(const struct dqr_plan *p, uint32_t lid_count,
		  uint8_t *seen_sw, uint8_t *seen_lid,
		  struct dqr_plan_report *rep)
{
	uint32_t i, s;

	rep->entries = p->num_entries;
	rep->stages = p->num_stages;
	rep->switches = 0;
	rep->dlids = 0;
	rep->max_stage = 0;
	for (s = 0; s < p->num_stages; s++)
		if (p->stage_off[s + 1] - p->stage_off[s] > rep->max_stage)
			rep->max_stage = p->stage_off[s + 1] - p->stage_off[s];
	for (i = 0; i < p->num_entries; i++) {
		rep->switches += !seen_sw[p->entries[i].sw];
		seen_sw[p->entries[i].sw] = 1;
		if (p->entries[i].lid < lid_count) {
			rep->dlids += !seen_lid[p->entries[i].lid];
			seen_lid[p->entries[i].lid] = 1;
		}
	}
}

int dqr_plan_build_rerouting(const struct dqr_fabric *f,
			     const struct dqr_lfts *from,
			     const struct dqr_lfts *one,
			     const struct dqr_lfts *to,
			     const struct dqr_change *drop, uint32_t ndrop,
			     struct dqr_plan *plan,
			     struct dqr_plan_report *rep)
{
	struct dqr_lfts *start = dqr_lfts_clone(from);
	struct dqr_plan mid;
	struct dqr_lft_diff add;
	uint8_t *seen_sw = NULL, *seen_lid = NULL;
	uint32_t i, s, sw, lid, lc = one->lid_count;
	int ret = -1;

	dqr_plan_init(&mid);
	if (!start)
		goto out;
	for (i = 0; i < ndrop; i++) {
		uint8_t held = dqr_lft_get(start, drop[i].sw, drop[i].lid);

		if (drop[i].lid >= lc || held == DQR_NO_PATH ||
		    held == dqr_lft_get(one, drop[i].sw, drop[i].lid))
			continue;
		dqr_lft_set(start, drop[i].sw, drop[i].lid, DQR_NO_PATH);
	}
	if (dqr_plan_build(f, start, one, &mid, rep))
		goto out;
	dqr_lfts_diff(one, to, &add);
	if (dqr_plan_alloc(plan, ndrop + mid.num_entries +
			   (uint32_t)add.entries))
		goto out;
	/* stage 1: the entries the loop above took out of start */
	for (i = 0; i < ndrop; i++) {
		uint32_t d_sw = drop[i].sw, d_lid = drop[i].lid;
		uint8_t held = dqr_lft_get(from, d_sw, d_lid);

		if (d_lid < lc && dqr_lft_get(start, d_sw, d_lid) != held)
			put(plan, d_sw, d_lid, held, DQR_NO_PATH);
	}
	close_stage(plan, 0);
	/*
	 * Entries dropped come back in the one-layer part: changed twice,
	 * the union of its first state with the state before the drop
	 * would not hold every mix, so its first stage waits.  Its later
	 * stages are judged from there as dqr_plan_build() judged them.
	 */
	for (s = 0; s < mid.num_stages; s++) {
		for (i = mid.stage_off[s]; i < mid.stage_off[s + 1]; i++)
			plan->entries[plan->num_entries++] = mid.entries[i];
		close_stage(plan, s ? mid.stage_drain[s] : DQR_DRAIN_LAYER);
	}
	for (sw = 0; sw < one->num_switches; sw++)
		for (lid = 1; lid < lc; lid++)
			if (dqr_lft_get(one, sw, lid) !=
			    dqr_lft_get(to, sw, lid))
				put(plan, sw, lid, dqr_lft_get(one, sw, lid),
				    dqr_lft_get(to, sw, lid));
	/* the fill is judged in two VLs by design, not by a union here */
	close_stage(plan, DQR_DRAIN_LAYER);
	seen_sw = calloc((size_t)one->num_switches + 1, 1);
	seen_lid = calloc((size_t)lc + 1, 1);
	if (!seen_sw || !seen_lid)
		goto out;
	count(plan, lc, seen_sw, seen_lid, rep);
	dqr_plan_check(plan);
	ret = 0;
out:
	if (ret)
		dqr_plan_release(plan);
	free(seen_sw);
	free(seen_lid);
	dqr_plan_release(&mid);
	dqr_lfts_free(start);
	return ret;
}
