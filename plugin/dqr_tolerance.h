/*
 * dqr_tolerance.h - the fault-tolerance report of the tables in force
 * (tolerance_s=N, N > 0): after each settled state a thread of the
 * plugin's own, at the lowest priority, tries every single fault on a
 * copy of DQR's state (lib's reaction/tolerance.h, dqr-sim's what-if)
 * within N seconds of CPU, and dqr-status and dqr.prom say how many
 * the tables absorb at once, how many need a drain and which would cut
 * pairs off.  A change of state drops the walk under way.
 *
 * Called by dqr_plugin.c (start, stop), dqr_fast.c (a trap drops the
 * walk: dqr_tolerance_drop()) and dqr_status.c (every change it
 * reports: dqr_tolerance_stale()); calls dqr_status.h to publish.
 */
#ifndef DQR_TOLERANCE_BG_H
#define DQR_TOLERANCE_BG_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <string.h>

#include "dqr_status.h"
#include "dqr_wait.h"

struct dqr_ctx;

struct dqr_tol_walk {
	int started;
	pthread_t thread;
	/* sync.lock guards wanted and report, and the waits on quit */
	struct dqr_wait sync;
	atomic_int quit;
	int wanted;			/* a settled state may wait */
	atomic_uint_fast64_t gen;	/* bumped at every change */
	struct dqr_tol_report report;
};

/* Starts the thread when tolerance_s > 0; 0, or -1 (logged). */
int dqr_tolerance_start(struct dqr_ctx *ctx);
void dqr_tolerance_stop(struct dqr_ctx *ctx);

/*
 * The state changed (OpenSM's lock held): the walk under way is
 * dropped; settled: the tables in force may be judged now.
 */
static inline void dqr_tolerance_stale(struct dqr_tol_walk *w, int settled)
{
	if (!w->started)
		return;
	atomic_fetch_add(&w->gen, 1);
	pthread_mutex_lock(&w->sync.lock);
	w->wanted |= settled;
	pthread_cond_broadcast(&w->sync.cond);
	pthread_mutex_unlock(&w->sync.lock);
}

/*
 * A fault is coming (a trap, on OpenSM's trap receiver): the walk under
 * way stops at its next fault, leaving the CPU to the reaction.
 */
static inline void dqr_tolerance_drop(struct dqr_tol_walk *w)
{
	atomic_fetch_add(&w->gen, 1);
}

/* A copy of the report, for dqr-status and dqr.prom. */
static inline void dqr_tolerance_report(struct dqr_tol_walk *w,
					struct dqr_tol_report *out)
{
	if (!w->started) {
		memset(out, 0, sizeof(*out));
		return;
	}
	pthread_mutex_lock(&w->sync.lock);
	*out = w->report;
	pthread_mutex_unlock(&w->sync.lock);
}

#endif
