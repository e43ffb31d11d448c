/*
 * dqr_sls.h - path SLs and SL2VL inside OpenSM (dqr_sls.c): the
 * topology's while it sets them, else the base engine's; the VLs the
 * fabric offers; lash's SLs for DQR.
 */
#ifndef DQR_SLS_H
#define DQR_SLS_H

#include "dqr_ctx.h"

/*
 * Our path_sl and update_sl2vl callbacks stand in the engine whenever
 * the topology (lib) or the base engine that ran answers them; call
 * after anything that may change either.
 */
void dqr_sls_hook(struct dqr_ctx *ctx);

/*
 * The tables of the change planned last are in force at every switch:
 * the SA answers the SLs they were made with from now on (lib's
 * dqr_react_in_force()).  locked: the caller holds OpenSM's lock; else
 * it is taken here, as the SA reads path SLs under it.
 */
void dqr_sls_in_force(struct dqr_ctx *ctx, int locked);

/* The VLs the fabric offers now, as lib's topologies ask them. */
void dqr_read_vl_caps(struct dqr_ctx *ctx, struct dqr_vl_caps *c);

/*
 * After OpenSM's lash routed a grid (qos TRUE): lash's layers become the
 * topology's, so that DQR repairs in them.  0 when taken, 1 when not
 * (logged, not an error unless lash was meant to serve DQR).
 */
int dqr_sls_take_lash(struct dqr_ctx *ctx);

#endif
