/*
 * plan_order.c - the planner's first step (transition.h, step 1): the
 * changed entries and, per destination, the order among its changed
 * switches.  Separate because it is plain graph work on the two tables,
 * done once before any stage is filled, and needs no union check.
 */
#include <stdlib.h>
#include <string.h>

#include "transition/transition-internal.h"

/*
 * Longest-path layering of a small DAG (Kahn).  Returns the nodes
 * layered; fewer than m means a cycle among the rest (lv[] = DQR_NONE).
 */
static uint32_t layer(uint32_t m, const uint32_t *ef, const uint32_t *et,
		      uint32_t ne, uint32_t *lv, uint32_t *indeg,
		      uint32_t *queue, uint32_t *off, uint32_t *adj)
{
	uint32_t i, v, head = 0, tail = 0;

	memset(indeg, 0, sizeof(uint32_t) * m);
	memset(off, 0, sizeof(uint32_t) * (m + 1));
	for (i = 0; i < ne; i++) {
		indeg[et[i]]++;
		off[ef[i] + 1]++;
	}
	for (v = 0; v < m; v++)
		off[v + 1] += off[v];
	for (i = 0; i < ne; i++)
		adj[off[ef[i]]++] = et[i];
	for (v = m; v > 0; v--)
		off[v] = off[v - 1];
	off[0] = 0;
	for (v = 0; v < m; v++) {
		lv[v] = indeg[v] ? DQR_NONE : 0;
		if (!indeg[v])
			queue[tail++] = v;
	}
	while (head < tail) {
		v = queue[head++];
		for (i = off[v]; i < off[v + 1]; i++) {
			uint32_t w = adj[i];

			if (lv[w] == DQR_NONE || lv[w] < lv[v] + 1)
				lv[w] = lv[v] + 1;
			if (!--indeg[w])
				queue[tail++] = w;
		}
	}
	for (v = 0; v < m; v++)
		if (indeg[v])
			lv[v] = DQR_NONE;
	return tail;
}

/* 1 when w lies on the new route from x towards lid. */
static int on_new_route(const struct planner *pl, uint32_t x, uint32_t w,
			uint32_t lid)
{
	uint32_t y = dqr_next_switch(pl->f, pl->to, x, lid), steps = 0;

	while (y != DQR_NONE && y != x && steps++ < pl->f->num_switches) {
		if (y == w)
			return 1;
		y = dqr_next_switch(pl->f, pl->to, y, lid);
	}
	return 0;
}

/* Scratch of compute_order(): per destination, at most one entry a switch. */
struct order_scratch {
	uint32_t *loc, *ef, *et, *kind, *lv, *indeg, *queue, *off, *adj;
	uint32_t *fill;
};

/*
 * The order of one destination's changed switches: after every changed
 * switch downstream on its new route (rule 1), before its old next hop
 * when that changes too and is not on its new route (rule 2).  Rule 2
 * edges that close a cycle with rule 1 are dropped: rule 1 is what keeps
 * the routes loop free.  Returns the edges kept, as local indices.
 */
static uint32_t order_one(struct planner *pl, struct order_scratch *o,
			  uint32_t lid, uint32_t lo, uint32_t m)
{
	const struct dqr_fabric *f = pl->f;
	uint32_t ns = f->num_switches, j, i, x, y, w, ne = 0, k;

	for (j = 0; j < m; j++)
		o->loc[pl->e[lo + j].sw] = j;
	for (j = 0; j < m; j++) {
		x = pl->e[lo + j].sw;
		y = dqr_next_switch(f, pl->to, x, lid);
		for (i = 0; y != DQR_NONE && o->loc[y] == DQR_NONE && i < ns;
		     i++)
			y = dqr_next_switch(f, pl->to, y, lid);
		if (y != DQR_NONE && o->loc[y] != DQR_NONE && y != x) {
			o->ef[ne] = o->loc[y];
			o->et[ne] = j;
			o->kind[ne++] = 1;
		}
		w = dqr_next_switch(f, pl->from, x, lid);
		if (w != DQR_NONE && o->loc[w] != DQR_NONE && w != x &&
		    !on_new_route(pl, x, w, lid)) {
			o->ef[ne] = j;
			o->et[ne] = o->loc[w];
			o->kind[ne++] = 2;
		}
	}
	if (layer(m, o->ef, o->et, ne, o->lv, o->indeg, o->queue, o->off,
		  o->adj) < m) {
		for (i = 0, k = 0; i < ne; i++)
			if (o->kind[i] == 1 || o->lv[o->ef[i]] != DQR_NONE ||
			    o->lv[o->et[i]] != DQR_NONE) {
				o->ef[k] = o->ef[i];
				o->et[k] = o->et[i];
				o->kind[k++] = o->kind[i];
			}
		ne = k;
		/* a new route that loops can still leave a rule 1 cycle */
		if (layer(m, o->ef, o->et, ne, o->lv, o->indeg, o->queue,
			  o->off, o->adj) < m) {
			for (i = 0, k = 0; i < ne; i++)
				if (o->lv[o->ef[i]] != DQR_NONE ||
				    o->lv[o->et[i]] != DQR_NONE) {
					o->ef[k] = o->ef[i];
					o->et[k++] = o->et[i];
				}
			ne = k;
			layer(m, o->ef, o->et, ne, o->lv, o->indeg, o->queue,
			      o->off, o->adj);
		}
	}
	for (j = 0; j < m; j++)
		o->loc[pl->e[lo + j].sw] = DQR_NONE;
	return ne;
}

#define ORDER_BUFS 10

/* compute_order()'s scratch: per destination, then a fill pointer. */
static void order_bufs(struct order_scratch *o, uint32_t ns, uint32_t n,
		       struct dqr_buf *b)
{
	const struct dqr_buf t[ORDER_BUFS] = {
		DQR_BUF(o->loc, ns + 1), DQR_BUF(o->ef, 2 * ns + 1),
		DQR_BUF(o->et, 2 * ns + 1), DQR_BUF(o->kind, 2 * ns + 1),
		DQR_BUF(o->lv, ns + 1), DQR_BUF(o->indeg, ns + 1),
		DQR_BUF(o->queue, ns + 1), DQR_BUF(o->off, ns + 2),
		DQR_BUF(o->adj, 2 * ns + 1), DQR_BUF(o->fill, n + 1),
	};

	memcpy(b, t, sizeof(t));
}

/* Room for want edges in the growing lists *ef, *et; 0, or -1. */
static int edges_grow(uint32_t **ef, uint32_t **et, uint32_t *cap,
		      uint32_t want)
{
	uint32_t *nf, *nt;

	if (want <= *cap)
		return 0;
	*cap = 2 * want + 64;
	nf = realloc(*ef, sizeof(uint32_t) * *cap);
	if (nf)
		*ef = nf;
	nt = realloc(*et, sizeof(uint32_t) * *cap);
	if (nt)
		*et = nt;
	return nf && nt ? 0 : -1;
}

/* Every destination's order, as one DAG over the changed entries. */
static int compute_order(struct planner *pl)
{
	uint32_t ns = pl->f->num_switches, lid, lo, m, j, ne, i, max = 0;
	uint32_t *ef = NULL, *et = NULL, cap = 0, total = 0;
	struct order_scratch o;
	struct dqr_buf b[ORDER_BUFS];
	int ret = -1;

	order_bufs(&o, ns, pl->n, b);
	if (dqr_bufs_alloc(b, ORDER_BUFS))
		return -1;
	for (j = 0; j < ns; j++)
		o.loc[j] = DQR_NONE;
	for (lid = 0; lid < pl->u.lc; lid++) {
		lo = pl->lid_off[lid];
		m = pl->lid_off[lid + 1] - lo;
		if (!m)
			continue;
		ne = order_one(pl, &o, lid, lo, m);
		if (edges_grow(&ef, &et, &cap, total + ne))
			goto out;
		for (i = 0; i < ne; i++) {
			ef[total] = lo + o.ef[i];
			et[total++] = lo + o.et[i];
		}
		for (j = 0; j < m; j++) {
			pl->level[lo + j] = o.lv[j] == DQR_NONE ? 0 : o.lv[j];
			if (pl->level[lo + j] > max)
				max = pl->level[lo + j];
		}
	}
	pl->num_levels = max + 1;
	pl->succ = malloc(sizeof(uint32_t) * (total ? total : 1));
	if (!pl->succ)
		goto out;
	for (i = 0; i < total; i++) {
		pl->succ_off[ef[i] + 1]++;
		pl->pleft[et[i]]++;
	}
	for (j = 0; j < pl->n; j++)
		pl->succ_off[j + 1] += pl->succ_off[j];
	for (i = 0; i < total; i++)
		pl->succ[pl->succ_off[ef[i]] + o.fill[ef[i]]++] = et[i];
	ret = 0;
out:
	free(ef);
	free(et);
	dqr_bufs_free(b, ORDER_BUFS);
	return ret;
}

#define PLANNER_BUFS 14

/* The planner's per-entry and per-LID arrays, for n entries, lc LIDs. */
static void planner_bufs(struct planner *pl, uint32_t n, uint32_t lc,
			 struct dqr_buf *b)
{
	const struct dqr_buf t[PLANNER_BUFS] = {
		DQR_BUF(pl->e, n), DQR_BUF(pl->level, n),
		DQR_BUF(pl->succ_off, n + 1), DQR_BUF(pl->pleft, n),
		DQR_BUF(pl->state, n), DQR_BUF(pl->failed, n),
		DQR_BUF(pl->s_ent, n), DQR_BUF(pl->cand, n),
		DQR_BUF(pl->clids, n), DQR_BUF(pl->slids, n),
		DQR_BUF(pl->grp, n), DQR_BUF(pl->key, n),
		DQR_BUF(pl->smark, lc), DQR_BUF(pl->lmark, lc),
	};

	memcpy(b, t, sizeof(t));
}

void planner_free_changes(struct planner *pl)
{
	struct dqr_buf b[PLANNER_BUFS];

	planner_bufs(pl, 0, 0, b);
	dqr_bufs_free(b, PLANNER_BUFS);
	free(pl->lid_off);
	free(pl->succ);
	pl->lid_off = NULL;
	pl->succ = NULL;
}

int planner_collect_changes(struct planner *pl)
{
	uint32_t sw, lid, lc = pl->u.lc, ns = pl->f->num_switches, i;
	struct dqr_buf b[PLANNER_BUFS];
	uint32_t *fill;
	uint8_t o, nw;

	pl->lid_off = calloc((size_t)lc + 1, sizeof(uint32_t));
	if (!pl->lid_off)
		return -1;
	for (sw = 0; sw < ns; sw++)
		for (lid = 0; lid < lc; lid++)
			if (dqr_lft_get(pl->from, sw, lid) !=
			    dqr_lft_get(pl->to, sw, lid))
				pl->lid_off[lid + 1]++;
	for (lid = 0; lid < lc; lid++)
		pl->lid_off[lid + 1] += pl->lid_off[lid];
	pl->n = pl->lid_off[lc];
	planner_bufs(pl, pl->n, lc, b);
	if (dqr_bufs_alloc(b, PLANNER_BUFS))
		return -1;
	fill = malloc(sizeof(uint32_t) * (lc ? lc : 1));
	if (!fill)
		return -1;
	memcpy(fill, pl->lid_off, sizeof(uint32_t) * lc);
	for (sw = 0; sw < ns; sw++)
		for (lid = 0; lid < lc; lid++) {
			o = dqr_lft_get(pl->from, sw, lid);
			nw = dqr_lft_get(pl->to, sw, lid);
			if (o == nw)
				continue;
			i = fill[lid]++;
			pl->e[i].sw = sw;
			pl->e[i].lid = lid;
			pl->e[i].line = 0;
			pl->e[i].old_port = o;
			pl->e[i].new_port = nw;
			pl->u.active[lid] = 1;
		}
	free(fill);
	return compute_order(pl);
}
