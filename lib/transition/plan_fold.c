/*
 * plan_fold.c - at most one drain per plan (transition.h:
 * dqr_plan_fold_drains).
 *
 * A plan whose stages wait several drains keeps the pairs of its late
 * stages cut off for seconds each (a drain is two LifeTimes, 2148 ms
 * with OpenSM's defaults).  The OSR paper's withdrawal bounds that to
 * one: the stages before the first drain go up as planned, and the last
 * of them also withdraws every later entry that still forwards in the
 * tables held (DQR_NO_PATH: the switch drops those packets); after one
 * drain every later entry goes up at once.
 *
 * Why each state stays safe: a withdrawal adds no dependency, so the
 * stages before the drain keep the unions and the time order the
 * planner judged.  Once they drained, a packet in flight was routed by
 * the state they left, whose every entry is either final, unchanged
 * (final too) or withdrawn; its union with the final tables is the
 * final tables, loop free and acyclic.  The price: a later entry whose
 * old route still delivered is cut off for that one drain instead of
 * waiting in force for its stage.
 */
#include <stdlib.h>
#include <string.h>

#include "fabric/relay.h"
#include "transition/transition.h"
#include "util/check.h"

/* The first stage that waits a drain; p->num_stages when none. */
static uint32_t first_wait(const struct dqr_plan *p)
{
	uint32_t s;

	for (s = 1; s < p->num_stages; s++)
		if (p->stage_drain[s])
			return s;
	return p->num_stages;
}

int dqr_plan_fold_drains(const struct dqr_fabric *f, struct dqr_plan *p,
			 struct dqr_plan_report *rep)
{
	const struct dqr_plan_entry *e;
	struct dqr_plan q;
	uint32_t s, i, lo, n, nw = 0, ni = 0;
	int fw;

	if (dqr_plan_drains(p) <= 1)
		return 0;
	s = first_wait(p);
	lo = p->stage_off[s];
	n = p->num_entries - lo;
	dqr_plan_init(&q);
	if (dqr_plan_alloc(&q, lo + 2 * n))
		return -1;
	memcpy(q.entries, p->entries, sizeof(*q.entries) * lo);
	/* withdrawals behind the last stage before the drain */
	for (i = lo; i < p->num_entries; i++) {
		e = &p->entries[i];
		if (dqr_out_channel(f, e->sw, e->old_port) == DQR_NONE)
			continue;
		q.entries[lo + nw] = *e;
		q.entries[lo + nw++].new_port = DQR_NO_PATH;
	}
	/* then, after one drain, everything else at once */
	for (i = lo; i < p->num_entries; i++) {
		e = &p->entries[i];
		fw = dqr_out_channel(f, e->sw, e->old_port) != DQR_NONE;
		if (e->new_port == DQR_NO_PATH && fw)
			continue;
		q.entries[lo + nw + ni] = *e;
		if (fw)
			q.entries[lo + nw + ni].old_port = DQR_NO_PATH;
		ni++;
	}
	for (i = 0; i < s; i++) {
		q.stage_off[i] = p->stage_off[i];
		q.stage_num[i] = i + 1;
		q.stage_reconf[i] = 0;
		q.stage_drain[i] = p->stage_drain[i];
	}
	q.stage_off[s] = lo + nw;
	q.num_stages = s;
	if (ni) {
		q.stage_num[s] = s + 1;
		q.stage_reconf[s] = 0;
		q.stage_drain[s] = DQR_DRAIN_WITHDRAW;
		q.num_stages = s + 1;
	}
	q.num_entries = lo + nw + ni;
	q.stage_off[q.num_stages] = q.num_entries;
	dqr_plan_check(&q);
	DQR_CHECK(dqr_plan_drains(&q) <= 1);
	rep->folded = p->num_stages - s;
	rep->withdrawn += nw;
	rep->stages = q.num_stages;
	rep->max_stage = 0;
	for (i = 0; i < q.num_stages; i++)
		if (q.stage_off[i + 1] - q.stage_off[i] > rep->max_stage)
			rep->max_stage = q.stage_off[i + 1] - q.stage_off[i];
	dqr_plan_release(p);
	*p = q;
	return 0;
}
