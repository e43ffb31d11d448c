/*
 * topology-internal.h - shared by the files of lib/reaction/ only: how
 * a constructor installs its table, and the one-layer operations every
 * table may reuse.
 */
#ifndef DQR_TOPOLOGY_INTERNAL_H
#define DQR_TOPOLOGY_INTERNAL_H

#include "reaction/reaction.h"

/* Replaces x->topo by a fresh one of ops with private state priv. */
void dqr_topology_set(struct dqr_reactor *x,
		      const struct dqr_topology_ops *ops, void *priv);

/* DQR's start in one layer (dqr_recon_start()). */
int dqr_topology_start_one_layer(struct dqr_reactor *x,
				 const struct dqr_fabric *f,
				 const struct dqr_lfts *t,
				 const struct dqr_reroute_opts *o,
				 struct dqr_recon_result *res);

/* recon's list, unless it was built afresh for the original tables. */
struct dqr_dyn_order *dqr_topology_one_layer_list(struct dqr_reactor *x,
						  int from_original);

#endif
