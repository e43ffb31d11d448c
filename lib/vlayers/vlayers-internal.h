/*
 * vlayers-internal.h - what the files of a torus's layers share: the
 * state (vlayers.c: the layers, the list, one DLID's tree, the build
 * and the verifier), the hops of a tree, and the laying of a path over it
 * (vlayers_lay.c) that the repair (vlayers_repair.c: the mesh plug-in in
 * every layer) and its search (vlayers_search.c) both use.  No file outside
 * lib/vlayers/ includes it.
 */
#ifndef DQR_VLAYERS_INTERNAL_H
#define DQR_VLAYERS_INTERNAL_H

#include <stdint.h>

#include "deps/dyn_order.h"
#include "vlayers/vlayers.h"
#include "shape/grid_nbr.h"

struct dqr_vlayers {
	struct dqr_grid_nbrs n;
	unsigned num_layers;			/* in use, moves included */
	unsigned base_layers;			/* the base routing's */
	unsigned ring_bit[DQR_GEN_MAX_DIMS];	/* 0: no ring */
	/* a ring of even size: its ties go downwards (by the tables) */
	uint8_t tie_minus[DQR_GEN_MAX_DIMS];
	uint32_t num_ports;			/* P of l * P + c */
	struct dqr_dyn_order *cl;
	/* one DLID's tree: hops to the owner, next switch and channel,
	 * each switch's own layer and the layers through it */
	uint32_t *depth, *next, *chan, *order, *stack;
	uint8_t *own, *mask;
	uint8_t *ring_tab;	/* per ring and coordinate: its layer bit */
	/* the SL of every (source, destination) switch pair, S x S, when
	 * given (dqr_vlayers_new_sl); NULL for e-cube's */
	uint8_t *sl_tab;
	/* the pairs a repair moved to another layer (vlayers_sl.c), over
	 * what sl_tab or the rings say */
	struct dqr_vlayers_sls mv;
	/* moves allowed into layers below this (0: none) */
	unsigned max_layers;
	/* a repair's visits of one DLID's tree: seen[sw] == gen */
	uint32_t *seen, gen;
	/* a path laid over a DLID's tree (vlayers_repair.c): its switches,
	 * their new ports and channels */
	uint32_t *path_sw, *path_ch;
	uint8_t *path_port;
	/* the search's (vlayers_search.c): the BFS's predecessor, the port
	 * there and its queue, the switches it reached (vis[sw] == vgen)
	 * and those cut off with the failed route (cut[sw] == cgen) */
	uint32_t *from, *queue, *vis, vgen, *cut, cgen;
	uint8_t *from_port;
	/* whether a switch's route arrives, known where arr[sw] == agen */
	uint32_t *arr, agen;
	uint8_t *arr_val;
	/* the IN paper's routes as the first repair (vlayers_imed.c): the
	 * intermediates a route may take (0: off), the model, made by the
	 * first repair that wants it (imed_tried), and what releases it
	 * (set by its maker: vlayers.c stays below vlayers_imed.c) */
	struct dqr_vlayers_imed *imed;
	void (*imed_release)(struct dqr_vlayers_imed *imed);
	unsigned imed_max;
	int imed_tried;
	struct dqr_vlayers_stats st;
};

/* E-cube's direction from switch s to d in dimension k: 1 downwards, 0
 * upwards, -1 none (same coordinate). */
int dqr_vlayers_ecube_minus(const struct dqr_vlayers *tl, unsigned k,
			    uint32_t s, uint32_t d);

/*
 * The switch sw's entry for lid leads to, or DQR_NONE; *ch the channel
 * (sw's port there, cabled), or DQR_NONE.
 */
uint32_t dqr_vlayers_hop(const struct dqr_fabric *f, const struct dqr_lfts *t,
			 uint32_t sw, uint32_t lid, uint32_t *ch);

/* The switch that owns lid (its own LID, or a CA's), or DQR_NONE. */
uint32_t dqr_vlayers_owner_switch(const struct dqr_fabric *f, uint32_t lid,
				  uint32_t *owner);

/*
 * vlayers_lay.c: marks w and every switch whose route to lid in t passes it
 * (mark[sw] = g) and returns the layers of their routes towards dst:
 * O(those switches x degree).
 */
uint8_t dqr_vlayers_upstream(struct dqr_vlayers *tl,
			     const struct dqr_fabric *f,
			     const struct dqr_lfts *t, uint32_t lid,
			     uint32_t dst, uint32_t w, uint32_t *mark,
			     uint32_t g);

/* vlayers_lay.c: the entries an attempt wrote, to take back. */
struct dqr_vlayers_undo {
	struct dqr_vlayers_undo_entry {
		uint32_t sw, lid;
		uint8_t old;
	} *e;
	uint32_t n, cap;
	size_t mark;
	struct dqr_vlayers_stats st;
	/* the SLs an attempt moved (vlayers_move.c), to put back */
	struct dqr_vlayers_undo_sl {
		uint32_t s, d;
		uint8_t old;
	} *sl;
	uint32_t sl_n, sl_cap;
	unsigned num_layers;
	/* the list at the begin: a taken back attempt leaves it so */
	struct dqr_dyn_fingerprint list;
};

/*
 * An attempt starts: u forgets the last one and notes where the list's
 * log, its fingerprint, the stats and the layers stand; every attempt
 * ends with dqr_vlayers_undo_end(), which keeps it or takes it back.
 */
void dqr_vlayers_undo_begin(struct dqr_vlayers *tl,
			    struct dqr_vlayers_undo *u);
/* 1 kept, 0 taken back; -1 (no memory) passes through, taken back. */
int dqr_vlayers_undo_end(struct dqr_vlayers *tl, struct dqr_lfts *t,
			 struct dqr_vlayers_undo *u, int r);

/*
 * Lays the path tl->path_sw[0..n) (each switch's new port in
 * tl->path_port) over lid's tree, rejoining it at switch rejoin, and adds
 * every dependency the tree gains, in the layers of the routes that take
 * it.  1 laid, 0 it does not fit (a cycle in some layer, a route that
 * does not arrive), -1 no memory; u takes the entries back.
 */
int dqr_vlayers_lay_path(struct dqr_vlayers *tl,
			 const struct dqr_fabric *f, struct dqr_lfts *t,
			 uint32_t n, uint32_t rejoin, uint32_t lid,
			 uint32_t dst, uint32_t owner,
			 struct dqr_vlayers_undo *u);

/* vlayers_search.c: a new generation of marks in m (cut or vis). */
uint32_t dqr_vlayers_next_gen(uint32_t *m, uint32_t *gen, uint32_t num);

/*
 * vlayers_search.c: 1 when sw's route to lid in t arrives at its owner.
 * Remembered per switch while tl->agen stands (arr[] == agen: known;
 * arr_val[]), so that each switch's route is walked once: O(switches)
 * per DLID.
 */
int dqr_vlayers_arrives(struct dqr_vlayers *tl, const struct dqr_fabric *f,
			const struct dqr_lfts *t, uint32_t sw, uint32_t lid,
			uint32_t dst, uint32_t owner);

/*
 * vlayers_search.c: the topology-agnostic search for lid, whose route from
 * switch a is broken and which the mesh plug-in could not bypass.  1
 * laid, 0 no legal path, -1 no memory.
 */
int dqr_vlayers_search_lid(struct dqr_vlayers *tl,
			   const struct dqr_fabric *f, struct dqr_lfts *t,
			   uint32_t a, uint32_t lid, uint32_t dst,
			   uint32_t owner, struct dqr_vlayers_undo *u);

/*
 * vlayers_lay.c: adds the dependencies of lid's route from switch y in
 * layer l, from y's end ports on (but owner's) to where it ends (the
 * owner, a dead entry, a loop).  0, or a negative DQR_DYN_* (a cycle).
 */
int dqr_vlayers_lay_route(struct dqr_vlayers *tl,
			  const struct dqr_fabric *f, const struct dqr_lfts *t,
			  uint32_t y, uint32_t lid, uint32_t dst,
			  uint32_t owner, unsigned l);

/* vlayers_sl.c: the SL m moved (s, d) to, or -1 when it holds none. */
int dqr_vlayers_sls_find(const struct dqr_vlayers *tl,
			 const struct dqr_vlayers_sls *m, uint32_t s,
			 uint32_t d);
/* vlayers_sl.c: (s, d)'s moved SL set to sl: 0, or -1 no memory. */
int dqr_vlayers_put_sl(struct dqr_vlayers *tl, uint32_t s, uint32_t d,
		       uint8_t sl);

/*
 * vlayers_move.c: lays the path in path_sw/path_port (n switches, rejoining
 * the tree at rejoin) as dqr_vlayers_lay_path() does, with every pair of
 * a switch cut off with the route (cut[] == cgen) and dst moved to layer
 * l first, and every route of those pairs (to each of dst's LIDs in
 * lids[0..num_lids)) added in l.  1 laid, 0 it does not fit or moves
 * nothing, -1 no memory; u takes back entries and SLs.
 */
int dqr_vlayers_lay_moved(struct dqr_vlayers *tl,
			  const struct dqr_fabric *f, struct dqr_lfts *t,
			  uint32_t n, uint32_t rejoin, uint32_t lid,
			  uint32_t dst, uint32_t owner, unsigned l,
			  const uint32_t *lids, uint32_t num_lids,
			  struct dqr_vlayers_undo *u);

/*
 * vlayers_move.c: the path in path_sw/path_port (n switches, rejoining
 * lid's tree at rejoin) fits no own layer: dqr_vlayers_lay_moved() into
 * each layer in use in turn, then the next spare one below max_layers
 * (as the search moves its paths), each try taken back when it fails.
 * 1 laid, 0 not (or no moves allowed), -1 no memory.
 */
int dqr_vlayers_move_path(struct dqr_vlayers *tl, const struct dqr_fabric *f,
			  struct dqr_lfts *t, uint32_t n, uint32_t rejoin,
			  uint32_t lid, uint32_t dst, uint32_t owner,
			  struct dqr_vlayers_undo *u);

/*
 * vlayers_imed.c: a repair starts: when tl->imed_max asks for them, the
 * model of tl's grid (made the first time; none when the grid mixes
 * rings and lines or has over 2,048 switches) judges the cables f
 * lacks.  0, or -1 no memory.
 */
int dqr_vlayers_imed_begin(struct dqr_vlayers *tl,
			   const struct dqr_fabric *f);

/*
 * vlayers_imed.c: lid's route broke at switch a: the model's tree laid
 * over the switches cut off with a, else its chain from a alone (the
 * model's ties break on t's all-to-all loads, counted at the repair's
 * first call and kept up to date with what it lays).  1
 * laid, 0 not (no model, no chain, nothing fits; nothing changed), -1
 * no memory.
 */
int dqr_vlayers_imed_lid(struct dqr_vlayers *tl,
			 const struct dqr_fabric *f, struct dqr_lfts *t,
			 uint32_t a, uint32_t lid, uint32_t dst,
			 uint32_t owner, struct dqr_vlayers_undo *u);

#endif
