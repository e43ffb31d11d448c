/*
 * replay.c - judging uploads the planner did not make (replay.h): a
 * recorded plan, stage by stage from the tables it started from, and
 * OpenSM's one-shot upload, as a whole and switch by switch.  Separate
 * from the planner: both only drive the union check over given states,
 * and search for no order.
 */
#include <stdlib.h>
#include <string.h>

#include "transition/replay.h"
#include "transition/transition-internal.h"
#include "util/timing.h"

void dqr_replay_report_release(struct dqr_replay_report *r)
{
	uint32_t s;

	for (s = 0; s < r->num_stages; s++)
		dqr_union_verdict_release(&r->stages[s].v);
	free(r->stages);
	memset(r, 0, sizeof(*r));
}

/*
 * Loops of the DLIDs a stage does not touch: they are those of the state
 * before it.  flag[] marks the DLIDs that loop there (count of them),
 * mark[] == epoch the stage's DLIDs.
 */
static void add_other_loops(struct uchk *u, const uint8_t *flag,
			    uint32_t count, const uint32_t *lids, uint32_t n,
			    struct dqr_union_verdict *v)
{
	uint32_t i, lid, in_stage = 0;

	for (i = 0; i < n; i++)
		in_stage += flag[lids[i]] != 0;
	if (count == in_stage)
		return;
	v->loop_dlids += count - in_stage;
	if (v->loop_lid)
		return;
	for (lid = 1; lid < u->lc; lid++) {
		if (!flag[lid])
			continue;
		for (i = 0; i < n && lids[i] != lid; i++)
			;
		if (i < n)
			continue;
		v->loop_lid = lid;
		uchk_loops(u, lid, v);
		return;
	}
}

/* The distinct DLIDs of entries [lo, hi). */
static uint32_t stage_lids_e(const struct dqr_plan_entry *e, uint32_t lo,
			     uint32_t hi, uint32_t *mark, uint32_t epoch,
			     uint32_t *lids)
{
	uint32_t i, n = 0, lid;

	for (i = lo; i < hi; i++) {
		lid = e[i].lid;
		if (mark[lid] != epoch) {
			mark[lid] = epoch;
			lids[n++] = lid;
		}
	}
	return n;
}

int dqr_plan_replay(const struct dqr_fabric *f, const struct dqr_lfts *start,
		    const struct dqr_plan *p, struct dqr_lfts **end_out,
		    struct dqr_replay_report *r)
{
	struct uchk u;
	uint32_t lc = start->lid_count, i, s, lid, n, nloop = 0;
	uint32_t *mark = NULL, *lids = NULL;
	uint8_t *lp = NULL;
	double t0 = dqr_now_ms();
	int ret = -1, jr;

	memset(r, 0, sizeof(*r));
	if (end_out)
		*end_out = NULL;
	for (i = 0; i < p->num_entries; i++)
		if (p->entries[i].lid >= lc)
			lc = p->entries[i].lid + 1;
	if (uchk_init(&u, f, start, lc))
		return -1;
	mark = calloc(lc, sizeof(uint32_t));
	lids = malloc(sizeof(uint32_t) * (p->num_entries + 1));
	lp = calloc(lc, 1);
	r->stages = calloc(p->num_stages + 1, sizeof(*r->stages));
	if (!mark || !lids || !lp || !r->stages)
		goto out;
	for (i = 0; i < p->num_entries; i++)
		u.active[p->entries[i].lid] = 1;
	uchk_seal(&u);
	for (lid = 1; lid < lc; lid++)
		if (lid_judged(f, lid) && uchk_loops(&u, lid, NULL)) {
			lp[lid] = 1;
			nloop++;
		}
	for (s = 0; s < p->num_stages; s++) {
		struct dqr_stage_result *sr = &r->stages[s];
		uint32_t lo = p->stage_off[s], hi = p->stage_off[s + 1];

		r->num_stages++;
		sr->reconf_id = p->stage_reconf[s];
		sr->stage = p->stage_num[s];
		sr->entries = hi - lo;
		sr->first_mismatch = DQR_NONE;
		for (i = lo; i < hi; i++) {
			const struct dqr_plan_entry *e = &p->entries[i];
			uint8_t cur = ent(u.a, e->sw, e->lid);

			if (cur != e->old_port && !sr->mismatches++) {
				sr->first_mismatch = i;
				sr->found_port = cur;
			}
			ent_set(u.b, e->sw, e->lid, e->new_port);
		}
		n = stage_lids_e(p->entries, lo, hi, mark, s + 1, lids);
		jr = uchk_judge(&u, lids, n, lids, n, JUDGE_ALL | JUDGE_CYCLE,
				&sr->v);
		if (jr < 0)
			goto out;
		add_other_loops(&u, lp, nloop, lids, n, &sr->v);
		r->bad_stages += !dqr_union_ok(&sr->v);
		r->mismatches += sr->mismatches;
		ent_set_side(u.a, p->entries, lo, hi, 1);
		uchk_rebase(&u);
		for (i = 0; i < n; i++) {
			if (!lid_judged(f, lids[i]))
				continue;
			nloop -= lp[lids[i]];
			lp[lids[i]] = (uint8_t)uchk_loops(&u, lids[i], NULL);
			nloop += lp[lids[i]];
		}
	}
	if (end_out) {
		*end_out = tr_lfts_widen(u.a, lc);
		if (!*end_out)
			goto out;
	}
	ret = 0;
out:
	free(mark);
	free(lids);
	free(lp);
	uchk_release(&u);
	if (ret)
		dqr_replay_report_release(r);
	r->ms = dqr_now_ms() - t0;
	return ret;
}

/* ---------------------------------------------------------------- one shot */

void dqr_one_shot_report_release(struct dqr_one_shot_report *r)
{
	dqr_union_verdict_release(&r->whole);
	memset(r, 0, sizeof(*r));
}

/* Judges one per-switch state; counts it as looping, cyclic, bad. */
static int judge_state(struct uchk *u, const uint32_t *lids, uint32_t n,
		       const uint8_t *flag, uint32_t count, uint32_t *loop,
		       uint32_t *cyclic, uint32_t *bad)
{
	struct dqr_union_verdict v;
	int r = uchk_judge(u, lids, n, lids, n, JUDGE_ALL, &v);

	if (r < 0)
		return -1;
	add_other_loops(u, flag, count, lids, n, &v);
	*loop += v.loop_dlids != 0;
	*cyclic += v.cyclic != 0;
	*bad += !dqr_union_ok(&v);
	r = dqr_union_ok(&v);
	dqr_union_verdict_release(&v);
	return r;
}

/* The one-shot judgement's state: the change, switch-major. */
struct one_shot {
	struct uchk u;
	struct dqr_plan_entry *e;	/* each switch's entries: one run */
	uint32_t n;
	uint32_t *lids, *mark, epoch;
	uint8_t *lpo, *lpn;		/* per DLID: old / new tables loop */
};

#define ONE_SHOT_BUFS 5

/* Its arrays, for n changed entries and lc LIDs (sizes unused to free). */
static void one_shot_bufs(struct one_shot *os, uint32_t n, uint32_t lc,
			  struct dqr_buf *b)
{
	const struct dqr_buf t[ONE_SHOT_BUFS] = {
		DQR_BUF(os->e, n), DQR_BUF(os->lids, lc), DQR_BUF(os->mark, lc),
		DQR_BUF(os->lpo, lc), DQR_BUF(os->lpn, lc),
	};

	memcpy(b, t, sizeof(t));
}

static void one_shot_release(struct one_shot *os)
{
	struct dqr_buf b[ONE_SHOT_BUFS];

	one_shot_bufs(os, 0, 0, b);
	dqr_bufs_free(b, ONE_SHOT_BUFS);
	uchk_release(&os->u);
}

/*
 * The changed entries, switch-major, as active LIDs of the checker;
 * counts them into r.  0, or -1 when out of memory.
 */
static int one_shot_collect(struct one_shot *os, const struct dqr_lfts *old,
			    const struct dqr_lfts *new_t,
			    struct dqr_one_shot_report *r)
{
	const struct dqr_fabric *f = os->u.f;
	uint32_t sw, lid, lc = os->u.lc, n = 0;
	struct dqr_buf b[ONE_SHOT_BUFS];
	uint8_t o, nw;

	for (sw = 0; sw < f->num_switches; sw++)
		for (lid = 0; lid < lc; lid++)
			n += dqr_lft_get(old, sw, lid) !=
			     dqr_lft_get(new_t, sw, lid);
	one_shot_bufs(os, n, lc, b);
	if (dqr_bufs_alloc(b, ONE_SHOT_BUFS))
		return -1;
	for (sw = 0; sw < f->num_switches; sw++) {
		int any = 0;

		for (lid = 0; lid < lc; lid++) {
			o = dqr_lft_get(old, sw, lid);
			nw = dqr_lft_get(new_t, sw, lid);
			if (o == nw)
				continue;
			os->e[os->n].sw = sw;
			os->e[os->n].lid = lid;
			os->e[os->n].line = 0;
			os->e[os->n].old_port = o;
			os->e[os->n++].new_port = nw;
			os->u.active[lid] = 1;
			any = 1;
		}
		r->switches += any;
	}
	r->entries = os->n;
	return 0;
}

/* The counts of the first or of the last states. */
struct per_switch {
	uint32_t *loop, *cyclic, *bad, *bad_sw;
};

/*
 * Per switch s with a change, the union of the state with every change
 * on one side and the state where s alone is on the other: s uploaded
 * first (from_new 0: the rest old) or last (from_new 1: the rest new).
 * flag and count: the DLIDs that loop in the rest's tables.
 */
static int judge_each_switch(struct one_shot *os, int from_new,
			     const uint8_t *flag, uint32_t count,
			     const struct per_switch *ps, uint32_t *states)
{
	struct uchk *u = &os->u;
	const struct dqr_plan_entry *e = os->e;
	uint32_t lo, hi, nl;
	int jr;

	uchk_set_both(u, e, os->n, from_new);
	for (lo = 0; lo < os->n; lo = hi) {
		for (hi = lo; hi < os->n && e[hi].sw == e[lo].sw; hi++)
			;
		nl = stage_lids_e(e, lo, hi, os->mark, ++os->epoch, os->lids);
		ent_set_side(u->b, e, lo, hi, !from_new);
		jr = judge_state(u, os->lids, nl, flag, count, ps->loop,
				 ps->cyclic, ps->bad);
		ent_set_side(u->b, e, lo, hi, from_new);
		if (jr < 0)
			return -1;
		if (!jr && *ps->bad_sw == DQR_NONE)
			*ps->bad_sw = e[lo].sw;
		(*states)++;
	}
	return 0;
}

int dqr_one_shot_judge(const struct dqr_fabric *f, const struct dqr_lfts *old,
		       const struct dqr_lfts *new_t,
		       struct dqr_one_shot_report *r)
{
	const struct per_switch first = {
		&r->first_loop, &r->first_cyclic, &r->first_bad,
		&r->first_bad_sw,
	};
	const struct per_switch last = {
		&r->last_loop, &r->last_cyclic, &r->last_bad, &r->last_bad_sw,
	};
	struct dqr_union_verdict v;
	struct one_shot os;
	struct uchk *u = &os.u;
	uint32_t lc, lid;
	double t0 = dqr_now_ms();
	int ret = -1, jr;

	memset(r, 0, sizeof(*r));
	memset(&os, 0, sizeof(os));
	r->first_bad_sw = r->last_bad_sw = DQR_NONE;
	lc = old->lid_count > new_t->lid_count ? old->lid_count :
	     new_t->lid_count;
	if (uchk_init(u, f, old, lc))
		return -1;
	if (one_shot_collect(&os, old, new_t, r))
		goto out;
	uchk_seal(u);
	r->dlids = u->num_act;

	/* the old tables alone */
	for (lid = 1; lid < lc; lid++)
		if (lid_judged(f, lid) && uchk_loops(u, lid, NULL)) {
			os.lpo[lid] = 1;
			r->old_loop_dlids++;
		}
	jr = uchk_judge(u, NULL, 0, NULL, 0, JUDGE_ALL, &v);
	if (jr < 0)
		goto out;
	r->old_cyclic = v.cyclic;
	/* the new tables alone */
	uchk_set_both(u, os.e, os.n, 1);
	for (lid = 1; lid < lc; lid++) {
		if (!lid_judged(f, lid))
			continue;
		os.lpn[lid] = u->active[lid] ?
			      (uint8_t)uchk_loops(u, lid, NULL) : os.lpo[lid];
		r->new_loop_dlids += os.lpn[lid];
	}
	jr = uchk_judge(u, NULL, 0, NULL, 0, JUDGE_ALL, &v);
	if (jr < 0)
		goto out;
	r->new_cyclic = v.cyclic;
	/* every switch by either table */
	ent_set_side(u->a, os.e, 0, os.n, 0);
	uchk_rebase(u);
	jr = uchk_judge(u, u->act, u->num_act, u->act, u->num_act,
			JUDGE_ALL | JUDGE_CYCLE, &r->whole);
	if (jr < 0)
		goto out;
	/* the DLIDs it does not judge are the same in old and new */
	for (lid = 1; lid < lc; lid++)
		if (!u->active[lid] && os.lpo[lid] && !r->whole.loop_dlids++)
			r->whole.loop_lid = lid;

	if (judge_each_switch(&os, 0, os.lpo, r->old_loop_dlids, &first,
			      &r->states) ||
	    judge_each_switch(&os, 1, os.lpn, r->new_loop_dlids, &last,
			      &r->states))
		goto out;
	ret = 0;
out:
	one_shot_release(&os);
	if (ret)
		dqr_one_shot_report_release(r);
	r->ms = dqr_now_ms() - t0;
	return ret;
}
