/*
 * input.c - dqr-sim's fabric and start tables: generated and routed by
 * lib's reference routing, or read from a subnet's dumps; then the
 * topology the plugin would hold for them (reactor.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fabric/topo_gen.h"
#include "io/lft_read.h"
#include "io/topo_read.h"
#include "reaction/base_choice.h"
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

/*
 * --routing auto: the routing the plugin's base=auto (or base=uturn)
 * gives f, by the plugin's own choice (reaction/base_choice.h) with qos
 * FALSE, its default: lib's fat-tree routing, else lib's routing of a
 * mesh, torus or hypercube; what the plugin leaves to OpenSM's engines
 * gets DQR_REF_AUTO's reference routing.  0 with *kind and in->t set,
 * 1 when neither fits or lib's routing failed (*kind untouched).
 */
static int route_as_plugin(const struct sim_opts *o, struct sim_input *in,
			   enum dqr_ref_kind *kind)
{
	struct dqr_reactor x;
	int ret = 1;

	if (o->plugin.base != DQR_BASE_AUTO && o->plugin.base != DQR_BASE_UTURN)
		return 1;
	dqr_reactor_init(&x, &o->plugin);
	if (!dqr_choose_fat_tree(&x, in->f, &in->t)) {
		*kind = DQR_REF_UTURN;
		ret = 0;
	} else if (o->plugin.base == DQR_BASE_AUTO &&
		   !dqr_choose_grid(&x, in->f, &in->t)) {
		*kind = !strcmp(x.topo.routing, "ecube") ? DQR_REF_ECUBE :
			!strcmp(x.topo.routing, "updn") ? DQR_REF_UPDN_MESH :
			DQR_REF_DOR;
		ret = 0;
	}
	dqr_reactor_release(&x);
	return ret;
}

/*
 * --routing twophase: the plugin's base=twophase (reaction/base_choice.h),
 * on the cube it recognises, with the options' twophase_seed.  0, or -1
 * with why in err.
 */
static int route_twophase(const struct sim_opts *o, struct sim_input *in,
			  char *err, size_t errlen)
{
	struct dqr_reactor x;
	struct dqr_options opts = o->plugin;
	int ret;

	opts.base = DQR_BASE_TWOPHASE;
	dqr_reactor_init(&x, &opts);
	ret = dqr_choose_grid(&x, in->f, &in->t);
	if (ret)
		snprintf(err, errlen, "%s", x.notes.len ? x.notes.note[
			 x.notes.len - 1].text : "no hypercube");
	dqr_reactor_release(&x);
	return ret ? -1 : 0;
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
	kind = o->routing;
	if (kind == DQR_REF_AUTO && route_as_plugin(o, in, &kind))
		kind = dqr_ref_auto(&spec);
	if (!in->t && kind == DQR_REF_TWOPHASE &&
	    route_twophase(o, in, err, sizeof(err))) {
		fprintf(stderr, PROG ": routing twophase on %s: %s\n",
			o->spec, err);
		free(places);
		return -1;
	}
	if (!in->t && (o->vlayers ?
		       route_recognised(in->f, &spec, places, kind, &in->t,
					err, sizeof(err)) :
		       dqr_ref_route(in->f, &spec, places, kind, &in->t, err,
				     sizeof(err)))) {
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
	in->kind = kind;
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

int load_input(struct sim *s)
{
	int ret;

	if (s->o->spec)
		ret = load_generated(s->o, &s->in);
	else
		ret = load_files(s->o, &s->in);
	if (!ret)
		ret = sim_setup(s);
	if (ret || !s->o->unroute_sw)
		return ret;
	unroute_switch_lids(s->in.f, s->in.t);
	/* the name says which tables the figures start from */
	strncat(s->in.routing, "+dqr-switch-lids",
		sizeof(s->in.routing) - strlen(s->in.routing) - 1);
	return 0;
}
