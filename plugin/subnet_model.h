/*
 * subnet_model.h - OpenSM's view of the subnet as lib's fabric model.
 *
 * Reads the subnet (switches, CAs, routers, their links, LIDs and LMC)
 * and the forwarding tables OpenSM is about to upload (p_sw->new_lft).
 * Must run with the subnet lock held, as routing callbacks do.
 */
#ifndef DQR_SUBNET_MODEL_H
#define DQR_SUBNET_MODEL_H

#include <stddef.h>

/* first: it decides the layout of OpenSM's structs (perfmgr, pthread) */
#include <opensm/osm_config.h>
#include <opensm/osm_subnet.h>

#include "fabric/fabric.h"
#include "fabric/lft.h"

/* What the model left out of OpenSM's subnet, and why. */
struct dqr_model_stats {
	uint32_t nodes_skipped;	/* unknown type or bad port count */
	uint32_t links_down;	/* linked, but a port state is Down */
	uint32_t links_bad;	/* peer unknown or inconsistent */
	uint32_t lids_bad;	/* LID range rejected by the model */
};

/*
 * Builds *fabric and *lfts.  Returns 0, or -1 with a one-line reason in
 * err; nothing is allocated then.
 */
int dqr_subnet_model_build(osm_subn_t *subn, struct dqr_fabric **fabric,
			   struct dqr_lfts **lfts,
			   struct dqr_model_stats *stats,
			   char *err, size_t errlen);

#endif
