/*
 * dqr_fast.c - the fast path: the plugin answers trap 128 itself.
 *
 * After trap 128 OpenSM sweeps heavy: it asks every port of the subnet
 * for NodeInfo and PortInfo before it routes, so its reaction grows
 * with the fabric.  The fault is known much earlier: the trapping
 * switch says which of its ports went down.  Here a thread of the
 * plugin's own takes the trap (OpenSM reports it from its trap receiver,
 * holding its lock, where nothing may wait), asks the trapping switches
 * for the PortInfo of every port through OpenSM's own request path, so
 * that OpenSM's receiver unlinks the ports that went down in its model
 * as its sweep would, and runs the DQR pass on the reference less those
 * cables (dqr_react_project_cut, what dqr-sim's what-if runs).  The
 * stages that need no drain go to the switches at once, each answered
 * before the next is sent; OpenSM's copy of every table follows the
 * answers, so its sweep's routing pass finds the repair in force and
 * sends nothing new.  Stages that wait a drain go as in any transition.
 *
 * Whatever is uncertain (this SM is not master, a routing pass or a
 * transition is under way, the trap names a switch the model does not
 * know, a PortInfo is not answered, DQR has no answer) it leaves to
 * OpenSM's sweep, and says why; where OpenSM does not sweep on traps
 * (sweep_on_trap FALSE) it asks for that sweep.
 *
 * Called by dqr_plugin.c and dqr_engine.c; calls trap_ports.c for the
 * ports and dqr_reconfig.c for the pass.
 */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* first: it decides the layout of OpenSM's structs (perfmgr, pthread) */
#include <opensm/osm_config.h>
#include <opensm/osm_opensm.h>
#include <opensm/osm_sm.h>

#include "dqr_fast.h"
#include "dqr_reconfig.h"
#include "util/timing.h"

/* traps of one fault (a dying switch's neighbours) come within this */
#define MERGE_MS 1
/*
 * How long the switches asked have to answer their PortInfo: this, and
 * PER_ASK_MS more for each port asked (the SMPs wait in one queue, and
 * ibsim answers one in about 0.4 ms: 1,296 ports around a dead spine of
 * the 648-CA tree took 130 ms, over 200 ms on a loaded machine).
 */
#define PORTINFO_TIMEOUT_MS 200
#define PER_ASK_MS 1.0
/* how long a routing pass waits for a fast reaction under way */
#define PASS_WAIT_MS 10000
/* how long a heavy sweep waits for one */
#define HOLD_MS 2000

void dqr_fast_trap(struct dqr_ctx *ctx, const ib_mad_notice_attr_t *n)
{
	struct dqr_fast *fp = &ctx->fast;
	uint16_t lid;
	uint32_t i;

	if (!fp->on || !n || !ib_notice_is_generic(n) ||
	    cl_ntoh16(n->g_or_v.generic.trap_num) != SM_LINK_STATE_CHANGED_TRAP)
		return;
	lid = cl_ntoh16(n->data_details.ntc_128.sw_lid);
	dqr_tolerance_drop(&ctx->tol);
	pthread_mutex_lock(&fp->sync.lock);
	for (i = 0; i < fp->num_lids && fp->lids[i] != lid; i++)
		;
	if (i == fp->num_lids && i < DQR_FAST_MAX_LIDS) {
		if (!fp->num_lids)
			fp->t_trap = dqr_now_ms();
		fp->lids[fp->num_lids++] = lid;
		pthread_cond_broadcast(&fp->sync.cond);
	}
	pthread_mutex_unlock(&fp->sync.lock);
}

/* Whether traps are queued. */
static int traps_queued(struct dqr_fast *fp)
{
	int n;

	pthread_mutex_lock(&fp->sync.lock);
	n = fp->num_lids != 0;
	pthread_mutex_unlock(&fp->sync.lock);
	return n;
}

/* Takes the queued LIDs into lids (NULL: forgets them); their count. */
static uint32_t take_lids(struct dqr_fast *fp, uint16_t *lids)
{
	uint32_t n;

	pthread_mutex_lock(&fp->sync.lock);
	n = fp->num_lids;
	if (lids)
		memcpy(lids, fp->lids, sizeof(*lids) * n);
	fp->num_lids = 0;
	pthread_mutex_unlock(&fp->sync.lock);
	return n;
}

/*
 * What keeps a fast reaction from starting now (OpenSM's lock held), or
 * NULL.
 */
static const char *not_now(struct dqr_ctx *ctx)
{
	osm_opensm_t *osm = ctx->osm;

	if (osm->subn.sm_state != IB_SMINFO_STATE_MASTER)
		return "this SM is not master";
	if (osm->subn.first_time_master_sweep)
		return "OpenSM has not finished its first sweep as master";
	if (!ctx->re || osm->routing_engine_used != ctx->re)
		return "the tables in force are not dqr's";
	if (!ctx->react.ready)
		return "DQR has no channel list (the base engine routes)";
	if (ctx->react.opts.transition == DQR_TRANSITION_ONESHOT)
		return "transition=oneshot";
	if (atomic_load(&ctx->fast.pass_open))
		return "OpenSM's routing pass is under way";
	if (ctx->transition.active)
		return "a transition is still under way";
	return NULL;
}

/*
 * The ports the answers found not Active, as ports of the reference,
 * into *ports (the caller frees it), and whether some port is coming
 * up.  Their count, or -1 with why.
 */
static int64_t ports_down(struct dqr_ctx *ctx, uint32_t **ports,
			  int *coming_up, char *why, size_t len)
{
	struct dqr_trap_seen seen;
	int64_t n;

	n = dqr_trap_ports_down(&ctx->fast.ports, ctx->react.recon.ref,
				ports, &seen);
	*coming_up = seen.coming_up;
	if (n < 0) {
		snprintf(why, len, "out of memory");
		return -1;
	}
	if (!seen.errors)
		return n;
	snprintf(why, len, "switch 0x%016" PRIx64 " answered the PortInfo "
		 "of port %u with an error", seen.error_guid, seen.error_port);
	free(*ports);
	*ports = NULL;
	return -1;
}

/*
 * Leaves the fault to OpenSM's sweep, and says why.  sweep: where
 * OpenSM does not sweep on traps (sweep_on_trap FALSE), ask for the
 * sweep, the normal path; not for a trap that changes nothing.
 */
static void decline(struct dqr_ctx *ctx, uint32_t traps, const char *why,
		    int sweep)
{
	osm_opensm_t *osm = ctx->osm;

	OSM_LOG(&osm->log, OSM_LOG_INFO, "dqr: fast path: %u trapping "
		"switch%s left to OpenSM's sweep: %s\n", traps,
		traps == 1 ? "" : "es", why);
	ctx->status.fast_declined++;
	dqr_status_update(ctx, DQR_STATUS_REWRITE);
	if (!sweep || osm->subn.opt.sweep_on_trap || ctx->fast.quit)
		return;
	osm->subn.force_heavy_sweep = TRUE;
	osm_sm_signal(&osm->sm, OSM_SIGNAL_SWEEP);
}

/*
 * The PortInfo of every trapping switch, those that trap meanwhile too
 * (OpenSM's lock let go while waiting), over cur, the cabling before;
 * *traps counts the switches.  0, or -1 with why.
 */
static int learn_ports(struct dqr_ctx *ctx, const struct dqr_fabric *cur,
		       uint32_t *traps, char *why, size_t len)
{
	struct dqr_trap_ports *t = &ctx->fast.ports;
	uint16_t lids[DQR_FAST_MAX_LIDS];
	uint32_t i, n;
	int ret = -1, widened;

	if (dqr_trap_ports_begin(t, cur)) {
		*traps += take_lids(&ctx->fast, NULL);
		snprintf(why, len, "out of memory, or the SM's port is not "
			 "in the model");
		return -1;
	}
	for (;;) {
		n = take_lids(&ctx->fast, lids);
		*traps += n;
		for (i = 0; i < n; i++)
			if (dqr_trap_ports_ask(t, lids[i], why, len) < 0)
				goto out;
		if (!dqr_trap_ports_wait(t, PORTINFO_TIMEOUT_MS,
					 PER_ASK_MS)) {
			snprintf(why, len, "the switches asked did not answer "
				 "all %u PortInfo Gets within %u ms and %.0f "
				 "ms each", t->num_asks, PORTINFO_TIMEOUT_MS,
				 PER_ASK_MS);
			goto out;
		}
		widened = dqr_trap_ports_widen(t);
		if (widened < 0) {
			snprintf(why, len, "out of memory");
			goto out;
		}
		/* nothing new asked, no new trap: the picture is whole */
		if (!widened && !traps_queued(&ctx->fast))
			break;
	}
	ret = 0;
out:
	dqr_trap_ports_end(t);
	return ret;
}

/*
 * One fast reaction, OpenSM's lock held and busy set: the ports, the
 * repair, its stages.  0, or -1 with why and whether the sweep must
 * come.
 */
static int react(struct dqr_ctx *ctx, double t_trap, uint32_t *traps,
		 int *sweep, char *why, size_t len)
{
	struct dqr_pass_times *t = &ctx->times;
	struct dqr_fabric *cur;
	struct dqr_topo_diff d;
	uint32_t *ports = NULL;
	const char *busy;
	int64_t n;
	double t0;
	int up;

	*sweep = 1;
	*traps = 0;
	/* the cabling before the trap: the Gets' routes go over it */
	if (dqr_react_project_cut(&ctx->react, NULL, 0, DQR_NONE, &cur, &d)) {
		snprintf(why, len, "out of memory");
		return -1;
	}
	dqr_topo_diff_release(&d);
	n = learn_ports(ctx, cur, traps, why, len);
	dqr_fabric_free(cur);
	if (n)
		return -1;
	/* the lock was let go: the state may have changed meanwhile */
	busy = not_now(ctx);
	if (busy) {
		snprintf(why, len, "%s", busy);
		return -1;
	}
	n = ports_down(ctx, &ports, &up, why, len);
	if (n < 0)
		return -1;
	memset(t, 0, sizeof(*t));
	t->start = t_trap;
	t->since = "trap";
	t->handed = -1;
	t->fast = 1;
	t0 = dqr_now_ms();
	t->ports_known = t0 - t_trap;
	if (dqr_plan_cut(ctx, ports, (uint32_t)n)) {
		free(ports);
		snprintf(why, len, "DQR cannot serve this change");
		return -1;
	}
	free(ports);
	t->project = dqr_now_ms() - t0;
	if (ctx->diff.num_missing_ports == ctx->react.recon.num_down) {
		snprintf(why, len, "no cable of theirs is down that was not "
			 "before%s", up ? "; a port is coming up" : "");
		*sweep = up;
		return -1;
	}
	/* this reaction answers the trap: no pass counts from it */
	atomic_store(&ctx->t_trap, 0.0);
	if (dqr_run_pass(ctx)) {
		/* the sweep's routing pass takes the fallback */
		dqr_recon_drop(ctx);
		snprintf(why, len, "DQR has no safe answer; OpenSM's sweep "
			 "routes with the base engine");
		return -1;
	}
	return 0;
}

/*
 * The line of a fast reaction that went up: its times from the trap.
 * The transition's own lines and records follow the stages.
 */
static void log_reaction(struct dqr_ctx *ctx, uint32_t traps)
{
	const struct dqr_pass_times *t = &ctx->times;
	const struct dqr_transition *x = &ctx->transition;
	double ready = t->ports_known + t->project + t->reroute + t->verify +
		       t->plan;
	uint32_t all = x->times ? x->plan.num_stages : 0;

	OSM_LOG(&ctx->osm->log, OSM_LOG_INFO, "dqr: fast path: "
		"reconfiguration %" PRIu64 ": %u trapping switch%s, ports "
		"known after %.1f ms, repair ready after %.1f ms, %u of %u "
		"stages answered after %.1f ms; %s\n", ctx->reconfigs, traps,
		traps == 1 ? "" : "es", t->ports_known, ready, t->stages_up,
		all, t->stages_up ? t->answered : -1.0,
		!all ? "nothing to send" :
		t->stages_up == all ? "complete before OpenSM's sweep" :
		"the rest after a drain, as any transition");
}

static void serve(struct dqr_ctx *ctx)
{
	struct dqr_fast *fp = &ctx->fast;
	osm_opensm_t *osm = ctx->osm;
	const char *busy;
	char why[256];
	uint32_t traps = 0;
	double t_trap, wait;
	int sweep;

	pthread_mutex_lock(&fp->sync.lock);
	t_trap = fp->t_trap;
	pthread_mutex_unlock(&fp->sync.lock);
	wait = t_trap + MERGE_MS - dqr_now_ms();
	if (wait > 0)
		usleep((useconds_t)(wait * 1000));
	CL_PLOCK_EXCL_ACQUIRE(&osm->lock);
	busy = not_now(ctx);
	if (busy) {
		decline(ctx, take_lids(fp, NULL), busy, 1);
		CL_PLOCK_RELEASE(&osm->lock);
		return;
	}
	atomic_store(&fp->busy, 1);
	if (!react(ctx, t_trap, &traps, &sweep, why, sizeof(why))) {
		ctx->status.fast_reactions++;
		dqr_status_update(ctx, DQR_STATUS_REWRITE);
		log_reaction(ctx, traps);
	} else {
		decline(ctx, traps, why, sweep);
	}
	atomic_store(&fp->busy, 0);
	CL_PLOCK_RELEASE(&osm->lock);
}

static void *fast_main(void *arg)
{
	struct dqr_ctx *ctx = arg;
	struct dqr_fast *fp = &ctx->fast;

	pthread_mutex_lock(&fp->sync.lock);
	for (;;) {
		while (!fp->quit && !fp->num_lids)
			pthread_cond_wait(&fp->sync.cond, &fp->sync.lock);
		if (fp->quit)
			break;
		fp->serving = 1;
		pthread_mutex_unlock(&fp->sync.lock);
		serve(ctx);
		pthread_mutex_lock(&fp->sync.lock);
		fp->serving = 0;
		/* a sweep held for it goes on */
		pthread_cond_broadcast(&fp->sync.cond);
	}
	fp->serving = 0;
	pthread_cond_broadcast(&fp->sync.cond);
	pthread_mutex_unlock(&fp->sync.lock);
	return NULL;
}

int dqr_fast_start(struct dqr_ctx *ctx)
{
	struct dqr_fast *fp = &ctx->fast;

	if (!ctx->react.opts.fast_path)
		return 0;
	if (dqr_wait_init(&fp->sync))
		goto fail;
	if (dqr_trap_ports_init(&fp->ports, ctx->osm))
		goto fail_sync;
	if (pthread_create(&fp->thread, NULL, fast_main, ctx))
		goto fail_ports;
	fp->started = 1;
	if (!dqr_trap_ports_hook(&fp->ports)) {
		fp->on = 1;
		return 0;
	}
	dqr_fast_stop(ctx);
	goto fail;
fail_ports:
	dqr_trap_ports_destroy(&fp->ports);
fail_sync:
	dqr_wait_destroy(&fp->sync);
fail:
	OSM_LOG(&ctx->osm->log, OSM_LOG_ERROR, "ERR DQ36: osmdqr: cannot "
		"start the fast path; traps are left to OpenSM's sweep\n");
	return -1;
}

void dqr_fast_stop(struct dqr_ctx *ctx)
{
	struct dqr_fast *fp = &ctx->fast;

	fp->on = 0;
	if (!fp->started)
		return;
	pthread_mutex_lock(&fp->sync.lock);
	fp->quit = 1;
	pthread_cond_broadcast(&fp->sync.cond);
	pthread_mutex_unlock(&fp->sync.lock);
	dqr_trap_ports_quit(&fp->ports);
	pthread_join(fp->thread, NULL);
	dqr_trap_ports_destroy(&fp->ports);
	dqr_wait_destroy(&fp->sync);
	fp->started = 0;
}

void dqr_fast_sweep_begins(struct dqr_ctx *ctx)
{
	struct dqr_fast *fp = &ctx->fast;
	struct timespec until = dqr_deadline(HOLD_MS);
	double t0 = dqr_now_ms(), held;

	if (!fp->on)
		return;
	pthread_mutex_lock(&fp->sync.lock);
	while ((fp->num_lids || fp->serving) && !fp->quit &&
	       dqr_wait_until(&fp->sync, &until) == 0)
		;
	pthread_mutex_unlock(&fp->sync.lock);
	held = dqr_now_ms() - t0;
	if (held >= 1.0)
		OSM_LOG(&ctx->osm->log, OSM_LOG_VERBOSE, "dqr: fast path: "
			"heavy sweep held %.1f ms for a fast reaction\n", held);
}

void dqr_fast_pass_begins(struct dqr_ctx *ctx)
{
	struct dqr_fast *fp = &ctx->fast;
	double t0 = dqr_now_ms();

	while (atomic_load(&fp->busy) && dqr_now_ms() - t0 < PASS_WAIT_MS) {
		CL_PLOCK_RELEASE(&ctx->osm->lock);
		usleep(500);
		CL_PLOCK_EXCL_ACQUIRE(&ctx->osm->lock);
	}
	if (atomic_load(&fp->busy))
		OSM_LOG(&ctx->osm->log, OSM_LOG_ERROR, "ERR DQ37: dqr: a fast "
			"reaction still holds the plugin after %u ms; the "
			"routing pass goes on\n", PASS_WAIT_MS);
	atomic_store(&fp->pass_open, 1);
}
