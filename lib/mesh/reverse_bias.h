/*
 * reverse_bias.h - the reroute's preference on a hypercube routed by
 * e-cube: a switch whose own entry towards a DLID died leaves by the
 * switch that the DLID's switch's re-routed route reaches it by, so that
 * a cable's two directions are repaired over one detour, one the
 * reverse of the other.
 *
 * Why: when the cable X -- Y fails, X re-routes towards Y's LIDs and Y
 * towards X's, and until every switch holds its new entry each of X's
 * neighbours still sends X old packets for Y (e-cube corrects the
 * dimensions in one order, so X is next on each neighbour's route to Y),
 * and each of Y's sends Y old packets for X.  Let Y's detour end at X
 * through X's neighbour N, and X's leave by another neighbour.  An old
 * packet for Y that N sends X follows X's detour to Y, and an old packet
 * for X that reaches Y from X's detour's last switch follows Y's detour
 * back to N: the two detours and those packets close a dependency cycle,
 * and the first upload waits a drain.  When X leaves through N, N's old
 * packets for Y would leave X by the port they came in on, and X drops
 * them (fabric/relay.h, rule 3): no chain runs through.
 *
 * Only a route that a repair made is mirrored (one of its entries
 * differs from the start's tables): the reverse of one of e-cube's own
 * routes corrects the dimensions in the other order, against the
 * channel list, and spends room later faults need.  The preference costs
 * what a wrap cable does (64 hops), so it decides among the legal routes
 * and makes none illegal; it leaves alone every switch whose entry still
 * forwards.  Meshes and tori routed up*\/down* gain nothing from it
 * (there the waits are forced, doc/transitions.md section 4), so only
 * the hypercube's topology takes it.
 *
 * Cost: per candidate of a switch whose entry died, a walk of the route
 * from the DLID's switch to it, O(hops).
 */
#ifndef DQR_REVERSE_BIAS_H
#define DQR_REVERSE_BIAS_H

#include <stdint.h>

#include "fabric/fabric.h"
#include "fabric/lft.h"
#include "reroute/reroute.h"

/* What leaving by another switch than the reverse hop adds: 64 links. */
#define DQR_REVERSE_BIAS_COST (64 * DQR_REROUTE_HOP_COST)

/*
 * The switch by which t's route from lid's switch towards switch sw's
 * own LID reaches sw; DQR_NONE when that route does not reach sw (a dead
 * port, a loop, no LID) or sw is lid's switch.  *rerouted: 1 when an
 * entry of that route differs from orig's (orig may be NULL: 0).
 */
uint32_t dqr_reverse_hop(const struct dqr_fabric *f, const struct dqr_lfts *t,
			 const struct dqr_lfts *orig, uint32_t sw,
			 uint32_t lid, int *rerouted);

/* Sets the preference into o; orig (the start's tables) must outlive
 * o's use. */
void dqr_reverse_bias_opts(struct dqr_reroute_opts *o,
			   const struct dqr_lfts *orig);

/*
 * The reroute's bias call (reroute.h), arg the start's tables:
 * DQR_REVERSE_BIAS_COST when sw's entry towards lid in t forwards
 * nowhere, the route back was re-routed and ch leads elsewhere than
 * dqr_reverse_hop(); else 0.
 */
uint32_t dqr_reverse_bias(void *arg, const struct dqr_fabric *f,
			  const struct dqr_lfts *t, uint32_t sw, uint32_t ch,
			  uint32_t lid);

#endif
