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

#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

/* first: it decides the layout of OpenSM's structs (perfmgr, pthread) */
#include <opensm/osm_config.h>
#include <opensm/osm_event_plugin.h>
#include <opensm/osm_opensm.h>
#include <opensm/osm_version.h>

#include "dqr_engine.h"
#include "dqr_fast.h"
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

/* 1 when the operator wrote key=... in event_plugin_options */
static int given(const char *str, const char *key)
{
	size_t n = strlen(key);

	while (str && *str) {
		str += strspn(str, " \t");
		if (!strncmp(str, key, n) && str[n] == '=')
			return 1;
		str += strcspn(str, " \t");
	}
	return 0;
}

/*
 * An option combination that cannot work, and what happens instead:
 * ERR DQ32 when the operator asked for it, a NOTICE when a default
 * meets the rest.
 */
static void conflict(osm_opensm_t *osm, int asked, const char *fmt, ...)
{
	char line[640];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	if (asked)
		OSM_LOG(&osm->log, OSM_LOG_ERROR, "ERR DQ32: osmdqr: %s\n",
			line);
	else
		OSM_LOG(&osm->log, OSM_LOG_SYS | OSM_LOG_INFO,
			"osmdqr: NOTICE: %s\n", line);
}

/* Where dqr stands in routing_engine: 0 first, 1 later, -1 absent. */
static int dqr_place(const char *names)
{
	char buf[256], *tok, *save = NULL;
	int i = 0;

	snprintf(buf, sizeof(buf), "%s", names ? names : "");
	for (tok = strtok_r(buf, ", \t", &save); tok;
	     tok = strtok_r(NULL, ", \t", &save), i++)
		if (!strcmp(tok, "dqr"))
			return i ? 1 : 0;
	return -1;
}

/*
 * What the re-routing layer (and stretch=, which needs it) cannot have
 * in this configuration, or NULL.  Whether the fabric is a fat tree is
 * known only at the first routing (dqr_engine.c says it then).
 */
static const char *layer_ruled_out(const osm_subn_opt_t *so,
				   const struct dqr_options *o, char *buf,
				   size_t len)
{
	if (o->base != DQR_BASE_AUTO && o->base != DQR_BASE_UTURN) {
		snprintf(buf, len, "base=%s (the layer needs base=uturn, or "
			 "auto on a fat tree)", dqr_base_engine_name(o->base));
		return buf;
	}
	if (!so->qos)
		return "qos FALSE (OpenSM programs SL2VL tables only with "
		       "'qos TRUE')";
	if (so->max_op_vls < 2) {
		snprintf(buf, len, "max_op_vls %u (VL 0 only)",
			 so->max_op_vls);
		return buf;
	}
	return NULL;
}

/*
 * Every combination of options and opensm.conf that cannot work, named
 * once at load with what happens instead.
 */
static void say_conflicts(osm_opensm_t *osm, const struct dqr_options *o)
{
	const osm_subn_opt_t *so = &osm->subn.opt;
	const char *str = so->event_plugin_options;
	const char *fb = dqr_fallback_names[o->fallback];
	const char *base = dqr_base_engine_name(o->base);
	const char *why;
	char buf[128];
	int place = dqr_place(so->routing_engine_names);

	if (place < 0)
		conflict(osm, 1, "routing_engine (%s) does not name dqr: the "
			 "plugin is loaded but OpenSM never calls it and "
			 "routes on its own; add 'routing_engine dqr' to "
			 "opensm.conf", so->routing_engine_names ?
			 so->routing_engine_names : "unset: minhop");
	else if (place > 0)
		conflict(osm, 0, "routing_engine %s: dqr routes only when "
			 "the engines before it fail",
			 so->routing_engine_names);
	why = layer_ruled_out(so, o, buf, sizeof(buf));
	/* vl_layer=on by default: qos FALSE is say_guarantee()'s NOTICE */
	if (o->vl_layer && why && given(str, "vl_layer"))
		conflict(osm, 1, "vl_layer=on cannot work with %s: no "
			 "re-routing layer; where one layer cannot hold a "
			 "repair, fallback=%s applies", why, fb);
	else if (o->vl_layer && why && so->qos &&
		 (o->base == DQR_BASE_AUTO || o->base == DQR_BASE_UTURN))
		conflict(osm, 0, "vl_layer=on (the default) cannot work with "
			 "%s: no re-routing layer; where one layer cannot "
			 "hold a repair, fallback=%s applies", why, fb);
	if (o->stretch != DQR_STRETCH_OFF && (why || !o->vl_layer))
		conflict(osm, 1, "stretch=%s needs the re-routing layer, "
			 "which %s rules out: ignored, DQR takes the "
			 "shortest legal route in one layer",
			 dqr_stretch_names[o->stretch],
			 why ? why : "vl_layer=off");
	if ((o->base == DQR_BASE_LASH || o->base == DQR_BASE_NUE ||
	     o->base == DQR_BASE_DFSSSP ||
	     o->base == DQR_BASE_TORUS_2QOS) && !so->qos)
		conflict(osm, 1, "base=%s keeps its routes apart by SL on "
			 "separate VLs, which needs 'qos TRUE' (OpenSM "
			 "programs SL2VL tables only then): with qos FALSE "
			 "its routes share VL 0 and may deadlock; the plugin "
			 "runs it all the same, and DQR stays off while its "
			 "tables are cyclic on one VL", base);
	if (given(str, "layer_moves") && o->layer_moves && !so->qos)
		conflict(osm, 1, "layer_moves=on needs routes on virtual "
			 "layers, which qos FALSE rules out (OpenSM programs "
			 "SL2VL tables only with 'qos TRUE'): ignored");
	if (o->intermediates && !so->qos)
		conflict(osm, 1, "intermediates=%u needs routes on virtual "
			 "layers, which qos FALSE rules out (OpenSM programs "
			 "SL2VL tables only with 'qos TRUE'): ignored",
			 o->intermediates);
	else if (o->intermediates && !o->layer_moves)
		conflict(osm, 1, "intermediates=%u needs layer_moves=on: "
			 "without a VL to move later repairs to, the IN "
			 "paper's routes take the room they need: ignored",
			 o->intermediates);
	if (given(str, "mesh_routing") && o->base != DQR_BASE_AUTO)
		conflict(osm, 1, "mesh_routing=%s applies to base=auto on a "
			 "mesh or a torus routed as one (lib's routing of "
			 "it): with base=%s it is ignored",
			 dqr_mesh_routing_names[o->mesh_routing], base);
	if (o->transition == DQR_TRANSITION_ONESHOT &&
	    given(str, "drain_ms"))
		conflict(osm, 1, "drain_ms cannot work with "
			 "transition=oneshot: every change goes to the "
			 "switches at once, with no stages to wait between");
	else if (o->transition == DQR_TRANSITION_ONESHOT)
		conflict(osm, 0, "transition=oneshot: every change goes to "
			 "the switches at once, as OpenSM's own engines do; "
			 "the states in between are not checked and may loop "
			 "or deadlock");
	else if (!o->drain_ms)
		conflict(osm, 0, "drain_ms=0: a stage that needs a drain "
			 "follows the one before at once, while packets of "
			 "earlier states may be in flight: such stages are "
			 "not guaranteed deadlock free");
	if (!o->verify)
		conflict(osm, 0, "verify=off: tables go to the switches "
			 "unverified; no summary line, and DQR's tables are "
			 "never refused (ERR DQ18)");
	if (o->fallback == DQR_FALLBACK_NONE && !o->budget_ms)
		conflict(osm, 1, "fallback=none cannot work with "
			 "budget_ms=0: every fault is past its budget before "
			 "DQR answers, and then the base engine routes the "
			 "whole fabric whatever fallback says");
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
	char err[512], eff[320];

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
	say_conflicts(osm, &opts);
	dqr_fast_start(ctx);
	dqr_tolerance_start(ctx);
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
 * A trap starts the clock of the pass that answers it, and (trap 128,
 * fast_path=on) the fast path's reaction on its own thread; without it,
 * OpenSM sweeps and calls the routing engine with the degraded subnet,
 * which is where DQR runs.
 */
static void dqr_report(void *plugin_data, osm_epi_event_id_t event_id,
		       void *event_data)
{
	struct dqr_ctx *ctx = plugin_data;

	switch (event_id) {
	case OSM_EVENT_ID_TRAP:
		stamp_trap(ctx, event_data);
		dqr_fast_trap(ctx, event_data);
		break;
	case OSM_EVENT_ID_HEAVY_SWEEP_START:
		/* a pass that ended without its event ended all the same */
		dqr_fast_pass_ends(&ctx->fast);
		dqr_fast_sweep_begins(ctx);
		/* the SM's thread, as the routing pass that reads it */
		ctx->t_sweep = dqr_now_ms();
		break;
	case OSM_EVENT_ID_UCAST_ROUTING_DONE:
		/* every LFT Set answered: a staged transition goes on; a
		 * fast reaction confirms its own stages */
		if (!dqr_fast_busy(&ctx->fast))
			dqr_transition_routing_done(ctx);
		dqr_fast_pass_ends(&ctx->fast);
		break;
	case OSM_EVENT_ID_LFT_CHANGE:
		/* a block answered, on OpenSM's receiver thread */
		dqr_lft_answered(&ctx->lft_wait, event_data);
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
