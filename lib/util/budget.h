/*
 * budget.h - how much time and memory one piece of work may take.
 *
 * The plugin runs inside OpenSM's sweep: a reconfiguration that takes
 * too long or grows the heap too far holds every other sweep duty.  The
 * long loops ask dqr_budget_over() once per step and stop cleanly when
 * it says so; the caller then takes its fallback.  lib/ cannot know how
 * the process measures its memory, so the caller hands in a probe.
 */
#ifndef DQR_BUDGET_H
#define DQR_BUDGET_H

#include <stddef.h>
#include <stdint.h>

#include "util/timing.h"

enum dqr_budget_kind {
	DQR_BUDGET_OK = 0,
	DQR_BUDGET_TIME,	/* past deadline_ms */
	DQR_BUDGET_MEMORY,	/* the probe reported more than mem_limit */
};

struct dqr_budget {
	double deadline_ms;	/* on dqr_now_ms()'s clock */
	/* bytes of memory in use now; NULL: memory is not watched */
	size_t (*mem_used)(void *arg);
	void *mem_arg;
	size_t mem_limit;	/* what mem_used() may report */
	uint32_t steps;		/* since memory was last probed */
	int over;		/* enum dqr_budget_kind, sticky */
};

/*
 * A probe costs a system call or more: one look every this many steps.
 * A step of the reroute allocates little, so the overshoot is small
 * against any sane limit.
 */
#define DQR_BUDGET_MEM_EVERY 64

/* Whether b (NULL: no budget) is spent; once spent, it stays spent. */
static inline int dqr_budget_over(struct dqr_budget *b)
{
	if (!b || b->over)
		return b ? b->over : DQR_BUDGET_OK;
	if (dqr_now_ms() >= b->deadline_ms)
		b->over = DQR_BUDGET_TIME;
	else if (b->mem_used && ++b->steps >= DQR_BUDGET_MEM_EVERY) {
		b->steps = 0;
		if (b->mem_used(b->mem_arg) > b->mem_limit)
			b->over = DQR_BUDGET_MEMORY;
	}
	return b->over;
}

#endif
