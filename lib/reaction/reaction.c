/*
 * reaction.c - the reactor's life, and DQR's answer to a change of
 * cabling (reaction.h): project, update, and the choice of the list and
 * planner for the transition.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reaction/topology-internal.h"
#include "util/check.h"

const char *const dqr_answer_names[DQR_ANSWER_NUM] = {
	"unchanged", "update", "restart", "fallback", "full",
};

void dqr_reactor_init(struct dqr_reactor *x, const struct dqr_options *o)
{
	memset(x, 0, sizeof(*x));
	x->opts = *o;
	dqr_topology_any(x, 0);
}

void dqr_reactor_stop(struct dqr_reactor *x)
{
	/* sized for the reference, which the next start may change */
	dqr_change_check_free(x->check);
	x->check = NULL;
	if (x->topo.ops && x->topo.ops->stop)
		x->topo.ops->stop(x);
	if (x->ready)
		dqr_recon_release(&x->recon);
	memset(&x->recon, 0, sizeof(x->recon));
	x->ready = 0;
}

void dqr_reactor_reset(struct dqr_reactor *x)
{
	dqr_reactor_stop(x);
	dqr_topology_any(x, 0);
	x->updn_instead = 0;
}

void dqr_reactor_release(struct dqr_reactor *x)
{
	dqr_reactor_stop(x);
	if (x->topo.ops && x->topo.ops->release)
		x->topo.ops->release(x);
	memset(&x->topo, 0, sizeof(x->topo));
}

int dqr_reactor_clone(const struct dqr_reactor *x, struct dqr_reactor *y)
{
	const struct dqr_topology_ops *ops = x->topo.ops;
	int ret;

	dqr_reactor_init(y, &x->opts);
	if (!x->ready)
		return 1;
	ret = dqr_recon_clone(&x->recon, &y->recon);
	if (ret)
		return ret;
	y->ready = 1;
	y->caps = x->caps;
	y->updn_instead = x->updn_instead;
	y->said_no_fat_tree = 1;
	if (x->topo.priv)
		ret = ops->copy ? ops->copy(y, x) : 1;
	else
		y->topo.ops = ops;
	if (ret)
		return ret;
	memcpy(y->topo.routing, x->topo.routing, sizeof(y->topo.routing));
	memcpy(y->topo.shape, x->topo.shape, sizeof(y->topo.shape));
	y->topo.base_sls = x->topo.base_sls;
	return 0;
}

void dqr_react_reroute_opts(const struct dqr_reactor *x,
			    struct dqr_reroute_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->mode = x->opts.mode;
	o->turns = x->opts.turns;
	/* topology plug-ins (the DQR paper, IV.C) attach here */
	if (x->topo.ops->reroute_opts)
		x->topo.ops->reroute_opts(x, o);
}

int dqr_react_project(struct dqr_reactor *x, const struct dqr_fabric *now,
		      struct dqr_fabric **proj, struct dqr_topo_diff *d)
{
	dqr_notes_clear(&x->notes);
	*proj = NULL;
	memset(d, 0, sizeof(*d));
	if (!x->ready)
		return 1;
	*proj = dqr_fabric_project(x->recon.ref, now, d);
	if (!*proj) {
		dqr_note(&x->notes, DQR_NOTE_ERROR, "12", "out of memory "
			 "comparing the subnet with the model; routing from "
			 "scratch");
		return -1;
	}
	if (dqr_topo_diff_degraded_only(d))
		return 0;
	dqr_note(&x->notes, DQR_NOTE_INFO, NULL, "the subnet has hardware "
		 "the channel list does not know (%u new nodes, %u new "
		 "cables, %u changed LIDs): full routing by the base engine",
		 d->nodes_new, d->links_new, d->lids_changed);
	dqr_fabric_free(*proj);
	*proj = NULL;
	dqr_topo_diff_release(d);
	memset(d, 0, sizeof(*d));
	return 1;
}

int dqr_react_project_cut(struct dqr_reactor *x, const uint32_t *ports,
			  uint32_t nports, uint32_t root,
			  struct dqr_fabric **proj, struct dqr_topo_diff *d)
{
	const struct dqr_recon *r = &x->recon;

	dqr_notes_clear(&x->notes);
	*proj = NULL;
	memset(d, 0, sizeof(*d));
	if (!x->ready)
		return 1;
	*proj = dqr_fabric_clone(r->ref);
	if (*proj &&
	    !dqr_fabric_project_cut(*proj, r->ref, r->down, r->num_down, d) &&
	    !dqr_fabric_project_cut(*proj, r->ref, ports, nports, d) &&
	    (root == DQR_NONE ||
	     !dqr_fabric_project_unreached(*proj, r->ref, root, d)))
		return 0;
	dqr_note(&x->notes, DQR_NOTE_ERROR, "12", "out of memory cutting "
		 "the cables a trap found down from the model");
	dqr_fabric_free(*proj);
	*proj = NULL;
	dqr_topo_diff_release(d);
	memset(d, 0, sizeof(*d));
	return -1;
}

/* Entries a second layer could not take: recon's, or the topology's. */
static uint64_t left_unrouted(const struct dqr_reactor *x, int code,
			      const struct dqr_recon_result *res)
{
	if (code == DQR_RECON_FAILED)
		return res->rs.failed;
	return x->topo.ops->left ? x->topo.ops->left(x) : 0;
}

/* 1 on the second layer, 0 in one, -1 entries left (topology.h). */
static int beyond(struct dqr_reactor *x, const struct dqr_fabric *proj,
		  int code, const struct dqr_reroute_opts *o)
{
	if (code == DQR_RECON_OVER)
		return -1;
	if (x->topo.ops->beyond)
		return x->topo.ops->beyond(x, proj, code, o);
	if (code != DQR_RECON_FAILED)
		return 0;
	if (x->opts.vl_layer)
		dqr_note(&x->notes, DQR_NOTE_INFO, NULL, "the re-routing "
			 "layer needs the fat tree of base=uturn; none here");
	return -1;
}

static const struct dqr_lfts *tables(const struct dqr_reactor *x)
{
	if (x->topo.ops->tables)
		return x->topo.ops->tables(x);
	return x->recon.cur;
}

/*
 * DQR's answer; see reaction.h.  The order of the judgements is the
 * plugin's: out of memory, then past the budget (recon half done), then
 * entries without a legal route with fallback=base.
 */
int dqr_react_update(struct dqr_reactor *x, const struct dqr_fabric *proj,
		     const struct dqr_topo_diff *d, struct dqr_budget *b,
		     struct dqr_reaction *out)
{
	struct dqr_reroute_opts o;
	struct dqr_recon_result *res = &out->res;

	DQR_CHECK(x->ready);
	dqr_notes_clear(&x->notes);
	memset(out, 0, sizeof(*out));
	dqr_react_reroute_opts(x, &o);
	if (x->topo.ops->update_opts)
		x->topo.ops->update_opts(x, &o);
	/* a fault's reroute has a budget; the start after a base has not */
	o.budget = b;
	memset(&x->recon.base, 0, sizeof(x->recon.base));
	if (x->topo.ops->recon_base)
		x->topo.ops->recon_base(x, &x->recon.base);
	out->code = dqr_recon_update(&x->recon, proj, d, &o, res);
	if (x->topo.ops->after_update)
		x->topo.ops->after_update(x, res, &x->notes);
	if (out->code == DQR_RECON_OK && !res->ports_failed &&
	    !res->ports_recovered && !res->diff.entries) {
		/* a re-route without a change of cabling: nothing to do */
		out->answer = DQR_ANSWER_UNCHANGED;
		out->target = tables(x);
		return 0;
	}
	out->answer = DQR_ANSWER_FALLBACK;
	if (out->code == DQR_RECON_NOMEM) {
		out->why = DQR_FALL_NOMEM;
		return -1;
	}
	out->layer = beyond(x, proj, out->code, &o);
	if (dqr_budget_over(b)) {
		out->why = DQR_FALL_BUDGET;
		return 0;
	}
	out->unrouted = left_unrouted(x, out->code, res);
	if (out->layer < 0 && x->opts.fallback == DQR_FALLBACK_BASE) {
		out->why = DQR_FALL_NO_ROUTE;
		return 0;
	}
	out->answer = res->from_original ? DQR_ANSWER_RESTART :
		      DQR_ANSWER_UPDATE;
	out->target = out->layer > 0 ? tables(x) : x->recon.cur;
	return 0;
}

int dqr_react_wait_cycle(struct dqr_reactor *x, const struct dqr_fabric *f,
			 const struct dqr_lfts *from, const struct dqr_plan *p,
			 uint32_t s, char *buf, size_t len)
{
	if (x->topo.ops->wait_cycle)
		return x->topo.ops->wait_cycle(x, f, from, p, s, buf, len);
	return dqr_plan_wait_cycle(f, from, p, s, buf, len);
}

struct dqr_dyn_order *dqr_react_held_list(struct dqr_reactor *x,
					  const struct dqr_reaction *r,
					  const struct dqr_in_flight *fl)
{
	/* only DQR's own changes on one layer: a second layer's fill and
	 * a base's tables were never in the list */
	if (!r || r->layer != 0 || (r->answer != DQR_ANSWER_UPDATE &&
				    r->answer != DQR_ANSWER_RESTART))
		return NULL;
	/* a mix of two states has dependencies neither had */
	if (fl->mixed)
		return NULL;
	/* older packets may use dependencies the list never saw */
	if (fl->unsettled && !fl->deps_in_list)
		return NULL;
	return x->topo.ops->held_list(x, r->res.from_original);
}

int dqr_react_plan(struct dqr_reactor *x, const struct dqr_fabric *f,
		   const struct dqr_lfts *held, const struct dqr_lfts *target,
		   struct dqr_dyn_order *cl, const struct dqr_in_flight *fl,
		   struct dqr_plan *p, struct dqr_plan_report *rep,
		   enum dqr_planner *used)
{
	*used = DQR_PLANNER_ONE_LAYER;
	if (x->topo.ops->plan)
		return x->topo.ops->plan(x, f, held, target, cl, fl, p, rep,
					 used);
	return dqr_plan_change(f, held, target, cl,
			       dqr_in_flight_settled(fl), p, rep);
}

int dqr_react_second_layer(const struct dqr_reactor *x)
{
	return x->ready && tables(x) != x->recon.cur;
}

void dqr_react_handed_over(struct dqr_reactor *x)
{
	if (x->topo.ops->handed_over)
		x->topo.ops->handed_over(x);
}

int dqr_react_in_force(struct dqr_reactor *x)
{
	return x->topo.ops->in_force ? x->topo.ops->in_force(x) : 0;
}

int dqr_react_judge(struct dqr_reactor *x, const struct dqr_fabric *f,
		    const struct dqr_lfts *t, struct dqr_judgement *j)
{
	memset(j, 0, sizeof(*j));
	if (dqr_verify(f, t, &j->v, NULL)) {
		dqr_verify_report_free(&j->v);
		return -1;
	}
	j->kind = DQR_JUDGED_ONE_LAYER;
	j->deadlock_free = !j->v.cycle_found;
	if (x->topo.ops->judge && x->topo.ops->judge(x, f, t, j)) {
		dqr_verify_report_free(&j->v);
		return -1;
	}
	return 0;
}

void dqr_judgement_release(struct dqr_judgement *j)
{
	dqr_verify_report_free(&j->v);
}

int dqr_judgement_safe(const struct dqr_judgement *j)
{
	return !j->v.loop_entries && j->deadlock_free == 1;
}
