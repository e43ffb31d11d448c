/*
 * dqr_engine.h - the routing engine 'dqr' and the plugin context.
 *
 * A routing pass runs a base engine (base_engines.h), then models the
 * subnet with the tables about to be uploaded and verifies them: every
 * (source, DLID) pair, the channel dependency graph, and its channel list
 * or one cycle.  The result of the last pass stays in the context, for
 * the reconfiguration that the next trap asks for.
 */
#ifndef DQR_ENGINE_H
#define DQR_ENGINE_H

#include <stddef.h>
#include <stdint.h>

/* first: it decides the layout of OpenSM's structs (perfmgr, pthread) */
#include <opensm/osm_config.h>
#include <opensm/osm_opensm.h>

#include "base_engines.h"
#include "channel_list.h"
#include "fabric.h"
#include "lft.h"
#include "options.h"
#include "verify.h"

/*
 * A disconnected flow, the destination-routed way: switch sw's route to
 * dlid does not arrive.  Every flow from sw itself and from the end ports
 * that inject at sw takes that route, so one entry stands for 'pairs'
 * (source port, DLID) pairs; DQR reroutes entries, not pairs.
 */
struct dqr_unrouted {
	uint32_t sw;		/* switch index */
	uint32_t dlid;
	uint32_t fail_sw;	/* switch index where the route breaks */
	uint32_t pairs;		/* (source, dlid) pairs behind it */
	uint8_t result;		/* enum dqr_walk_result */
	uint8_t connected;	/* a cable path exists: can be fixed */
};

struct dqr_ctx {
	osm_opensm_t *osm;
	struct dqr_options opts;

	/* our entry in OpenSM's engine list, from setup to destroy */
	struct osm_routing_engine *re;
	osm_routing_engine_type_t own_type;

	struct dqr_bases bases;

	/* the last routing pass that was verified */
	uint64_t passes;
	struct dqr_fabric *fabric;
	struct dqr_lfts *lfts;		/* the new_lft of that pass */
	struct dqr_verify_report report;
	int have_report;
	struct dqr_channel_list cl;	/* valid when have_channel_list */
	int have_channel_list;
	struct dqr_unrouted *unrouted;	/* the disconnected flows */
	size_t num_unrouted;
	uint64_t unrouted_pairs;	/* sum of their pairs */
};

struct dqr_ctx *dqr_ctx_new(osm_opensm_t *osm, const struct dqr_options *o);

/* Frees everything, base engines included. */
void dqr_ctx_free(struct dqr_ctx *ctx);

/* external_routing_engine_module_t.setup; re->context is the dqr_ctx */
int dqr_engine_setup(struct osm_routing_engine *re, osm_opensm_t *osm);

/*
 * Lists the disconnected flows of t on f (lib types only).  Returns 0 and
 * a malloc'ed array in *out (NULL when there are none), or -1 when out of
 * memory.
 */
int dqr_collect_unrouted(const struct dqr_fabric *f, const struct dqr_lfts *t,
			 struct dqr_unrouted **out, size_t *n,
			 uint64_t *pairs);

#endif
