/*
 * plan.c - the plan's own storage.  Separate because every other file
 * of the module makes, reads or walks plans, and none owns them.
 */
#include <stdlib.h>
#include <string.h>

#include "transition/plan.h"

void dqr_plan_init(struct dqr_plan *p)
{
	memset(p, 0, sizeof(*p));
}

void dqr_plan_release(struct dqr_plan *p)
{
	free(p->entries);
	free(p->stage_off);
	free(p->stage_reconf);
	free(p->stage_num);
	dqr_plan_init(p);
}

int dqr_plan_alloc(struct dqr_plan *p, uint32_t n)
{
	dqr_plan_release(p);
	p->entries = malloc(sizeof(*p->entries) * (n ? n : 1));
	p->stage_off = calloc((size_t)n + 2, sizeof(uint32_t));
	p->stage_reconf = calloc((size_t)n + 1, sizeof(uint64_t));
	p->stage_num = calloc((size_t)n + 1, sizeof(uint32_t));
	if (!p->entries || !p->stage_off || !p->stage_reconf ||
	    !p->stage_num) {
		dqr_plan_release(p);
		return -1;
	}
	return 0;
}
