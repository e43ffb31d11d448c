/*
 * base_engines.h - OpenSM's own routing engines, run by the dqr engine for
 * the initial routing.  The bottom of the plugin: called by dqr_engine.c,
 * calls only OpenSM.
 *
 * Each base engine lives in a private struct osm_routing_engine that its
 * exported setup function fills, exactly as OpenSM would fill its own.
 * The dqr engine's two routing callbacks call the two steps below, which
 * apply OpenSM's defaults where a base engine leaves a step out or returns
 * > 0, and walk the auto chain (ftree, updn, minhop) when a step fails.
 */
#ifndef DQR_BASE_ENGINES_H
#define DQR_BASE_ENGINES_H

/* first: it decides the layout of OpenSM's structs (perfmgr, pthread) */
#include <opensm/osm_config.h>
#include <opensm/osm_opensm.h>

#include "options/options.h"

enum dqr_base_state {
	DQR_BASE_UNSET = 0,	/* setup not called yet */
	DQR_BASE_READY,
	DQR_BASE_BROKEN,	/* setup failed; not retried */
};

struct dqr_base {
	int id;			/* enum dqr_base_engine */
	enum dqr_base_state state;
	struct osm_routing_engine re;	/* private, not in OpenSM's list */
};

#define DQR_CHAIN_MAX 3

struct dqr_bases {
	osm_opensm_t *osm;
	struct dqr_base base[DQR_BASE_NUM];	/* [DQR_BASE_AUTO] unused */
	/* minhop's callbacks: OpenSM's default steps (one is static) */
	struct osm_routing_engine dflt;
	int dflt_ready;

	/* the routing pass in progress */
	int chain[DQR_CHAIN_MAX];
	int chain_len;
	int pos;		/* chain[pos] is being tried */
	int lid_done;		/* pos with LID matrices built, or -1 */
	unsigned failed;	/* bit per base id that failed this pass */
	struct dqr_base *ran;	/* the base whose tables stand, or NULL */
};

void dqr_bases_init(struct dqr_bases *b, osm_opensm_t *osm);

/* Destroys every base engine set up so far.  Safe to call twice. */
void dqr_bases_destroy(struct dqr_bases *b);

/*
 * Step 1 of a routing pass with base choice (enum dqr_base_engine): the
 * LID matrices.  Returns 0, or -1 when no base in the chain manages it.
 */
int dqr_bases_lid_matrices(struct dqr_bases *b, int choice);

/*
 * Step 2: the forwarding tables in every switch's new_lft.  On success
 * returns 0 and b->ran names the base engine that built them; -1 when
 * every base in the chain failed (new_lft is then all OSM_NO_PATH).
 */
int dqr_bases_fwd_tables(struct dqr_bases *b, int choice);

/* OpenSM's name of a base ("torus-2QoS"). */
static inline const char *dqr_base_name(const struct dqr_base *base)
{
	return dqr_base_engine_name(base->id);
}

/*
 * lash, nue, dfsssp and torus-2QoS break the cycles of their routes by
 * putting them on different virtual lanes (that is what their path_sl
 * is for).  The graph dqr builds has one layer, so a cycle in it proves
 * no deadlock for them.  1 when the base whose tables stand is one.
 */
static inline int dqr_bases_layered(const struct dqr_bases *b)
{
	return b->ran && b->ran->re.path_sl;
}

#endif
