/*
 * dqr_sls.c - path SLs and SL2VL inside OpenSM: the topology's while it
 * sets them (lib: the re-routing layer of a fat tree, virtual layers of
 * a grid), else the base engine's; the VLs the ports carry, which decide
 * whether a topology may have its layers; and lash's SLs, read for DQR.
 *
 * OpenSM asks for path SLs and SL2VL tables only through the engine in
 * use (ours), so our callbacks stand whenever either may answer, and
 * hand the question to whoever does.  OpenSM takes its lock exclusively
 * while it routes and shared while the SA answers, so the callbacks
 * never meet a reconfiguration half done.  What OpenSM and ibsim do
 * with them: doc/uturn-vl-notes.md.
 *
 * Called by dqr_engine.c and dqr_reconfig.c; calls dqr_report.c for
 * the log.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

/* first: it decides the layout of OpenSM's structs (perfmgr, pthread) */
#include <opensm/osm_config.h>
#include <opensm/osm_opensm.h>
#include <opensm/osm_switch.h>

#include "dqr_report.h"
#include "dqr_sls.h"
#include "reaction/base_choice.h"

/* the base engine whose tables stand, if it answers anything itself */
static struct osm_routing_engine *base_re(const struct dqr_ctx *ctx)
{
	return ctx->bases.ran ? &ctx->bases.ran->re : NULL;
}

static uint8_t sls_path_sl(void *context, uint8_t hint,
			   const ib_net16_t slid, const ib_net16_t dlid)
{
	struct dqr_ctx *ctx = context;
	struct osm_routing_engine *re = base_re(ctx);

	if (dqr_topology_sets_sls(&ctx->react))
		return dqr_topology_path_sl(&ctx->react, cl_ntoh16(slid),
					    cl_ntoh16(dlid), hint);
	if (re && re->path_sl)
		return re->path_sl(re->context, hint, slid, dlid);
	return hint;
}

void dqr_sls_in_force(struct dqr_ctx *ctx, int locked)
{
	int r;

	if (!locked)
		CL_PLOCK_EXCL_ACQUIRE(&ctx->osm->lock);
	r = dqr_react_in_force(&ctx->react);
	if (!locked)
		CL_PLOCK_RELEASE(&ctx->osm->lock);
	if (r)
		OSM_LOG(&ctx->osm->log, OSM_LOG_ERROR, "ERR DQ41: dqr: out "
			"of memory: the SA keeps answering the SLs of the "
			"tables before the last change\n");
}

static void sls_update_sl2vl(void *context, osm_physp_t *physp,
			     uint8_t in_port, uint8_t out_port,
			     ib_slvl_table_t *t)
{
	struct dqr_ctx *ctx = context;
	struct osm_routing_engine *re = base_re(ctx);
	uint8_t vl[16];
	uint64_t guid;
	unsigned sl, n;

	if (!dqr_topology_sets_sls(&ctx->react)) {
		if (re && re->update_sl2vl)
			re->update_sl2vl(re->context, physp, in_port,
					 out_port, t);
		return;
	}
	guid = cl_ntoh64(osm_node_get_node_guid(
				osm_physp_get_node_ptr(physp)));
	/* the SLs past n keep what OpenSM's QoS setup gave them */
	n = dqr_topology_sl2vl(&ctx->react, guid, in_port, out_port, vl);
	for (sl = 0; sl < n; sl++)
		ib_slvl_table_set(t, (uint8_t)sl, vl[sl]);
}

void dqr_sls_hook(struct dqr_ctx *ctx)
{
	struct osm_routing_engine *re = ctx->re, *base = base_re(ctx);
	int ours = dqr_topology_sets_sls(&ctx->react);

	if (!re)
		return;
	re->path_sl = ours || (base && base->path_sl) ? sls_path_sl : NULL;
	re->update_sl2vl = ours || (base && base->update_sl2vl) ?
			   sls_update_sl2vl : NULL;
}

/* The data VLs of a VLCap or OperVLs encoding: 1, 2, 3, 4, 5 -> 1, 2,
 * 4, 8, 15. */
static unsigned vls_of(unsigned e)
{
	return e >= 5 ? 15 : e ? 1u << (e - 1) : 0;
}

/* 1 with p named in buf when its link's OperVLs carry VL 0 only */
static int vl0_only(const osm_physp_t *p, char *buf, size_t len)
{
	uint8_t op = ib_port_info_get_op_vls(&p->port_info);

	if (op >= 2)
		return 0;
	snprintf(buf, len, "port 0x%016" PRIx64 "/%u runs OperVLs %u (VL 0 "
		 "only)", cl_ntoh64(osm_physp_get_port_guid(p)),
		 osm_physp_get_port_num(p), op);
	return 1;
}

/*
 * The facts of struct dqr_vl_caps: the data VLs every switch port with a
 * cable carries, the fewest of their VLCaps and max_op_vls (OpenSM sets
 * OperVLs after routing, to the smaller of the two), with what sets it;
 * and the first link end whose OperVLs carry VL 0 only.
 */
void dqr_read_vl_caps(struct dqr_ctx *ctx, struct dqr_vl_caps *c)
{
	cl_qmap_t *tbl = &ctx->osm->subn.sw_guid_tbl;
	cl_map_item_t *item;
	unsigned cap;

	c->qos = ctx->osm->subn.opt.qos;
	c->max_op_vls = ctx->osm->subn.opt.max_op_vls;
	c->vls = vls_of(c->max_op_vls);
	snprintf(c->vls_limit, sizeof(c->vls_limit), "max_op_vls %u",
		 c->max_op_vls);
	c->vl0_only[0] = '\0';
	for (item = cl_qmap_head(tbl); item != cl_qmap_end(tbl);
	     item = cl_qmap_next(item)) {
		osm_node_t *node = ((osm_switch_t *)item)->p_node;
		uint8_t p, np = osm_node_get_num_physp(node);

		for (p = 1; p < np; p++) {
			osm_physp_t *a = osm_node_get_physp_ptr(node, p);
			osm_physp_t *b = a ? osm_physp_get_remote(a) : NULL;

			if (!b)
				continue;
			if (!c->vl0_only[0] &&
			    !vl0_only(a, c->vl0_only, sizeof(c->vl0_only)))
				vl0_only(b, c->vl0_only, sizeof(c->vl0_only));
			cap = vls_of(ib_port_info_get_vl_cap(&a->port_info));
			if (cap >= c->vls)
				continue;
			c->vls = cap;
			snprintf(c->vls_limit, sizeof(c->vls_limit), "port "
				 "0x%016" PRIx64 "/%u's VLCap",
				 cl_ntoh64(osm_physp_get_port_guid(a)), p);
		}
	}
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

int dqr_sls_take_lash(struct dqr_ctx *ctx)
{
	const struct dqr_fabric *f = ctx->fabric;
	struct dqr_reactor *x = &ctx->react;
	struct dqr_grid *g;
	uint8_t *sl;
	char why[256], desc[160];
	unsigned n = 0;
	int ret = 1;

	if (!ctx->bases.ran || ctx->bases.ran->id != DQR_BASE_LASH ||
	    !f || !ctx->lfts)
		return 1;
	dqr_read_vl_caps(ctx, &x->caps);
	if (dqr_choose_lash_grid(x, f, &g, desc, sizeof(desc)))
		goto out;
	sl = malloc((size_t)f->num_switches * f->num_switches + 1);
	if (!sl) {
		dqr_grid_free(g);
		dqr_choose_lash_refused(x, desc, "out of memory");
		goto out;
	}
	if (lash_sls(ctx, f, sl, &n, why, sizeof(why))) {
		dqr_grid_free(g);
		dqr_choose_lash_refused(x, desc, why);
	} else {
		ret = dqr_choose_lash(x, f, g, ctx->lfts, sl, n, desc);
	}
	free(sl);
out:
	dqr_log_notes(ctx, &x->notes);
	dqr_sls_hook(ctx);
	return ret;
}
