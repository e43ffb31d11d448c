/*
 * vlayers_repair.c - DQR's repair of link faults on a torus's virtual
 * layers: the mesh plug-in's local path in every layer, and the
 * topology-agnostic search for what it does not bypass (vlayers.h
 * says how and why).
 */
#include <stdlib.h>

#include "deps/dyn_order.h"
#include "mesh/local_path.h"
#include "vlayers/vlayers-internal.h"

/* ------------------------------------------------------------ repair */

/* The mesh plug-in's local path lp, laid as far as lid's tree needs it. */
static int lay_lid(struct dqr_vlayers *tl, const struct dqr_fabric *f,
		   struct dqr_lfts *t, const struct dqr_local_path *lp,
		   uint32_t lid, uint32_t dst, uint32_t owner,
		   struct dqr_vlayers_undo *u)
{
	int n = dqr_local_path_patch(lp, f, t, lid, tl->path_sw,
				     tl->path_port);

	if (n <= 0)
		return 0;
	return dqr_vlayers_lay_path(tl, f, t, (uint32_t)n, lp->sw[n], lid, dst,
				    owner, u);
}

/* 1 when switch sw is still cabled to anything: not a lost switch. */
static int switch_cabled(const struct dqr_fabric *f, uint32_t sw)
{
	return dqr_next_linked_port(f, f->switches[sw], 0) != 0;
}

/*
 * lid's route crossed the dead link from a in dimension k (downwards if
 * k_minus), and no side fitted all of the link's DLIDs.  Destination
 * forwarding lets the packet leave the local path where the path meets
 * its route; stepping aside towards the destination keeps it going round
 * each ring the way its SL's layer allows, so that side comes first,
 * then the other; towards the centre where the destination is level
 * with a.  1 laid, 0 no side fits, -1 no memory.
 */
static int bypass_lid(struct dqr_vlayers *tl,
		      const struct dqr_fabric *f, struct dqr_lfts *t,
		      uint32_t a, unsigned k, int k_minus, uint32_t lid,
		      uint32_t dst, uint32_t owner, struct dqr_vlayers_undo *u)
{
	struct dqr_local_path lp;
	unsigned j, pass, level;
	int pref, r;

	for (level = 0; level < 2; level++)
		for (j = 0; j < tl->n.ndims; j++) {
			pref = dqr_vlayers_ecube_minus(tl, j, a, dst);
			if (j == k || (pref < 0) != level)
				continue;
			if (pref < 0)
				pref = dqr_local_path_centre_minus(&tl->n, a,
								   j);
			for (pass = 0; pass < 2; pass++) {
				if (!dqr_local_path_aside(&tl->n, f, a, k,
							  k_minus, j,
							  pass ? !pref : pref,
							  &lp))
					continue;
				dqr_vlayers_undo_begin(tl, u);
				r = dqr_vlayers_undo_end(tl, t, u,
							 lay_lid(tl, f, t, &lp,
							       lid, dst,
							       owner, u));
				if (r)
					return r;
			}
		}
	return 0;
}

/*
 * The side of switch a in dimension j towards the centre of the layers
 * of group g (1 downwards): a ring's cut is A (between n - 1 and 0) when
 * g's bit of it is clear, and its centre then (n - 1) / 2; else B and
 * the centre lies at A.
 */
static int centre_minus(const struct dqr_vlayers *tl, uint32_t a,
			unsigned j, uint8_t g)
{
	unsigned c = dqr_grid_coord(&tl->n, a, j);

	if (!(g & tl->ring_bit[j]))
		return dqr_local_path_centre_minus(&tl->n, a, j);
	return c < tl->n.dims[j] / 2;
}

/*
 * Which DLIDs a pass over the link takes: those over it from a (dir 0)
 * or from b (dir 1), of layer group g (see bypass()).
 */
struct link_pass {
	uint32_t a, b;
	uint8_t pa, pb;
	uint8_t high;	/* the layer bits of the dimensions after k */
};

/* 0: lid's route crosses the link from a, 1: from b, -1: neither. */
static int lid_over(const struct dqr_lfts *t, const struct link_pass *lk,
		    uint32_t lid)
{
	if (dqr_lft_get(t, lk->a, lid) == lk->pa)
		return 0;
	return lk->pb && dqr_lft_get(t, lk->b, lid) == lk->pb ? 1 : -1;
}

/*
 * lid_over(), for the DLIDs of group g only, and never one whose owner's
 * switch is gone: no cable path leads there, so nothing needs a route.
 */
static int lid_dir(const struct dqr_vlayers *tl,
		   const struct dqr_fabric *f, const struct dqr_lfts *t,
		   const struct link_pass *lk, uint32_t lid, uint32_t dst,
		   uint8_t g)
{
	int dir = lid_over(t, lk, lid);

	if (dir < 0 || !switch_cabled(f, dst) ||
	    (dqr_vlayers_sl(tl, dir ? lk->b : lk->a, dst) &
	     lk->high) != g)
		return -1;
	return dir;
}

/*
 * The group's DLIDs, both directions, on the side (j, downwards if
 * minus): 1 all laid, 0 not (all taken back), -1 no memory.
 */
static int uniform_side(struct dqr_vlayers *tl,
			const struct dqr_fabric *f, struct dqr_lfts *t,
			const struct link_pass *lk, unsigned k, unsigned j,
			int minus, uint8_t g, struct dqr_vlayers_undo *u)
{
	struct dqr_local_path lp[2];
	uint32_t lid, dst, owner;
	int r = 1, dir;

	if (!dqr_local_path_aside(&tl->n, f, lk->a, k, 0, j, minus, &lp[0]) ||
	    !dqr_local_path_aside(&tl->n, f, lk->b, k, 1, j, minus, &lp[1]))
		return 0;
	dqr_vlayers_undo_begin(tl, u);
	for (lid = 1; r == 1 && lid < t->lid_count; lid++) {
		dst = dqr_vlayers_owner_switch(f, lid, &owner);
		dir = dst == DQR_NONE ? -1 : lid_dir(tl, f, t, lk, lid, dst, g);
		if (dir >= 0)
			r = lay_lid(tl, f, t, &lp[dir], lid, dst, owner, u);
	}
	return dqr_vlayers_undo_end(tl, t, u, r);
}

/*
 * lid over the link from lk's end dir, on its own: the plug-in's sides,
 * then the search.  1 laid (*searched set when by the search), 0 not,
 * -1 no memory; 1 also when its switch is gone (no packet to carry).
 */
static int lay_alone(struct dqr_vlayers *tl, const struct dqr_fabric *f,
		     struct dqr_lfts *t, const struct link_pass *lk,
		     unsigned k, int dir, uint32_t lid, uint32_t dst,
		     uint32_t owner, struct dqr_vlayers_undo *u, int *searched)
{
	uint32_t from = dir ? lk->b : lk->a;
	int r;

	if (!switch_cabled(f, from))
		return 1;
	r = bypass_lid(tl, f, t, from, k, dir, lid, dst, owner, u);
	if (r)
		return r;
	r = dqr_vlayers_search_lid(tl, f, t, from, lid, dst, owner, u);
	*searched |= r > 0;
	tl->st.lids_searched += r > 0;
	return r;
}

/*
 * The DLIDs over the dead link from a to its + neighbour b in dimension
 * k.  In dimension order a route over a k-link has not yet moved in the
 * dimensions after k, so its layer bits there are those of the route
 * from a (or b): one group per value of them.  A local path that steps
 * aside in such a dimension j sends the packet on from there; stepping
 * towards the centre of the group's layers keeps it going round j's ring
 * the way the layer allows.  Every DLID of a group, both directions,
 * first takes one side, as the DQR paper's plug-in does, so that the two
 * directions cannot close a ring around the link in a layer; groups are
 * layers apart.  When no side fits a group, each of its DLIDs takes its
 * own, and a DLID no side fits is left to the topology-agnostic search
 * (vlayers_search.c).  A DLID over the link from a switch that is gone has
 * no packet left to carry.  2 all laid, some by the search, 1 all by the
 * plug-in, 0 not, -1 no memory.
 */
static int bypass(struct dqr_vlayers *tl, const struct dqr_fabric *f,
		  struct dqr_lfts *t, uint32_t a, uint32_t b, unsigned k)
{
	struct link_pass lk = { a, b, tl->n.port[dqr_grid_slot(a, k, 0)],
				tl->n.port[dqr_grid_slot(b, k, 1)], 0 };
	struct dqr_vlayers_undo u = { 0 };
	uint32_t lid, dst, owner;
	unsigned j, pass, groups = 0, g;
	uint8_t *failed = NULL;	/* DLIDs no path fitted, by lid */
	int all = 1, searched = 0, r = 0, dir;

	for (j = k + 1; j < tl->n.ndims; j++)
		lk.high |= (uint8_t)tl->ring_bit[j];
	/* the IN paper's chains first, each DLID its own (vlayers_imed.c) */
	for (lid = 1; r >= 0 && tl->imed && tl->imed_max &&
	     lid < t->lid_count; lid++) {
		dst = dqr_vlayers_owner_switch(f, lid, &owner);
		dir = dst == DQR_NONE ? -1 : lid_over(t, &lk, lid);
		if (dir >= 0 && switch_cabled(f, dst) &&
		    switch_cabled(f, dir ? b : a))
			r = dqr_vlayers_imed_lid(tl, f, t, dir ? b : a, lid,
						 dst, owner, &u);
	}
	if (r < 0) {
		free(u.e);
		free(u.sl);
		return -1;
	}
	r = 0;
	for (lid = 1; lid < t->lid_count; lid++) {
		dst = dqr_vlayers_owner_switch(f, lid, &owner);
		dir = dst == DQR_NONE ? -1 : lid_over(t, &lk, lid);
		if (dir >= 0)
			groups |= 1u << (dqr_vlayers_sl(tl, dir ? b : a,
							dst) & lk.high);
	}
	for (g = 0; r >= 0 && g < DQR_VLAYERS_MAX; g++) {
		if (!(groups & (1u << g)))
			continue;
		for (r = 0, pass = 0; !r && pass < 2; pass++)
			for (j = 0; !r && j < tl->n.ndims; j++)
				if (j != k)
					r = uniform_side(tl, f, t, &lk, k, j,
						centre_minus(tl, a, j,
							     (uint8_t)g) ^
						(int)pass, (uint8_t)g, &u);
		for (lid = 1; !r && lid < t->lid_count; lid++) {
			dst = dqr_vlayers_owner_switch(f, lid, &owner);
			dir = dst == DQR_NONE ? -1 :
			      lid_dir(tl, f, t, &lk, lid, dst, (uint8_t)g);
			if (dir >= 0)
				r = lay_alone(tl, f, t, &lk, k, dir, lid, dst,
					      owner, &u, &searched);
			if (!r && dir >= 0 && !failed)
				failed = calloc(t->lid_count, 1);
			if (!r && dir >= 0 && failed)
				failed[lid] = 1;
			r = r < 0 ? -1 : 0;
		}
		if (r < 0)
			break;
		r = 0;
	}
	/* a move (vlayers_move.c) takes every LID of a pair of switches to
	 * its new layer, maybe into a group done already: what is still
	 * over the link goes on its own (but what failed above), and
	 * decides whether all went */
	for (lid = 1; r >= 0 && lid < t->lid_count; lid++) {
		dst = dqr_vlayers_owner_switch(f, lid, &owner);
		dir = dst == DQR_NONE ? -1 : lid_over(t, &lk, lid);
		if (dir < 0 || !switch_cabled(f, dst))
			continue;
		r = failed && failed[lid] ? 0 :
		    lay_alone(tl, f, t, &lk, k, dir, lid, dst, owner, &u,
			      &searched);
		all &= r != 0;
	}
	free(failed);
	free(u.e);
	free(u.sl);
	return r < 0 ? -1 : all ? 1 + searched : 0;
}

/* Retires, in every layer, the channels of the links f lacks. */
static int retire_dead(struct dqr_vlayers *tl,
		       const struct dqr_fabric *f)
{
	const struct dqr_grid_nbrs *n = &tl->n;
	uint32_t sw, s, c;
	unsigned d, l;

	for (sw = 0; sw < n->num_switches; sw++)
		for (d = 0; d < DQR_GRID_DIRS; d++) {
			s = sw * DQR_GRID_DIRS + d;
			if (n->sw[s] == DQR_NONE ||
			    dqr_grid_nbr_cabled(n, f, sw, s))
				continue;
			c = dqr_port_index(f, f->switches[sw], n->port[s]);
			for (l = 0; l < tl->num_layers; l++)
				if (dqr_dyn_retire_channel(tl->cl,
						l * tl->num_ports + c) ==
				    DQR_DYN_ENOMEM)
					return -1;
		}
	dqr_dyn_commit(tl->cl);
	return 0;
}

/* One dead link, for dqr_local_path_each_dead(). */
struct torus_run {
	struct dqr_vlayers *tl;
	const struct dqr_fabric *f;
	struct dqr_lfts *t;
	int all;
};

static int torus_link(void *arg, uint32_t a, uint32_t b, unsigned k)
{
	struct torus_run *x = arg;
	int r = bypass(x->tl, x->f, x->t, a, b, k);

	if (r < 0)
		return -1;
	x->tl->st.links_failed++;
	x->tl->st.links_bypassed += r == 1;
	x->tl->st.links_searched += r == 2;
	x->all &= r > 0;
	return 0;
}

int dqr_vlayers_repair(struct dqr_vlayers *tl,
		       const struct dqr_fabric *f, struct dqr_lfts *t,
		       struct dqr_vlayers_stats *st)
{
	struct torus_run x = { tl, f, t, 1 };

	tl->st = (struct dqr_vlayers_stats){ 0 };
	if (!tl->cl || f->num_switches != tl->n.num_switches ||
	    retire_dead(tl, f) || dqr_vlayers_imed_begin(tl, f) ||
	    dqr_local_path_each_dead(&tl->n, f, t, torus_link, &x))
		return -1;
	*st = tl->st;
	return x.all ? 0 : 1;
}

