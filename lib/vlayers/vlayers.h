/*
 * vlayers.h - e-cube routing of a torus on virtual layers, and DQR's
 * repair of link and switch faults in every layer with the mesh plug-in
 * (the DQR paper, V.B: "apply the mesh specific plug-in to every layer in
 * the torus") and past it with the topology-agnostic search.
 *
 * Layers.  E-cube takes each ring the shorter way round, which closes a
 * cycle of dependencies around every ring on one VL.  Each ring of n >= 3
 * switches gets two cut positions: A between n-1 and 0, B between
 * n/2 - 1 and n/2 (rounded down).  A shortest segment has at most n/2
 * links and the cuts are n/2 links apart, so it crosses at most one of
 * them.  A route's layer has, for each ring dimension i, bit i set when
 * the route wraps (crosses A) in that dimension: its layer's cut there is
 * B, which it does not cross, and a route of a layer with bit i clear
 * crosses no A.  Every layer is thus a mesh (the torus cut open at its
 * cuts) routed in dimension order: deadlock free.  A route keeps its
 * whole path on one VL: SL = layer and SL2VL maps SL l to VL l on every
 * port, so the layers share no channel queue.  2^w layers for w rings:
 * 4 VLs on a 2D torus, 8 on a 3D one.
 *
 * The SL is a function of the source and destination switches'
 * coordinates in the base routing, fixed at start.  A repair keeps it
 * wherever it can: a queue pair keeps the SL it got when it connected,
 * so a route moved to another SL leaves older connections on the old
 * one, in a layer whose channel list does not know their new path.  Only
 * where no path fits the routes' own layers, and only when allowed
 * (dqr_vlayers_allow_moves()), does the search move them: the DQR
 * paper's "a path may move to another layer" (vlayers_move.c).
 *
 * Channel list.  One list over (layer, channel) vertices, l * P + c for P
 * ports: layers have no dependency between them, so the list is the
 * layers' lists side by side.  A route of layer l adds its consecutive
 * channel pairs in layer l.  Destination-based forwarding mixes layers on
 * one entry: the layers through a switch for a DLID are the union of the
 * layers of every source upstream of it in that DLID's tree.
 *
 * Repair.  For a failed link, the local path of the mesh plug-in
 * (local_path.h) is laid over every DLID that crossed it, both directions
 * on one side; the DLID's tree is patched and every dependency it gains
 * is added, each in its layers: those into and out of the patched
 * switches, in the layers of their subtrees, and those the patched routes
 * bring along the rest of their way (the list holds every other one of
 * the tree's, since the tree had them).  A side whose dependencies would
 * close a cycle in any layer is undone and the next tried (towards the
 * centre of the base coordinates first, then away, each other dimension
 * in turn).  A DLID no side fits (a lost switch's cables, a side that
 * closes a cycle) goes to the topology-agnostic search (vlayers_search.c):
 * a path to the nearest switches whose routes still arrive, laid and
 * judged the same way, in each route's own layer; then, when moves are
 * allowed, the same candidates with every route that takes the path
 * moved to one layer (the others in use first, then a spare one).  What
 * that cannot fit is left: the tables keep the dead entries and the
 * caller falls back.
 * DLIDs whose owner's switch is gone need no route.  The channel list
 * keeps every old dependency, so old and new routes stay deadlock free
 * together, layer by layer.
 *
 * Other layered routings.  The same repair serves any routing whose
 * pairs of switches each keep one layer end to end: LASH's (the DQR
 * paper's Fig. 5, lash_vlayers.h) through dqr_vlayers_new_sl(), on
 * meshes, tori and hypercubes alike.  Its layers carry no cut, so the
 * plug-in's groups and sides are those of a mesh; what they cannot fit
 * the search takes, as above.
 *
 * Costs: building and verifying O(LIDs x switches x layers), the
 * repeats of the trees' dependencies kept out by a bit per (vertex,
 * port); a repair O(routes through the link x degree + DLIDs through it x
 * route length x layers): the patch's subtree and the rest of its way,
 * not the whole tree (measured in doc/scale.md); memory O(layers x ports
 * x degree) for the list and the dependencies.
 */
#ifndef DQR_VLAYERS_H
#define DQR_VLAYERS_H

#include <stddef.h>
#include <stdint.h>

#include "deps/dyn_order.h"
#include "fabric/fabric.h"
#include "fabric/lft.h"
#include "shape/grid_shape.h"

#define DQR_VLAYERS_MAX 8

struct dqr_vlayers_stats {
	uint32_t links_failed;		/* grid links down under routes */
	uint32_t links_bypassed;	/* of those, with a local path */
	uint32_t links_searched;	/* of those, some DLIDs by the search */
	uint32_t lids_searched;		/* DLIDs the search laid */
	uint32_t lids_moved;		/* of those, with routes moved */
	uint32_t lids_intermediate;	/* laid by the IN paper's routes */
	uint64_t pairs_moved;		/* switch pairs whose SL changed */
	uint32_t turns;			/* dependencies added */
	uint32_t reorders;		/* of those, after a reorder */
	uint64_t changed;		/* entries written */
};

struct dqr_vlayers_verdict {
	uint64_t pairs;		/* (source, DLID) that a cable path joins */
	uint64_t unreachable;	/* of those, not reached by the tables */
	uint64_t dependencies;	/* (layer, channel) pairs */
	int acyclic;		/* every layer */
	unsigned cyclic_layer;	/* the first cyclic one, when not */
	uint32_t cyclic_mask;	/* bit l: layer l is cyclic */
	uint64_t layer_deps[DQR_VLAYERS_MAX];	/* per layer */
};

struct dqr_vlayers;

/*
 * Layers for tables t (e-cube by ref_routing's DQR_REF_DOR_WRAP, or any
 * routing whose layers are acyclic) of torus g on f.  0 with *out set, or
 * -1 with why in err: no ring of 3 switches or more, a cyclic layer (the
 * tables are not e-cube), out of memory.
 */
int dqr_vlayers_new(const struct dqr_fabric *f, const struct dqr_grid *g,
		    const struct dqr_lfts *t,
		    struct dqr_vlayers **out, char *err,
		    size_t errlen);
/*
 * Layers given by another routing's SLs (LASH's: lash_vlayers.h) on any
 * grid g: sl[s * f->num_switches + d] (copied), each below num_layers
 * (1 to DQR_VLAYERS_MAX), SL = VL = layer as for e-cube.  The repair
 * is the same; its plug-in steps aside towards the destination, or the
 * centre, as on a mesh.  0 with *out set, or -1 with why in err: an SL
 * out of range, a cyclic layer, out of memory.
 */
int dqr_vlayers_new_sl(const struct dqr_fabric *f,
		       const struct dqr_grid *g,
		       const struct dqr_lfts *t, const uint8_t *sl,
		       unsigned num_layers,
		       struct dqr_vlayers **out, char *err,
		       size_t errlen);
/*
 * Fresh layers, with a fresh list, for tables t, by the same layer
 * function as like (e-cube's, or the SLs like was given): a restart from
 * the original tables must keep every route's SL, which the hosts hold.
 * As dqr_vlayers_new().
 */
int dqr_vlayers_new_like(const struct dqr_vlayers *like,
			 const struct dqr_fabric *f,
			 const struct dqr_grid *g,
			 const struct dqr_lfts *t,
			 struct dqr_vlayers **out, char *err,
			 size_t errlen);
/*
 * The layer function alone, for judging tables t that need not be e-cube
 * any more (read back after repairs): ties of even rings by the majority
 * of t's routes between switches half a ring apart, no channel list, so
 * dqr_vlayers_repair() refuses it (-1).  0, or -1 with why in err:
 * no ring of 3 switches or more, out of memory.
 */
int dqr_vlayers_judge_new(const struct dqr_fabric *f,
			  const struct dqr_grid *g,
			  const struct dqr_lfts *t,
			  struct dqr_vlayers **out, char *err,
			  size_t errlen);
void dqr_vlayers_free(struct dqr_vlayers *tl);
/* The layers in use, moves included: the VLs (and SLs) the tables need. */
unsigned dqr_vlayers_count(const struct dqr_vlayers *tl);

/*
 * The channel list over (layer, channel) vertices, l * f->num_ports + c:
 * for the layered planner (transition.h: dqr_plan_proved_vlayers), which
 * leaves the dependencies of a transition in it.  NULL for layers made
 * by dqr_vlayers_judge_new().
 */
struct dqr_dyn_order *dqr_vlayers_list(struct dqr_vlayers *tl);

/* The SL (= layer, = VL) of routes from switch src to switch dst. */
uint8_t dqr_vlayers_sl(const struct dqr_vlayers *tl,
		       uint32_t src, uint32_t dst);

/*
 * The SLs of the pairs of switches that repairs moved to another layer,
 * over the base routing's (vlayers_sl.c: a hash, sized by the moves, not
 * S x S).  tl holds its own; a copy (dqr_vlayers_sls_take()) keeps the
 * SLs the SA answered while tables planned with newer ones go up
 * (reaction/topo_vlayers.c).  Zeroed: no pair moved.
 */
struct dqr_vlayers_sls {
	uint64_t *key;		/* s * S + d + 1 (0: empty slot) */
	uint8_t *sl;
	uint32_t n, cap;	/* in use of cap (0 or a power of two) */
};

/* The SL of routes from src to dst by m, over tl's base routing. */
uint8_t dqr_vlayers_sl_by(const struct dqr_vlayers *tl,
			  const struct dqr_vlayers_sls *m, uint32_t src,
			  uint32_t dst);
/* m becomes a copy of tl's (m's own released): 0, or -1 no memory. */
int dqr_vlayers_sls_take(const struct dqr_vlayers *tl,
			 struct dqr_vlayers_sls *m);
void dqr_vlayers_sls_release(struct dqr_vlayers_sls *m);
/* The pairs whose SL m and tl's own disagree on: O(moves of both). */
uint64_t dqr_vlayers_sls_differ(const struct dqr_vlayers *tl,
				const struct dqr_vlayers_sls *m);
/* The same before any move: the base routing's. */
uint8_t dqr_vlayers_base_sl(const struct dqr_vlayers *tl,
			    uint32_t src, uint32_t dst);

/*
 * Lets a repair move routes into layers below max_layers (at most
 * DQR_VLAYERS_MAX; 0, the default, none): the VLs the ports carry.
 * Kept by dqr_vlayers_new_like().
 */
void dqr_vlayers_allow_moves(struct dqr_vlayers *tl,
			     unsigned max_layers);
/*
 * Lets a repair try the IN paper's routes first (vlayers_imed.c): each
 * DLID over a dead link gets its own routes of dimension-order segments
 * through at most max (1 to 4) intermediate switches, laid in the
 * routes' own layers (a chain that fits none moves, where moves are
 * allowed), before the plug-in's local path;
 * 0 (the default) turns it off.  Kept by dqr_vlayers_new_like().  A
 * grid whose dimensions mix rings and lines, or of over 2,048 switches,
 * has no model: its repairs go without (stats.lids_intermediate stays
 * 0).  Whether the layers leave room for it is the caller's call
 * (reaction/topo_vlayers.c: only with a VL spare for moves).
 */
void dqr_vlayers_allow_intermediates(struct dqr_vlayers *tl, unsigned max);

/* The pairs of switches whose SL a move changed: O(moves). */
uint64_t dqr_vlayers_moved(const struct dqr_vlayers *tl);

/*
 * Repairs t for the links that f (a projection of the reference fabric)
 * lacks, as described above.  0 when every failed link that carried
 * routes is bypassed, 1 when some is not (t holds the rest), -1 when out
 * of memory (t and the list may then be partly updated).
 */
int dqr_vlayers_repair(struct dqr_vlayers *tl,
		       const struct dqr_fabric *f, struct dqr_lfts *t,
		       struct dqr_vlayers_stats *st);

/*
 * Judges t on f independently of the list: every (switch or CA port,
 * DLID) that a cable path joins must be reached, and every layer's
 * dependencies must be acyclic.  0, or -1 when out of memory.
 */
int dqr_vlayers_verify(const struct dqr_vlayers *tl,
		       const struct dqr_fabric *f,
		       const struct dqr_lfts *t,
		       struct dqr_vlayers_verdict *v);

#endif
