/*
 * soak.c - dqr-sim --soak: random sequences of faults and recoveries
 * (links, whole switches, flaps), each answered as the plugin answers
 * it, and every transition between table states planned as the plugin
 * plans it and judged stage by stage.
 *
 * The state is what the switches hold.  After each change of cabling:
 * the projection onto recon's reference and dqr_recon_update() (which
 * restarts from the original tables when something came back); when
 * that leaves entries without a legal route, the plugin's fallback
 * (the base engine routes the whole fabric, up*\/down* on a degraded one,
 * and DQR starts again on it); when the cabling has a cable the
 * reference lacks (something came back after a fallback), a full
 * routing the same way.  Then dqr_plan_change() from the tables held to
 * the new ones, with recon's channel list only when the tables held are
 * the ones recon maintained with that list, and the judgement:
 *
 *   - the new tables (dqr_verify): loop free, acyclic, every pair that a
 *     cable path joins reachable;
 *   - the plan (dqr_plan_replay from the tables held): every stage's
 *     union with the state before loop free and acyclic, ending at the
 *     new tables; safe unless the new tables are themselves bad, when
 *     the plugin uploads nothing (refused: the switches keep theirs);
 *   - its drains: a stage that does not wait is replayed with the
 *     stages since the last one that waited, from the state before that
 *     one, and dqr_plan_mark_drains() must find no drain in there.
 *
 * A flap fails a link or a switch and brings it back at once: the
 * return arrives while the failure's transition is under way, after a
 * random number of its stages (maybe all).  The plugin then plans from
 * the mix the switches hold, without the channel list.
 *
 * One VL: --vl-layers is refused with --soak (the layered plans and
 * their per-VL judgement are dqr-check's business).  A torus by e-cube
 * on virtual layers (--torus-layers) takes the same events, answered
 * and judged per layer by soak_torus.c.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fabric/topo_diff.h"
#include "routes/route_walk.h"
#include "routing/grid_route.h"
#include "transition/replay.h"
#include "transition/transition.h"
#include "util/timing.h"
#include "verify/verify.h"
#include "verify/verify_print.h"
#include "dqr_sim.h"

static const char *const ev_names[EV_NUM] = {
	"link-fail", "switch-fail", "return", "flap",
};



/* ------------------------------------------------------------ messages */

static const char *node_name(const struct sim *s, uint32_t node)
{
	return dqr_node_name(s->in.f, node);
}

/* ------------------------------------------------------------ cabling */

static int intact(const struct soak_run *w)
{
	const struct sim *s = w->s;
	uint32_t i;

	for (i = 0; i < s->sc.num_cand; i++)
		if (w->cable_down[i])
			return 0;
	for (i = 0; i < s->in.f->num_nodes; i++)
		if (w->node_down[i])
			return 0;
	return 1;
}

/* Cable i of the candidates carries traffic now. */
static int cable_up(const struct soak_run *w, uint32_t i)
{
	const struct dqr_fabric *f = w->s->in.f;
	uint32_t port = w->s->sc.cand[i];

	return !w->cable_down[i] && !w->node_down[f->ports[port].node] &&
	       !w->node_down[dqr_peer_node(f, port)];
}

/* Cable i is down by itself and would carry traffic on its return. */
static int cable_returns(const struct soak_run *w, uint32_t i)
{
	const struct dqr_fabric *f = w->s->in.f;
	uint32_t port = w->s->sc.cand[i];

	return w->cable_down[i] && !w->node_down[f->ports[port].node] &&
	       !w->node_down[dqr_peer_node(f, port)];
}

/* Cables that could fail (down 0) or return (down 1). */
static uint32_t count_cables(const struct soak_run *w, int down)
{
	uint32_t i, n = 0;

	for (i = 0; i < w->s->sc.num_cand; i++)
		n += down ? cable_returns(w, i) : cable_up(w, i);
	return n;
}

static uint32_t nth_cable(const struct soak_run *w, int down, uint32_t n)
{
	uint32_t i;

	for (i = 0; i < w->s->sc.num_cand; i++)
		if ((down ? cable_returns(w, i) : cable_up(w, i)) && !n--)
			return i;
	return DQR_NONE;
}

/* Switches up (down 0) or down (down 1). */
static uint32_t count_switches(const struct soak_run *w, int down)
{
	const struct dqr_fabric *f = w->s->in.f;
	uint32_t i, n = 0;

	for (i = 0; i < f->num_switches; i++)
		n += !w->node_down[f->switches[i]] == !down;
	return n;
}

/* Its node index. */
static uint32_t nth_switch(const struct soak_run *w, int down, uint32_t n)
{
	const struct dqr_fabric *f = w->s->in.f;
	uint32_t i;

	for (i = 0; i < f->num_switches; i++)
		if (!w->node_down[f->switches[i]] == !down && !n--)
			return f->switches[i];
	return DQR_NONE;
}

static void describe_item(struct soak_run *w, int is_switch, uint32_t item,
			  const char *how)
{
	const struct dqr_fabric *f = w->s->in.f;
	uint32_t port, peer;

	if (is_switch) {
		soak_log(w, " %u. switch %s %s;", w->event,
			 node_name(w->s, item), how);
		return;
	}
	port = w->s->sc.cand[item];
	peer = dqr_peer_port(f, port);
	soak_log(w, " %u. link %s/%u-%s/%u %s;", w->event,
		 node_name(w->s, f->ports[port].node), f->ports[port].num,
		 node_name(w->s, f->ports[peer].node), f->ports[peer].num, how);
}

/*
 * A switch that returns comes back with an empty table: it was reset,
 * and OpenSM, which dropped it, sees a new switch whose table it set
 * to OSM_NO_PATH; the plugin plans from that (its tables held).
 */
static void set_item(struct soak_run *w, int is_switch, uint32_t item,
		     int down)
{
	uint32_t sw, lid;

	if (!is_switch) {
		w->cable_down[item] = (uint8_t)down;
		return;
	}
	w->node_down[item] = (uint8_t)down;
	if (down)
		return;
	sw = w->s->in.f->nodes[item].sw_index;
	for (lid = 0; lid < w->held->lid_count; lid++)
		dqr_lft_set(w->held, sw, lid, DQR_NO_PATH);
	w->held_is_recon = 0;
}

/* ------------------------------------------------------------ tables */

/*
 * Two-phase routing answers for the pairs among whole groups only
 * (routing/twophase.h): 1 when those of t on f are all routed, so that
 * the pairs lost are the switches it leaves out; 0 when some are not or
 * it is not in force; -1 when out of memory.
 */
static int left_out_only(const struct soak_run *w,
			 const struct dqr_fabric *f, const struct dqr_lfts *t)
{
	struct dqr_twophase_view tv;
	uint64_t pairs;
	int64_t bad;

	if (dqr_topology_twophase_view(&w->x, &tv) || tv.active < 0 ||
	    tv.switches != f->num_switches)
		return 0;
	bad = dqr_unrouted_among(f, t, tv.level, DQR_TWOPHASE_WHOLE, &pairs);
	return bad < 0 ? -1 : !bad;
}

/*
 * The new tables on the cabling they serve.  0, or -1 when out of
 * memory; failures are counted and said.
 */
static int judge_tables(struct soak_run *w, const struct dqr_fabric *f,
			const struct dqr_lfts *t)
{
	struct dqr_verify_report v;
	uint64_t lost = 0;
	int k, ok;

	if (dqr_verify(f, t, &v, NULL))
		return -1;
	w->t->states++;
	for (k = 0; k < DQR_PAIR_NUM_KINDS; k++)
		lost += v.unreachable[k] - v.disconnected[k];
	ok = lost ? left_out_only(w, f, t) : 0;
	if (ok < 0) {
		dqr_verify_report_free(&v);
		return -1;
	}
	if (ok) {
		w->t->left_out += lost;
		lost = 0;
	}
	if (v.loop_entries || v.cycle_found) {
		w->t->unsafe++;
		soak_complain(w, "UNSAFE new tables: %" PRIu64 " entries on a "
			      "forwarding loop, %s", v.loop_entries,
			      v.cycle_found ? "a dependency cycle" : "acyclic");
	}
	if (lost) {
		w->t->unreachable += lost;
		w->t->unreachable_states++;
		soak_complain(w, "%" PRIu64 " pairs a cable path joins are "
			      "unreachable in the new tables", lost);
	}
	if (v.dead_port_entries) {
		w->t->dead_port_entries += v.dead_port_entries;
		soak_complain(w, "%" PRIu64 " entries of the new tables name a "
			      "port without a cable", v.dead_port_entries);
	}
	dqr_verify_report_free(&v);
	return 0;
}

/* Stages from .. of p as a plan of their own, into q. */
static int plan_tail(const struct dqr_plan *p, uint32_t from,
		     struct dqr_plan *q)
{
	uint32_t lo = p->stage_off[from], n = p->stage_off[p->num_stages] - lo;
	uint32_t s;

	if (dqr_plan_alloc(q, n))
		return -1;
	memcpy(q->entries, p->entries + lo, sizeof(*q->entries) * n);
	for (s = from; s <= p->num_stages; s++)
		q->stage_off[s - from] = p->stage_off[s] - lo;
	for (s = from; s < p->num_stages; s++) {
		q->stage_num[s - from] = s - from + 1;
		q->stage_reconf[s - from] = 0;
		q->stage_drain[s - from] = p->stage_drain[s];
	}
	q->num_entries = n;
	q->num_stages = p->num_stages - from;
	return 0;
}

/*
 * soak_first_withdrawal(), the state stage 1 leaves judged on one VL:
 * *from_out that state, *tail the rest.  0, 1 when that fails (said),
 * -1 when out of memory.
 */
static int judge_first_withdrawal(struct soak_run *w,
				  const struct dqr_fabric *f,
				  const struct dqr_plan *p,
				  struct dqr_lfts **from_out,
				  struct dqr_plan *tail)
{
	struct dqr_verify_report v;
	struct dqr_lfts *s1;
	int bad, r;

	r = soak_first_withdrawal(w, p, &s1);
	if (r)
		return r;
	if (dqr_verify(f, s1, &v, NULL)) {
		dqr_lfts_free(s1);
		return -1;
	}
	bad = v.cycle_found || v.loop_entries;
	dqr_verify_report_free(&v);
	if (bad) {
		w->t->unsafe++;
		soak_complain(w, "UNSAFE: after stage 1's withdrawal the "
			      "tables still loop or are cyclic when the "
			      "cable comes up");
		dqr_lfts_free(s1);
		return 1;
	}
	if (plan_tail(p, 1, tail)) {
		dqr_lfts_free(s1);
		return -1;
	}
	*from_out = s1;
	return 0;
}

/*
 * The plan p from the tables from: replayed stage by stage, its end, its
 * drains.  0, or -1 when out of memory.
 */
static int judge_plan_from(struct soak_run *w, const struct dqr_fabric *f,
			   const struct dqr_lfts *from,
			   const struct dqr_lfts *after,
			   const struct dqr_plan *p)
{
	struct soak_tally *t = w->t;
	struct dqr_replay_report rr;
	struct dqr_lfts *end = NULL;
	char why[512];
	uint32_t i;
	int64_t lax;

	if (dqr_plan_replay(f, from, p, &end, &rr))
		return -1;
	t->unions += rr.num_stages;
	for (i = 0; i < rr.num_stages; i++) {
		const struct dqr_stage_result *sr = &rr.stages[i];

		if (dqr_union_ok(&sr->v))
			continue;
		dqr_format_verdict(f, &sr->v, why, sizeof(why));
		t->unsafe++;
		soak_complain(w, "UNSAFE stage %u of %u: its union %s", i + 1,
			      rr.num_stages, why);
	}
	if (rr.mismatches)
		soak_complain(w, "the plan's old ports are not what %" PRIu64
			      " entries held", rr.mismatches);
	if (!end || !soak_same_tables(end, after))
		soak_complain(w, "the plan does not end at the new tables");
	dqr_replay_report_release(&rr);
	dqr_lfts_free(end);
	lax = dqr_plan_laxer_drains(f, from, p, &t->drain_checks);
	if (lax < 0)
		return -1;
	if (lax) {
		t->unsafe += (uint64_t)lax;
		soak_complain(w, "UNSAFE: %" PRId64 " stages of %u flagged "
			      "to need no drain need one", lax,
			      p->num_stages);
	}
	return 0;
}

/*
 * The plan from the tables held.  held_ok: they are loop free and
 * acyclic on this cabling (else judge_first_withdrawal).  0, or -1 when
 * out of memory.
 */
static int judge_plan(struct soak_run *w, const struct dqr_fabric *f,
		      const struct dqr_lfts *after, const struct dqr_plan *p,
		      int held_ok)
{
	struct dqr_lfts *from = NULL;
	struct dqr_plan tail;
	int r;

	if (held_ok)
		return judge_plan_from(w, f, w->held, after, p);
	dqr_plan_init(&tail);
	r = judge_first_withdrawal(w, f, p, &from, &tail);
	if (r)
		return r < 0 ? -1 : 0;
	w->t->first_withdrawn++;
	r = judge_plan_from(w, f, from, after, &tail);
	dqr_plan_release(&tail);
	dqr_lfts_free(from);
	return r;
}

/* ------------------------------------------------------------ the plugin */

/*
 * A full routing of the cabling now, as the plugin's base pass: the
 * base engine (the input tables on the intact fabric; on a degraded one
 * up*\/down*, from the corner of a mesh, which is where the plugin's
 * OpenSM engines end when they refuse a degraded fat tree or leave a
 * cycle), then DQR starts again on it as the plugin's reactor starts it
 * (lib's up*\/down* instead where the base is cyclic).  The topology
 * stays.  0, 1 after a failure (said), -1 when out of memory.
 */
static int full_routing(struct soak_run *w, const struct dqr_fabric *cur)
{
	const struct sim *s = w->s;
	struct dqr_start st;
	struct dqr_lfts *base = NULL;
	char err[256];
	int ret;

	if (!intact(w)) {
		if (dqr_updn_route(cur, &base, err, sizeof(err))) {
			dqr_reactor_stop(&w->x);
			soak_complain(w, "up*/down* failed: %s", err);
			return 1;
		}
	} else {
		base = dqr_lfts_clone(s->in.t);
		if (!base)
			return -1;
	}
	ret = dqr_react_start(&w->x, cur, &base, "base", &st);
	dqr_lfts_free(base);
	if (ret < 0)
		return -1;
	if (ret) {
		soak_complain(w, "DQR cannot start: up*/down* is cyclic");
		return 1;
	}
	if (st.code == DQR_RECON_FAILED || st.res.rs.holes)
		soak_complain(w, "DQR's start left %" PRIu64 " connected "
			      "entries without a legal route",
			      st.res.rs.failed + st.res.rs.holes);
	return 0;
}

/*
 * What the plugin's reactor makes of the cabling now: DQR's answer, or
 * a full routing.  *f: the fabric the new tables (w->x.recon.cur) serve
 * (free it); *cl: the channel list to plan with, or NULL.  The answer,
 * or -1 when out of memory, -2 after a failure that leaves no tables.
 */
static int answer(struct soak_run *w, struct dqr_fabric **f,
		  struct dqr_dyn_order **cl)
{
	struct dqr_in_flight fl = { .mixed = !w->held_is_recon };
	struct dqr_reaction r;
	struct dqr_topo_diff d;
	struct dqr_fabric *cur = soak_cabling(w), *proj;
	int code, an;

	*f = NULL;
	*cl = NULL;
	if (!cur)
		return -1;
	code = dqr_react_project(&w->x, cur, &proj, &d);
	if (code < 0) {
		dqr_fabric_free(cur);
		return -1;
	}
	an = DQR_ANSWER_FULL;
	if (!code) {
		code = dqr_react_update(&w->x, proj, &d, NULL, &r);
		dqr_topo_diff_release(&d);
		if (code)
			goto nomem;
		/* a change that moves no entry is an update of nothing */
		an = r.answer == DQR_ANSWER_UNCHANGED ? DQR_ANSWER_UPDATE :
		     r.answer;
		if (an == DQR_ANSWER_UPDATE || an == DQR_ANSWER_RESTART) {
			*cl = dqr_react_held_list(&w->x, &r, &fl);
			dqr_fabric_free(cur);
			*f = proj;
			return an;
		}
		dqr_fabric_free(proj);
	}
	code = full_routing(w, cur);
	if (code) {
		dqr_fabric_free(cur);
		return code < 0 ? -1 : -2;
	}
	*f = cur;
	return an;
nomem:
	dqr_fabric_free(proj);
	dqr_fabric_free(cur);
	return -1;
}

/*
 * The tables the switches hold, on the cabling now: a cable that came
 * back brings their entries through it back to life (entries towards a
 * destination cut off may name a dead port; a flap's return finds the
 * failure's transition under way), and no plan can mend a state that is
 * already bad.  *ok: 1 when they are loop free and acyclic.  0, or -1
 * when out of memory.
 */
static int judge_held(struct soak_run *w, const struct dqr_fabric *f,
		      int *ok)
{
	char why[256];
	int r;

	/* the planner's own judgement of one state (relay.h's rules), not
	 * dqr_verify's walk, which counts a bounce back along its cable as
	 * a loop where the switch drops the packet */
	r = dqr_union_vlayers_ok(f, w->held, w->held, NULL, why, sizeof(why));
	if (r < 0)
		return -1;
	*ok = r;
	if (!*ok)
		w->t->held_bad++;
	return 0;
}

/*
 * The plugin's answer to the cabling now and the transition to it,
 * judged.  cut: a flap's failure, whose transition the return
 * interrupts after a random number of stages.  0, or -1 when out of
 * memory.
 */
static int react(struct soak_run *w, int cut)
{
	struct soak_tally *t = w->t;
	struct dqr_plan_report rep;
	struct dqr_dyn_order *cl;
	struct dqr_fabric *f;
	struct dqr_plan p;
	double t0;
	int an, ret = -1, held_ok;

	if (w->s->o->vlayers)
		return soak_torus_react(w, cut);
	an = answer(w, &f, &cl);
	if (an == -2) {
		w->dead = 1;
		return 0;
	}
	if (an < 0)
		return -1;
	t->changes++;
	t->answers[an]++;
	t->split += fabric_split(f, w->s->sc.linked_node, w->parent);
	t0 = dqr_now_ms();
	if (judge_tables(w, f, w->x.recon.cur))
		goto out;
	t->ms_judge += dqr_now_ms() - t0;
	if (soak_same_tables(w->held, w->x.recon.cur)) {
		t->unchanged++;
		w->held_is_recon = 1;
		dqr_fabric_free(f);
		return 0;
	}
	if (judge_held(w, f, &held_ok))
		goto out;
	dqr_plan_init(&p);
	t0 = dqr_now_ms();
	if (dqr_plan_change(f, w->held, w->x.recon.cur, cl, 1, &p, &rep))
		goto out_plan;
	t->ms_plan += dqr_now_ms() - t0;
	t->transitions++;
	if (!rep.safe && !rep.new_ok) {
		/* the plugin uploads nothing: the switches keep theirs */
		t->refused++;
		w->held_is_recon = 0;
		ret = 0;
		goto out_plan;
	}
	if (!rep.safe) {
		t->unsafe++;
		soak_complain(w, "UNSAFE plan (%u stages): %s", p.num_stages,
			      rep.reason);
	}
	if (!held_ok)
		soak_log(w, " [tables held %s on this cabling, plan %s]",
			 "loop or are cyclic", rep.withdrawn ? "withdraws" :
			 rep.proved ? "proved" : "by the planner");
	t->proved += rep.proved != 0;
	t->withdrawn += rep.withdrawn != 0;
	t->planner += !rep.proved && !rep.withdrawn;
	t->stages += p.num_stages;
	t->drains += dqr_plan_drains(&p);
	t0 = dqr_now_ms();
	if (judge_plan(w, f, w->x.recon.cur, &p, held_ok))
		goto out_plan;
	t->ms_judge += dqr_now_ms() - t0;
	ret = soak_upload(w, &p, cut);
out_plan:
	dqr_plan_release(&p);
out:
	dqr_fabric_free(f);
	return ret;
}

/* ------------------------------------------------------------ events */

/* weights of the kinds: links fail most, switches least */
static const unsigned ev_weight[EV_NUM] = { 35, 15, 30, 20 };

static int pick_kind(struct soak_run *w)
{
	uint32_t avail[EV_NUM], sum = 0, x, k;

	avail[EV_LINK] = count_cables(w, 0) ? ev_weight[EV_LINK] : 0;
	avail[EV_SWITCH] = count_switches(w, 0) ? ev_weight[EV_SWITCH] : 0;
	avail[EV_RETURN] = count_cables(w, 1) + count_switches(w, 1) ?
			   ev_weight[EV_RETURN] : 0;
	avail[EV_FLAP] = avail[EV_LINK] ? ev_weight[EV_FLAP] : 0;
	for (k = 0; k < EV_NUM; k++)
		sum += avail[k];
	if (!sum)
		return -1;
	x = rng_below(&w->rng, sum);
	for (k = 0; k < EV_NUM; k++) {
		if (x < avail[k])
			return (int)k;
		x -= avail[k];
	}
	return -1;
}

/*
 * A cable (with cables) or a switch (with switches) that is up, to
 * fail, or down, to return: 1 with *item and *is_switch, 0 when none.
 */
static int pick_item(struct soak_run *w, int down, int cables,
		     int switches, uint32_t *item, int *is_switch)
{
	uint32_t nc = cables ? count_cables(w, down) : 0;
	uint32_t ns = switches ? count_switches(w, down) : 0, x;

	if (!nc && !ns)
		return 0;
	x = rng_below(&w->rng, nc + ns);
	*is_switch = x >= nc;
	*item = x < nc ? nth_cable(w, down, x) : nth_switch(w, down, x - nc);
	return 1;
}

/* One event of a run; 0, or -1 when out of memory. */
static int one_event(struct soak_run *w)
{
	uint32_t item;
	int kind = pick_kind(w), is_switch = 0, ok;

	if (kind < 0)
		return 0;	/* every switch is down */
	w->restarted = 0;
	switch (kind) {
	case EV_LINK:
		ok = pick_item(w, 0, 1, 0, &item, &is_switch);
		break;
	case EV_SWITCH:
		ok = pick_item(w, 0, 0, 1, &item, &is_switch);
		break;
	case EV_RETURN:
		ok = pick_item(w, 1, 1, 1, &item, &is_switch);
		break;
	default:
		/* a switch one time in four */
		ok = rng_below(&w->rng, 4) ?
		     pick_item(w, 0, 1, 0, &item, &is_switch) :
		     pick_item(w, 0, 0, 1, &item, &is_switch);
		break;
	}
	if (!ok)
		return 0;
	w->t->events[kind]++;
	describe_item(w, is_switch, item, kind == EV_RETURN ? "returns" :
		      kind == EV_FLAP ? "flaps" : "fails");
	set_item(w, is_switch, item, kind != EV_RETURN);
	if (react(w, kind == EV_FLAP))
		return -1;
	/* a fallback on the layers restarted the run: nothing to return */
	if (kind != EV_FLAP || w->dead || w->restarted)
		return 0;
	set_item(w, is_switch, item, 0);
	soak_log(w, " returns;");
	return react(w, 0);
}

static int run_one(struct sim *s, struct soak_tally *t, uint32_t run,
		   struct soak_run *w)
{
	unsigned k;
	int ret = 0;

	memset(w->cable_down, 0, s->sc.num_cand + 1);
	memset(w->node_down, 0, s->in.f->num_nodes + 1);
	w->s = s;
	w->t = t;
	w->run = run;
	w->rng = rng_stream(s->o->seed, 3, run);
	w->log_len = 0;
	if (w->log)
		w->log[0] = 0;
	w->dead = 0;
	if (s->o->vlayers) {
		if (soak_torus_start(w))
			ret = -1;
	} else {
		if (sim_reactor_start(s, &w->x)) {
			dqr_reactor_release(&w->x);
			return -1;
		}
		w->held = dqr_lfts_clone(w->x.recon.cur);
		w->held_is_recon = 1;
		if (!w->held)
			ret = -1;
	}
	for (k = 1; k <= s->o->faults && !ret && !w->dead; k++) {
		w->event = k;
		ret = one_event(w);
	}
	dqr_lfts_free(w->held);
	w->held = NULL;
	dqr_reactor_release(&w->x);
	return ret;
}

/* ------------------------------------------------------------ report */

static void print_soak_text(const struct sim *s, const struct soak_tally *t,
			    unsigned layers)
{
	int k;

	if (layers)
		printf("dqr-sim: %s (%s), e-cube on %u virtual layers (SL = "
		       "VL = layer), recon's layered mode: the mesh plug-in "
		       "in every layer\n  %u switches, %u end ports, %u "
		       "LIDs; %u cables may fail; a fallback restarts the "
		       "run intact\n", s->in.name, s->in.describe, layers,
		       s->sc.switches, s->sc.end_ports, s->sc.lids,
		       s->sc.num_cand);
	else
		print_header(s, stdout);
	printf("soak: %u runs of %u events (seed %" PRIu64 ")\n",
	       s->o->runs, s->o->faults, s->o->seed);
	printf("events:");
	for (k = 0; k < EV_NUM; k++)
		printf(" %s %" PRIu64 "%s", ev_names[k], t->events[k],
		       k + 1 < EV_NUM ? "," : "\n");
	printf("changes of cabling answered %" PRIu64 " (%" PRIu64
	       " leave the fabric split):", t->changes, t->split);
	for (k = DQR_ANSWER_UPDATE; k < DQR_ANSWER_NUM; k++)
		printf(" %s %" PRIu64 "%s", dqr_answer_names[k],
		       t->answers[k], k + 1 < DQR_ANSWER_NUM ? "," : "\n");
	printf("transitions planned %" PRIu64 ": proved %" PRIu64
	       ", planner %" PRIu64 ", withdrawn %" PRIu64 ", refused %"
	       PRIu64 "; tables unchanged %" PRIu64 ", left mid-way by a "
	       "flap %" PRIu64 "\n", t->transitions, t->proved, t->planner,
	       t->withdrawn, t->refused, t->unchanged, t->cut);
	printf("stages %" PRIu64 ", drains %" PRIu64 ", no-drain stages "
	       "confirmed %" PRIu64 "\n", t->stages, t->drains,
	       t->drain_checks);
	printf("judged: %" PRIu64 " states (new tables), %" PRIu64
	       " stage unions\n", t->states, t->unions);
	if (layers)
		printf("per layer: states verified %" PRIu64 ", failed %"
		       PRIu64 "; stage unions replayed %" PRIu64 ", failed %"
		       PRIu64 "; withdrawn with the list given (not proved) %"
		       PRIu64 "; proved after a restart %" PRIu64 "\n",
		       t->states, t->states_failed, t->unions,
		       t->unions_failed, t->unproved, t->proved_restart);
	printf("unsafe: %" PRIu64 "\n", t->unsafe);
	printf("tables held that loop or are cyclic on the new cabling: %"
	       PRIu64 " (stage 1 withdrew them before the cable came up: %"
	       PRIu64 ")\n", t->held_bad, t->first_withdrawn);
	printf("unreachable connected pairs: %" PRIu64 " (in %" PRIu64
	       " states)\n", t->unreachable, t->unreachable_states);
	if (t->left_out)
		printf("pairs of switches two-phase routing leaves out, "
		       "unrouted (no pair of whole groups lost): %" PRIu64
		       "\n", t->left_out);
	printf("failures: %" PRIu64 "%s\n", t->failures, t->failures ?
	       " (A BUG: see the messages on standard error)" : "");
	if (t->failures)
		printf("first failure: run %u, event %u: %s\n", t->first_run,
		       t->first_event, t->first);
	printf("time: plan %.1f ms, judge %.1f ms, wall %.2f s\n",
	       t->ms_plan, t->ms_judge, t->ms_wall / 1e3);
}

static void print_soak_json(const struct sim *s, const struct soak_tally *t)
{
	int k;

	print_json_head(s);
	printf("\"soak\":{\"runs\":%u,\"events_per_run\":%u,\"events\":{",
	       s->o->runs, s->o->faults);
	for (k = 0; k < EV_NUM; k++)
		printf("%s\"%s\":%" PRIu64, k ? "," : "", ev_names[k],
		       t->events[k]);
	printf("},\"changes\":%" PRIu64 ",\"split\":%" PRIu64
	       ",\"answers\":{", t->changes, t->split);
	for (k = DQR_ANSWER_UPDATE; k < DQR_ANSWER_NUM; k++)
		printf("%s\"%s\":%" PRIu64, k > DQR_ANSWER_UPDATE ? "," : "",
		       dqr_answer_names[k], t->answers[k]);
	printf("},\"transitions\":%" PRIu64 ",\"proved\":%" PRIu64
	       ",\"planner\":%" PRIu64 ",\"withdrawn\":%" PRIu64
	       ",\"refused\":%" PRIu64 ",\"unchanged\":%" PRIu64
	       ",\"cut\":%" PRIu64 ",\"stages\":%" PRIu64 ",\"drains\":%"
	       PRIu64 ",\"drain_checks\":%" PRIu64 ",\"states\":%" PRIu64
	       ",\"unions\":%" PRIu64 ",\"unsafe\":%" PRIu64
	       ",\"held_bad\":%" PRIu64 ",\"first_withdrawn\":%" PRIu64
	       ",\"unreachable\":%" PRIu64 ",\"unreachable_states\":%"
	       PRIu64 ",\"dead_port_entries\":%" PRIu64 ",\"failures\":%"
	       PRIu64 ",\"plan_ms\":%.3f,\"judge_ms\":%.3f,\"wall_s\":%.3f",
	       t->transitions, t->proved, t->planner, t->withdrawn,
	       t->refused, t->unchanged, t->cut, t->stages, t->drains,
	       t->drain_checks, t->states, t->unions, t->unsafe,
	       t->held_bad, t->first_withdrawn,
	       t->unreachable, t->unreachable_states, t->dead_port_entries,
	       t->failures, t->ms_plan, t->ms_judge, t->ms_wall / 1e3);
	if (t->failures) {
		printf(",\"first_failure\":{\"run\":%u,\"event\":%u,"
		       "\"what\":", t->first_run, t->first_event);
		dqr_json_string(stdout, t->first);
		putchar('}');
	}
	printf("}}\n");
}

int soak(struct sim *s)
{
	struct soak_tally t;
	struct soak_run w;
	double t0 = dqr_now_ms();
	uint32_t run;
	unsigned layers = 0;
	int ret = 0;

	if (s->o->vlayers && soak_torus_check(s, &layers))
		return 2;
	memset(&t, 0, sizeof(t));
	memset(&w, 0, sizeof(w));
	w.cable_down = malloc(s->sc.num_cand + 1);
	w.node_down = malloc(s->in.f->num_nodes + 1);
	w.parent = malloc(sizeof(uint32_t) * (s->in.f->num_nodes + 1));
	if (!w.cable_down || !w.node_down || !w.parent)
		ret = -1;
	for (run = 0; run < s->o->runs && !ret; run++)
		ret = run_one(s, &t, run, &w);
	t.ms_wall = dqr_now_ms() - t0;
	free(w.cable_down);
	free(w.node_down);
	free(w.parent);
	free(w.log);
	free(s->soak_sl);
	s->soak_sl = NULL;
	if (ret) {
		fprintf(stderr, PROG ": out of memory\n");
		return 2;
	}
	if (s->o->json)
		print_soak_json(s, &t);
	else
		print_soak_text(s, &t, layers);
	return t.failures ? 1 : 0;
}
