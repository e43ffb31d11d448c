/*
 * topo_vlayers.c - a grid on virtual layers (topology.h): e-cube's on a
 * torus, or LASH's (vlayers/vlayers.h).
 *
 * Every route keeps one layer end to end: SL = VL = the layer its source
 * and destination switches give it, so path SLs answer the layer and
 * SL2VL maps SL l to VL l on every port (l below the layers in use, or,
 * where repairs may move routes, below the VLs the ports carry, so that
 * a move needs no new SL2VL table).  DQR repairs in every layer with the
 * mesh plug-in and the search past it (recon's layered mode); every
 * state is cyclic on one layer, so the judgement and the planner are
 * per layer, and the layered list holds every dependency of every state
 * recon made, also after a restart (the layered proof puts every hop
 * pair of the changed DLIDs' states into it, plan_proved.c).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "reaction/topology-internal.h"
#include "routes/route_walk.h"
#include "transition/plan_vlayers.h"

struct vlayers_priv {
	/* until DQR starts, then recon's (recon.h: grid, tl) */
	struct dqr_grid *grid;
	struct dqr_vlayers *tl;
	unsigned vls;		/* the layers SL2VL maps */
	/* intermediates=N asked for, and whether the layers leave it room */
	unsigned imed_asked;
	int imed_room;
	char whose[16];		/* "e-cube's", "lash's" */
	/*
	 * The SLs the SA answers: tl's when the tables last planned were
	 * in force everywhere (vl_in_force()).  A change that moves pairs
	 * to other SLs goes up while their packets still carry the old
	 * one, so the new SL is answered only once no switch holds an old
	 * entry that a packet with it could meet (doc/grids.md).
	 */
	struct dqr_vlayers_sls answered;
};

static struct vlayers_priv *priv(const struct dqr_reactor *x)
{
	return x->topo.priv;
}

static int vl_start(struct dqr_reactor *x, const struct dqr_fabric *f,
		    const struct dqr_lfts *t, const struct dqr_reroute_opts *o,
		    struct dqr_recon_result *res)
{
	struct vlayers_priv *p = priv(x);
	int ret;

	(void)o;
	/* recon owns them from here on, whatever it answers */
	ret = dqr_recon_start_vlayers(&x->recon, f, p->grid, p->tl, t, res);
	p->grid = NULL;
	p->tl = NULL;
	return ret;
}

/* The layers DQR repairs in, once it started. */
static const struct dqr_vlayers *layers(const struct dqr_reactor *x)
{
	return x->ready ? x->recon.tl : NULL;
}

static int vl_judge(struct dqr_reactor *x, const struct dqr_fabric *f,
		    const struct dqr_lfts *t, struct dqr_judgement *j)
{
	const struct dqr_vlayers *tl = layers(x);

	if (!tl)
		return 0;
	if (dqr_vlayers_verify(tl, f, t, &j->vv))
		return -1;
	j->kind = DQR_JUDGED_VLAYERS;
	j->deadlock_free = j->vv.acyclic;
	return 0;
}

/*
 * Every state is cyclic on one layer, so the change is proved per layer
 * (cl: the layered list, when it holds what the switches use), else
 * withdrawn and installed when both tables hold in every layer
 * (transition.h: dqr_plan_change_vlayers).
 */
static int vl_plan(struct dqr_reactor *x, const struct dqr_fabric *f,
		   const struct dqr_lfts *held, const struct dqr_lfts *target,
		   struct dqr_dyn_order *cl, const struct dqr_in_flight *fl,
		   struct dqr_plan *p, struct dqr_plan_report *rep,
		   enum dqr_planner *used)
{
	struct dqr_vlayers_plan tp, sent;

	if (!layers(x)) {
		*used = DQR_PLANNER_ONE_LAYER;
		return dqr_plan_change(f, held, target, cl,
				       dqr_in_flight_settled(fl), p, rep);
	}
	*used = DQR_PLANNER_VLAYERS;
	dqr_vlayers_plan_init(&tp, x->recon.tl, x->recon.ref);
	dqr_vlayers_plan_sent(&sent, x->recon.tl, x->recon.ref,
			      &priv(x)->answered);
	return dqr_plan_change_vlayers(f, held, target, cl, &tp.lay,
				       &sent.lay, p, rep);
}

/*
 * Every state is cyclic on one layer, so a one-layer cycle says nothing:
 * the union of the state before the last stage that waited (or the
 * start) and the state after s, judged per layer, names the layer whose
 * dependencies close a cycle, or the DLID that loops.
 */
static int vl_wait_cycle(struct dqr_reactor *x, const struct dqr_fabric *f,
			 const struct dqr_lfts *from, const struct dqr_plan *p,
			 uint32_t s, char *buf, size_t len)
{
	struct dqr_vlayers_plan tp;
	struct dqr_lfts *a, *b;
	uint32_t w = s - 1, i;
	char why[200];
	int ok;

	if (!layers(x))
		return dqr_plan_wait_cycle(f, from, p, s, buf, len);
	if (len)
		buf[0] = '\0';
	if (s < 1 || s >= p->num_stages || !p->stage_drain)
		return 0;
	while (w && !p->stage_drain[w])
		w--;
	a = dqr_lfts_clone(from);
	b = dqr_lfts_clone(from);
	if (!a || !b) {
		dqr_lfts_free(a);
		dqr_lfts_free(b);
		return -1;
	}
	for (i = 0; i < p->stage_off[s + 1]; i++) {
		if (i < p->stage_off[w])
			dqr_lft_set(a, p->entries[i].sw, p->entries[i].lid,
				    p->entries[i].new_port);
		dqr_lft_set(b, p->entries[i].sw, p->entries[i].lid,
			    p->entries[i].new_port);
	}
	/* the packets of the stages: as the planner judged them */
	dqr_vlayers_plan_sent(&tp, x->recon.tl, x->recon.ref,
			      &priv(x)->answered);
	ok = dqr_union_vlayers_ok(f, a, b, &tp.lay, why, sizeof(why));
	if (!ok)
		snprintf(buf, len, "per layer: %s", why);
	dqr_lfts_free(a);
	dqr_lfts_free(b);
	return ok < 0 ? -1 : 0;
}

static struct dqr_dyn_order *vl_held_list(struct dqr_reactor *x,
					  int from_original)
{
	(void)from_original;
	return layers(x) ? dqr_vlayers_list(x->recon.tl) : NULL;
}

static int vl_sets_sls(const struct dqr_reactor *x)
{
	return layers(x) != NULL;
}

static uint8_t vl_path_sl(const struct dqr_reactor *x, uint32_t slid,
			  uint32_t dlid, uint8_t hint)
{
	const struct dqr_fabric *f = x->recon.ref;
	uint32_t s = dqr_lid_switch(f, slid), d = dqr_lid_switch(f, dlid);

	if (s == DQR_NONE || d == DQR_NONE)
		return hint;
	return dqr_vlayers_sl_by(x->recon.tl, &priv(x)->answered, s, d);
}

/* The in_force op (topology.h): the SA may answer tl's SLs now. */
static int vl_in_force(struct dqr_reactor *x)
{
	const struct dqr_vlayers *tl = layers(x);

	return tl ? dqr_vlayers_sls_take(tl, &priv(x)->answered) : 0;
}

static unsigned vl_sl2vl(const struct dqr_reactor *x, uint64_t guid,
			 uint8_t in_port, uint8_t out_port, uint8_t *vl)
{
	unsigned sl, n = dqr_vlayers_count(x->recon.tl);

	(void)guid;
	(void)in_port;
	(void)out_port;
	/* the spare layers too: a move needs no new SL2VL tables */
	if (priv(x)->vls > n)
		n = priv(x)->vls;
	for (sl = 0; sl < n; sl++)
		vl[sl] = (uint8_t)sl;
	return n;
}

/*
 * The after_update op (topology.h) of a torus on layers: notes what the
 * mesh plug-in and the search did in the layers, and, as NOTICEs, every
 * pair of switches whose SL a repair or a restart changed, since hosts keep
 * the SL they connected with until they ask the SA again.
 */
static void vl_after_update(struct dqr_reactor *x,
			    const struct dqr_recon_result *res,
			    struct dqr_notes *ns)
{
	const struct dqr_vlayers_stats *st = &x->recon.vstats;

	if (!res->ports_failed && !res->from_original)
		return;
	if (x->ready && x->recon.pairs_moved_back)
		dqr_note(ns, DQR_NOTE_NOTICE, NULL, "from the original "
			 "tables: %" PRIu64 " pairs of switches moved by "
			 "repairs are back on their start SL; connections "
			 "opened meanwhile keep the moved one until they ask "
			 "the SA again", x->recon.pairs_moved_back);
	x->recon.pairs_moved_back = 0;
	if (!layers(x) || !st->links_failed)
		return;
	if (priv(x) && priv(x)->imed_asked && !priv(x)->imed_room)
		dqr_note(ns, DQR_NOTE_NOTICE, NULL, "intermediates=%u not "
			 "used: the %u layers leave no VL spare for moves "
			 "(layer_moves=%s), and the IN paper's routes would "
			 "take the room later repairs need",
			 priv(x)->imed_asked, dqr_vlayers_count(layers(x)),
			 x->opts.layer_moves ? "on" : "off");
	else if (st->lids_intermediate)
		dqr_note(ns, DQR_NOTE_INFO, NULL, "the IN paper's routes "
			 "through at most %u intermediate switches laid %u "
			 "DLIDs first", x->opts.intermediates,
			 st->lids_intermediate);
	dqr_note(ns, DQR_NOTE_INFO, NULL, "mesh plug-in: %u of %u failed "
		 "links bypassed by a local path in every layer, %u more "
		 "with the topology-agnostic search in the routes' own "
		 "layers (%u DLIDs; %u turns enabled, %u after a reorder, %"
		 PRIu64 " entries)%s", st->links_bypassed, st->links_failed,
		 st->links_searched, st->lids_searched, st->turns,
		 st->reorders, st->changed,
		 st->links_bypassed + st->links_searched < st->links_failed ?
		 "; the rest has no legal route on the layers" : "");
	if (!st->lids_moved)
		return;
	/* hosts keep the SL they connected with: the operator must know */
	dqr_note(ns, DQR_NOTE_NOTICE, NULL, "no path fitted the own layers "
		 "of %u DLIDs' routes: %" PRIu64 " pairs of switches moved "
		 "to another layer (layer_moves=on; %" PRIu64 " pairs off "
		 "their start SL, %u layers in use); the SA answers their "
		 "new SL once the new tables are in force everywhere, and "
		 "connections opened before keep the old one until they ask "
		 "again", st->lids_moved, st->pairs_moved,
		 dqr_vlayers_moved(x->recon.tl),
		 dqr_vlayers_count(x->recon.tl));
}

/*
 * The plugin_stats op (topology.h): the last repair's figures of the
 * layers for dqr-status, nothing when the torus is not on layers.
 */
static void vl_plugin_stats(const struct dqr_reactor *x,
			    struct dqr_plugin_stats *st)
{
	const struct dqr_vlayers_stats *ts = &x->recon.vstats;
	const struct dqr_vlayers *tl = layers(x);

	if (!tl)
		return;
	st->present = 1;
	st->layered = 1;
	st->links_failed = ts->links_failed;
	st->links_bypassed = ts->links_bypassed;
	st->links_searched = ts->links_searched;
	st->lids_searched = ts->lids_searched;
	st->lids_moved = ts->lids_moved;
	st->pairs_moved = ts->pairs_moved;
	st->pairs_on_moved_sl = dqr_vlayers_moved(tl);
	st->turns = ts->turns;
	st->reorders = ts->reorders;
	st->layers = dqr_vlayers_count(tl);
}

static void vl_release(struct dqr_reactor *x)
{
	struct vlayers_priv *p = priv(x);

	if (!p)
		return;
	dqr_vlayers_free(p->tl);
	dqr_grid_free(p->grid);
	dqr_vlayers_sls_release(&p->answered);
	free(p);
	x->topo.priv = NULL;
}

static const struct dqr_topology_ops vlayers_ops = {
	.name = "vlayers",
	.start = vl_start,
	.judge = vl_judge,
	.plan = vl_plan,
	.wait_cycle = vl_wait_cycle,
	.held_list = vl_held_list,
	.sets_sls = vl_sets_sls,
	.path_sl = vl_path_sl,
	.in_force = vl_in_force,
	.sl2vl = vl_sl2vl,
	.after_update = vl_after_update,
	.plugin_stats = vl_plugin_stats,
	.release = vl_release,
};

int dqr_topology_vlayers(struct dqr_reactor *x, struct dqr_grid *g,
			 struct dqr_vlayers *tl, unsigned moves,
			 const char *whose, const char *routing)
{
	struct vlayers_priv *p = calloc(1, sizeof(*p));

	if (!p) {
		dqr_vlayers_free(tl);
		dqr_grid_free(g);
		dqr_topology_any(x, 0);
		return -1;
	}
	p->grid = g;
	p->tl = tl;
	p->vls = x->opts.layer_moves ? moves : dqr_vlayers_count(tl);
	dqr_vlayers_allow_moves(tl, x->opts.layer_moves ? moves : 0);
	/*
	 * The IN paper's routes take room in the layers that later repairs
	 * need; only a spare VL to move those to makes up for it (on
	 * e-cube's 8 layers of a 3D torus, 1 run in 10 held 14 faults with
	 * them, 9 without: doc/intermediate-switches.md).
	 */
	p->imed_asked = x->opts.intermediates;
	p->imed_room = x->opts.layer_moves && moves > dqr_vlayers_count(tl);
	dqr_vlayers_allow_intermediates(tl, p->imed_room ?
					x->opts.intermediates : 0);
	snprintf(p->whose, sizeof(p->whose), "%s", whose);
	dqr_topology_set(x, &vlayers_ops, p);
	snprintf(x->topo.routing, sizeof(x->topo.routing), "%s", routing);
	return 0;
}

const char *dqr_topology_whose(const struct dqr_reactor *x)
{
	return x->topo.ops == &vlayers_ops ? priv(x)->whose : "";
}

const struct dqr_vlayers *dqr_topology_vlayers_in_force(
	const struct dqr_reactor *x)
{
	if (x->topo.ops != &vlayers_ops)
		return NULL;
	return layers(x) ? layers(x) : priv(x)->tl;
}

unsigned dqr_topology_vlayers_vls(const struct dqr_reactor *x)
{
	return x->topo.ops == &vlayers_ops ? priv(x)->vls : 0;
}

const struct dqr_vlayers_sls *dqr_topology_vlayers_answered(
	const struct dqr_reactor *x)
{
	return x->topo.ops == &vlayers_ops && priv(x) ? &priv(x)->answered :
	       NULL;
}
