/*
 * dqr_plugin.c - the event plugin OpenSM loads as "osmdqr".
 *
 * opensm.conf:
 *   event_plugin_name osmdqr
 *   event_plugin_options base=auto verify=on
 *   routing_engine dqr
 *
 * OpenSM loads event plugins before it sets its routing engines up, so
 * registering 'dqr' from create() makes the name known in time.
 *
 * The top of the plugin: calls the engine (dqr_engine.h), hands
 * OpenSM's events to the transition driver (dqr_transition.h), and
 * stamps the traps and sweeps that start a pass's clock.
 */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include <stdatomic.h>

/* first: it decides the layout of OpenSM's structs (perfmgr, pthread) */
#include <opensm/osm_config.h>
#include <opensm/osm_event_plugin.h>
#include <opensm/osm_opensm.h>
#include <opensm/osm_version.h>

#include "dqr_engine.h"
#include "dqr_transition.h"
#include "options/options.h"
#include "util/timing.h"

#ifndef PACKAGE_VERSION
#define PACKAGE_VERSION "?"
#endif

/*
 * What one VL can carry, said once at load: safety always, the FT
 * paper's guarantee of k - 1 faults per switch group only with the
 * re-routing layer, which needs SL2VL tables (qos TRUE).
 */
static void say_guarantee(osm_opensm_t *osm)
{
	if (osm->subn.opt.qos)
		return;
	OSM_LOG(&osm->log, OSM_LOG_SYS | OSM_LOG_INFO, "osmdqr: NOTICE: "
		"qos FALSE, one VL: every table state the plugin uploads is "
		"loop free and deadlock free; DQR repairs what its channel "
		"list allows, and past that the plugin routes what is left "
		"up*/down* and moves there safely (some pairs wait a drain); "
		"'qos TRUE' adds the FT paper's re-routing layer on VL 1, "
		"which holds k - 1 faults per switch group of a fat tree\n");
}

static void *dqr_create(struct osm_opensm *osm)
{
	static const external_routing_engine_module_t module = {
		.name = "dqr",
		.setup = dqr_engine_setup,
	};
	struct dqr_options opts;
	struct dqr_ctx *ctx;
	cl_status_t status;
	char err[512], eff[256];

	dqr_options_init(&opts);
	if (dqr_options_parse(osm->subn.opt.event_plugin_options, &opts, err,
			      sizeof(err))) {
		OSM_LOG(&osm->log, OSM_LOG_ERROR,
			"ERR DQ01: osmdqr: event_plugin_options: %s; plugin "
			"not loaded, routing engine 'dqr' not registered\n",
			err);
		return NULL;
	}
	ctx = dqr_ctx_new(osm, &opts);
	if (!ctx) {
		OSM_LOG(&osm->log, OSM_LOG_ERROR,
			"ERR DQ02: osmdqr: out of memory; plugin not loaded, "
			"routing engine 'dqr' not registered\n");
		return NULL;
	}
	/*
	 * Last step: once registered, OpenSM keeps pointers into this
	 * object, so create() must not fail (and get dlclose'd) after it.
	 */
	status = osm_register_external_routing_engine(osm, &module, ctx);
	if (status != CL_SUCCESS) {
		OSM_LOG(&osm->log, OSM_LOG_ERROR,
			"ERR DQ03: osmdqr: cannot register routing engine "
			"'dqr' (%s); plugin not loaded\n",
			CL_STATUS_MSG(status));
		dqr_ctx_free(ctx);
		return NULL;
	}
	dqr_options_format(&opts, eff, sizeof(eff));
	OSM_LOG(&osm->log, OSM_LOG_INFO,
		"osmdqr %s: routing engine 'dqr' registered (%s)\n",
		PACKAGE_VERSION, eff);
	say_guarantee(osm);
	return ctx;
}

/* OpenSM has destroyed its routing engines, ours included, by now. */
static void dqr_delete(void *plugin_data)
{
	dqr_ctx_free(plugin_data);
}

/*
 * The first trap since the last routing pass that makes OpenSM sweep
 * heavy (a link changed state, or a port's local changes other than its
 * node description alone, which OpenSM does not sweep for): the earliest
 * the plugin learns of a fault.  The trap receiver runs on its own
 * thread, hence the atomic stamp.  start_times() still discards a stamp
 * that no sweep followed soon enough.
 */
static void stamp_trap(struct dqr_ctx *ctx, const ib_mad_notice_attr_t *n)
{
	double none = 0.0;
	unsigned num;

	if (!n || !ib_notice_is_generic(n))
		return;
	num = cl_ntoh16(n->g_or_v.generic.trap_num);
	if (num != SM_LINK_STATE_CHANGED_TRAP && num != SM_LOCAL_CHANGES_TRAP)
		return;
	if (num == SM_LOCAL_CHANGES_TRAP &&
	    n->data_details.ntc_144.change_flgs ==
	    TRAP_144_MASK_NODE_DESCRIPTION_CHANGE)
		return;
	atomic_compare_exchange_strong(&ctx->t_trap, &none, dqr_now_ms());
}

/*
 * Traps and sweeps only start the clock here: after a trap OpenSM
 * sweeps and calls the routing engine with the degraded subnet, which
 * is where DQR runs.
 */
static void dqr_report(void *plugin_data, osm_epi_event_id_t event_id,
		       void *event_data)
{
	struct dqr_ctx *ctx = plugin_data;

	switch (event_id) {
	case OSM_EVENT_ID_TRAP:
		stamp_trap(ctx, event_data);
		break;
	case OSM_EVENT_ID_HEAVY_SWEEP_START:
		/* the SM's thread, as the routing pass that reads it */
		ctx->t_sweep = dqr_now_ms();
		break;
	case OSM_EVENT_ID_UCAST_ROUTING_DONE:
		/* every LFT Set answered: a staged transition goes on */
		dqr_transition_routing_done(ctx);
		break;
	default:
		break;
	}
}

osm_event_plugin_t osm_event_plugin = {
	.osm_version = OSM_VERSION,
	.create = dqr_create,
	.delete = dqr_delete,
	.report = dqr_report,
};
