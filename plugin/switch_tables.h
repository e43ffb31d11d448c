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
#include <opensm/osm_event_plugin.h>
#include <opensm/osm_opensm.h>
#include "dqr_wait.h"

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
 * LFT blocks sent by dqr_send_blocks() and not answered yet.  OpenSM's
 * LFT receiver reports each answer (OSM_EVENT_ID_LFT_CHANGE) from its
 * own thread; sync.lock guards the rest.
 */
struct dqr_lft_wait {
	struct dqr_wait sync;
	struct dqr_lft_sent {
		const osm_switch_t *p_sw;
		uint16_t block;
		uint8_t answered;
	} *sent;
	uint32_t num, cap, left;
};

int dqr_lft_wait_init(struct dqr_lft_wait *w);
void dqr_lft_wait_destroy(struct dqr_lft_wait *w);

/*
 * Outside a routing pass, OpenSM's lock held exclusively: sends every
 * LFT block whose new_lft differs from what the switch holds (p_sw->lft,
 * zeroed until its answer comes, as OpenSM does, so that a Set that
 * fails goes again at the next sweep), whatever OpenSM's own update
 * flags say, by directed routes over f's cables (the cabling now: a
 * route OpenSM found before a fault may cross a cable now down; NULL:
 * OpenSM's routes); lets the lock go while it waits for the answers,
 * at most timeout_ms and per_block_ms for each block sent (they wait in
 * one queue), and takes it again.  The blocks not
 * answered (a switch f does not reach counts), or UINT32_MAX when out
 * of memory (nothing sent).  *sent: blocks sent.
 */
uint32_t dqr_send_blocks(osm_opensm_t *osm, const struct dqr_fabric *f,
			 struct dqr_lft_wait *w, unsigned timeout_ms,
			 unsigned per_block_ms, uint32_t *sent);

/* The SM's port in f (a switch's port 0, or its CA's), or DQR_NONE. */
uint32_t dqr_sm_port(osm_opensm_t *osm, const struct dqr_fabric *f);

/* An LFT_CHANGE event: a block answered (any thread, no lock held). */
void dqr_lft_answered(struct dqr_lft_wait *w,
		      const osm_epi_lft_change_event_t *ev);

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
