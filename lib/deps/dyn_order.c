/*
 * dyn_order.c - Pearce-Kelly dynamic topological order of the channels.
 *
 * For a new edge a -> b with pos[a] > pos[b], any path b ~> a would lie
 * entirely in positions [pos[b], pos[a]] (every live edge points up), so
 * a forward search from b bounded by pos[a], run together with a backward
 * one from a bounded by pos[b], decides whether the edge closes a cycle.
 * When it does not, F = what b reaches in the region and B = what
 * reaches a in it are disjoint, and handing the union of their
 * positions to B first and then F, each in its old relative order, puts
 * a below b while every edge into, out of or between F and B still points
 * up.  Nothing outside F and B moves.
 *
 * Searches are worklists in flat arrays with epoch marks, so their cost is
 * the region they visit and never the size of the list.
 */
#include <stdlib.h>
#include <string.h>

#include "deps/dyn_order-internal.h"
#include "util/check.h"
#include "util/mem.h"
#include "util/sort.h"

enum undo_kind {
	UNDO_POS,	/* v was at position old */
	UNDO_EDGE,	/* the last added edge */
	UNDO_REORDER,	/* one reorder: counter only */
	UNDO_RETIRE,	/* v was live */
	UNDO_REVIVE,	/* v was retired */
};

#define EDGE_MAX (UINT32_MAX - 1)

static int is_channel(const struct dqr_dyn_order *d, uint32_t v)
{
	return v < d->num_vertices && d->pos[v] != DQR_NONE;
}

/*
 * Does b reach a (live, pos[a] > pos[b])?  DQR asks mostly about turns
 * it must refuse, and a forward search alone visits all that b reaches
 * below a before it meets a: on a fat tree, about 19,000 channels per
 * refused turn.  So the forward search from b (below pos[a]) and the
 * backward one from a (above pos[b]) take turns, the one with the
 * shorter queue going next, and a channel both reach closes a cycle.
 * (Weighing the sides by edges looked at instead visited almost twice as
 * much.)
 *
 * Returns UINT32_MAX for a cycle, else the size of F = what b reaches (in
 * d->fwd) and, in *nb, of B = what reaches a (in d->bwd).  When one side
 * runs out without meeting the other there is no cycle; with complete
 * set the other side then runs to its end, as the reorder needs both sets
 * whole (F and B do not depend on the order the channels were found in).
 * Without it, F and B may be partial.
 */
static uint32_t search_both(struct dqr_dyn_order *d, uint32_t a, uint32_t b,
			    uint32_t *nb, int complete)
{
	uint32_t ub = d->pos[a], lb = d->pos[b], nf = 1, fi = 0, bi = 0;
	uint32_t met = DQR_NONE;

	new_search(d);
	d->seen[b] = d->epoch;
	d->fwd[0] = b;
	d->seen[a] = d->epoch + 1;
	d->bwd[0] = a;
	*nb = 1;
	while (fi < nf && bi < *nb && met == DQR_NONE) {
		if (nf - fi <= *nb - bi)
			met = dyn_step(d, d->fwd[fi++], 1, ub, 0, &nf);
		else
			met = dyn_step(d, d->bwd[bi++], 0, lb, 0, nb);
	}
	if (met != DQR_NONE) {
		/* what the backward side found reaches a: dyn_reach_keep() */
		d->last_meet = met;
		d->last_nb = *nb;
		d->last_bi = bi;
		return UINT32_MAX;
	}
	if (!complete)
		return nf;
	/* one side is whole and met nothing: the other cannot meet it */
	while (fi < nf)
		dyn_step(d, d->fwd[fi++], 1, ub, 0, &nf);
	while (bi < *nb)
		dyn_step(d, d->bwd[bi++], 0, lb, 0, nb);
	return nf;
}

/* Room for n more log entries, so that a change never stops half done. */
static int reserve_log(struct dqr_dyn_order *d, size_t n)
{
	struct dqr_dyn_undo *p;
	size_t cap;

	if (d->log_len + n <= d->log_cap)
		return 0;
	cap = d->log_cap ? d->log_cap : 1024;
	while (cap < d->log_len + n)
		cap *= 2;
	p = realloc(d->log, sizeof(*p) * cap);
	if (!p)
		return -1;
	d->log = p;
	d->log_cap = cap;
	return 0;
}

/*
 * Room for one more added edge, reserved before anything changes so that
 * an addition never stops half done.  The pool doubles up to EDGE_MAX (an
 * index must never reach DQR_NONE).  0, or -1 when out of memory.
 */
static int reserve_edge(struct dqr_dyn_order *d)
{
	struct dqr_dyn_edge *p;
	uint32_t cap;

	if (d->num_added < d->cap_added)
		return 0;
	if (d->cap_added >= EDGE_MAX)
		return -1;
	cap = d->cap_added ? d->cap_added : 1024;
	cap = cap > EDGE_MAX / 2 ? EDGE_MAX : cap * 2;
	p = realloc(d->edges, sizeof(*p) * cap);
	if (!p)
		return -1;
	d->edges = p;
	d->cap_added = cap;
	return 0;
}

static void log_push(struct dqr_dyn_order *d, uint32_t kind, uint32_t v,
		     uint32_t old)
{
	struct dqr_dyn_undo *u = &d->log[d->log_len++];

	/* a new state: a new name; a rollback gives the old one back */
	u->version = d->version;
	d->version = ++d->versions;
	u->kind = kind;
	u->v = v;
	u->old = old;
}

/* b's bit in a's window, or -1 when b is outside it. */
static inline int win_bit(const struct dqr_dyn_order *d, uint32_t a,
			  uint32_t b)
{
	uint32_t off = b - d->win[a];

	return d->win[a] != DQR_NONE && b >= d->win[a] && off < 256 ?
	       (int)off : -1;
}

static void set_bit(struct dqr_dyn_order *d, uint32_t a, uint32_t b, int on)
{
	int k;

	if (d->win[a] == DQR_NONE)
		d->win[a] = b;
	k = win_bit(d, a, b);
	if (k < 0)
		return;
	if (on)
		d->bits[a][k >> 6] |= 1ull << (k & 63);
	else
		d->bits[a][k >> 6] &= ~(1ull << (k & 63));
}

/* Capacity reserved by the caller. */
static void push_edge(struct dqr_dyn_order *d, uint32_t a, uint32_t b)
{
	uint32_t e = d->num_added++;

	d->edges[e].from = a;
	d->edges[e].to = b;
	d->edges[e].next_succ = d->add_succ[a];
	d->edges[e].next_pred = d->add_pred[b];
	d->add_succ[a] = e;
	d->add_pred[b] = e;
	set_bit(d, a, b, 1);
	log_push(d, UNDO_EDGE, a, b);
}

static void pop_edge(struct dqr_dyn_order *d)
{
	struct dqr_dyn_edge *e = &d->edges[--d->num_added];

	/* an added edge is never a base one: its bit was clear before */
	set_bit(d, e->from, e->to, 0);
	/* edges leave in the reverse order they came: each is a list head */
	d->add_succ[e->from] = e->next_succ;
	d->add_pred[e->to] = e->next_pred;
}

/*
 * Sorts fwd and bwd by position and merges their positions, by scanning
 * the region when it is dense in them (no log factor, sequential reads),
 * else by sorting.
 */
static void sort_sets(struct dqr_dyn_order *d, uint32_t nf, uint32_t nb,
		      uint32_t lo, uint32_t hi)
{
	uint32_t i, j, k, v, p, mark = d->epoch;

	if ((uint64_t)hi - lo < 8 * ((uint64_t)nf + nb)) {
		for (p = lo, i = j = k = 0; p <= hi; p++) {
			v = d->order[p];
			if (d->seen[v] == mark)
				d->fwd[i++] = v;
			else if (d->seen[v] == mark + 1)
				d->bwd[j++] = v;
			else
				continue;
			d->merged[k++] = p;
		}
		return;
	}
	for (i = 0; i < nf; i++)
		d->fwd[i] = d->pos[d->fwd[i]];
	for (i = 0; i < nb; i++)
		d->bwd[i] = d->pos[d->bwd[i]];
	qsort(d->fwd, nf, sizeof(uint32_t), dqr_cmp_u32);
	qsort(d->bwd, nb, sizeof(uint32_t), dqr_cmp_u32);
	for (i = j = k = 0; i < nf || j < nb; )
		if (j == nb || (i < nf && d->fwd[i] < d->bwd[j]))
			d->merged[k++] = d->fwd[i++];
		else
			d->merged[k++] = d->bwd[j++];
	for (i = 0; i < nf; i++)
		d->fwd[i] = d->order[d->fwd[i]];
	for (i = 0; i < nb; i++)
		d->bwd[i] = d->order[d->bwd[i]];
}

/*
 * Hands the positions of bwd[0..nb) and fwd[0..nf) (marked by the last
 * search, all within [lo, hi]) to bwd first, then fwd, each in its old
 * relative order.  Log room for nb + nf + 1 entries must be reserved.
 */
static void reassign(struct dqr_dyn_order *d, uint32_t nf, uint32_t nb,
		     uint32_t lo, uint32_t hi)
{
	uint32_t k, v, p;

	sort_sets(d, nf, nb, lo, hi);
	log_push(d, UNDO_REORDER, 0, 0);
	d->num_reorders++;
	for (k = 0; k < nb + nf; k++) {
		v = k < nb ? d->bwd[k] : d->fwd[k - nb];
		p = d->merged[k];
		if (d->pos[v] == p)
			continue;
		log_push(d, UNDO_POS, v, d->pos[v]);
		d->pos[v] = p;
		d->order[p] = v;
		d->num_moved++;
	}
	/* F and B disjoint: no position was handed out twice */
	for (k = 0; k < nb + nf; k++)
		DQR_CHECK(d->pos[d->order[d->merged[k]]] == d->merged[k]);
}

/*
 * Makes room for a -> b (live, pos[a] > pos[b]) by reordering; the edge
 * itself is stored by the caller.  DQR_DYN_REORDERED, DQR_DYN_CYCLE or
 * DQR_DYN_ENOMEM, the last two with nothing changed.
 */
static int make_room(struct dqr_dyn_order *d, uint32_t a, uint32_t b,
		     size_t extra_log)
{
	uint32_t nf, nb;

	if (dyn_reach_refuses(d, a, b))
		return DQR_DYN_CYCLE;
	nf = search_both(d, a, b, &nb, 1);
	if (nf == UINT32_MAX) {
		dyn_reach_keep(d, a, b);
		return DQR_DYN_CYCLE;
	}
	if (reserve_log(d, (size_t)nf + nb + 1 + extra_log))
		return DQR_DYN_ENOMEM;
	reassign(d, nf, nb, d->pos[b], d->pos[a]);
	DQR_CHECK(d->pos[a] < d->pos[b]);
	return DQR_DYN_REORDERED;
}

/*
 * DQR asks for every dependency of every candidate whether it is there
 * already, and a channel has a switch's worth of successors: the CDG
 * builds them in port order, so they are searched by halves.
 */
static int has_base_edge(const struct dqr_dyn_order *d, uint32_t a,
			 uint32_t b)
{
	uint64_t lo = d->succ_off[a], hi = d->succ_off[a + 1], mid;

	if (!d->succ_sorted) {
		for (; lo < hi; lo++)
			if (d->succ[lo] == b)
				return 1;
		return 0;
	}
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (d->succ[mid] < b)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < d->succ_off[a + 1] && d->succ[lo] == b;
}

int dqr_dyn_has_edge(const struct dqr_dyn_order *d, uint32_t a, uint32_t b)
{
	uint32_t e;
	int k;

	if (a >= d->num_vertices || b >= d->num_vertices)
		return 0;
	k = win_bit(d, a, b);
	if (k >= 0)
		return (d->bits[a][k >> 6] >> (k & 63)) & 1;
	if (has_base_edge(d, a, b))
		return 1;
	for (e = d->add_succ[a]; e != DQR_NONE; e = d->edges[e].next_succ)
		if (d->edges[e].to == b)
			return 1;
	return 0;
}

int dqr_dyn_check(struct dqr_dyn_order *d, uint32_t a, uint32_t b,
		  uint32_t *cost)
{
	uint32_t nf, nb;

	if (cost)
		*cost = 0;
	if (!is_channel(d, a) || !is_channel(d, b) || a == b)
		return DQR_DYN_REFUSED;
	/* a present live edge already points up: no need to look for it */
	if (d->retired[a] || d->retired[b] || d->pos[a] < d->pos[b])
		return DQR_DYN_LEGAL;
	nf = search_both(d, a, b, &nb, cost != NULL);
	if (nf == UINT32_MAX)
		return DQR_DYN_REFUSED;
	if (cost)
		*cost = nf + nb;
	return DQR_DYN_NEEDS_REORDER;
}

/*
 * dqr_dyn_add() without its checks: room for the edge and its log entries
 * reserved first, a reorder when a -> b points down between live channels,
 * then the edge stored, so that a refusal or no memory leaves everything as
 * it was.
 */
static int add_edge(struct dqr_dyn_order *d, uint32_t a, uint32_t b)
{
	int ret = DQR_DYN_ADDED;

	if (!is_channel(d, a) || !is_channel(d, b))
		return DQR_DYN_EINVAL;
	if (a == b)
		return DQR_DYN_CYCLE;
	if (dqr_dyn_has_edge(d, a, b))
		return DQR_DYN_ADDED;
	if (reserve_edge(d))
		return DQR_DYN_ENOMEM;
	if (!d->retired[a] && !d->retired[b] && d->pos[a] > d->pos[b]) {
		ret = make_room(d, a, b, 1);
		if (ret < 0)
			return ret;
	} else if (reserve_log(d, 1)) {
		return DQR_DYN_ENOMEM;
	}
	push_edge(d, a, b);
	return ret;
}

int dqr_dyn_add(struct dqr_dyn_order *d, uint32_t a, uint32_t b)
{
	struct dqr_dyn_fingerprint before = dqr_dyn_fingerprint(d);
	int ret = add_edge(d, a, b);

	/* refused: nothing changed; added: it points up, or an end is dead */
	DQR_CHECK(ret >= 0 || dqr_dyn_same(d, &before));
	DQR_CHECK(ret < 0 || d->retired[a] || d->retired[b] ||
		  d->pos[a] < d->pos[b]);
	return ret;
}

size_t dqr_dyn_mark(const struct dqr_dyn_order *d)
{
	return d->log_len;
}

void dqr_dyn_rollback(struct dqr_dyn_order *d, size_t mark)
{
	const struct dqr_dyn_undo *u;

	/* a mark past the log was taken before dqr_dyn_commit() */
	DQR_CHECK(mark <= d->log_len);
	while (d->log_len > mark) {
		u = &d->log[--d->log_len];
		d->version = u->version;
		switch (u->kind) {
		case UNDO_POS:
			d->pos[u->v] = u->old;
			d->order[u->old] = u->v;
			d->num_moved--;
			break;
		case UNDO_EDGE:
			pop_edge(d);
			break;
		case UNDO_REORDER:
			d->num_reorders--;
			break;
		case UNDO_RETIRE:
			d->retired[u->v] = 0;
			break;
		case UNDO_REVIVE:
			d->retired[u->v] = 1;
			break;
		}
	}
}

void dqr_dyn_commit(struct dqr_dyn_order *d)
{
	d->log_len = 0;
}

int dqr_dyn_retire_channel(struct dqr_dyn_order *d, uint32_t c)
{
	if (!is_channel(d, c))
		return DQR_DYN_EINVAL;
	if (d->retired[c])
		return 0;
	if (reserve_log(d, 1))
		return DQR_DYN_ENOMEM;
	d->retired[c] = 1;
	log_push(d, UNDO_RETIRE, c, 0);
	return 0;
}

/*
 * Counts one edge of the reviving channel: in place if it points up,
 * else after a reorder.  Duplicates (base and added) count once.
 */
static int revive_edge(struct dqr_dyn_order *d, uint32_t u, uint32_t w)
{
	int out = u == d->reviving, ret = DQR_DYN_ADDED;
	uint32_t *mark = out ? &d->rv_out[w] : &d->rv_in[u];

	if (d->retired[out ? w : u] || *mark == d->rv_epoch)
		return DQR_DYN_ADDED;
	if (d->pos[u] > d->pos[w]) {
		ret = make_room(d, u, w, 0);
		if (ret < 0)
			return ret;
	}
	DQR_CHECK(d->pos[u] < d->pos[w]);
	*mark = d->rv_epoch;
	return ret;
}

/*
 * Counts every edge of the reviving channel c again, base and added, out
 * and in, each with revive_edge(): one at a time, so that each reorder
 * starts from a list in which every counted edge points up.  The first
 * refusal ends it (the caller rolls back).  DQR_DYN_REORDERED when
 * something moved, DQR_DYN_ADDED, or a negative DQR_DYN_*.
 */
static int revive_edges(struct dqr_dyn_order *d, uint32_t c)
{
	int ret, moved = 0;
	uint64_t k;
	uint32_t e;

	for (k = d->succ_off[c]; k < d->succ_off[c + 1]; k++) {
		ret = revive_edge(d, c, d->succ[k]);
		if (ret < 0)
			return ret;
		moved |= ret;
	}
	for (e = d->add_succ[c]; e != DQR_NONE; e = d->edges[e].next_succ) {
		ret = revive_edge(d, c, d->edges[e].to);
		if (ret < 0)
			return ret;
		moved |= ret;
	}
	for (k = d->pred_off[c]; k < d->pred_off[c + 1]; k++) {
		ret = revive_edge(d, d->pred[k], c);
		if (ret < 0)
			return ret;
		moved |= ret;
	}
	for (e = d->add_pred[c]; e != DQR_NONE; e = d->edges[e].next_pred) {
		ret = revive_edge(d, d->edges[e].from, c);
		if (ret < 0)
			return ret;
		moved |= ret;
	}
	return moved ? DQR_DYN_REORDERED : DQR_DYN_ADDED;
}

int dqr_dyn_revive_channel(struct dqr_dyn_order *d, uint32_t c)
{
	struct dqr_dyn_fingerprint before = dqr_dyn_fingerprint(d);
	size_t mark = d->log_len;
	int ret;

	if (!is_channel(d, c))
		return DQR_DYN_EINVAL;
	if (!d->retired[c])
		return DQR_DYN_ADDED;
	if (reserve_log(d, 1))
		return DQR_DYN_ENOMEM;
	if (d->rv_epoch == UINT32_MAX) {
		memset(d->rv_in, 0, sizeof(*d->rv_in) * d->num_vertices);
		memset(d->rv_out, 0, sizeof(*d->rv_out) * d->num_vertices);
		d->rv_epoch = 0;
	}
	d->rv_epoch++;
	d->retired[c] = 0;
	log_push(d, UNDO_REVIVE, c, 0);
	d->reviving = c;
	ret = revive_edges(d, c);
	d->reviving = DQR_NONE;
	if (ret < 0)
		dqr_dyn_rollback(d, mark);
	/* refused: the channel stays retired and nothing changed */
	DQR_CHECK(ret >= 0 || (d->retired[c] && dqr_dyn_same(d, &before)));
	return ret;
}

/* order[0 .. len) and pos[0 .. nv) describe one and the same placement. */
static int is_placement(const uint32_t *order, const uint32_t *pos,
			uint32_t len, uint32_t nv)
{
	uint32_t v, p, placed = 0;

	for (p = 0; p < len; p++) {
		v = order[p];
		if (v >= nv || pos[v] != p)
			return 0;
	}
	for (v = 0; v < nv; v++)
		placed += pos[v] != DQR_NONE;
	return placed == len;
}

int dqr_dyn_valid(const struct dqr_dyn_order *d)
{
	uint32_t v, w, e;
	uint64_t k;

	if (!is_placement(d->order, d->pos, d->len, d->num_vertices))
		return 0;
	for (v = 0; v < d->num_vertices; v++)
		for (k = d->succ_off[v]; k < d->succ_off[v + 1]; k++) {
			w = d->succ[k];
			if (d->pos[v] == DQR_NONE || d->pos[w] == DQR_NONE)
				return 0;
			if (!d->retired[v] && !d->retired[w] &&
			    d->pos[v] >= d->pos[w])
				return 0;
		}
	for (e = 0; e < d->num_added; e++) {
		v = d->edges[e].from;
		w = d->edges[e].to;
		if (!d->retired[v] && !d->retired[w] && d->pos[v] >= d->pos[w])
			return 0;
	}
	return 1;
}

int dqr_dyn_export(const struct dqr_dyn_order *d,
		   struct dqr_channel_list *cl)
{
	size_t n = d->num_vertices ? d->num_vertices : 1;
	uint32_t i;

	cl->order = malloc(sizeof(uint32_t) * n);
	cl->pos = malloc(sizeof(uint32_t) * n);
	if (!cl->order || !cl->pos) {
		dqr_channel_list_free(cl);
		return -1;
	}
	memcpy(cl->order, d->order, sizeof(uint32_t) * d->len);
	memcpy(cl->pos, d->pos, sizeof(uint32_t) * d->num_vertices);
	cl->num_vertices = d->num_vertices;
	cl->len = d->len;
	for (i = 0; i < cl->len; i++)
		DQR_CHECK(cl->pos[cl->order[i]] == i);
	return 0;
}

/* Strictly ascending succ lists: has_base_edge() may bisect them. */
static int lists_ascending(const struct dqr_cdg *g)
{
	uint32_t v;
	uint64_t k;

	for (v = 0; v < g->num_vertices; v++)
		for (k = g->succ_off[v] + 1; k < g->succ_off[v + 1]; k++)
			if (g->succ[k - 1] >= g->succ[k])
				return 0;
	return 1;
}

/* cl is a permutation of its channels and every edge of g points up. */
static int list_fits(const struct dqr_cdg *g,
		     const struct dqr_channel_list *cl)
{
	uint32_t v;
	uint64_t k;

	if (cl->num_vertices != g->num_vertices || cl->len > g->num_vertices ||
	    !is_placement(cl->order, cl->pos, cl->len, g->num_vertices))
		return 0;
	for (v = 0; v < g->num_vertices; v++)
		for (k = g->succ_off[v]; k < g->succ_off[v + 1]; k++) {
			uint32_t w = g->succ[k];

			if (w >= g->num_vertices || cl->pos[v] == DQR_NONE ||
			    cl->pos[w] == DQR_NONE || cl->pos[v] >= cl->pos[w])
				return 0;
		}
	return 1;
}

static uint32_t lowest_succ(const struct dqr_cdg *g, uint32_t v)
{
	uint32_t lo = DQR_NONE;
	uint64_t k;

	for (k = g->succ_off[v]; k < g->succ_off[v + 1]; k++)
		if (g->succ[k] < lo)
			lo = g->succ[k];
	return lo;
}

/*
 * Zeroed memory whose pages are touched now: calloc() may hand out
 * untouched pages, and the first fault's searches would pay for them.
 */
static void *zeroed(size_t size)
{
	void *p = malloc(size);

	if (p)
		memset(p, 0, size);
	return p;
}

static void *dup_array(const void *src, size_t size)
{
	void *p = malloc(size ? size : 1);

	if (p && size)
		memcpy(p, src, size);
	return p;
}

/* The searches' buffers, for n1 vertices (at least one); 0 or -1. */
static int alloc_searches(struct dqr_dyn_order *d, size_t n1)
{
	d->seen = zeroed(n1 * sizeof(uint32_t));
	d->fwd = malloc(sizeof(uint32_t) * n1);
	d->bwd = malloc(sizeof(uint32_t) * n1);
	d->merged = malloc(sizeof(uint32_t) * n1);
	d->rv_in = calloc(n1, sizeof(uint32_t));
	d->rv_out = calloc(n1, sizeof(uint32_t));
	if (!d->seen || !d->fwd || !d->bwd || !d->merged || !d->rv_in ||
	    !d->rv_out)
		return -1;
	return dyn_reach_new(d);
}

struct dqr_dyn_order *dqr_dyn_new(const struct dqr_cdg *g,
				  const struct dqr_channel_list *cl)
{
	struct dqr_dyn_order *d;
	size_t n = g->num_vertices, m = g->num_edges, n1 = n ? n : 1;
	size_t i;
	uint64_t k;

	if (!list_fits(g, cl))
		return NULL;
	d = calloc(1, sizeof(*d));
	if (!d)
		return NULL;
	d->num_vertices = g->num_vertices;
	d->len = cl->len;
	d->reviving = DQR_NONE;
	d->succ_sorted = lists_ascending(g);
	d->pos = dup_array(cl->pos, sizeof(uint32_t) * n);
	d->order = dup_array(cl->order, sizeof(uint32_t) * cl->len);
	d->retired = calloc(n1, 1);
	d->succ_off = dup_array(g->succ_off, sizeof(uint64_t) * (n + 1));
	d->pred_off = dup_array(g->pred_off, sizeof(uint64_t) * (n + 1));
	d->succ = dup_array(g->succ, sizeof(uint32_t) * m);
	d->pred = dup_array(g->pred, sizeof(uint32_t) * m);
	d->add_succ = malloc(sizeof(uint32_t) * n1);
	d->add_pred = malloc(sizeof(uint32_t) * n1);
	d->win = malloc(sizeof(uint32_t) * n1);
	d->bits = zeroed(n1 * sizeof(*d->bits));
	if (alloc_searches(d, n1) || !d->win || !d->bits ||
	    !d->pos || !d->order || !d->retired || !d->succ_off ||
	    !d->pred_off || !d->succ || !d->pred || !d->add_succ ||
	    !d->add_pred) {
		dqr_dyn_free(d);
		return NULL;
	}
	for (i = 0; i < n; i++) {
		d->add_succ[i] = d->add_pred[i] = DQR_NONE;
		d->win[i] = DQR_NONE;
		if (g->succ_off[i] < g->succ_off[i + 1])
			d->win[i] = lowest_succ(g, (uint32_t)i);
		for (k = g->succ_off[i]; k < g->succ_off[i + 1]; k++)
			set_bit(d, (uint32_t)i, g->succ[k], 1);
	}
	return d;
}

/*
 * Every array that holds the list's state is copied; the search buffers
 * and the caches of refused turns start empty, as they may (dyn_reach.c
 * keeps only what a later search may find again).
 */
struct dqr_dyn_order *dqr_dyn_clone(const struct dqr_dyn_order *s)
{
	struct dqr_dyn_order *d;
	size_t n = s->num_vertices, n1 = n ? n : 1;
	size_t m = s->succ_off[n];

	/* a copy between an addition and its commit would lose the log */
	DQR_CHECK(s->reviving == DQR_NONE);
	d = calloc(1, sizeof(*d));
	if (!d)
		return NULL;
	d->num_vertices = s->num_vertices;
	d->len = s->len;
	d->reviving = DQR_NONE;
	d->succ_sorted = s->succ_sorted;
	d->num_added = d->cap_added = s->num_added;
	d->num_reorders = s->num_reorders;
	d->num_moved = s->num_moved;
	d->version = s->version;
	d->versions = s->versions;
	d->pos = dup_array(s->pos, sizeof(uint32_t) * n);
	d->order = dup_array(s->order, sizeof(uint32_t) * s->len);
	d->retired = dup_array(s->retired, n1);
	d->succ_off = dup_array(s->succ_off, sizeof(uint64_t) * (n + 1));
	d->pred_off = dup_array(s->pred_off, sizeof(uint64_t) * (n + 1));
	d->succ = dup_array(s->succ, sizeof(uint32_t) * m);
	d->pred = dup_array(s->pred, sizeof(uint32_t) * m);
	d->edges = dup_array(s->edges, sizeof(*d->edges) * s->num_added);
	d->add_succ = dup_array(s->add_succ, sizeof(uint32_t) * n1);
	d->add_pred = dup_array(s->add_pred, sizeof(uint32_t) * n1);
	d->win = dup_array(s->win, sizeof(uint32_t) * n1);
	d->bits = dup_array(s->bits, sizeof(*d->bits) * n1);
	if (alloc_searches(d, n1) || !d->pos || !d->order || !d->retired ||
	    !d->succ_off || !d->pred_off || !d->succ || !d->pred ||
	    !d->edges || !d->add_succ || !d->add_pred || !d->win ||
	    !d->bits) {
		dqr_dyn_free(d);
		return NULL;
	}
	return d;
}

void dqr_dyn_free(struct dqr_dyn_order *d)
{
	if (!d)
		return;
	dyn_reach_free(d);
	DQR_FREE_ALL(d->pos, d->order, d->retired, d->succ_off, d->pred_off,
		     d->succ, d->pred, d->edges, d->add_succ, d->add_pred,
		     d->seen, d->fwd, d->bwd, d->merged, d->rv_in, d->rv_out,
		     d->log, d->win, d->bits, d);
}
