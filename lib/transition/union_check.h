/*
 * union_check.h - the verdict on one union of two consecutive states of
 * a transition (transition.h says what the union is and why it must be
 * loop free and acyclic).  The planner, the replay and the one-shot
 * judgement all answer with it.
 */
#ifndef DQR_UNION_CHECK_H
#define DQR_UNION_CHECK_H

#include <stddef.h>
#include <stdint.h>

#include "deps/channel_list.h"
#include "fabric/fabric.h"

#define DQR_LOOP_SHOWN 16

/* What one union of two consecutive states holds. */
struct dqr_union_verdict {
	uint32_t loop_dlids;	/* DLIDs towards which the union loops */
	uint32_t loop_lid;	/* the first of them, 0 when none */
	uint32_t loop_len;	/* switches on that loop */
	uint32_t loop_sw[DQR_LOOP_SHOWN];	/* the first of them */
	int cyclic;		/* the union's dependencies have a cycle */
	struct dqr_cycle cycle;	/* one of them when cyclic */
};

static inline int dqr_union_ok(const struct dqr_union_verdict *v)
{
	return !v->loop_dlids && !v->cyclic;
}

/* Frees the cycle v may hold; the counts stay for the report. */
void dqr_union_verdict_release(struct dqr_union_verdict *v);

/* "loops towards DLID 5 (sw1 -> sw2 -> sw1)" and/or "dependency cycle
 * of 4 channels: a -> b -> ..." into buf, "" when the verdict is OK. */
void dqr_format_verdict(const struct dqr_fabric *f,
			const struct dqr_union_verdict *v, char *buf,
			size_t len);

#endif
