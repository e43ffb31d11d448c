/*
 * dqr_rerouting.h - the FT paper's re-routing layer inside OpenSM.
 *
 * Called by the reconfiguration pass (dqr_reconfig.c), and by the engine
 * for its callbacks (hook); calls nothing else of the plugin.
 */
#ifndef DQR_REROUTING_H
#define DQR_REROUTING_H

#include "dqr_ctx.h"
#include "reroute/reroute.h"

/*
 * After dqr_recon_update() returned recon_ret: 1 when ctx->ml now holds
 * the layer (target ctx->ml.tables), 0 when recon's tables stand alone,
 * -1 when a layer is needed and cannot be had (logged; the caller falls
 * back).
 */
int dqr_rerouting_update(struct dqr_ctx *ctx, int recon_ret,
		      const struct dqr_reroute_opts *o);

/* Our path_sl and update_sl2vl exactly while the layer is in force. */
void dqr_rerouting_hook(struct dqr_ctx *ctx);

/* stretch= into o when the layer could take what it leaves */
void dqr_rerouting_stretch(struct dqr_ctx *ctx, struct dqr_reroute_opts *o);

/* The layer and its drop list, all of it. */
void dqr_rerouting_drop(struct dqr_ctx *ctx);

/* The old fill is dropped by a plan, or by an upload at once. */
void dqr_rerouting_drop_list_done(struct dqr_ctx *ctx);

#endif
