/*
 * what_if.h - what the reactor would make of one fault, tried on a
 * copy: dqr-sim's --what-if and the plugin's fault-tolerance report
 * both ask here, so what one says the other does.
 *
 * The answer is the reactor's own (reaction.h): the projection without
 * the fault's ports (dqr_react_project_cut, the fast path's), DQR's
 * update, a second layer where the topology lays one, and the
 * transition from the tables held by the topology's planner, proved
 * against the channel list where the plugin would.  The new tables are
 * then judged: every pair a cable path joins reachable, loop free,
 * acyclic in the topology's terms, and the plan safe.
 */
#ifndef DQR_WHAT_IF_H
#define DQR_WHAT_IF_H

#include <stdint.h>

#include "reaction/reaction.h"

struct dqr_what_if {
	struct dqr_fabric *proj;	/* the cabling after the fault */
	struct dqr_lfts *held;		/* the tables before it */
	int code;			/* dqr_recon_update()'s */
	struct dqr_recon_result res;
	int layer;			/* 1 on two layers, -1 unusable */
	uint64_t filled;		/* entries the layer routes */
	struct dqr_lft_diff diff;	/* tables held -> new */
	uint64_t unreachable, no_path;	/* after; no cable path either */
	uint64_t lost;			/* a cable path joins them */
	uint64_t loop_entries, dead_port_entries;
	int cycle;			/* dependency cycle in the new tables */
	struct dqr_plan plan;
	struct dqr_plan_report rep;
	int planned;
	int layered;			/* planned around a second layer */
	int connected, loop_free, deadlock_free;
	double ms;			/* update, layer and plan */
	/*
	 * At the first upload (every stage before the first that waits a
	 * drain: the plugin sends them at once), the pairs of each kind
	 * that a cable path joins and the tables do not.
	 */
	uint64_t first_lost[DQR_PAIR_NUM_KINDS];
	uint32_t drains;
	/* DQR_WHAT_IF_CYCLE: the cycle that makes the first waiting stage
	 * wait */
	char wait_cycle[1024];
	/* DQR_WHAT_IF_QUICK proved it where the tables changed: the pairs
	 * above count the routes that meet a change, first_lost is 0 */
	int quick;
};

/* dqr_what_if()'s flags */
#define DQR_WHAT_IF_CYCLE 1u	/* find the first drain's cycle */
/* judge where the tables changed (dqr_react_check_change()) and, when
 * that proves the change, not whole: the fault-tolerance walk's way */
#define DQR_WHAT_IF_QUICK 2u

/*
 * The fault that takes the cables at ports (indices of x's reference,
 * either end), answered by x, which it changes: pass a copy
 * (dqr_reactor_clone()) to keep the state in force.  The switches hold
 * x's tables in force, nothing older in flight.  Where the plugin would
 * fall back, the tables judged are DQR's partial answer, as
 * fallback=none would upload them.  flags: DQR_WHAT_IF_*.  0, or -1
 * when out of memory; w is the caller's to release either way.
 */
int dqr_what_if(struct dqr_reactor *x, const uint32_t *ports, uint32_t n,
		unsigned flags, struct dqr_what_if *w);
void dqr_what_if_release(struct dqr_what_if *w);

/* 1 when the answer keeps every pair a cable path joins, safely. */
static inline int dqr_what_if_survived(const struct dqr_what_if *w)
{
	return w->connected && w->loop_free && w->deadlock_free;
}

/*
 * The switch ports of node's cables into ports (room for its ports):
 * a whole switch as a fault.  Their count.
 */
uint32_t dqr_what_if_node_ports(const struct dqr_fabric *f, uint32_t node,
				uint32_t *ports);

#endif
