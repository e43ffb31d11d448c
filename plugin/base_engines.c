/*
 * base_engines.c - running OpenSM's routing engines on the plugin's behalf:
 * the bottom of the plugin, called by dqr_engine.c.
 */
#include <string.h>

/* first: it decides the layout of OpenSM's structs (perfmgr, pthread) */
#include <opensm/osm_config.h>
#include <opensm/osm_opensm.h>
#include <opensm/osm_switch.h>
#include <opensm/osm_ucast_mgr.h>

#include "base_engines.h"

/*
 * The setup functions of OpenSM's built-in engines.  The opensm binary
 * exports them (osm_opensm.c declares them the same way) but no installed
 * header does.
 */
extern int osm_ucast_ftree_setup(struct osm_routing_engine *, osm_opensm_t *);
extern int osm_ucast_updn_setup(struct osm_routing_engine *, osm_opensm_t *);
extern int osm_ucast_dnup_setup(struct osm_routing_engine *, osm_opensm_t *);
extern int osm_ucast_minhop_setup(struct osm_routing_engine *, osm_opensm_t *);
extern int osm_ucast_dor_setup(struct osm_routing_engine *, osm_opensm_t *);
extern int osm_ucast_lash_setup(struct osm_routing_engine *, osm_opensm_t *);
extern int osm_ucast_nue_setup(struct osm_routing_engine *, osm_opensm_t *);
extern int osm_ucast_dfsssp_setup(struct osm_routing_engine *, osm_opensm_t *);
extern int osm_ucast_sssp_setup(struct osm_routing_engine *, osm_opensm_t *);
extern int osm_ucast_torus2QoS_setup(struct osm_routing_engine *,
				     osm_opensm_t *);

typedef int (*base_setup_fn)(struct osm_routing_engine *, osm_opensm_t *);

static const base_setup_fn base_setup[DQR_BASE_NUM] = {
	[DQR_BASE_AUTO] = NULL,
	[DQR_BASE_FTREE] = osm_ucast_ftree_setup,
	[DQR_BASE_UPDN] = osm_ucast_updn_setup,
	[DQR_BASE_DNUP] = osm_ucast_dnup_setup,
	[DQR_BASE_MINHOP] = osm_ucast_minhop_setup,
	[DQR_BASE_DOR] = osm_ucast_dor_setup,
	[DQR_BASE_LASH] = osm_ucast_lash_setup,
	[DQR_BASE_NUE] = osm_ucast_nue_setup,
	[DQR_BASE_DFSSSP] = osm_ucast_dfsssp_setup,
	[DQR_BASE_SSSP] = osm_ucast_sssp_setup,
	[DQR_BASE_TORUS_2QOS] = osm_ucast_torus2QoS_setup,
	[DQR_BASE_UTURN] = NULL,	/* dqr_engine.c routes it itself */
	[DQR_BASE_TWOPHASE] = NULL,	/* so it does this one */
};

/* why a base is dropped from a pass, as the log says it */
#define NO_SETUP "could not be set up"
#define NO_LID "could not build the LID matrices"
#define NO_FWD "could not build the forwarding tables"

/* base=auto: the fat-tree engine if the fabric is one, else these */
static const int auto_chain[] = {
	DQR_BASE_FTREE, DQR_BASE_UPDN, DQR_BASE_MINHOP
};

void dqr_bases_init(struct dqr_bases *b, osm_opensm_t *osm)
{
	int i;

	memset(b, 0, sizeof(*b));
	b->osm = osm;
	for (i = 0; i < DQR_BASE_NUM; i++)
		b->base[i].id = i;
	b->lid_done = -1;
}

void dqr_bases_destroy(struct dqr_bases *b)
{
	int i;

	for (i = 0; i < DQR_BASE_NUM; i++) {
		struct dqr_base *base = &b->base[i];

		if (base->state == DQR_BASE_READY && base->re.destroy)
			base->re.destroy(base->re.context);
		base->state = DQR_BASE_UNSET;
		memset(&base->re, 0, sizeof(base->re));
	}
	b->ran = NULL;
}

/* Sets a base engine up on first use and keeps it for the plugin's life. */
static struct dqr_base *dqr_base_get(struct dqr_bases *b, int id)
{
	struct dqr_base *base = &b->base[id];
	const char *name = dqr_base_engine_name(id);

	if (base->state == DQR_BASE_READY)
		return base;
	if (base->state == DQR_BASE_BROKEN || !base_setup[id])
		return NULL;
	memset(&base->re, 0, sizeof(base->re));
	base->re.name = name;
	base->re.type = osm_routing_engine_type(name);
	if (base_setup[id](&base->re, b->osm)) {
		/* nue and dfsssp return 1 (not < 0) when out of memory */
		OSM_LOG(&b->osm->log, OSM_LOG_ERROR,
			"ERR DQ05: dqr: cannot set up routing engine '%s'\n",
			name);
		base->state = DQR_BASE_BROKEN;
		memset(&base->re, 0, sizeof(base->re));
		return NULL;
	}
	base->state = DQR_BASE_READY;
	OSM_LOG(&b->osm->log, OSM_LOG_VERBOSE,
		"dqr: routing engine '%s' set up as a base\n", name);
	return base;
}

/* OpenSM's default LFT builder is static; minhop's callback reaches it. */
static int default_fwd_tables(struct dqr_bases *b)
{
	if (!b->dflt_ready) {
		memset(&b->dflt, 0, sizeof(b->dflt));
		b->dflt.name = "minhop";
		if (osm_ucast_minhop_setup(&b->dflt, b->osm) ||
		    !b->dflt.ucast_build_fwd_tables) {
			OSM_LOG(&b->osm->log, OSM_LOG_ERROR,
				"ERR DQ06: dqr: cannot reach OpenSM's "
				"default forwarding table builder\n");
			return -1;
		}
		b->dflt_ready = 1;
	}
	return b->dflt.ucast_build_fwd_tables(b->dflt.context);
}

/* The two steps as ucast_mgr_route() runs them for an engine of its own. */
static int run_lid_matrices(struct dqr_bases *b, struct dqr_base *base)
{
	int ret;

	if (!base->re.build_lid_matrices ||
	    (ret = base->re.build_lid_matrices(base->re.context)) > 0)
		ret = osm_ucast_mgr_build_lid_matrices(&b->osm->sm.ucast_mgr);
	return ret;
}

static int run_fwd_tables(struct dqr_bases *b, struct dqr_base *base)
{
	int ret;

	if (!base->re.ucast_build_fwd_tables ||
	    (ret = base->re.ucast_build_fwd_tables(base->re.context)) > 0)
		ret = default_fwd_tables(b);
	return ret;
}

/*
 * Puts every switch back where osm_ucast_mgr_process() left it before the
 * first engine ran, so that a failed base leaks no half-written table, hop
 * count or port load into the next one.
 */
static void reset_switches(struct dqr_bases *b)
{
	cl_qmap_t *tbl = &b->osm->subn.sw_guid_tbl;
	cl_map_item_t *item;
	unsigned i;

	for (item = cl_qmap_head(tbl); item != cl_qmap_end(tbl);
	     item = cl_qmap_next(item)) {
		osm_switch_t *sw = (osm_switch_t *)item;

		if (sw->new_lft)
			memset(sw->new_lft, OSM_NO_PATH, sw->lft_size);
		if (sw->hops)
			osm_switch_clear_hops(sw);
		if (sw->p_prof)
			for (i = 0; i < sw->num_ports; i++)
				osm_port_prof_construct(&sw->p_prof[i]);
	}
}

static void start_pass(struct dqr_bases *b, int choice)
{
	unsigned i;

	b->chain_len = 0;
	if (choice == DQR_BASE_AUTO) {
		for (i = 0; i < sizeof(auto_chain) / sizeof(auto_chain[0]); i++)
			b->chain[b->chain_len++] = auto_chain[i];
	} else {
		b->chain[b->chain_len++] = choice;
	}
	b->pos = 0;
	b->lid_done = -1;
	b->failed = 0;
	b->ran = NULL;
}

/* Drops chain[pos] from this pass, saying why, and moves on. */
static void dqr_base_failed(struct dqr_bases *b, const char *what)
{
	int id = b->chain[b->pos];

	b->failed |= 1u << id;
	reset_switches(b);
	b->pos++;
	b->lid_done = -1;
	if (b->pos < b->chain_len)
		OSM_LOG(&b->osm->log, OSM_LOG_INFO,
			"dqr: '%s' %s, trying '%s'\n",
			dqr_base_engine_name(id), what,
			dqr_base_engine_name(b->chain[b->pos]));
	else
		OSM_LOG(&b->osm->log, OSM_LOG_ERROR,
			"ERR DQ07: dqr: '%s' %s; no base routing engine "
			"left to try\n", dqr_base_engine_name(id), what);
}

int dqr_bases_lid_matrices(struct dqr_bases *b, int choice)
{
	struct dqr_base *base;

	if (choice < 0 || choice >= DQR_BASE_NUM) {
		OSM_LOG(&b->osm->log, OSM_LOG_ERROR,
			"ERR DQ08: dqr: invalid base routing engine %d\n",
			choice);
		return -1;
	}
	start_pass(b, choice);
	while (b->pos < b->chain_len) {
		base = dqr_base_get(b, b->chain[b->pos]);
		if (!base) {
			dqr_base_failed(b, NO_SETUP);
			continue;
		}
		if (run_lid_matrices(b, base) >= 0) {
			b->lid_done = b->pos;
			return 0;
		}
		dqr_base_failed(b, NO_LID);
	}
	return -1;
}

int dqr_bases_fwd_tables(struct dqr_bases *b, int choice)
{
	struct dqr_base *base;

	/* OpenSM always runs step 1 first; be safe if it ever does not */
	if (b->chain_len == 0 || b->pos >= b->chain_len) {
		if (dqr_bases_lid_matrices(b, choice))
			return -1;
	}
	while (b->pos < b->chain_len) {
		base = dqr_base_get(b, b->chain[b->pos]);
		if (!base) {
			dqr_base_failed(b, NO_SETUP);
			continue;
		}
		if (b->lid_done != b->pos && run_lid_matrices(b, base) < 0) {
			dqr_base_failed(b, NO_LID);
			continue;
		}
		b->lid_done = b->pos;
		if (run_fwd_tables(b, base) >= 0) {
			b->ran = base;
			/* the next pass starts from step 1 again */
			b->chain_len = 0;
			return 0;
		}
		dqr_base_failed(b, NO_FWD);
	}
	b->chain_len = 0;
	return -1;
}
