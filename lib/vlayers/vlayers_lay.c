/*
 * vlayers_lay.c - a path laid over one DLID's tree on a torus's virtual
 * layers, with every dependency the tree gains added to the layered list
 * in the layers of the routes that take it, and taken back when it does
 * not fit: what the mesh plug-in (vlayers_repair.c) and the
 * topology-agnostic search (vlayers_search.c) both lay.
 */
#include <stdlib.h>
#include <string.h>

#include "deps/dyn_order.h"
#include "vlayers/vlayers-internal.h"
#include "util/check.h"
#include "util/mem.h"

static int add_dep(void *arg, uint32_t a, uint32_t b)
{
	struct dqr_vlayers *tl = arg;
	int r;

	if (dqr_dyn_has_edge(tl->cl, a, b))
		return 0;
	r = dqr_dyn_add(tl->cl, a, b);
	if (r < 0)
		return r;
	tl->st.turns++;
	tl->st.reorders += r == DQR_DYN_REORDERED;
	return 0;
}

void dqr_vlayers_undo_begin(struct dqr_vlayers *tl,
			    struct dqr_vlayers_undo *u)
{
	u->n = 0;
	u->sl_n = 0;
	u->mark = dqr_dyn_mark(tl->cl);
	u->list = dqr_dyn_fingerprint(tl->cl);
	u->st = tl->st;
	u->num_layers = tl->num_layers;
}

/* The SLs u moved put back, latest first. */
static void undo_sls(struct dqr_vlayers *tl, struct dqr_vlayers_undo *u)
{
	while (u->sl_n--)
		dqr_vlayers_put_sl(tl, u->sl[u->sl_n].s, u->sl[u->sl_n].d,
				   u->sl[u->sl_n].old);	/* no grow: known */
	u->sl_n = 0;
	tl->num_layers = u->num_layers;
}

int dqr_vlayers_undo_end(struct dqr_vlayers *tl, struct dqr_lfts *t,
			 struct dqr_vlayers_undo *u, int r)
{
	if (r > 0) {
		dqr_dyn_commit(tl->cl);
		tl->st.changed += u->n;
		u->sl_n = 0;
		return 1;
	}
	dqr_dyn_rollback(tl->cl, u->mark);
	/* every change of the list since the begin went through its log */
	DQR_CHECK(dqr_dyn_same(tl->cl, &u->list));
	undo_sls(tl, u);
	tl->st = u->st;
	while (u->n--)
		dqr_lft_set(t, u->e[u->n].sw, u->e[u->n].lid,
			    u->e[u->n].old);
	u->n = 0;
	return r;
}

static int undo_write(struct dqr_vlayers_undo *u, struct dqr_lfts *t,
		      uint32_t sw, uint32_t lid, uint8_t port)
{
	if (dqr_grow((void **)&u->e, &u->cap, u->n + 1, sizeof(*u->e), 64))
		return -1;
	u->e[u->n++] = (struct dqr_vlayers_undo_entry){ sw, lid,
		dqr_lft_get(t, sw, lid) };
	dqr_lft_set(t, sw, lid, port);
	return 0;
}

/* A new visit of one DLID's tree: every switch unseen. */
static void visit_begin(struct dqr_vlayers *tl)
{
	if (++tl->gen)
		return;
	memset(tl->seen, 0, sizeof(uint32_t) * (tl->n.num_switches + 1));
	tl->gen = 1;
}

uint8_t dqr_vlayers_upstream(struct dqr_vlayers *tl,
			     const struct dqr_fabric *f,
			     const struct dqr_lfts *t, uint32_t lid,
			     uint32_t dst, uint32_t w, uint32_t *mark,
			     uint32_t g)
{
	uint32_t top = 0, y, p, q, z, node;
	unsigned pn;
	uint8_t m = 0;

	mark[w] = g;
	tl->stack[top++] = w;
	while (top) {
		y = tl->stack[--top];
		m |= (uint8_t)(1u << dqr_vlayers_sl(tl, y, dst));
		node = f->switches[y];
		dqr_for_each_linked_port(f, node, pn) {
			p = dqr_port_index(f, node, pn);
			q = dqr_peer_port(f, p);
			z = dqr_peer_switch(f, p);
			if (z == DQR_NONE || mark[z] == g ||
			    dqr_lft_get(t, z, lid) != f->ports[q].num)
				continue;
			mark[z] = g;
			tl->stack[top++] = z;
		}
	}
	return m;
}

/*
 * The layers of the routes through switch w towards lid (owner switch
 * dst) in t, marking them seen.  The tree's subtrees are disjoint, so
 * each switch is visited once per DLID.
 */
static uint8_t subtree_layers(struct dqr_vlayers *tl,
			      const struct dqr_fabric *f,
			      const struct dqr_lfts *t, uint32_t lid,
			      uint32_t dst, uint32_t w)
{
	return dqr_vlayers_upstream(tl, f, t, lid, dst, w, tl->seen, tl->gen);
}

/* Adds (c, l) -> (nc, l) for every layer l of m: 0, or add_dep's < 0. */
static int add_layers(struct dqr_vlayers *tl, uint8_t m, uint32_t c,
		      uint32_t nc)
{
	uint32_t P = tl->num_ports;
	unsigned l;
	int r;

	for (l = 0; l < tl->num_layers; l++)
		if (m & (1u << l)) {
			r = add_dep(tl, l * P + c, l * P + nc);
			if (r)
				return r;
		}
	return 0;
}

/*
 * The dependencies of patched switch x (its new channel c towards lid):
 * from every switch that forwards to it, in the layers of that switch's
 * subtree (prev's are prev_m), from its end ports in its own layer, and
 * into nc, the channel after c, in all of them.  *m: x's layers.
 */
static int patched_deps(struct dqr_vlayers *tl,
			const struct dqr_fabric *f, const struct dqr_lfts *t,
			uint32_t lid, uint32_t dst, uint32_t owner, uint32_t x,
			uint32_t c, uint32_t nc, uint32_t prev, uint8_t prev_m,
			uint8_t *m)
{
	uint32_t node = f->switches[x], p, q, w, P = tl->num_ports;
	uint8_t own = dqr_vlayers_sl(tl, x, dst), wm;
	unsigned pn;
	int r;

	*m = (uint8_t)(1u << own);
	dqr_for_each_linked_port(f, node, pn) {
		p = dqr_port_index(f, node, pn);
		q = dqr_peer_port(f, p);
		w = dqr_peer_switch(f, p);
		if (w == DQR_NONE) {
			/* an end port injects into c in x's own layer */
			if (q == owner)
				continue;
			r = add_dep(tl, own * P + q, own * P + c);
			if (r)
				return r;
			continue;
		}
		if (dqr_lft_get(t, w, lid) != f->ports[q].num)
			continue;
		if (w == prev)
			wm = prev_m;
		else if (tl->seen[w] != tl->gen)
			wm = subtree_layers(tl, f, t, lid, dst, w);
		else
			continue;	/* a patched switch: a loop */
		r = add_layers(tl, wm, q, c);
		if (r)
			return r;
		*m |= wm;
	}
	return nc == DQR_NONE ? 0 : add_layers(tl, *m, c, nc);
}

/*
 * Follows lid from switch y, where the patched routes (layers m) rejoin
 * the tree on y's channel c, to its owner, adding their dependencies on
 * the way.  1 delivered, 0 not (a dead port, a loop back into what the
 * visit saw, a wrong end), or add_dep's < 0.
 */
static int rejoin_deps(struct dqr_vlayers *tl,
		       const struct dqr_fabric *f, const struct dqr_lfts *t,
		       uint32_t lid, uint32_t dst, uint32_t owner, uint32_t y,
		       uint32_t c, uint8_t m)
{
	uint32_t z, nc, steps;
	int r;

	for (steps = 0; steps <= tl->n.num_switches; steps++) {
		if (y == dst)
			return dqr_peer_port(f, c) == owner;
		z = dqr_peer_switch(f, c);
		if (z == DQR_NONE || tl->seen[z] == tl->gen)
			return 0;
		if (z == dst && !f->ports[owner].num)
			return dqr_lft_get(t, z, lid) == 0;
		dqr_vlayers_hop(f, t, z, lid, &nc);
		if (nc == DQR_NONE)
			return 0;
		r = add_layers(tl, m, c, nc);
		if (r)
			return r;
		y = z;
		c = nc;
	}
	return 0;
}

int dqr_vlayers_lay_route(struct dqr_vlayers *tl,
			  const struct dqr_fabric *f, const struct dqr_lfts *t,
			  uint32_t y, uint32_t lid, uint32_t dst,
			  uint32_t owner, unsigned l)
{
	uint32_t node = f->switches[y], P = tl->num_ports, c, nc, e, z, nz;
	uint32_t steps;
	unsigned pn;
	int r;

	z = dqr_vlayers_hop(f, t, y, lid, &c);
	if (c == DQR_NONE)
		return 0;	/* delivered at y, or a dead entry */
	dqr_for_each_end_port(f, node, pn) {
		e = dqr_peer_port(f, dqr_port_index(f, node, pn));
		if (e == owner)
			continue;
		r = add_dep(tl, l * P + e, l * P + c);
		if (r)
			return r;
	}
	/* a wrong end, a loop: the walk stops, what it added stays */
	for (steps = 0; z != DQR_NONE && steps < tl->n.num_switches;
	     steps++) {
		if (z == dst && !f->ports[owner].num)
			break;	/* delivered on dst's port 0 */
		nz = dqr_vlayers_hop(f, t, z, lid, &nc);
		if (nc == DQR_NONE)
			break;
		r = add_dep(tl, l * P + c, l * P + nc);
		if (r)
			return r;
		if (z == dst)
			break;	/* onto the owner's cable */
		c = nc;
		z = nz;
	}
	return 0;
}

/*
 * The dependencies the tree gains are those of the patched switches and,
 * downstream of where the path rejoins the tree, those of the layers the
 * path brings.  Every other dependency of the tree is one it had, which
 * the list holds: the cost is the path's subtree and the rest of its
 * route, not the tree.
 */
int dqr_vlayers_lay_path(struct dqr_vlayers *tl,
			 const struct dqr_fabric *f, struct dqr_lfts *t,
			 uint32_t n, uint32_t rejoin, uint32_t lid,
			 uint32_t dst, uint32_t owner,
			 struct dqr_vlayers_undo *u)
{
	uint32_t *sw = tl->path_sw, *c = tl->path_ch, nc, prev, i;
	uint8_t m = 0;
	int r;

	if (!n)
		return 0;
	visit_begin(tl);
	for (i = 0; i < n; i++) {
		if (undo_write(u, t, sw[i], lid, tl->path_port[i]))
			return -1;
		c[i] = dqr_port_index(f, f->switches[sw[i]],
				      tl->path_port[i]);
		tl->seen[sw[i]] = tl->gen;
	}
	/* the channel after the path, at the switch where it rejoins */
	dqr_vlayers_hop(f, t, rejoin, lid, &nc);
	if (nc == DQR_NONE && !(rejoin == dst && !f->ports[owner].num &&
				dqr_lft_get(t, dst, lid) == 0))
		return 0;
	for (prev = DQR_NONE, i = 0; i < n; i++) {
		r = patched_deps(tl, f, t, lid, dst, owner, sw[i], c[i],
				 i + 1 < n ? c[i + 1] : nc, prev, m, &m);
		if (r)
			return r == DQR_DYN_ENOMEM ? -1 : 0;
		prev = sw[i];
	}
	r = nc == DQR_NONE ? 1 : rejoin_deps(tl, f, t, lid, dst, owner,
					     rejoin, nc, m);
	if (r < 0)
		return r == DQR_DYN_ENOMEM ? -1 : 0;
	return r;
}

