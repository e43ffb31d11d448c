/*
 * dqr_transition.h - handing new tables to the switches stage by stage.
 *
 * Below the reconfiguration pass (dqr_reconfig.h), which decides what to
 * hand over; above dqr_report.h, which records a transition complete,
 * and switch_tables.h, which writes each stage.  OpenSM's event plugin
 * reports the end of every upload here.
 */
#ifndef DQR_PLUGIN_TRANSITION_H
#define DQR_PLUGIN_TRANSITION_H

#include "dqr_ctx.h"

int dqr_transition_init(struct dqr_ctx *ctx);
void dqr_transition_destroy(struct dqr_ctx *ctx);

/*
 * Starts the change from held (what the switches hold) to target, both
 * in the indices of f.  one: with a re-routing layer, target's one-layer
 * part (the plan goes around the layer).  -1 when the tables could not
 * be written (the pass must fail).
 */
int dqr_transition_begin(struct dqr_ctx *ctx, const struct dqr_fabric *f,
		   const struct dqr_lfts *held, const struct dqr_lfts *target,
		   const struct dqr_reaction *r, const char *what);

/* A routing pass while a transition runs on unchanged cabling. */
int dqr_transition_continue(struct dqr_ctx *ctx);

/* 1 when a transition runs towards target on the same cabling as f. */
int dqr_transition_same(const struct dqr_ctx *ctx, const struct dqr_fabric *f,
		  const struct dqr_lfts *target);

/* OSM_EVENT_ID_UCAST_ROUTING_DONE: every LFT Set of the pass answered. */
void dqr_transition_routing_done(struct dqr_ctx *ctx);

#endif
