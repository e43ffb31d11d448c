/*
 * replay.h - judging uploads that are not the planner's own: a plan as
 * recorded (replayed stage by stage from the tables it started from) and
 * OpenSM's one-shot upload of a whole change.
 */
#ifndef DQR_REPLAY_H
#define DQR_REPLAY_H

#include <stdint.h>

#include "fabric/fabric.h"
#include "fabric/lft.h"
#include "transition/plan.h"
#include "transition/union_check.h"

/* ---------------------------------------------------------------- replay */

struct dqr_stage_result {
	uint64_t reconf_id;
	uint32_t stage;			/* its number in the plan */
	uint32_t entries;
	uint32_t mismatches;		/* old port was not the entry */
	uint32_t first_mismatch;	/* plan entry index, or DQR_NONE */
	uint8_t found_port;		/* what that entry held */
	struct dqr_union_verdict v;
};

struct dqr_replay_report {
	uint32_t num_stages;
	struct dqr_stage_result *stages;
	uint32_t bad_stages;		/* union loops or is cyclic */
	uint64_t mismatches;
	double ms;
};

static inline int dqr_replay_ok(const struct dqr_replay_report *r)
{
	return !r->bad_stages && !r->mismatches;
}

/*
 * Applies p's stages to start in order and judges the union of the
 * states before and after every stage.  A record whose old port is not
 * what the entry holds is counted; the union then has what the entry
 * really held and the new port.  With end_out not NULL it receives the
 * final tables (lid_count grown to the highest DLID of p if needed).
 * Returns 0, or -1 when out of memory.
 */
int dqr_plan_replay(const struct dqr_fabric *f, const struct dqr_lfts *start,
		    const struct dqr_plan *p, struct dqr_lfts **end_out,
		    struct dqr_replay_report *r);
void dqr_replay_report_release(struct dqr_replay_report *r);

/* ---------------------------------------------------------------- one shot */

/*
 * A one-shot upload from old to new (OpenSM's own: every changed block
 * of every switch at once, switches in no particular order).  Judged:
 *
 *   whole   the union of old and new as one stage: any switch may
 *           forward any changed entry by either table.  Every state the
 *           upload can pass through, and every pair of them, lies inside
 *           it: the worst case.
 *   first   per switch s with a change, the union of old and the state
 *           where only s has switched (s uploaded first);
 *   last    per switch s, the union of new and the state where every
 *           switch but s has switched (s uploaded last).
 *
 * first and last are the states at both ends of every switch-by-switch
 * order: 2 per changed switch.  A state is bad when its union loops
 * towards some DLID or has a dependency cycle.
 */
struct dqr_one_shot_report {
	uint64_t entries;		/* entries that differ */
	uint32_t switches;		/* switches with one */
	uint32_t dlids;			/* DLIDs with one */
	uint32_t old_loop_dlids, new_loop_dlids;
	int old_cyclic, new_cyclic;
	struct dqr_union_verdict whole;
	uint32_t states;		/* first + last states judged */
	uint32_t first_loop, first_cyclic, first_bad;
	uint32_t last_loop, last_cyclic, last_bad;
	/* a switch whose first / last state is bad, or DQR_NONE */
	uint32_t first_bad_sw, last_bad_sw;
	double ms;
};

static inline int dqr_one_shot_ok(const struct dqr_one_shot_report *r)
{
	return dqr_union_ok(&r->whole);
}

/*
 * Judges the one-shot upload from old to new into r: old and new alone,
 * the whole union, then each changed switch first and last, with one
 * union checker that only recomputes the DLIDs a state changes.  0, or -1
 * when out of memory (r released).  dqr_one_shot_report_release() frees
 * what r holds and zeroes it.
 */
int dqr_one_shot_judge(const struct dqr_fabric *f, const struct dqr_lfts *old,
		       const struct dqr_lfts *new_t,
		       struct dqr_one_shot_report *r);
void dqr_one_shot_report_release(struct dqr_one_shot_report *r);

#endif
