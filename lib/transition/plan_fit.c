/*
 * plan_fit.c - the planner's second step (transition.h, step 2): first
 * fit of the candidates into the open stage, everything at once, else in
 * OSR order, destination by destination, then entry by entry.  Separate
 * from the scheduling loop (transition.c), which only decides when a
 * stage opens, closes or must be forced.
 *
 * Per stage the planner keeps the state in force as a dynamic channel
 * order (dyn_order.c) and adds a candidate's few new dependencies to it,
 * taking them back when one would close a cycle; without that order each
 * try is a whole union check (union_check.c).
 */
#include <stdlib.h>
#include <string.h>

#include "transition/transition-internal.h"

/* Puts one entry on the open stage's new side. */
void planner_stage_put(struct planner *pl, uint32_t i)
{
	const struct dqr_plan_entry *e = &pl->e[i];
	uint32_t k;

	ent_set(pl->u.b, e->sw, e->lid, e->new_port);
	pl->s_ent[pl->s_n++] = i;
	pl->state[i] = ENT_STAGED;
	for (k = pl->succ_off[i]; k < pl->succ_off[i + 1]; k++)
		pl->pleft[pl->succ[k]]--;
	if (pl->lmark[e->lid] != pl->epoch) {
		pl->lmark[e->lid] = pl->epoch;
		pl->clids[pl->nclids++] = e->lid;
	}
}

/* Takes back the last n entries put into the open stage. */
static void stage_drop(struct planner *pl, uint32_t n)
{
	uint32_t i, k;

	while (n--) {
		i = pl->s_ent[--pl->s_n];
		ent_set(pl->u.b, pl->e[i].sw, pl->e[i].lid,
			pl->e[i].old_port);
		pl->state[i] = ENT_PENDING;
		for (k = pl->succ_off[i]; k < pl->succ_off[i + 1]; k++)
			pl->pleft[pl->succ[k]]++;
	}
}

/* The DLIDs of the open stage: where a and b differ. */
void planner_stage_lids(struct planner *pl)
{
	uint32_t i, lid;

	pl->nslids = 0;
	for (i = 0; i < pl->s_n; i++) {
		lid = pl->e[pl->s_ent[i]].lid;
		if (pl->smark[lid] != pl->epoch) {
			pl->smark[lid] = pl->epoch;
			pl->slids[pl->nslids++] = lid;
		}
	}
}

/*
 * Tries candidates [lo, hi) in the open stage.  Only their DLIDs can
 * have a new loop; the dependencies are judged whole.  1 kept, 0 taken
 * back, -1 out of memory.
 */
static int try_add(struct planner *pl, uint32_t lo, uint32_t hi)
{
	struct dqr_union_verdict v;
	uint32_t before = pl->s_n, i;
	int r;

	pl->nclids = 0;
	pl->epoch++;
	for (i = lo; i < hi; i++)
		planner_stage_put(pl, pl->cand[i]);
	planner_stage_lids(pl);
	r = uchk_judge(&pl->u, pl->clids, pl->nclids, pl->slids, pl->nslids,
		       0, &v);
	dqr_union_verdict_release(&v);
	if (r <= 0)
		stage_drop(pl, pl->s_n - before);
	return r;
}

/* The old tables' channel list: where OSR's tokens would pass first. */
static int old_keys(struct planner *pl)
{
	struct dqr_channel_list cl;
	uint32_t i, c, *pos = NULL;
	int r;

	pl->keys_done = 1;
	if (!pl->u.no_cdg) {
		r = dqr_channel_list_of_tables(pl->f, &pl->from, 1, &cl, NULL,
					       NULL);
		if (r < 0)
			return -1;
		if (r == 0) {
			pos = cl.pos;
			free(cl.order);
		}
	}
	/* no old channel, no old traffic: such an entry may go first */
	for (i = 0; i < pl->n; i++) {
		c = out_ch(pl->f, pl->e[i].sw, pl->e[i].old_port);
		pl->key[i] = c == DQR_NONE || !pos ? 0 : pos[c] + 1;
	}
	free(pos);
	return 0;
}

/* A candidate's sort keys, most significant first. */
enum { K_GROUP, K_LID, K_LEVEL, K_KEY, K_IDX, NUM_KEYS };

struct sort_key {
	uint32_t k[NUM_KEYS];
};

static int cmp_key(const void *pa, const void *pb)
{
	const struct sort_key *a = pa, *b = pb;
	unsigned i;

	for (i = 0; i < NUM_KEYS; i++)
		if (a->k[i] != b->k[i])
			return a->k[i] < b->k[i] ? -1 : 1;
	return 0;
}

/*
 * Orders candidates as OSR's tokens would switch them: by the old
 * channel-dependency order of their old out-channel, upstream first;
 * destinations by their most upstream entry, kept together.  cand[] is
 * LID-major on entry.
 */
int planner_sort_cand(struct planner *pl, uint32_t n)
{
	struct sort_key *k;
	uint32_t i, j, min;

	if (!pl->keys_done && old_keys(pl))
		return -1;
	k = malloc(sizeof(*k) * (n ? n : 1));
	if (!k)
		return -1;
	for (i = 0; i < n; i++) {
		k[i].k[K_IDX] = pl->cand[i];
		k[i].k[K_KEY] = pl->key[pl->cand[i]];
		k[i].k[K_LID] = pl->e[pl->cand[i]].lid;
		k[i].k[K_LEVEL] = pl->level[pl->cand[i]];
	}
	/* a destination goes where its most upstream entry goes */
	for (i = 0; i < n; i = j) {
		min = k[i].k[K_KEY];
		for (j = i; j < n && k[j].k[K_LID] == k[i].k[K_LID]; j++)
			if (k[j].k[K_KEY] < min)
				min = k[j].k[K_KEY];
		while (i < j)
			k[i++].k[K_GROUP] = min;
	}
	qsort(k, n, sizeof(*k), cmp_key);
	for (i = 0; i < n; i++)
		pl->cand[i] = k[i].k[K_IDX];
	free(k);
	return 0;
}

/*
 * Pending entries whose predecessors are staged or done (all, when
 * any_order), that have not failed with the open stage; LID-major.
 */
uint32_t planner_collect_cand(struct planner *pl, int any_order)
{
	uint32_t i, n = 0;

	for (i = 0; i < pl->n; i++)
		if (pl->state[i] == ENT_PENDING && !pl->failed[i] &&
		    (any_order || !pl->pleft[i]))
			pl->cand[n++] = i;
	return n;
}

/* Runs of equal DLID among the candidates: one group per destination. */
static uint32_t make_groups(struct planner *pl, uint32_t n)
{
	uint32_t i, ng = 0;

	for (i = 0; i < n; i++) {
		if (ng && pl->e[pl->cand[i]].lid ==
			  pl->e[pl->cand[pl->grp[ng - 1].lo]].lid) {
			pl->grp[ng - 1].hi = i + 1;
			continue;
		}
		pl->grp[ng].lo = i;
		pl->grp[ng++].hi = i + 1;
	}
	return ng;
}

/* 0 added or present, 1 it would close a cycle, -1 out of memory. */
static int order_add(struct planner *pl, uint32_t v, uint32_t w)
{
	int r = dqr_dyn_add(pl->dord, v, w);

	if (r == DQR_DYN_ENOMEM)
		return -1;
	return r == DQR_DYN_CYCLE || r == DQR_DYN_EINVAL;
}

/*
 * The dependencies the union gains when entry i (already on the open
 * stage's b side) may forward by its new port q at X: every channel that
 * carries the DLID into X (by a or b), and every end port at X that does
 * not own it, now depends on X->q; X->q depends on what the next switch
 * does by a or b.  A hop back out of the port it came in on is no
 * dependency: the switch drops the packet (fabric/relay.h).  A
 * dependency between two staged entries is added when the later of them
 * is, since each looks at the other's b side.
 */
static int entry_deps(struct planner *pl, uint32_t i)
{
	const struct dqr_fabric *f = pl->f;
	const struct dqr_plan_entry *e = &pl->e[i];
	struct uchk *u = &pl->u;
	uint32_t node = f->switches[e->sw], cq, r, w, y, k, lid = e->lid;
	unsigned p, ny;
	uint8_t yp[2];
	int ret;

	cq = out_ch(f, e->sw, e->new_port);
	if (cq == DQR_NONE || !lid_judged(f, lid))
		return 0;
	dqr_for_each_linked_port(f, node, p) {
		w = dqr_peer_switch(f, f->nodes[node].port_base + p);
		if (w == DQR_NONE)
			continue;
		r = dqr_peer_port(f, f->nodes[node].port_base + p);
		if (!dqr_relays(f, r, cq))
			continue;
		if (ent(u->a, w, lid) != f->ports[r].num &&
		    ent(u->b, w, lid) != f->ports[r].num)
			continue;
		ret = order_add(pl, r, cq);
		if (ret)
			return ret;
	}
	for (k = u->end_off[e->sw]; k < u->end_off[e->sw + 1]; k++) {
		const struct dqr_port *ep = &f->ports[u->end_at[k]];

		if (ep->base_lid && lid >= ep->base_lid &&
		    lid < ep->base_lid + (1u << ep->lmc))
			continue;
		ret = order_add(pl, u->end_at[k], cq);
		if (ret)
			return ret;
	}
	y = dqr_peer_switch(f, cq);
	if (y == DQR_NONE)
		return 0;
	ny = uchk_ports(u, u->b, y, lid, yp);
	for (k = 0; k < ny; k++) {
		if (!dqr_relays(f, cq, out_ch(f, y, yp[k])))
			continue;
		ret = order_add(pl, cq, out_ch(f, y, yp[k]));
		if (ret)
			return ret;
	}
	return 0;
}

/*
 * try_add() on the dependency order: candidates [lo, hi) go in one by
 * one, with their dependencies; the first refusal takes them all back.
 */
static int try_add_inc(struct planner *pl, uint32_t lo, uint32_t hi)
{
	size_t mark = dqr_dyn_mark(pl->dord);
	uint32_t before = pl->s_n, i, k;
	int r = 0;

	pl->u.checks++;
	pl->nclids = 0;
	pl->epoch++;
	for (i = lo; i < hi && !r; i++) {
		planner_stage_put(pl, pl->cand[i]);
		r = entry_deps(pl, pl->cand[i]);
	}
	for (k = 0; k < pl->nclids && !r; k++)
		if (!pl->u.skip_loop[pl->clids[k]] &&
		    lid_judged(pl->f, pl->clids[k]) &&
		    uchk_loops(&pl->u, pl->clids[k], NULL))
			r = 1;
	if (!r)
		return 1;
	dqr_dyn_rollback(pl->dord, mark);
	stage_drop(pl, pl->s_n - before);
	return r < 0 ? -1 : 0;
}

/*
 * Group i did not fit: a destination of several entries becomes one
 * group per entry, to be tried again (1); a single entry is marked failed
 * for this stage (0).
 */
static int split_group(struct planner *pl, uint32_t i, uint32_t *ng)
{
	uint32_t lo = pl->grp[i].lo, k = pl->grp[i].hi - lo, s;

	if (k <= 1) {
		pl->failed[pl->cand[lo]] = 1;
		return 0;
	}
	memmove(pl->grp + i + k, pl->grp + i + 1,
		sizeof(*pl->grp) * (*ng - i - 1));
	for (s = 0; s < k; s++) {
		pl->grp[i + s].lo = lo + s;
		pl->grp[i + s].hi = lo + s + 1;
	}
	*ng += k - 1;
	return 1;
}

/*
 * First fit on the dependency order: destination by destination, an
 * entry at a time for a destination that does not fit whole.  Tried in
 * DLID order first; at the first refusal everything is taken back and
 * tried again in OSR order, so that the outcome is the one of
 * planner_fit().
 */
static int fit_inc(struct planner *pl, uint32_t n, uint32_t *added)
{
	uint32_t ng, i, before = pl->s_n;
	size_t mark = dqr_dyn_mark(pl->dord);
	int r, sorted = 0;

	*added = 0;
	ng = make_groups(pl, n);
	for (i = 0; i < ng; i++) {
		if (pl->u.checks >= pl->budget)
			break;
		r = try_add_inc(pl, pl->grp[i].lo, pl->grp[i].hi);
		if (r < 0)
			return -1;
		if (r)
			continue;
		if (!sorted) {
			sorted = 1;
			pl->rep->splits++;
			dqr_dyn_rollback(pl->dord, mark);
			stage_drop(pl, pl->s_n - before);
			if (planner_sort_cand(pl, n))
				return -1;
			ng = make_groups(pl, n);
			i = (uint32_t)-1;
			continue;
		}
		if (split_group(pl, i, &ng))
			i--;
	}
	*added = pl->s_n - before;
	return 0;
}

/*
 * First fit of n candidates into the open stage: everything at once (the
 * usual case), else in OSR order, runs of destinations that double
 * while they fit and halve when they do not.  A destination that does
 * not fit is split into its entries; an entry that does not fit is
 * marked failed for this stage (a stage only grows, so it never fits
 * later).  *added counts what went in.
 */
int planner_fit(struct planner *pl, uint32_t n, uint32_t *added)
{
	uint32_t ng, i, c, chunk, before = pl->s_n;
	int r;

	*added = 0;
	if (pl->dord)
		return fit_inc(pl, n, added);
	r = try_add(pl, 0, n);
	if (r) {
		*added = r > 0 ? n : 0;
		return r < 0 ? -1 : 0;
	}
	pl->rep->splits++;
	if (planner_sort_cand(pl, n))
		return -1;
	ng = make_groups(pl, n);
	chunk = ng > 1 ? ng / 2 : 1;
	i = 0;
	while (i < ng) {
		if (pl->u.checks >= pl->budget)
			break;
		c = chunk < ng - i ? chunk : ng - i;
		r = try_add(pl, pl->grp[i].lo, pl->grp[i + c - 1].hi);
		if (r < 0)
			return -1;
		if (r) {
			i += c;
			chunk = 2 * c;
			continue;
		}
		if (c > 1) {
			chunk = c / 2;
			continue;
		}
		if (!split_group(pl, i, &ng))
			i++;
		chunk = 1;
	}
	*added = pl->s_n - before;
	return 0;
}
