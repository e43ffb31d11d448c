/*
 * what_if.c - one fault answered on a copy of the reactor, and judged
 * (what_if.h).
 */
#include <stdlib.h>
#include <string.h>

#include "reaction/what_if.h"
#include "util/timing.h"

void dqr_what_if_release(struct dqr_what_if *w)
{
	dqr_plan_release(&w->plan);
	dqr_fabric_free(w->proj);
	dqr_lfts_free(w->held);
	w->proj = NULL;
	w->held = NULL;
}

uint32_t dqr_what_if_node_ports(const struct dqr_fabric *f, uint32_t node,
				uint32_t *ports)
{
	uint32_t n = 0;
	unsigned pn;

	dqr_for_each_linked_port(f, node, pn)
		ports[n++] = dqr_port_index(f, node, pn);
	return n;
}

static void unreachable_pairs(const struct dqr_verify_report *v,
			      uint64_t *all, uint64_t *no_path)
{
	int k;

	*all = 0;
	*no_path = 0;
	for (k = 0; k < DQR_PAIR_NUM_KINDS; k++) {
		*all += v->unreachable[k];
		*no_path += v->disconnected[k];
	}
}

static void first_lost(struct dqr_what_if *w,
		       const struct dqr_verify_report *v)
{
	int kind;

	for (kind = 0; kind < DQR_PAIR_NUM_KINDS; kind++)
		w->first_lost[kind] = v->unreachable[kind] -
				      v->disconnected[kind];
}

/*
 * What the switches hold at the first upload: the tables held with
 * every stage before the first that waits a drain; its unreached pairs
 * by kind into w->first_lost.  With no drain, judge() found them (the
 * new tables whole).  0, or -1 when out of memory.
 */
static int first_upload(struct dqr_what_if *w)
{
	const struct dqr_plan *p = &w->plan;
	struct dqr_verify_report v;
	struct dqr_lfts *t;
	uint32_t k, i;

	w->drains = w->planned ? dqr_plan_drains(p) : 0;
	if (!w->drains)
		return 0;
	t = dqr_lfts_clone(w->held);
	if (!t)
		return -1;
	for (k = 0; w->planned && k < p->num_stages; k++) {
		if (k && p->stage_drain[k])
			break;
		for (i = p->stage_off[k]; i < p->stage_off[k + 1]; i++)
			dqr_lft_set(t, p->entries[i].sw, p->entries[i].lid,
				    p->entries[i].new_port);
	}
	if (dqr_verify(w->proj, t, &v, NULL)) {
		dqr_lfts_free(t);
		return -1;
	}
	first_lost(w, &v);
	dqr_verify_report_free(&v);
	dqr_lfts_free(t);
	return 0;
}

/* The new tables t, judged as the plugin judges them; 0 or -1. */
static int judge(struct dqr_reactor *x, const struct dqr_lfts *t,
		 struct dqr_what_if *w)
{
	struct dqr_judgement j;

	if (dqr_react_judge(x, w->proj, t, &j))
		return -1;
	first_lost(w, &j.v);
	unreachable_pairs(&j.v, &w->unreachable, &w->no_path);
	w->lost = w->unreachable - w->no_path;
	w->loop_entries = j.v.loop_entries;
	w->dead_port_entries = j.v.dead_port_entries;
	/* per VL on two layers or virtual layers, else on one */
	w->cycle = j.deadlock_free != 1;
	dqr_judgement_release(&j);
	w->connected = !w->lost && w->code != DQR_RECON_OVER;
	w->loop_free = !w->loop_entries && !w->dead_port_entries;
	w->deadlock_free = !w->cycle && (!w->planned || w->rep.safe);
	return 0;
}

/* The cycle that makes the first waiting stage wait, as logged. */
static int find_wait_cycle(struct dqr_reactor *x, struct dqr_what_if *w)
{
	const struct dqr_plan *p = &w->plan;
	uint32_t k;

	w->wait_cycle[0] = '\0';
	for (k = 1; p->stage_drain && k < p->num_stages; k++)
		if (p->stage_drain[k] & (DQR_DRAIN_LOOP | DQR_DRAIN_CYCLE))
			return dqr_react_wait_cycle(x, w->proj, w->held, p, k,
						    w->wait_cycle,
						    sizeof(w->wait_cycle));
	return 0;
}

/*
 * The change proven where the tables changed, and the plan safe: w's
 * verdict without judging the tables whole.  1, 0 (judge whole), -1.
 */
static int quick(struct dqr_reactor *x, const struct dqr_topo_diff *d,
		 const struct dqr_reaction *r, struct dqr_what_if *w)
{
	struct dqr_change_report cr;
	int ret;

	if (w->planned && !w->rep.safe)
		return 0;
	ret = dqr_react_check_change(x, w->proj, d, w->held, r, &cr);
	if (ret <= 0)
		return ret;
	w->quick = 1;
	w->no_path = cr.cut_off;
	w->unreachable = cr.unreachable + cr.cut_off;
	w->connected = w->loop_free = w->deadlock_free = 1;
	w->drains = w->planned ? dqr_plan_drains(&w->plan) : 0;
	return 1;
}

int dqr_what_if(struct dqr_reactor *x, const uint32_t *ports, uint32_t n,
		unsigned flags, struct dqr_what_if *w)
{
	static const struct dqr_in_flight settled;
	const struct dqr_lfts *target;
	const struct dqr_ml *ml;
	struct dqr_topo_diff d;
	struct dqr_reaction r;
	enum dqr_planner used;
	double t0;
	int ret = -1;

	memset(w, 0, sizeof(*w));
	memset(&d, 0, sizeof(d));
	dqr_plan_init(&w->plan);
	if (!x->ready)
		return -1;
	/* a trap's projection, as the fast path makes it; with no subnet
	 * manager here, a dead switch stays in it, cut off */
	w->held = dqr_lfts_clone(x->recon.cur);
	if (!w->held ||
	    dqr_react_project_cut(x, ports, n, DQR_NONE, &w->proj, &d))
		goto out;
	t0 = dqr_now_ms();
	if (dqr_react_update(x, w->proj, &d, NULL, &r))
		goto out;
	w->code = r.code;
	w->res = r.res;
	/* a topology without a second layer never tried one */
	w->layer = r.layer < 0 && !dqr_topology_rerouting_tried(x) &&
		   r.code == DQR_RECON_FAILED ? 0 : r.layer;
	ml = dqr_topology_rerouting(x);
	w->filled = w->layer > 0 && ml ? ml->st.filled : 0;
	target = r.target ? r.target : x->recon.cur;
	dqr_lfts_diff(w->held, target, &w->diff);
	if (w->diff.entries) {
		if (dqr_react_plan(x, w->proj, w->held, target,
				   dqr_react_held_list(x, &r, &settled),
				   &settled, &w->plan, &w->rep, &used))
			goto out;
		w->planned = 1;
		w->layered = used == DQR_PLANNER_REROUTING;
		if ((flags & DQR_WHAT_IF_CYCLE) && find_wait_cycle(x, w))
			goto out;
	}
	w->ms = dqr_now_ms() - t0;
	if (flags & DQR_WHAT_IF_QUICK) {
		ret = quick(x, &d, &r, w);
		if (ret) {
			ret = ret < 0 ? -1 : 0;
			goto out;
		}
		ret = -1;
	}
	/* the first upload after the judgement: its figures by default */
	ret = judge(x, target, w) ? -1 : first_upload(w);
out:
	dqr_topo_diff_release(&d);
	return ret;
}
