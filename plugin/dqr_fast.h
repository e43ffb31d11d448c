/*
 * dqr_fast.h - the fast path: the plugin answers trap 128 itself,
 * before OpenSM's heavy sweep (fast_path=on).
 *
 * Called by dqr_plugin.c (create, delete, OpenSM's events) and by
 * dqr_engine.c (a routing pass waits for a fast reaction under way);
 * calls trap_ports.h for the ports that went down and the DQR pass
 * (dqr_reconfig.h), from a thread of its own.
 */
#ifndef DQR_FAST_H
#define DQR_FAST_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>

/* first: it decides the layout of OpenSM's structs (perfmgr, pthread) */
#include <opensm/osm_config.h>
#include <opensm/osm_opensm.h>

#include "dqr_wait.h"
#include "trap_ports.h"

struct dqr_ctx;

/* trapping switches one reaction takes; more wait for the next one */
#define DQR_FAST_MAX_LIDS 256

struct dqr_fast {
	int on;			/* fast_path=on and the hook is in place */
	int started;		/* thread, lock and cond are there */
	pthread_t thread;
	/* sync.lock guards the queue, serving and quit: traps come on
	 * OpenSM's thread */
	struct dqr_wait sync;
	int quit;
	int serving;			/* the thread took the queue */
	uint16_t lids[DQR_FAST_MAX_LIDS];	/* trapping switches, queued */
	uint32_t num_lids;
	double t_trap;			/* the first queued trap */
	struct dqr_trap_ports ports;	/* their PortInfo */
	/*
	 * busy: a fast reaction holds the plugin's state, also while it
	 * lets OpenSM's lock go to wait for answers; a routing pass waits
	 * for it.  pass_open: OpenSM's routing pass has called the engine
	 * and has not finished its upload; no fast reaction starts then.
	 */
	atomic_int busy;
	atomic_int pass_open;
};

/*
 * Starts the thread and puts the plugin's PortInfo hook in front of
 * OpenSM's receiver (before OpenSM binds: no MAD can cross yet).  0, or
 * -1 (logged: the plugin runs without the fast path).
 */
int dqr_fast_start(struct dqr_ctx *ctx);

/* Stops the thread; OpenSM has unregistered the hook by then. */
void dqr_fast_stop(struct dqr_ctx *ctx);

/* OSM_EVENT_ID_TRAP: queues trap 128's switch (no lock; OpenSM's held). */
void dqr_fast_trap(struct dqr_ctx *ctx, const ib_mad_notice_attr_t *n);

/*
 * OSM_EVENT_ID_HEAVY_SWEEP_START, on OpenSM's SM thread with no lock
 * held: holds the sweep (at most 2 s) while a fast reaction is queued
 * or under way.  The sweep's discovery floods the queue of SMPs that
 * the fast reaction's Gets and Sets wait in, and its routing pass would
 * wait for the reaction anyway.
 */
void dqr_fast_sweep_begins(struct dqr_ctx *ctx);

/*
 * Called by the engine at the start of a routing pass, OpenSM's lock
 * held exclusively: waits (the lock let go meanwhile) until no fast
 * reaction holds the plugin's state, then marks the pass open.
 */
void dqr_fast_pass_begins(struct dqr_ctx *ctx);

/* The end of OpenSM's upload of a pass, or a sweep that began anew. */
static inline void dqr_fast_pass_ends(struct dqr_fast *fp)
{
	atomic_store(&fp->pass_open, 0);
}

static inline int dqr_fast_busy(struct dqr_fast *fp)
{
	return atomic_load(&fp->busy);
}

#endif
