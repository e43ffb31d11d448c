/*
 * recon.h - the reconfiguration state of a fabric under DQR: the
 * reference topology, its original tables, the tables in force, the channel
 * list and the cables that are down.
 *
 * The plugin and the offline simulator drive the same state machine:
 *
 *   start   after a full routing: build the channel list from its
 *           tables and fill the entries it left unrouted (OpenSM's ftree
 *           leaves switch-to-switch pairs) with DQR;
 *   update  after each change of the cabling that only removes or
 *           returns known cables and nodes: on new failures, reroute the
 *           entries that cross them, starting from the tables in force;
 *           when something came back, start again from the original
 *           tables and a channel list built afresh from them, and reroute
 *           only what is still down (the FT paper: "transparently returns to
 *           the original routing").
 */
#ifndef DQR_RECON_H
#define DQR_RECON_H

#include <stdint.h>

#include "deps/channel_list.h"
#include "deps/dyn_order.h"
#include "fabric/fabric.h"
#include "fabric/lft.h"
#include "fabric/topo_diff.h"
#include "reroute/reroute.h"
#include "vlayers/vlayers.h"
#include "shape/grid_shape.h"
#include "verify/verify.h"

/*
 * What the last update found changed, by reference index, for the
 * operator's report (recon_change.c).  Owned by the state, replaced by
 * each update; empty when memory was short.
 */
struct dqr_recon_change {
	/* one switch port per cable newly down / back up, ascending */
	uint32_t *links_failed, *links_returned;
	uint32_t num_links_failed, num_links_returned;
	/* switch nodes whose every cable is gone now / is back from that */
	uint32_t *lost, *returned;
	uint32_t num_lost, num_returned;
	/* entries left without a legal route: DLID << 32 | switch index */
	uint64_t *cut;
	uint32_t num_cut;
};

/*
 * A base that routes every projection of the reference topology afresh
 * (two-phase routing of a hypercube): each update then starts from the
 * base's tables for the cabling as it is, with a channel list built for
 * the tables held and them together (for them alone when the two close
 * a cycle), and DQR fills only what they leave unrouted.  route() returns 0
 * with *out set (the reference's shape), or -1 when out of memory.  The
 * caller sets it before each dqr_recon_update() and owns arg.
 */
struct dqr_recon_base {
	int (*route)(void *arg, const struct dqr_fabric *proj,
		     struct dqr_lfts **out);
	void *arg;
};

struct dqr_recon {
	struct dqr_fabric *ref;		/* the model the indices refer to */
	struct dqr_lfts *orig;		/* start's tables, holes filled */
	struct dqr_lfts *cur;		/* the tables in force */
	struct dqr_dyn_order *cl;
	struct dqr_reroute *rr;
	uint32_t *down;			/* switch ports of absent cables */
	uint32_t num_down;
	uint64_t updates;
	struct dqr_cycle cycle;		/* start's tables were cyclic */
	struct dqr_recon_change change;	/* of the last update */
	/* a torus on virtual layers (dqr_recon_start_vlayers): cl, rr NULL */
	struct dqr_grid *grid;
	struct dqr_vlayers *tl;
	struct dqr_vlayers_stats vstats;	/* of the last repair */
	/* pairs of switches a restart put back on their start SL */
	uint64_t pairs_moved_back;
	struct dqr_recon_base base;	/* route unset: none */
	/* the last update started from the base, and cl holds the tables
	 * held before it too (the planner's list for the change) */
	int list_holds_before;
};

struct dqr_recon_result {
	struct dqr_reroute_stats rs;
	uint32_t ports_failed;		/* switch ports newly down */
	uint32_t ports_recovered;	/* switch ports back up */
	int from_original;		/* restarted from the original tables */
	struct dqr_lft_diff diff;	/* tables in force against before */
	double us_list;			/* channel list (re)build */
	double us_total;
};

enum {
	DQR_RECON_OK = 0,
	DQR_RECON_FAILED = 1,	/* connected entries left without route */
	DQR_RECON_CYCLIC = 2,	/* start: the tables have a cycle */
	/* update: past o->budget; r half done, only for release */
	DQR_RECON_OVER = 3,
	DQR_RECON_NOMEM = -1,
};

/*
 * Starts from tables t of fabric f (both copied).  On DQR_RECON_OK or
 * DQR_RECON_FAILED, r->cur holds t with the holes DQR could fill filled;
 * on DQR_RECON_CYCLIC r->cycle names a cycle and nothing else is set.
 */
int dqr_recon_start(struct dqr_recon *r, const struct dqr_fabric *f,
		    const struct dqr_lfts *t, const struct dqr_reroute_opts *o,
		    struct dqr_recon_result *res);

/*
 * Starts a torus routed by e-cube on virtual layers: t are tables of f
 * whose layers tl holds (dqr_vlayers_new() with grid g).  r owns g
 * and tl from here on, whatever it returns.  Updates then repair in
 * every layer with the mesh plug-in (vlayers.h), and restart from a
 * layered list built afresh when something came back.  DQR_RECON_OK,
 * DQR_RECON_FAILED (pairs a cable joins that t leaves unrouted: the
 * layers cannot fill them; res->rs.failed counts them), or
 * DQR_RECON_NOMEM; but for DQR_RECON_OK the caller releases r.
 */
int dqr_recon_start_vlayers(struct dqr_recon *r, const struct dqr_fabric *f,
			    struct dqr_grid *g, struct dqr_vlayers *tl,
			    const struct dqr_lfts *t,
			    struct dqr_recon_result *res);

/*
 * Brings r->cur in line with proj, r->ref as it is now (from
 * dqr_fabric_project(), whose diff must be degraded-only).  With a base
 * (r->base), every update restarts from the base's tables for proj
 * (res->from_original set) and DQR fills what they leave.  The channel
 * list is brought in line with proj at the ends of d's absent cables
 * only (dqr_reroute_run_ports()), so the update costs the fault, not
 * the fabric.  Returns DQR_RECON_OK, DQR_RECON_FAILED (r->cur then holds
 * what could be done), DQR_RECON_OVER (the reroute stopped at o->budget)
 * or DQR_RECON_NOMEM.
 */
int dqr_recon_update(struct dqr_recon *r, const struct dqr_fabric *proj,
		     const struct dqr_topo_diff *d,
		     const struct dqr_reroute_opts *o,
		     struct dqr_recon_result *res);
/*
 * The last update's change on one layer (r->cl and r->rr, not a torus
 * on virtual layers), judged where it changed with workspace w
 * (dqr_change_check_new() of r->ref): verify.h's dqr_verify_change()
 * over the entries the last reroute wrote, from held (the tables before
 * the update) to r->cur on proj, with the switch ports the fault cut,
 * against r's channel list.  rep->ok says whether that proves it.  0,
 * or -1 when out of memory.
 */
int dqr_recon_check_change(const struct dqr_recon *r,
			   struct dqr_change_check *w,
			   const struct dqr_fabric *proj,
			   const struct dqr_lfts *held, const uint32_t *cut,
			   uint32_t num_cut, struct dqr_change_report *rep);

/*
 * A copy of r in out that updates apart from it (the change of the last
 * update is not copied): what a fault would do, tried without touching
 * the state in force.  0; 1 for a torus on virtual layers, which has no
 * copy (out empty); -1 when out of memory (out empty).
 */
int dqr_recon_clone(const struct dqr_recon *r, struct dqr_recon *out);

/*
 * Frees everything r owns (a torus's grid and layers too) and zeroes it,
 * so that a released state may be started again or released twice.
 */
void dqr_recon_release(struct dqr_recon *r);

#endif
