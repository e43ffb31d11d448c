/*
 * torus_layers-internal.h - what the two files of a torus's layers share:
 * the state (torus_layers.c: the layers, the list, one DLID's tree, the
 * build and the verifier) and the hops of a tree that the repair
 * (torus_repair.c: the mesh plug-in in every layer) follows.  No file
 * outside lib/repair/ includes it.
 */
#ifndef DQR_TORUS_LAYERS_INTERNAL_H
#define DQR_TORUS_LAYERS_INTERNAL_H

#include <stdint.h>

#include "deps/dyn_order.h"
#include "repair/torus_layers.h"
#include "shape/grid_nbr.h"

struct dqr_torus_layers {
	struct dqr_grid_nbrs n;
	unsigned num_layers;
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
	/* a repair's visits of one DLID's tree: seen[sw] == gen */
	uint32_t *seen, gen;
	struct dqr_torus_stats st;
};

/* E-cube's direction from switch s to d in dimension k: 1 downwards, 0
 * upwards, -1 none (same coordinate). */
int dqr_torus_ecube_minus(const struct dqr_torus_layers *tl, unsigned k,
			  uint32_t s, uint32_t d);

/*
 * The switch sw's entry for lid leads to, or DQR_NONE; *ch the channel
 * (sw's port there, cabled), or DQR_NONE.
 */
uint32_t dqr_torus_hop(const struct dqr_fabric *f, const struct dqr_lfts *t,
		       uint32_t sw, uint32_t lid, uint32_t *ch);

/* The switch that owns lid (its own LID, or a CA's), or DQR_NONE. */
uint32_t dqr_torus_owner_switch(const struct dqr_fabric *f, uint32_t lid,
				uint32_t *owner);

#endif
