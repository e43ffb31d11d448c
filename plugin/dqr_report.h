/*
 * dqr_report.h - what the plugin tells the OpenSM log.
 *
 * Called by the engine, the reconfiguration pass and the transition
 * driver; calls only the records (dqr_record.h) and the status files
 * below it.
 */
#ifndef DQR_REPORT_H
#define DQR_REPORT_H

#include <stddef.h>
#include <stdint.h>

#include "dqr_ctx.h"
#include "dqr_record.h"

/*
 * Judges ctx->fabric and ctx->lfts into ctx->judged, in the terms of the
 * topology in force, and logs the verdict.  Returns 1 when the tables
 * may deadlock or loop, 0 when they are safe, -1 when they could not be
 * verified (logged).
 */
int dqr_judge(struct dqr_ctx *ctx, const char *what, double ms_model,
	      uint64_t filled);

/* The reactor's notes (lib/reaction/notes.h), each at its level. */
void dqr_log_notes(struct dqr_ctx *ctx, const struct dqr_notes *ns);

/* The INFO line and the JSON record of reconfiguration ctx->reconfigs. */
void dqr_log_reconfig(struct dqr_ctx *ctx, const struct dqr_recon_result *r,
		      const char *outcome);

#endif
