/*
 * topology.h - what a class of topology does differently after a fault,
 * as one table of operations per class, chosen once when the base
 * routing is known: the way OpenSM's osm_routing_engine_t gives each
 * engine its own callbacks.  The reaction (reaction.h) calls through the
 * table and never asks which class it holds.
 *
 *   any        a base of OpenSM's, or lib's up*\/down*: DQR in one layer
 *   fat tree   routed by base=uturn: the FT paper's U-turn preference
 *              among equally short routes, and its re-routing layer on
 *              VL 1 where one layer cannot hold the repair
 *   mesh       a mesh, or a torus routed as its mesh, on one VL: the DQR
 *              paper's mesh plug-in, wrap cables last
 *   hypercube  routed by e-cube on one VL
 *   two-phase  a hypercube routed by lib's two-phase routing on one VL
 *              (routing/twophase.h): every update starts from its tables
 *              for the cabling as it is, DQR fills what they leave
 *   vlayers    a grid on virtual layers (e-cube's on a torus, or LASH's):
 *              every route on the SL = VL of its layer, DQR in every
 *              layer, path SLs and SL2VL from the layers
 *
 * Where to add a topology: a file topo_<name>.c with its ops table and
 * its constructor declared here, and where the base routing is chosen
 * (base_choice.c), the shape that selects it.  Nothing else changes.
 */
#ifndef DQR_TOPOLOGY_H
#define DQR_TOPOLOGY_H

#include <stdint.h>

#include "fabric/fabric.h"
#include "fabric/lft.h"
#include "ftree/rerouting_layer.h"
#include "reaction/notes.h"
#include "recon/recon.h"
#include "reroute/reroute.h"
#include "routing/twophase.h"
#include "shape/ftree_shape.h"
#include "shape/grid_shape.h"
#include "transition/transition.h"
#include "verify/verify.h"
#include "vlayers/vlayers.h"

struct dqr_reactor;
struct dqr_in_flight;

/*
 * The VLs the fabric offers a topology's layers, read by the caller
 * (the plugin from OpenSM's subnet; the tools assume a fabric that
 * carries them).  Facts only: which topology needs what is decided
 * here, in lib.
 */
struct dqr_vl_caps {
	int qos;		/* SL2VL tables are programmed (qos TRUE) */
	unsigned max_op_vls;	/* OpenSM's max_op_vls (1: VL 0 only) */
	/* data VLs every linked switch port carries by its VLCap and
	 * max_op_vls, and what limits it ("max_op_vls 4", "port 0x../3's
	 * VLCap") */
	unsigned vls;
	char vls_limit[96];
	/* a link end whose OperVLs carry VL 0 only ("port 0x../2 runs
	 * OperVLs 1 (VL 0 only)"), or "" */
	char vl0_only[96];
};

/* Which judgement a state got (dqr_react_judge()). */
enum dqr_judged {
	DQR_JUDGED_ONE_LAYER = 0,	/* one channel dependency graph */
	DQR_JUDGED_TWO_VLS,		/* the re-routing layer's two VLs */
	DQR_JUDGED_VLAYERS,		/* every virtual layer alone */
	DQR_JUDGED_BASE_SLS,		/* the base's own SLs, not checked */
};

/*
 * A judgement of tables (dqr_react_judge()): the one-layer verdict
 * always, and the topology's own where one layer is not its terms.
 */
struct dqr_judgement {
	struct dqr_verify_report v;	/* one layer, always */
	enum dqr_judged kind;
	int deadlock_free;		/* in the terms of kind; -1 unknown */
	struct dqr_vlayers_verdict vv;	/* DQR_JUDGED_VLAYERS */
};

/* What a repair's topology plug-in did, for the log and the records. */
struct dqr_plugin_stats {
	int present;			/* a plug-in ran (mesh or layers) */
	int layered;			/* on virtual layers: the rest set */
	uint32_t links_failed, links_bypassed, turns, reorders;
	uint32_t links_searched, lids_searched, lids_moved;
	uint64_t pairs_moved, pairs_on_moved_sl;
	unsigned layers;
};

/* Which planner a change went to (dqr_react_plan()). */
enum dqr_planner {
	DQR_PLANNER_ONE_LAYER = 0,	/* dqr_plan_change() */
	DQR_PLANNER_REROUTING,		/* around the re-routing layer */
	DQR_PLANNER_VLAYERS,		/* per virtual layer */
};

struct dqr_topology_ops {
	const char *name;
	/* the reroute's plug-in, preference and stretch (the DQR paper,
	 * IV.C); o is set for the topology-agnostic search already */
	void (*reroute_opts)(const struct dqr_reactor *x,
			     struct dqr_reroute_opts *o);
	/* what only a fault's reroute adds (the start's is a fill) */
	void (*update_opts)(const struct dqr_reactor *x,
			    struct dqr_reroute_opts *o);
	/*
	 * A base that routes every projection afresh, for the update to
	 * start from (recon.h); NULL: updates repair the tables in force.
	 */
	void (*recon_base)(struct dqr_reactor *x, struct dqr_recon_base *b);
	/* DQR starts on tables t of f: dqr_recon_start()'s codes */
	int (*start)(struct dqr_reactor *x, const struct dqr_fabric *f,
		     const struct dqr_lfts *t,
		     const struct dqr_reroute_opts *o,
		     struct dqr_recon_result *res);
	/*
	 * After an update (code: dqr_recon_update()'s): 1 when the tables
	 * go on a second layer (tables() gives them), 0 when one layer
	 * holds them, -1 when entries stay without a legal route.  NULL:
	 * -1 on DQR_RECON_FAILED, else 0.
	 */
	int (*beyond)(struct dqr_reactor *x, const struct dqr_fabric *proj,
		      int code, const struct dqr_reroute_opts *o);
	/* entries a second layer left without route (beyond() said -1) */
	uint64_t (*left)(const struct dqr_reactor *x);
	/* the tables in force: recon's, or a second layer's; NULL: recon's */
	const struct dqr_lfts *(*tables)(const struct dqr_reactor *x);
	/*
	 * The judgement of t on f in the topology's terms, when one layer
	 * is not (j->v holds the one-layer verdict): j->kind,
	 * j->deadlock_free and what they rest on.  NULL: one layer.  0, or
	 * -1 when out of memory.
	 */
	int (*judge)(struct dqr_reactor *x, const struct dqr_fabric *f,
		     const struct dqr_lfts *t, struct dqr_judgement *j);
	/* the change from held to target, see dqr_react_plan() */
	int (*plan)(struct dqr_reactor *x, const struct dqr_fabric *f,
		    const struct dqr_lfts *held, const struct dqr_lfts *target,
		    struct dqr_dyn_order *cl, const struct dqr_in_flight *fl,
		    struct dqr_plan *p, struct dqr_plan_report *rep,
		    enum dqr_planner *used);
	/*
	 * Why stage s of p (from: the tables p starts from) waits, in the
	 * topology's terms, see dqr_react_wait_cycle().  NULL: one layer.
	 */
	int (*wait_cycle)(struct dqr_reactor *x, const struct dqr_fabric *f,
			  const struct dqr_lfts *from,
			  const struct dqr_plan *p, uint32_t s, char *buf,
			  size_t len);
	/* the channel list that holds the dependencies of the tables the
	 * switches held before the last update; NULL: none does */
	struct dqr_dyn_order *(*held_list)(struct dqr_reactor *x,
					   int from_original);
	/*
	 * Path SLs and SL2VL, while the topology sets them (sets_sls()):
	 * path_sl() the SL from LID slid to dlid, or hint when not its to
	 * say; sl2vl() fills vl[0 .. n) for the port pair (in, out) of the
	 * node with that GUID and returns n (0: leave the table).
	 */
	int (*sets_sls)(const struct dqr_reactor *x);
	uint8_t (*path_sl)(const struct dqr_reactor *x, uint32_t slid,
			   uint32_t dlid, uint8_t hint);
	unsigned (*sl2vl)(const struct dqr_reactor *x, uint64_t guid,
			  uint8_t in_port, uint8_t out_port, uint8_t *vl);
	/*
	 * The tables of the change planned last are in force at every
	 * switch: path_sl() may answer the SLs they were made with.  0, or
	 * -1 when out of memory (the SLs answered stay).  NULL: path_sl()
	 * answers them from the start.
	 */
	int (*in_force)(struct dqr_reactor *x);
	/* the notes and stats of the last repair (NULL: none) */
	void (*after_update)(struct dqr_reactor *x,
			     const struct dqr_recon_result *res,
			     struct dqr_notes *ns);
	void (*plugin_stats)(const struct dqr_reactor *x,
			     struct dqr_plugin_stats *st);
	/* a plan was handed over: what it was to drop is dropped */
	void (*handed_over)(struct dqr_reactor *x);
	/*
	 * y (DQR's state copied from x already) gets a topology of its own
	 * like x's (dqr_reactor_clone()): 0, 1 when x's state has no copy,
	 * -1 when out of memory.  NULL: x holds no private state, or none
	 * that can be copied.
	 */
	int (*copy)(struct dqr_reactor *y, const struct dqr_reactor *x);
	/* DQR stops (recon released); the topology stays */
	void (*stop)(struct dqr_reactor *x);
	void (*release)(struct dqr_reactor *x);
};

/*
 * The topology in force: its table, its own state (owned, released by
 * ops->release), what routed it and its shape, for the log and
 * dqr-status.
 */
struct dqr_topology {
	const struct dqr_topology_ops *ops;
	void *priv;
	/* lib's routing that routed it ("uturn", "updn", "dor", "ecube"),
	 * or "" for a base of OpenSM's */
	char routing[16];
	/* "fat tree: 3 levels, ..." or "5x5 torus, 25 switches"; "" when
	 * none was recognised */
	char shape[192];
	/* the base keeps its routes apart by its own SLs (path_sl), which
	 * one layer cannot judge: OpenSM's lash, dfsssp, ... */
	int base_sls;
};

/*
 * Constructors: each replaces x->topo (releasing the one before) and
 * returns 0, or -1 when out of memory (x->topo is then "any").
 */

/* A base that is no topology of lib's; layered: it keeps routes apart
 * by its own SLs (path_sl), which one layer cannot judge. */
void dqr_topology_any(struct dqr_reactor *x, int layered);
/*
 * A fat tree ft (owned from here on, whatever is returned) of the
 * reference topology f; prefer_uturn: base=uturn routed it, so the FT
 * paper's preference among equally short reroutes, and the plane
 * plug-in for its switch routes (ftree/plane_entry.h).
 */
int dqr_topology_fat_tree(struct dqr_reactor *x, const struct dqr_fabric *f,
			  struct dqr_ftree *ft, int prefer_uturn);
/*
 * A mesh or torus g on f on one VL: the mesh plug-in unless no_plugin,
 * and with wraps_last a torus's wrap cables as the search's last
 * resort.  updn: routed up*\/down*, not by dimension order, whose
 * repairs ignore the packets in flight (reroute.h ignore_flight).
 * routing: what routed it (names the topology's routing).
 */
int dqr_topology_mesh(struct dqr_reactor *x, const struct dqr_fabric *f,
		      const struct dqr_grid *g, int no_plugin,
		      int wraps_last, int updn, const char *routing);
/* A hypercube routed by e-cube on one VL. */
void dqr_topology_hypercube(struct dqr_reactor *x);
/*
 * A hypercube f (the reference topology) routed by two-phase routing tp
 * (owned from here on, whatever is returned).
 */
int dqr_topology_twophase(struct dqr_reactor *x, const struct dqr_fabric *f,
			  struct dqr_twophase *tp);
/* Two-phase routing's view of the cabling it routed last. */
struct dqr_twophase_view {
	/* per switch index, enum dqr_twophase_level (twophase.h) */
	const uint8_t *level;
	uint32_t switches;
	uint32_t whole;		/* switches of whole groups */
	long active;		/* active by the paper's bound; -1: unknown */
	/* (source switch, DLID) pairs among whole groups after the last
	 * update, and how many its tables leave unrouted (0, 0 before) */
	uint64_t pairs, unrouted;
};
/* On two-phase routing: 0 with *v filled; else -1. */
int dqr_topology_twophase_view(const struct dqr_reactor *x,
			       struct dqr_twophase_view *v);
/*
 * A grid g on virtual layers tl (both owned from here on, whatever is
 * returned), routed by tables whose layers tl holds; moves: with
 * x->opts.layer_moves, routes may move to layers below this many (the
 * VLs every port carries).  whose: "e-cube's" or "lash's"; routing:
 * lib's routing that routed it ("ecube"), or "" for OpenSM's lash.
 */
int dqr_topology_vlayers(struct dqr_reactor *x, struct dqr_grid *g,
			 struct dqr_vlayers *tl, unsigned moves,
			 const char *whose, const char *routing);
/* The layers SL2VL maps on virtual layers, else 0. */
unsigned dqr_topology_vlayers_vls(const struct dqr_reactor *x);
/*
 * On virtual layers, the SLs the SA answers while a change that moved
 * pairs goes up (vlayers.h; transition/plan_vlayers.h
 * dqr_vlayers_plan_sent() judges its stages by them), else NULL.
 */
const struct dqr_vlayers_sls *dqr_topology_vlayers_answered(
	const struct dqr_reactor *x);

/* The VLs a topology's layers would have: vls, or why not (1). */
int dqr_vl_caps_carry(const struct dqr_vl_caps *c, unsigned n, char *why,
		      size_t len);

/* The topology's name ("fat tree", "vlayers", ...). */
const char *dqr_topology_name(const struct dqr_reactor *x);
/* "lash's" or "e-cube's" on virtual layers, else "" */
const char *dqr_topology_whose(const struct dqr_reactor *x);
/* The virtual layers in force (or about to be), else NULL. */
const struct dqr_vlayers *dqr_topology_vlayers_in_force(
	const struct dqr_reactor *x);
/*
 * A fat tree's: its tree; the re-routing layer in force; the figures of
 * the layer the last update built, usable or not (the tools report
 * them).  NULL on other topologies, and when there is none.
 */
const struct dqr_ftree *dqr_topology_ftree(const struct dqr_reactor *x);
const struct dqr_ml *dqr_topology_rerouting(const struct dqr_reactor *x);
const struct dqr_ml_stats *dqr_topology_rerouting_tried(
	const struct dqr_reactor *x);

/* Path SLs and SL2VL through the table (see struct dqr_topology_ops). */
int dqr_topology_sets_sls(const struct dqr_reactor *x);
uint8_t dqr_topology_path_sl(const struct dqr_reactor *x, uint32_t slid,
			     uint32_t dlid, uint8_t hint);
unsigned dqr_topology_sl2vl(const struct dqr_reactor *x, uint64_t guid,
			    uint8_t in_port, uint8_t out_port, uint8_t *vl);
void dqr_topology_plugin_stats(const struct dqr_reactor *x,
			       struct dqr_plugin_stats *st);

#endif
