/*
 * input.c - dqr-sim's fabric and start tables: generated and routed by
 * lib's reference routing, or read from a subnet's dumps; and the fat
 * tree that the reroute preference and --vl-layers need.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fabric/topo_gen.h"
#include "io/lft_read.h"
#include "io/topo_read.h"
#include "mesh/mesh_plugin.h"
#include "ftree/uturn_repair.h"
#include "vlayers/vlayers.h"
#include "routing/grid_route.h"
#include "routing/lash_vlayers.h"
#include "routing/ref_routing.h"
#include "dqr_sim.h"

/*
 * The plugin routes the grid it recognises, whose coordinates differ from
 * the generator's where a ring of 4 reads as two dimensions of size 2
 * (torus:4x5 is 2x2x5): --torus-layers routes as the plugin does, so
 * that its layers are the plugin's.  A fabric no grid is recognised in
 * is routed by its spec, and torus.c says why it has no layers.
 */
static int route_recognised(const struct dqr_fabric *f,
			    const struct dqr_gen_spec *spec,
			    const struct dqr_gen_place *places,
			    enum dqr_ref_kind kind, struct dqr_lfts **out,
			    char *err, size_t errlen)
{
	struct dqr_grid *g;
	int ret;

	if (dqr_grid_detect(f, &g, err, errlen))
		return dqr_ref_route(f, spec, places, kind, out, err, errlen);
	ret = dqr_grid_route(f, g, kind, out, err, errlen);
	dqr_grid_free(g);
	return ret;
}

/* LASH's layers for the input tables (lash_vlayers.h), up to 8. */
static int lash_layers(struct sim_input *in, char *err, size_t errlen)
{
	size_t S = in->f->num_switches;

	in->lash_sl = malloc(S * S + 1);
	if (!in->lash_sl) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	return dqr_lash_vlayers(in->f, in->t, DQR_VLAYERS_MAX,
			       in->lash_sl, &in->lash_layers, err, errlen);
}

static int load_generated(const struct sim_opts *o, struct sim_input *in)
{
	struct dqr_gen_place *places = NULL;
	struct dqr_gen_spec spec;
	enum dqr_ref_kind kind;
	char err[512];

	if (dqr_gen_parse(o->spec, &spec, err, sizeof(err))) {
		fprintf(stderr, PROG ": --fabric %s: %s\n", o->spec, err);
		return -1;
	}
	in->f = dqr_gen_build_places(&spec, &places, err, sizeof(err));
	if (!in->f) {
		fprintf(stderr, PROG ": --fabric %s: %s\n", o->spec, err);
		return -1;
	}
	kind = o->routing == DQR_REF_AUTO ? dqr_ref_auto(&spec) : o->routing;
	if (o->vlayers ? route_recognised(in->f, &spec, places, kind,
					       &in->t, err, sizeof(err)) :
	    dqr_ref_route(in->f, &spec, places, kind, &in->t, err,
			  sizeof(err))) {
		fprintf(stderr, PROG ": routing %s on %s: %s\n",
			dqr_ref_name(kind), o->spec, err);
		free(places);
		return -1;
	}
	free(places);
	if (o->lash && lash_layers(in, err, sizeof(err))) {
		fprintf(stderr, PROG ": --lash on %s: %s\n", o->spec, err);
		return -1;
	}
	dqr_gen_format(&spec, in->name, sizeof(in->name));
	dqr_gen_describe(&spec, in->describe, sizeof(in->describe));
	snprintf(in->routing, sizeof(in->routing), "%s", dqr_ref_name(kind));
	return 0;
}

static int load_files(const struct sim_opts *o, struct sim_input *in)
{
	struct dqr_lft_read_info info;
	char err[512];

	in->f = dqr_read_topology(o->topo_path, err, sizeof(err));
	if (!in->f) {
		fprintf(stderr, PROG ": %s\n", err);
		return -1;
	}
	in->t = dqr_read_lfts(in->f, o->lfts_path, &info, err, sizeof(err));
	if (!in->t) {
		fprintf(stderr, PROG ": %s\n", err);
		return -1;
	}
	if (info.quirk_missing_top_lid) {
		/* dump_fts 44.0 drops that block: unknown, not unrouted */
		fprintf(stderr, PROG ": warning: LID %u is missing from every "
			"switch in %s (dump_fts quirk); it is left out\n",
			info.quirk_missing_top_lid, o->lfts_path);
		dqr_fabric_forget_lid(in->f, info.quirk_missing_top_lid);
	}
	if (info.switches_missing)
		fprintf(stderr, PROG ": warning: %u switches have no table "
			"in %s\n", info.switches_missing, o->lfts_path);
	dqr_lft_read_info_release(&info);
	snprintf(in->name, sizeof(in->name), "%s", o->topo_path);
	snprintf(in->routing, sizeof(in->routing), "file");
	snprintf(in->describe, sizeof(in->describe),
		 "%u switches, %u end ports, tables from %s",
		 in->f->num_switches, dqr_fabric_count_end_ports(in->f),
		 o->lfts_path);
	return 0;
}

/*
 * Every switch forgets its routes to the other switches' LIDs, so that
 * dqr_recon_start fills them: the paper's fat-tree experiment starts from
 * OpenSM's ftree tables, which leave switch-to-switch pairs unrouted, and
 * lets DQR place the U-turns those pairs need.
 */
static void unroute_switch_lids(const struct dqr_fabric *f,
				struct dqr_lfts *t)
{
	uint32_t lid, owner, sw;

	for (lid = 1; lid <= f->max_lid && lid < t->lid_count; lid++) {
		owner = dqr_lid_owner(f, lid);
		if (owner == DQR_NONE || f->ports[owner].num ||
		    !dqr_is_switch(f, f->ports[owner].node))
			continue;
		for (sw = 0; sw < t->num_switches; sw++)
			if (f->switches[sw] != f->ports[owner].node)
				dqr_lft_set(t, sw, lid, DQR_NO_PATH);
	}
}

void input_release(struct sim_input *in)
{
	dqr_fabric_free(in->f);
	dqr_lfts_free(in->t);
	free(in->lash_sl);
	in->f = NULL;
	in->t = NULL;
	in->lash_sl = NULL;
}

/*
 * After base=uturn the plugin lets DQR prefer the FT paper's reroutes; so
 * does the simulator, on the tree of the reference topology (projections
 * keep its switch and port indices, which is all the tree refers to).
 * The re-routing layer needs the same tree for its levels, whatever the
 * routing.
 */
static int setup_ftree(struct sim *s)
{
	int bias = s->o->routing == DQR_REF_UTURN && !s->o->no_uturn_bias;
	char err[512];

	if (!bias && !s->o->vl_layers)
		return 0;
	if (dqr_ftree_detect(s->in.f, &s->ft, err, sizeof(err))) {
		fprintf(stderr, PROG ": %s%s: %s\n", s->o->vl_layers ?
			"--vl-layers needs a fat tree: " : "", s->in.name,
			err);
		return -1;
	}
	if (bias)
		dqr_uturn_repair_opts(s->ft, &s->ro);
	if (s->o->stretch >= 0) {
		s->ro.stretch_on = 1;
		s->ro.stretch = (uint32_t)s->o->stretch;
	}
	return 0;
}

/*
 * On a mesh or torus the plugin repairs with the DQR paper's plug-in
 * (dqr_engine.c); so does the simulator, on the grid recognised from the
 * reference topology's cabling, whatever tables it starts from.  A torus
 * routed as its mesh by up*\/down* spares its wrap cables, as the
 * plugin's does (wrap_bias.h).
 */
static int setup_mesh(struct sim *s)
{
	struct dqr_grid *g;
	char err[256];
	int ret = 0;

	/* --torus-layers repairs with its own (torus.c) */
	if (s->o->vlayers ||
	    dqr_grid_detect(s->in.f, &g, err, sizeof(err)))
		return 0;
	if (g->kind != DQR_GRID_HYPERCUBE && !s->o->no_mesh_plugin) {
		s->mesh = dqr_mesh_plugin_new(s->in.f, g);
		if (s->mesh)
			dqr_mesh_plugin_opts(s->mesh, &s->ro);
		else
			ret = -1;
	}
	if (!ret && s->o->spec && s->o->routing == DQR_REF_UPDN_MESH) {
		ret = dqr_wrap_bias_new(s->in.f, g, &s->wraps);
		if (s->wraps)
			dqr_wrap_bias_opts(s->wraps, &s->ro);
	}
	dqr_grid_free(g);
	if (ret)
		fprintf(stderr, PROG ": out of memory\n");
	return ret;
}

const char *bias_name(const struct sim *s)
{
	if (s->wraps)
		return s->mesh ? "mesh, wraps last" : "wraps last";
	if (s->mesh)
		return "mesh";
	return s->ro.bias == dqr_uturn_bias ? "uturn" : "none";
}

int load_input(struct sim *s)
{
	int ret;

	s->ro = s->o->ro;
	if (s->o->spec)
		ret = load_generated(s->o, &s->in);
	else
		ret = load_files(s->o, &s->in);
	if (!ret)
		ret = setup_ftree(s);
	if (!ret)
		ret = setup_mesh(s);
	if (ret || !s->o->unroute_sw)
		return ret;
	unroute_switch_lids(s->in.f, s->in.t);
	/* the name says which tables the figures start from */
	strncat(s->in.routing, "+dqr-switch-lids",
		sizeof(s->in.routing) - strlen(s->in.routing) - 1);
	return 0;
}
