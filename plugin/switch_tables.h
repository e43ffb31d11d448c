/*
 * switch_tables.h - the model's tables into OpenSM's switches and back.
 *
 * The bottom of the plugin, beside subnet_model.h: called by the
 * reconfiguration pass and the transition driver.  Tables of the model
 * and OpenSM's switches meet by node GUID.
 */
#ifndef DQR_SWITCH_TABLES_H
#define DQR_SWITCH_TABLES_H

/* first: it decides the layout of OpenSM's structs (perfmgr, pthread) */
#include <opensm/osm_config.h>
#include <opensm/osm_opensm.h>

#include "fabric/fabric.h"
#include "fabric/lft.h"

/*
 * Copies t (indices of f) into every switch's new_lft.  -1 (logged) when
 * nothing could be written: the pass must then fail rather than upload
 * empty tables.
 */
int dqr_write_tables(osm_opensm_t *osm, const struct dqr_fabric *f,
		     const struct dqr_lfts *t);

/*
 * What OpenSM believes the switches hold, in the indices of f, which must
 * be those of target; a switch OpenSM no longer has keeps target's row.
 * NULL when out of memory.
 */
struct dqr_lfts *dqr_read_held(osm_opensm_t *osm, const struct dqr_fabric *f,
			       const struct dqr_lfts *target);

#endif
