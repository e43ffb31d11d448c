/*
 * dqr_reconfig.c - DQR inside OpenSM: deciding at the start of a routing
 * pass whether DQR can serve it, starting DQR after a base routing, and
 * running a DQR pass.  What DQR decides is lib's reactor's
 * (reaction/reaction.h); here it meets OpenSM.  Called by dqr_engine.c;
 * calls dqr_budget.c, dqr_transition.c, dqr_sls.c, dqr_report.c,
 * dqr_record.c and the OpenSM glue below them.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* first: it decides the layout of OpenSM's structs (perfmgr, pthread) */
#include <opensm/osm_config.h>
#include <opensm/osm_opensm.h>

#include "dqr_budget.h"
#include "dqr_reconfig.h"
#include "dqr_report.h"
#include "dqr_sls.h"
#include "dqr_transition.h"
#include "subnet_model.h"
#include "switch_tables.h"
#include "util/timing.h"

/* the operator's request for a rebalance, in dump_files_dir */
#define REBALANCE "dqr-rebalance"

static void drop_plan(struct dqr_ctx *ctx)
{
	dqr_fabric_free(ctx->proj);
	ctx->proj = NULL;
	dqr_topo_diff_release(&ctx->diff);
	memset(&ctx->diff, 0, sizeof(ctx->diff));
}

void dqr_recon_drop(struct dqr_ctx *ctx)
{
	drop_plan(ctx);
	dqr_reactor_stop(&ctx->react);
	dqr_sls_hook(ctx);
}

/*
 * Whether the operator asked for a rebalance: the file REBALANCE in
 * dump_files_dir, taken (removed) by the pass that sees it.  Repairs
 * accumulate detours; the base engine on the fabric as it is now
 * spreads the routes again, and the change goes up planned like any
 * other.  A file, because OpenSM gives an event plugin no command of its
 * own; a heavy sweep (SIGHUP, or the console's "resweep heavy") makes a
 * routing pass see it at once.
 */
static int rebalance_asked(struct dqr_ctx *ctx)
{
	const char *dir = ctx->osm->subn.opt.dump_files_dir;
	char path[4096];

	if (!dir || !*dir)
		return 0;
	snprintf(path, sizeof(path), "%s/%s", dir, REBALANCE);
	if (unlink(path))
		return 0;
	OSM_LOG(&ctx->osm->log, OSM_LOG_INFO, "dqr: rebalance asked for "
		"(%s, now removed): the base engine routes the fabric as it "
		"is now and the change goes up as a planned transition\n",
		path);
	return 1;
}

int dqr_plan_pass(struct dqr_ctx *ctx)
{
	osm_log_t *log = &ctx->osm->log;
	struct dqr_model_stats ms;
	struct dqr_fabric *cur;
	struct dqr_lfts *ignored;
	char err[256];
	int ret;

	drop_plan(ctx);
	if (rebalance_asked(ctx) || !ctx->react.ready)
		return -1;
	dqr_budget_start(ctx, dqr_now_ms());
	if (dqr_subnet_model_build(&ctx->osm->subn, &cur, &ignored, &ms,
				   err, sizeof(err))) {
		OSM_LOG(log, OSM_LOG_ERROR, "ERR DQ11: dqr: cannot model the "
			"subnet (%s); the base engine routes from scratch and "
			"the change of tables is NOT guaranteed deadlock "
			"free\n", err);
		return -1;
	}
	dqr_lfts_free(ignored);
	ret = dqr_react_project(&ctx->react, cur, &ctx->proj, &ctx->diff);
	dqr_fabric_free(cur);
	dqr_log_notes(ctx, &ctx->react.notes);
	return ret ? -1 : 0;
}

int dqr_plan_cut(struct dqr_ctx *ctx, const uint32_t *ports, uint32_t n)
{
	int ret;

	drop_plan(ctx);
	if (!ctx->react.ready)
		return -1;
	dqr_budget_start(ctx, dqr_now_ms());
	ret = dqr_react_project_cut(&ctx->react, ports, n,
				    dqr_sm_port(ctx->osm, ctx->react.recon.ref),
				    &ctx->proj, &ctx->diff);
	dqr_log_notes(ctx, &ctx->react.notes);
	return ret ? -1 : 0;
}

/* Replaces the verified fabric and tables of the last pass. */
static void keep_pass(struct dqr_ctx *ctx, struct dqr_fabric *f,
		      struct dqr_lfts *t)
{
	dqr_fabric_free(ctx->fabric);
	dqr_lfts_free(ctx->lfts);
	ctx->fabric = f;
	ctx->lfts = t;
}

int dqr_start_after_base(struct dqr_ctx *ctx, uint64_t *filled)
{
	struct dqr_start st;
	char base[128];
	int ret;

	drop_plan(ctx);
	dqr_fmt_base(ctx, base, sizeof(base));
	dqr_read_vl_caps(ctx, &ctx->react.caps);
	ret = dqr_react_start(&ctx->react, ctx->fabric, &ctx->lfts, base,
			      &st);
	dqr_log_notes(ctx, &ctx->react.notes);
	dqr_sls_hook(ctx);
	*filled = st.filled;
	return ret ? -1 : 0;
}

/* How long the switches have to answer the Gets of their tables. */
#define FETCH_TIMEOUT_MS 10000

/*
 * The first sweep as master (OpenSM started, restarted or took over from
 * another SM): OpenSM does not know what the switches hold and would
 * send every block at once.  Asks them, so that the change from the
 * tables of the SM before goes up planned like any other.  The time it
 * took in ms, or -1 (logged) when some switch did not answer.
 */
static double learn_tables_held(struct dqr_ctx *ctx, const char *what,
				uint32_t *asked)
{
	uint32_t unanswered;
	double t0 = dqr_now_ms();

	dqr_fetch_tables(ctx->osm, FETCH_TIMEOUT_MS, asked, &unanswered);
	if (!unanswered)
		return dqr_now_ms() - t0;
	OSM_LOG(&ctx->osm->log, OSM_LOG_ERROR, "ERR DQ34: dqr: first sweep as "
		"master: %u of the %u LFT blocks asked for were not answered "
		"in %u ms; %s goes up at once, as OpenSM's own engines do, and "
		"the change from the tables held is NOT checked\n",
		unanswered, *asked, FETCH_TIMEOUT_MS, what);
	return -1;
}

int dqr_hand_over(struct dqr_ctx *ctx, const struct dqr_fabric *f,
		  const struct dqr_lfts *target,
		  const struct dqr_reaction *r, const char *what)
{
	struct dqr_lfts *held = NULL;
	uint32_t asked = 0;
	double ms = -1;
	int ret, blank, at_once = 0;

	/*
	 * OpenSM's own way asked for, or a base whose one-layer graph is
	 * cyclic by design (it keeps its routes apart by SL, which a
	 * one-layer plan cannot see): all at once.
	 */
	if (ctx->react.opts.transition == DQR_TRANSITION_ONESHOT ||
	    (!ctx->react.ready && dqr_bases_layered(&ctx->bases))) {
		ret = dqr_write_tables(ctx->osm, f, target);
		at_once = 1;
		goto out;
	}
	/* the sweep that brings the next stage re-ran the same routing */
	if (dqr_transition_same(ctx, f, target)) {
		ret = dqr_transition_continue(ctx);
		goto out;
	}
	if (ctx->osm->subn.first_time_master_sweep) {
		/* a standby taking over: the master before may have numbered
		 * records in a shared dump_files_dir meanwhile */
		dqr_ids_resume(ctx);
		ms = learn_tables_held(ctx, what, &asked);
		if (ms < 0) {
			ret = dqr_write_tables(ctx->osm, f, target);
			at_once = 1;
			goto out;
		}
	}
	held = dqr_read_held(ctx->osm, f, target);
	if (held && ms >= 0) {
		blank = dqr_tables_blank(held);
		OSM_LOG(&ctx->osm->log, OSM_LOG_INFO, "dqr: first sweep as "
			"master: read %u LFT blocks in %.1f ms; %s\n", asked,
			ms, blank ? "the switches route nothing yet, the "
			"tables go up at once" : "the switches hold the "
			"tables of an SM before, the change goes up as a "
			"planned transition");
		/* no SM routed this fabric before: nothing can be in flight */
		if (blank) {
			ret = dqr_write_tables(ctx->osm, f, target);
			at_once = 1;
			goto out;
		}
	}
	if (!held) {
		OSM_LOG(&ctx->osm->log, OSM_LOG_ERROR, "ERR DQ23: dqr: out "
			"of memory reading the tables held; %s not uploaded, "
			"the switches keep their tables until the next "
			"sweep\n", what);
		dqr_keep_tables(ctx->osm);
		ret = 0;
		goto out;
	}
	ret = dqr_transition_begin(ctx, f, held, target, r, what);
out:
	dqr_lfts_free(held);
	/* written at once: the SA answers their SLs from now on */
	if (at_once)
		dqr_sls_in_force(ctx, 1);
	dqr_react_handed_over(&ctx->react);
	return ret;
}

/*
 * The reconfiguration's line and record, once its tables were handed
 * over.
 */
static void log_outcome(struct dqr_ctx *ctx, const struct dqr_reaction *r)
{
	if (r->layer < 0) {
		dqr_log_reconfig(ctx, &r->res, "no legal route");
		OSM_LOG(&ctx->osm->log, OSM_LOG_ERROR, "ERR DQ17: dqr: no "
			"deadlock-free route within the channel list for %"
			PRIu64 " entries of connected switches; fallback=none: "
			"those stay unrouted\n", r->unrouted);
	} else if (r->code == DQR_RECON_OK) {
		dqr_log_reconfig(ctx, &r->res, r->layer > 0 ?
				 "ok, re-routing layer" : "ok");
	} else if (r->layer > 0) {
		dqr_log_reconfig(ctx, &r->res, "re-routing layer");
	}
}

/*
 * DQR has no answer: the fallback is a full routing, planned and
 * uploaded as safely as any change of tables.  Says why; -1.
 */
static int fall_back(struct dqr_ctx *ctx, const struct dqr_reaction *r)
{
	osm_log_t *log = &ctx->osm->log;
	char why[96];

	switch (r->why) {
	case DQR_FALL_NOMEM:
		OSM_LOG(log, OSM_LOG_ERROR, "ERR DQ15: dqr: out of memory "
			"rerouting; falling back to base routing\n");
		break;
	case DQR_FALL_BUDGET:
		/* DQR's state is half done */
		dqr_budget_fmt_over(ctx, why, sizeof(why));
		dqr_log_reconfig(ctx, &r->res, "past its budget, not "
				 "uploaded");
		OSM_LOG(log, OSM_LOG_ERROR, "ERR DQ30: dqr: reconfiguration %"
			PRIu64 " past its budget (%s) before DQR had an "
			"answer; falling back: the base engine routes the "
			"whole fabric (up*/down* where its tables are cyclic) "
			"and the change goes up in a safe order, withdrawn "
			"first where needed (budget_ms, budget_mb)\n",
			ctx->reconfigs, why);
		break;
	default:
		dqr_log_reconfig(ctx, &r->res, "no legal route, not uploaded");
		OSM_LOG(log, OSM_LOG_ERROR, "ERR DQ16: dqr: no deadlock-free "
			"route within the channel list for %" PRIu64 " entries "
			"of connected switches; fallback=base: the base engine "
			"routes the whole fabric (up*/down* where its tables "
			"are cyclic) and the change goes up in a safe order, "
			"withdrawn first where needed\n", r->unrouted);
		break;
	}
	return -1;
}

/*
 * A fast reaction's change, proven where the tables changed before it
 * goes up (held: the tables in force before the update); the whole
 * verification follows the upload.  1 proven (said), 0 not: judge
 * whole first.
 */
static int proven_change(struct dqr_ctx *ctx, const struct dqr_lfts *held,
			 const struct dqr_reaction *r, const char *what)
{
	struct dqr_change_report cr;
	double t0 = dqr_now_ms();
	int ret;

	if (!held || !ctx->react.opts.verify)
		return 0;
	ret = dqr_react_check_change(&ctx->react, ctx->proj, &ctx->diff,
				     held, r, &cr);
	if (ret <= 0)
		return 0;
	OSM_LOG(&ctx->osm->log, OSM_LOG_VERBOSE, "dqr: %s: the change "
		"proven where the tables changed (%u entries, %u DLIDs, %"
		PRIu64 " routes, %" PRIu64 " dependencies) in %.2f ms; the "
		"whole fabric is verified after the upload\n", what,
		cr.entries, cr.dlids, cr.routes, cr.deps, dqr_now_ms() - t0);
	return 1;
}

/*
 * The whole verification of tables a fast reaction proved where they
 * changed, after the upload: the operator's summary line and
 * dqr-status, and a last check.  0, or -1 (said loudly) when it
 * rejects them.
 */
static int verify_after(struct dqr_ctx *ctx, const char *what)
{
	if (dqr_judge(ctx, what, ctx->times.project, 0) <= 0)
		return 0;
	OSM_LOG(&ctx->osm->log, OSM_LOG_ERROR, "ERR DQ40: dqr: the whole "
		"verification rejects the tables of %s, which the check of "
		"the change had proven (a bug: please report it); the base "
		"engine routes from scratch\n", what);
	return -1;
}

int dqr_run_pass(struct dqr_ctx *ctx)
{
	osm_log_t *log = &ctx->osm->log;
	struct dqr_lfts *held = NULL;
	struct dqr_reaction r;
	struct dqr_fabric *f;
	struct dqr_lfts *t;
	char what[64];
	double t0 = dqr_now_ms(), t1;
	int ret, bad, proven;

	dqr_read_vl_caps(ctx, &ctx->react.caps);
	/* the fast path proves the change against the tables before it */
	if (ctx->times.fast && ctx->react.ready)
		held = dqr_lfts_clone(ctx->react.recon.cur);
	ret = dqr_react_update(&ctx->react, ctx->proj, &ctx->diff,
			       &ctx->budget, &r);
	dqr_log_notes(ctx, &ctx->react.notes);
	dqr_sls_hook(ctx);
	if (r.answer == DQR_ANSWER_UNCHANGED) {
		dqr_lfts_free(held);
		/* a re-route without a change of cabling: nothing to do */
		if (ctx->transition.active)
			return dqr_transition_continue(ctx);
		OSM_LOG(log, OSM_LOG_VERBOSE, "dqr: routing pass without a "
			"change of cabling; tables unchanged\n");
		return dqr_write_tables(ctx->osm, ctx->react.recon.ref,
					r.target);
	}
	ctx->reconfigs++;
	ctx->times.reroute = dqr_now_ms() - t0;
	if (ret || r.answer == DQR_ANSWER_FALLBACK) {
		dqr_lfts_free(held);
		return fall_back(ctx, &r);
	}
	f = dqr_fabric_clone(ctx->proj);
	t = dqr_lfts_clone(r.target);
	if (!f || !t) {
		dqr_fabric_free(f);
		dqr_lfts_free(t);
		dqr_lfts_free(held);
		OSM_LOG(log, OSM_LOG_ERROR, "ERR DQ15: dqr: out of memory "
			"keeping the tables; falling back to base routing\n");
		return -1;
	}
	keep_pass(ctx, f, t);
	snprintf(what, sizeof(what), "reconfiguration %" PRIu64,
		 ctx->reconfigs);
	t1 = dqr_now_ms();
	proven = proven_change(ctx, held, &r, what);
	dqr_lfts_free(held);
	bad = ctx->react.opts.verify && !proven ?
	      dqr_judge(ctx, what, ctx->times.project, 0) : 0;
	ctx->times.verify = dqr_now_ms() - t1;
	if (bad > 0) {
		if (r.layer < 0)
			log_outcome(ctx, &r);
		/* DQR admits no such table: this is a bug, say so loudly */
		OSM_LOG(log, OSM_LOG_ERROR, "ERR DQ18: dqr: the verifier "
			"rejects the tables of %s; not uploading them: the "
			"base engine routes from scratch and the change of "
			"tables is NOT guaranteed deadlock free\n", what);
		return -1;
	}
	bad = dqr_hand_over(ctx, ctx->proj, r.target, &r, what);
	if (!bad)
		ctx->times.handed = dqr_now_ms() - ctx->times.start;
	if (proven && verify_after(ctx, what))
		bad = -1;
	log_outcome(ctx, &r);
	if (bad)
		return -1;
	OSM_LOG(log, OSM_LOG_VERBOSE, "dqr: %s took %.2f ms in all\n", what,
		dqr_now_ms() - t0);
	return 0;
}
