/*
 * uturn_route.h - the plugin's own fat-tree routing (base=uturn): every CA
 * and every switch reaches every CA and every switch, deadlock free on one
 * virtual lane, switch-to-switch routes turning where the FT paper puts its
 * U-turns.
 *
 * CA destinations: up*\/down*, D-mod-k.  A switch that reaches the
 * destination's leaf going down only descends (among several such links
 * it takes (key + offset) mod their number); any other switch climbs,
 * taking up link (key / div[l] + offset) mod (its up links) in sequence D
 * (ftree_shape.h), div[0] = 1, div[l + 1] = div[l] * (most up links at
 * level l), moving on in D to the next link whose switch still lies on a
 * shortest up*\/down* route.  key is the CA's place in leaf order, offset
 * the LID's place in its LMC range.  As OpenSM's ftree, all traffic to
 * one CA meets on one top switch and all-to-all traffic loads every link
 * of a level alike.
 *
 * Switch destinations: the same, with the switch as its own leaf, for
 * every switch that has an up*\/down* route (key: the switch's place in
 * GUID order after the CAs).  Any other switch (two top switches, say,
 * have no switch above both) goes down and turns up again: a U-turn
 * (the FT paper, definition 13).  Those switches are attached lowest level
 * first, each through the U-turn switch of its group if it can, else
 * through its next down link in D, else up.
 *
 * Deadlock freedom: the up*\/down* routes follow the channel numbering of
 * the FT paper, section VI.C for the normal layer (up channels numbered from
 * the leaves to the top, down channels from the top to the leaves, CA
 * links first and last).  That list is the starting channel list; every
 * U-turn adds the dependency (down into the U-turn switch) -> (up out of
 * it), accepted only when the dynamic channel list (dyn_order.h) can
 * reorder to hold it.  A U-turn that would close a cycle is not placed;
 * the next candidate is tried.  So the tables are acyclic by
 * construction, and the list is what a later DQR run starts from.
 */
#ifndef DQR_UTURN_ROUTE_H
#define DQR_UTURN_ROUTE_H

#include <stddef.h>
#include <stdint.h>

#include "fabric/fabric.h"
#include "fabric/lft.h"
#include "shape/ftree_shape.h"

struct dqr_uturn_stats {
	uint64_t lids;			/* destinations routed */
	uint64_t entries;		/* entries written */
	/* switch entries towards a switch LID that need a U-turn: */
	uint64_t uturn_entries;
	uint64_t at_group_uturn;	/* turned at their group's switch */
	uint64_t elsewhere;		/* turned at another switch */
	uint64_t down_first;		/* turn further down the tree */
	uint64_t refused;		/* candidate turns refused (cycle) */
	uint64_t reorders;		/* turns that moved channels */
	/* entries left DQR_NO_PATH although a cable path exists */
	uint64_t unrouted;
	double us;
};

/*
 * Routes f as the fat tree ft.  On success *out holds new tables
 * (dqr_lfts_free them) and 0 is returned; -1 with a message in err when
 * out of memory.  Entries without any route stay DQR_NO_PATH (counted in
 * st->unrouted when a cable path exists; DQR can still fill them).
 */
int dqr_uturn_route(const struct dqr_fabric *f, const struct dqr_ftree *ft,
		    struct dqr_lfts **out, struct dqr_uturn_stats *st,
		    char *err, size_t errlen);

struct dqr_channel_list;
/*
 * The channel list of section VI.C's normal layer for f: CA->leaf
 * channels, up channels by level from the leaves, down channels from the
 * top, leaf->CA channels.  Every up*\/down* route only climbs this list.
 * 0, or -1 when out of memory.
 */
int dqr_uturn_normal_list(const struct dqr_fabric *f,
			  const struct dqr_ftree *ft,
			  struct dqr_channel_list *cl);

#endif
