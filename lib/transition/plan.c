/*
 * plan.c - the plan's own storage.  Separate because every other file
 * of the module makes, reads or walks plans, and none owns them.
 */
#include <stdlib.h>
#include <string.h>

#include "fabric/fabric.h"
#include "transition/plan.h"
#include "util/check.h"
#include "util/mem.h"

#define PLAN_BUFS 5

/* The plan's arrays for n entries, for dqr_plan_alloc() and release. */
static void plan_bufs(struct dqr_plan *p, size_t n, struct dqr_buf *b)
{
	const struct dqr_buf t[PLAN_BUFS] = {
		DQR_BUF(p->entries, n), DQR_BUF(p->stage_off, n + 2),
		DQR_BUF(p->stage_reconf, n + 1), DQR_BUF(p->stage_num, n + 1),
		DQR_BUF(p->stage_drain, n + 1),
	};

	memcpy(b, t, sizeof(t));
}

void dqr_plan_init(struct dqr_plan *p)
{
	memset(p, 0, sizeof(*p));
}

void dqr_plan_release(struct dqr_plan *p)
{
	struct dqr_buf b[PLAN_BUFS];

	plan_bufs(p, 0, b);
	dqr_bufs_free(b, PLAN_BUFS);
	dqr_plan_init(p);
}

int dqr_plan_alloc(struct dqr_plan *p, uint32_t n)
{
	struct dqr_buf b[PLAN_BUFS];

	dqr_plan_release(p);
	plan_bufs(p, n, b);
	return dqr_bufs_alloc(b, PLAN_BUFS);
}

void dqr_plan_check(const struct dqr_plan *p)
{
	uint32_t s;

	DQR_CHECK(!p->num_stages || p->stage_off[0] == 0);
	for (s = 0; s < p->num_stages; s++)
		DQR_CHECK(p->stage_off[s] <= p->stage_off[s + 1]);
	DQR_CHECK(p->num_entries == (p->num_stages ?
				     p->stage_off[p->num_stages] : 0));
}

const char *dqr_drain_reason(uint8_t why)
{
	if ((why & DQR_DRAIN_LOOP) && (why & DQR_DRAIN_CYCLE))
		return "forwarding loop and dependency cycle";
	if (why & DQR_DRAIN_LOOP)
		return "forwarding loop";
	if (why & DQR_DRAIN_CYCLE)
		return "dependency cycle";
	if (why & DQR_DRAIN_UNSAFE)
		return "plan not safe, stages not judged for a drain";
	if (why & DQR_DRAIN_LAYER)
		return "re-routing layer added or dropped";
	if (why & DQR_DRAIN_WITHDRAW)
		return "old routes withdrawn, new ones not yet compatible";
	return "";
}

uint32_t dqr_plan_drains(const struct dqr_plan *p)
{
	uint32_t s, n = 0;

	for (s = 0; p->stage_drain && s < p->num_stages; s++)
		n += p->stage_drain[s] != 0;
	return n;
}

int dqr_plan_stage_withdraws(const struct dqr_plan *p, uint32_t s)
{
	uint32_t i;

	for (i = p->stage_off[s]; i < p->stage_off[s + 1]; i++)
		if (p->entries[i].new_port != DQR_NO_PATH)
			return 0;
	return 1;
}
