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

/*
 * Every switch's new_lft set to what it holds (p_sw->lft): the pass
 * uploads nothing.  Needs no memory, so it is what is left when planning
 * a change runs out of it.
 */
void dqr_keep_tables(osm_opensm_t *osm);

/*
 * Inside a routing pass (OpenSM's lock held, new_lft written): sends the
 * LFT blocks that differ at once and waits, at most timeout_ms, until
 * every Set is answered.  0 when every switch then holds its new_lft, 1
 * when not (a Set failed or is still out: OpenSM sends it again itself).
 * For a transition's stages that need no drain, so that several go up
 * in one pass, in order.
 */
int dqr_push_tables_now(osm_opensm_t *osm, unsigned timeout_ms);

/*
 * Inside a routing pass: asks every switch for its LFT blocks up to its
 * max LID (LinearForwardingTable Get), waits at most timeout_ms for the
 * answers, which OpenSM's own receiver stores in p_sw->lft, and counts
 * the blocks asked for and those left unanswered.  For the first sweep
 * as master, when p_sw->lft is not yet what the switches hold: a
 * restart or a failover finds the tables of the SM before in force.
 */
void dqr_fetch_tables(osm_opensm_t *osm, unsigned timeout_ms,
		      uint32_t *asked, uint32_t *unanswered);

/*
 * 1 when t, read from the switches, routes nothing anywhere: every entry
 * no path or port 0 (a fabric no SM has routed yet).
 */
int dqr_tables_blank(const struct dqr_lfts *t);

#endif
