/*
 * dqr_report.h - what the plugin tells the OpenSM log, and the JSON
 * record of every reconfiguration.
 *
 * Called by the engine and the reconfiguration pass; calls nothing else
 * of the plugin.
 */
#ifndef DQR_REPORT_H
#define DQR_REPORT_H

#include <stddef.h>
#include <stdint.h>

#include "dqr_ctx.h"

/*
 * Verifies ctx->fabric and ctx->lfts into ctx->report and logs the
 * verdict.  Returns 1 when the tables may deadlock or loop, 0 when they
 * are safe, -1 when they could not be verified (logged).
 */
int dqr_judge(struct dqr_ctx *ctx, const char *what, double ms_model,
	      uint64_t filled);

/* The INFO line and the JSON record of reconfiguration ctx->reconfigs. */
void dqr_log_reconfig(struct dqr_ctx *ctx, const struct dqr_recon_result *r,
		      const char *outcome);

/* "ftree" or "updn (auto; failed: ftree)" */
void dqr_fmt_base(const struct dqr_ctx *ctx, char *buf, size_t len);

#endif
