/*
 * transition.h - staged LFT transitions: the planner.
 *
 * Every change of tables becomes a plan: stages of (switch, DLID) entry
 * changes, uploaded one stage after the other.  While stage k is being
 * uploaded a switch may forward by its old or its new entry for each
 * entry of stage k; entries of earlier stages are new, later ones old.
 * The union of state k-1 and state k must then be
 *
 *   loop free:  per DLID, the graph in which every switch has up to two
 *               out-edges (old and new entry) is acyclic;
 *   acyclic:    the channel dependency graph of every combination is
 *               acyclic: (W->X)->(X->Y) exists when W's old or new entry
 *               leads to X and X's old or new entry leads to Y; end
 *               ports inject towards every LID but their own, switches
 *               are sources too (port 0).
 *
 * This assumes what the stage boundary means in OpenSM: the next stage is
 * sent only once the previous one is in force everywhere (and packets
 * routed by states before k-1 have drained, unless the plan says stage
 * k needs no drain: plan.h), as OSR (the OSR paper) assumes one
 * reconfiguration at a time.
 */
#ifndef DQR_TRANSITION_H
#define DQR_TRANSITION_H

#include <stdint.h>

#include "fabric/fabric.h"
#include "fabric/lft.h"
#include "transition/plan.h"
#include "transition/union_check.h"

struct dqr_plan_report {
	uint32_t entries;	/* changed entries */
	uint32_t dlids;		/* DLIDs with a changed entry */
	uint32_t switches;	/* switches with a changed entry */
	uint32_t levels;	/* stages of the dependency order */
	uint32_t stages;	/* stages of the plan */
	uint32_t max_stage;	/* entries in the largest stage */
	uint32_t splits;	/* levels whose union failed as a whole */
	uint64_t checks;	/* union checks (or candidates) tried */
	double ms;
	int old_ok, new_ok;	/* each table alone loop free and acyclic */
	int safe;		/* every stage union checked and holds */
	uint32_t forced;	/* entries staged although their union fails */
	uint32_t stages_cyclic;	/* stages opened on a cyclic state */
	char reason[2048];	/* why not safe; "" when safe */
};

/*
 * Plans the change of from into to on f (tables of f's switches; LIDs
 * beyond one table's end count as DQR_NO_PATH there).  Every entry that
 * differs is in exactly one stage.
 *
 *   1. Per DLID, an order of its changed switches: a switch changes only
 *      after every changed switch downstream on its new route (so it
 *      takes its new route when that route already forwards: no loop
 *      can form), and, where that does not contradict it, before its old
 *      next hop when that changes too and is not on its new route
 *      (upstream leaves first, so no packet is routed old, then new).
 *   2. List scheduling: a stage takes, wave after wave, every entry whose
 *      predecessors are staged or in force and whose addition keeps the
 *      stage union loop free and acyclic, first fit: everything at once
 *      when it fits (a change compatible with the channel list is one
 *      stage per wave of order, usually merged into one), else in the
 *      channel-dependency order of the old tables (upstream channels
 *      first, as OSR's tokens travel), destination by destination, then
 *      entry by entry.  What does not fit waits for the next stage.
 *   3. When nothing fits even alone, any pending entry that fits is
 *      taken out of order; when none does, no order can bridge the old
 *      and new functions from here: the first entry is staged alone,
 *      rep->safe is 0 and rep->reason says which entry, and the loop or
 *      the channels of the cycle its union closes.  While the state in
 *      force is then cyclic, stages are judged for loops only (the
 *      unsafe stretch is kept to as few stages as possible).
 *
 * When the old or new tables themselves loop or are cyclic, no order can
 * help either: rep->safe is 0 with the reason; DLIDs that loop there are
 * not judged for loops, and a cycle there stops dependencies from being
 * judged (the plan is then loop free only).  Returns 0, or -1 when out
 * of memory.  plan is released and refilled.
 */
int dqr_plan_build(const struct dqr_fabric *f, const struct dqr_lfts *from,
		   const struct dqr_lfts *to, struct dqr_plan *plan,
		   struct dqr_plan_report *rep);

/*
 * Which stages of p, a plan from the tables from, need the drain
 * (plan.h: stage_drain), judged as dqr_plan_build() judges its own: for
 * plans made otherwise (by hand, read from records).  It assumes what a
 * plan guarantees, that the union of every two consecutive states holds
 * (dqr_plan_replay() judges that).  A plan in which an entry changes in
 * more than one stage (a re-routing layer's, several records together)
 * is not judged: every stage after the first waits (DQR_DRAIN_UNSAFE).
 * stage_drain is allocated when NULL.  0, or -1 when out of memory
 * (every stage after the first then waits).
 */
int dqr_plan_mark_drains(const struct dqr_fabric *f,
			 const struct dqr_lfts *from, struct dqr_plan *p);

#endif
