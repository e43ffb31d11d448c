/*
 * dqr_vlayers.c - tori routed by e-cube on virtual layers inside OpenSM
 * (lib/vlayers/vlayers.h).
 *
 * Every route keeps one layer end to end: SL = VL = the layer its source
 * and destination switches give it.  OpenSM asks the engine in use for
 * both, so path_sl answers the layer and update_sl2vl maps SL l to VL l
 * (l below the layers in use, or with layer_moves=on below the VLs the
 * ports carry) on every port; the other SLs keep what OpenSM's QoS
 * setup gives them.  A repair keeps every SL it can (a
 * queue pair keeps the SL it connected with); with layer_moves=on it
 * moves routes to another layer where no path fits their own, so
 * path_sl answers the layers in force, moves included, and SL2VL maps
 * the spare layers from the start.  OpenSM takes its lock exclusively
 * while it routes and shared while the SA answers, so the callbacks
 * never meet a repair.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

/* first: it decides the layout of OpenSM's structs (perfmgr, pthread) */
#include <opensm/osm_config.h>
#include <opensm/osm_opensm.h>
#include <opensm/osm_switch.h>

#include "dqr_vlayers.h"
#include "routes/route_walk.h"

int dqr_vlayers_wanted(const struct dqr_ctx *ctx)
{
	return ctx->osm->subn.opt.qos;
}

const char *dqr_vlayers_whose(const struct dqr_ctx *ctx)
{
	return ctx->bases.ran && ctx->bases.ran->id == DQR_BASE_LASH ?
	       "lash's" : "e-cube's";
}

/* The layers in force, or NULL. */
static const struct dqr_vlayers *in_force(const struct dqr_ctx *ctx)
{
	if (ctx->recon_ready && ctx->recon.tl)
		return ctx->recon.tl;
	return ctx->torus_tl;
}

static uint8_t torus_path_sl(void *context, uint8_t hint,
			     const ib_net16_t slid, const ib_net16_t dlid)
{
	struct dqr_ctx *ctx = context;
	const struct dqr_vlayers *tl = in_force(ctx);
	const struct dqr_fabric *f = ctx->recon_ready && ctx->recon.tl ?
				     ctx->recon.ref : ctx->fabric;
	uint32_t s, d;

	if (!tl || !f)
		return hint;
	s = dqr_lid_switch(f, cl_ntoh16(slid));
	d = dqr_lid_switch(f, cl_ntoh16(dlid));
	if (s == DQR_NONE || d == DQR_NONE)
		return hint;
	return dqr_vlayers_sl(tl, s, d);
}

static void torus_update_sl2vl(void *context, osm_physp_t *physp,
			       uint8_t in_port, uint8_t out_port,
			       ib_slvl_table_t *t)
{
	struct dqr_ctx *ctx = context;
	const struct dqr_vlayers *tl = in_force(ctx);
	unsigned sl, n;

	(void)physp;
	(void)in_port;
	(void)out_port;
	if (!tl)
		return;
	/* the spare layers too: a move needs no new SL2VL tables */
	n = dqr_vlayers_count(tl);
	if (ctx->torus_vls > n)
		n = ctx->torus_vls;
	for (sl = 0; sl < n; sl++)
		ib_slvl_table_set(t, (uint8_t)sl, (uint8_t)sl);
}

void dqr_vlayers_hook(struct dqr_ctx *ctx)
{
	struct osm_routing_engine *re = ctx->re;

	if (!re)
		return;
	if (in_force(ctx)) {
		re->path_sl = torus_path_sl;
		re->update_sl2vl = torus_update_sl2vl;
		return;
	}
	if (re->path_sl == torus_path_sl)
		re->path_sl = NULL;
	if (re->update_sl2vl == torus_update_sl2vl)
		re->update_sl2vl = NULL;
}

void dqr_vlayers_drop(struct dqr_ctx *ctx)
{
	dqr_vlayers_free(ctx->torus_tl);
	dqr_grid_free(ctx->torus_grid);
	ctx->torus_tl = NULL;
	ctx->torus_grid = NULL;
}

/* The data VLs of a VLCap or OperVLs encoding: 1, 2, 3, 4, 5 -> 1, 2,
 * 4, 8, 15. */
static unsigned vls_of(unsigned e)
{
	return e >= 5 ? 15 : e ? 1u << (e - 1) : 0;
}

/*
 * The data VLs every switch port with a cable carries: the fewest of
 * their VLCaps and max_op_vls (OpenSM sets OperVLs after routing, to
 * the smaller of the two), with what sets it in buf.
 */
static unsigned vls_carried(struct dqr_ctx *ctx, char *buf, size_t len)
{
	cl_qmap_t *tbl = &ctx->osm->subn.sw_guid_tbl;
	unsigned vls = vls_of(ctx->osm->subn.opt.max_op_vls), cap;
	cl_map_item_t *item;

	snprintf(buf, len, "max_op_vls %u", ctx->osm->subn.opt.max_op_vls);
	for (item = cl_qmap_head(tbl); item != cl_qmap_end(tbl);
	     item = cl_qmap_next(item)) {
		osm_node_t *node = ((osm_switch_t *)item)->p_node;
		uint8_t p, np = osm_node_get_num_physp(node);

		for (p = 1; p < np; p++) {
			osm_physp_t *a = osm_node_get_physp_ptr(node, p);

			if (!a || !osm_physp_get_remote(a))
				continue;
			cap = vls_of(ib_port_info_get_vl_cap(&a->port_info));
			if (cap >= vls)
				continue;
			vls = cap;
			snprintf(buf, len, "port 0x%016" PRIx64 "/%u's VLCap",
				 cl_ntoh64(osm_physp_get_port_guid(a)), p);
		}
	}
	return vls;
}

/*
 * 1 (why in buf) when the ports cannot carry tl's layers; else 0, with
 * the layers SL2VL maps and moves may use set (layer_moves=on: every VL
 * the ports carry, up to DQR's 8 layers; off: tl's own).
 */
static int take_vls(struct dqr_ctx *ctx, struct dqr_vlayers *tl,
		    char *buf, size_t len)
{
	unsigned n = dqr_vlayers_count(tl), vls;
	char lim[96];

	vls = vls_carried(ctx, lim, sizeof(lim));
	if (vls < n) {
		snprintf(buf, len, "%s carries %u VLs, below the %u layers",
			 lim, vls, n);
		return 1;
	}
	if (vls > DQR_VLAYERS_MAX)
		vls = DQR_VLAYERS_MAX;
	ctx->torus_vls = ctx->opts.layer_moves ? vls : n;
	dqr_vlayers_allow_moves(tl, ctx->opts.layer_moves ? vls : 0);
	return 0;
}

/* What a repair does to SLs, for the log line at start. */
static const char *sl_policy(const struct dqr_ctx *ctx, char *buf,
			     size_t len)
{
	if (!ctx->opts.layer_moves)
		return "repairs never change an SL (layer_moves=off)";
	snprintf(buf, len, "a repair keeps every SL it can and, where no "
		 "path fits, moves routes to another of layers 0-%u "
		 "(layer_moves=on; their SLs change)", ctx->torus_vls - 1);
	return buf;
}

int dqr_vlayers_take(struct dqr_ctx *ctx, const struct dqr_fabric *f,
		   struct dqr_grid **g, const struct dqr_lfts *t,
		   const char *desc)
{
	struct dqr_vlayers *tl;
	char why[256];
	unsigned n;

	dqr_vlayers_drop(ctx);
	if (dqr_vlayers_new(f, *g, t, &tl, why, sizeof(why)))
		goto refused;
	n = dqr_vlayers_count(tl);
	if (take_vls(ctx, tl, why, sizeof(why))) {
		dqr_vlayers_free(tl);
		goto refused;
	}
	ctx->torus_tl = tl;
	ctx->torus_grid = *g;
	*g = NULL;
	OSM_LOG(&ctx->osm->log, OSM_LOG_SYS | OSM_LOG_INFO, "osmdqr: %s: "
		"e-cube on %u virtual layers (SL = VL = the rings a route "
		"wraps; SL2VL maps SL l to VL l), repaired by the mesh "
		"plug-in in every layer; %s\n", desc, n,
		sl_policy(ctx, why, sizeof(why)));
	return 0;
refused:
	OSM_LOG(&ctx->osm->log, OSM_LOG_SYS | OSM_LOG_INFO, "osmdqr: NOTICE: "
		"%s: no e-cube on virtual layers (%s); routed as a mesh on "
		"one VL\n", desc, why);
	return 1;
}

/*
 * lash's SL of every pair of switches, by its own path_sl on their LIDs:
 * the SLs its hosts were given.  lash answers only while the engine in
 * use has its type, and OpenSM records the engine in use only after the
 * routing returns: ours (of lash's type, dqr_engine.c) stands in for the
 * read, under OpenSM's lock.  0, or 1 with why in buf.
 */
static int lash_sls(struct dqr_ctx *ctx, const struct dqr_fabric *f,
		    uint8_t *sl, unsigned *n, char *buf, size_t len)
{
	struct osm_routing_engine *lash = &ctx->bases.ran->re;
	struct osm_routing_engine *used = ctx->osm->routing_engine_used;
	uint32_t S = f->num_switches, s, d;
	uint16_t ls, ld;

	*n = 1;
	if (!lash->path_sl || ctx->re->type != OSM_ROUTING_ENGINE_TYPE_LASH) {
		snprintf(buf, len, "lash gives no path SLs");
		return 1;
	}
	ctx->osm->routing_engine_used = ctx->re;
	for (s = 0; s < S; s++) {
		ls = (uint16_t)dqr_switch_lid(f, s);
		for (d = 0; d < S; d++) {
			ld = (uint16_t)dqr_switch_lid(f, d);
			sl[(size_t)s * S + d] = s == d ? 0 :
				lash->path_sl(lash->context, 0,
					      cl_hton16(ls), cl_hton16(ld));
			if (sl[(size_t)s * S + d] >= *n)
				*n = sl[(size_t)s * S + d] + 1u;
		}
	}
	ctx->osm->routing_engine_used = used;
	if (*n > DQR_VLAYERS_MAX) {
		snprintf(buf, len, "lash uses SLs up to %u, DQR's layers "
			 "stop at %u", *n - 1, DQR_VLAYERS_MAX - 1);
		return 1;
	}
	return 0;
}

int dqr_vlayers_take_lash(struct dqr_ctx *ctx)
{
	const struct dqr_fabric *f = ctx->fabric;
	struct dqr_vlayers *tl = NULL;
	struct dqr_grid *g = NULL;
	uint8_t *sl;
	char why[256], desc[160] = "";
	unsigned n = 0;

	if (!ctx->bases.ran || ctx->bases.ran->id != DQR_BASE_LASH ||
	    !f || !ctx->lfts)
		return 1;
	dqr_vlayers_drop(ctx);
	sl = malloc((size_t)f->num_switches * f->num_switches + 1);
	if (!sl) {
		snprintf(why, sizeof(why), "out of memory");
		goto refused;
	}
	if (!dqr_vlayers_wanted(ctx)) {
		snprintf(why, sizeof(why), "qos FALSE: OpenSM programs no "
			 "SL2VL tables");
		goto refused;
	}
	if (dqr_grid_detect(f, &g, why, sizeof(why)))
		goto refused;
	dqr_grid_describe(g, desc, sizeof(desc));
	if (lash_sls(ctx, f, sl, &n, why, sizeof(why)) ||
	    dqr_vlayers_new_sl(f, g, ctx->lfts, sl, n, &tl, why,
				    sizeof(why)) ||
	    take_vls(ctx, tl, why, sizeof(why)))
		goto refused;
	free(sl);
	ctx->torus_tl = tl;
	ctx->torus_grid = g;
	dqr_vlayers_hook(ctx);
	OSM_LOG(&ctx->osm->log, OSM_LOG_SYS | OSM_LOG_INFO, "osmdqr: %s: "
		"lash's %u virtual layers (SL = VL = layer; SL2VL maps SL l "
		"to VL l), repaired by the mesh plug-in in every layer; %s\n",
		desc, n, sl_policy(ctx, why, sizeof(why)));
	return 0;
refused:
	OSM_LOG(&ctx->osm->log, OSM_LOG_SYS | OSM_LOG_INFO, "osmdqr: NOTICE: "
		"base lash%s%s: DQR cannot keep lash's layers (%s); it is "
		"off, and after a fault lash routes the whole fabric "
		"again\n", *desc ? " on a " : "", desc, why);
	dqr_vlayers_free(tl);
	dqr_grid_free(g);
	free(sl);
	return 1;
}

void dqr_vlayers_log_repair(struct dqr_ctx *ctx)
{
	const struct dqr_vlayers_stats *st = &ctx->recon.torus;

	if (ctx->recon_ready && ctx->recon.pairs_moved_back)
		OSM_LOG(&ctx->osm->log, OSM_LOG_SYS | OSM_LOG_INFO, "osmdqr: "
			"NOTICE: from the original tables: %" PRIu64 " pairs "
			"of switches moved by repairs are back on their start "
			"SL; connections opened meanwhile keep the moved one "
			"until they ask the SA again\n",
			ctx->recon.pairs_moved_back);
	ctx->recon.pairs_moved_back = 0;
	if (!ctx->recon_ready || !ctx->recon.tl || !st->links_failed)
		return;
	OSM_LOG(&ctx->osm->log, OSM_LOG_INFO, "dqr: mesh plug-in: %u of %u "
		"failed links bypassed by a local path in every layer, %u "
		"more with the topology-agnostic search in the routes' own "
		"layers (%u DLIDs; %u turns enabled, %u after a reorder, %"
		PRIu64 " entries)%s\n", st->links_bypassed, st->links_failed,
		st->links_searched, st->lids_searched, st->turns, st->reorders,
		st->changed, st->links_bypassed + st->links_searched <
		st->links_failed ? "; the rest has no legal route on the "
		"layers" : "");
	if (!st->lids_moved)
		return;
	/* hosts keep the SL they connected with: the operator must know */
	OSM_LOG(&ctx->osm->log, OSM_LOG_SYS | OSM_LOG_INFO, "osmdqr: NOTICE: "
		"no path fitted the own layers of %u DLIDs' routes: %" PRIu64
		" pairs of switches moved to another layer (layer_moves=on; "
		"%" PRIu64 " pairs off their start SL, %u layers in use); "
		"the SA answers their new SL, and connections opened before "
		"keep the old one until they ask again\n", st->lids_moved,
		st->pairs_moved, dqr_vlayers_moved(ctx->recon.tl),
		dqr_vlayers_count(ctx->recon.tl));
}
