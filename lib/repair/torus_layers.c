/*
 * torus_layers.c - e-cube on virtual layers of a torus, repaired with the
 * mesh plug-in in every layer; see torus_layers.h.
 */
#include <stdlib.h>
#include <string.h>

#include "deps/dyn_order.h"
#include "deps/edge_list.h"
#include "repair/local_path.h"
#include "repair/torus_layers.h"
#include "util/errmsg.h"
#include "util/sort.h"

struct dqr_torus_layers {
	struct dqr_grid_nbrs n;
	unsigned num_layers;
	unsigned ring_bit[DQR_GEN_MAX_DIMS];	/* 0: no ring */
	/* a ring of even size: its ties go downwards (by the tables) */
	uint8_t tie_minus[DQR_GEN_MAX_DIMS];
	uint32_t num_ports;			/* P of l * P + c */
	struct dqr_dyn_order *cl;
	/* one DLID's tree: hops to the owner, next switch, layer masks */
	uint32_t *depth, *next, *order, *stack;
	uint8_t *mask;
	struct dqr_torus_stats st;
};

/* ------------------------------------------------------------ layers */

/* E-cube's direction from switch s to d in dimension k: 1 downwards, 0
 * upwards, -1 none (same coordinate). */
static int ecube_minus(const struct dqr_torus_layers *tl, unsigned k,
		       uint32_t s, uint32_t d)
{
	unsigned n = tl->n.dims[k], cs = dqr_grid_coord(&tl->n, s, k);
	unsigned cd = dqr_grid_coord(&tl->n, d, k), plus;

	if (cs == cd)
		return -1;
	if (!tl->n.wrap[k])
		return cd < cs;
	plus = (cd + n - cs) % n;
	return 2 * plus == n ? tl->tie_minus[k] : 2 * plus > n;
}

uint8_t dqr_torus_layers_sl(const struct dqr_torus_layers *tl,
			    uint32_t src, uint32_t dst)
{
	unsigned k, s, d;
	uint8_t sl = 0;
	int minus;

	for (k = 0; k < tl->n.ndims; k++) {
		if (!tl->ring_bit[k])
			continue;
		minus = ecube_minus(tl, k, src, dst);
		s = dqr_grid_coord(&tl->n, src, k);
		d = dqr_grid_coord(&tl->n, dst, k);
		/* the route wraps: it crosses cut A */
		if (minus >= 0 && (minus ? s < d : s > d))
			sl |= (uint8_t)tl->ring_bit[k];
	}
	return sl;
}

unsigned dqr_torus_layers_count(const struct dqr_torus_layers *tl)
{
	return tl->num_layers;
}

struct dqr_dyn_order *dqr_torus_layers_list(struct dqr_torus_layers *tl)
{
	return tl->cl;
}

/* ------------------------------------------------------------ one tree */

/*
 * The switch sw's entry for lid leads to, or DQR_NONE; *ch the channel
 * (sw's port there, cabled), or DQR_NONE.
 */
static uint32_t hop(const struct dqr_fabric *f, const struct dqr_lfts *t,
		    uint32_t sw, uint32_t lid, uint32_t *ch)
{
	uint8_t p = dqr_lft_get(t, sw, lid);

	*ch = DQR_NONE;
	if (p == 0 || p > f->nodes[f->switches[sw]].num_ports)
		return DQR_NONE;
	*ch = dqr_port_index(f, f->switches[sw], p);
	if (dqr_peer_port(f, *ch) == DQR_NONE) {
		*ch = DQR_NONE;
		return DQR_NONE;
	}
	return dqr_peer_switch(f, *ch);
}

/*
 * lid's tree in t: next[] and depth[] (hops to the owner switch, or
 * DQR_NONE when the route fails or loops), order[] the reaching switches
 * deepest first; mask[] the layers of the routes through each.  Returns
 * how many switches reach the owner.
 */
static uint32_t tree(struct dqr_torus_layers *tl, const struct dqr_fabric *f,
		     const struct dqr_lfts *t, uint32_t lid, uint32_t dst)
{
	uint32_t sw, s, d, ch, top, num = tl->n.num_switches, count = 0;
	uint32_t i, owner = dqr_lid_owner(f, lid);

	for (sw = 0; sw < num; sw++) {
		tl->depth[sw] = DQR_NONE - 1;	/* not looked at */
		tl->next[sw] = hop(f, t, sw, lid, &ch);
		tl->mask[sw] = 0;
	}
	/* delivered at dst: its own LID on port 0, a CA's on its cable */
	hop(f, t, dst, lid, &ch);
	tl->depth[dst] = (f->ports[owner].num ?
			  ch != DQR_NONE && dqr_peer_port(f, ch) == owner :
			  dqr_lft_get(t, dst, lid) == 0) ? 0 : DQR_NONE;
	for (sw = 0; sw < num; sw++) {
		/* follow the route until a known depth, then unwind */
		top = 0;
		for (s = sw; tl->depth[s] == DQR_NONE - 1;
		     s = tl->next[s]) {
			tl->depth[s] = DQR_NONE - 2;	/* on the stack */
			tl->stack[top++] = s;
			if (tl->next[s] == DQR_NONE) {
				s = DQR_NONE;
				break;
			}
		}
		d = s == DQR_NONE || tl->depth[s] >= DQR_NONE - 2 ?
		    DQR_NONE : tl->depth[s];
		while (top--) {
			s = tl->stack[top];
			d = d == DQR_NONE ? DQR_NONE : d + 1;
			tl->depth[s] = d;
		}
	}
	/* deepest first, by counting (a depth is below num) */
	memset(tl->stack, 0, sizeof(uint32_t) * (num + 1));
	for (sw = 0; sw < num; sw++)
		if (tl->depth[sw] != DQR_NONE) {
			tl->stack[num - 1 - tl->depth[sw]]++;
			count++;
		}
	for (d = 0, i = 0; i <= num; i++) {
		s = tl->stack[i];
		tl->stack[i] = d;
		d += s;
	}
	for (sw = 0; sw < num; sw++)
		if (tl->depth[sw] != DQR_NONE)
			tl->order[tl->stack[num - 1 - tl->depth[sw]]++] = sw;
	for (i = 0; i < count; i++) {
		sw = tl->order[i];
		tl->mask[sw] |= (uint8_t)(1u << dqr_torus_layers_sl(tl, sw,
								    dst));
		if (sw != dst)
			tl->mask[tl->next[sw]] |= tl->mask[sw];
	}
	return count;
}

/* The switch that owns lid (its own LID, or a CA's), or DQR_NONE. */
static uint32_t owner_switch(const struct dqr_fabric *f, uint32_t lid,
			     uint32_t *owner)
{
	uint32_t node, peer;

	*owner = dqr_lid_owner(f, lid);
	if (*owner == DQR_NONE)
		return DQR_NONE;
	node = f->ports[*owner].node;
	if (dqr_is_switch(f, node))
		return f->nodes[node].sw_index;
	peer = dqr_peer_node(f, *owner);
	return peer == DQR_NONE || !dqr_is_switch(f, peer) ? DQR_NONE :
	       f->nodes[peer].sw_index;
}

/*
 * Calls add(arg, a, b) for every (layer, channel) dependency of lid's
 * tree, as computed by tree(): l * P + c.  Stops at the first non-zero.
 */
static int tree_deps(struct dqr_torus_layers *tl, const struct dqr_fabric *f,
		     const struct dqr_lfts *t, uint32_t lid, uint32_t dst,
		     uint32_t owner, uint32_t count,
		     int (*add)(void *arg, uint32_t a, uint32_t b), void *arg)
{
	uint32_t i, sw, c, nc, e, P = tl->num_ports;
	unsigned l, pn;
	uint8_t own;
	int r;

	for (i = 0; i < count; i++) {
		sw = tl->order[i];
		if (sw == dst && dqr_lft_get(t, sw, lid) == 0)
			continue;
		hop(f, t, sw, lid, &c);
		if (c == DQR_NONE)
			continue;
		/* the channel after c: at the next switch, or none */
		nc = DQR_NONE;
		if (sw != dst)
			hop(f, t, tl->next[sw], lid, &nc);
		for (l = 0; nc != DQR_NONE && l < tl->num_layers; l++)
			if (tl->mask[sw] & (1u << l)) {
				r = add(arg, l * P + c, l * P + nc);
				if (r)
					return r;
			}
		own = dqr_torus_layers_sl(tl, sw, dst);
		dqr_for_each_end_port(f, f->switches[sw], pn) {
			e = dqr_peer_port(f, dqr_port_index(f,
							    f->switches[sw],
							    pn));
			if (e == owner)
				continue;
			r = add(arg, own * P + e, own * P + c);
			if (r)
				return r;
		}
	}
	return 0;
}

/* ------------------------------------------------------------ build */

/* Dependencies as keys a << 32 | b, sorted without repeats when done. */
struct edges {
	uint64_t *key;
	uint64_t n, cap;
};

static int push_edge(void *arg, uint32_t a, uint32_t b)
{
	struct edges *x = arg;
	uint64_t *nk;

	if (x->n == x->cap) {
		x->cap = x->cap ? 2 * x->cap : 4096;
		nk = realloc(x->key, sizeof(uint64_t) * x->cap);
		if (!nk)
			return -1;
		x->key = nk;
	}
	x->key[x->n++] = (uint64_t)a << 32 | b;
	return 0;
}

static uint32_t pick_first(void *ctx, uint32_t r)
{
	(void)ctx;
	(void)r;
	return 0;
}

/*
 * Pairs of lid's tree in the component of dst (comp[]): every switch and
 * its end ports but lid's owner; those of switches that do not reach dst
 * are unreachable.
 */
static void count_pairs(const struct dqr_torus_layers *tl,
			const struct dqr_fabric *f, const uint32_t *comp,
			uint32_t dst, uint32_t owner,
			struct dqr_torus_verdict *v)
{
	uint32_t sw, ends;
	unsigned pn;

	for (sw = 0; sw < f->num_switches; sw++) {
		if (comp[sw] != comp[dst])
			continue;
		ends = 1;
		dqr_for_each_end_port(f, f->switches[sw], pn)
			ends += dqr_peer_port(f, dqr_port_index(f,
					f->switches[sw], pn)) != owner;
		v->pairs += ends - (sw == dst && !f->ports[owner].num);
		if (tl->depth[sw] == DQR_NONE)
			v->unreachable += ends;
	}
}

/*
 * Every dependency of t, sorted without repeats; with v, the pairs of
 * every tree are counted on the way (components comp[]).
 */
static int collect(struct dqr_torus_layers *tl, const struct dqr_fabric *f,
		   const struct dqr_lfts *t, struct edges *x,
		   const uint32_t *comp, struct dqr_torus_verdict *v)
{
	uint32_t lid, dst, owner, count;
	uint64_t i, k = 0;

	memset(x, 0, sizeof(*x));
	for (lid = 1; lid < t->lid_count; lid++) {
		dst = owner_switch(f, lid, &owner);
		if (dst == DQR_NONE || dst >= tl->n.num_switches)
			continue;
		count = tree(tl, f, t, lid, dst);
		if (v)
			count_pairs(tl, f, comp, dst, owner, v);
		if (tree_deps(tl, f, t, lid, dst, owner, count, push_edge,
			      x))
			return -1;
	}
	if (x->n)
		qsort(x->key, x->n, sizeof(uint64_t), dqr_cmp_u64);
	for (i = 0; i < x->n; i++)
		if (!k || x->key[i] != x->key[k - 1])
			x->key[k++] = x->key[i];
	x->n = k;
	return 0;
}

/*
 * The layered graph of x over L * P vertices and its channel list: 0,
 * 1 when some layer is cyclic (*layer set), -1 out of memory.
 */
static int layered_list(struct dqr_torus_layers *tl, const struct edges *x,
			struct dqr_cdg **g, struct dqr_channel_list *cl,
			unsigned *layer)
{
	uint32_t v, n = tl->num_layers * tl->num_ports, *e;
	uint64_t i;
	int r;

	memset(cl, 0, sizeof(*cl));
	e = x->n < UINT32_MAX / 2 ? malloc(sizeof(uint32_t) * 2 * x->n + 1) :
	    NULL;
	for (i = 0; e && i < x->n; i++) {
		e[2 * i] = (uint32_t)(x->key[i] >> 32);
		e[2 * i + 1] = (uint32_t)x->key[i];
	}
	*g = e ? dqr_cdg_of_edges(n, e, (uint32_t)x->n) : NULL;
	free(e);
	if (!*g)
		return -1;
	r = dqr_topo_order(*g, pick_first, NULL, cl);
	if (r != 1)
		return r;
	for (v = 0; v < n && cl->pos[v] != DQR_NONE; v++)
		;
	*layer = v / tl->num_ports;
	return 1;
}

/*
 * Which way the tables take a ring of even size when both are equally
 * short (lib's e-cube: upwards), by the majority of every tie's first hop
 * in t: the SLs follow it, and a repair that moved a few of them leaves
 * the SLs those of the base routing.
 */
static void ties_of(struct dqr_torus_layers *tl, const struct dqr_fabric *f,
		    const struct dqr_lfts *t)
{
	const struct dqr_grid_nbrs *n = &tl->n;
	uint32_t s, d, i;
	long vote;
	unsigned k;
	uint16_t lid;
	uint8_t p;

	for (k = 0; k < n->ndims; k++) {
		if (!tl->ring_bit[k] || n->dims[k] % 2)
			continue;
		for (vote = 0, s = 0; s < n->num_switches; s++) {
			for (d = s, i = 0; d != DQR_NONE &&
			     i < n->dims[k] / 2; i++)
				d = n->sw[dqr_grid_slot(d, k, 0)];
			if (d == DQR_NONE)
				continue;
			lid = f->ports[dqr_port_index(f, f->switches[d],
						      0)].base_lid;
			p = dqr_lft_get(t, s, lid);
			vote += p == n->port[dqr_grid_slot(s, k, 1)];
			vote -= p == n->port[dqr_grid_slot(s, k, 0)];
		}
		tl->tie_minus[k] = vote > 0;
	}
}

static int alloc_tree(struct dqr_torus_layers *tl, uint32_t num)
{
	tl->depth = malloc(sizeof(uint32_t) * (num + 1));
	tl->next = malloc(sizeof(uint32_t) * (num + 1));
	tl->order = malloc(sizeof(uint32_t) * (num + 1));
	tl->stack = malloc(sizeof(uint32_t) * (num + 1));
	tl->mask = malloc(num + 1);
	return tl->depth && tl->next && tl->order && tl->stack && tl->mask ?
	       0 : -1;
}

/*
 * The layers of torus g on f without ties or list: NULL with why in err
 * (no ring of 3 switches or more, out of memory).
 */
static struct dqr_torus_layers *layers_alloc(const struct dqr_fabric *f,
					     const struct dqr_grid *g,
					     char *err, size_t errlen)
{
	struct dqr_torus_layers *tl = calloc(1, sizeof(*tl));
	unsigned k;

	if (!tl) {
		dqr_set_err(err, errlen, "out of memory");
		return NULL;
	}
	tl->num_layers = 1;
	for (k = 0; g->kind == DQR_GRID_TORUS && k < g->ndims &&
	     k < DQR_GEN_MAX_DIMS; k++)
		if (g->wrap[k] && g->dims[k] >= 3) {
			tl->ring_bit[k] = tl->num_layers;
			tl->num_layers *= 2;
		}
	if (tl->num_layers == 1) {
		dqr_set_err(err, errlen, "no ring of 3 switches or more");
		dqr_torus_layers_free(tl);
		return NULL;
	}
	if (dqr_grid_nbrs_build(f, g, &tl->n) ||
	    alloc_tree(tl, f->num_switches)) {
		dqr_set_err(err, errlen, "out of memory");
		dqr_torus_layers_free(tl);
		return NULL;
	}
	tl->num_ports = f->num_ports;
	return tl;
}

int dqr_torus_layers_new(const struct dqr_fabric *f, const struct dqr_grid *g,
			 const struct dqr_lfts *t,
			 struct dqr_torus_layers **out, char *err,
			 size_t errlen)
{
	struct dqr_torus_layers *tl;
	struct dqr_channel_list cl = { 0 };
	struct dqr_cdg *cdg = NULL;
	struct edges x = { 0 };
	unsigned layer = 0;
	int r = -1;

	*out = NULL;
	tl = layers_alloc(f, g, err, errlen);
	if (!tl)
		return -1;
	ties_of(tl, f, t);
	if (collect(tl, f, t, &x, NULL, NULL)) {
		dqr_set_err(err, errlen, "out of memory");
		goto out;
	}
	r = layered_list(tl, &x, &cdg, &cl, &layer);
	if (r == 1)
		dqr_set_err(err, errlen, "layer %u of the tables is cyclic "
			    "(not e-cube routing?)", layer);
	else if (!r && !(tl->cl = dqr_dyn_new(cdg, &cl)))
		r = -1;
	if (r < 0)
		dqr_set_err(err, errlen, "out of memory");
out:
	free(x.key);
	dqr_cdg_free(cdg);
	dqr_channel_list_free(&cl);
	if (r) {
		dqr_torus_layers_free(tl);
		return -1;
	}
	*out = tl;
	return 0;
}

int dqr_torus_layers_judge_new(const struct dqr_fabric *f,
			       const struct dqr_grid *g,
			       const struct dqr_lfts *t,
			       struct dqr_torus_layers **out, char *err,
			       size_t errlen)
{
	*out = layers_alloc(f, g, err, errlen);
	if (!*out)
		return -1;
	ties_of(*out, f, t);
	return 0;
}

void dqr_torus_layers_free(struct dqr_torus_layers *tl)
{
	if (!tl)
		return;
	dqr_grid_nbrs_release(&tl->n);
	dqr_dyn_free(tl->cl);
	free(tl->depth);
	free(tl->next);
	free(tl->order);
	free(tl->stack);
	free(tl->mask);
	free(tl);
}

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

/*
 * Lays lp over lid's tree and adds every dependency the tree then has:
 * 1 laid, 0 it does not fit, -1 no memory (u takes it back).
 */
static int lay_lid(struct dqr_torus_layers *tl, const struct dqr_fabric *f,
		   struct dqr_lfts *t, const struct dqr_local_path *lp,
		   uint32_t lid, uint32_t dst, uint32_t owner, struct undo *u)
{
	uint32_t sw[DQR_LOCAL_PATH_LEN], count;
	uint8_t port[DQR_LOCAL_PATH_LEN];
	int n, i, r;

	n = dqr_local_path_patch(lp, f, t, lid, sw, port);
	if (n < 0)
		return 0;
	for (i = 0; i < n; i++)
		if (undo_write(u, t, sw[i], lid, port[i]))
			return -1;
	count = tree(tl, f, t, lid, dst);
	/* leaving the path early may lead back into it: a loop */
	for (i = 0; i < n; i++)
		if (tl->depth[sw[i]] == DQR_NONE)
			return 0;
	r = tree_deps(tl, f, t, lid, dst, owner, count, add_dep, tl);
	if (r == DQR_DYN_ENOMEM)
		return -1;
	return r ? 0 : 1;
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
			pref = ecube_minus(tl, j, a, dst);
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
		dst = owner_switch(f, lid, &owner);
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
		dst = owner_switch(f, lid, &owner);
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
			dst = owner_switch(f, lid, &owner);
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

/* ------------------------------------------------------------ verify */

int dqr_torus_layers_verify(const struct dqr_torus_layers *tl_const,
			    const struct dqr_fabric *f,
			    const struct dqr_lfts *t,
			    struct dqr_torus_verdict *v)
{
	/* tree() writes only the scratch arrays */
	struct dqr_torus_layers *tl = (struct dqr_torus_layers *)tl_const;
	struct dqr_channel_list cl = { 0 };
	struct dqr_cdg *g = NULL;
	struct edges x = { 0 };
	uint32_t *comp;
	unsigned layer = 0;
	uint64_t i;
	int r = -1;

	memset(v, 0, sizeof(*v));
	comp = malloc(sizeof(uint32_t) * (f->num_switches + 1));
	if (!comp)
		goto out;
	dqr_switch_components(f, comp);
	if (collect(tl, f, t, &x, comp, v))
		goto out;
	v->dependencies = x.n;
	for (i = 0; i < x.n; i++)
		v->layer_deps[(x.key[i] >> 32) / tl->num_ports]++;
	r = layered_list(tl, &x, &g, &cl, &layer);
	v->acyclic = r == 0;
	v->cyclic_layer = r == 1 ? layer : 0;
	/* layers share no edge: a vertex never ordered is in a cyclic one */
	for (i = 0; r == 1 && i < (uint64_t)tl->num_layers * tl->num_ports;
	     i++)
		if (cl.pos[i] == DQR_NONE)
			v->cyclic_mask |= 1u << (i / tl->num_ports);
	r = r < 0 ? -1 : 0;
out:
	free(comp);
	free(x.key);
	dqr_cdg_free(g);
	dqr_channel_list_free(&cl);
	return r;
}
