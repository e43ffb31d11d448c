/*
 * torus_repair.c - DQR's repair of link faults on a torus's virtual
 * layers: the mesh plug-in's local path in every layer (torus_layers.h
 * says how and why).
 */
#include <stdlib.h>
#include <string.h>

#include "deps/dyn_order.h"
#include "repair/local_path.h"
#include "repair/torus_layers-internal.h"

/* ------------------------------------------------------------ repair */

static int add_dep(void *arg, uint32_t a, uint32_t b)
{
	struct dqr_torus_layers *tl = arg;
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

/* Entries written by an attempt, to take back when it does not fit. */
struct undo {
	struct undo_entry {
		uint32_t sw, lid;
		uint8_t old;
	} *e;
	uint32_t n, cap;
	size_t mark;
	struct dqr_torus_stats st;
};

static void undo_begin(struct dqr_torus_layers *tl, struct undo *u)
{
	u->n = 0;
	u->mark = dqr_dyn_mark(tl->cl);
	u->st = tl->st;
}

/* 1 kept, 0 taken back; -1 (no memory) passes through, taken back. */
static int undo_end(struct dqr_torus_layers *tl, struct dqr_lfts *t,
		    struct undo *u, int r)
{
	if (r > 0) {
		dqr_dyn_commit(tl->cl);
		tl->st.changed += u->n;
		return 1;
	}
	dqr_dyn_rollback(tl->cl, u->mark);
	tl->st = u->st;
	while (u->n--)
		dqr_lft_set(t, u->e[u->n].sw, u->e[u->n].lid,
			    u->e[u->n].old);
	u->n = 0;
	return r;
}

static int undo_write(struct undo *u, struct dqr_lfts *t, uint32_t sw,
		      uint32_t lid, uint8_t port)
{
	struct undo_entry *ne;

	if (u->n == u->cap) {
		u->cap = u->cap ? 2 * u->cap : 64;
		ne = realloc(u->e, sizeof(*ne) * u->cap);
		if (!ne)
			return -1;
		u->e = ne;
	}
	u->e[u->n++] = (struct undo_entry){ sw, lid, dqr_lft_get(t, sw,
								  lid) };
	dqr_lft_set(t, sw, lid, port);
	return 0;
}

/* A new visit of one DLID's tree: every switch unseen. */
static void visit_begin(struct dqr_torus_layers *tl)
{
	if (++tl->gen)
		return;
	memset(tl->seen, 0, sizeof(uint32_t) * (tl->n.num_switches + 1));
	tl->gen = 1;
}

/*
 * The layers of the routes through switch w towards lid (owner switch
 * dst) in t: w's and those of every switch upstream of it, which it marks
 * seen.  The tree's subtrees are disjoint, so each switch is visited once
 * per DLID: O(subtree x degree).
 */
static uint8_t subtree_layers(struct dqr_torus_layers *tl,
			      const struct dqr_fabric *f,
			      const struct dqr_lfts *t, uint32_t lid,
			      uint32_t dst, uint32_t w)
{
	uint32_t top = 0, y, p, q, z, node;
	unsigned pn;
	uint8_t m = 0;

	tl->seen[w] = tl->gen;
	tl->stack[top++] = w;
	while (top) {
		y = tl->stack[--top];
		m |= (uint8_t)(1u << dqr_torus_layers_sl(tl, y, dst));
		node = f->switches[y];
		dqr_for_each_linked_port(f, node, pn) {
			p = dqr_port_index(f, node, pn);
			q = dqr_peer_port(f, p);
			z = dqr_peer_switch(f, p);
			if (z == DQR_NONE || tl->seen[z] == tl->gen ||
			    dqr_lft_get(t, z, lid) != f->ports[q].num)
				continue;
			tl->seen[z] = tl->gen;
			tl->stack[top++] = z;
		}
	}
	return m;
}

/* Adds (c, l) -> (nc, l) for every layer l of m: 0, or add_dep's < 0. */
static int add_layers(struct dqr_torus_layers *tl, uint8_t m, uint32_t c,
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
static int patched_deps(struct dqr_torus_layers *tl,
			const struct dqr_fabric *f, const struct dqr_lfts *t,
			uint32_t lid, uint32_t dst, uint32_t owner, uint32_t x,
			uint32_t c, uint32_t nc, uint32_t prev, uint8_t prev_m,
			uint8_t *m)
{
	uint32_t node = f->switches[x], p, q, w, P = tl->num_ports;
	uint8_t own = dqr_torus_layers_sl(tl, x, dst), wm;
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
static int rejoin_deps(struct dqr_torus_layers *tl,
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
		dqr_torus_hop(f, t, z, lid, &nc);
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

/*
 * Lays lp over lid's tree and adds the dependencies the tree gains: those
 * of the patched switches and, downstream of where the patch rejoins the
 * tree, those of the layers the patch brings.  Every other dependency of
 * the tree is one it had, which the list holds: the cost is the patch's
 * subtree and the rest of its route, not the tree.  1 laid, 0 it does not
 * fit, -1 no memory (u takes it back).
 */
static int lay_lid(struct dqr_torus_layers *tl, const struct dqr_fabric *f,
		   struct dqr_lfts *t, const struct dqr_local_path *lp,
		   uint32_t lid, uint32_t dst, uint32_t owner, struct undo *u)
{
	uint32_t sw[DQR_LOCAL_PATH_LEN], c[DQR_LOCAL_PATH_LEN], nc, prev;
	uint8_t port[DQR_LOCAL_PATH_LEN], m = 0;
	int n, i, r;

	n = dqr_local_path_patch(lp, f, t, lid, sw, port);
	if (n <= 0)
		return 0;
	visit_begin(tl);
	for (i = 0; i < n; i++) {
		if (undo_write(u, t, sw[i], lid, port[i]))
			return -1;
		c[i] = dqr_port_index(f, f->switches[sw[i]], port[i]);
		tl->seen[sw[i]] = tl->gen;
	}
	/* the channel after the patch, at the switch where it rejoins */
	dqr_torus_hop(f, t, lp->sw[n], lid, &nc);
	if (nc == DQR_NONE && !(lp->sw[n] == dst && !f->ports[owner].num &&
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
					     lp->sw[n], nc, m);
	if (r < 0)
		return r == DQR_DYN_ENOMEM ? -1 : 0;
	return r;
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
static int bypass_lid(struct dqr_torus_layers *tl,
		      const struct dqr_fabric *f, struct dqr_lfts *t,
		      uint32_t a, unsigned k, int k_minus, uint32_t lid,
		      uint32_t dst, uint32_t owner, struct undo *u)
{
	struct dqr_local_path lp;
	unsigned j, pass, level;
	int pref, r;

	for (level = 0; level < 2; level++)
		for (j = 0; j < tl->n.ndims; j++) {
			pref = dqr_torus_ecube_minus(tl, j, a, dst);
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
				undo_begin(tl, u);
				r = undo_end(tl, t, u, lay_lid(tl, f, t, &lp,
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
static int centre_minus(const struct dqr_torus_layers *tl, uint32_t a,
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

/* lid_over(), for the DLIDs of group g only. */
static int lid_dir(const struct dqr_torus_layers *tl, const struct dqr_lfts *t,
		   const struct link_pass *lk, uint32_t lid, uint32_t dst,
		   uint8_t g)
{
	int dir = lid_over(t, lk, lid);

	if (dir < 0 || (dqr_torus_layers_sl(tl, dir ? lk->b : lk->a, dst) &
			lk->high) != g)
		return -1;
	return dir;
}

/*
 * The group's DLIDs, both directions, on the side (j, downwards if
 * minus): 1 all laid, 0 not (all taken back), -1 no memory.
 */
static int uniform_side(struct dqr_torus_layers *tl,
			const struct dqr_fabric *f, struct dqr_lfts *t,
			const struct link_pass *lk, unsigned k, unsigned j,
			int minus, uint8_t g, struct undo *u)
{
	struct dqr_local_path lp[2];
	uint32_t lid, dst, owner;
	int r = 1, dir;

	if (!dqr_local_path_aside(&tl->n, f, lk->a, k, 0, j, minus, &lp[0]) ||
	    !dqr_local_path_aside(&tl->n, f, lk->b, k, 1, j, minus, &lp[1]))
		return 0;
	undo_begin(tl, u);
	for (lid = 1; r == 1 && lid < t->lid_count; lid++) {
		dst = dqr_torus_owner_switch(f, lid, &owner);
		dir = dst == DQR_NONE ? -1 : lid_dir(tl, t, lk, lid, dst, g);
		if (dir >= 0)
			r = lay_lid(tl, f, t, &lp[dir], lid, dst, owner, u);
	}
	return undo_end(tl, t, u, r);
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
 * own.  1 all laid, 0 not, -1 no memory.
 */
static int bypass(struct dqr_torus_layers *tl, const struct dqr_fabric *f,
		  struct dqr_lfts *t, uint32_t a, uint32_t b, unsigned k)
{
	struct link_pass lk = { a, b, tl->n.port[dqr_grid_slot(a, k, 0)],
				tl->n.port[dqr_grid_slot(b, k, 1)], 0 };
	struct undo u = { 0 };
	uint32_t lid, dst, owner;
	unsigned j, pass, groups = 0, g;
	int all = 1, r = 0, dir;

	for (j = k + 1; j < tl->n.ndims; j++)
		lk.high |= (uint8_t)tl->ring_bit[j];
	for (lid = 1; lid < t->lid_count; lid++) {
		dst = dqr_torus_owner_switch(f, lid, &owner);
		dir = dst == DQR_NONE ? -1 : lid_over(t, &lk, lid);
		if (dir >= 0)
			groups |= 1u << (dqr_torus_layers_sl(tl, dir ? b : a,
							     dst) & lk.high);
	}
	for (g = 0; r >= 0 && g < DQR_TORUS_MAX_LAYERS; g++) {
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
			dst = dqr_torus_owner_switch(f, lid, &owner);
			dir = dst == DQR_NONE ? -1 :
			      lid_dir(tl, t, &lk, lid, dst, (uint8_t)g);
			if (dir < 0)
				continue;
			r = bypass_lid(tl, f, t, dir ? b : a, k, dir, lid, dst,
				       owner, &u);
			all &= r > 0;
			r = r < 0 ? -1 : 0;
			if (r < 0)
				break;
		}
		if (r < 0)
			break;
		r = 0;
	}
	free(u.e);
	return r < 0 ? -1 : all;
}

/* Retires, in every layer, the channels of the links f lacks. */
static int retire_dead(struct dqr_torus_layers *tl,
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
	struct dqr_torus_layers *tl;
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
	x->tl->st.links_bypassed += r;
	x->all &= r;
	return 0;
}

int dqr_torus_layers_repair(struct dqr_torus_layers *tl,
			    const struct dqr_fabric *f, struct dqr_lfts *t,
			    struct dqr_torus_stats *st)
{
	struct torus_run x = { tl, f, t, 1 };

	tl->st = (struct dqr_torus_stats){ 0 };
	if (!tl->cl || f->num_switches != tl->n.num_switches ||
	    retire_dead(tl, f) ||
	    dqr_local_path_each_dead(&tl->n, f, t, torus_link, &x))
		return -1;
	*st = tl->st;
	return x.all ? 0 : 1;
}

