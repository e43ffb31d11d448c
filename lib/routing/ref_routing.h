/*
 * ref_routing.h - lib's own base routings for generated fabrics, so that
 * the offline tools can run DQR on fabrics far larger than ibsim holds,
 * without OpenSM.
 *
 * Every routing fills one entry per (switch, LID) for every LID that has
 * an owner: port 0 at a switch for its own LID, the CA's port at the
 * switch a CA hangs on, DQR_NO_PATH where the destination cannot be
 * reached.  Entries never name a port without a link, and no routing
 * builds a forwarding loop.
 *
 * DQR_REF_FTREE_MOD (kary, fattree2, fattree3; levels from the places)
 *   CA LIDs: a switch above the destination's leaf (one that reaches it
 *   going down only) descends; any other switch climbs.  Climbing, a
 *   level-l switch takes its up port number
 *       (key / div[l] + off) mod nup[l]      (counting its up ports
 *   in port order), key = the CA's index among the CAs, off = the LID's
 *   offset in its LMC block, nup[l] = up ports of a level-l switch,
 *   div[1] = 1, div[l+1] = div[l] * nup[l].  The choice depends on the
 *   destination and the level only (D-mod-k): every leaf's traffic to one
 *   destination meets on one top switch, and all-to-all CA traffic loads
 *   every channel of a level equally.  Descending is unique in these
 *   trees (else (key + off) mod the down links towards the leaf).
 *   Switch LIDs: DQR_REF_UPDN rooted at switch 0, which is leaf 0 (some
 *   switch pairs have no switch above both; that order contains every
 *   climb-then-descend route too, so the union is acyclic).
 * DQR_REF_DOR (mesh, torus)
 *   Corrects x, then y, then z: port 2d+1 when the destination's
 *   coordinate is larger, 2d+2 when smaller.  A torus's wrap links are
 *   never used.  Minimal on a mesh, deadlock free.
 * DQR_REF_DOR_WRAP (torus; on a mesh the same as DOR)
 *   Dimension order, each ring the shorter way round, ties towards +.
 *   Minimal, and cyclic on one VL: a negative example.
 * DQR_REF_ECUBE (hypercube)
 *   Fixes the lowest differing label bit d first: port d+1.  Minimal,
 *   deadlock free.
 * DQR_REF_UPDN (any fabric; the spec is not used)
 *   Per connected component, a BFS tree from its lowest-numbered switch;
 *   a link goes up towards the end nearer the root, ties towards the
 *   lower switch index.  Per destination, a BFS over (switch, phase)
 *   states backwards from it: a switch with an all-down path takes its
 *   shortest one (one entry per LID serves packets that already turned
 *   down); any other switch climbs to the up neighbours whose routes are
 *   shortest.  Among equal next hops (in port order) a hash of
 *   (destination, switch) picks, so consecutive hops do not make
 *   correlated choices.  Deadlock free on any fabric; DQR_NO_PATH
 *   towards other components.
 * DQR_REF_UPDN_MESH (mesh, torus)
 *   UPDN on the mesh: a torus's wrap links are never used, and each
 *   component is rooted at its switch of lowest grid position (the corner
 *   at coordinates 0 on an intact grid).  Every route then moves towards
 *   that corner, then away from it, which is minimal on a mesh, as DOR.
 *   Its busiest link carries 1.5x DOR's under all-to-all traffic on 2D
 *   meshes, but it leaves DQR far more room (doc/grids.md).  With
 *   links or switches missing it still routes every pair that cables
 *   other than wrap cables join, deadlock free.
 * DQR_REF_UTURN (any fabric that is a fat tree by its cabling; the spec
 *   is not used)
 *   The plugin's base=uturn: dqr_ftree_detect(), then dqr_uturn_route()
 *   (uturn_route.h): CA LIDs D-mod-k in sequence D, switch LIDs
 *   up*\/down* or through the U-turns of the FT paper, deadlock free on one
 *   VL.  Fails with the detector's message when f is no fat tree.  It
 *   leaves an entry DQR_NO_PATH only where it cannot place a U-turn
 *   (none on an intact k-ary n-tree); dqr_recon_start fills those.
 *
 * DQR_REF_TWOPHASE (hypercube)
 *   twophase.h's two-phase routing by the generator's labels, seed 1
 *   (the plugin's default twophase_seed=1).  The plugin labels the cube
 *   it recognises (grid_route.h), which may number the dimensions
 *   otherwise: dqr-sim routes by the recognised labels, as the plugin.
 *   Deadlock free on one VL with any links or switches removed; what it
 *   cannot route climbing stays DQR_NO_PATH.
 *
 * FTREE_MOD, DOR, DOR_WRAP and ECUBE are defined on the intact generated
 * fabric: with links removed they still name only linked ports and build
 * no loops, but leave pairs unrouted (and FTREE_MOD may lose deadlock
 * freedom: its switch LIDs' order moves with the faults).  UPDN is the one
 * for degraded or irregular fabrics.
 */
#ifndef DQR_REF_ROUTING_H
#define DQR_REF_ROUTING_H

#include <stddef.h>
#include <stdint.h>

#include "fabric/fabric.h"
#include "fabric/lft.h"
#include "fabric/topo_gen.h"
#include "routes/route_load.h"
#include "util/names.h"

#define DQR_REF_KINDS(X)						\
	X(DQR_REF_AUTO, "auto")						\
	X(DQR_REF_FTREE_MOD, "ftree-mod")				\
	X(DQR_REF_DOR, "dor")						\
	X(DQR_REF_DOR_WRAP, "dor-wrap")					\
	X(DQR_REF_ECUBE, "ecube")					\
	X(DQR_REF_UPDN, "updn")						\
	X(DQR_REF_UPDN_MESH, "updn-mesh")				\
	X(DQR_REF_UTURN, "uturn")					\
	X(DQR_REF_TWOPHASE, "twophase")

enum dqr_ref_kind {
	DQR_REF_KINDS(DQR_ENUM_ID)
	DQR_REF_NUM_KINDS
};

/* The name DQR_REF_KINDS gives kind; "?" if bad. */
const char *dqr_ref_name(enum dqr_ref_kind kind);

/* The kind named by name (as dqr_ref_name spells it); -1 if none. */
int dqr_ref_parse(const char *name, enum dqr_ref_kind *kind);

/*
 * What DQR_REF_AUTO picks: fat trees -> FTREE_MOD, mesh and torus -> DOR
 * (no wrap links), hypercube -> ECUBE, spec NULL -> UPDN.  Never UTURN:
 * the figures of earlier runs stay what they were.
 */
enum dqr_ref_kind dqr_ref_auto(const struct dqr_gen_spec *spec);

/*
 * Routes f.  spec is the spec f was generated from, or NULL (then only
 * UPDN, UTURN or AUTO).  places as dqr_gen_build_places gave them, or
 * NULL to derive them from spec.  On success *out holds new tables
 * (dqr_lfts_free them) and 0 is returned; otherwise -1 with a message in
 * err (spec and kind do not fit, f does not match spec, no memory).
 */
int dqr_ref_route(const struct dqr_fabric *f, const struct dqr_gen_spec *spec,
		  const struct dqr_gen_place *places, enum dqr_ref_kind kind,
		  struct dqr_lfts **out, char *err, size_t errlen);

#endif
