/*
 * rerouting_layer.h - the FT paper's re-routing layer (ML) for the entries
 * that one layer cannot hold after a fault.
 *
 * DQR repairs inside the channel list, so old and new routes share one
 * acyclic dependency graph.  After several faults (or a switch next to
 * the U-turns of the switch routes) some entries have no legal route in
 * it: recon leaves them at DQR_NO_PATH.  The paper answers with a second
 * layer: the rerouted packets change to another virtual lane at their
 * U-turn.  Here:
 *
 *   fill    every such entry is routed by DQR's own search (same costs,
 *           same preference of the FT paper) with the channel list ignored
 *           (reroute.h, outside_list): shortest routes around the fault,
 *           loop free as a tree per DLID;
 *   layers  the whole routing, one-layer routes included, is put on two
 *           VLs by the first U-turn of each route (ml_vls.h) and
 *           verified there: each VL acyclic and no dependency from VL 1
 *           back to VL 0.
 *
 * The one-layer tables (recon's) stay what later faults repair, so the
 * channel list goes on describing them; the fill is made again after
 * every change, from the entries recon still leaves unrouted.
 */
#ifndef DQR_REROUTING_LAYER_H
#define DQR_REROUTING_LAYER_H

#include <stddef.h>
#include <stdint.h>

#include "recon/recon.h"
#include "ftree/ml_vls.h"
#include "shape/ftree_shape.h"

struct dqr_ml_stats {
	uint64_t lids;		/* DLIDs with entries one layer left open */
	uint64_t filled;	/* entries the re-routing layer routes */
	uint64_t left;		/* entries with a cable path, still none */
	double us_fill;
	struct dqr_vl_stats vl;
};

struct dqr_ml {
	struct dqr_lfts *tables;	/* recon's tables plus the fill */
	struct dqr_ml_vls *vl;	/* SLs and SL2VL for tables */
	/* the entries the fill wrote (old: recon's value, DQR_NO_PATH) */
	struct dqr_change *fill;
	uint32_t num_fill;
	struct dqr_ml_stats st;
};

/*
 * Fills what r->cur leaves unrouted on proj (the model as it is now,
 * dqr_fabric_project()'s) and lays the result on two VLs with ft's
 * levels.  o: the options recon ran with (its preference is kept).
 * Uses r's reroute context and channel list without changing the list.
 * Returns 0 with ml set, usable or not (dqr_ml_usable()); -1 with a
 * message in err (out of memory, ft not of this fabric).
 */
int dqr_ml_build(struct dqr_recon *r, const struct dqr_fabric *proj,
		 const struct dqr_ftree *ft, const struct dqr_reroute_opts *o,
		 struct dqr_ml *ml, char *err, size_t errlen);

/* 1 when every connected entry is routed and the two VLs are
 * deadlock free. */
int dqr_ml_usable(const struct dqr_ml *ml);

/* Frees the layer's tables, VLs and fill, and zeroes ml: none in force. */
void dqr_ml_release(struct dqr_ml *ml);

#endif
