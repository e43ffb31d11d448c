/*
 * dqr_engine.c - the routing engine 'dqr': a base engine's routing,
 * modelled and verified before OpenSM uploads it.  OpenSM calls it; it
 * calls the DQR pass (dqr_reconfig.c) and the modules below.
 */
#include <inttypes.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* first: it decides the layout of OpenSM's structs (perfmgr, pthread) */
#include <opensm/osm_config.h>
#include <opensm/osm_opensm.h>

#include "dqr_engine.h"
#include "dqr_fast.h"
#include "dqr_reconfig.h"
#include "dqr_report.h"
#include "dqr_sls.h"
#include "dqr_transition.h"
#include "reaction/base_choice.h"
#include "subnet_model.h"
#include "util/timing.h"


struct dqr_ctx *dqr_ctx_new(osm_opensm_t *osm, const struct dqr_options *o)
{
	struct dqr_ctx *ctx = calloc(1, sizeof(*ctx));

	if (!ctx)
		return NULL;
	ctx->osm = osm;
	dqr_reactor_init(&ctx->react, o);
	dqr_bases_init(&ctx->bases, osm);
	if (dqr_lft_wait_init(&ctx->lft_wait)) {
		free(ctx);
		return NULL;
	}
	if (dqr_transition_init(ctx)) {
		dqr_lft_wait_destroy(&ctx->lft_wait);
		free(ctx);
		return NULL;
	}
	dqr_ids_resume(ctx);
	return ctx;
}

static void drop_last_pass(struct dqr_ctx *ctx)
{
	if (ctx->have_report)
		dqr_judgement_release(&ctx->judged);
	dqr_fabric_free(ctx->fabric);
	dqr_lfts_free(ctx->lfts);
	ctx->have_report = 0;
	ctx->fabric = NULL;
	ctx->lfts = NULL;
}

void dqr_ctx_free(struct dqr_ctx *ctx)
{
	if (!ctx)
		return;
	dqr_tolerance_stop(ctx);
	dqr_fast_stop(ctx);
	dqr_transition_destroy(ctx);
	dqr_bases_destroy(&ctx->bases);
	dqr_recon_drop(ctx);
	drop_last_pass(ctx);
	dqr_reactor_release(&ctx->react);
	dqr_lft_wait_destroy(&ctx->lft_wait);
	free(ctx);
}

/* ------------------------------------------------------------------ */
/* a base routing pass */

static void forward_optional(struct dqr_ctx *ctx);

/* Models the base's tables; 0, or -1 (logged: they go out unverified). */
static int model_pass(struct dqr_ctx *ctx, double *ms)
{
	struct dqr_model_stats st;
	struct dqr_fabric *f;
	struct dqr_lfts *t;
	char err[256];
	double t0 = dqr_now_ms();

	drop_last_pass(ctx);
	if (dqr_subnet_model_build(&ctx->osm->subn, &f, &t, &st, err,
				   sizeof(err))) {
		OSM_LOG(&ctx->osm->log, OSM_LOG_ERROR, "ERR DQ09: dqr: cannot "
			"model the subnet (%s); the tables of base '%s' go "
			"out unverified\n", err, dqr_base_name(ctx->bases.ran));
		return -1;
	}
	if (st.nodes_skipped || st.links_down || st.links_bad || st.lids_bad)
		OSM_LOG(&ctx->osm->log, OSM_LOG_VERBOSE, "dqr: model leaves "
			"out %u nodes, %u links down, %u inconsistent link "
			"ends, %u LID ranges\n", st.nodes_skipped,
			st.links_down, st.links_bad, st.lids_bad);
	ctx->fabric = f;
	ctx->lfts = t;
	*ms = dqr_now_ms() - t0;
	return 0;
}

/*
 * The end of every base pass, ctx->fabric and ctx->lfts set: start DQR on
 * the tables (filling what the base left unrouted), judge them unless
 * verify=off, and hand them to OpenSM.  ms_model: modelling time.
 */
static int start_and_hand_over(struct dqr_ctx *ctx, double ms_model)
{
	char base[128], what[160];
	uint64_t filled = 0;

	dqr_start_after_base(ctx, &filled);
	dqr_fmt_base(ctx, base, sizeof(base));
	if (!ctx->react.opts.verify) {
		OSM_LOG(&ctx->osm->log, OSM_LOG_INFO,
			"dqr: base %s: verify=off, filled %" PRIu64
			" entries\n", base, filled);
		return dqr_hand_over(ctx, ctx->fabric, ctx->lfts, NULL, base);
	}
	snprintf(what, sizeof(what), "base %s", base);
	/* whatever the verdict, the base's own tables stand */
	dqr_judge(ctx, what, ms_model, filled);
	return dqr_hand_over(ctx, ctx->fabric, ctx->lfts, NULL, what);
}

/*
 * lib's own routing of the subnet as it is, by choose (a function of
 * reaction/base_choice.h, which sets the topology): 0 with ctx->fabric
 * and ctx->lfts its model and tables, 1 when it does not fit (said).
 * say_model: a subnet that cannot be modelled is said here (the first
 * try of a pass).
 */
static int lib_route(struct dqr_ctx *ctx,
		     int (*choose)(struct dqr_reactor *x,
				   const struct dqr_fabric *f,
				   struct dqr_lfts **t),
		     int say_model)
{
	struct dqr_model_stats mst;
	struct dqr_fabric *f;
	struct dqr_lfts *held, *t;
	char err[256];
	int ret;

	if (dqr_subnet_model_build(&ctx->osm->subn, &f, &held, &mst, err,
				   sizeof(err))) {
		if (say_model) {
			dqr_choose_no_fat_tree(&ctx->react, err);
			dqr_log_notes(ctx, &ctx->react.notes);
		}
		return 1;
	}
	dqr_lfts_free(held);
	ret = choose(&ctx->react, f, &t);
	dqr_log_notes(ctx, &ctx->react.notes);
	if (ret) {
		dqr_fabric_free(f);
		return 1;
	}
	drop_last_pass(ctx);
	ctx->fabric = f;
	ctx->lfts = t;
	return 0;
}

/*
 * base=uturn (or auto): lib's fat-tree routing on the subnet as it is.
 * Returns what OpenSM's second step expects, or 1 when the fabric is no
 * fat tree (then a base engine of OpenSM's must route).
 */
static int uturn_pass(struct dqr_ctx *ctx)
{
	double t0 = dqr_now_ms();

	ctx->bases.ran = NULL;
	ctx->bases.failed = 0;
	forward_optional(ctx);
	dqr_read_vl_caps(ctx, &ctx->react.caps);
	if (lib_route(ctx, dqr_choose_fat_tree, 1))
		return 1;
	return start_and_hand_over(ctx, dqr_now_ms() - t0);
}

/*
 * base=auto on a fabric that is no fat tree, or base=twophase: lib's
 * routing of a mesh, torus or hypercube it recognises
 * (reaction/base_choice.h); the tables go to OpenSM and DQR as
 * uturn_pass's do.  Returns what OpenSM's second step expects, or 1 when
 * OpenSM's engines must route (no grid).
 */
static int grid_pass(struct dqr_ctx *ctx)
{
	double t0 = dqr_now_ms();

	if (lib_route(ctx, dqr_choose_grid, 0))
		return 1;
	/*
	 * No OpenSM engine ran: the optional callbacks (SL, VL, multicast)
	 * go to OpenSM's engine of the same kind, dimension order (or
	 * up*\/down*), which base=auto never set up (unset callbacks); the
	 * log and the status name lib's routing.
	 */
	ctx->bases.ran = &ctx->bases.base[
		!strcmp(ctx->react.topo.routing, "updn") ? DQR_BASE_UPDN :
		DQR_BASE_DOR];
	forward_optional(ctx);
	return start_and_hand_over(ctx, dqr_now_ms() - t0);
}

/*
 * Runs the base engine for the whole fabric, then starts DQR on its
 * tables.  Returns what OpenSM's second routing step expects.
 */
static int base_pass(struct dqr_ctx *ctx)
{
	double ms;
	int ret, choice = ctx->react.opts.base;

	dqr_recon_drop(ctx);
	dqr_reactor_reset(&ctx->react);
	if (choice == DQR_BASE_TWOPHASE) {
		/* a hypercube, or OpenSM's updn after ERR DQ42 */
		ctx->try_uturn = 0;
		dqr_read_vl_caps(ctx, &ctx->react.caps);
		ret = grid_pass(ctx);
		if (ret != 1)
			return ret;
		choice = DQR_BASE_UPDN;
	}
	if (ctx->try_uturn) {
		ctx->try_uturn = 0;
		ret = uturn_pass(ctx);
		if (ret != 1)
			return ret;
		if (choice == DQR_BASE_UTURN)
			choice = DQR_BASE_UPDN;
		if (choice == DQR_BASE_AUTO) {
			ret = grid_pass(ctx);
			if (ret != 1)
				return ret;
		}
	}
	ret = dqr_bases_fwd_tables(&ctx->bases, choice);
	forward_optional(ctx);
	if (ret < 0) {
		/* OpenSM's fallback decides the tables now, not our model */
		drop_last_pass(ctx);
		return ret;
	}
	if (model_pass(ctx, &ms))
		return 0;
	/* a base of OpenSM's: DQR in one layer, or on lash's layers */
	dqr_topology_any(&ctx->react, dqr_bases_layered(&ctx->bases));
	dqr_sls_take_lash(ctx);
	return start_and_hand_over(ctx, ms);
}

/* ------------------------------------------------------------------ */
/* the optional callbacks, forwarded to the base that ran */

static struct osm_routing_engine *ran_re(void *context)
{
	struct dqr_ctx *ctx = context;

	return ctx->bases.ran ? &ctx->bases.ran->re : NULL;
}

static void tr_dump_tables(void *context)
{
	struct osm_routing_engine *re = ran_re(context);

	if (re && re->ucast_dump_tables)
		re->ucast_dump_tables(re->context);
}

static void tr_update_vlarb(void *context, osm_physp_t *port,
			    uint8_t port_num, ib_vl_arb_table_t *block,
			    unsigned block_length, unsigned block_num)
{
	struct osm_routing_engine *re = ran_re(context);

	if (re && re->update_vlarb)
		re->update_vlarb(re->context, port, port_num, block,
				 block_length, block_num);
}

static ib_api_status_t tr_mcast_build_stree(void *context,
					    osm_mgrp_box_t *mgb)
{
	struct osm_routing_engine *re = ran_re(context);

	if (re && re->mcast_build_stree)
		return re->mcast_build_stree(re->context, mgb);
	return IB_UNSUPPORTED;
}

/*
 * OpenSM reads these pointers from routing_engine_used (= our re) each
 * time it needs them, and uses its own default when one is NULL: offer a
 * trampoline exactly when the base that ran has the callback.
 */
static void forward_optional(struct dqr_ctx *ctx)
{
	struct osm_routing_engine *re = ctx->re, *base = ran_re(ctx);

	if (!re)
		return;
	re->ucast_dump_tables = base && base->ucast_dump_tables ?
				tr_dump_tables : NULL;
	re->update_vlarb = base && base->update_vlarb ? tr_update_vlarb : NULL;
	re->mcast_build_stree = base && base->mcast_build_stree ?
				tr_mcast_build_stree : NULL;
	/*
	 * lash's path_sl answers the default SL unless the engine in use
	 * has lash's type; its SLs are what keep its routes deadlock free.
	 */
	if (base && ctx->bases.ran->id == DQR_BASE_LASH)
		re->type = OSM_ROUTING_ENGINE_TYPE_LASH;
	else
		re->type = ctx->own_type;
	/* path SLs and SL2VL: the topology's, or the base's */
	dqr_sls_hook(ctx);
}

/* ------------------------------------------------------------------ */
/* the routing callbacks */

/*
 * Step 1 of a base pass.  uturn (and auto, which tries it first) needs
 * only OpenSM's hop counts; if it then finds no fat tree, step 2 runs a
 * base engine's step 1 itself (dqr_bases_fwd_tables()).
 */
static int base_lid_matrices(struct dqr_ctx *ctx)
{
	ctx->try_uturn = ctx->react.opts.base == DQR_BASE_UTURN ||
			 ctx->react.opts.base == DQR_BASE_AUTO;
	if (ctx->try_uturn || ctx->react.opts.base == DQR_BASE_TWOPHASE)
		return osm_ucast_mgr_build_lid_matrices(
			&ctx->osm->sm.ucast_mgr);
	return dqr_bases_lid_matrices(&ctx->bases, ctx->react.opts.base);
}

/*
 * A trap counts as the start of a pass only when the heavy sweep (or,
 * without one, the pass) began within this long of it: OpenSM signals
 * its sweep at once on such a trap, and a stamp older than this came
 * from a trap OpenSM did not sweep for.
 */
#define TRAP_WINDOW_MS 1000.0

/*
 * A routing pass begins at now: the clock of its figures starts at the
 * earliest sign of the sweep that brought it, a trap or the heavy
 * sweep's start, and OpenSM's events stamped so far are used up.
 */
static void start_times(struct dqr_ctx *ctx, double now)
{
	struct dqr_pass_times *t = &ctx->times;
	double trap = atomic_exchange(&ctx->t_trap, 0.0);

	memset(t, 0, sizeof(*t));
	t->handed = -1;
	t->start = now;
	t->since = "pass";
	if (ctx->t_sweep && ctx->t_sweep <= t->start) {
		t->start = ctx->t_sweep;
		t->since = "sweep";
	}
	if (trap && trap <= t->start && t->start - trap <= TRAP_WINDOW_MS) {
		t->start = trap;
		t->since = "trap";
	}
	ctx->t_sweep = 0;
}

static int dqr_build_lid_matrices(void *context)
{
	struct dqr_ctx *ctx = context;
	double t0;

	/* a fast reaction under way finishes first (dqr_fast.h) */
	dqr_fast_pass_begins(ctx);
	t0 = dqr_now_ms();
	start_times(ctx, t0);
	ctx->pass_dqr = !dqr_plan_pass(ctx);
	ctx->times.project = dqr_now_ms() - t0;
	if (ctx->pass_dqr)
		/* DQR keeps the tables; OpenSM's hop counts serve the SA */
		return osm_ucast_mgr_build_lid_matrices(
			&ctx->osm->sm.ucast_mgr);
	return base_lid_matrices(ctx);
}

static int dqr_build_fwd_tables(void *context)
{
	struct dqr_ctx *ctx = context;
	int ret, fell = 0;

	ctx->passes++;
	if (ctx->pass_dqr) {
		ret = dqr_run_pass(ctx);
		ctx->pass_dqr = 0;
		if (!ret)
			return 0;
		/* fallback: the base engine routes from scratch */
		fell = 1;
		dqr_recon_drop(ctx);
		if (base_lid_matrices(ctx))
			return -1;
	}
	ret = base_pass(ctx);
	/* from the first routing on, the status files say what routes */
	dqr_status_update(ctx, fell ? DQR_STATUS_FALLBACK : DQR_STATUS_ROUTED);
	return ret;
}

static void dqr_destroy(void *context)
{
	struct dqr_ctx *ctx = context;

	/* OpenSM frees the re right after this: forget it */
	dqr_transition_destroy(ctx);
	dqr_bases_destroy(&ctx->bases);
	dqr_recon_drop(ctx);
	ctx->re = NULL;
}

int dqr_engine_setup(struct osm_routing_engine *re, osm_opensm_t *osm)
{
	struct dqr_ctx *ctx = re->context;

	if (!ctx)
		return -1;
	if (ctx->re) {
		OSM_LOG(&osm->log, OSM_LOG_ERROR,
			"ERR DQ04: dqr: routing engine 'dqr' is listed twice "
			"in routing_engine; only the first one runs\n");
		return -1;
	}
	ctx->re = re;
	ctx->own_type = re->type;
	re->build_lid_matrices = dqr_build_lid_matrices;
	re->ucast_build_fwd_tables = dqr_build_fwd_tables;
	re->destroy = dqr_destroy;
	/* set after each pass, from the base that ran */
	re->ucast_dump_tables = NULL;
	re->update_sl2vl = NULL;
	re->update_vlarb = NULL;
	re->path_sl = NULL;
	re->mcast_build_stree = NULL;
	return 0;
}
