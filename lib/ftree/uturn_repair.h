/*
 * uturn_repair.h - the FT paper's deterministic local rerouting (section VI.A,
 * VI.B) as the topology preference of DQR's search on a fat tree.
 *
 * When a route breaks, DQR (reroute.h) grows the destination tree back
 * over the shortest routes the channel list admits.  Among routes of equal
 * length this preference picks the paper's:
 *
 *   an up link gone      the next up link in sequence D after it;
 *   a down link gone     down to the U-turn switch of the group
 *                        (ftree_shape.h), the same one for every
 *                        destination the link carried: all rerouted
 *                        packets meet one U-turn switch, one U-turn per
 *                        failed link;
 *   at the U-turn switch up the next link in D after the one towards
 *                        the switch that sent the packet down;
 *   a switch gone        the same rules one level further down, as DQR
 *                        finds the longer route (section VI.B).
 *
 * The choice is a preference, not a rule: every candidate still has to be
 * legal in the channel list, so old and new routes together stay
 * deadlock free.  Outside the anchor's pod the paper's U-turn usually
 * closes a cycle with the switch routes' U-turns (uturn_route.h): DQR
 * then turns in the anchor's pod, still through one switch per failed
 * link (doc/uturn.md has the figures).  When the paper's switch would
 * close a cycle (possible from the second fault on: the paper needs its
 * re-routing layer there), DQR takes the next legal route, and reports
 * the entries it cannot route at all.  The up*\/down* preference of the
 * search uses the distances from the tree's anchor, as the U-turns of the
 * switch routes do.
 */
#ifndef DQR_UTURN_REPAIR_H
#define DQR_UTURN_REPAIR_H

#include <stdint.h>

#include "fabric/lft.h"
#include "reroute/reroute.h"
#include "shape/ftree_shape.h"

/*
 * The extra cost of a candidate that is not the paper's choice: a tie-breaker
 * below a reorder (8) and a hop (16).  Larger values (12) made DQR take
 * reorders for the paper's switch and lose 3.5 % of first faults on the
 * 4-ary 3-tree.  Even at 4 it costs connectivity beyond the first fault
 * there (doc/uturn-fig11.md: 0.864 against 0.930 without it after 10).
 */
#define DQR_UTURN_BIAS_OTHER 4

/* Sets the preference and the ranks of ft into o (ft must outlive o). */
void dqr_uturn_repair_opts(const struct dqr_ftree *ft,
			   struct dqr_reroute_opts *o);

/* The preference itself (arg: the dqr_ftree of f's reference topology). */
uint32_t dqr_uturn_bias(void *arg, const struct dqr_fabric *f,
			const struct dqr_lfts *t, uint32_t sw, uint32_t ch,
			uint32_t lid);

#endif
