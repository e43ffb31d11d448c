/*
 * dqr_engine.h - the routing engine 'dqr' and the plugin context.
 *
 * Top of the plugin, below dqr_plugin.c only: OpenSM calls the engine's
 * callbacks, which run a base engine or a DQR pass (dqr_reconfig.h).
 *
 * The first routing pass, and every pass after new hardware appeared,
 * runs a base engine (base_engines.h); the plugin then models the subnet
 * with those tables, builds the channel list and fills the entries the
 * base left unrouted with DQR (lib/recon/recon.h).  Every later pass
 * that only lost or regained known cables and nodes is a DQR pass: the
 * tables in force are kept and only the entries of disconnected flows
 * are rerouted (dqr_reconfig.c).
 * Every set of tables is verified before OpenSM uploads it.
 */
#ifndef DQR_ENGINE_H
#define DQR_ENGINE_H

/* first: it decides the layout of OpenSM's structs (perfmgr, pthread) */
#include <opensm/osm_config.h>
#include <opensm/osm_opensm.h>

#include "dqr_ctx.h"
#include "options/options.h"

struct dqr_ctx *dqr_ctx_new(osm_opensm_t *osm, const struct dqr_options *o);

/* Frees everything, base engines included. */
void dqr_ctx_free(struct dqr_ctx *ctx);

/* external_routing_engine_module_t.setup; re->context is the dqr_ctx */
int dqr_engine_setup(struct osm_routing_engine *re, osm_opensm_t *osm);

#endif
