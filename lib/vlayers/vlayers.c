/*
 * vlayers.c - e-cube on virtual layers of a torus, repaired with the
 * mesh plug-in in every layer; see vlayers.h.
 */
#include <stdlib.h>
#include <string.h>

#include "deps/dyn_order.h"
#include "deps/vlayer_deps.h"
#include "routing/intermediate.h"
#include "vlayers/vlayers-internal.h"
#include "routes/route_walk.h"
#include "util/errmsg.h"

/* ------------------------------------------------------------ layers */

/* dqr_vlayers_ecube_minus() between coordinates cs and cd of dimension k */
static int coord_minus(const struct dqr_vlayers *tl, unsigned k,
		       unsigned cs, unsigned cd)
{
	unsigned n = tl->n.dims[k], plus;

	if (cs == cd)
		return -1;
	if (!tl->n.wrap[k])
		return cd < cs;
	plus = (cd + n - cs) % n;
	return 2 * plus == n ? tl->tie_minus[k] : 2 * plus > n;
}

int dqr_vlayers_ecube_minus(const struct dqr_vlayers *tl, unsigned k,
			    uint32_t s, uint32_t d)
{
	return coord_minus(tl, k, dqr_grid_coord(&tl->n, s, k),
			   dqr_grid_coord(&tl->n, d, k));
}

/* Ring k's bit of the layer from coordinate cs to cd: when it wraps. */
static uint8_t ring_layer(const struct dqr_vlayers *tl, unsigned k,
			  unsigned cs, unsigned cd)
{
	int minus = coord_minus(tl, k, cs, cd);

	/* the route wraps: it crosses cut A */
	return minus >= 0 && (minus ? cs < cd : cs > cd) ?
	       (uint8_t)tl->ring_bit[k] : 0;
}

uint8_t dqr_vlayers_sl(const struct dqr_vlayers *tl,
		       uint32_t src, uint32_t dst)
{
	return dqr_vlayers_sl_by(tl, &tl->mv, src, dst);
}

uint8_t dqr_vlayers_base_sl(const struct dqr_vlayers *tl,
			    uint32_t src, uint32_t dst)
{
	unsigned k;
	uint8_t sl = 0;

	if (tl->sl_tab)
		return tl->sl_tab[(size_t)src * tl->n.num_switches + dst];
	for (k = 0; k < tl->n.ndims; k++)
		if (tl->ring_bit[k])
			sl |= ring_layer(tl, k, dqr_grid_coord(&tl->n, src, k),
					 dqr_grid_coord(&tl->n, dst, k));
	return sl;
}

/*
 * own[sw] = the layer of sw's routes to dst, for every switch: a table
 * per ring of the bit from each coordinate to dst's, then a look-up per
 * dimension, where a walk of every tree would ask the arithmetic of
 * dqr_vlayers_sl() twice per switch.
 */
static void layers_to(struct dqr_vlayers *tl, uint32_t dst)
{
	uint32_t sw, num = tl->n.num_switches;
	unsigned k, c, off[DQR_GEN_MAX_DIMS], cs, cd;
	uint8_t l;

	if (tl->sl_tab || tl->mv.n) {
		for (sw = 0; sw < num; sw++)
			tl->own[sw] = dqr_vlayers_sl(tl, sw, dst);
		return;
	}
	for (k = 0, c = 0; k < tl->n.ndims; k++) {
		off[k] = c;
		if (!tl->ring_bit[k])
			continue;
		cd = dqr_grid_coord(&tl->n, dst, k);
		for (cs = 0; cs < tl->n.dims[k]; cs++)
			tl->ring_tab[c + cs] = ring_layer(tl, k, cs, cd);
		c += tl->n.dims[k];
	}
	for (sw = 0; sw < num; sw++) {
		for (l = 0, k = 0; k < tl->n.ndims; k++)
			if (tl->ring_bit[k])
				l |= tl->ring_tab[off[k] +
					dqr_grid_coord(&tl->n, sw, k)];
		tl->own[sw] = l;
	}
}

unsigned dqr_vlayers_count(const struct dqr_vlayers *tl)
{
	return tl->num_layers;
}

void dqr_vlayers_allow_moves(struct dqr_vlayers *tl,
			     unsigned max_layers)
{
	tl->max_layers = max_layers > DQR_VLAYERS_MAX ?
			 DQR_VLAYERS_MAX : max_layers;
}

void dqr_vlayers_allow_intermediates(struct dqr_vlayers *tl, unsigned max)
{
	tl->imed_max = max > DQR_IMED_MAX ? DQR_IMED_MAX : max;
}

uint8_t dqr_vlayers_sl_by(const struct dqr_vlayers *tl,
			  const struct dqr_vlayers_sls *m, uint32_t src,
			  uint32_t dst)
{
	int moved = dqr_vlayers_sls_find(tl, m, src, dst);

	return moved >= 0 ? (uint8_t)moved :
	       dqr_vlayers_base_sl(tl, src, dst);
}

/*
 * The pairs a holds that b gives another SL; with only_a, only those b
 * does not hold itself.
 */
static uint64_t differ_from(const struct dqr_vlayers *tl,
			    const struct dqr_vlayers_sls *a,
			    const struct dqr_vlayers_sls *b, int only_a)
{
	uint32_t i, s, d, S = tl->n.num_switches;
	uint64_t n = 0;

	for (i = 0; i < a->cap; i++) {
		if (!a->key[i])
			continue;
		s = (uint32_t)((a->key[i] - 1) / S);
		d = (uint32_t)((a->key[i] - 1) % S);
		if (only_a && dqr_vlayers_sls_find(tl, b, s, d) >= 0)
			continue;
		n += a->sl[i] != dqr_vlayers_sl_by(tl, b, s, d);
	}
	return n;
}

uint64_t dqr_vlayers_sls_differ(const struct dqr_vlayers *tl,
				const struct dqr_vlayers_sls *m)
{
	/* m's pairs that tl's own hash lacks too: a restart's */
	return differ_from(tl, &tl->mv, m, 0) + differ_from(tl, m, &tl->mv, 1);
}

uint64_t dqr_vlayers_moved(const struct dqr_vlayers *tl)
{
	static const struct dqr_vlayers_sls base;

	return dqr_vlayers_sls_differ(tl, &base);
}

struct dqr_dyn_order *dqr_vlayers_list(struct dqr_vlayers *tl)
{
	return tl->cl;
}

/* ------------------------------------------------------------ one tree */

/*
 * The switch sw's entry for lid leads to, or DQR_NONE; *ch the channel
 * (sw's port there, cabled), or DQR_NONE.
 */
uint32_t dqr_vlayers_hop(const struct dqr_fabric *f, const struct dqr_lfts *t,
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
 * lid's tree in t: next[] and chan[] (the channel there), depth[] (hops
 * to the owner switch, or DQR_NONE when the route fails or loops),
 * order[] the reaching switches deepest first; own[] the layer of each
 * one's routes, mask[] the layers of the routes through each.  Returns
 * how many switches reach the owner.
 */
static uint32_t tree(struct dqr_vlayers *tl, const struct dqr_fabric *f,
		     const struct dqr_lfts *t, uint32_t lid, uint32_t dst)
{
	uint32_t sw, s, d, ch, top, num = tl->n.num_switches, count = 0;
	uint32_t i, owner = dqr_lid_owner(f, lid);

	layers_to(tl, dst);
	for (sw = 0; sw < num; sw++) {
		tl->depth[sw] = DQR_NONE - 1;	/* not looked at */
		tl->next[sw] = dqr_vlayers_hop(f, t, sw, lid, &tl->chan[sw]);
		tl->mask[sw] = 0;
	}
	/* delivered at dst: its own LID on port 0, a CA's on its cable */
	ch = tl->chan[dst];
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
		tl->mask[sw] |= (uint8_t)(1u << tl->own[sw]);
		if (sw != dst)
			tl->mask[tl->next[sw]] |= tl->mask[sw];
	}
	return count;
}

/* The switch that owns lid (its own LID, or a CA's), or DQR_NONE. */
uint32_t dqr_vlayers_owner_switch(const struct dqr_fabric *f, uint32_t lid,
				  uint32_t *owner)
{
	*owner = dqr_lid_owner(f, lid);
	return dqr_lid_switch(f, lid);
}

/*
 * Calls add(arg, a, b) for every (layer, channel) dependency of lid's
 * tree, as computed by tree(): l * P + c.  Stops at the first non-zero.
 */
static int tree_deps(struct dqr_vlayers *tl, const struct dqr_fabric *f,
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
		c = tl->chan[sw];
		if (c == DQR_NONE)
			continue;
		/* the channel after c: at the next switch, or none */
		nc = sw != dst ? tl->chan[tl->next[sw]] : DQR_NONE;
		for (l = 0; nc != DQR_NONE && l < tl->num_layers; l++)
			if (tl->mask[sw] & (1u << l)) {
				r = add(arg, l * P + c, l * P + nc);
				if (r)
					return r;
			}
		own = tl->own[sw];
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

static int push_edge(void *arg, uint32_t a, uint32_t b)
{
	return dqr_vlayer_deps_add(arg, a, b);
}

/*
 * Pairs of lid's tree in the component of dst (comp[]): every switch and
 * its end ports but lid's owner; those of switches that do not reach dst
 * are unreachable.
 */
static void count_pairs(const struct dqr_vlayers *tl,
			const struct dqr_fabric *f, const uint32_t *comp,
			uint32_t dst, uint32_t owner,
			struct dqr_vlayers_verdict *v)
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
 * Every dependency of t into x (initialised here); with v, the pairs of
 * every tree are counted on the way (components comp[]).
 */
static int collect(struct dqr_vlayers *tl, const struct dqr_fabric *f,
		   const struct dqr_lfts *t, struct dqr_vlayer_deps *x,
		   unsigned num_layers, const uint32_t *comp,
		   struct dqr_vlayers_verdict *v)
{
	uint32_t lid, dst, owner, count;

	if (dqr_vlayer_deps_init(x, f, num_layers))
		return -1;
	for (lid = 1; lid < t->lid_count; lid++) {
		dst = dqr_vlayers_owner_switch(f, lid, &owner);
		if (dst == DQR_NONE || dst >= tl->n.num_switches)
			continue;
		count = tree(tl, f, t, lid, dst);
		if (v)
			count_pairs(tl, f, comp, dst, owner, v);
		if (tree_deps(tl, f, t, lid, dst, owner, count, push_edge,
			      x))
			return -1;
	}
	return 0;
}

/*
 * Which way the tables take a ring of even size when both are equally
 * short (lib's e-cube: upwards), by the majority of every tie's first hop
 * in t: the SLs follow it, and a repair that moved a few of them leaves
 * the SLs those of the base routing.
 */
static void ties_of(struct dqr_vlayers *tl, const struct dqr_fabric *f,
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
			lid = (uint16_t)dqr_switch_lid(f, d);
			p = dqr_lft_get(t, s, lid);
			vote += p == n->port[dqr_grid_slot(s, k, 1)];
			vote -= p == n->port[dqr_grid_slot(s, k, 0)];
		}
		tl->tie_minus[k] = vote > 0;
	}
}

/*
 * The per-switch arrays of one DLID's tree, the repair's paths and the
 * search (num switches), the visit stamps zeroed: allocated once with the
 * layers, so that a repair allocates nothing per DLID.  0, or -1 when out
 * of memory (dqr_vlayers_free() cleans).
 */
static int alloc_tree(struct dqr_vlayers *tl, uint32_t num)
{
	size_t coords = 1;
	unsigned k;

	for (k = 0; k < tl->n.ndims; k++)
		coords += tl->n.dims[k];
	tl->ring_tab = malloc(coords);
	tl->depth = malloc(sizeof(uint32_t) * (num + 1));
	tl->next = malloc(sizeof(uint32_t) * (num + 1));
	tl->order = malloc(sizeof(uint32_t) * (num + 1));
	tl->stack = malloc(sizeof(uint32_t) * (num + 1));
	tl->chan = malloc(sizeof(uint32_t) * (num + 1));
	tl->mask = malloc(num + 1);
	tl->own = malloc(num + 1);
	tl->seen = calloc(num + 1, sizeof(uint32_t));
	tl->path_sw = malloc(sizeof(uint32_t) * (num + 1));
	tl->path_ch = malloc(sizeof(uint32_t) * (num + 1));
	tl->path_port = malloc(num + 1);
	tl->from = malloc(sizeof(uint32_t) * (num + 1));
	tl->queue = malloc(sizeof(uint32_t) * (num + 1));
	tl->cut = calloc(num + 1, sizeof(uint32_t));
	tl->vis = calloc(num + 1, sizeof(uint32_t));
	tl->from_port = malloc(num + 1);
	tl->arr = calloc(num + 1, sizeof(uint32_t));
	tl->arr_val = malloc(num + 1);
	return tl->depth && tl->next && tl->order && tl->stack && tl->chan &&
	       tl->mask && tl->own && tl->seen && tl->ring_tab &&
	       tl->path_sw && tl->path_ch && tl->path_port && tl->from &&
	       tl->queue && tl->cut && tl->vis && tl->from_port && tl->arr &&
	       tl->arr_val ? 0 : -1;
}

/*
 * The layers of grid g on f without ties or list: e-cube's (sl NULL), or
 * num_layers given by sl (copied).  NULL with why in err (e-cube: no ring
 * of 3 switches or more; out of memory).
 */
static struct dqr_vlayers *layers_alloc(const struct dqr_fabric *f,
					const struct dqr_grid *g,
					const uint8_t *sl,
					unsigned num_layers,
					char *err, size_t errlen)
{
	struct dqr_vlayers *tl = calloc(1, sizeof(*tl));
	size_t pairs = (size_t)f->num_switches * f->num_switches;
	unsigned k;

	if (!tl) {
		dqr_set_err(err, errlen, "out of memory");
		return NULL;
	}
	tl->num_layers = 1;
	for (k = 0; !sl && g->kind == DQR_GRID_TORUS && k < g->ndims &&
	     k < DQR_GEN_MAX_DIMS; k++)
		if (g->wrap[k] && g->dims[k] >= 3) {
			tl->ring_bit[k] = tl->num_layers;
			tl->num_layers *= 2;
		}
	if (!sl && tl->num_layers == 1) {
		dqr_set_err(err, errlen, "no ring of 3 switches or more");
		dqr_vlayers_free(tl);
		return NULL;
	}
	if (sl) {
		tl->num_layers = num_layers;
		tl->sl_tab = malloc(pairs + 1);
		if (tl->sl_tab)
			memcpy(tl->sl_tab, sl, pairs);
	}
	if ((sl && !tl->sl_tab) || dqr_grid_nbrs_build(f, g, &tl->n) ||
	    alloc_tree(tl, f->num_switches)) {
		dqr_set_err(err, errlen, "out of memory");
		dqr_vlayers_free(tl);
		return NULL;
	}
	tl->num_ports = f->num_ports;
	tl->base_layers = tl->num_layers;
	return tl;
}

/* The channel list of t's layers into tl: 0, or -1 with why in err. */
static int build_list(struct dqr_vlayers *tl, const struct dqr_fabric *f,
		      const struct dqr_lfts *t, const char *not_what,
		      char *err, size_t errlen)
{
	struct dqr_channel_list cl = { 0 };
	struct dqr_cdg *cdg = NULL;
	struct dqr_vlayer_deps x = { 0 };
	unsigned layer = 0;
	int r = -1;

	/* room for every layer a move may open (vlayers_move.c) */
	if (collect(tl, f, t, &x, DQR_VLAYERS_MAX, NULL, NULL)) {
		dqr_set_err(err, errlen, "out of memory");
		goto out;
	}
	r = dqr_vlayer_deps_order(&x, &cdg, &cl, &layer);
	if (r == 1)
		dqr_set_err(err, errlen, "layer %u of the tables is cyclic "
			    "(%s)", layer, not_what);
	else if (!r && !(tl->cl = dqr_dyn_new(cdg, &cl)))
		r = -1;
	if (r < 0)
		dqr_set_err(err, errlen, "out of memory");
out:
	dqr_vlayer_deps_release(&x);
	dqr_cdg_free(cdg);
	dqr_channel_list_free(&cl);
	return r ? -1 : 0;
}

int dqr_vlayers_new(const struct dqr_fabric *f, const struct dqr_grid *g,
		    const struct dqr_lfts *t,
		    struct dqr_vlayers **out, char *err,
		    size_t errlen)
{
	struct dqr_vlayers *tl;

	*out = NULL;
	tl = layers_alloc(f, g, NULL, 0, err, errlen);
	if (!tl)
		return -1;
	ties_of(tl, f, t);
	if (build_list(tl, f, t, "not e-cube routing?", err, errlen)) {
		dqr_vlayers_free(tl);
		return -1;
	}
	*out = tl;
	return 0;
}

int dqr_vlayers_new_sl(const struct dqr_fabric *f,
		       const struct dqr_grid *g,
		       const struct dqr_lfts *t, const uint8_t *sl,
		       unsigned num_layers,
		       struct dqr_vlayers **out, char *err,
		       size_t errlen)
{
	struct dqr_vlayers *tl;
	size_t i, pairs = (size_t)f->num_switches * f->num_switches;

	*out = NULL;
	if (num_layers < 1 || num_layers > DQR_VLAYERS_MAX) {
		dqr_set_err(err, errlen, "%u layers (1 to %u)", num_layers,
			    DQR_VLAYERS_MAX);
		return -1;
	}
	for (i = 0; i < pairs; i++)
		if (sl[i] >= num_layers) {
			dqr_set_err(err, errlen, "SL %u from switch %zu to "
				    "%zu, of %u layers", sl[i],
				    i / f->num_switches, i % f->num_switches,
				    num_layers);
			return -1;
		}
	tl = layers_alloc(f, g, sl, num_layers, err, errlen);
	if (!tl)
		return -1;
	if (build_list(tl, f, t, "the SLs do not keep it apart",
		       err, errlen)) {
		dqr_vlayers_free(tl);
		return -1;
	}
	*out = tl;
	return 0;
}

int dqr_vlayers_new_like(const struct dqr_vlayers *like,
			 const struct dqr_fabric *f,
			 const struct dqr_grid *g,
			 const struct dqr_lfts *t,
			 struct dqr_vlayers **out, char *err,
			 size_t errlen)
{
	int r;

	/* the SLs the base gave: a move lasts until the restart */
	if (like->sl_tab)
		r = dqr_vlayers_new_sl(f, g, t, like->sl_tab,
				       like->base_layers, out, err,
				       errlen);
	else
		r = dqr_vlayers_new(f, g, t, out, err, errlen);
	if (!r) {
		dqr_vlayers_allow_moves(*out, like->max_layers);
		(*out)->imed_max = like->imed_max;
	}
	return r;
}

int dqr_vlayers_judge_new(const struct dqr_fabric *f,
			  const struct dqr_grid *g,
			  const struct dqr_lfts *t,
			  struct dqr_vlayers **out, char *err,
			  size_t errlen)
{
	*out = layers_alloc(f, g, NULL, 0, err, errlen);
	if (!*out)
		return -1;
	ties_of(*out, f, t);
	return 0;
}

void dqr_vlayers_free(struct dqr_vlayers *tl)
{
	if (!tl)
		return;
	dqr_grid_nbrs_release(&tl->n);
	dqr_dyn_free(tl->cl);
	free(tl->depth);
	free(tl->next);
	free(tl->order);
	free(tl->stack);
	free(tl->chan);
	free(tl->mask);
	free(tl->own);
	free(tl->ring_tab);
	free(tl->seen);
	free(tl->path_sw);
	free(tl->path_ch);
	free(tl->path_port);
	free(tl->from);
	free(tl->queue);
	free(tl->cut);
	free(tl->vis);
	free(tl->from_port);
	free(tl->arr);
	free(tl->arr_val);
	free(tl->sl_tab);
	dqr_vlayers_sls_release(&tl->mv);
	if (tl->imed)
		tl->imed_release(tl->imed);
	free(tl);
}

/* ------------------------------------------------------------ verify */

int dqr_vlayers_verify(const struct dqr_vlayers *tl_const,
		       const struct dqr_fabric *f,
		       const struct dqr_lfts *t,
		       struct dqr_vlayers_verdict *v)
{
	/* tree() writes only the scratch arrays */
	struct dqr_vlayers *tl = (struct dqr_vlayers *)tl_const;
	struct dqr_channel_list cl = { 0 };
	struct dqr_vlayer_deps x = { 0 };
	uint32_t *comp;
	unsigned layer = 0;
	uint64_t i;
	int r = -1;

	memset(v, 0, sizeof(*v));
	comp = malloc(sizeof(uint32_t) * (f->num_switches + 1));
	if (!comp)
		goto out;
	dqr_switch_components(f, comp);
	if (collect(tl, f, t, &x, tl->num_layers, comp, v))
		goto out;
	v->dependencies = x.n;
	for (i = 0; i < x.n; i++)
		v->layer_deps[(x.key[i] >> 32) / tl->num_ports]++;
	r = dqr_vlayer_deps_order(&x, NULL, &cl, &layer);
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
	dqr_vlayer_deps_release(&x);
	dqr_channel_list_free(&cl);
	return r;
}
