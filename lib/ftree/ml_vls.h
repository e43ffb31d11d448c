/*
 * ml_vls.h - the FT paper's normal layer (NL) and re-routing layer (ML) on
 * two InfiniBand virtual lanes, as far as IB can express them.
 *
 * The FT paper section VI.A moves a packet into ML at its U-turn switch and
 * VI.C numbers the channels so that NL and ML together are deadlock free
 * with several U-turns, where one layer alone is not.  The paper's
 * switches decide per packet; an IB switch cannot.  It forwards by DLID
 * (one LFT entry), the SL is fixed per path by the SM (the routing
 * engine's path_sl callback) and travels unchanged in the packet, and
 * the VL on each hop is SL2VL[in port][out port][SL] of the switch (the
 * update_sl2vl callback), or SL2VL[SL] of the CA port on injection.  So:
 *
 *   layer  A route's first U-turn is its first hop that climbs (fat-tree
 *          level rises) right after a hop that descended, at switch X.
 *          Hops before it are in layer 0 (NL); that hop and every later
 *          one in layer 1 (ML).  Going back to NL below the fault, as
 *          the paper does, is left out: a second VL change per route
 *          means more keys that routes sharing an SL can disagree on.
 *          Staying in ML to the destination is checked like any layer.
 *          Routes without a U-turn: layer 0 only.
 *   SL     0 for routes without a U-turn, else 1 + level(X): routes that
 *          turn on the same level usually cross the same switches the
 *          same way, so they can share the SL2VL entries.
 *   key    (switch, in port, out port, SL) -> VL: in port 0 when the
 *          route starts at the switch itself; (CA port, SL) -> VL on
 *          injection.  Two routes on one SL through one (switch, in,
 *          out) must want the same VL.  When they do not (a conflict),
 *          the later U-turn route moves greedily to another SL of 1..15
 *          where none of its keys conflicts; if there is none it is not
 *          placed and runs on SL 0, i.e. all on VL 0 as without layers.
 *
 * Only entries that map to VL 1 are stored (sorted 64-bit keys, binary
 * search); everything else maps to VL 0.  Likewise only the SL of the
 * placed U-turn routes is stored (sorted by (source port, DLID)).
 *
 * Verification is independent of the intent: every route is walked
 * again, its SL looked up with dqr_vl_path_sl() and the VL of each hop
 * with dqr_vl_sl2vl() / dqr_vl_ca_sl2vl(), and the dependencies between
 * consecutive (channel, VL) pairs form a channel dependency graph of
 * 2 x num_ports vertices.  Each layer (VL) is checked with Kahn's
 * algorithm (channel_list.h, which names one cycle).  Dependencies from
 * VL 1 back to VL 0 are counted: without them a cycle cannot leave its
 * layer, so two acyclic layers make the whole routing deadlock free.
 *
 * Routes: every end port (CA or router port with a LID and a cable) and
 * every switch (port 0) towards every LID that has an owner, except the
 * source's own LIDs.  A route that does not reach its DLID (no path,
 * dead port, loop, wrong end) is counted as unrouted and takes no part.
 *
 * Cost: O(routes x hops) time, twice (build and verify), plus
 * O(U-turn hops x 15) for the recolouring; memory O(U-turn hops +
 * num_ports x 128 bytes).  Meant for emulator-sized fabrics of up to a
 * few thousand end ports (the 648-CA fat tree has ~490k routes).
 */
#ifndef DQR_ML_VLS_H
#define DQR_ML_VLS_H

#include <stddef.h>
#include <stdint.h>

#include "deps/channel_list.h"
#include "fabric/fabric.h"
#include "fabric/lft.h"
#include "shape/ftree_shape.h"

#define DQR_VL_NUM_SL 16
#define DQR_VL_LAYERS 2

struct dqr_vl_stats {
	uint64_t routes;	/* routes that reach their DLID */
	uint64_t unrouted;	/* routes that do not: not layered */
	uint64_t uturn_routes;	/* of the routes, with a U-turn */
	uint64_t uturn_end;	/* of those, from or to an end port */
	/* keys needing both VLs when every U-turn route has 1 + level(X) */
	uint64_t conflict_keys;
	uint64_t moved;		/* U-turn routes placed on another SL */
	uint64_t unplaced;	/* U-turn routes left on SL 0 (one layer) */
	uint64_t vl1_entries;	/* stored (hop, SL) -> VL 1 entries */
	uint32_t sl_mask;	/* bit s: some route uses SL s */
	unsigned sls_used;	/* bits in sl_mask */
	unsigned vls_used;	/* 1, or 2 when some entry maps to VL 1 */
	/* verification, from the mapping: */
	uint64_t edges[DQR_VL_LAYERS];	/* dependencies within each VL */
	uint64_t edges_up;	/* VL 0 -> VL 1: entering ML */
	uint64_t edges_down;	/* VL 1 -> VL 0: none by construction */
	int acyclic[DQR_VL_LAYERS];
	int deadlock_free;	/* both acyclic and edges_down == 0 */
	/* the same routes on one VL, as without layers */
	int one_layer_acyclic;
	double build_ms, verify_ms;
};

struct dqr_ml_vls;

/*
 * Builds the assignment for tables t on f, with ft's levels (only
 * ft->level and ft->num_switches are read, so a test can hand-build one).
 * Returns 0 with *out set (free with dqr_ml_vls_free) and *st filled,
 * also when a layer is cyclic: that is a finding, see st->acyclic and
 * dqr_vl_cycle().  -1 with a message in err when out of memory or ft
 * does not belong to f.
 */
int dqr_ml_vls_build(const struct dqr_fabric *f, const struct dqr_lfts *t,
		     const struct dqr_ftree *ft, struct dqr_ml_vls **out,
		     struct dqr_vl_stats *st, char *err, size_t errlen);
void dqr_ml_vls_free(struct dqr_ml_vls *v);

/*
 * The SL of the route from src_port (global port index: an end port, or
 * a switch's port 0) to dlid.  0 unless it is a placed U-turn route.
 * O(log U-turn routes).  OpenSM's path_sl(slid, dlid) maps slid to
 * src_port with dqr_lid_owner().
 */
uint8_t dqr_vl_path_sl(const struct dqr_ml_vls *v, uint32_t src_port,
		       uint32_t dlid);

/* The VL of a hop leaving switch index sw; 0 by default. O(log n). */
uint8_t dqr_vl_sl2vl(const struct dqr_ml_vls *v, uint32_t sw,
		     uint8_t in_port, uint8_t out_port, uint8_t sl);

/* The VL a CA (or router) port injects SL on; 0 by default. */
uint8_t dqr_vl_ca_sl2vl(const struct dqr_ml_vls *v, uint32_t ca_port,
			uint8_t sl);

/*
 * The whole 16-entry table of one (switch, in, out), as update_sl2vl
 * wants it: one binary search, then the entries of that triple in turn.
 */
void dqr_vl_sl2vl_table(const struct dqr_ml_vls *v, uint32_t sw,
			uint8_t in_port, uint8_t out_port,
			uint8_t vl[DQR_VL_NUM_SL]);
void dqr_vl_ca_sl2vl_table(const struct dqr_ml_vls *v, uint32_t ca_port,
			   uint8_t vl[DQR_VL_NUM_SL]);

/*
 * One cycle of layer (0 or 1) when st->acyclic[layer] is 0: channels
 * (global index of the sending port), all on that VL; len 0 otherwise.
 */
const struct dqr_cycle *dqr_vl_cycle(const struct dqr_ml_vls *v,
				     unsigned layer);

#endif
