/*
 * montecarlo.c - the successive-fault experiment of the DQR paper,
 * section V: every run loses random links one after the other from a
 * copy of the start state and stops at its first failure; with
 * --switch-faults K it first loses K random whole switches the same way.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/timing.h"
#include "dqr_sim.h"

/*
 * What the runs draw from and judge with, allocated once: the cables and
 * switches not failed yet, fabric_split()'s scratch, and the nodes the
 * split is judged over (scale's, less the switches failed: a dead switch
 * is gone, not split off, as whatif.c judges it; the CAs on it are cut
 * off, and the pairs no cable joins any more are no failure of DQR).
 */
struct run_ws {
	uint32_t *cand, *sw, *parent;
	uint8_t *linked;
	/* --active-pairs: an earlier state of the run left entries
	 * unrouted, which later updates do not claim */
	int partial;
};

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

/*
 * --vl-layers: the figures of the re-routing layer the plugin built for
 * this state (reaction.h: a fat tree's second layer), usable (layer 1)
 * or not (layer -1: the plugin would fall back, the run fails).  0, or
 * -1 when out of memory.
 */
static int ml_figures(struct sim *s, const struct dqr_reactor *x,
		      const struct dqr_reaction *r, unsigned k)
{
	const struct dqr_ml_stats *ms = dqr_topology_rerouting_tried(x);
	struct step_stats *st = &s->steps[k];

	if (!ms)
		return 0;
	if (ml_cost_add(&s->mlt, ms))
		return -1;
	if (r->layer < 0) {
		st->ml_unusable++;
		st->ml_left += ms->left > 0;
		st->ml_cyclic += !ms->vl.deadlock_free;
		return 0;
	}
	if (r->layer == 0)
		return 0;
	st->ml++;
	if (ms->vl.sls_used > st->ml_sls_max)
		st->ml_sls_max = ms->vl.sls_used;
	if (ms->vl.vls_used > st->ml_vls_max)
		st->ml_vls_max = ms->vl.vls_used;
	if (ms->filled > st->ml_filled_max)
		st->ml_filled_max = ms->filled;
	return 0;
}

/*
 * The state after fault k of a run, as the plugin answered it: its
 * figures and the check.  prev: the tables before (the re-routing
 * layer's fill reuses recon's change log), or NULL.  1 when the run goes
 * on, 0 when it fails here, -1 when out of memory.
 */
static int judge_step(struct sim *s, const struct dqr_reactor *x,
		      const struct dqr_fabric *proj,
		      const struct dqr_reaction *r, const struct dqr_lfts *prev,
		      uint32_t run, unsigned k, struct run_ws *w)
{
	struct step_stats *st = &s->steps[k];
	const struct dqr_ml *ml = dqr_topology_rerouting(x);
	const struct dqr_lfts *in_force = r->target ? r->target :
					  x->recon.cur;
	uint64_t ca_lost = 0;
	int ok, conn, split, ends_cut, v = 0;

	split = fabric_split(proj, w->linked, w->parent);
	ends_cut = ends_split(proj, w->linked, w->parent);
	if (ml_figures(s, x, r, k))
		return -1;
	/* on two layers, or in one that holds every connected entry */
	ok = r->layer > 0 || (r->code == DQR_RECON_OK && r->layer == 0);
	record_step(s, k, &r->res, ok, split);
	st->ends_cut += ends_cut;
	if (want_verify(s, run, !ok || k + 1 == s->o->faults)) {
		v = verify_state(s, &x->recon, proj, prev,
				 r->layer > 0 ? ml : NULL,
				 ok && !w->partial ? DQR_RECON_OK :
				 DQR_RECON_FAILED, run, k + 1, &ca_lost);
		st->verified++;
		st->verify_failed += v > 0;
		st->cyclic += v > 0 && (v & VF_DEADLOCK);
		st->ca_lost += ca_lost > 0;
	}
	if (v < 0)
		return -1;
	/* DQR's claim, and the check's when it ran */
	conn = ok && !(v > 0 && (v & VF_DISCONNECTED));
	st->connected += conn;
	st->conn_ends += conn && !ends_cut;
	/* --active-pairs: the run goes on while the active pairs hold */
	if (s->o->active_pairs) {
		w->partial |= !ok;
		ok = active_add(s, k + 1, proj, in_force,
				v > 0 && (v & VF_DEADLOCK));
	}
	if (ok > 0 && (load_add(s, k + 1, proj, in_force) ||
		       perm_add(s, k + 1, proj, in_force)))
		return -1;
	return ok;
}

/*
 * The next switch of the run to fail, drawn from those still up; its
 * cables leave the draw of the link faults.  Its node index.
 */
static uint32_t draw_switch(const struct sim *s, struct run_ws *w,
			    uint64_t *rng, uint32_t *nsw, uint32_t *ncand)
{
	const struct dqr_fabric *f = s->p.ref;
	uint32_t pick = rng_below(rng, *nsw), node, i, port;

	node = f->switches[w->sw[pick]];
	w->sw[pick] = w->sw[--*nsw];
	for (i = 0; i < *ncand;) {
		port = w->cand[i];
		if (f->ports[port].node == node ||
		    dqr_peer_node(f, port) == node)
			w->cand[i] = w->cand[--*ncand];
		else
			i++;
	}
	w->linked[node] = 0;
	return node;
}

/*
 * One run: up to K faults on a fresh copy of the start state, stopping at
 * the first failure: --switch-faults whole switches (their own stream of
 * the seed), then link faults.  0, or -1 when out of memory.
 */
static int run_one(struct sim *s, uint32_t run, struct run_ws *w)
{
	struct dqr_reaction r;
	struct dqr_fabric *cur, *proj = NULL;
	struct dqr_lfts *prev = NULL;
	struct dqr_reactor x;
	uint32_t ncand = s->sc.num_cand, nsw = s->p.ref->num_switches;
	uint32_t pick, port = 0, node = 0, i;
	uint64_t rng = rng_stream(s->o->seed, 1, run);
	uint64_t sw_rng = rng_stream(s->o->seed, 4, run);
	unsigned k;
	int ret = 0;

	if (fresh_state(s, &x, &cur))
		return -1;
	memcpy(w->cand, s->sc.cand, sizeof(uint32_t) * ncand);
	w->partial = 0;
	memcpy(w->linked, s->sc.linked_node, s->p.ref->num_nodes);
	for (i = 0; i < nsw; i++)
		w->sw[i] = i;
	for (k = 0; k < s->o->faults && ret >= 0; k++) {
		if (k < s->o->switch_faults) {
			node = draw_switch(s, w, &sw_rng, &nsw, &ncand);
		} else {
			pick = rng_below(&rng, ncand);
			port = w->cand[pick];
			w->cand[pick] = w->cand[--ncand];
		}
		/* the fill reuses recon's log of what the update replaced */
		if (s->o->vl_layers && want_verify(s, run, 1)) {
			prev = dqr_lfts_clone(x.recon.cur);
			if (!prev) {
				ret = -1;
				break;
			}
		}
		if (k < s->o->switch_faults ?
		    fail_switch(&x, cur, node, &proj, &r) :
		    fail_one(&x, cur, port, &proj, &r))
			ret = -1;
		else
			ret = judge_step(s, &x, proj, &r, prev, run, k, w);
		dqr_fabric_free(proj);
		dqr_lfts_free(prev);
		proj = NULL;
		prev = NULL;
		if (!ret)
			break;
	}
	dqr_fabric_free(cur);
	dqr_reactor_release(&x);
	return ret < 0 ? -1 : 0;
}

static int steps_alloc(struct sim *s, unsigned n, uint32_t per_step)
{
	unsigned k;

	/* one more: --faults 0 runs the start state alone */
	s->steps = calloc(n + 1, sizeof(*s->steps));
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
	const struct dqr_fabric *f = s->p.ref;
	struct run_ws w;
	double t0 = dqr_now_ms();
	uint32_t run;
	int ret = 0;

	w.cand = malloc(sizeof(uint32_t) * (s->sc.num_cand + 1));
	w.sw = malloc(sizeof(uint32_t) * (f->num_switches + 1));
	w.parent = malloc(sizeof(uint32_t) * (f->num_nodes + 1));
	w.linked = malloc(f->num_nodes + 1);
	if (!w.cand || !w.sw || !w.parent || !w.linked ||
	    steps_alloc(s, s->o->faults, s->o->runs) || start_step(s) ||
	    load_alloc(s) || load_add(s, 0, f, s->p.orig) ||
	    perm_add(s, 0, f, s->p.orig))
		ret = -1;
	if (!ret && s->o->active_pairs &&
	    active_add(s, 0, f, s->p.orig, 0) < 0)
		ret = -1;
	for (run = 0; run < s->o->runs && !ret; run++)
		ret = run_one(s, run, &w);
	s->ms_wall = dqr_now_ms() - t0;
	free(w.cand);
	free(w.sw);
	free(w.parent);
	free(w.linked);
	return ret;
}
