/*
 * dqr_vlayers.h - tori routed by e-cube on virtual layers inside OpenSM
 * (lib/vlayers/vlayers.h), with qos TRUE.
 *
 * Called by the engine (the routing and the hook) and by the
 * reconfiguration pass; calls nothing else of the plugin.
 */
#ifndef DQR_VLAYERS_GLUE_H
#define DQR_VLAYERS_GLUE_H

#include "dqr_ctx.h"
#include "shape/grid_shape.h"

/* 1 when a torus may go on layers: OpenSM programs SL2VL (qos TRUE). */
int dqr_vlayers_wanted(const struct dqr_ctx *ctx);

/*
 * Layers for e-cube tables t of torus *g (described by desc) on f, into
 * ctx->torus_tl, and *g into ctx->torus_grid (*g set NULL), for
 * dqr_start_after_base().  1 when they cannot be had (no ring of 3 or
 * more, too few VLs, out of memory: logged), and the caller routes the
 * torus as a mesh on one VL.
 */
int dqr_vlayers_take(struct dqr_ctx *ctx, const struct dqr_fabric *f,
		   struct dqr_grid **g, const struct dqr_lfts *t,
		   const char *desc);

/*
 * base=lash, with qos TRUE, on a mesh, torus or hypercube recognised
 * from its cabling: layers for lash's own SLs (read through its path_sl)
 * on the tables in ctx->fabric and ctx->lfts, for dqr_start_after_base(),
 * so that DQR repairs in every layer as on e-cube's.  1 (logged) when
 * another base ran, or when they cannot be had: DQR then stays off, as
 * on every layered base.
 */
int dqr_vlayers_take_lash(struct dqr_ctx *ctx);

/* The layers made by dqr_vlayers_route() and not yet started: dropped. */
void dqr_vlayers_drop(struct dqr_ctx *ctx);

/* Whose layers are in force, for log lines: "lash's" or "e-cube's". */
const char *dqr_vlayers_whose(const struct dqr_ctx *ctx);

/* Our path_sl and update_sl2vl while a torus on layers is routed. */
void dqr_vlayers_hook(struct dqr_ctx *ctx);

/* What the plug-in did in every layer for this reconfiguration. */
void dqr_vlayers_log_repair(struct dqr_ctx *ctx);

#endif
