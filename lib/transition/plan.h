/*
 * plan.h - a staged transition as data: stages of (switch, DLID) entry
 * changes in upload order.  The planner (transition.h) and the layered
 * planner (plan_rerouting.h) make one, records (record.h) write and read
 * one, the replay (replay.h) judges one.
 */
#ifndef DQR_PLAN_H
#define DQR_PLAN_H

#include <stdint.h>

struct dqr_plan_entry {
	uint32_t sw;		/* switch index */
	uint32_t lid;
	uint32_t line;		/* record line it was read from, else 0 */
	uint8_t old_port;
	uint8_t new_port;
};

struct dqr_plan {
	uint32_t num_stages;
	uint32_t num_entries;
	struct dqr_plan_entry *entries;	/* upload order */
	/* stage s is entries[stage_off[s] .. stage_off[s + 1]) */
	uint32_t *stage_off;
	/* per stage: its reconfiguration and its number there; the
	 * planner leaves reconfiguration 0 and numbers 1 .. num_stages */
	uint64_t *stage_reconf;
	uint32_t *stage_num;
	/* per stage: why it must wait the drain after the stage before it
	 * is answered (DQR_DRAIN_*), 0 when no packet still in flight can
	 * hurt it.  The planners fill it; plans read from records hold 0 */
	uint8_t *stage_drain;
};

/*
 * Why a stage needs the drain (doc/transitions.md).  Let w be the last
 * state whose older packets are known gone (0 at the start, k - 1 once
 * stage k drained).  Stage k needs none when the union of states w and
 * k is loop free and acyclic: every packet in flight was routed by some
 * mix of states w .. k - 1, and each entry changes once in a plan.
 */
#define DQR_DRAIN_LOOP		0x01u	/* union(w, k) loops */
#define DQR_DRAIN_CYCLE		0x02u	/* union(w, k) is cyclic */
#define DQR_DRAIN_UNSAFE	0x04u	/* the plan is not safe: not judged */
#define DQR_DRAIN_LAYER		0x08u	/* a re-routing layer's drop or add
					 * stage borders it: not judged */
#define DQR_DRAIN_WITHDRAW	0x10u	/* it installs what the stage before
					 * withdrew (transition.h) */

/* "dependency cycle", "plan not safe", ...: the first reason of why. */
const char *dqr_drain_reason(uint8_t why);
/* Stages of p that need the drain. */
uint32_t dqr_plan_drains(const struct dqr_plan *p);

/*
 * 1 when stage s of p only withdraws entries (sets them DQR_NO_PATH):
 * its union adds no dependency to the state before, so it never needs to
 * wait, whatever may be in flight.
 */
int dqr_plan_stage_withdraws(const struct dqr_plan *p, uint32_t s);

/*
 * Checks (util/check.h) the shape every plan keeps: stage_off ascends
 * from 0 to num_entries, so each entry is in exactly one stage.
 * O(stages); called where a plan is made.
 */
void dqr_plan_check(const struct dqr_plan *p);

/*
 * A plan must be initialised before its first use; the functions that
 * fill one release what it held first.
 */
void dqr_plan_init(struct dqr_plan *p);
void dqr_plan_release(struct dqr_plan *p);
/* Room for n entries in at most n stages (released first); 0 or -1. */
int dqr_plan_alloc(struct dqr_plan *p, uint32_t n);

#endif
