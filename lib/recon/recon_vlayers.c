/*
 * recon_vlayers.c - recon.h's state machine for a torus routed by e-cube on
 * virtual layers (vlayers.h): the layered channel list and the mesh
 * plug-in in every layer take the place of DQR's one-layer list and
 * search.  The steps are recon.c's; only what differs is here.
 */
#include <stdlib.h>
#include <string.h>

#include "recon/recon.h"
#include "recon/recon-internal.h"
#include "util/mem.h"
#include "util/timing.h"

int dqr_recon_start_vlayers(struct dqr_recon *r, const struct dqr_fabric *f,
			    struct dqr_grid *g, struct dqr_vlayers *tl,
			    const struct dqr_lfts *t,
			    struct dqr_recon_result *res)
{
	struct dqr_vlayers_verdict v;
	double t0 = dqr_now_ms();

	memset(r, 0, sizeof(*r));
	memset(res, 0, sizeof(*res));
	r->grid = g;
	r->tl = tl;
	r->ref = dqr_fabric_clone(f);
	r->orig = dqr_lfts_clone(t);
	r->cur = dqr_lfts_clone(t);
	if (!r->ref || !r->orig || !r->cur ||
	    dqr_vlayers_verify(tl, f, t, &v))
		return DQR_RECON_NOMEM;
	res->us_list = res->us_total = (dqr_now_ms() - t0) * 1e3;
	if (!v.acyclic)
		return DQR_RECON_CYCLIC;
	/* what e-cube could not route (a degraded torus) the list cannot
	 * fill: the caller routes otherwise */
	res->rs.failed = v.unreachable;
	return v.unreachable ? DQR_RECON_FAILED : DQR_RECON_OK;
}

int dqr_recon_vlayers_restart(struct dqr_recon *r)
{
	struct dqr_vlayers *tl;
	char err[128];

	/* the start's SLs, which the original tables were proved with: a
	 * move (layer_moves) lasts until the restart */
	if (dqr_vlayers_new_like(r->tl, r->ref, r->grid, r->orig, &tl,
				 err, sizeof(err)))
		return -1;	/* they were layered at the start: memory */
	r->pairs_moved_back = dqr_vlayers_moved(r->tl);
	dqr_vlayers_free(r->tl);
	r->tl = tl;
	memcpy(r->cur->port, r->orig->port,
	       (size_t)r->cur->num_switches * r->cur->lid_count);
	return 0;
}

/* 1 when sw's entry for lid leaves by a port whose cable proj lacks. */
static int dead_entry(const struct dqr_fabric *proj, const struct dqr_lfts *t,
		      uint32_t sw, uint32_t lid)
{
	uint32_t node = proj->switches[sw];
	uint8_t p = dqr_lft_get(t, sw, lid);

	if (p == 0 || p == DQR_NO_PATH || p > proj->nodes[node].num_ports)
		return 0;
	return dqr_peer_port(proj, dqr_port_index(proj, node, p)) ==
	       DQR_NONE;
}

/*
 * The entries left leading into an absent cable, into r->change.cut
 * (what the plug-in could not bypass): O(switches x LIDs).
 */
static void note_cut(struct dqr_recon *r, const struct dqr_fabric *proj)
{
	struct dqr_recon_change *c = &r->change;
	uint32_t sw, lid, cap = 0;

	free(c->cut);
	c->cut = NULL;
	c->num_cut = 0;
	for (sw = 0; sw < r->cur->num_switches; sw++)
		for (lid = 1; lid < r->cur->lid_count; lid++) {
			if (!dead_entry(proj, r->cur, sw, lid))
				continue;
			if (dqr_grow((void **)&c->cut, &cap, c->num_cut + 1,
				     sizeof(*c->cut), 256)) {
				free(c->cut);
				c->cut = NULL;
				c->num_cut = 0;
				return;
			}
			c->cut[c->num_cut++] = (uint64_t)lid << 32 | sw;
		}
}

int dqr_recon_vlayers_run(struct dqr_recon *r, const struct dqr_fabric *proj,
			  struct dqr_reroute_stats *rs)
{
	struct dqr_vlayers_stats st;
	double t0 = dqr_now_ms();
	int ret;

	ret = dqr_vlayers_repair(r->tl, proj, r->cur, &st);
	if (ret < 0)
		return -1;
	r->vstats = st;
	note_cut(r, proj);
	rs->changed = st.changed;
	rs->turns = st.turns;
	rs->reorders = st.reorders;
	rs->failed = ret ? r->change.num_cut : 0;
	/* not bypassed, yet nothing left to count: say it failed anyway */
	if (ret && !rs->failed)
		rs->failed = 1;
	rs->us = (dqr_now_ms() - t0) * 1e3;
	return 0;
}
