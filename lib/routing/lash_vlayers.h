/*
 * lash_vlayers.h - virtual layers for any routing by LASH's rule: each
 * pair of source and destination switches goes to the lowest layer whose
 * dependencies stay acyclic with its path added.  LASH is O. Lysne et
 * al., "Layered Routing in Irregular Networks", IEEE TPDS 17, 2006, the
 * routing of the DQR paper's tori in its Fig. 5 (doc/references.md).
 *
 * The paths are those of the tables (destination based), not new ones:
 * lib's dimension order with each ring the shorter way round
 * (DQR_REF_DOR_WRAP) is cyclic on one VL on a torus, and LASH splits its
 * pairs over as few layers as first fit finds.  A pair's path is the
 * union of its routes to every LID at the destination switch (the
 * switch's own and its CAs'), so that one SL serves them all, as the SA
 * gives one SL per pair of ports.  The routes a switch's CAs inject take
 * the switch's SL.  Every layer is then deadlock free on its own, and
 * mapping SL l to VL l on every port keeps layers apart: the layered
 * repair (vlayers.h) takes the result as it takes e-cube's.
 *
 * Pairs go in order of destination, then source, by switch index.
 * Costs: O(switches^2 x LIDs per switch x route length) additions to a
 * dynamic topological order (dyn_order.h) over layers x ports vertices;
 * each addition costs the region it reorders.  Memory: the SL per pair,
 * switches^2 bytes, which is what lets a repair know every pair's layer
 * (OpenSM's lash keeps the same).
 */
#ifndef DQR_LASH_VLAYERS_H
#define DQR_LASH_VLAYERS_H

#include <stddef.h>
#include <stdint.h>

#include "fabric/fabric.h"
#include "fabric/lft.h"

/*
 * Layers for the routes of t on f, at most max_layers (1 to 8):
 * sl[s * f->num_switches + d] for switches s and d (0 where s = d or the
 * route fails), *num_layers the number used.  0, or -1 with why in err:
 * a pair that fits no layer, a route that loops, out of memory.
 */
int dqr_lash_vlayers(const struct dqr_fabric *f, const struct dqr_lfts *t,
		     unsigned max_layers, uint8_t *sl, unsigned *num_layers,
		     char *err, size_t errlen);

#endif
