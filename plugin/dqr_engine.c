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
#include "dqr_rerouting.h"
#include "dqr_vlayers.h"
#include "dqr_reconfig.h"
#include "dqr_report.h"
#include "dqr_transition.h"
#include "routing/grid_route.h"
#include "routing/ref_routing.h"
#include "routing/uturn_route.h"
#include "shape/grid_shape.h"
#include "subnet_model.h"
#include "util/timing.h"


struct dqr_ctx *dqr_ctx_new(osm_opensm_t *osm, const struct dqr_options *o)
{
	struct dqr_ctx *ctx = calloc(1, sizeof(*ctx));

	if (!ctx)
		return NULL;
	ctx->osm = osm;
	ctx->opts = *o;
	dqr_bases_init(&ctx->bases, osm);
	if (dqr_transition_init(ctx)) {
		free(ctx);
		return NULL;
	}
	dqr_ids_resume(ctx);
	return ctx;
}

static void drop_last_pass(struct dqr_ctx *ctx)
{
	if (ctx->have_report)
		dqr_verify_report_free(&ctx->report);
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
	dqr_transition_destroy(ctx);
	dqr_bases_destroy(&ctx->bases);
	dqr_recon_drop(ctx);
	drop_last_pass(ctx);
	dqr_ftree_free(ctx->ftree);
	dqr_mesh_plugin_free(ctx->mesh);
	dqr_wrap_bias_free(ctx->wraps);
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
	if (!ctx->opts.verify) {
		OSM_LOG(&ctx->osm->log, OSM_LOG_INFO,
			"dqr: base %s: verify=off, filled %" PRIu64
			" entries\n", base, filled);
		return dqr_hand_over(ctx, ctx->fabric, ctx->lfts, base);
	}
	snprintf(what, sizeof(what), "base %s", base);
	/* whatever the verdict, the base's own tables stand */
	dqr_judge(ctx, what, ms_model, filled);
	return dqr_hand_over(ctx, ctx->fabric, ctx->lfts, what);
}

/* Why base=uturn could not route: loud when the user asked for it. */
static void uturn_refused(struct dqr_ctx *ctx, const char *why)
{
	if (ctx->opts.base == DQR_BASE_UTURN)
		OSM_LOG(&ctx->osm->log, OSM_LOG_ERROR, "ERR DQ24: dqr: "
			"base=uturn cannot route this fabric (%s); routing "
			"with updn instead\n", why);
	else
		OSM_LOG(&ctx->osm->log, OSM_LOG_INFO, "dqr: 'uturn' does "
			"not fit (%s), trying a mesh or hypercube, then "
			"'ftree'\n", why);
	/* what needs the fat tree, said once: the shape is known now */
	if (!ctx->said_no_tree && (ctx->opts.stretch != DQR_STRETCH_OFF ||
				   (ctx->opts.vl_layer &&
				    ctx->osm->subn.opt.qos)))
		OSM_LOG(&ctx->osm->log, OSM_LOG_SYS | OSM_LOG_INFO,
			"osmdqr: NOTICE: no fat tree, so no re-routing "
			"layer: vl_layer and stretch= have no effect; DQR "
			"repairs in one layer and fallback=%s applies where "
			"that cannot hold the repair\n",
			dqr_fallback_names[ctx->opts.fallback]);
	ctx->said_no_tree = 1;
}

static void log_uturn(struct dqr_ctx *ctx, const struct dqr_ftree *ft,
		      const struct dqr_uturn_stats *st)
{
	OSM_LOG(&ctx->osm->log, OSM_LOG_INFO, "dqr: uturn: fat tree of %u "
		"levels, %u switch groups, %u end ports; %" PRIu64 " switch "
		"entries towards switches need a U-turn (%" PRIu64 " turn "
		"at their group's U-turn switch, %" PRIu64 " elsewhere, %"
		PRIu64 " turn further down), %" PRIu64 " left to DQR, %.1f "
		"ms\n",
		ft->num_levels, ft->num_groups, ft->num_end, st->uturn_entries,
		st->at_group_uturn, st->elsewhere, st->down_first,
		st->unrouted, st->us / 1e3);
}

/*
 * base=uturn (or auto): lib's fat-tree routing on the subnet as it is.
 * Returns what OpenSM's second step expects, or 1 when the fabric is no
 * fat tree (then a base engine of OpenSM's must route).
 */
static int uturn_pass(struct dqr_ctx *ctx)
{
	struct dqr_model_stats mst;
	struct dqr_uturn_stats st;
	struct dqr_fabric *f;
	struct dqr_lfts *held, *t;
	struct dqr_ftree *ft;
	char err[256];
	double t0 = dqr_now_ms();

	ctx->bases.ran = NULL;
	ctx->bases.failed = 0;
	forward_optional(ctx);
	if (dqr_subnet_model_build(&ctx->osm->subn, &f, &held, &mst, err,
				   sizeof(err))) {
		uturn_refused(ctx, err);
		return 1;
	}
	dqr_lfts_free(held);
	if (dqr_ftree_detect(f, &ft, err, sizeof(err))) {
		uturn_refused(ctx, err);
		dqr_fabric_free(f);
		return 1;
	}
	if (dqr_uturn_route(f, ft, &t, &st, err, sizeof(err))) {
		uturn_refused(ctx, err);
		dqr_ftree_free(ft);
		dqr_fabric_free(f);
		return 1;
	}
	drop_last_pass(ctx);
	ctx->fabric = f;
	ctx->lfts = t;
	dqr_ftree_free(ctx->ftree);
	ctx->ftree = ft;
	ctx->ran_uturn = 1;
	log_uturn(ctx, ft, &st);
	return start_and_hand_over(ctx, dqr_now_ms() - t0);
}

/*
 * The routing of a recognised grid, or 1 when lib's failed.  lib's
 * routings go by topo_gen's port numbers, so they route a conformed copy
 * whose tables are mapped back.
 */
static int grid_route(struct dqr_ctx *ctx, const struct dqr_fabric *f,
		      const struct dqr_grid *g, const char *desc,
		      enum dqr_ref_kind kind, struct dqr_lfts **out)
{
	char err[256];

	/*
	 * Shortest (e-cube) routes around a ring close a cycle on one VL;
	 * they need a VL per layer, and OpenSM programs SL2VL tables only
	 * with qos TRUE.  The mesh's routing never takes a wrap cable:
	 * deadlock free on one VL, and the mesh plug-in repairs it
	 * (doc/grids.md).
	 */
	if (g->kind == DQR_GRID_TORUS &&
	    (kind == DQR_REF_DOR || kind == DQR_REF_UPDN_MESH) &&
	    !dqr_vlayers_wanted(ctx))
		OSM_LOG(&ctx->osm->log, OSM_LOG_SYS | OSM_LOG_INFO,
			"osmdqr: NOTICE: %s: routed as a mesh on one VL "
			"(%s without the wrap cables, which carry only "
			"repairs); 'qos TRUE' in opensm.conf routes the "
			"shortest way round the rings, by e-cube on virtual "
			"layers\n", desc, kind == DQR_REF_DOR ?
			"dimension order" : "up*/down* from a corner");
	if (dqr_grid_route(f, g, kind, out, err, sizeof(err))) {
		OSM_LOG(&ctx->osm->log, OSM_LOG_ERROR, "ERR DQ35: dqr: %s: "
			"%s routing failed (%s); OpenSM's engines route it\n",
			desc, dqr_ref_name(kind), err);
		return 1;
	}
	return 0;
}

/* What the shape line says of the routing grid_pass() gives g. */
static const char *grid_routing_phrase(const struct dqr_ctx *ctx,
				       const struct dqr_grid *g)
{
	int updn = ctx->opts.mesh_routing == DQR_MESH_UPDN;

	if (g->kind == DQR_GRID_HYPERCUBE)
		return "lib's e-cube routing (deadlock free on one VL)";
	if (g->kind == DQR_GRID_TORUS && dqr_vlayers_wanted(ctx))
		return "lib's e-cube routing on virtual layers where the torus "
		       "allows it (qos TRUE), repaired with the DQR paper's "
		       "mesh plug-in in every layer";
	if (g->kind == DQR_GRID_TORUS && updn)
		return "lib's up*/down* routing from a corner of the mesh "
		       "inside the torus (mesh_routing=updn: deadlock free on "
		       "one VL; the wrap cables serve the repairs the mesh "
		       "cannot), repaired with the DQR paper's mesh plug-in";
	if (updn)
		return "lib's up*/down* routing from the corner "
		       "(mesh_routing=updn: shortest routes, deadlock free on "
		       "one VL, room for DQR's repairs), repaired with the "
		       "DQR paper's mesh plug-in";
	return "lib's dimension-order routing (deadlock free on one VL), "
	       "repaired with the DQR paper's mesh plug-in";
}

/*
 * base=auto on a fabric that is no fat tree: a mesh is routed by lib's
 * up*\/down* from its corner (dimension order with mesh_routing=dor), a
 * torus by e-cube on virtual layers (qos TRUE) or else as its mesh the
 * same way, a hypercube by e-cube; the tables go to OpenSM and DQR as
 * uturn_pass's do.  Returns what OpenSM's second step expects,
 * or 1 when OpenSM's engines must route (no grid).
 */
static int grid_pass(struct dqr_ctx *ctx)
{
	struct dqr_model_stats mst;
	struct dqr_fabric *f;
	struct dqr_lfts *held, *t = NULL;
	struct dqr_grid *g;
	char err[256], desc[160];
	double t0 = dqr_now_ms();
	enum dqr_grid_kind g_kind;
	int mesh_updn;

	if (dqr_subnet_model_build(&ctx->osm->subn, &f, &held, &mst, err,
				   sizeof(err)))
		return 1;	/* uturn_pass logged why */
	dqr_lfts_free(held);
	if (dqr_grid_detect(f, &g, err, sizeof(err))) {
		OSM_LOG(&ctx->osm->log, OSM_LOG_INFO, "dqr: shape: no mesh, "
			"torus or hypercube (%s); trying 'ftree'\n", err);
		dqr_fabric_free(f);
		return 1;
	}
	dqr_grid_describe(g, desc, sizeof(desc));
	g_kind = g->kind;
	mesh_updn = g->kind != DQR_GRID_HYPERCUBE &&
		    ctx->opts.mesh_routing == DQR_MESH_UPDN;
	OSM_LOG(&ctx->osm->log, OSM_LOG_INFO, "dqr: shape: %s, %u switches; "
		"%s\n", desc, g->num_switches, grid_routing_phrase(ctx, g));
	if (g_kind == DQR_GRID_TORUS && dqr_vlayers_wanted(ctx) &&
	    !grid_route(ctx, f, g, desc, DQR_REF_DOR_WRAP, &t) &&
	    dqr_vlayers_take(ctx, f, &g, t, desc)) {
		dqr_lfts_free(t);
		t = NULL;
	}
	if (!t && grid_route(ctx, f, g, desc, g_kind == DQR_GRID_HYPERCUBE ?
			     DQR_REF_ECUBE : mesh_updn ? DQR_REF_UPDN_MESH :
			     DQR_REF_DOR, &t)) {
		dqr_grid_free(g);
		dqr_fabric_free(f);
		return 1;
	}
	mesh_updn = mesh_updn && !ctx->torus_tl;	/* not on the layers */
	if (g_kind != DQR_GRID_HYPERCUBE && !ctx->torus_tl) {
		ctx->mesh = dqr_mesh_plugin_new(f, g);
		if (!ctx->mesh)
			OSM_LOG(&ctx->osm->log, OSM_LOG_ERROR, "ERR DQ14: "
				"dqr: out of memory for the mesh plug-in; DQR "
				"repairs without it\n");
		if (mesh_updn && dqr_wrap_bias_new(f, g, &ctx->wraps))
			OSM_LOG(&ctx->osm->log, OSM_LOG_ERROR, "ERR DQ14: "
				"dqr: out of memory for the wrap cables' "
				"preference; DQR repairs without it\n");
	}
	dqr_grid_free(g);
	drop_last_pass(ctx);
	ctx->fabric = f;
	ctx->lfts = t;
	/*
	 * No OpenSM engine ran: the optional callbacks (SL, VL, multicast)
	 * go to OpenSM's engine of the same kind, dimension order (or
	 * up*\/down*), which base=auto never set up (unset callbacks); the
	 * log and the status name lib's routing (ran_grid).
	 */
	ctx->bases.ran = &ctx->bases.base[mesh_updn ? DQR_BASE_UPDN :
					  DQR_BASE_DOR];
	ctx->ran_grid = g_kind == DQR_GRID_HYPERCUBE || ctx->torus_tl ?
			"ecube" : mesh_updn ? "updn" : "dor";
	snprintf(ctx->grid_shape, sizeof(ctx->grid_shape), "%s", desc);
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
	int ret, choice = ctx->opts.base;

	dqr_recon_drop(ctx);
	ctx->ran_uturn = 0;
	ctx->ran_grid = NULL;
	ctx->ran_updn = 0;
	ctx->grid_shape[0] = '\0';
	dqr_mesh_plugin_free(ctx->mesh);
	ctx->mesh = NULL;
	dqr_wrap_bias_free(ctx->wraps);
	ctx->wraps = NULL;
	dqr_vlayers_drop(ctx);
	if (ctx->try_uturn) {
		ctx->try_uturn = 0;
		ret = uturn_pass(ctx);
		if (ret != 1)
			return ret;
		ctx->ran_uturn = 0;
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
	dqr_vlayers_take_lash(ctx);
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

static void tr_update_sl2vl(void *context, osm_physp_t *port,
			    uint8_t in_port_num, uint8_t out_port_num,
			    ib_slvl_table_t *t)
{
	struct osm_routing_engine *re = ran_re(context);

	if (re && re->update_sl2vl)
		re->update_sl2vl(re->context, port, in_port_num, out_port_num,
				 t);
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

static uint8_t tr_path_sl(void *context, uint8_t path_sl_hint,
			  const ib_net16_t slid, const ib_net16_t dlid)
{
	struct osm_routing_engine *re = ran_re(context);

	if (re && re->path_sl)
		return re->path_sl(re->context, path_sl_hint, slid, dlid);
	return path_sl_hint;
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
	re->update_sl2vl = base && base->update_sl2vl ? tr_update_sl2vl : NULL;
	re->update_vlarb = base && base->update_vlarb ? tr_update_vlarb : NULL;
	re->path_sl = base && base->path_sl ? tr_path_sl : NULL;
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
	dqr_rerouting_hook(ctx);
	dqr_vlayers_hook(ctx);
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
	ctx->try_uturn = ctx->opts.base == DQR_BASE_UTURN ||
			 ctx->opts.base == DQR_BASE_AUTO;
	if (ctx->try_uturn)
		return osm_ucast_mgr_build_lid_matrices(
			&ctx->osm->sm.ucast_mgr);
	return dqr_bases_lid_matrices(&ctx->bases, ctx->opts.base);
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
	double t0 = dqr_now_ms();

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
