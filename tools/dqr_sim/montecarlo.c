/*
 * montecarlo.c - the successive-fault experiment of the DQR paper,
 * section V: every run loses random links one after the other from a
 * copy of the start state and stops at its first failure.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/timing.h"
#include "dqr_sim.h"

static void record_step(struct sim *s, unsigned k,
			const struct dqr_recon_result *res, int ok, int split)
{
	struct step_stats *st = &s->steps[k];
	const struct dqr_reroute_stats *rs = &res->rs;
	double ent = s->sc.entries ? (double)s->sc.entries : 1.0;
	double pairs = s->sc.pairs ? (double)s->sc.pairs : 1.0;
	double ch = rs->changed / ent;

	st->us[st->reached] = rs->us;
	st->us_total[st->reached] = res->us_total;
	st->reached++;
	st->ok += ok;
	st->failed += !ok;
	st->split += split;
	st->disconnected += rs->disconnected / ent;
	st->changed += ch;
	if (ch > st->max_changed)
		st->max_changed = ch;
	st->pairs += rs->disconnected_pairs / pairs;
	st->turns += rs->turns;
	st->reorders += rs->reorders;
	st->moved += rs->moved;
	st->refused += rs->refused;
	st->lids += rs->lids;
}

static int ml_cost_add(struct ml_times *m, const struct dqr_ml_stats *st)
{
	struct ml_cost *v;

	if (m->n == m->cap) {
		v = realloc(m->v, sizeof(*v) * (m->cap ? 2 * m->cap : 256));
		if (!v)
			return -1;
		m->v = v;
		m->cap = m->cap ? 2 * m->cap : 256;
	}
	m->v[m->n].fill_us = st->us_fill;
	m->v[m->n].build_ms = st->vl.build_ms;
	m->v[m->n].verify_ms = st->vl.verify_ms;
	m->n++;
	return 0;
}

enum {
	ML_ONE,		/* one layer holds every connected entry */
	ML_TWO,		/* served on two layers */
	ML_UNUSABLE,	/* the plugin would fall back: the run fails */
};

/*
 * --vl-layers, after an update that left connected entries without a
 * route, or while the run is on two layers (the fill must follow every
 * later update): the re-routing layer, built as the plugin builds it.
 * ML_TWO leaves it in ml; ML_ONE and ML_UNUSABLE release it.  -1 after
 * a message when out of memory.
 */
static int ml_step(struct sim *s, struct dqr_recon *r,
		   const struct dqr_fabric *proj, int code, unsigned k,
		   struct dqr_ml *ml)
{
	struct step_stats *st = &s->steps[k];
	char err[256];

	if (dqr_ml_build(r, proj, s->ft, &s->ro, ml, err, sizeof(err))) {
		fprintf(stderr, PROG ": %s\n", err);
		return -1;
	}
	if (ml_cost_add(&s->mlt, &ml->st)) {
		dqr_ml_release(ml);
		return -1;
	}
	if (code == DQR_RECON_OK && !ml->st.filled && !ml->st.left) {
		dqr_ml_release(ml);
		return ML_ONE;
	}
	if (!dqr_ml_usable(ml)) {
		st->ml_unusable++;
		st->ml_left += ml->st.left > 0;
		st->ml_cyclic += !ml->st.vl.deadlock_free;
		dqr_ml_release(ml);
		return ML_UNUSABLE;
	}
	st->ml++;
	if (ml->st.vl.sls_used > st->ml_sls_max)
		st->ml_sls_max = ml->st.vl.sls_used;
	if (ml->st.vl.vls_used > st->ml_vls_max)
		st->ml_vls_max = ml->st.vl.vls_used;
	if (ml->st.filled > st->ml_filled_max)
		st->ml_filled_max = ml->st.filled;
	return ML_TWO;
}

/*
 * The state after fault k of a run: its figures, the re-routing layer
 * when --vl-layers calls for it, and the check.  *on_ml: the state
 * before is on two layers, and on return whether this one is.  1 when
 * the run goes on, 0 when it fails here, -1 when out of memory.
 */
static int judge_step(struct sim *s, struct dqr_recon *r,
		      const struct dqr_fabric *proj,
		      const struct dqr_recon_result *res, int code,
		      uint32_t run, unsigned k, int *on_ml, uint32_t *parent)
{
	struct step_stats *st = &s->steps[k];
	struct dqr_lfts *prev = NULL;
	struct dqr_ml ml;
	uint64_t ca_lost = 0;
	int m = ML_ONE, ok, conn, split, ends_cut, v = 0;

	memset(&ml, 0, sizeof(ml));
	split = fabric_split(proj, s->sc.linked_node, parent);
	ends_cut = ends_split(proj, s->sc.linked_node, parent);
	if (s->o->vl_layers && (code == DQR_RECON_FAILED || *on_ml)) {
		/*
		 * the fill reuses r's change log: keep what the update
		 * replaced for the check of the transition
		 */
		if (want_verify(s, run, 1)) {
			prev = tables_before(r);
			if (!prev)
				return -1;
		}
		m = ml_step(s, r, proj, code, k, &ml);
		if (m < 0) {
			dqr_lfts_free(prev);
			return -1;
		}
	}
	*on_ml = m == ML_TWO;
	ok = m == ML_TWO || (code == DQR_RECON_OK && m == ML_ONE);
	record_step(s, k, res, ok, split);
	st->ends_cut += ends_cut;
	if (want_verify(s, run, !ok || k + 1 == s->o->faults)) {
		v = verify_state(s, r, proj, prev, m == ML_TWO ? &ml : NULL,
				 ok ? DQR_RECON_OK : DQR_RECON_FAILED, run,
				 k + 1, &ca_lost);
		st->verified++;
		st->verify_failed += v > 0;
		st->cyclic += v > 0 && (v & VF_DEADLOCK);
		st->ca_lost += ca_lost > 0;
	}
	/* DQR's claim, and the check's when it ran */
	conn = ok && !(v > 0 && (v & VF_DISCONNECTED));
	st->connected += conn;
	st->conn_ends += conn && !ends_cut;
	dqr_lfts_free(prev);
	dqr_ml_release(&ml);
	return v < 0 ? -1 : ok;
}

/*
 * One run: up to K faults on a fresh copy of the start state, stopping at
 * the first failure.  0, or -1 when out of memory.
 */
static int run_one(struct sim *s, uint32_t run, uint32_t *cand,
		   uint32_t *parent)
{
	struct dqr_recon_result res;
	struct dqr_fabric *cur, *proj = NULL;
	struct dqr_recon r;
	uint32_t ncand = s->sc.num_cand, pick, port;
	uint64_t rng = rng_stream(s->o->seed, 1, run);
	unsigned k;
	int code, on_ml = 0, ret = 0;

	if (fresh_state(s, &r, &cur))
		return -1;
	memcpy(cand, s->sc.cand, sizeof(uint32_t) * ncand);
	for (k = 0; k < s->o->faults && ret >= 0; k++) {
		pick = rng_below(&rng, ncand);
		port = cand[pick];
		cand[pick] = cand[--ncand];
		code = fail_one(&r, cur, port, &s->ro, &proj, &res, NULL);
		if (code == DQR_RECON_NOMEM)
			ret = -1;
		else
			ret = judge_step(s, &r, proj, &res, code, run, k,
					 &on_ml, parent);
		dqr_fabric_free(proj);
		proj = NULL;
		if (!ret)
			break;
	}
	dqr_fabric_free(cur);
	dqr_recon_release(&r);
	return ret < 0 ? -1 : 0;
}

static int steps_alloc(struct sim *s, unsigned n, uint32_t per_step)
{
	unsigned k;

	s->steps = calloc(n, sizeof(*s->steps));
	if (!s->steps)
		return -1;
	for (k = 0; k < n; k++) {
		s->steps[k].us = malloc(sizeof(double) * per_step);
		s->steps[k].us_total = malloc(sizeof(double) * per_step);
		if (!s->steps[k].us || !s->steps[k].us_total)
			return -1;
	}
	return 0;
}

void steps_free(struct sim *s, unsigned n)
{
	unsigned k;

	if (!s->steps)
		return;
	for (k = 0; k < n; k++) {
		free(s->steps[k].us);
		free(s->steps[k].us_total);
	}
	free(s->steps);
	s->steps = NULL;
}

/*
 * k = 0: every run starts from the same copy of start's state, so it is
 * checked once, under any policy that checks something.  start() has
 * already refused tables DQR could not complete.  0, or -1 when out of
 * memory.
 */
static int start_step(struct sim *s)
{
	struct step_stats *st = &s->start_step;
	struct dqr_recon r;
	uint64_t ca_lost = 0;
	unsigned every;
	int v = 0;

	st->reached = st->ok = s->o->runs;
	if (effective_policy(s, &every) != VERIFY_NONE) {
		if (restore(&r, &s->p))
			return -1;
		v = verify_state(s, &r, r.ref, NULL, NULL, DQR_RECON_OK, 0, 0,
				 &ca_lost);
		dqr_recon_release(&r);
		if (v < 0)
			return -1;
		st->verified = 1;
		st->verify_failed = v > 0;
		st->cyclic = v > 0 && (v & VF_DEADLOCK);
		st->ca_lost = ca_lost > 0;
	}
	st->connected = v > 0 && (v & VF_DISCONNECTED) ? 0 : s->o->runs;
	st->conn_ends = st->connected;
	return 0;
}

int simulate(struct sim *s)
{
	uint32_t *cand = malloc(sizeof(uint32_t) * (s->sc.num_cand + 1));
	uint32_t *parent = malloc(sizeof(uint32_t) *
				  (s->p.ref->num_nodes + 1));
	double t0 = dqr_now_ms();
	uint32_t run;
	int ret = 0;

	if (!cand || !parent ||
	    steps_alloc(s, s->o->faults, s->o->runs) || start_step(s))
		ret = -1;
	for (run = 0; run < s->o->runs && !ret; run++)
		ret = run_one(s, run, cand, parent);
	s->ms_wall = dqr_now_ms() - t0;
	free(cand);
	free(parent);
	return ret;
}
