/*
 * mesh_plugin.c - local paths around failed mesh links, towards the
 * centre (the DQR paper, IV.C); see mesh_plugin.h.
 */
#include <stdlib.h>

#include "repair/mesh_plugin.h"

#define MP_DIRS (2 * DQR_GEN_MAX_DIMS)

struct dqr_mesh_plugin {
	uint32_t num_switches;
	unsigned ndims;
	unsigned dims[DQR_GEN_MAX_DIMS];
	uint16_t *coord;	/* [sw * DQR_GEN_MAX_DIMS + k] */
	/* [sw * MP_DIRS + 2k + (step -1)]: the grid neighbour, its port */
	uint32_t *nsw;
	uint8_t *nport;
	/* the DLID being laid: a switch's patched port, where mark = epoch */
	uint32_t *mark, epoch;
	uint8_t *patched;
	struct dqr_mesh_stats st;
};

static inline uint32_t slot(uint32_t sw, unsigned k, int minus)
{
	return sw * MP_DIRS + 2 * k + (minus ? 1 : 0);
}

/* The dimension and direction in which switch b neighbours a, or -1. */
static int step_of(const struct dqr_mesh_plugin *mp, const struct dqr_grid *g,
		   uint32_t a, uint32_t b, unsigned *dim)
{
	const uint16_t *ca = mp->coord + (size_t)a * DQR_GEN_MAX_DIMS;
	const uint16_t *cb = mp->coord + (size_t)b * DQR_GEN_MAX_DIMS;
	unsigned k = 0, n, differ = 0;
	int minus = -1;

	for (k = 0; k < mp->ndims; k++) {
		if (ca[k] == cb[k])
			continue;
		differ++;
		n = mp->dims[k];
		*dim = k;
		if (cb[k] == ca[k] + 1 || (g->wrap[k] && ca[k] == n - 1 &&
					   cb[k] == 0))
			minus = 0;
		else if (ca[k] == cb[k] + 1 || (g->wrap[k] && cb[k] == n - 1 &&
						ca[k] == 0))
			minus = 1;
	}
	return differ == 1 ? minus : -1;
}

static void find_neighbours(struct dqr_mesh_plugin *mp,
			    const struct dqr_fabric *f,
			    const struct dqr_grid *g)
{
	uint32_t a, b, node, s;
	unsigned pn, k = 0;
	int minus;

	for (a = 0; a < mp->num_switches; a++) {
		node = f->switches[a];
		dqr_for_each_linked_port(f, node, pn) {
			b = dqr_peer_switch(f, dqr_port_index(f, node, pn));
			if (b == DQR_NONE || b == a)
				continue;
			minus = step_of(mp, g, a, b, &k);
			if (minus < 0)
				continue;
			s = slot(a, k, minus);
			if (mp->nsw[s] != DQR_NONE)
				continue;	/* a parallel cable */
			mp->nsw[s] = b;
			mp->nport[s] = (uint8_t)pn;
		}
	}
}

struct dqr_mesh_plugin *dqr_mesh_plugin_new(const struct dqr_fabric *f,
					    const struct dqr_grid *g)
{
	struct dqr_mesh_plugin *mp;
	uint32_t sw, n = f->num_switches;
	unsigned k;

	if (g->kind == DQR_GRID_HYPERCUBE || g->num_switches != n)
		return NULL;
	mp = calloc(1, sizeof(*mp));
	if (!mp)
		return NULL;
	mp->num_switches = n;
	mp->ndims = g->ndims;
	for (k = 0; k < g->ndims; k++)
		mp->dims[k] = g->dims[k];
	mp->coord = calloc((size_t)n * DQR_GEN_MAX_DIMS + 1,
			   sizeof(*mp->coord));
	mp->nsw = malloc(((size_t)n * MP_DIRS + 1) * sizeof(*mp->nsw));
	mp->nport = calloc((size_t)n * MP_DIRS + 1, 1);
	mp->mark = calloc((size_t)n + 1, sizeof(*mp->mark));
	mp->patched = calloc((size_t)n + 1, 1);
	if (!mp->coord || !mp->nsw || !mp->nport || !mp->mark ||
	    !mp->patched) {
		dqr_mesh_plugin_free(mp);
		return NULL;
	}
	for (sw = 0; sw < n; sw++)
		for (k = 0; k < g->ndims; k++)
			mp->coord[(size_t)sw * DQR_GEN_MAX_DIMS + k] =
				g->place[sw].coord[k];
	for (sw = 0; sw < (size_t)n * MP_DIRS; sw++)
		mp->nsw[sw] = DQR_NONE;
	find_neighbours(mp, f, g);
	return mp;
}

void dqr_mesh_plugin_free(struct dqr_mesh_plugin *mp)
{
	if (!mp)
		return;
	free(mp->coord);
	free(mp->nsw);
	free(mp->nport);
	free(mp->mark);
	free(mp->patched);
	free(mp);
}

void dqr_mesh_plugin_opts(struct dqr_mesh_plugin *mp,
			  struct dqr_reroute_opts *o)
{
	o->plugin = dqr_mesh_plugin_run;
	o->plugin_arg = mp;
}

const struct dqr_mesh_stats *dqr_mesh_plugin_stats(
	const struct dqr_mesh_plugin *mp)
{
	return &mp->st;
}

/* ------------------------------------------------------------ one DLID */

/* The global index of port pn of switch sw. */
static inline uint32_t sw_port(const struct dqr_fabric *f, uint32_t sw,
			       unsigned pn)
{
	return dqr_port_index(f, f->switches[sw], pn);
}

/* 1 when port pn of switch a is cabled to switch b in f. */
static int cabled(const struct dqr_fabric *f, uint32_t a, unsigned pn,
		  uint32_t b)
{
	return pn && b != DQR_NONE &&
	       dqr_peer_switch(f, sw_port(f, a, pn)) == b;
}

/* Switch sw's port for lid, the patched one while a DLID is laid. */
static uint8_t out_port(const struct dqr_mesh_plugin *mp,
			const struct dqr_lfts *t, uint32_t sw, uint32_t lid)
{
	return mp->mark[sw] == mp->epoch ? mp->patched[sw] :
	       dqr_lft_get(t, sw, lid);
}

/* The channel switch sw sends lid into, or DQR_NONE (delivered, none). */
static uint32_t out_channel(const struct dqr_mesh_plugin *mp,
			    const struct dqr_fabric *f,
			    const struct dqr_lfts *t, uint32_t sw, uint32_t lid)
{
	uint8_t p = out_port(mp, t, sw, lid);
	uint32_t ch;

	if (p == 0 || p > f->nodes[f->switches[sw]].num_ports)
		return DQR_NONE;
	ch = sw_port(f, sw, p);
	return dqr_peer_port(f, ch) == DQR_NONE ? DQR_NONE : ch;
}

static int add_dep(struct dqr_mesh_plugin *mp, struct dqr_dyn_order *cl,
		   uint32_t a, uint32_t b)
{
	int r;

	if (dqr_dyn_has_edge(cl, a, b))
		return 0;
	r = dqr_dyn_add(cl, a, b);
	if (r < 0)
		return r;
	mp->st.turns++;
	mp->st.reorders += r == DQR_DYN_REORDERED;
	return 0;
}

/*
 * The dependencies of switch s's patched entry for lid (channel c): every
 * channel that brings lid into s, the end ports of s but lid's owner, and
 * c into the channel lid takes after c.
 */
static int patched_deps(struct dqr_mesh_plugin *mp,
			const struct dqr_fabric *f, const struct dqr_lfts *t,
			struct dqr_dyn_order *cl, uint32_t s, uint32_t lid,
			uint32_t owner)
{
	uint32_t node = f->switches[s], c, nc, peer, w, next;
	unsigned pn;
	int r;

	c = out_channel(mp, f, t, s, lid);
	if (c == DQR_NONE)
		return DQR_DYN_EINVAL;
	dqr_for_each_linked_port(f, node, pn) {
		peer = dqr_peer_port(f, dqr_port_index(f, node, pn));
		w = dqr_is_switch(f, f->ports[peer].node) ?
		    f->nodes[f->ports[peer].node].sw_index : DQR_NONE;
		if (w != DQR_NONE &&
		    out_port(mp, t, w, lid) != f->ports[peer].num)
			continue;
		if (w == DQR_NONE &&
		    (peer == owner || dqr_dyn_is_retired(cl, peer)))
			continue;
		r = add_dep(mp, cl, peer, c);
		if (r < 0)
			return r;
	}
	next = dqr_peer_switch(f, c);
	if (next == DQR_NONE)
		return 0;
	nc = out_channel(mp, f, t, next, lid);
	return nc == DQR_NONE ? 0 : add_dep(mp, cl, c, nc);
}

/*
 * Lays the local path p[0..3] over lid's tree, for the route that crossed
 * p[0]'s dead port, and adds what the patched entries depend on.
 */
static int lay_lid(struct dqr_mesh_plugin *mp, const struct dqr_fabric *f,
		   const struct dqr_lfts *t, struct dqr_dyn_order *cl,
		   const uint32_t p[4], const uint8_t pport[3], uint32_t lid,
		   uint32_t owner)
{
	uint32_t done[3], ndone = 0, s, gp, i;
	uint8_t q;
	int r;

	if (++mp->epoch == 0) {
		for (i = 0; i < mp->num_switches; i++)
			mp->mark[i] = 0;
		mp->epoch = 1;
	}
	for (i = 0; i < 3; i++) {
		s = p[i];
		q = i ? dqr_lft_get(t, s, lid) : DQR_NO_PATH;
		/* delivered here */
		if (q == 0)
			break;
		/* its route leaves the path forwards (or to a CA) */
		if (q <= f->nodes[f->switches[s]].num_ports) {
			gp = sw_port(f, s, q);
			if (dqr_peer_port(f, gp) != DQR_NONE &&
			    dqr_peer_switch(f, gp) != p[i - 1])
				break;
		}
		mp->mark[s] = mp->epoch;
		mp->patched[s] = pport[i];
		done[ndone++] = s;
	}
	/* the end of the path must not lead back into it */
	if (ndone == 3) {
		q = dqr_lft_get(t, p[3], lid);
		if (q && q <= f->nodes[f->switches[p[3]]].num_ports &&
		    dqr_peer_switch(f, sw_port(f, p[3], q)) == p[2])
			return DQR_DYN_CYCLE;
	}
	for (i = 0; i < ndone; i++) {
		r = patched_deps(mp, f, t, cl, done[i], lid, owner);
		if (r < 0)
			return r;
	}
	return 0;
}

/* Every DLID whose route left p[0] through its dead port dead. */
static int lay_path(struct dqr_mesh_plugin *mp, const struct dqr_fabric *f,
		    const struct dqr_lfts *t, struct dqr_dyn_order *cl,
		    const uint32_t p[4], const uint8_t pport[3], uint8_t dead)
{
	uint32_t lid, owner;
	int r;

	for (lid = 1; lid < t->lid_count; lid++) {
		if (dqr_lft_get(t, p[0], lid) != dead)
			continue;
		owner = dqr_lid_owner(f, lid);
		if (owner == DQR_NONE)
			continue;
		r = lay_lid(mp, f, t, cl, p, pport, lid, owner);
		if (r < 0)
			return r;
	}
	return 0;
}

/* ------------------------------------------------------------ one link */

/* 1 when some DLID leaves switch sw through port pn. */
static int carries(const struct dqr_lfts *t, uint32_t sw, uint8_t pn)
{
	const uint8_t *row = dqr_lft_row(t, sw);
	uint32_t lid;

	for (lid = 1; lid < t->lid_count; lid++)
		if (row[lid] == pn)
			return 1;
	return 0;
}

/*
 * Tries the side (dimension j, direction minus) of the dead link a-b
 * (a's neighbour in dimension k, + direction): 1 laid, 0 it does not fit,
 * -1 out of memory.
 */
static int try_side(struct dqr_mesh_plugin *mp, const struct dqr_fabric *f,
		    const struct dqr_lfts *t, struct dqr_dyn_order *cl,
		    uint32_t a, uint32_t b, unsigned k, unsigned j, int minus)
{
	uint32_t sa = slot(a, j, minus), sb = slot(b, j, minus);
	uint32_t a2 = mp->nsw[sa], b2 = mp->nsw[sb], fw[4], bw[4];
	uint8_t fwp[3], bwp[3];
	struct dqr_mesh_stats before = mp->st;
	size_t mark;
	int r;

	if (a2 == DQR_NONE || b2 == DQR_NONE ||
	    mp->nsw[slot(a2, k, 0)] != b2 ||
	    !cabled(f, a, mp->nport[sa], a2) ||
	    !cabled(f, b, mp->nport[sb], b2) ||
	    !cabled(f, a2, mp->nport[slot(a2, k, 0)], b2))
		return 0;
	fw[0] = a, fw[1] = a2, fw[2] = b2, fw[3] = b;
	fwp[0] = mp->nport[sa];
	fwp[1] = mp->nport[slot(a2, k, 0)];
	fwp[2] = mp->nport[slot(b2, j, !minus)];
	bw[0] = b, bw[1] = b2, bw[2] = a2, bw[3] = a;
	bwp[0] = mp->nport[sb];
	bwp[1] = mp->nport[slot(b2, k, 1)];
	bwp[2] = mp->nport[slot(a2, j, !minus)];
	if (!fwp[2] || !bwp[1] || !bwp[2])
		return 0;
	mark = dqr_dyn_mark(cl);
	r = lay_path(mp, f, t, cl, fw, fwp, mp->nport[slot(a, k, 0)]);
	if (!r)
		r = lay_path(mp, f, t, cl, bw, bwp, mp->nport[slot(b, k, 1)]);
	if (r == DQR_DYN_ENOMEM)
		return -1;
	if (r < 0) {
		dqr_dyn_rollback(cl, mark);
		mp->st = before;
		return 0;
	}
	dqr_dyn_commit(cl);
	return 1;
}

/*
 * The sides of the dead link a-b in dimension k, towards the centre of
 * each other dimension first.
 */
static int bypass(struct dqr_mesh_plugin *mp, const struct dqr_fabric *f,
		  const struct dqr_lfts *t, struct dqr_dyn_order *cl,
		  uint32_t a, uint32_t b, unsigned k)
{
	const uint16_t *ca = mp->coord + (size_t)a * DQR_GEN_MAX_DIMS;
	unsigned j, pass;
	int minus, r;

	for (pass = 0; pass < 2; pass++)
		for (j = 0; j < mp->ndims; j++) {
			if (j == k)
				continue;
			/* the centre is at (dims - 1) / 2 */
			minus = 2u * ca[j] > mp->dims[j] - 1;
			r = try_side(mp, f, t, cl, a, b, k, j,
				     pass ? !minus : minus);
			if (r)
				return r;
		}
	return 0;
}

int dqr_mesh_plugin_run(void *arg, const struct dqr_fabric *f,
			const struct dqr_lfts *t, struct dqr_dyn_order *cl)
{
	struct dqr_mesh_plugin *mp = arg;
	uint32_t a, b, s;
	uint8_t pa, pb;
	unsigned k;
	int all = 1, r;

	mp->st = (struct dqr_mesh_stats){ 0 };
	if (f->num_switches != mp->num_switches)
		return 0;
	for (a = 0; a < mp->num_switches; a++)
		for (k = 0; k < mp->ndims; k++) {
			s = slot(a, k, 0);
			b = mp->nsw[s];
			pa = mp->nport[s];
			if (b == DQR_NONE || cabled(f, a, pa, b))
				continue;
			pb = mp->nport[slot(b, k, 1)];
			if (!carries(t, a, pa) && !(pb && carries(t, b, pb)))
				continue;
			mp->st.links_failed++;
			r = pb ? bypass(mp, f, t, cl, a, b, k) : 0;
			if (r < 0)
				return -1;
			mp->st.links_bypassed += r;
			all &= r;
		}
	return all && mp->st.links_failed;
}
