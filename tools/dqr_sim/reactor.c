/*
 * reactor.c - dqr-sim's reactor: the plugin's own (lib/reaction), with
 * the topology the plugin would hold for the input.  Every run, what-if
 * fault and soak event goes through it, so what dqr-sim measures is
 * what opensm runs.
 *
 * The VLs are OpenSM's defaults (qos FALSE: VL 0 only), as a user who
 * loads the plugin into an opensm.conf left alone has them, unless the
 * run asks for VLs (--qos, --vl-layers, --torus-layers, --lash): then
 * every VL the topology asks for (qos TRUE, 8 data VLs), and the
 * re-routing layer and virtual layers are judged as the plugin would
 * run them where OpenSM programs SL2VL tables.
 * Below the other files of dqr-sim: it calls none of them.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mesh/wrap_bias.h"
#include "shape/ftree_shape.h"
#include "shape/grid_shape.h"
#include "dqr_sim.h"

/* 1 when the input is a fat tree. */
static int is_fat_tree(const struct sim *s)
{
	struct dqr_ftree *ft;
	char err[64];

	if (dqr_ftree_detect(s->in.f, &ft, err, sizeof(err)))
		return 0;
	dqr_ftree_free(ft);
	return 1;
}

/* The fat tree of the input, or why not after a message. */
static int fat_tree(const struct sim *s, const char *needs)
{
	struct dqr_ftree *ft;
	char err[512];

	if (dqr_ftree_detect(s->in.f, &ft, err, sizeof(err))) {
		fprintf(stderr, PROG ": %s%s: %s\n", needs, s->in.name, err);
		return -1;
	}
	dqr_ftree_free(ft);
	return 0;
}

int sim_setup(struct sim *s)
{
	const struct sim_opts *o = s->o;
	struct sim_topo *t = &s->topo;
	struct dqr_grid *g;
	char err[256];

	/* the plugin's options (defaults, or --options), and our flags */
	s->ropts = o->plugin;
	s->ropts.mode = o->ro.mode;
	s->ropts.turns = o->ro.turns;
	if (!o->what_if) {
		s->ropts.vl_layer = o->vl_layers;
		s->ropts.stretch = o->stretch >= 0 ? o->stretch :
				   DQR_STRETCH_OFF;
	}
	s->ropts.layer_moves = o->layer_moves != 0;
	/* the plugin's intermediates=N: the reaction layer decides where */
	if (o->vlayers && o->intermediates_set)
		s->ropts.intermediates = o->intermediates;
	memset(t, 0, sizeof(*t));
	if (o->vlayers) {
		t->kind = SIM_TOPO_VLAYERS;
		return 0;
	}
	/*
	 * After base=uturn the plugin prefers the FT paper's reroutes: on
	 * tables lib's uturn routed, tables read back from a fat tree the
	 * plugin routed with base=auto, and what base=uturn says.
	 */
	t->prefer_uturn = (s->in.kind == DQR_REF_UTURN && !o->no_uturn_bias) ||
			  (o->what_if && o->plugin.base == DQR_BASE_UTURN) ||
			  (!o->spec && o->plugin.base == DQR_BASE_AUTO &&
			   is_fat_tree(s));
	if (t->prefer_uturn || o->vl_layers) {
		t->kind = SIM_TOPO_FAT_TREE;
		return fat_tree(s, o->vl_layers ? "--vl-layers needs a fat "
				"tree: " : o->what_if &&
				o->plugin.base == DQR_BASE_UTURN ?
				"base=uturn needs a fat tree: " : "");
	}
	/* a mesh or torus: the DQR paper's plug-in, on the grid of the
	 * reference topology's cabling, whatever tables it starts from */
	if (dqr_grid_detect(s->in.f, &g, err, sizeof(err)))
		return 0;
	if (g->kind == DQR_GRID_HYPERCUBE) {
		t->kind = s->in.kind == DQR_REF_TWOPHASE ? SIM_TOPO_TWOPHASE :
			  SIM_TOPO_HYPERCUBE;
	} else {
		t->kind = SIM_TOPO_MESH;
		t->mesh_plugin = !o->no_mesh_plugin;
		/* a torus routed as its mesh by up*\/down* (the plugin's
		 * default, for tables read back), when it has a wrap cable
		 * (rings of 4 read as two dimensions of 2) */
		t->updn = o->spec ? s->in.kind == DQR_REF_UPDN_MESH ||
				    s->in.kind == DQR_REF_UPDN :
			  o->plugin.mesh_routing == DQR_MESH_UPDN;
		if (o->spec ? s->in.kind == DQR_REF_UPDN_MESH : t->updn) {
			struct dqr_wrap_bias *wb;

			if (dqr_wrap_bias_new(s->in.f, g, &wb)) {
				fprintf(stderr, PROG ": out of memory\n");
				dqr_grid_free(g);
				return -1;
			}
			t->wraps_last = wb != NULL;
			dqr_wrap_bias_free(wb);
		}
	}
	dqr_grid_free(g);
	return 0;
}

/* The VLs the fabric offers: VL 0, or all a topology asks, up to 8. */
static void caps(const struct sim *s, struct dqr_vl_caps *c)
{
	const struct sim_opts *o = s->o;

	memset(c, 0, sizeof(*c));
	if (!o->qos && !o->vl_layers && !o->vlayers && !o->lash) {
		c->max_op_vls = 1;
		c->vls = 1;
		snprintf(c->vls_limit, sizeof(c->vls_limit), "qos FALSE");
		return;
	}
	c->qos = 1;
	c->max_op_vls = 4;
	c->vls = s->o->layer_moves ? s->o->layer_moves : DQR_VLAYERS_MAX;
	snprintf(c->vls_limit, sizeof(c->vls_limit), "--layer-moves");
}

int sim_vlayers_new(const struct sim *s, const struct dqr_grid *g,
		   struct dqr_vlayers **tl, char *err, size_t errlen)
{
	int r;

	if (s->o->lash)
		r = dqr_vlayers_new_sl(s->in.f, g, s->in.t,
					    s->in.lash_sl, s->in.lash_layers,
					    tl, err, errlen);
	else
		r = dqr_vlayers_new(s->in.f, g, s->in.t, tl, err,
					 errlen);
	if (!r)
		dqr_vlayers_allow_moves(*tl, s->o->layer_moves);
	return r;
}

/*
 * A recon state equal to the one start left: the same tables, the same
 * order, the same base and added dependencies (every added edge already
 * points up in the exported order, so adding it moves nothing).  -1 when
 * out of memory or when the copy would not be valid.
 */
int restore(struct dqr_recon *r, const struct pristine *p)
{
	uint32_t i;

	memset(r, 0, sizeof(*r));
	r->ref = dqr_fabric_clone(p->ref);
	r->orig = dqr_lfts_clone(p->orig);
	r->cur = dqr_lfts_clone(p->orig);
	r->cl = dqr_dyn_new(p->g, &p->list);
	r->rr = dqr_reroute_new(p->ref);
	if (!r->ref || !r->orig || !r->cur || !r->cl || !r->rr)
		goto fail;
	for (i = 0; i < p->num_added; i++)
		if (dqr_dyn_add(r->cl, p->added[2 * i],
				p->added[2 * i + 1]) != DQR_DYN_ADDED)
			goto fail;
	dqr_dyn_commit(r->cl);
	return 0;
fail:
	dqr_recon_release(r);
	return -1;
}

/* Virtual layers of the input (e-cube's, or --lash LASH's). */
static int vlayers(const struct sim *s, struct dqr_reactor *x)
{
	struct dqr_vlayers *tl;
	struct dqr_grid *g;
	char err[256];

	if (dqr_grid_detect(s->in.f, &g, err, sizeof(err)))
		return -1;
	if (sim_vlayers_new(s, g, &tl, err, sizeof(err))) {
		dqr_grid_free(g);
		return -1;
	}
	return dqr_topology_vlayers(x, g, tl, x->caps.vls,
				    s->o->lash ? "lash's" : "e-cube's",
				    s->o->lash ? "" : "ecube");
}

/*
 * Two-phase routing of the input's hypercube, on the labels and with
 * the seed the input was routed by (input.c: the plugin's choice).
 */
static int twophase(const struct sim *s, struct dqr_reactor *x)
{
	struct dqr_twophase *tp;
	struct dqr_grid *g;
	char err[256];
	int ret;

	if (dqr_grid_detect(s->in.f, &g, err, sizeof(err)))
		return -1;
	ret = dqr_twophase_new(s->in.f, g->ndims, g->place,
			       s->ropts.twophase_seed, &tp, err, sizeof(err));
	dqr_grid_free(g);
	if (ret)
		return -1;
	return dqr_topology_twophase(x, s->in.f, tp);
}

int sim_reactor(const struct sim *s, struct dqr_reactor *x)
{
	const struct sim_topo *t = &s->topo;
	struct dqr_ftree *ft;
	struct dqr_grid *g;
	char err[256];
	int ret = 0;

	dqr_reactor_init(x, &s->ropts);
	caps(s, &x->caps);
	switch (t->kind) {
	case SIM_TOPO_FAT_TREE:
		/* sim_setup() found it: failing now is memory */
		if (dqr_ftree_detect(s->in.f, &ft, err, sizeof(err)))
			return -1;
		return dqr_topology_fat_tree(x, s->in.f, ft,
					     t->prefer_uturn);
	case SIM_TOPO_MESH:
		if (dqr_grid_detect(s->in.f, &g, err, sizeof(err)))
			return -1;
		ret = dqr_topology_mesh(x, s->in.f, g, !t->mesh_plugin,
					t->wraps_last, t->updn,
					s->in.routing);
		dqr_grid_free(g);
		return ret;
	case SIM_TOPO_HYPERCUBE:
		dqr_topology_hypercube(x);
		return 0;
	case SIM_TOPO_TWOPHASE:
		return twophase(s, x);
	case SIM_TOPO_VLAYERS:
		return vlayers(s, x);
	default:
		return 0;
	}
}

int sim_reactor_start(const struct sim *s, struct dqr_reactor *x)
{
	struct dqr_start st;
	struct dqr_lfts *t;
	int ret;

	if (sim_reactor(s, x))
		return -1;
	if (s->topo.kind != SIM_TOPO_VLAYERS) {
		/* the start state, kept once (state.c) */
		if (restore(&x->recon, &s->p))
			return -1;
		x->ready = 1;
		return 0;
	}
	/* the layers' start verifies them: built afresh for every run */
	t = dqr_lfts_clone(s->in.t);
	if (!t)
		return -1;
	ret = dqr_react_start(x, s->in.f, &t, "e-cube", &st);
	dqr_lfts_free(t);
	if (ret < 0)
		return -1;
	return ret || !x->recon.tl ? 1 : 0;
}

const char *bias_name(const struct sim *s)
{
	const struct sim_topo *t = &s->topo;

	if (t->kind == SIM_TOPO_FAT_TREE)
		return t->prefer_uturn ? "uturn" : "none";
	if (t->kind != SIM_TOPO_MESH)
		return "none";
	if (t->wraps_last)
		return t->mesh_plugin ? "mesh, wraps last" : "wraps last";
	return t->mesh_plugin ? "mesh" : "none";
}
