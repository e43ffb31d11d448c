/*
 * plan.h - a staged transition as data: stages of (switch, DLID) entry
 * changes in upload order.  The planner (transition.h) and the layered
 * planner (plan_layered.h) make one, records (record.h) write and read
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
};

/*
 * A plan must be initialised before its first use; the functions that
 * fill one release what it held first.
 */
void dqr_plan_init(struct dqr_plan *p);
void dqr_plan_release(struct dqr_plan *p);
/* Room for n entries in at most n stages (released first); 0 or -1. */
int dqr_plan_alloc(struct dqr_plan *p, uint32_t n);

#endif
