/*
 * vlayers_search.c - the topology-agnostic search on a torus's virtual
 * layers, the DQR paper's fallback past what the mesh plug-in covers.
 *
 * A DLID whose route from switch a broke, and which no local path of the
 * plug-in bypasses (a lost switch, a side that closes a cycle in some
 * layer), gets a path from a to the nearest switch whose route still
 * arrives.  The path is laid over the DLID's tree as the plug-in's is
 * (dqr_vlayers_lay_path()): every dependency the tree gains goes into the
 * list in the layers of the routes that take it, and a path whose
 * dependencies would close a cycle in any layer is taken back.  Every
 * candidate is tried in the routes' own layers first (vlayers.h says
 * why an SL should stay); only then, when moves are allowed, with the
 * routes that take it moved to another layer (vlayers_move.c).
 *
 * Candidates: a breadth-first search per first hop out of a, through the
 * switches cut off with a as well (their entries are overwritten) but
 * never back through a, ending at its nearest switches that arrive,
 * tried shortest first; the first that fits every layer is kept.  Cost
 * per DLID: a search per first hop, O(switches x degree) each (whether a
 * switch's route arrives is walked once per switch), and a path laid per
 * candidate tried; only for the DLIDs the plug-in left.
 */
#include <stdlib.h>
#include <string.h>

#include "vlayers/vlayers-internal.h"
#include "routes/route_walk.h"

/*
 * Where a first hop's search may end: its nearest switches that arrive.
 * More ends find more legal paths (on the 10x10 torus, P(2) 0.785 with
 * one, 0.865 with 16); the cost is a path laid and taken back each.
 */
#define DQR_TORUS_SEARCH_ENDS 16
/* first hops tried: a torus switch has 6 grid cables at the most */
#define DQR_TORUS_SEARCH_HOPS 8

uint32_t dqr_vlayers_next_gen(uint32_t *m, uint32_t *gen, uint32_t num)
{
	if (++*gen)
		return *gen;
	memset(m, 0, sizeof(uint32_t) * (num + 1));
	*gen = 1;
	return 1;
}

/*
 * 1 when switch x delivers lid in t: x is dst, and its entry is port 0
 * for dst's own LID, else the port cabled to owner.
 */
static int delivers(const struct dqr_fabric *f, const struct dqr_lfts *t,
		    uint32_t x, uint32_t lid, uint32_t dst, uint32_t owner)
{
	uint8_t p = dqr_lft_get(t, x, lid);

	if (x != dst)
		return 0;
	if (!f->ports[owner].num)
		return p == 0;
	if (p == 0 || p > f->nodes[f->switches[dst]].num_ports)
		return 0;
	return dqr_peer_port(f, dqr_port_index(f, f->switches[dst], p)) ==
	       owner;
}

int dqr_vlayers_arrives(struct dqr_vlayers *tl, const struct dqr_fabric *f,
			const struct dqr_lfts *t, uint32_t sw, uint32_t lid,
			uint32_t dst, uint32_t owner)
{
	uint32_t top = 0, x = sw, ch, g = tl->agen;
	uint8_t v = 0;

	/* walk until a switch already known, the end, or a loop */
	for (;;) {
		if (tl->arr[x] == g) {
			v = tl->arr_val[x];
			break;
		}
		tl->arr[x] = g;
		tl->arr_val[x] = 0;	/* in progress: a loop arrives not */
		tl->stack[top++] = x;
		if (x == dst) {
			v = (uint8_t)delivers(f, t, x, lid, dst, owner);
			break;
		}
		x = dqr_vlayers_hop(f, t, x, lid, &ch);
		if (x == DQR_NONE)
			break;
	}
	while (top)
		tl->arr_val[tl->stack[--top]] = v;
	return v;
}

/*
 * Breadth-first from a's neighbour behind port pn, never through a: the
 * nearest max switches that are not cut off and whose route arrives, in
 * ends[], with from[] and from_port[] leading back to a.  How many.
 */
static unsigned bfs_ends(struct dqr_vlayers *tl,
			 const struct dqr_fabric *f, const struct dqr_lfts *t,
			 uint32_t a, unsigned pn, uint32_t lid, uint32_t dst,
			 uint32_t owner, uint32_t *ends, unsigned max)
{
	uint32_t g = dqr_vlayers_next_gen(tl->vis, &tl->vgen,
					  tl->n.num_switches);
	uint32_t head = 0, tail = 0, x, z, node;
	unsigned qn, n = 0;

	z = dqr_peer_switch(f, dqr_port_index(f, f->switches[a], pn));
	if (z == DQR_NONE)
		return 0;
	tl->vis[a] = g;
	tl->vis[z] = g;
	tl->from[z] = a;
	tl->from_port[z] = (uint8_t)pn;
	tl->queue[tail++] = z;
	while (head < tail && n < max) {
		x = tl->queue[head++];
		if (tl->cut[x] != tl->cgen &&
		    dqr_vlayers_arrives(tl, f, t, x, lid, dst, owner))
			ends[n++] = x;
		node = f->switches[x];
		dqr_for_each_linked_port(f, node, qn) {
			z = dqr_peer_switch(f, dqr_port_index(f, node, qn));
			if (z == DQR_NONE || tl->vis[z] == g)
				continue;
			tl->vis[z] = g;
			tl->from[z] = x;
			tl->from_port[z] = (uint8_t)qn;
			tl->queue[tail++] = z;
		}
	}
	return n;
}

/* The path from a to y's predecessor into path_sw/path_port: its length. */
static uint32_t path_to(struct dqr_vlayers *tl, uint32_t a, uint32_t y)
{
	uint32_t n = 0, x, i;

	for (x = y; x != a; x = tl->from[x])
		n++;
	for (x = y, i = n; i-- > 0; x = tl->from[x]) {
		tl->path_sw[i] = tl->from[x];
		tl->path_port[i] = tl->from_port[x];
	}
	return n;
}

/* A candidate: the first hop, the end, the path's length. */
struct cand {
	uint32_t len, end;
	uint8_t pn, rank;
};

static int cand_cmp(const void *x, const void *y)
{
	const struct cand *a = x, *b = y;

	if (a->len != b->len)
		return a->len < b->len ? -1 : 1;
	if (a->pn != b->pn)
		return a->pn < b->pn ? -1 : 1;
	return (a->rank > b->rank) - (a->rank < b->rank);
}

/* The path of candidate c from a, into path_sw/path_port; its length. */
static uint32_t cand_path(struct dqr_vlayers *tl, const struct dqr_fabric *f,
			  const struct dqr_lfts *t, uint32_t a,
			  const struct cand *c, uint32_t lid, uint32_t dst,
			  uint32_t owner)
{
	uint32_t ends[DQR_TORUS_SEARCH_ENDS];

	bfs_ends(tl, f, t, a, c->pn, lid, dst, owner, ends, c->rank + 1u);
	return path_to(tl, a, c->end);
}

int dqr_vlayers_search_lid(struct dqr_vlayers *tl,
			   const struct dqr_fabric *f, struct dqr_lfts *t,
			   uint32_t a, uint32_t lid, uint32_t dst,
			   uint32_t owner, struct dqr_vlayers_undo *u)
{
	struct cand c[DQR_TORUS_SEARCH_HOPS * DQR_TORUS_SEARCH_ENDS];
	uint32_t node = f->switches[a], ends[DQR_TORUS_SEARCH_ENDS];
	unsigned pn, e, k, n = 0, hops = 0;
	uint32_t len;
	int r = 0;

	/* a and what routes through it: cut off with the route */
	dqr_vlayers_upstream(tl, f, t, lid, dst, a, tl->cut,
			     dqr_vlayers_next_gen(tl->cut, &tl->cgen,
						  tl->n.num_switches));
	dqr_vlayers_next_gen(tl->arr, &tl->agen, tl->n.num_switches);
	dqr_for_each_linked_port(f, node, pn) {
		if (dqr_peer_switch(f, dqr_port_index(f, node, pn)) ==
		    DQR_NONE)
			continue;
		if (hops++ == DQR_TORUS_SEARCH_HOPS)
			break;
		k = bfs_ends(tl, f, t, a, pn, lid, dst, owner, ends,
			     DQR_TORUS_SEARCH_ENDS);
		for (e = 0; e < k; e++)
			c[n++] = (struct cand){ path_to(tl, a, ends[e]),
						ends[e], (uint8_t)pn,
						(uint8_t)e };
	}
	qsort(c, n, sizeof(*c), cand_cmp);
	/* tables change only when a path is kept: the BFS repeats itself */
	for (k = 0; k < n; k++) {
		len = cand_path(tl, f, t, a, &c[k], lid, dst, owner);
		dqr_vlayers_undo_begin(tl, u);
		r = dqr_vlayers_undo_end(tl, t, u,
					 dqr_vlayers_lay_path(tl, f, t, len,
							      c[k].end, lid,
							      dst, owner, u));
		if (r)
			return r;
	}
	/* none fits the routes' own layers: each, shortest first, moved */
	for (k = 0; !r && tl->max_layers && k < n; k++) {
		len = cand_path(tl, f, t, a, &c[k], lid, dst, owner);
		r = dqr_vlayers_move_path(tl, f, t, len, c[k].end, lid, dst,
					  owner, u);
	}
	return r;
}
