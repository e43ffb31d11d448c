/*
 * dqr_record.h - the JSON records of every reconfiguration and
 * transition, one line each in <dump_files_dir>/dqr-reconfig.log
 * (written with json-c), and the ids earlier runs left there.
 *
 * At the bottom of the plugin beside the status files: called by the
 * log lines (dqr_report.c), the transition driver and the engine.
 */
#ifndef DQR_PLUGIN_RECORD_H
#define DQR_PLUGIN_RECORD_H

#include <stddef.h>

#include "dqr_ctx.h"

/* The record of reconfiguration ctx->reconfigs, with its outcome. */
void dqr_record_reconfig(struct dqr_ctx *ctx,
			 const struct dqr_recon_result *r, const char *outcome);

/*
 * The record of transition x, complete (every stage answered), in the
 * same file.
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
 * When the context is made and in every first sweep as master:
 * continues ctx->reconfigs and ctx->transitions after the largest ids
 * in the tails of dqr-reconfig.log and dqr-transition.dump in
 * dump_files_dir, so that records of runs before a restart or a
 * failover, or of another SM sharing the directory, keep their ids.
 */
void dqr_ids_resume(struct dqr_ctx *ctx);

#endif
