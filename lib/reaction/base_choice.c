/*
 * base_choice.c - which base routing a full routing gets, and with it
 * the topology (topology.h): base=uturn and base=auto try lib's fat-tree
 * routing first; base=auto then a mesh, torus or hypercube recognised
 * from the cabling, routed by lib (base=twophase: a hypercube only);
 * what is neither goes to OpenSM's engines, whose layers lib takes
 * where it can (lash on a grid).  The caller models the subnet, runs
 * OpenSM's engines and logs x->notes.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "reaction/base_choice.h"
#include "reaction/topology-internal.h"
#include "routing/grid_route.h"
#include "routing/uturn_route.h"

/* Why base=uturn could not route: loud when the user asked for it. */
static void uturn_refused(struct dqr_reactor *x, const char *why)
{
	if (x->opts.base == DQR_BASE_UTURN)
		dqr_note(&x->notes, DQR_NOTE_ERROR, "24", "base=uturn cannot "
			 "route this fabric (%s); routing with updn instead",
			 why);
	else
		dqr_note(&x->notes, DQR_NOTE_INFO, NULL, "'uturn' does not fit "
			 "(%s), trying a mesh or hypercube, then 'ftree'", why);
	/* what needs the fat tree, said once: the shape is known now */
	if (!x->said_no_fat_tree && (x->opts.stretch != DQR_STRETCH_OFF ||
				     (x->opts.vl_layer && x->caps.qos)))
		dqr_note(&x->notes, DQR_NOTE_NOTICE, NULL, "no fat tree, so no "
			 "re-routing layer: vl_layer and stretch= have no "
			 "effect; DQR repairs in one layer and fallback=%s "
			 "applies where that cannot hold the repair",
			 dqr_fallback_names[x->opts.fallback]);
	x->said_no_fat_tree = 1;
}

void dqr_choose_no_fat_tree(struct dqr_reactor *x, const char *why)
{
	dqr_notes_clear(&x->notes);
	uturn_refused(x, why);
}

static void note_uturn(struct dqr_reactor *x, const struct dqr_ftree *ft,
		       const struct dqr_uturn_stats *st)
{
	dqr_note(&x->notes, DQR_NOTE_INFO, NULL, "uturn: fat tree of %u "
		 "levels, %u switch groups, %u end ports; %" PRIu64 " switch "
		 "entries towards switches need a U-turn (%" PRIu64 " turn at "
		 "their group's U-turn switch, %" PRIu64 " elsewhere, %"
		 PRIu64 " turn further down), %" PRIu64 " left to DQR, %.1f "
		 "ms", ft->num_levels, ft->num_groups, ft->num_end,
		 st->uturn_entries, st->at_group_uturn, st->elsewhere,
		 st->down_first, st->unrouted, st->us / 1e3);
}

int dqr_choose_fat_tree(struct dqr_reactor *x, const struct dqr_fabric *f,
			struct dqr_lfts **t)
{
	struct dqr_uturn_stats st;
	struct dqr_ftree *ft;
	char err[256];

	dqr_notes_clear(&x->notes);
	*t = NULL;
	if (dqr_ftree_detect(f, &ft, err, sizeof(err))) {
		uturn_refused(x, err);
		return 1;
	}
	if (dqr_uturn_route(f, ft, t, &st, err, sizeof(err))) {
		uturn_refused(x, err);
		dqr_ftree_free(ft);
		return 1;
	}
	note_uturn(x, ft, &st);
	dqr_topology_fat_tree(x, f, ft, 1);
	return 0;
}

/* The routing a recognised grid gets with the options in force. */
static enum dqr_ref_kind grid_kind(const struct dqr_reactor *x,
				   const struct dqr_grid *g)
{
	if (g->kind == DQR_GRID_HYPERCUBE)
		return DQR_REF_ECUBE;
	return x->opts.mesh_routing == DQR_MESH_UPDN ? DQR_REF_UPDN_MESH :
	       DQR_REF_DOR;
}

/* What the shape line says of the routing g gets. */
static const char *grid_phrase(const struct dqr_reactor *x,
			       const struct dqr_grid *g)
{
	int updn = x->opts.mesh_routing == DQR_MESH_UPDN;

	if (g->kind == DQR_GRID_HYPERCUBE &&
	    x->opts.base == DQR_BASE_TWOPHASE)
		return "lib's two-phase routing (the HC paper's Algorithm B, "
		       "its subcubes paired; deadlock free on one VL)";
	if (g->kind == DQR_GRID_HYPERCUBE)
		return "lib's e-cube routing (deadlock free on one VL)";
	if (g->kind == DQR_GRID_TORUS && x->caps.qos)
		return "lib's e-cube routing on virtual layers where the torus "
		       "allows it (qos TRUE), repaired with the DQR paper's "
		       "mesh plug-in in every layer";
	if (g->kind == DQR_GRID_TORUS && updn)
		return "lib's up*/down* routing from a corner of the mesh "
		       "inside the torus (mesh_routing=updn: deadlock free on "
		       "one VL; the wrap cables serve the repairs the mesh "
		       "cannot), repaired with the DQR paper's mesh plug-in";
	if (updn)
		return "lib's up*/down* routing from the corner "
		       "(mesh_routing=updn: shortest routes, deadlock free on "
		       "one VL, room for DQR's repairs), repaired with the "
		       "DQR paper's mesh plug-in";
	return "lib's dimension-order routing (deadlock free on one VL), "
	       "repaired with the DQR paper's mesh plug-in";
}

/* g routed by kind into *t; 0, or 1 (said) when lib's routing failed. */
static int route_grid(struct dqr_reactor *x, const struct dqr_fabric *f,
		      const struct dqr_grid *g, const char *desc,
		      enum dqr_ref_kind kind, struct dqr_lfts **t)
{
	char err[256];

	/*
	 * Shortest (e-cube) routes around a ring close a cycle on one VL;
	 * they need a VL per layer, and OpenSM programs SL2VL tables only
	 * with qos TRUE.  The mesh's routing never takes a wrap cable:
	 * deadlock free on one VL, and the mesh plug-in repairs it
	 * (doc/grids.md).
	 */
	if (g->kind == DQR_GRID_TORUS &&
	    (kind == DQR_REF_DOR || kind == DQR_REF_UPDN_MESH) && !x->caps.qos)
		dqr_note(&x->notes, DQR_NOTE_NOTICE, NULL, "%s: routed as a "
			 "mesh on one VL (%s without the wrap cables, which "
			 "carry only repairs); 'qos TRUE' in opensm.conf "
			 "routes the shortest way round the rings, by e-cube "
			 "on virtual layers", desc, kind == DQR_REF_DOR ?
			 "dimension order" : "up*/down* from a corner");
	if (!dqr_grid_route(f, g, kind, t, err, sizeof(err)))
		return 0;
	dqr_note(&x->notes, DQR_NOTE_ERROR, "35", "%s: %s routing failed (%s); "
		 "OpenSM's engines route it", desc, dqr_ref_name(kind), err);
	return 1;
}

/* What a repair on virtual layers does to SLs, for the line at start. */
static const char *sl_policy(const struct dqr_reactor *x, char *buf,
			     size_t len)
{
	if (!x->opts.layer_moves)
		return "repairs never change an SL (layer_moves=off)";
	snprintf(buf, len, "a repair keeps every SL it can and, where no "
		 "path fits, moves routes to another of layers 0-%u "
		 "(layer_moves=on; their SLs change)",
		 dqr_topology_vlayers_vls(x) - 1);
	return buf;
}

/*
 * Virtual layers tl for the tables of f (owned from here on): 0 with the
 * topology set, or 1 with why in buf when the ports cannot carry them.
 */
static int take_vlayers(struct dqr_reactor *x, struct dqr_grid *g,
			struct dqr_vlayers *tl,
			const char *whose, const char *routing, char *buf,
			size_t len)
{
	unsigned moves = x->caps.vls;

	if (dqr_vl_caps_carry(&x->caps, dqr_vlayers_count(tl), buf, len)) {
		dqr_vlayers_free(tl);
		dqr_grid_free(g);
		return 1;
	}
	if (moves > DQR_VLAYERS_MAX)
		moves = DQR_VLAYERS_MAX;
	return dqr_topology_vlayers(x, g, tl, moves, whose, routing) ?
	       (snprintf(buf, len, "out of memory"), 1) : 0;
}

/* e-cube on virtual layers for torus *g: 0 (*g taken), or 1 (said). */
static int ecube_vlayers(struct dqr_reactor *x, const struct dqr_fabric *f,
			 struct dqr_grid **g, const struct dqr_lfts *t,
			 const char *desc)
{
	struct dqr_vlayers *tl;
	char why[256], pol[256];

	if (dqr_vlayers_new(f, *g, t, &tl, why, sizeof(why)))
		goto refused;
	/* taken, or freed with the layers when the ports cannot carry them */
	if (take_vlayers(x, *g, tl, "e-cube's", "ecube", why,
			 sizeof(why))) {
		*g = NULL;
		goto refused;
	}
	*g = NULL;
	dqr_note(&x->notes, DQR_NOTE_SYS, NULL, "%s: e-cube on %u virtual "
		 "layers (SL = VL = the rings a route wraps; SL2VL maps SL l "
		 "to VL l), repaired by the mesh plug-in in every layer; %s",
		 desc, dqr_vlayers_count(dqr_topology_vlayers_in_force(x)),
		 sl_policy(x, pol, sizeof(pol)));
	return 0;
refused:
	dqr_note(&x->notes, DQR_NOTE_NOTICE, NULL, "%s: no e-cube on virtual "
		 "layers (%s); routed as a mesh on one VL", desc, why);
	return 1;
}

/* Why base=twophase cannot route: loud, it was asked for. */
static void twophase_refused(struct dqr_reactor *x, const char *why)
{
	dqr_note(&x->notes, DQR_NOTE_ERROR, "42", "base=twophase cannot "
		 "route this fabric (%s); routing with updn instead", why);
}

/*
 * base=twophase on grid g: 0 with *t and the topology set, or 1 (said)
 * when g is no hypercube or memory is short.
 */
static int twophase_grid(struct dqr_reactor *x, const struct dqr_fabric *f,
			 const struct dqr_grid *g, const char *desc,
			 struct dqr_lfts **t)
{
	struct dqr_twophase_stats st;
	struct dqr_twophase *tp;
	char err[256];

	if (g->kind != DQR_GRID_HYPERCUBE) {
		snprintf(err, sizeof(err), "a %s, no hypercube", desc);
		goto refused;
	}
	if (dqr_twophase_new(f, g->ndims, g->place, x->opts.twophase_seed,
			     &tp, err, sizeof(err)))
		goto refused;
	if (dqr_twophase_route(tp, f, t, &st)) {
		dqr_twophase_free(tp);
		goto nomem;
	}
	if (dqr_topology_twophase(x, f, tp)) {
		dqr_lfts_free(*t);
		*t = NULL;
		goto nomem;
	}
	dqr_note(&x->notes, DQR_NOTE_INFO, NULL, "%s: two-phase routing, "
		 "intermediates drawn from twophase_seed=%u, %u DLIDs; %"
		 PRIu64 " entries without a climbing route left to DQR",
		 desc, x->opts.twophase_seed, st.lids, st.unrouted);
	return 0;
nomem:
	snprintf(err, sizeof(err), "out of memory");
refused:
	twophase_refused(x, err);
	return 1;
}

int dqr_choose_grid(struct dqr_reactor *x, const struct dqr_fabric *f,
		    struct dqr_lfts **t)
{
	struct dqr_grid *g;
	enum dqr_ref_kind kind;
	enum dqr_grid_kind g_kind;
	char err[256], desc[160];
	int mesh_updn, layered = 0, ret = 0;

	dqr_notes_clear(&x->notes);
	*t = NULL;
	if (dqr_grid_detect(f, &g, err, sizeof(err))) {
		if (x->opts.base == DQR_BASE_TWOPHASE)
			twophase_refused(x, err);
		else
			dqr_note(&x->notes, DQR_NOTE_INFO, NULL, "shape: no "
				 "mesh, torus or hypercube (%s); trying "
				 "'ftree'", err);
		return 1;
	}
	dqr_grid_describe(g, desc, sizeof(desc));
	kind = grid_kind(x, g);
	g_kind = g->kind;
	mesh_updn = kind == DQR_REF_UPDN_MESH;
	dqr_note(&x->notes, DQR_NOTE_INFO, NULL, "shape: %s, %u switches; %s",
		 desc, g->num_switches, grid_phrase(x, g));
	if (x->opts.base == DQR_BASE_TWOPHASE) {
		ret = twophase_grid(x, f, g, desc, t);
		goto out;
	}
	if (g_kind == DQR_GRID_TORUS && x->caps.qos &&
	    !route_grid(x, f, g, desc, DQR_REF_DOR_WRAP, t)) {
		layered = !ecube_vlayers(x, f, &g, *t, desc);
		if (!layered) {
			dqr_lfts_free(*t);
			*t = NULL;
		}
	}
	if (!*t && route_grid(x, f, g, desc, kind, t)) {
		dqr_grid_free(g);
		return 1;
	}
	if (!layered && g_kind == DQR_GRID_HYPERCUBE)
		dqr_topology_hypercube(x);
	else if (!layered)
		dqr_topology_mesh(x, f, g, 0, mesh_updn, mesh_updn,
				  mesh_updn ? "updn" : "dor");
out:
	if (!ret)
		snprintf(x->topo.shape, sizeof(x->topo.shape),
			 "%s, %u switches", desc, f->num_switches);
	dqr_grid_free(g);
	return ret;
}

int dqr_choose_lash_grid(struct dqr_reactor *x, const struct dqr_fabric *f,
			 struct dqr_grid **g, char *desc, size_t len)
{
	char why[256];

	dqr_notes_clear(&x->notes);
	*g = NULL;
	desc[0] = '\0';
	if (!x->caps.qos) {
		snprintf(why, sizeof(why), "qos FALSE: OpenSM programs no "
			 "SL2VL tables");
		dqr_choose_lash_refused(x, desc, why);
		return 1;
	}
	if (dqr_grid_detect(f, g, why, sizeof(why))) {
		dqr_choose_lash_refused(x, desc, why);
		return 1;
	}
	dqr_grid_describe(*g, desc, len);
	return 0;
}

void dqr_choose_lash_refused(struct dqr_reactor *x, const char *desc,
			     const char *why)
{
	dqr_note(&x->notes, DQR_NOTE_NOTICE, NULL, "base lash%s%s: DQR cannot "
		 "keep lash's layers (%s); it is off, and after a fault lash "
		 "routes the whole fabric again", *desc ? " on a " : "", desc,
		 why);
}

int dqr_choose_lash(struct dqr_reactor *x, const struct dqr_fabric *f,
		    struct dqr_grid *g, const struct dqr_lfts *t,
		    const uint8_t *sl, unsigned n, const char *desc)
{
	struct dqr_vlayers *tl;
	char why[256], pol[256];

	if (dqr_vlayers_new_sl(f, g, t, sl, n, &tl, why, sizeof(why))) {
		dqr_grid_free(g);
		dqr_choose_lash_refused(x, desc, why);
		return 1;
	}
	if (take_vlayers(x, g, tl, "lash's", "", why, sizeof(why))) {
		dqr_choose_lash_refused(x, desc, why);
		return 1;
	}
	/* lash's SLs keep its routes apart, also should the layers fail */
	x->topo.base_sls = 1;
	dqr_note(&x->notes, DQR_NOTE_SYS, NULL, "%s: lash's %u virtual layers "
		 "(SL = VL = layer; SL2VL maps SL l to VL l), repaired by the "
		 "mesh plug-in in every layer; %s", desc, n,
		 sl_policy(x, pol, sizeof(pol)));
	return 0;
}
