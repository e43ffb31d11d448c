/*
 * topo_mesh.c - a mesh, or a torus routed as its mesh, on one VL
 * (topology.h): DQR repairs with the DQR paper's mesh plug-in (local
 * paths towards the centre, mesh/mesh_plugin.h), and on a torus routed
 * as its mesh by up*\/down* the wrap cables are the search's last resort
 * (mesh/wrap_bias.h).
 */
#include <stdio.h>
#include <stdlib.h>

#include "mesh/mesh_plugin.h"
#include "mesh/wrap_bias.h"
#include "reaction/topology-internal.h"

struct mesh_priv {
	struct dqr_mesh_plugin *mesh;	/* NULL: topology agnostic */
	struct dqr_wrap_bias *wraps;	/* NULL: no wrap cable last */
	int updn;	/* routed up*\/down*, not by dimension order */
};

static void mesh_reroute_opts(const struct dqr_reactor *x,
			      struct dqr_reroute_opts *o)
{
	const struct mesh_priv *p = x->topo.priv;

	if (p->mesh)
		dqr_mesh_plugin_opts(p->mesh, o);
	if (p->wraps)
		dqr_wrap_bias_opts(p->wraps, o);
	/* dimension order's repairs gain nothing from pricing the turns
	 * of packets in flight, and later faults lose (reroute.h) */
	o->ignore_flight = !p->updn;
}

/* What the plug-in did for this reconfiguration, for the log. */
static void mesh_after_update(struct dqr_reactor *x,
			      const struct dqr_recon_result *res,
			      struct dqr_notes *ns)
{
	const struct mesh_priv *p = x->topo.priv;
	const struct dqr_mesh_stats *ms;

	if (!p->mesh || !res->ports_failed)
		return;
	ms = dqr_mesh_plugin_stats(p->mesh);
	if (!ms->links_failed)
		return;
	dqr_note(ns, DQR_NOTE_INFO, NULL, "mesh plug-in: %u of %u failed "
		 "links bypassed by a local path towards the centre (%u "
		 "turns enabled, %u after a reorder)%s", ms->links_bypassed,
		 ms->links_failed, ms->turns, ms->reorders,
		 ms->links_bypassed < ms->links_failed ?
		 "; the topology-agnostic search routes the rest" : "");
}

static void mesh_plugin_stats(const struct dqr_reactor *x,
			      struct dqr_plugin_stats *st)
{
	const struct mesh_priv *p = x->topo.priv;
	const struct dqr_mesh_stats *ms;

	if (!p->mesh)
		return;
	ms = dqr_mesh_plugin_stats(p->mesh);
	st->present = 1;
	st->links_failed = ms->links_failed;
	st->links_bypassed = ms->links_bypassed;
	st->turns = ms->turns;
	st->reorders = ms->reorders;
}

static void mesh_release(struct dqr_reactor *x)
{
	struct mesh_priv *p = x->topo.priv;

	if (!p)
		return;
	dqr_mesh_plugin_free(p->mesh);
	dqr_wrap_bias_free(p->wraps);
	free(p);
	x->topo.priv = NULL;
}

/* The plug-in and the wrap cables' preference, made again for y. */
static int mesh_copy(struct dqr_reactor *y, const struct dqr_reactor *x)
{
	const struct mesh_priv *p = x->topo.priv;
	struct dqr_grid *g;
	char err[128];
	int ret;

	if (dqr_grid_detect(y->recon.ref, &g, err, sizeof(err)))
		return -1;
	ret = dqr_topology_mesh(y, y->recon.ref, g, !p->mesh, !!p->wraps,
				p->updn, x->topo.routing);
	dqr_grid_free(g);
	return ret;
}

static const struct dqr_topology_ops mesh_ops = {
	.name = "mesh",
	.reroute_opts = mesh_reroute_opts,
	.start = dqr_topology_start_one_layer,
	.held_list = dqr_topology_one_layer_list,
	.after_update = mesh_after_update,
	.plugin_stats = mesh_plugin_stats,
	.copy = mesh_copy,
	.release = mesh_release,
};

int dqr_topology_mesh(struct dqr_reactor *x, const struct dqr_fabric *f,
		      const struct dqr_grid *g, int no_plugin,
		      int wraps_last, int updn, const char *routing)
{
	struct mesh_priv *p = calloc(1, sizeof(*p));
	int ret = 0;

	if (!p) {
		dqr_topology_any(x, 0);
		return -1;
	}
	/* out of memory: DQR repairs without what is missing */
	if (!no_plugin) {
		p->mesh = dqr_mesh_plugin_new(f, g);
		if (!p->mesh) {
			dqr_note(&x->notes, DQR_NOTE_ERROR, "14", "out of "
				 "memory for the mesh plug-in; DQR repairs "
				 "without it");
			ret = -1;
		}
	}
	if (wraps_last && dqr_wrap_bias_new(f, g, &p->wraps)) {
		dqr_note(&x->notes, DQR_NOTE_ERROR, "14", "out of memory for "
			 "the wrap cables' preference; DQR repairs without it");
		ret = -1;
	}
	p->updn = updn;
	dqr_topology_set(x, &mesh_ops, p);
	snprintf(x->topo.routing, sizeof(x->topo.routing), "%s", routing);
	return ret;
}
