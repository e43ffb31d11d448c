/*
 * mesh_plugin.c - local paths around failed mesh links, towards the
 * centre (the DQR paper, IV.C); see mesh_plugin.h.
 */
#include <stdlib.h>

#include "mesh/local_path.h"
#include "mesh/mesh_plugin.h"
#include "util/check.h"

struct dqr_mesh_plugin {
	struct dqr_grid_nbrs n;
	/* the DLID being laid: a switch's patched port, where mark = epoch */
	uint32_t *mark, epoch;
	uint8_t *patched;
	struct dqr_mesh_stats st;
};

struct dqr_mesh_plugin *dqr_mesh_plugin_new(const struct dqr_fabric *f,
					    const struct dqr_grid *g)
{
	struct dqr_mesh_plugin *mp;

	if (g->kind == DQR_GRID_HYPERCUBE)
		return NULL;
	mp = calloc(1, sizeof(*mp));
	if (!mp)
		return NULL;
	if (dqr_grid_nbrs_build(f, g, &mp->n)) {
		free(mp);
		return NULL;
	}
	mp->mark = calloc((size_t)f->num_switches + 1, sizeof(*mp->mark));
	mp->patched = calloc((size_t)f->num_switches + 1, 1);
	if (!mp->mark || !mp->patched) {
		dqr_mesh_plugin_free(mp);
		return NULL;
	}
	return mp;
}

void dqr_mesh_plugin_free(struct dqr_mesh_plugin *mp)
{
	if (!mp)
		return;
	dqr_grid_nbrs_release(&mp->n);
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
	ch = dqr_port_index(f, f->switches[sw], p);
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

/* Lays the local path over lid's tree and adds what the patch needs. */
static int lay_lid(struct dqr_mesh_plugin *mp, const struct dqr_fabric *f,
		   const struct dqr_lfts *t, struct dqr_dyn_order *cl,
		   const struct dqr_local_path *lp, uint32_t lid,
		   uint32_t owner)
{
	uint32_t sw[DQR_LOCAL_PATH_LEN], i;
	uint8_t port[DQR_LOCAL_PATH_LEN];
	int n, r;

	n = dqr_local_path_patch(lp, f, t, lid, sw, port);
	if (n < 0)
		return DQR_DYN_CYCLE;
	if (++mp->epoch == 0) {
		for (i = 0; i < mp->n.num_switches; i++)
			mp->mark[i] = 0;
		mp->epoch = 1;
	}
	for (i = 0; i < (uint32_t)n; i++) {
		mp->mark[sw[i]] = mp->epoch;
		mp->patched[sw[i]] = port[i];
	}
	for (i = 0; i < (uint32_t)n; i++) {
		r = patched_deps(mp, f, t, cl, sw[i], lid, owner);
		if (r < 0)
			return r;
	}
	return 0;
}

/* Every DLID whose route left lp's first switch through port dead. */
static int lay_path(struct dqr_mesh_plugin *mp, const struct dqr_fabric *f,
		    const struct dqr_lfts *t, struct dqr_dyn_order *cl,
		    const struct dqr_local_path *lp, uint8_t dead)
{
	uint32_t lid, owner;
	int r;

	for (lid = 1; lid < t->lid_count; lid++) {
		if (dqr_lft_get(t, lp->sw[0], lid) != dead)
			continue;
		owner = dqr_lid_owner(f, lid);
		if (owner == DQR_NONE)
			continue;
		r = lay_lid(mp, f, t, cl, lp, lid, owner);
		if (r < 0)
			return r;
	}
	return 0;
}

/* ------------------------------------------------------------ one link */

/*
 * The side (dimension j, downwards if minus) of the dead link from a to
 * its + neighbour b in dimension k, for both directions: 1 laid, 0 it
 * does not fit (nothing stays), -1 out of memory.
 */
static int try_side(struct dqr_mesh_plugin *mp, const struct dqr_fabric *f,
		    const struct dqr_lfts *t, struct dqr_dyn_order *cl,
		    uint32_t a, uint32_t b, unsigned k, unsigned j, int minus)
{
	struct dqr_mesh_stats before = mp->st;
	struct dqr_local_path fw, bw;
	struct dqr_dyn_fingerprint list;
	size_t mark;
	int r;

	if (!dqr_local_path_aside(&mp->n, f, a, k, 0, j, minus, &fw) ||
	    !dqr_local_path_aside(&mp->n, f, b, k, 1, j, minus, &bw))
		return 0;
	mark = dqr_dyn_mark(cl);
	list = dqr_dyn_fingerprint(cl);
	r = lay_path(mp, f, t, cl, &fw,
		     mp->n.port[dqr_grid_slot(a, k, 0)]);
	if (!r)
		r = lay_path(mp, f, t, cl, &bw,
			     mp->n.port[dqr_grid_slot(b, k, 1)]);
	if (r == DQR_DYN_ENOMEM)
		return -1;
	if (r < 0) {
		dqr_dyn_rollback(cl, mark);
		DQR_CHECK(dqr_dyn_same(cl, &list));
		mp->st = before;
		return 0;
	}
	dqr_dyn_commit(cl);
	return 1;
}

/* The sides of the dead link, towards the centre of each dimension first. */
static int bypass(struct dqr_mesh_plugin *mp, const struct dqr_fabric *f,
		  const struct dqr_lfts *t, struct dqr_dyn_order *cl,
		  uint32_t a, uint32_t b, unsigned k)
{
	unsigned j, pass;
	int minus, r;

	for (pass = 0; pass < 2; pass++)
		for (j = 0; j < mp->n.ndims; j++) {
			if (j == k)
				continue;
			minus = dqr_local_path_centre_minus(&mp->n, a, j);
			r = try_side(mp, f, t, cl, a, b, k, j,
				     pass ? !minus : minus);
			if (r)
				return r;
		}
	return 0;
}

/* One dead link, for dqr_local_path_each_dead(). */
struct mesh_run {
	struct dqr_mesh_plugin *mp;
	const struct dqr_fabric *f;
	const struct dqr_lfts *t;
	struct dqr_dyn_order *cl;
	int all;
};

static int mesh_link(void *arg, uint32_t a, uint32_t b, unsigned k)
{
	struct mesh_run *m = arg;
	int r = bypass(m->mp, m->f, m->t, m->cl, a, b, k);

	if (r < 0)
		return -1;
	m->mp->st.links_failed++;
	m->mp->st.links_bypassed += r;
	m->all &= r;
	return 0;
}

int dqr_mesh_plugin_run(void *arg, const struct dqr_fabric *f,
			const struct dqr_lfts *t, struct dqr_dyn_order *cl)
{
	struct mesh_run m = { arg, f, t, cl, 1 };

	m.mp->st = (struct dqr_mesh_stats){ 0 };
	if (dqr_local_path_each_dead(&m.mp->n, f, t, mesh_link, &m))
		return -1;
	return m.all && m.mp->st.links_failed;
}
