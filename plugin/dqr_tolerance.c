/*
 * dqr_tolerance.c - the fault-tolerance report's thread (see
 * dqr_tolerance.h).
 *
 * The copy of DQR's state is taken under OpenSM's lock, shared (copies
 * of arrays: 13 ms on the 1,458-CA tree); the faults are then
 * tried on it with no lock held, one at a time, each on a copy of the
 * copy, so that what OpenSM's threads wait for never waits for the
 * walk.  The thread runs at nice 19 and stops at tolerance_s seconds
 * of its own CPU; a change of state (any line dqr-status would show)
 * drops the walk, and the next settled state starts it again.
 */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

/* first: it decides the layout of OpenSM's structs (perfmgr, pthread) */
#include <opensm/osm_config.h>
#include <opensm/osm_opensm.h>

#include "dqr_ctx.h"
#include "dqr_tolerance.h"
#include "reaction/tolerance.h"

/* how often a state not yet settled is looked at again */
#define RETRY_MS 100

static double cpu_s(void)
{
	struct timespec t;

	if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t))
		return 0;
	return (double)t.tv_sec + t.tv_nsec / 1e9;
}

static void publish(struct dqr_tol_walk *w, const struct dqr_tol_report *r)
{
	pthread_mutex_lock(&w->sync.lock);
	w->report = *r;
	pthread_mutex_unlock(&w->sync.lock);
}

/* The report of t's walk so far over f. */
static void fill(struct dqr_tol_report *r, const struct dqr_tolerance *t,
		 const struct dqr_fabric *f)
{
	uint32_t i;

	r->faults = t->num_faults;
	r->cables = t->num_cables;
	r->judged = t->judged;
	r->absorbed = t->fate[DQR_FATE_ABSORBED];
	r->drained = t->fate[DQR_FATE_DRAINED];
	r->cut = t->fate[DQR_FATE_CUT];
	for (i = r->num_cut_names; i < t->num_cut &&
	     i < DQR_STATUS_NAMES_MAX; i++)
		dqr_fault_name(f, t->cut[i], r->cut_names[i],
			       sizeof(r->cut_names[i]));
	r->num_cut_names = i;
}

/*
 * A copy of DQR's state when the tables in force are settled (no pass,
 * transition or fast reaction under way) into y, and the generation it
 * belongs to.  0; 1 when not settled yet; 2 when there is nothing to
 * judge, or no copy (why in r).
 */
static int take_copy(struct dqr_ctx *ctx, struct dqr_reactor *y,
		     uint64_t *gen, struct dqr_tol_report *r)
{
	osm_opensm_t *osm = ctx->osm;
	int ret = 1;

	CL_PLOCK_ACQUIRE(&osm->lock);
	*gen = atomic_load(&ctx->tol.gen);
	if (!ctx->react.ready) {
		snprintf(r->why, sizeof(r->why), "DQR holds no state (the "
			 "base engine routes)");
		ret = 2;
		goto out;
	}
	if (ctx->transition.active || atomic_load(&ctx->fast.busy) ||
	    atomic_load(&ctx->fast.pass_open))
		goto out;
	r->reconfig = ctx->reconfigs;
	ret = dqr_reactor_clone(&ctx->react, y);
	if (ret > 0) {
		snprintf(r->why, sizeof(r->why), "no copy of DQR's state "
			 "here (%s)", dqr_react_second_layer(&ctx->react) ?
			 "the re-routing layer is in force" :
			 "routes on virtual layers");
		ret = 2;
	} else if (ret < 0) {
		snprintf(r->why, sizeof(r->why), "out of memory copying "
			 "DQR's state");
		ret = 2;
	}
out:
	CL_PLOCK_RELEASE(&osm->lock);
	return ret;
}

/* dqr-status and dqr.prom rewritten, and the log line of a walk. */
static void tell(struct dqr_ctx *ctx, const struct dqr_tol_report *r,
		 int log)
{
	osm_opensm_t *osm = ctx->osm;
	char names[512] = "";
	size_t used = 0;
	uint32_t i;

	CL_PLOCK_EXCL_ACQUIRE(&osm->lock);
	dqr_status_update(ctx, DQR_STATUS_REWRITE);
	CL_PLOCK_RELEASE(&osm->lock);
	if (!log)
		return;
	for (i = 0; i < r->num_cut_names && used < sizeof(names); i++)
		used += snprintf(names + used, sizeof(names) - used, "%s%s",
				 i ? ", " : ": ", r->cut_names[i]);
	OSM_LOG(&osm->log, OSM_LOG_INFO, "dqr: fault tolerance of "
		"reconfiguration %" PRIu64 ": %u of %u single faults judged "
		"in %.1f s of CPU%s: %u absorbed at once, %u after a drain, "
		"%u cut pairs off%s\n", r->reconfig, r->judged, r->faults,
		r->cpu_s, r->state == DQR_TOL_PARTIAL ?
		" (tolerance_s spent)" : "", r->absorbed, r->drained, r->cut,
		names);
}

/* One walk over a settled state; 1 when the state is not settled yet. */
static int walk(struct dqr_ctx *ctx)
{
	struct dqr_tol_walk *w = &ctx->tol;
	struct dqr_tol_report r;
	struct dqr_tolerance t;
	struct dqr_reactor y;
	double t0, limit = ctx->react.opts.tolerance_s;
	uint64_t gen;
	int ret;

	memset(&r, 0, sizeof(r));
	/* released whatever take_copy() did */
	memset(&y, 0, sizeof(y));
	ret = take_copy(ctx, &y, &gen, &r);
	if (ret == 1)
		return 1;
	if (ret == 2) {
		dqr_reactor_release(&y);
		r.state = DQR_TOL_UNAVAILABLE;
		publish(w, &r);
		tell(ctx, &r, 0);
		return 0;
	}
	t0 = cpu_s();
	if (dqr_tolerance_begin(&y, &t)) {
		dqr_reactor_release(&y);
		return 0;
	}
	r.state = DQR_TOL_JUDGING;
	fill(&r, &t, y.recon.ref);
	publish(w, &r);
	while (t.judged < t.num_faults && !atomic_load(&w->quit) &&
	       atomic_load(&w->gen) == gen) {
		if (cpu_s() - t0 >= limit) {
			r.state = DQR_TOL_PARTIAL;
			break;
		}
		ret = dqr_tolerance_next(&y, &t);
		if (ret) {
			r.state = DQR_TOL_UNAVAILABLE;
			snprintf(r.why, sizeof(r.why), "%s", ret < 0 ?
				 "out of memory trying a fault" :
				 "no copy of DQR's state here");
			break;
		}
	}
	r.cpu_s = cpu_s() - t0;
	fill(&r, &t, y.recon.ref);
	if (r.state == DQR_TOL_JUDGING && t.judged == t.num_faults)
		r.state = DQR_TOL_DONE;
	dqr_tolerance_release(&t);
	dqr_reactor_release(&y);
	/* a walk the state left behind says nothing of the state now */
	if (atomic_load(&w->quit) || atomic_load(&w->gen) != gen)
		return 0;
	publish(w, &r);
	tell(ctx, &r, r.state != DQR_TOL_UNAVAILABLE);
	return 0;
}

/*
 * Waits for a settled state to be asked for, or ms to pass (0: no
 * limit); 1 when it is time to stop.
 */
static int wait_wanted(struct dqr_tol_walk *w, double ms)
{
	struct timespec until = dqr_deadline(ms);
	int quit;

	pthread_mutex_lock(&w->sync.lock);
	while (!atomic_load(&w->quit) && !w->wanted)
		if (ms > 0 ? dqr_wait_until(&w->sync, &until) != 0 :
		    pthread_cond_wait(&w->sync.cond, &w->sync.lock) != 0)
			break;
	w->wanted = 0;
	quit = atomic_load(&w->quit);
	pthread_mutex_unlock(&w->sync.lock);
	return quit;
}

static void *walk_main(void *arg)
{
	struct dqr_ctx *ctx = arg;
	struct dqr_tol_walk *w = &ctx->tol;

	/* the lowest priority, this thread alone (Linux: a thread's own
	 * nice value) */
	setpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid), 19);
	while (!wait_wanted(w, 0))
		/* a pass, transition or fast reaction ends with no event
		 * of its own here: look again every RETRY_MS */
		while (walk(ctx))
			if (wait_wanted(w, RETRY_MS))
				return NULL;
	return NULL;
}

int dqr_tolerance_start(struct dqr_ctx *ctx)
{
	struct dqr_tol_walk *w = &ctx->tol;

	if (!ctx->react.opts.tolerance_s)
		return 0;
	if (dqr_wait_init(&w->sync))
		goto fail;
	if (pthread_create(&w->thread, NULL, walk_main, ctx)) {
		dqr_wait_destroy(&w->sync);
		goto fail;
	}
	w->started = 1;
	return 0;
fail:
	OSM_LOG(&ctx->osm->log, OSM_LOG_ERROR, "ERR DQ39: osmdqr: cannot "
		"start the fault-tolerance report's thread; dqr-status says "
		"nothing of single faults\n");
	return -1;
}

void dqr_tolerance_stop(struct dqr_ctx *ctx)
{
	struct dqr_tol_walk *w = &ctx->tol;

	if (!w->started)
		return;
	pthread_mutex_lock(&w->sync.lock);
	atomic_store(&w->quit, 1);
	pthread_cond_broadcast(&w->sync.cond);
	pthread_mutex_unlock(&w->sync.lock);
	pthread_join(w->thread, NULL);
	dqr_wait_destroy(&w->sync);
	w->started = 0;
}
