/*
 * dqr_rerouting.c - the FT paper's re-routing layer inside OpenSM.  Called
 * by dqr_reconfig.c (and dqr_engine.c for the hook); calls no other module.
 *
 * On a fat tree routed by base=uturn, when DQR cannot hold a repair in
 * one layer (recon leaves entries without a legal route), the entries
 * are filled outside the channel list and the whole routing goes on two
 * VLs (lib/ftree/rerouting_layer.h): path_sl gives every route its SL and
 * update_sl2vl moves the routes with a U-turn to VL 1 at their first
 * U-turn.  OpenSM asks for both only through the engine in use, so the
 * callbacks are ours while the layer is in force, and OpenSM's defaults
 * come back when it goes.  What OpenSM and ibsim do with them:
 * doc/uturn-vl-notes.md.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* first: it decides the layout of OpenSM's structs (perfmgr, pthread) */
#include <opensm/osm_config.h>
#include <opensm/osm_opensm.h>
#include <opensm/osm_switch.h>

#include "dqr_rerouting.h"

static uint8_t layer_path_sl(void *context, uint8_t hint,
			     const ib_net16_t slid, const ib_net16_t dlid)
{
	struct dqr_ctx *ctx = context;
	uint32_t src;

	if (!ctx->ml_active)
		return hint;
	/*
	 * Not the hint: every SL but 0 may carry VL-1 entries of some
	 * U-turn route, and a route outside them must stay on VL 0.
	 */
	src = dqr_lid_owner(ctx->ml_fabric, cl_ntoh16(slid));
	if (src == DQR_NONE)
		return 0;
	return dqr_vl_path_sl(ctx->ml.vl, src, cl_ntoh16(dlid));
}

static void layer_update_sl2vl(void *context, osm_physp_t *physp,
			       uint8_t in_port, uint8_t out_port,
			       ib_slvl_table_t *t)
{
	struct dqr_ctx *ctx = context;
	const struct dqr_fabric *f = ctx->ml_fabric;
	uint8_t vl[DQR_VL_NUM_SL];
	uint64_t guid;
	uint32_t node, sl;

	if (!ctx->ml_active)
		return;
	guid = cl_ntoh64(osm_node_get_node_guid(
				osm_physp_get_node_ptr(physp)));
	node = dqr_node_index_guid(ctx->ml_ix, guid);
	if (node == DQR_NONE)
		return;
	/*
	 * A CA's table only picks the VL of its own sending channel, which
	 * no other channel depends into: it cannot close a cycle, so it
	 * stays as OpenSM's QoS setup made it.  (OpenSM would not even send
	 * an all-VL-0 table: it compares with a stored copy that starts
	 * zeroed.)
	 */
	if (!dqr_is_switch(f, node))
		return;
	dqr_vl_sl2vl_table(ctx->ml.vl, f->nodes[node].sw_index, in_port,
			   out_port, vl);
	for (sl = 0; sl < DQR_VL_NUM_SL; sl++)
		ib_slvl_table_set(t, (uint8_t)sl, vl[sl]);
}

void dqr_rerouting_hook(struct dqr_ctx *ctx)
{
	struct osm_routing_engine *re = ctx->re;

	if (!re)
		return;
	if (ctx->ml_active) {
		re->path_sl = layer_path_sl;
		re->update_sl2vl = layer_update_sl2vl;
		return;
	}
	if (re->path_sl == layer_path_sl)
		re->path_sl = NULL;
	if (re->update_sl2vl == layer_update_sl2vl)
		re->update_sl2vl = NULL;
}

/* The layer out of force; its fill stays as the drop list. */
static void deactivate(struct dqr_ctx *ctx)
{
	if (ctx->ml_active) {
		free(ctx->ml_drop);
		ctx->ml_drop = ctx->ml.fill;
		ctx->ml_num_drop = ctx->ml.num_fill;
		ctx->ml.fill = NULL;
	}
	dqr_ml_release(&ctx->ml);
	dqr_fabric_free(ctx->ml_fabric);
	dqr_node_index_free(ctx->ml_ix);
	ctx->ml_fabric = NULL;
	ctx->ml_ix = NULL;
	ctx->ml_active = 0;
	dqr_rerouting_hook(ctx);
}

void dqr_rerouting_drop(struct dqr_ctx *ctx)
{
	deactivate(ctx);
	dqr_rerouting_drop_list_done(ctx);
}

void dqr_rerouting_drop_list_done(struct dqr_ctx *ctx)
{
	free(ctx->ml_drop);
	ctx->ml_drop = NULL;
	ctx->ml_num_drop = 0;
}

/* A port whose link cannot carry VL 1; 1 with it named in buf. */
static int port_without_vl1(const osm_physp_t *p, char *buf, size_t len)
{
	uint8_t op = ib_port_info_get_op_vls(&p->port_info);

	if (op >= 2)
		return 0;
	snprintf(buf, len, "port 0x%016" PRIx64 "/%u runs OperVLs %u (VL 0 "
		 "only)", cl_ntoh64(osm_physp_get_port_guid(p)),
		 osm_physp_get_port_num(p), op);
	return 1;
}

/* Why OpenSM cannot carry VL 1 now: 1 with the reason in buf, else 0. */
static int layer_blocked(struct dqr_ctx *ctx, char *buf, size_t len)
{
	cl_qmap_t *tbl = &ctx->osm->subn.sw_guid_tbl;
	cl_map_item_t *item;

	if (!ctx->osm->subn.opt.qos) {
		snprintf(buf, len, "OpenSM programs SL2VL tables only with "
			 "'qos TRUE' in opensm.conf");
		return 1;
	}
	if (ctx->osm->subn.opt.max_op_vls < 2) {
		snprintf(buf, len, "max_op_vls %u leaves VL 0 only",
			 ctx->osm->subn.opt.max_op_vls);
		return 1;
	}
	for (item = cl_qmap_head(tbl); item != cl_qmap_end(tbl);
	     item = cl_qmap_next(item)) {
		osm_node_t *node = ((osm_switch_t *)item)->p_node;
		uint8_t p, n = osm_node_get_num_physp(node);

		for (p = 1; p < n; p++) {
			osm_physp_t *a = osm_node_get_physp_ptr(node, p);
			osm_physp_t *b = a ? osm_physp_get_remote(a) : NULL;

			if (!b)
				continue;
			if (port_without_vl1(a, buf, len) ||
			    port_without_vl1(b, buf, len))
				return 1;
		}
	}
	return 0;
}

void dqr_rerouting_stretch(struct dqr_ctx *ctx, struct dqr_reroute_opts *o)
{
	char why[256];

	/* without a layer to take them, long routes beat no routes */
	if (ctx->opts.stretch == DQR_STRETCH_OFF || !ctx->opts.vl_layer ||
	    !ctx->ran_uturn || !ctx->ftree ||
	    layer_blocked(ctx, why, sizeof(why)))
		return;
	o->stretch_on = 1;
	o->stretch = (uint32_t)ctx->opts.stretch;
}

static void log_layer(struct dqr_ctx *ctx)
{
	const struct dqr_ml_stats *s = &ctx->ml.st;

	OSM_LOG(&ctx->osm->log, OSM_LOG_INFO, "dqr: re-routing layer: %"
		PRIu64 " entries for %" PRIu64 " LIDs that one layer cannot "
		"hold routed outside the channel list; %" PRIu64 " routes "
		"with a U-turn go to VL 1 there, on %u SLs (mask 0x%04x), %"
		PRIu64 " VL-1 SL2VL entries, %" PRIu64 " routes left on SL 0; "
		"VL 0 and VL 1 acyclic, no dependency back to VL 0; fill %.0f "
		"us, layers %.2f ms, verified in %.2f ms\n", s->filled,
		s->lids, s->vl.uturn_routes, s->vl.sls_used, s->vl.sl_mask,
		s->vl.vl1_entries, s->vl.unplaced, s->us_fill,
		s->vl.build_ms, s->vl.verify_ms);
}

int dqr_rerouting_update(struct dqr_ctx *ctx, int recon_ret,
		      const struct dqr_reroute_opts *o)
{
	osm_log_t *log = &ctx->osm->log;
	struct dqr_ml ml;
	char why[256];

	if (recon_ret != DQR_RECON_FAILED && !ctx->ml_active)
		return 0;
	if (!ctx->opts.vl_layer || !ctx->ran_uturn || !ctx->ftree) {
		if (ctx->opts.vl_layer)
			OSM_LOG(log, OSM_LOG_INFO, "dqr: the re-routing layer "
				"needs the fat tree of base=uturn; none "
				"here\n");
		deactivate(ctx);
		return -1;
	}
	if (layer_blocked(ctx, why, sizeof(why))) {
		OSM_LOG(log, OSM_LOG_ERROR, "ERR DQ25: dqr: some entries need "
			"the FT paper's re-routing layer on VL 1, but %s; not "
			"using it\n", why);
		deactivate(ctx);
		return -1;
	}
	if (dqr_ml_build(&ctx->recon, ctx->proj, ctx->ftree, o, &ml, why,
			 sizeof(why))) {
		OSM_LOG(log, OSM_LOG_ERROR, "ERR DQ26: dqr: re-routing layer: "
			"%s\n", why);
		deactivate(ctx);
		return -1;
	}
	if (!ml.num_fill && !ml.st.left) {
		/* one layer holds everything again (a cable came back) */
		dqr_ml_release(&ml);
		deactivate(ctx);
		OSM_LOG(log, OSM_LOG_INFO, "dqr: the re-routing layer is no "
			"longer needed: back to one layer, SLs and SL2VL to "
			"OpenSM's\n");
		return 0;
	}
	if (!dqr_ml_usable(&ml)) {
		OSM_LOG(log, OSM_LOG_ERROR, "ERR DQ27: dqr: the re-routing "
			"layer cannot hold it either: %" PRIu64 " entries "
			"still without route, VL 0 %s, VL 1 %s, %" PRIu64
			" dependencies from VL 1 back to VL 0\n", ml.st.left,
			ml.st.vl.acyclic[0] ? "acyclic" : "CYCLIC",
			ml.st.vl.acyclic[1] ? "acyclic" : "CYCLIC",
			ml.st.vl.edges_down);
		dqr_ml_release(&ml);
		deactivate(ctx);
		return -1;
	}
	deactivate(ctx);
	ctx->ml = ml;
	ctx->ml_fabric = dqr_fabric_clone(ctx->proj);
	ctx->ml_ix = ctx->ml_fabric ? dqr_node_index_build(ctx->ml_fabric) :
		     NULL;
	if (!ctx->ml_ix) {
		OSM_LOG(log, OSM_LOG_ERROR, "ERR DQ26: dqr: re-routing layer: "
			"out of memory\n");
		deactivate(ctx);
		return -1;
	}
	ctx->ml_active = 1;
	dqr_rerouting_hook(ctx);
	log_layer(ctx);
	return 1;
}
