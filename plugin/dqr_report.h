/*
 * dqr_report.h - what the plugin tells the OpenSM log, and the JSON
 * records of every reconfiguration and transition.
 *
 * Called by the engine, the reconfiguration pass and the transition
 * driver; calls nothing else of the plugin.
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

/*
 * The JSON record of transition x, complete (every stage answered), in
 * the same file.
 */
void dqr_record_transition(struct dqr_ctx *ctx,
			   const struct dqr_transition *x);

/*
 * x's upload time of each stage (drain 0) or its drains between stages
 * (drain 1), in ms, as "12.3 9.1"; " ..." ends what does not fit.
 */
void dqr_fmt_stage_spans(char *buf, size_t len,
			 const struct dqr_transition *x, int drain);

/*
 * Once, when the context is made: continues ctx->reconfigs and
 * ctx->transitions after the largest ids in the tails of
 * dqr-reconfig.log and dqr-transition.dump in dump_files_dir, so that
 * records of runs before a restart or a failover keep their own ids.
 */
void dqr_ids_resume(struct dqr_ctx *ctx);


#endif
