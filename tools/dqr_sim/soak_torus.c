/*
 * soak_torus.c - dqr-sim --soak --torus-layers: soak.c's random faults
 * and recoveries on a torus routed by e-cube on virtual layers
 * (vlayers.h), answered by the plugin's reactor on the layers (qos
 * TRUE, reaction.h): DQR repairs new faults in every layer with the
 * mesh plug-in and, when something came back, restarts from the original
 * tables with layers built afresh.
 *
 * Every transition is planned by the reactor's planner on the layers,
 * with the list it chooses (the layered list whenever the switches hold
 * a whole state, also after a restart; none after a flap's return
 * found the failure's transition under way).  The judgement knows no
 * list: every new state by dqr_vlayers_verify(), every stage union, and
 * every union a stage that waits no drain may meet, by
 * dqr_union_vlayers_ok() (a packet keeps its source's layer; each layer
 * loop free and acyclic).
 *
 * When recon fails (a switch lost, or a link no side of the plug-in
 * bypasses), the plugin falls back to up*\/down* on one VL, which the
 * one-layer soak judges; here that is counted as a fallback and the run
 * starts again from the intact torus and its e-cube tables, as the
 * plugin's full routing would once the fabric is whole again (the
 * transition back from up*\/down* is not judged).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fabric/topo_diff.h"
#include "transition/plan_vlayers.h"
#include "vlayers/vlayers.h"
#include "util/timing.h"
#include "dqr_sim.h"

int soak_torus_check(struct sim *s, unsigned *layers)
{
	size_t i, S = s->in.f->num_switches;
	struct dqr_vlayers *tl;
	struct dqr_grid *g;
	char err[256];

	if (dqr_grid_detect(s->in.f, &g, err, sizeof(err))) {
		fprintf(stderr, PROG ": --torus-layers: %s: %s\n",
			s->in.name, err);
		return 2;
	}
	if (sim_vlayers_new(s, g, &tl, err, sizeof(err))) {
		fprintf(stderr, PROG ": --torus-layers: %s: %s\n",
			s->in.name, err);
		dqr_grid_free(g);
		return 2;
	}
	*layers = dqr_vlayers_count(tl);
	s->soak_sl = malloc((size_t)S * S + 1);
	for (i = 0; s->soak_sl && i < (size_t)S * S; i++)
		s->soak_sl[i] = dqr_vlayers_sl(tl, i / S, i % S);
	dqr_vlayers_free(tl);
	if (!s->soak_sl) {
		fprintf(stderr, PROG ": out of memory\n");
		dqr_grid_free(g);
		return 2;
	}
	dqr_grid_free(g);
	if (!s->sc.num_cand) {
		fprintf(stderr, PROG ": %s has no cable that may fail\n",
			s->in.name);
		return 2;
	}
	return 0;
}

/*
 * The intact torus: recon on its layers, the switches holding e-cube.
 * soak_torus_check() found both once, so failing now is memory.
 */
int soak_torus_start(struct soak_run *w)
{
	int ret;

	dqr_lfts_free(w->held);
	w->held = NULL;
	dqr_reactor_release(&w->x);
	ret = sim_reactor_start(w->s, &w->x);
	if (ret < 0)
		return -1;
	if (ret) {
		soak_complain(w, "recon cannot start on the layers of the "
			      "intact torus");
		w->dead = 1;
		return 0;
	}
	w->held = dqr_lfts_clone(w->x.recon.cur);
	/* here: no transition was left mid-way, the plugin passes the list */
	w->held_is_recon = 1;
	return w->held ? 0 : -1;
}

/* recon failed: the plugin's fallback, and the run starts again intact */
static int fall_back(struct soak_run *w, const char *why)
{
	w->t->answers[DQR_ANSWER_FALLBACK]++;
	soak_log(w, " [fell back: %s; the run starts again intact]", why);
	memset(w->cable_down, 0, w->s->sc.num_cand + 1);
	memset(w->node_down, 0, w->s->in.f->num_nodes + 1);
	w->restarted = 1;
	return soak_torus_start(w);
}

/* the stage's entries applied to t */
static void apply_stage(struct dqr_lfts *t, const struct dqr_plan *p,
			uint32_t k)
{
	uint32_t i;

	for (i = p->stage_off[k]; i < p->stage_off[k + 1]; i++)
		if (p->entries[i].lid < t->lid_count)
			dqr_lft_set(t, p->entries[i].sw, p->entries[i].lid,
				    p->entries[i].new_port);
}

/* entries of stage k whose old port is not what t holds */
static uint32_t mismatches(const struct dqr_lfts *t,
			   const struct dqr_plan *p, uint32_t k)
{
	uint32_t i, n = 0;

	for (i = p->stage_off[k]; i < p->stage_off[k + 1]; i++)
		n += dqr_lft_get(t, p->entries[i].sw, p->entries[i].lid) !=
		     p->entries[i].old_port;
	return n;
}

/*
 * Plan p from the state from before its stage k0 (the tables held and 0,
 * or what a first withdrawal left and 1), replayed stage by stage: each
 * stage's union with the state before it; a stage flagged to wait no
 * drain, its union with the last state whose packets are known gone
 * (each entry changes once in such a stretch, so that union holds every
 * mix of the states between, plan.h); the end.  0, or -1 when out of
 * memory.
 */
static int replay(struct soak_run *w, const struct dqr_fabric *f,
		  const struct dqr_plan_vlayers *lay, const struct dqr_plan *p,
		  const struct dqr_lfts *from, uint32_t k0, const char *how)
{
	struct soak_tally *t = w->t;
	struct dqr_lfts *cur = dqr_lfts_clone(from), *next = NULL;
	struct dqr_lfts *settled = dqr_lfts_clone(from);
	uint32_t k, wrong = 0;
	char why[256];
	int r = 0, nomem = !cur || !settled;

	for (k = k0; !nomem && k < p->num_stages; k++) {
		wrong += mismatches(cur, p, k);
		next = dqr_lfts_clone(cur);
		if (!next) {
			nomem = 1;
			break;
		}
		apply_stage(next, p, k);
		r = dqr_union_vlayers_ok(f, cur, next, lay, why, sizeof(why));
		nomem |= r < 0;
		t->unions++;
		if (r == 0) {
			t->unions_failed++;
			t->unsafe++;
			soak_complain(w, "UNSAFE stage %u of %u (%s): its "
				      "union on the layers: %s", k + 1,
				      p->num_stages, how, why);
		}
		if (p->stage_drain[k]) {
			/* stage k waits: what came before it is gone */
			dqr_lfts_free(settled);
			settled = dqr_lfts_clone(cur);
			nomem |= !settled;
		} else if (k > k0 && !nomem) {
			r = dqr_union_vlayers_ok(f, settled, next, lay, why,
						 sizeof(why));
			nomem |= r < 0;
			t->drain_checks++;
			if (r == 0) {
				t->unsafe++;
				soak_complain(w, "UNSAFE stage %u of %u (%s) "
					      "waits no drain, yet its union "
					      "with the last drained state: "
					      "%s", k + 1, p->num_stages,
					      how, why);
			}
		}
		dqr_lfts_free(cur);
		cur = next;
		next = NULL;
	}
	if (!nomem && wrong)
		soak_complain(w, "the plan's old ports are not what %u "
			      "entries held", wrong);
	if (!nomem && !soak_same_tables(cur, w->x.recon.cur))
		soak_complain(w, "the plan does not end at the new tables");
	dqr_lfts_free(cur);
	dqr_lfts_free(next);
	dqr_lfts_free(settled);
	return nomem ? -1 : 0;
}

/*
 * Tables held that are bad on this cabling (soak_first_withdrawal()):
 * the state stage 1 leaves judged on the layers, then the rest replayed
 * from it.  0, or -1 when out of memory.
 */
static int replay_withdrawn(struct soak_run *w, const struct dqr_fabric *f,
			    const struct dqr_plan_vlayers *lay,
			    const struct dqr_plan *p, const char *how)
{
	struct dqr_lfts *s1;
	char why[256];
	int r = soak_first_withdrawal(w, p, &s1);

	if (r)
		return r < 0 ? -1 : 0;
	r = dqr_union_vlayers_ok(f, s1, s1, lay, why, sizeof(why));
	if (r == 0) {
		w->t->unsafe++;
		soak_complain(w, "UNSAFE: after stage 1's withdrawal the "
			      "tables are still bad on the layers when the "
			      "cable comes up: %s", why);
	}
	if (r > 0) {
		w->t->first_withdrawn++;
		r = replay(w, f, lay, p, s1, 1, how);
	}
	dqr_lfts_free(s1);
	return r < 0 ? -1 : 0;
}

/*
 * 1 (unsafe, said) when recon's layers give some pair of switches
 * another SL than the start's, other than by a move (--layer-moves,
 * which the plugin logs): the hosts keep the SL they connected with, so
 * the layers judged would not be those the packets use.
 */
static int sl_moved(struct soak_run *w)
{
	size_t i, S = w->s->in.f->num_switches;
	uint8_t now;

	for (i = 0; i < S * S; i++) {
		now = dqr_vlayers_base_sl(w->x.recon.tl, i / S, i % S);
		if (now == w->s->soak_sl[i])
			continue;
		w->t->states_failed++;
		w->t->unsafe++;
		soak_complain(w, "UNSAFE layers: the SL from switch %zu to "
			      "%zu is %u, the hosts hold %u", i / S, i % S,
			      now, w->s->soak_sl[i]);
		return 1;
	}
	return 0;
}

/* The new tables on proj; 0, or -1 when out of memory. */
static int judge_state(struct soak_run *w, const struct dqr_fabric *proj)
{
	struct soak_tally *t = w->t;
	struct dqr_vlayers_verdict v;

	if (dqr_vlayers_verify(w->x.recon.tl, proj, w->x.recon.cur, &v))
		return -1;
	t->states++;
	if (sl_moved(w))
		return 0;
	if (v.acyclic && !v.unreachable)
		return 0;
	t->states_failed++;
	if (!v.acyclic)
		t->unsafe++;
	if (v.unreachable) {
		t->unreachable += v.unreachable;
		t->unreachable_states++;
	}
	if (!v.acyclic)
		soak_complain(w, "UNSAFE new tables: layer %u is cyclic",
			      v.cyclic_layer);
	if (v.unreachable)
		soak_complain(w, "%" PRIu64 " of the %" PRIu64 " pairs a "
			      "cable path joins are unreachable in the new "
			      "tables", v.unreachable, v.pairs);
	return 0;
}

/*
 * The transition from the tables held to recon's, as the plugin plans
 * it, judged; cut: a flap's failure, left after a random number of
 * stages; restarted: recon restarted from the original tables.  0, or
 * -1 when out of memory.
 */
static int transition(struct soak_run *w, const struct dqr_fabric *proj,
		      const struct dqr_reaction *r, int cut)
{
	struct dqr_in_flight fl = { .mixed = !w->held_is_recon };
	struct soak_tally *t = w->t;
	struct dqr_plan_report rep;
	struct dqr_vlayers_plan tp;
	struct dqr_dyn_order *cl;
	enum dqr_planner used;
	struct dqr_plan p;
	char why[256];
	double t0 = dqr_now_ms();
	int held_ok, ret = -1, restarted = r->res.from_original;

	/* the packets with the SLs the SA answers while it goes up */
	dqr_vlayers_plan_sent(&tp, w->x.recon.tl, w->x.recon.ref,
			      dqr_topology_vlayers_answered(&w->x));
	held_ok = dqr_union_vlayers_ok(proj, w->held, w->held, &tp.lay, why,
				       sizeof(why));
	if (held_ok < 0)
		return -1;
	if (!held_ok) {
		t->held_bad++;
		soak_log(w, " [tables held bad on this cabling: %s]", why);
	}
	t->ms_judge += dqr_now_ms() - t0;
	if (soak_same_tables(w->held, w->x.recon.cur)) {
		t->unchanged++;
		w->held_is_recon = 1;
		return dqr_react_in_force(&w->x);
	}
	/* the plugin's: the layered list unless a transition was cut */
	cl = dqr_react_held_list(&w->x, r, &fl);
	dqr_plan_init(&p);
	t0 = dqr_now_ms();
	if (dqr_react_plan(&w->x, proj, w->held, w->x.recon.cur, cl, &fl, &p,
			   &rep, &used))
		goto out;
	t->ms_plan += dqr_now_ms() - t0;
	t->transitions++;
	if (!rep.safe) {
		/* the plugin uploads nothing: the switches keep theirs */
		t->refused++;
		w->held_is_recon = 1;
		if (!rep.old_ok) {
			t->unsafe++;
			soak_complain(w, "UNSAFE: nothing uploaded and the "
				      "tables held are bad: %s", rep.reason);
		}
		ret = 0;
		goto out;
	}
	t->proved += rep.proved != 0;
	t->withdrawn += !rep.proved;
	t->unproved += !rep.proved && cl;
	t->proved_restart += rep.proved && restarted;
	t->stages += p.num_stages;
	t->drains += dqr_plan_drains(&p);
	t0 = dqr_now_ms();
	if (held_ok ? replay(w, proj, &tp.lay, &p, w->held, 0, rep.proved ?
			     "proved" : "withdrawn") :
	    replay_withdrawn(w, proj, &tp.lay, &p, "withdrawn first"))
		goto out;
	t->ms_judge += dqr_now_ms() - t0;
	ret = soak_upload(w, &p, cut);
	if (!ret && w->held_is_recon)
		ret = dqr_react_in_force(&w->x);
out:
	dqr_plan_release(&p);
	return ret;
}

int soak_torus_react(struct soak_run *w, int cut)
{
	struct soak_tally *t = w->t;
	struct dqr_reaction r;
	struct dqr_topo_diff d;
	struct dqr_fabric *cur = soak_cabling(w), *proj;
	double t0;
	int code, ret = -1;

	if (!cur)
		return -1;
	code = dqr_react_project(&w->x, cur, &proj, &d);
	dqr_fabric_free(cur);
	if (code < 0)
		return -1;
	if (code) {
		/* a fallback restarts intact: nothing comes back new */
		t->changes++;
		t->answers[DQR_ANSWER_FULL]++;
		soak_complain(w, "a cable or node the reference lacks");
		return fall_back(w, "full routing");
	}
	t->changes++;
	t->split += fabric_split(proj, w->s->sc.linked_node, w->parent);
	code = dqr_react_update(&w->x, proj, &d, NULL, &r);
	dqr_topo_diff_release(&d);
	if (code)
		goto out;
	if (r.answer == DQR_ANSWER_FALLBACK) {
		ret = fall_back(w, r.code == DQR_RECON_FAILED ?
				"no local path in some layer" :
				"recon over its budget");
		goto out;
	}
	t->answers[r.res.from_original ? DQR_ANSWER_RESTART :
		   DQR_ANSWER_UPDATE]++;
	t0 = dqr_now_ms();
	if (judge_state(w, proj))
		goto out;
	t->ms_judge += dqr_now_ms() - t0;
	ret = transition(w, proj, &r, cut);
out:
	dqr_fabric_free(proj);
	return ret;
}
