/*
 * vlayers_imed.c - the IN paper's routes through intermediate switches
 * (routing/intermediate.h) as the first repair of a broken route on a
 * torus's layers, before the mesh plug-in's local paths.
 *
 * Why first: the plug-in lays one local path for every DLID over a dead
 * link, so the two or three channels around it take all of the link's
 * routes (on the 8x8x8 torus the busiest channel goes from 640 routes to
 * 1,192 after one fault).  The model gives each destination its own
 * chain of sound dimension-order segments, the shortest through at most
 * max intermediates, and among equal chains the one whose way on meets
 * the least busy channel: the detours spread.
 *
 * How: at the start of a repair the model judges the cables the fabric
 * lacks (a missing switch's count as failed), and the channel loads of
 * the tables in force under all-to-all seed its tie breaks.  For a DLID
 * whose route broke at switch a, the model's tree for the DLID's switch
 * is laid over every switch cut off with a (whose routes crossed the
 * dead link too), nearest the destination first, each hop on its own
 * (dqr_vlayers_lay_path(): every dependency the tree gains, in the
 * layers of the routes that take it); a hop that does not fit leaves its
 * switch to the hop it had, which arrives once the switch it leads to
 * is laid.  When a's route then arrives the DLID is done, else all of it
 * is taken back and the model's chain from a alone is tried (a, then its
 * next hops while they lead through cut switches, laid as one path).
 * A chain that fits no own layer moves to another with every switch cut
 * off with it (vlayers_move.c), as the search's paths do; what fits
 * nowhere goes on to the plug-in and the search.  The moves are what
 * keep the busiest channel near the model's (876 routes against 1,231
 * without them on the 8x8x8 torus on LASH's layers after 14 faults,
 * doc/intermediate-switches.md); their transitions are safe because
 * the SA answers a moved pair's new SL only once the change is in
 * force (reaction/topo_vlayers.c).  Each hop shortens
 * the model's route, so a chain visits a switch once; a switch that is
 * not cut off never routes through a: no loop.
 *
 * Costs: the model O(switches^2) memory, on grids of at most 2,048
 * switches (larger ones skip this step); per repair O(switches^2 x
 * failed cables) to judge and, once it has a DLID to lay, O(LIDs x
 * switches) for the loads; per DLID a tree, O(max x switches^2).
 */
#include <stdlib.h>
#include <string.h>

#include "routes/route_load.h"
#include "routing/intermediate.h"
#include "vlayers/vlayers-internal.h"
#include "util/mem.h"

struct dqr_vlayers_imed {
	struct dqr_grid_links *gl;
	struct dqr_imed *im;
	uint32_t *node_of;	/* per switch: its grid node */
	uint32_t *sw_of;	/* per grid node: the switch, or DQR_NONE */
	uint32_t *next;		/* one tree, per grid node */
	uint64_t *load;		/* per directed cable (2l up, 2l + 1 down) */
	uint32_t *failed;	/* the cables the fabric lacks */
	uint32_t num_failed;
	uint64_t *chan_load;	/* per port index of f, all-to-all */
	uint32_t *path_node;	/* a chain's grid nodes */
	int judged;		/* the model stands for this repair */
	int seeded;		/* load holds this repair's tables */
};

static void imed_free(struct dqr_vlayers_imed *x)
{
	if (!x)
		return;
	dqr_imed_free(x->im);
	dqr_grid_links_free(x->gl);
	DQR_FREE_ALL(x->node_of, x->sw_of, x->next, x->load, x->failed,
		     x->chan_load, x->path_node, x);
}

/*
 * The model of tl's grid: every dimension a ring (a torus) or none (a
 * mesh).  NULL when the grid mixes them, is too large, or no memory:
 * the repair then goes without this step.
 */
static struct dqr_vlayers_imed *imed_new(const struct dqr_vlayers *tl)
{
	const struct dqr_grid_nbrs *n = &tl->n;
	struct dqr_gen_spec spec = { .ndims = n->ndims };
	struct dqr_vlayers_imed *x = calloc(1, sizeof(*x));
	unsigned k, wraps = 0, c[DQR_GEN_MAX_DIMS];
	uint32_t sw, nodes;

	if (!x)
		return NULL;
	for (k = 0; k < n->ndims; k++) {
		spec.dims[k] = n->dims[k];
		wraps += n->wrap[k] != 0;
	}
	spec.kind = wraps == n->ndims ? DQR_GEN_TORUS : DQR_GEN_MESH;
	if ((wraps && wraps != n->ndims) ||
	    dqr_grid_links_new(&spec, &x->gl, NULL, 0) ||
	    dqr_imed_new(x->gl, DQR_IMED_DOR, &x->im, NULL, 0))
		goto fail;
	nodes = x->gl->num_nodes;
	x->node_of = calloc(n->num_switches + 1, sizeof(*x->node_of));
	x->sw_of = malloc(sizeof(*x->sw_of) * nodes);
	x->next = calloc(nodes, sizeof(*x->next));
	x->load = calloc(2 * (size_t)x->gl->num_links, sizeof(*x->load));
	x->failed = calloc(x->gl->num_links, sizeof(*x->failed));
	x->path_node = calloc(n->num_switches + 1, sizeof(*x->path_node));
	if (!x->node_of || !x->sw_of || !x->next || !x->load || !x->failed ||
	    !x->path_node)
		goto fail;
	memset(x->sw_of, 0xff, sizeof(*x->sw_of) * nodes);
	for (sw = 0; sw < n->num_switches; sw++) {
		for (k = 0; k < n->ndims; k++)
			c[k] = dqr_grid_coord(n, sw, k);
		x->node_of[sw] = dqr_grid_node(x->gl, c);
		x->sw_of[x->node_of[sw]] = sw;
	}
	return x;
fail:
	imed_free(x);
	return NULL;
}

/* The port of switch sw to its grid neighbour nb, or 0. */
static uint8_t port_to(const struct dqr_grid_nbrs *n, uint32_t sw,
		       uint32_t nb)
{
	unsigned s;

	for (s = 0; s < DQR_GRID_DIRS; s++)
		if (n->sw[sw * DQR_GRID_DIRS + s] == nb)
			return n->port[sw * DQR_GRID_DIRS + s];
	return 0;
}

/* 1 when grid cable l joins two switches still cabled in f. */
static int cable_up(const struct dqr_vlayers *tl,
		    const struct dqr_vlayers_imed *x,
		    const struct dqr_fabric *f, uint32_t l)
{
	uint32_t a = x->sw_of[x->gl->low[l]], b = x->sw_of[x->gl->high[l]];
	uint8_t p;

	if (a == DQR_NONE || b == DQR_NONE)
		return 0;
	p = port_to(&tl->n, a, b);
	return p && dqr_peer_switch(f, dqr_port_index(f, f->switches[a],
						      p)) == b;
}

/*
 * The load of each directed grid cable in t under all-to-all: the ties
 * of the trees to come break towards the least busy.  -1 no memory.
 */
static int seed_loads(struct dqr_vlayers *tl, struct dqr_vlayers_imed *x,
		      const struct dqr_fabric *f, const struct dqr_lfts *t)
{
	struct dqr_route_load ld;
	uint32_t l, a, b;
	uint8_t p;

	if (!x->chan_load) {
		x->chan_load = calloc(f->num_ports + 1, sizeof(*x->chan_load));
		if (!x->chan_load)
			return -1;
	}
	if (dqr_route_load(f, t, &ld, x->chan_load))
		return -1;
	for (l = 0; l < x->gl->num_links; l++) {
		a = x->sw_of[x->gl->low[l]];
		b = x->sw_of[x->gl->high[l]];
		x->load[2 * l] = x->load[2 * l + 1] = 0;
		if (a == DQR_NONE || b == DQR_NONE)
			continue;
		p = port_to(&tl->n, a, b);
		if (p)
			x->load[2 * l] = x->chan_load[dqr_port_index(f,
						f->switches[a], p)];
		p = port_to(&tl->n, b, a);
		if (p)
			x->load[2 * l + 1] = x->chan_load[dqr_port_index(f,
						f->switches[b], p)];
	}
	return 0;
}

int dqr_vlayers_imed_begin(struct dqr_vlayers *tl,
			   const struct dqr_fabric *f)
{
	struct dqr_vlayers_imed *x;
	struct dqr_imed_verdict v;
	uint32_t l;

	if (!tl->imed_max)
		return 0;
	if (!tl->imed_tried) {
		tl->imed_tried = 1;
		tl->imed = imed_new(tl);
		tl->imed_release = imed_free;
	}
	x = tl->imed;
	if (!x)
		return 0;
	x->judged = 0;
	x->seeded = 0;
	x->num_failed = 0;
	for (l = 0; l < x->gl->num_links; l++)
		if (!cable_up(tl, x, f, l))
			x->failed[x->num_failed++] = l;
	if (dqr_imed_judge(x->im, x->failed, x->num_failed, tl->imed_max,
			   &v))
		return 0;
	x->judged = 1;
	return 0;
}

/* routes more on the directed grid cable from node a to node b */
static void add_hop_load(struct dqr_vlayers_imed *x, uint32_t a, uint32_t b,
			 uint64_t routes)
{
	int down;
	int32_t c = dqr_grid_cable(x->gl, a, b, &down);

	if (c >= 0)
		x->load[2 * c + down] += routes;
}

/* routes more on every cable of sw's route to lid in t. */
static void add_route_load(struct dqr_vlayers *tl,
			   struct dqr_vlayers_imed *x,
			   const struct dqr_fabric *f,
			   const struct dqr_lfts *t, uint32_t sw,
			   uint32_t lid, uint32_t dst, uint64_t routes)
{
	uint32_t y, z, ch, hops = 0;

	for (y = sw; y != dst && hops++ < tl->n.num_switches; y = z) {
		z = dqr_vlayers_hop(f, t, y, lid, &ch);
		if (z == DQR_NONE)
			break;
		add_hop_load(x, x->node_of[y], x->node_of[z], routes);
	}
}

/*
 * The chain's routes load its cables, and those of the rejoined route
 * on to dst: the trees after it see them.
 */
static void add_chain_load(struct dqr_vlayers *tl, struct dqr_vlayers_imed *x,
			   const struct dqr_fabric *f, const struct dqr_lfts *t,
			   uint32_t n, uint32_t lid, uint32_t dst,
			   uint64_t routes)
{
	uint32_t i, y, z, ch, hops = 0;

	for (i = 0; i + 1 < n; i++)
		add_hop_load(x, x->path_node[i], x->path_node[i + 1], routes);
	for (y = x->sw_of[x->path_node[n - 1]]; y != dst &&
	     hops++ < tl->n.num_switches; y = z) {
		z = dqr_vlayers_hop(f, t, y, lid, &ch);
		if (z == DQR_NONE)
			break;
		add_hop_load(x, x->node_of[y], x->node_of[z], routes);
	}
}

/*
 * One switch's hop laid inside lay_cut()'s attempt; when it does not fit,
 * only its own entries and dependencies are taken back (the list's log
 * rolls back to a mark), and the switch keeps its entry.  1 laid, 0 not,
 * -1 no memory.
 */
static int lay_hop(struct dqr_vlayers *tl, const struct dqr_fabric *f,
		   struct dqr_lfts *t, uint32_t sw, uint8_t p, uint32_t y,
		   uint32_t lid, uint32_t dst, uint32_t owner,
		   struct dqr_vlayers_undo *u)
{
	size_t mark = dqr_dyn_mark(tl->cl);
	struct dqr_vlayers_stats st = tl->st;
	uint32_t n0 = u->n;
	int r;

	tl->path_sw[0] = sw;
	tl->path_port[0] = p;
	r = dqr_vlayers_lay_path(tl, f, t, 1, y, lid, dst, owner, u);
	if (r)
		return r;
	dqr_dyn_rollback(tl->cl, mark);
	tl->st = st;
	while (u->n > n0) {
		u->n--;
		dqr_lft_set(t, u->e[u->n].sw, u->e[u->n].lid, u->e[u->n].old);
	}
	return 0;
}

/*
 * Every switch cut off with the route (cut[] == g) takes its own next
 * hop of the model's tree, nearest the destination first, so that each
 * is laid onto a switch that arrives: the model's tree, where the fault
 * broke the old one.  A switch whose hop does not fit keeps its entry:
 * its route arrives anyway when the switch it leads to was laid.  All or
 * nothing for the DLID: 1 when a's route arrives at the end (kept), 0
 * not (all taken back), -1 no memory.
 */
static int lay_cut(struct dqr_vlayers *tl, struct dqr_vlayers_imed *x,
		   const struct dqr_fabric *f, struct dqr_lfts *t,
		   uint32_t a, uint32_t lid, uint32_t dst, uint32_t owner,
		   uint32_t g, uint32_t cut, struct dqr_vlayers_undo *u)
{
	uint32_t S = tl->n.num_switches, sw, y, node, left = cut;
	uint32_t vg = dqr_vlayers_next_gen(tl->vis, &tl->vgen, S);
	int r = 0, progress = 1;
	uint8_t p;

	dqr_vlayers_undo_begin(tl, u);
	while (r >= 0 && left && progress) {
		progress = 0;
		for (sw = 0; r >= 0 && sw < S; sw++) {
			if (tl->cut[sw] != g || tl->vis[sw] == vg)
				continue;
			node = x->next[x->node_of[sw]];
			y = node == DQR_IMED_NONE ? DQR_NONE : x->sw_of[node];
			if (y != DQR_NONE && tl->cut[y] == g &&
			    tl->vis[y] != vg)
				continue;	/* its way on is not laid yet */
			tl->vis[sw] = vg;
			progress = 1;
			left--;
			p = y == DQR_NONE ? 0 : port_to(&tl->n, sw, y);
			if (p && dqr_lft_get(t, sw, lid) != p)
				r = lay_hop(tl, f, t, sw, p, y, lid, dst, owner,
					    u);
		}
	}
	if (r >= 0) {
		dqr_vlayers_next_gen(tl->arr, &tl->agen, S);
		r = dqr_vlayers_arrives(tl, f, t, a, lid, dst, owner);
	}
	for (sw = 0; r > 0 && sw < S; sw++)
		if (tl->cut[sw] == g)
			add_route_load(tl, x, f, t, sw, lid, dst, 1);
	return dqr_vlayers_undo_end(tl, t, u, r);
}

int dqr_vlayers_imed_lid(struct dqr_vlayers *tl,
			 const struct dqr_fabric *f, struct dqr_lfts *t,
			 uint32_t a, uint32_t lid, uint32_t dst,
			 uint32_t owner, struct dqr_vlayers_undo *u)
{
	struct dqr_vlayers_imed *x = tl->imed;
	uint32_t g, y, node, n = 0, cut = 0, sw;
	uint32_t *path_node;
	int r;

	if (!x || !x->judged || !tl->imed_max)
		return 0;
	/* the whole all-to-all load, only for a repair that uses it */
	if (!x->seeded && seed_loads(tl, x, f, t))
		return -1;
	x->seeded = 1;
	path_node = x->path_node;
	if (dqr_imed_tree(x->im, x->node_of[dst], tl->imed_max, x->load,
			  x->next))
		return 0;
	g = dqr_vlayers_next_gen(tl->cut, &tl->cgen, tl->n.num_switches);
	dqr_vlayers_upstream(tl, f, t, lid, dst, a, tl->cut, g);
	for (sw = 0; sw < tl->n.num_switches; sw++)
		cut += tl->cut[sw] == g;
	r = lay_cut(tl, x, f, t, a, lid, dst, owner, g, cut, u);
	if (r) {
		tl->st.lids_intermediate += r > 0;
		return r;
	}
	/* a, then the next hops while they lead through the cut switches */
	for (y = a; tl->cut[y] == g; y = x->sw_of[node]) {
		node = x->next[x->node_of[y]];
		if (node == DQR_IMED_NONE || x->sw_of[node] == DQR_NONE ||
		    n == tl->n.num_switches)
			return 0;
		tl->path_sw[n] = y;
		tl->path_port[n] = port_to(&tl->n, y, x->sw_of[node]);
		path_node[n] = x->node_of[y];
		if (!tl->path_port[n++])
			return 0;
	}
	dqr_vlayers_next_gen(tl->arr, &tl->agen, tl->n.num_switches);
	if (!dqr_vlayers_arrives(tl, f, t, y, lid, dst, owner))
		return 0;
	path_node[n] = x->node_of[y];
	dqr_vlayers_undo_begin(tl, u);
	r = dqr_vlayers_undo_end(tl, t, u,
				 dqr_vlayers_lay_path(tl, f, t, n, y, lid, dst,
						      owner, u));
	/* no own layer holds it: moved, as the search's paths may be */
	if (!r)
		r = dqr_vlayers_move_path(tl, f, t, n, y, lid, dst, owner, u);
	if (r > 0) {
		add_chain_load(tl, x, f, t, n + 1, lid, dst, cut);
		tl->st.lids_intermediate++;
	}
	return r;
}
