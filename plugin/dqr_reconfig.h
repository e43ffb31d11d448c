/*
 * dqr_reconfig.h - DQR inside OpenSM: the reconfiguration pass.
 *
 * Called by the engine (dqr_engine.c); calls down into the transition
 * driver (dqr_transition.h), the SLs (dqr_sls.h) and the reports
 * (dqr_report.h).  The decisions are lib's reactor's (ctx->react).
 */
#ifndef DQR_RECONFIG_H
#define DQR_RECONFIG_H

#include <stdint.h>

#include "dqr_ctx.h"

/* Forgets DQR's state (channel list, plan, re-routing layer); the
 * topology stays. */
void dqr_recon_drop(struct dqr_ctx *ctx);

/*
 * Step 1 of a pass: model the subnet as it is now and project it onto the
 * reference.  Returns 0 when DQR serves this pass (ctx->proj, ctx->diff
 * set), -1 when the base engine must route (new hardware, no state).
 */
int dqr_plan_pass(struct dqr_ctx *ctx);

/*
 * Step 1 of a fast reaction (dqr_fast.c): the reference less the cables
 * down so far and those at ports (reference indices), which a trap's
 * PortInfo found down, and less what the SM then no longer reaches.
 * 0 (ctx->proj, ctx->diff set), or -1.
 */
int dqr_plan_cut(struct dqr_ctx *ctx, const uint32_t *ports, uint32_t n);

/*
 * After a base routing (the model of it is in ctx->fabric/lfts): build
 * the channel list and fill what the base left unrouted.  On success the
 * filled tables are in ctx->lfts (the caller hands them to OpenSM).
 * Returns 0, or -1 when DQR cannot start (logged; the base's tables
 * stand).
 */
int dqr_start_after_base(struct dqr_ctx *ctx, uint64_t *filled);

/*
 * Step 2 of a DQR pass.  Returns 0 when DQR's tables are in new_lft,
 * -1 when the caller must fall back to the base engine.
 */
int dqr_run_pass(struct dqr_ctx *ctx);

/*
 * Hands target (indices of f) to OpenSM: stage by stage from the tables
 * the switches hold, or at once for the first routing of the subnet
 * (nothing held yet) and with transition=oneshot.  r: DQR's answer that
 * made target, or NULL for a base routing.
 */
int dqr_hand_over(struct dqr_ctx *ctx, const struct dqr_fabric *f,
		  const struct dqr_lfts *target,
		  const struct dqr_reaction *r, const char *what);

#endif
