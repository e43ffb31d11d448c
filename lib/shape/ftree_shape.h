/*
 * ftree_shape.h - a fat tree recognised from its cabling alone (the FT paper
 * section IV): levels, the up and down links of every switch in the
 * paper's test sequence D, the switch groups and their U-turn switches.
 *
 * Names and GUID patterns mean nothing.  The leaves are the switches that
 * have a CA (or router) cabled to them; every other switch's level is its
 * distance in hops from the nearest leaf.  The fabric is a fat tree when
 * every switch reaches a leaf, every switch-to-switch cable joins two
 * adjacent levels and CAs hang on leaves only.  Cables missing at boot are
 * fine as long as that holds.
 *
 * Levels count from the leaves (0) up to the top (num_levels - 1); the
 * paper's tiers count the other way (tier = num_levels - 1 - level).
 *
 * Sequence D: a switch's up links sorted by the GUID of the switch above
 * (then by port number), likewise its down links.  In a switch group every
 * lower switch sees the upper ones in the same order, so index i names
 * the same upper switch everywhere in the group (the paper's Corollary 1)
 * however the cables were plugged.
 *
 * Group: the switches joined by the cables between level l and l + 1 (a
 * connected component of those cables).  A k-ary n-tree's groups are the
 * paper's: k upper and k lower switches, completely interconnected.  Each
 * group has one U-turn switch, its lower switch nearest the anchor (then
 * of lowest GUID): the U-turns the routing places in that group turn
 * there.
 */
#ifndef DQR_FTREE_SHAPE_H
#define DQR_FTREE_SHAPE_H

#include <stddef.h>
#include <stdint.h>

#include "fabric/fabric.h"

struct dqr_ftree {
	uint32_t num_switches;
	uint32_t num_levels;
	uint32_t *level;	/* per switch index */
	/*
	 * Hops from the anchor, a leaf with the most up cables (then lowest
	 * GUID).  The U-turns of all
	 * groups lean towards it, so that they agree with one up*\/down*
	 * order (see uturn_route.h).
	 */
	uint32_t anchor;
	uint32_t *rank;
	/*
	 * Channels (global index of the sending port) per switch, CSR over
	 * switch indices, in sequence D: up[up_off[sw] .. up_off[sw + 1])
	 */
	uint32_t *up_off, *up;
	uint32_t *down_off, *down;
	/*
	 * The U-turn switch of the group below sw (sw one of its upper
	 * switches), DQR_NONE on leaves.
	 */
	uint32_t *uturn_sw;
	/*
	 * Group of the cables above sw (sw one of its lower switches),
	 * DQR_NONE on the top level; numbered from 0.
	 */
	uint32_t *group_up;
	uint32_t num_groups;
	/* per level: the largest number of up links of a switch there */
	uint32_t *max_up;
	/*
	 * End ports (CA and router ports with a LID and a cable) in leaf
	 * order: by the leaf's GUID, then by port number at the leaf.  key
	 * of an end port is its place here; D-mod-k spreads by it.
	 */
	uint32_t *end_port;
	uint32_t num_end;
	uint32_t *key;		/* per global port index, DQR_NONE if none */
};

/*
 * Recognises the fat tree of f (finished).  0 with *out set, or -1 with a
 * message in err naming the switch or cable that breaks the shape (or no
 * memory).
 */
int dqr_ftree_detect(const struct dqr_fabric *f, struct dqr_ftree **out,
		     char *err, size_t errlen);
void dqr_ftree_free(struct dqr_ftree *ft);

#endif
