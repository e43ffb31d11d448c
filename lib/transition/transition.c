/*
 * transition.c - the planner (transition.h): list scheduling of the
 * changed entries into stages, and the judgement of the tables at both
 * ends.  Its first step, the order per destination, is plan_order.c; the
 * filling of one stage is plan_fit.c; the union check behind both is
 * union_check.c.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "transition/transition-internal.h"
#include "util/check.h"
#include "util/sort.h"
#include "util/timing.h"

static void reason_add(struct dqr_plan_report *rep, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void reason_add(struct dqr_plan_report *rep, const char *fmt, ...)
{
	size_t used = strlen(rep->reason);
	va_list ap;

	if (used + 3 >= sizeof(rep->reason))
		return;
	if (used) {
		strcpy(rep->reason + used, "; ");
		used += 2;
	}
	va_start(ap, fmt);
	vsnprintf(rep->reason + used, sizeof(rep->reason) - used, fmt, ap);
	va_end(ap);
}

/* Whether the tables as they stand are cyclic; the reason names which. */
static int tables_cyclic(struct planner *pl, const char *which)
{
	struct dqr_union_verdict v;
	char buf[1500];
	int cyclic;

	if (uchk_judge(&pl->u, NULL, 0, NULL, 0, JUDGE_ALL | JUDGE_CYCLE,
		       &v) < 0)
		return -1;
	cyclic = v.cyclic;
	if (cyclic) {
		dqr_format_verdict(pl->f, &v, buf, sizeof(buf));
		reason_add(pl->rep, "the %s tables have a %s", which, buf);
	}
	dqr_union_verdict_release(&v);
	return cyclic;
}

/*
 * Loops and dependency cycles of the old and the new tables alone.  What
 * they already hold no order can remove: DLIDs that loop in either are
 * not judged for loops, and when either is cyclic dependencies are not
 * judged at all (the plan is then unsafe, but still loop free).
 */
static int check_ends(struct planner *pl)
{
	struct uchk *u = &pl->u;
	uint32_t lid, old_loops = 0, new_loops = 0, first_old = 0;
	uint32_t first_new = 0;
	uint8_t *lp;
	int old_cyc, new_cyc;

	lp = calloc(u->lc ? u->lc : 1, 1);
	if (!lp)
		return -1;
	for (lid = 1; lid < u->lc; lid++)
		if (lid_judged(pl->f, lid) && uchk_loops(u, lid, NULL)) {
			lp[lid] = 1;
			if (!old_loops++)
				first_old = lid;
		}
	old_cyc = tables_cyclic(pl, "old");
	if (old_cyc < 0)
		goto nomem;

	uchk_set_both(&pl->u, pl->e, pl->n, 1);
	for (lid = 1; lid < u->lc; lid++) {
		if (!lid_judged(pl->f, lid))
			continue;
		if (u->active[lid] ? uchk_loops(u, lid, NULL) : lp[lid]) {
			lp[lid] |= 2;
			if (!new_loops++)
				first_new = lid;
		}
	}
	new_cyc = tables_cyclic(pl, "new");
	if (new_cyc < 0) {
		uchk_set_both(&pl->u, pl->e, pl->n, 0);
		goto nomem;
	}
	uchk_set_both(&pl->u, pl->e, pl->n, 0);

	if (old_loops)
		reason_add(pl->rep, "the old tables loop towards %u DLIDs "
			   "(DLID %u first)", old_loops, first_old);
	if (new_loops)
		reason_add(pl->rep, "the new tables loop towards %u DLIDs "
			   "(DLID %u first)", new_loops, first_new);
	for (lid = 0; lid < u->lc; lid++)
		u->skip_loop[lid] = lp[lid] != 0;
	u->no_cdg = old_cyc || new_cyc;
	pl->rep->old_ok = !old_loops && !old_cyc;
	pl->rep->new_ok = !new_loops && !new_cyc;
	free(lp);
	return 0;
nomem:
	free(lp);
	return -1;
}

/* Closes the open stage: its entries are in force from now on. */
static void commit_stage(struct planner *pl)
{
	struct dqr_plan *p = pl->plan;
	uint32_t i, k, n = pl->s_n;

	memset(pl->failed, 0, pl->n);
	if (!n)
		return;
	for (i = 0; i < n; i++) {
		const struct dqr_plan_entry *x = &pl->e[pl->s_ent[i]];

		ent_set(pl->u.a, x->sw, x->lid, x->new_port);
		/* each entry goes in one stage, once */
		DQR_CHECK(pl->state[pl->s_ent[i]] == ENT_STAGED);
		pl->state[pl->s_ent[i]] = ENT_DONE;
		p->entries[p->stage_off[p->num_stages] + i] = *x;
	}
	k = p->num_stages++;
	p->stage_off[k + 1] = p->stage_off[k] + n;
	p->stage_num[k] = k + 1;
	p->stage_reconf[k] = 0;
	p->num_entries += n;
	if (n > pl->rep->max_stage)
		pl->rep->max_stage = n;
	pl->s_n = 0;
	uchk_rebase(&pl->u);
	dqr_dyn_free(pl->dord);
	pl->dord = NULL;
}

/*
 * Opens a stage: the dependency order of the state in force (a; the
 * stage is empty).  When that state is cyclic, which only a forced
 * stage leaves behind, no union can be acyclic until enough of the
 * change is in: stages are then judged for loops only, and count as
 * forced, so that the unsafe stretch lasts as few stages as it can.
 */
static int open_stage(struct planner *pl)
{
	struct uchk *u = &pl->u;
	struct dqr_channel_list cl;
	struct dqr_cdg *g;
	int r;

	u->no_cdg = pl->no_cdg;
	pl->loops_only = 0;
	if (pl->no_cdg)
		return 0;
	uchk_add_injection(u);
	g = uchk_turns_to_cdg(u);
	uchk_clear_dyn(u);
	if (!g)
		return -1;
	r = dqr_channel_list_build(pl->f, g, &cl, NULL);
	if (r == 0) {
		pl->dord = dqr_dyn_new(g, &cl);
		dqr_channel_list_free(&cl);
		if (!pl->dord)
			r = -1;
	}
	dqr_cdg_free(g);
	if (r == 1) {
		u->no_cdg = 1;
		pl->loops_only = 1;
	}
	return r < 0 ? -1 : 0;
}

/*
 * Stages the first candidate although its union fails: nothing that may
 * go now fits even alone, so no order can bridge it from here.  It goes
 * alone, the least that can be at risk, and the reason is kept.
 */
static int force_first(struct planner *pl)
{
	const struct dqr_fabric *f = pl->f;
	const struct dqr_plan_entry *e;
	struct dqr_union_verdict v;
	uint32_t n;
	char buf[1500];
	int r;

	memset(pl->failed, 0, pl->n);
	n = planner_collect_cand(pl, 0);
	if (!n)
		n = planner_collect_cand(pl, 1);
	if (planner_sort_cand(pl, n))
		return -1;
	e = &pl->e[pl->cand[0]];
	pl->nclids = 0;
	pl->epoch++;
	planner_stage_put(pl, pl->cand[0]);
	planner_stage_lids(pl);
	r = uchk_judge(&pl->u, pl->clids, pl->nclids, pl->slids, pl->nslids,
		       JUDGE_ALL | JUDGE_CYCLE, &v);
	if (r < 0)
		return -1;
	pl->rep->safe = 0;
	if (!pl->rep->forced++) {
		dqr_format_verdict(f, &v, buf, sizeof(buf));
		reason_add(pl->rep, "no safe order: switch 0x%016" PRIx64
			   " (%s) DLID %u port %u -> %u fails whatever goes "
			   "before it: %s",
			   f->nodes[f->switches[e->sw]].guid,
			   dqr_node_name(f, f->switches[e->sw]), e->lid,
			   e->old_port, e->new_port, buf);
	}
	dqr_union_verdict_release(&v);
	return 0;
}

/* Past the check budget: what is left goes level by level, unchecked. */
static void place_unchecked(struct planner *pl)
{
	uint32_t lv, i;

	reason_add(pl->rep, "check budget of %" PRIu64 " union checks "
		   "exhausted: the rest is staged by its order, unchecked",
		   pl->budget);
	pl->rep->safe = 0;
	if (pl->loops_only)
		pl->rep->forced += pl->s_n;
	commit_stage(pl);
	for (lv = 0; lv < pl->num_levels; lv++) {
		for (i = 0; i < pl->n; i++)
			if (pl->state[i] == ENT_PENDING && pl->level[i] == lv) {
				pl->nclids = 0;
				planner_stage_put(pl, i);
				pl->rep->forced++;
			}
		commit_stage(pl);
	}
}

/*
 * List scheduling: a stage takes, wave after wave, every entry whose
 * predecessors in its destination's order are staged or done and whose
 * addition keeps the union check.  When nothing fits even alone, the
 * order is relaxed (any pending entry that fits alone), and only then is
 * an entry forced.
 */
static int plan_stages(struct planner *pl)
{
	uint32_t left = pl->n, n, added;
	int relaxed, forced;

	while (left) {
		relaxed = 0;
		forced = 0;
		if (open_stage(pl))
			return -1;
		for (;;) {
			if (pl->u.checks >= pl->budget) {
				place_unchecked(pl);
				return 0;
			}
			n = planner_collect_cand(pl, relaxed);
			added = 0;
			if (n && planner_fit(pl, n, &added))
				return -1;
			if (added) {
				relaxed = 0;
				continue;
			}
			if (pl->s_n)
				break;
			if (!relaxed) {
				relaxed = 1;
				continue;
			}
			if (force_first(pl))
				return -1;
			forced = 1;
			break;
		}
		if (pl->loops_only) {
			if (!pl->rep->stages_cyclic++)
				reason_add(pl->rep, "the state after a forced "
					   "stage is cyclic: later stages are "
					   "judged for loops only while it "
					   "is");
			pl->rep->forced += pl->s_n - forced;
			pl->rep->safe = 0;
		}
		left -= pl->s_n;
		commit_stage(pl);
	}
	pl->u.no_cdg = pl->no_cdg;
	return 0;
}

/* Stage s's DLIDs into lids (*n of them), each once per epoch. */
static void drain_lids_add(const struct dqr_plan *p, uint32_t s,
			   uint32_t *mark, uint32_t epoch, uint32_t *lids,
			   uint32_t *n)
{
	uint32_t i, lid;

	for (i = p->stage_off[s]; i < p->stage_off[s + 1]; i++) {
		lid = p->entries[i].lid;
		if (mark[lid] != epoch) {
			mark[lid] = epoch;
			lids[(*n)++] = lid;
		}
	}
}

/* The time order of p's entries for u (transition-internal.h). */
struct time_order {
	uint32_t *off, *idx, *stage, *sw_stage;
};

static void time_order_free(struct time_order *t)
{
	free(t->off);
	free(t->idx);
	free(t->stage);
	free(t->sw_stage);
}

/*
 * The time order of p for u: each entry's stage, the entries of every LID
 * (CSR over LIDs) and a per-switch stage slot, so that drains_mark() can
 * leave out the turns a packet cannot meet (a switch that changed before
 * another cannot forward by its old entry after it).  0, or -1 when out
 * of memory.
 */
static int time_order_build(struct uchk *u, const struct dqr_plan *p,
			    struct time_order *t)
{
	uint32_t i, s, n = p->num_entries;

	t->off = calloc((size_t)u->lc + 1, sizeof(uint32_t));
	t->idx = malloc(sizeof(uint32_t) * (n + 1));
	t->stage = malloc(sizeof(uint32_t) * (n + 1));
	t->sw_stage = malloc(sizeof(uint32_t) * (u->ns + 1));
	if (!t->off || !t->idx || !t->stage || !t->sw_stage) {
		time_order_free(t);
		return -1;
	}
	for (s = 0; s < p->num_stages; s++)
		for (i = p->stage_off[s]; i < p->stage_off[s + 1]; i++)
			t->stage[i] = s;
	for (i = 0; i < n; i++)
		t->off[p->entries[i].lid + 1]++;
	for (i = 0; i < u->lc; i++)
		t->off[i + 1] += t->off[i];
	for (i = 0; i < n; i++)
		t->idx[t->off[p->entries[i].lid]++] = i;
	for (i = u->lc; i > 0; i--)
		t->off[i] = t->off[i - 1];
	t->off[0] = 0;
	for (i = 0; i < u->ns; i++)
		t->sw_stage[i] = DQR_NONE;
	u->t_off = t->off;
	u->t_idx = t->idx;
	u->t_stage = t->stage;
	u->t_ent = p->entries;
	u->sw_stage = t->sw_stage;
	return 0;
}

/*
 * Which stages must wait the drain (plan.h, doc/transitions.md).  u's a
 * and b hold state 0 with every DLID of p active; mark (per LID, below
 * *epoch) and lids (one per entry) are the caller's.  a holds state w,
 * whose older packets are gone, b state k; every entry changes once, so
 * the dependencies of packets routed by states w .. k are the turns of
 * their union, less those time forbids (turn_too_late in
 * union_check.c): one check per stage over the DLIDs changed since w.
 * Loops are not judged: the planner keeps the union of consecutive
 * states loop free, and an entry changes only forward in time.  When
 * the check fails, stage k waits and w becomes k - 1.  The checks are
 * not counted in u->checks.
 *
 * With stop below p->num_stages, p's own flags say where it waits and
 * nothing is marked: stage stop is judged naming a cycle into *why (the
 * caller releases it), and the judgement ends there.
 */
static int drains_mark(struct uchk *u, struct dqr_plan *p, uint32_t *mark,
		       uint32_t *epoch, uint32_t *lids, uint32_t stop,
		       struct dqr_union_verdict *why)
{
	struct dqr_union_verdict v;
	struct time_order t;
	uint64_t checks = u->checks;
	uint32_t k, w = 0, n = 0;
	int r = 0, no_cdg = u->no_cdg, waits;

	if (p->num_stages < 2 || no_cdg)
		return 0;
	if (time_order_build(u, p, &t))
		return -1;
	ent_set_side(u->b, p->entries, 0, p->stage_off[1], 1);
	drain_lids_add(p, 0, mark, ++*epoch, lids, &n);
	for (k = 1; k < p->num_stages; k++) {
		ent_set_side(u->b, p->entries, p->stage_off[k],
			     p->stage_off[k + 1], 1);
		drain_lids_add(p, k, mark, *epoch, lids, &n);
		r = uchk_judge(u, lids, 0, lids, n, k == stop ? JUDGE_CYCLE : 0,
			       k == stop ? why : &v);
		if (k == stop)
			break;
		dqr_union_verdict_release(&v);
		if (r < 0)
			break;
		waits = stop < p->num_stages ? p->stage_drain[k] != 0 : !r;
		if (stop >= p->num_stages)
			p->stage_drain[k] = r ? 0 : DQR_DRAIN_CYCLE;
		if (!waits)
			continue;
		/* after the drain only state k - 1 (index k) is in flight */
		ent_set_side(u->a, p->entries, p->stage_off[w],
			     p->stage_off[k], 1);
		uchk_rebase(u);
		w = k;
		n = 0;
		drain_lids_add(p, k, mark, ++*epoch, lids, &n);
	}
	u->t_off = NULL;
	u->sw_stage = NULL;
	time_order_free(&t);
	u->checks = checks;
	return r < 0 ? -1 : 0;
}

/* A plan that cannot be judged: every stage after the first waits. */
static void wait_every_stage(struct dqr_plan *p)
{
	uint32_t k;

	for (k = 0; k < p->num_stages; k++)
		p->stage_drain[k] = k ? DQR_DRAIN_UNSAFE : 0;
}

/* The planner's drains: judged in a safe plan; in another every stage
 * waits, as its own unions may fail. */
static int mark_drains(struct planner *pl)
{
	struct dqr_plan *p = pl->plan;

	if (!pl->rep->safe) {
		wait_every_stage(p);
		return 0;
	}
	uchk_set_both(&pl->u, p->entries, p->num_entries, 0);
	return drains_mark(&pl->u, p, pl->smark, &pl->epoch, pl->slids,
			   DQR_NONE, NULL);
}

/*
 * 1 when some (switch, LID) entry changes in more than one stage of p
 * (a re-routing layer's plan, or several records read together): then
 * the union of two states no longer covers the states between them.
 * -1 when out of memory.
 */
static int entry_repeats(const struct dqr_plan *p, uint32_t lc)
{
	uint64_t *key = malloc(sizeof(*key) * (p->num_entries + 1));
	uint32_t i;
	int ret = 0;

	if (!key)
		return -1;
	for (i = 0; i < p->num_entries; i++)
		key[i] = (uint64_t)p->entries[i].sw * lc + p->entries[i].lid;
	qsort(key, p->num_entries, sizeof(*key), dqr_cmp_u64);
	for (i = 1; i < p->num_entries && !ret; i++)
		ret = key[i] == key[i - 1];
	free(key);
	return ret;
}

int dqr_plan_wait_cycle(const struct dqr_fabric *f,
			const struct dqr_lfts *from, const struct dqr_plan *p,
			uint32_t s, char *buf, size_t len)
{
	struct dqr_union_verdict v;
	struct uchk u;
	uint32_t lc = from->lid_count, i, epoch = 0;
	uint32_t *mark = NULL, *lids = NULL;
	int ret = -1, r;

	memset(&v, 0, sizeof(v));
	if (len)
		buf[0] = '\0';
	if (s < 1 || s >= p->num_stages || !p->stage_drain)
		return 0;
	for (i = 0; i < p->num_entries; i++)
		if (p->entries[i].lid >= lc)
			lc = p->entries[i].lid + 1;
	if (uchk_init(&u, f, from, lc))
		return -1;
	mark = calloc(lc, sizeof(uint32_t));
	lids = malloc(sizeof(uint32_t) * (p->num_entries + 1));
	if (mark && lids) {
		for (i = 0; i < p->stage_off[s + 1]; i++)
			u.active[p->entries[i].lid] = 1;
		uchk_seal(&u);
		/* p's flags are read, not written, when stop is a stage */
		r = drains_mark(&u, (struct dqr_plan *)p, mark, &epoch, lids,
				s, &v);
		ret = r < 0 ? -1 : 0;
		if (!ret && v.cyclic)
			dqr_format_verdict(f, &v, buf, len);
		dqr_union_verdict_release(&v);
	}
	free(mark);
	free(lids);
	uchk_release(&u);
	return ret;
}

int dqr_plan_mark_drains(const struct dqr_fabric *f,
			 const struct dqr_lfts *from, struct dqr_plan *p)
{
	struct uchk u;
	uint32_t lc = from->lid_count, i, epoch = 0;
	uint32_t *mark = NULL, *lids = NULL;
	int ret = -1, rep;

	for (i = 0; i < p->num_entries; i++)
		if (p->entries[i].lid >= lc)
			lc = p->entries[i].lid + 1;
	if (!p->stage_drain)
		p->stage_drain = calloc((size_t)p->num_stages + 1, 1);
	if (!p->stage_drain)
		return -1;
	/* until judged, every stage after the first waits */
	wait_every_stage(p);
	rep = entry_repeats(p, lc);
	if (rep)
		return rep < 0 ? -1 : 0;
	if (uchk_init(&u, f, from, lc))
		return -1;
	mark = calloc(lc, sizeof(uint32_t));
	lids = malloc(sizeof(uint32_t) * (p->num_entries + 1));
	if (mark && lids) {
		for (i = 0; i < p->num_entries; i++)
			u.active[p->entries[i].lid] = 1;
		uchk_seal(&u);
		memset(p->stage_drain, 0, p->num_stages);
		ret = drains_mark(&u, p, mark, &epoch, lids, DQR_NONE, NULL);
		if (ret < 0)
			wait_every_stage(p);
	}
	free(mark);
	free(lids);
	uchk_release(&u);
	return ret;
}

/* Stages w .. k of p as a plan of their own, into q (0, or -1). */
static int plan_window(const struct dqr_plan *p, uint32_t w, uint32_t k,
		       struct dqr_plan *q)
{
	uint32_t lo = p->stage_off[w], hi = p->stage_off[k + 1], s;

	if (dqr_plan_alloc(q, hi - lo))
		return -1;
	memcpy(q->entries, p->entries + lo, sizeof(*q->entries) * (hi - lo));
	for (s = w; s <= k + 1; s++)
		q->stage_off[s - w] = p->stage_off[s] - lo;
	for (s = 0; s <= k - w; s++) {
		q->stage_num[s] = s + 1;
		q->stage_reconf[s] = 0;
	}
	q->num_entries = hi - lo;
	q->num_stages = k - w + 1;
	dqr_plan_check(q);
	return 0;
}

int64_t dqr_plan_laxer_drains(const struct dqr_fabric *f,
			      const struct dqr_lfts *from,
			      const struct dqr_plan *p, uint64_t *checked)
{
	uint32_t k, w = 0, i;
	int64_t lax = 0;

	for (k = 1; k < p->num_stages; k++) {
		struct dqr_lfts *tw;
		struct dqr_plan q;
		int bad;

		if (p->stage_drain[k]) {
			w = k;
			continue;
		}
		tw = dqr_lfts_clone(from);
		dqr_plan_init(&q);
		if (!tw || plan_window(p, w, k, &q)) {
			dqr_lfts_free(tw);
			return -1;
		}
		for (i = 0; i < p->stage_off[w]; i++)
			if (p->entries[i].lid < tw->lid_count)
				dqr_lft_set(tw, p->entries[i].sw,
					    p->entries[i].lid,
					    p->entries[i].new_port);
		bad = dqr_plan_mark_drains(f, tw, &q);
		if (!bad)
			lax += dqr_plan_drains(&q) != 0;
		dqr_plan_release(&q);
		dqr_lfts_free(tw);
		if (bad)
			return -1;
		if (checked)
			(*checked)++;
	}
	return lax;
}

static void planner_release(struct planner *pl)
{
	dqr_dyn_free(pl->dord);
	uchk_release(&pl->u);
	planner_free_changes(pl);
}

int dqr_plan_build(const struct dqr_fabric *f, const struct dqr_lfts *from,
		   const struct dqr_lfts *to, struct dqr_plan *plan,
		   struct dqr_plan_report *rep)
{
	struct planner pl;
	uint32_t lc, lid, i;
	uint8_t *seen;
	double t0 = dqr_now_ms();
	int ret = -1;

	memset(rep, 0, sizeof(*rep));
	memset(&pl, 0, sizeof(pl));
	rep->safe = 1;
	lc = from->lid_count > to->lid_count ? from->lid_count : to->lid_count;
	pl.f = f;
	pl.from = from;
	pl.to = to;
	pl.plan = plan;
	pl.rep = rep;
	if (uchk_init(&pl.u, f, from, lc))
		goto out;
	if (planner_collect_changes(&pl) || dqr_plan_alloc(plan, pl.n))
		goto out;
	uchk_seal(&pl.u);
	rep->entries = pl.n;
	rep->levels = pl.n ? pl.num_levels : 0;
	for (lid = 0; lid < lc; lid++)
		rep->dlids += pl.lid_off[lid + 1] > pl.lid_off[lid];
	seen = calloc(f->num_switches ? f->num_switches : 1, 1);
	if (!seen)
		goto out;
	for (i = 0; i < pl.n; i++)
		seen[pl.e[i].sw] = 1;
	for (i = 0; i < f->num_switches; i++)
		rep->switches += seen[i];
	free(seen);
	if (check_ends(&pl))
		goto out;
	if (!rep->old_ok || !rep->new_ok)
		rep->safe = 0;
	/* a guard only: each entry is tried a few times at most */
	pl.budget = 20000 + 16 * (uint64_t)pl.n;
	pl.no_cdg = pl.u.no_cdg;
	if (plan_stages(&pl) || mark_drains(&pl))
		goto out;
	if (rep->forced > 1)
		reason_add(rep, "%u entries staged although their union "
			   "fails", rep->forced);
	rep->stages = plan->num_stages;
	/* every entry that differs, staged: each in exactly one stage */
	dqr_plan_check(plan);
	DQR_CHECK(plan->num_entries == pl.n);
	ret = 0;
out:
	rep->checks = pl.u.checks;
	planner_release(&pl);
	if (ret)
		dqr_plan_release(plan);
	rep->ms = dqr_now_ms() - t0;
	return ret;
}
