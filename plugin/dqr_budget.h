/*
 * dqr_budget.h - what one DQR pass may spend inside OpenSM's sweep.
 */
#ifndef DQR_PLUGIN_BUDGET_H
#define DQR_PLUGIN_BUDGET_H

#include "dqr_ctx.h"

/*
 * Sets ctx->budget for the pass that starts at t0 (dqr_now_ms()): the
 * budget_ms and budget_mb options, or for "auto" a budget that grows
 * with the forwarding tables of ctx->recon.ref (osmdqr(8)).
 */
void dqr_budget_start(struct dqr_ctx *ctx, double t0);

/* "time: 12.3 ms, budget 10 ms" or "memory: grew 70 MiB resident, ..." */
void dqr_budget_fmt_over(const struct dqr_ctx *ctx, char *buf, size_t len);

#endif
