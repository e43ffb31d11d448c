/*
 * vlayers_move.c - moving routes to another virtual layer: the DQR paper's
 * "a path may move to another layer", the search's last resort on a
 * torus's layers (vlayers.h says when, and what it costs the
 * connections opened before).
 *
 * Destination-based forwarding gives every switch upstream of a patched
 * entry the patched path, so a move takes all of them: the pairs of
 * dst's switch and every switch cut off with the broken route go to one
 * layer, with the candidate path the search found.  The SL is per pair
 * of switches, so a moved pair's routes to every LID of dst's switch are
 * added in the new layer, not only the patched one; what they had in the
 * old layer stays in the list (the list only grows, so old and new stay
 * deadlock free together).
 */
#include <stdlib.h>

#include "deps/dyn_order.h"
#include "vlayers/vlayers-internal.h"
#include "routes/route_walk.h"
#include "util/mem.h"

/* (s, d) into layer l, the old SL kept in u: 0, or -1 no memory. */
static int move_pair(struct dqr_vlayers *tl, uint32_t s, uint32_t d,
		     uint8_t l, struct dqr_vlayers_undo *u)
{
	if (dqr_grow((void **)&u->sl, &u->sl_cap, u->sl_n + 1,
		     sizeof(*u->sl), 32))
		return -1;
	u->sl[u->sl_n] = (struct dqr_vlayers_undo_sl){ s, d,
		dqr_vlayers_sl(tl, s, d) };
	if (dqr_vlayers_put_sl(tl, s, d, l))
		return -1;
	u->sl_n++;
	return 0;
}

int dqr_vlayers_lay_moved(struct dqr_vlayers *tl,
			  const struct dqr_fabric *f, struct dqr_lfts *t,
			  uint32_t n, uint32_t rejoin, uint32_t lid,
			  uint32_t dst, uint32_t owner, unsigned l,
			  const uint32_t *lids, uint32_t num_lids,
			  struct dqr_vlayers_undo *u)
{
	uint32_t sw, i, first = u->sl_n, lo;
	int r;

	for (sw = 0; sw < tl->n.num_switches; sw++)
		if (tl->cut[sw] == tl->cgen && sw != dst &&
		    dqr_vlayers_sl(tl, sw, dst) != l &&
		    move_pair(tl, sw, dst, (uint8_t)l, u))
			return -1;
	if (u->sl_n == first)
		return 0;	/* no move: the search tried that */
	if (l >= tl->num_layers)
		tl->num_layers = l + 1;
	r = dqr_vlayers_lay_path(tl, f, t, n, rejoin, lid, dst, owner, u);
	for (i = first; r > 0 && i < u->sl_n; i++)
		for (lo = 0; r > 0 && lo < num_lids; lo++) {
			r = dqr_vlayers_lay_route(tl, f, t, u->sl[i].s,
						  lids[lo], dst,
						  dqr_lid_owner(f, lids[lo]),
						  l);
			r = r == DQR_DYN_ENOMEM ? -1 : r < 0 ? 0 : 1;
		}
	if (r > 0) {
		tl->st.lids_moved++;
		tl->st.pairs_moved += u->sl_n - first;
	}
	return r;
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return (x > y) - (x < y);
}

/*
 * The LIDs whose switch is dst (its own, and those of the end ports at
 * its cables, below t's end), ascending, into lids; their number.
 * O(dst's ports x 2^LMC), not the LID space.
 */
static uint32_t switch_lids(const struct dqr_fabric *f,
			    const struct dqr_lfts *t, uint32_t dst,
			    uint32_t *lids)
{
	uint32_t node = f->switches[dst], p, lid, end, n = 0;
	unsigned pn = 0;

	do {
		p = dqr_port_index(f, node, pn);
		if (pn)
			p = dqr_peer_port(f, p);
		lid = p == DQR_NONE ? 0 : f->ports[p].base_lid;
		end = lid ? lid + (1u << f->ports[p].lmc) : 0;
		for (; lid && lid < end && lid < t->lid_count; lid++)
			if (dqr_lid_switch(f, lid) == dst)
				lids[n++] = lid;
		pn = dqr_next_end_port(f, node, pn);
	} while (pn);
	qsort(lids, n, sizeof(*lids), cmp_u32);
	return n;
}

int dqr_vlayers_move_path(struct dqr_vlayers *tl, const struct dqr_fabric *f,
			  struct dqr_lfts *t, uint32_t n, uint32_t rejoin,
			  uint32_t lid, uint32_t dst, uint32_t owner,
			  struct dqr_vlayers_undo *u)
{
	uint32_t *lids, num_lids;
	unsigned l, top;
	int r = 0;

	top = tl->num_layers < tl->max_layers ? tl->num_layers + 1 :
	      tl->max_layers;
	if (!top)
		return 0;
	lids = malloc(sizeof(uint32_t) * t->lid_count);
	if (!lids)
		return -1;
	num_lids = switch_lids(f, t, dst, lids);
	for (l = 0; !r && l < top; l++) {
		dqr_vlayers_undo_begin(tl, u);
		r = dqr_vlayers_undo_end(tl, t, u,
					 dqr_vlayers_lay_moved(tl, f, t, n,
							       rejoin, lid,
							       dst, owner, l,
							       lids, num_lids,
							       u));
	}
	free(lids);
	return r;
}
