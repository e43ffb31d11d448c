/*
 * topo_fat_tree.c - a fat tree (topology.h): the FT paper's U-turn
 * preference among equally short reroutes, and its re-routing layer.
 *
 * When DQR cannot hold a repair in one layer (recon leaves entries
 * without a legal route), the entries are filled outside the channel
 * list and the whole routing goes on two VLs (ftree/rerouting_layer.h):
 * every route gets its SL, and the routes with a U-turn move to VL 1 at
 * their first U-turn.  Path SLs and SL2VL are then the topology's; they
 * go back to the base's when one layer holds everything again.  The fill
 * the switches may still hold when the layer goes is kept as the drop
 * list, which the next plan withdraws.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fabric/node_index.h"
#include "ftree/plane_entry.h"
#include "ftree/rerouting_layer.h"
#include "ftree/uturn_repair.h"
#include "reaction/topology-internal.h"
#include "transition/plan_rerouting.h"

struct ftree_priv {
	struct dqr_ftree *ft;
	int prefer_uturn;
	/* with uturn's switch routes: the plug-in of a fault's reroute */
	struct dqr_plane_entry *plane;
	/* the re-routing layer in force (active), on the cabling it was
	 * made for, whose GUIDs SL2VL's questions name */
	struct dqr_ml ml;
	int active;
	struct dqr_fabric *fabric;
	struct dqr_node_index *ix;
	/* the fill the switches may still hold: withdrawn by the next plan */
	struct dqr_change *drop;
	uint32_t num_drop;
	/* the layer the last update built, usable or not, for the tools */
	struct dqr_ml_stats tried;
	int have_tried;
};

static struct ftree_priv *priv(const struct dqr_reactor *x)
{
	return x->topo.priv;
}

/* Why the fabric cannot carry VL 1 now: 1 with the reason in buf. */
static int blocked(const struct dqr_reactor *x, char *buf, size_t len)
{
	const struct dqr_vl_caps *c = &x->caps;

	if (!c->qos) {
		snprintf(buf, len, "OpenSM programs SL2VL tables only with "
			 "'qos TRUE' in opensm.conf");
		return 1;
	}
	if (c->max_op_vls < 2) {
		snprintf(buf, len, "max_op_vls %u leaves VL 0 only",
			 c->max_op_vls);
		return 1;
	}
	if (c->vl0_only[0]) {
		snprintf(buf, len, "%s", c->vl0_only);
		return 1;
	}
	return 0;
}

static void ft_reroute_opts(const struct dqr_reactor *x,
			    struct dqr_reroute_opts *o)
{
	const struct ftree_priv *p = priv(x);

	if (p->prefer_uturn)
		dqr_uturn_repair_opts(p->ft, o);
}

/*
 * A fault's reroute: a way into the plane of a lost switch on the
 * anchor's side (plane_entry.h), and long routes left to the layer
 * (stretch=).
 */
static void ft_update_opts(const struct dqr_reactor *x,
			   struct dqr_reroute_opts *o)
{
	const struct ftree_priv *p = priv(x);
	char why[256];

	if (p->plane) {
		o->plugin = dqr_plane_entry;
		o->plugin_arg = p->plane;
	}
	/* without a layer to take them, long routes beat no routes */
	if (x->opts.stretch == DQR_STRETCH_OFF || !x->opts.vl_layer ||
	    blocked(x, why, sizeof(why)))
		return;
	o->stretch_on = 1;
	o->stretch = (uint32_t)x->opts.stretch;
}

/* The layer out of force; its fill stays as the drop list. */
static void deactivate(struct ftree_priv *p)
{
	if (p->active) {
		free(p->drop);
		p->drop = p->ml.fill;
		p->num_drop = p->ml.num_fill;
		p->ml.fill = NULL;
	}
	dqr_ml_release(&p->ml);
	dqr_fabric_free(p->fabric);
	dqr_node_index_free(p->ix);
	p->fabric = NULL;
	p->ix = NULL;
	p->active = 0;
}

static void drop_done(struct ftree_priv *p)
{
	free(p->drop);
	p->drop = NULL;
	p->num_drop = 0;
}

static void note_layer(struct dqr_notes *ns, const struct dqr_ml_stats *s)
{
	dqr_note(ns, DQR_NOTE_INFO, NULL, "re-routing layer: %" PRIu64
		 " entries for %" PRIu64 " LIDs that one layer cannot hold "
		 "routed outside the channel list; %" PRIu64 " routes with "
		 "a U-turn go to VL 1 there, on %u SLs (mask 0x%04x), %"
		 PRIu64 " VL-1 SL2VL entries, %" PRIu64 " routes left on SL "
		 "0; VL 0 and VL 1 acyclic, no dependency back to VL 0; fill "
		 "%.0f us, layers %.2f ms, verified in %.2f ms", s->filled,
		 s->lids, s->vl.uturn_routes, s->vl.sls_used, s->vl.sl_mask,
		 s->vl.vl1_entries, s->vl.unplaced, s->us_fill,
		 s->vl.build_ms, s->vl.verify_ms);
}

/*
 * What one layer could not hold goes on the re-routing layer, when the
 * options and the fabric allow it; see topology.h.
 */
static int ft_beyond(struct dqr_reactor *x, const struct dqr_fabric *proj,
		     int code, const struct dqr_reroute_opts *o)
{
	struct ftree_priv *p = priv(x);
	struct dqr_notes *ns = &x->notes;
	struct dqr_ml ml;
	char why[256];

	p->have_tried = 0;
	if (code != DQR_RECON_FAILED && !p->active)
		return 0;
	if (!x->opts.vl_layer) {
		deactivate(p);
		return -1;
	}
	if (blocked(x, why, sizeof(why))) {
		dqr_note(ns, DQR_NOTE_ERROR, "25", "some entries need the FT "
			 "paper's re-routing layer on VL 1, but %s; not using "
			 "it", why);
		deactivate(p);
		return -1;
	}
	if (dqr_ml_build(&x->recon, proj, p->ft, o, &ml, why, sizeof(why))) {
		dqr_note(ns, DQR_NOTE_ERROR, "26", "re-routing layer: %s", why);
		deactivate(p);
		return -1;
	}
	p->tried = ml.st;
	p->have_tried = 1;
	if (!ml.num_fill && !ml.st.left) {
		/* one layer holds everything again (a cable came back) */
		dqr_ml_release(&ml);
		deactivate(p);
		dqr_note(ns, DQR_NOTE_INFO, NULL, "the re-routing layer is no "
			 "longer needed: back to one layer, SLs and SL2VL to "
			 "OpenSM's");
		return 0;
	}
	if (!dqr_ml_usable(&ml)) {
		dqr_note(ns, DQR_NOTE_ERROR, "27", "the re-routing layer "
			 "cannot hold it either: %" PRIu64 " entries still "
			 "without route, VL 0 %s, VL 1 %s, %" PRIu64
			 " dependencies from VL 1 back to VL 0", ml.st.left,
			 ml.st.vl.acyclic[0] ? "acyclic" : "CYCLIC",
			 ml.st.vl.acyclic[1] ? "acyclic" : "CYCLIC",
			 ml.st.vl.edges_down);
		dqr_ml_release(&ml);
		deactivate(p);
		return -1;
	}
	deactivate(p);
	p->ml = ml;
	p->fabric = dqr_fabric_clone(proj);
	p->ix = p->fabric ? dqr_node_index_build(p->fabric) : NULL;
	if (!p->ix) {
		dqr_note(ns, DQR_NOTE_ERROR, "26", "re-routing layer: out of "
			 "memory");
		deactivate(p);
		return -1;
	}
	p->active = 1;
	note_layer(ns, &p->ml.st);
	return 1;
}

/* A layer that went leaves its fill to withdraw: counted as unrouted. */
static uint64_t ft_left(const struct dqr_reactor *x)
{
	return priv(x)->num_drop;
}

static const struct dqr_lfts *ft_tables(const struct dqr_reactor *x)
{
	const struct ftree_priv *p = priv(x);

	return p->active ? p->ml.tables : x->recon.cur;
}

static int ft_judge(struct dqr_reactor *x, const struct dqr_fabric *f,
		    const struct dqr_lfts *t, struct dqr_judgement *j)
{
	const struct ftree_priv *p = priv(x);

	(void)f;
	(void)t;
	if (!p->active)
		return 0;
	/* ft_beyond() kept only a layer both VLs hold */
	j->kind = DQR_JUDGED_TWO_VLS;
	j->deadlock_free = p->ml.st.vl.deadlock_free;
	return 0;
}

/* A layer in force or going: plan around it (plan_rerouting.h). */
static int ft_plan(struct dqr_reactor *x, const struct dqr_fabric *f,
		   const struct dqr_lfts *held, const struct dqr_lfts *target,
		   struct dqr_dyn_order *cl, const struct dqr_in_flight *fl,
		   struct dqr_plan *plan, struct dqr_plan_report *rep,
		   enum dqr_planner *used)
{
	const struct ftree_priv *p = priv(x);

	if (!p->active && !p->drop) {
		*used = DQR_PLANNER_ONE_LAYER;
		return dqr_plan_change(f, held, target, cl,
				       dqr_in_flight_settled(fl), plan, rep);
	}
	*used = DQR_PLANNER_REROUTING;
	return dqr_plan_build_rerouting(f, held, x->recon.cur, target,
					p->drop, p->num_drop, plan, rep);
}

static struct dqr_dyn_order *ft_held_list(struct dqr_reactor *x,
					  int from_original)
{
	/* the list never held the layer's fill */
	if (priv(x)->active)
		return NULL;
	return dqr_topology_one_layer_list(x, from_original);
}

static int ft_sets_sls(const struct dqr_reactor *x)
{
	return priv(x)->active;
}

static uint8_t ft_path_sl(const struct dqr_reactor *x, uint32_t slid,
			  uint32_t dlid, uint8_t hint)
{
	const struct ftree_priv *p = priv(x);
	uint32_t src;

	/*
	 * Not the hint: every SL but 0 may carry VL-1 entries of some
	 * U-turn route, and a route outside them must stay on VL 0.
	 */
	(void)hint;
	src = dqr_lid_owner(p->fabric, slid);
	if (src == DQR_NONE)
		return 0;
	return dqr_vl_path_sl(p->ml.vl, src, dlid);
}

/*
 * The sl2vl op (topology.h) of a fat tree with a re-routing layer: a
 * switch's table for (in, out) from ml_vls.h, which moves a route to VL 1
 * at its first U-turn; CAs' tables are left alone (see below).
 */
static unsigned ft_sl2vl(const struct dqr_reactor *x, uint64_t guid,
			 uint8_t in_port, uint8_t out_port, uint8_t *vl)
{
	const struct ftree_priv *p = priv(x);
	const struct dqr_fabric *f = p->fabric;
	uint32_t node = dqr_node_index_guid(p->ix, guid);

	/*
	 * A CA's table only picks the VL of its own sending channel, which
	 * no other channel depends into: it cannot close a cycle, so it
	 * stays as OpenSM's QoS setup made it.  (OpenSM would not even send
	 * an all-VL-0 table: it compares with a stored copy that starts
	 * zeroed.)
	 */
	if (node == DQR_NONE || !dqr_is_switch(f, node))
		return 0;
	dqr_vl_sl2vl_table(p->ml.vl, f->nodes[node].sw_index, in_port,
			   out_port, vl);
	return DQR_VL_NUM_SL;
}

static void ft_handed_over(struct dqr_reactor *x)
{
	/* the old fill is dropped by this plan, or by the upload at once */
	drop_done(priv(x));
}

static void ft_stop(struct dqr_reactor *x)
{
	deactivate(priv(x));
	drop_done(priv(x));
}

static void ft_release(struct dqr_reactor *x)
{
	struct ftree_priv *p = priv(x);

	if (!p)
		return;
	ft_stop(x);
	dqr_plane_entry_free(p->plane);
	dqr_ftree_free(p->ft);
	free(p);
	x->topo.priv = NULL;
}

/*
 * The tree and the plane plug-in, made again for y; not a re-routing
 * layer in force, nor a fill the switches may still hold: their tables
 * are the switches', not DQR's to try faults on.
 */
static int ft_copy(struct dqr_reactor *y, const struct dqr_reactor *x)
{
	const struct ftree_priv *p = priv(x);
	struct dqr_ftree *ft;
	char err[128];

	if (p->active || p->drop)
		return 1;
	if (dqr_ftree_detect(y->recon.ref, &ft, err, sizeof(err)))
		return -1;
	return dqr_topology_fat_tree(y, y->recon.ref, ft, p->prefer_uturn);
}

static const struct dqr_topology_ops fat_tree_ops = {
	.name = "fat tree",
	.reroute_opts = ft_reroute_opts,
	.update_opts = ft_update_opts,
	.start = dqr_topology_start_one_layer,
	.beyond = ft_beyond,
	.left = ft_left,
	.tables = ft_tables,
	.judge = ft_judge,
	.plan = ft_plan,
	.held_list = ft_held_list,
	.sets_sls = ft_sets_sls,
	.path_sl = ft_path_sl,
	.sl2vl = ft_sl2vl,
	.handed_over = ft_handed_over,
	.copy = ft_copy,
	.stop = ft_stop,
	.release = ft_release,
};

int dqr_topology_fat_tree(struct dqr_reactor *x, const struct dqr_fabric *f,
			  struct dqr_ftree *ft, int prefer_uturn)
{
	struct ftree_priv *p = calloc(1, sizeof(*p));

	if (p && prefer_uturn)
		p->plane = dqr_plane_entry_new(f, ft);
	if (!p || (prefer_uturn && !p->plane)) {
		free(p);
		dqr_ftree_free(ft);
		dqr_topology_any(x, 0);
		return -1;
	}
	p->ft = ft;
	p->prefer_uturn = prefer_uturn;
	dqr_topology_set(x, &fat_tree_ops, p);
	if (prefer_uturn)
		snprintf(x->topo.routing, sizeof(x->topo.routing), "uturn");
	snprintf(x->topo.shape, sizeof(x->topo.shape), "fat tree: %u levels, "
		 "%u switch groups, %u end ports", ft->num_levels,
		 ft->num_groups, ft->num_end);
	return 0;
}

const struct dqr_ftree *dqr_topology_ftree(const struct dqr_reactor *x)
{
	return x->topo.ops == &fat_tree_ops ? priv(x)->ft : NULL;
}

const struct dqr_ml *dqr_topology_rerouting(const struct dqr_reactor *x)
{
	if (x->topo.ops != &fat_tree_ops || !priv(x)->active)
		return NULL;
	return &priv(x)->ml;
}

const struct dqr_ml_stats *dqr_topology_rerouting_tried(
	const struct dqr_reactor *x)
{
	if (x->topo.ops != &fat_tree_ops || !priv(x)->have_tried)
		return NULL;
	return &priv(x)->tried;
}
