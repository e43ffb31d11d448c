/*
 * dqr_reconfig.c - DQR inside OpenSM: deciding at the start of a routing
 * pass whether DQR can serve it, starting DQR after a base routing, and
 * running a DQR pass.  Called by dqr_engine.c; calls dqr_rerouting.c,
 * dqr_transition.c, dqr_report.c and the OpenSM glue below them.
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
#include "dqr_rerouting.h"
#include "dqr_reconfig.h"
#include "dqr_report.h"
#include "dqr_vlayers.h"
#include "dqr_transition.h"
#include "ftree/uturn_repair.h"
#include "routing/grid_route.h"
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
	dqr_rerouting_drop(ctx);
	if (ctx->recon_ready)
		dqr_recon_release(&ctx->recon);
	ctx->recon_ready = 0;
}

static void reroute_opts(const struct dqr_ctx *ctx, struct dqr_reroute_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->mode = ctx->opts.mode;
	o->turns = ctx->opts.turns;
	/*
	 * topology plug-ins (the DQR paper, IV.C) attach here: the FT
	 * paper's on the fat trees base=uturn routed, the mesh plug-in on
	 * the meshes and tori lib's grid routing routed, and on a torus
	 * routed as its mesh by up*\/down* the wrap cables as last resort
	 */
	if (ctx->ran_uturn && ctx->ftree)
		dqr_uturn_repair_opts(ctx->ftree, o);
	if (ctx->ran_grid && ctx->mesh)
		dqr_mesh_plugin_opts(ctx->mesh, o);
	if (ctx->ran_grid && ctx->wraps)
		dqr_wrap_bias_opts(ctx->wraps, o);
}

/* What the mesh plug-in did for this reconfiguration, for the log. */
static void log_mesh(struct dqr_ctx *ctx)
{
	const struct dqr_mesh_stats *ms;

	if (!ctx->ran_grid || !ctx->mesh)
		return;
	ms = dqr_mesh_plugin_stats(ctx->mesh);
	if (!ms->links_failed)
		return;
	OSM_LOG(&ctx->osm->log, OSM_LOG_INFO, "dqr: mesh plug-in: %u of %u "
		"failed links bypassed by a local path towards the centre "
		"(%u turns enabled, %u after a reorder)%s\n",
		ms->links_bypassed, ms->links_failed, ms->turns, ms->reorders,
		ms->links_bypassed < ms->links_failed ?
		"; the topology-agnostic search routes the rest" : "");
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

	drop_plan(ctx);
	if (rebalance_asked(ctx) || !ctx->recon_ready)
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
	ctx->proj = dqr_fabric_project(ctx->recon.ref, cur, &ctx->diff);
	dqr_fabric_free(cur);
	if (!ctx->proj) {
		OSM_LOG(log, OSM_LOG_ERROR, "ERR DQ12: dqr: out of memory "
			"comparing the subnet with the model; routing from "
			"scratch\n");
		return -1;
	}
	if (!dqr_topo_diff_degraded_only(&ctx->diff)) {
		OSM_LOG(log, OSM_LOG_INFO, "dqr: the subnet has hardware the "
			"channel list does not know (%u new nodes, %u new "
			"cables, %u changed LIDs): full routing by the base "
			"engine\n", ctx->diff.nodes_new, ctx->diff.links_new,
			ctx->diff.lids_changed);
		drop_plan(ctx);
		return -1;
	}
	return 0;
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

/*
 * A one-layer base whose tables have a dependency cycle can deadlock, and
 * one that leaves connected pairs unrouted where DQR finds no legal route
 * cuts them off: the plugin routes with lib's own up*\/down* on the same
 * fabric instead (deadlock free on one VL, every pair a cable joins
 * reachable), loudly, saying why.  0 when ctx->lfts now holds it, -1
 * when that failed (logged).
 */
static int updn_instead(struct dqr_ctx *ctx, const char *base,
			const char *why)
{
	struct dqr_lfts *t = NULL;
	char err[256];

	if (dqr_updn_route(ctx->fabric, &t, err, sizeof(err))) {
		OSM_LOG(&ctx->osm->log, OSM_LOG_ERROR, "ERR DQ29: dqr: the "
			"tables of base '%s' %s and up*/down* failed too "
			"(%s)\n", base, why, err);
		return -1;
	}
	OSM_LOG(&ctx->osm->log, OSM_LOG_ERROR, "ERR DQ29: dqr: the tables of "
		"base '%s' %s: routing with the plugin's own up*/down* "
		"instead (deadlock free on one VL, every pair a cable joins "
		"reachable)\n", base, why);
	dqr_lfts_free(ctx->lfts);
	ctx->lfts = t;
	ctx->ran_updn = 1;
	return 0;
}

/*
 * A torus on layers (dqr_vlayers.c) starts DQR on them; DQR_RECON_NOMEM
 * when there are none (or no memory: the one-layer start says so), and
 * with the plugin's up*\/down* in ctx->lfts when e-cube leaves pairs a
 * cable joins unrouted (a degraded torus).
 */
static int torus_start(struct dqr_ctx *ctx, const char *base,
		       struct dqr_recon_result *res)
{
	int ret;

	if (!ctx->torus_tl)
		return DQR_RECON_NOMEM;
	ret = dqr_recon_start_vlayers(&ctx->recon, ctx->fabric,
				    ctx->torus_grid, ctx->torus_tl, ctx->lfts,
				    res);
	ctx->torus_tl = NULL;
	ctx->torus_grid = NULL;
	if (ret == DQR_RECON_OK)
		return ret;
	dqr_recon_release(&ctx->recon);
	/* the one-layer start after this judges updn's tables */
	if (ret == DQR_RECON_FAILED)
		updn_instead(ctx, base, "leave connected pairs without a route "
			     "that the layers cannot fill");
	dqr_vlayers_hook(ctx);
	return DQR_RECON_NOMEM;
}

int dqr_start_after_base(struct dqr_ctx *ctx, uint64_t *filled)
{
	osm_log_t *log = &ctx->osm->log;
	struct dqr_reroute_opts o;
	struct dqr_recon_result res;
	char base[128];
	int ret, layered = dqr_bases_layered(&ctx->bases);

	*filled = 0;
	dqr_recon_drop(ctx);
	dqr_fmt_base(ctx, base, sizeof(base));
	reroute_opts(ctx, &o);
	ret = torus_start(ctx, base, &res);
	if (ret == DQR_RECON_NOMEM)
		ret = dqr_recon_start(&ctx->recon, ctx->fabric, ctx->lfts, &o,
				      &res);
	if (ret == DQR_RECON_CYCLIC && !layered &&
	    !updn_instead(ctx, base, "have a credit loop on one VL")) {
		dqr_recon_release(&ctx->recon);
		ret = dqr_recon_start(&ctx->recon, ctx->fabric, ctx->lfts, &o,
				      &res);
	}
	/*
	 * Pairs a cable joins that the base leaves unrouted and DQR
	 * cannot fill (dimension order around a lost switch): connectivity
	 * first.
	 */
	if (ret == DQR_RECON_FAILED && !layered &&
	    !updn_instead(ctx, base, "leave connected pairs without a route "
			  "that DQR cannot fill")) {
		dqr_recon_release(&ctx->recon);
		ret = dqr_recon_start(&ctx->recon, ctx->fabric, ctx->lfts, &o,
				      &res);
	}
	if (ret == DQR_RECON_CYCLIC) {
		dqr_recon_release(&ctx->recon);
		OSM_LOG(log, layered ? OSM_LOG_INFO : OSM_LOG_ERROR,
			"%sdqr: the one-layer channel dependency graph of "
			"base '%s' is cyclic: DQR needs a channel list and is "
			"off until the next full routing; after a fault the "
			"base engine routes the whole fabric again\n",
			layered ? "" : "ERR DQ13: ", base);
		return -1;
	}
	if (ret == DQR_RECON_NOMEM) {
		OSM_LOG(log, OSM_LOG_ERROR, "ERR DQ14: dqr: out of memory "
			"building the channel list; DQR is off until the next "
			"full routing\n");
		return -1;
	}
	ctx->recon_ready = 1;
	*filled = res.rs.changed;
	memcpy(ctx->lfts->port, ctx->recon.cur->port,
	       (size_t)ctx->lfts->num_switches * ctx->lfts->lid_count);
	if (ctx->recon.tl) {
		OSM_LOG(log, OSM_LOG_INFO, "dqr: layered channel list of the "
			"torus: %u layers of %u channels, every layer "
			"acyclic, checked in %.0f us\n",
			dqr_vlayers_count(ctx->recon.tl),
			ctx->recon.ref->num_ports, res.us_total);
		return 0;
	}
	OSM_LOG(log, OSM_LOG_INFO, "dqr: channel list of %u channels built "
		"in %.0f us; of %" PRIu64 " entries the base left unrouted "
		"(for %" PRIu64 " LIDs) DQR filled %" PRIu64 ", enabling %"
		PRIu64 " turns, and found no legal route for %" PRIu64
		", in %.0f us\n", ctx->recon.cl->len, res.us_list,
		res.rs.disconnected, res.rs.lids_disconnected, res.rs.changed,
		res.rs.turns, res.rs.holes + res.rs.failed, res.us_total);
	return 0;
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
		  const struct dqr_lfts *target, const char *what)
{
	struct dqr_lfts *held = NULL;
	uint32_t asked = 0;
	double ms = -1;
	int ret, blank;

	/*
	 * OpenSM's own way asked for, or a base whose one-layer graph is
	 * cyclic by design (it keeps its routes apart by SL, which a
	 * one-layer plan cannot see): all at once.
	 */
	if (ctx->opts.transition == DQR_TRANSITION_ONESHOT ||
	    (!ctx->recon_ready && dqr_bases_layered(&ctx->bases))) {
		ret = dqr_write_tables(ctx->osm, f, target);
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
	/* a re-routing layer in force or going: plan around it */
	ret = dqr_transition_begin(ctx, f, held, target,
			     ctx->ml_active || ctx->ml_drop ?
			     ctx->recon.cur : NULL, what);
out:
	dqr_lfts_free(held);
	/* the old fill is dropped by this plan, or by the upload at once */
	dqr_rerouting_drop_list_done(ctx);
	return ret;
}

/* Entries left without a legal route: recon's now, or the old layer's. */
static uint64_t no_legal_route(const struct dqr_ctx *ctx, int ret,
			       const struct dqr_recon_result *res)
{
	return ret == DQR_RECON_FAILED ? res->rs.failed : ctx->ml_num_drop;
}

/*
 * The reconfiguration's line and record, once its tables were handed
 * over; layer: what dqr_rerouting_update() returned; unrouted: what
 * no_legal_route() said before the hand-over (which forgets the old
 * layer's fill).
 */
static void log_outcome(struct dqr_ctx *ctx, int ret, int layer,
			const struct dqr_recon_result *res, uint64_t unrouted)
{
	if (layer < 0) {
		dqr_log_reconfig(ctx, res, "no legal route");
		OSM_LOG(&ctx->osm->log, OSM_LOG_ERROR, "ERR DQ17: dqr: no "
			"deadlock-free route within the channel list for %"
			PRIu64 " entries of connected switches; fallback=none: "
			"those stay unrouted\n", unrouted);
	} else if (ret == DQR_RECON_OK) {
		dqr_log_reconfig(ctx, res, layer > 0 ? "ok, re-routing layer"
				 : "ok");
	} else if (layer > 0) {
		dqr_log_reconfig(ctx, res, "re-routing layer");
	}
}

/*
 * Past the budget before an answer was ready: DQR's state is half done
 * and the fallback is a full routing, planned and uploaded as safely as
 * any change of tables.
 */
static int over_budget(struct dqr_ctx *ctx, const struct dqr_recon_result *res)
{
	char why[96];

	dqr_budget_fmt_over(ctx, why, sizeof(why));
	dqr_log_reconfig(ctx, res, "past its budget, not uploaded");
	OSM_LOG(&ctx->osm->log, OSM_LOG_ERROR, "ERR DQ30: dqr: "
		"reconfiguration %" PRIu64 " past its budget (%s) before DQR "
		"had an answer; falling back: the base engine routes the "
		"whole fabric (up*/down* where its tables are cyclic) and the "
		"change goes up in a safe order, withdrawn first where needed "
		"(budget_ms, budget_mb)\n", ctx->reconfigs, why);
	return -1;
}

int dqr_run_pass(struct dqr_ctx *ctx)
{
	osm_log_t *log = &ctx->osm->log;
	struct dqr_reroute_opts o;
	struct dqr_recon_result res;
	const struct dqr_lfts *target;
	struct dqr_fabric *f;
	struct dqr_lfts *t;
	char what[64];
	double t0 = dqr_now_ms(), t1;
	uint64_t unrouted;
	int ret, bad, layer;

	reroute_opts(ctx, &o);
	/* a fault's reroute has a budget; the start after a base has not */
	o.budget = &ctx->budget;
	dqr_rerouting_stretch(ctx, &o);
	ret = dqr_recon_update(&ctx->recon, ctx->proj, &ctx->diff, &o, &res);
	if (res.ports_failed)
		log_mesh(ctx);
	if (res.ports_failed || res.from_original)
		dqr_vlayers_log_repair(ctx);
	if (ret == DQR_RECON_OK && !res.ports_failed &&
	    !res.ports_recovered && !res.diff.entries) {
		/* a re-route without a change of cabling: nothing to do */
		if (ctx->transition.active)
			return dqr_transition_continue(ctx);
		OSM_LOG(log, OSM_LOG_VERBOSE, "dqr: routing pass without a "
			"change of cabling; tables unchanged\n");
		return dqr_write_tables(ctx->osm, ctx->recon.ref,
					ctx->ml_active ? ctx->ml.tables :
					ctx->recon.cur);
	}
	ctx->reconfigs++;
	if (ret == DQR_RECON_NOMEM) {
		OSM_LOG(log, OSM_LOG_ERROR, "ERR DQ15: dqr: out of memory "
			"rerouting; falling back to base routing\n");
		return -1;
	}
	layer = ret == DQR_RECON_OVER ? -1 : dqr_rerouting_update(ctx, ret, &o);
	ctx->times.reroute = dqr_now_ms() - t0;
	if (dqr_budget_over(&ctx->budget))
		return over_budget(ctx, &res);
	if (layer < 0 && ctx->opts.fallback == DQR_FALLBACK_BASE) {
		dqr_log_reconfig(ctx, &res, "no legal route, not uploaded");
		OSM_LOG(log, OSM_LOG_ERROR, "ERR DQ16: dqr: no deadlock-free "
			"route within the channel list for %" PRIu64 " entries "
			"of connected switches; fallback=base: the base engine "
			"routes the whole fabric (up*/down* where its tables "
			"are cyclic) and the change goes up in a safe order, "
			"withdrawn first where needed\n",
			no_legal_route(ctx, ret, &res));
		return -1;
	}
	unrouted = no_legal_route(ctx, ret, &res);
	target = layer > 0 ? ctx->ml.tables : ctx->recon.cur;
	f = dqr_fabric_clone(ctx->proj);
	t = dqr_lfts_clone(target);
	if (!f || !t) {
		dqr_fabric_free(f);
		dqr_lfts_free(t);
		OSM_LOG(log, OSM_LOG_ERROR, "ERR DQ15: dqr: out of memory "
			"keeping the tables; falling back to base routing\n");
		return -1;
	}
	keep_pass(ctx, f, t);
	snprintf(what, sizeof(what), "reconfiguration %" PRIu64,
		 ctx->reconfigs);
	t1 = dqr_now_ms();
	bad = ctx->opts.verify ?
	      dqr_judge(ctx, what, ctx->times.project, 0) : 0;
	ctx->times.verify = dqr_now_ms() - t1;
	if (bad > 0) {
		if (layer < 0)
			log_outcome(ctx, ret, layer, &res, unrouted);
		/* DQR admits no such table: this is a bug, say so loudly */
		OSM_LOG(log, OSM_LOG_ERROR, "ERR DQ18: dqr: the verifier "
			"rejects the tables of %s; not uploading them: the "
			"base engine routes from scratch and the change of "
			"tables is NOT guaranteed deadlock free\n", what);
		return -1;
	}
	/*
	 * The switches hold the tables before this update, whose
	 * dependencies the channel list holds, unless the list was rebuilt
	 * for the original tables (dqr_transition_begin() judges the rest).
	 */
	if (layer == 0 && !res.from_original)
		ctx->transition.held_cl = ctx->recon.cl;
	/*
	 * On a torus's layers the proof puts every hop pair of the changed
	 * DLIDs' states into the list, those of the tables held included:
	 * it needs no list that knew them (plan_proved.c).
	 */
	if (layer == 0 && ctx->recon.tl)
		ctx->transition.held_cl = dqr_vlayers_list(ctx->recon.tl);
	bad = dqr_hand_over(ctx, ctx->proj, target, what);
	ctx->transition.held_cl = NULL;
	if (!bad)
		ctx->times.handed = dqr_now_ms() - ctx->times.start;
	log_outcome(ctx, ret, layer, &res, unrouted);
	if (bad)
		return -1;
	OSM_LOG(log, OSM_LOG_VERBOSE, "dqr: %s took %.2f ms in all\n", what,
		dqr_now_ms() - t0);
	return 0;
}
