/*
 * reroute.h - Dynamic Quick Reconfiguration (the DQR paper, section IV) for
 * destination-based forwarding.
 *
 * The routes of all sources towards one DLID form a destination tree
 * over the switches.  After a fault, the switches whose route no longer
 * reaches the DLID are "disconnected": their entries carry the
 * disconnected flows.  The others keep their entries.  A Dijkstra search
 * grows the tree back from the intact part: a disconnected switch X is
 * attached through a neighbour Z that already reaches the DLID, which
 * sets X's entry to the channel c = X->Z and adds the dependencies
 *
 *   c -> (Z's channel for the DLID)          the packet goes on at Z
 *   (each end port at X) -> c                 X's CAs inject into c
 *
 * and, when a disconnected switch W upstream keeps its entry towards X, W's own
 * attachment later adds (W->X) -> c.  Every dependency must be legal in
 * the channel list, or be made legal by reordering it (dyn_order.h), so
 * old and new routes together stay deadlock free.  Settled switches form
 * a tree, so the result is loop free.
 *
 * Costs: hops, a penalty for changing an entry whose link still works
 * (end-to-end mode makes it a tie-breaker, local mode makes it large so
 * the repair happens where the route broke), a small cost for a
 * dependency the channel list does not hold yet and a larger one for a
 * turn that needs a reorder.
 */
#ifndef DQR_REROUTE_H
#define DQR_REROUTE_H

#include <stdint.h>

#include "deps/dyn_order.h"
#include "fabric/fabric.h"
#include "fabric/lft.h"
#include "util/budget.h"

enum dqr_mode {
	DQR_MODE_END_TO_END = 0,	/* shortest legal route per switch */
	DQR_MODE_LOCAL,			/* repair where the route broke */
};

enum dqr_turns {
	DQR_TURNS_EACH = 0,	/* rank candidates by each turn's place */
	DQR_TURNS_PATH,		/* rank them by trying their turns together */
};

/* What one more link costs a candidate route; a bias is weighed by it. */
#define DQR_REROUTE_HOP_COST 16

struct dqr_reroute_opts {
	int mode;		/* enum dqr_mode */
	int turns;		/* enum dqr_turns */
	/*
	 * Topology plug-in (the DQR paper, IV.C): called once before the search
	 * with the channel list, may enable turns that guarantee a route.
	 * Returns 1 when it did so for every flow the fault cut (reorders
	 * then cost more than any detour), 0 when the search must find
	 * some itself, -1 when out of memory.  NULL: topology agnostic.
	 */
	int (*plugin)(void *arg, const struct dqr_fabric *f,
		      const struct dqr_lfts *t, struct dqr_dyn_order *cl);
	void *plugin_arg;
	/*
	 * Topology preference: an extra cost for attaching switch sw
	 * through channel ch towards lid, in units of
	 * DQR_REROUTE_HOP_COST per link.  Below one hop (the FT paper on
	 * fat trees, uturn_repair.h), the topology's own choice wins among
	 * equally short legal routes; far above it (wrap_bias.h), a
	 * channel becomes a last resort.  NULL: none.
	 */
	uint32_t (*bias)(void *arg, const struct dqr_fabric *f,
			 const struct dqr_lfts *t, uint32_t sw, uint32_t ch,
			 uint32_t lid);
	void *bias_arg;
	/*
	 * Per switch index: the distance from the root of the up*\/down*
	 * preference (see reroute.c); NULL: from the switch with the most
	 * end ports.
	 */
	const uint32_t *rank;
	/*
	 * 1: the search neither prices nor records the turns of packets in
	 * flight (reroute_cand.c: flight_turns).  Pricing them picks routes
	 * whose upload needs no drain, up to four hops longer; on a list
	 * ordered by up*\/down* or e-cube that spares most drains a repair
	 * can spare, while under dimension order it spares none and the
	 * longer routes take room later faults' repairs need
	 * (doc/transitions.md, section 4).
	 */
	int ignore_flight;
	/*
	 * Re-routing layer (rerouting_layer.h): attach every disconnected
	 * switch by the same costs but without asking the channel list, and
	 * add nothing to it.  The routes found may close cycles in one layer;
	 * virtual lanes, not the list, must then keep them apart.
	 */
	int outside_list;
	/*
	 * With a re-routing layer at hand: a one-layer route more than
	 * stretch links longer than the shortest cable path is not taken;
	 * the entry is left without route (failed) for the layer, which
	 * routes it the short way (the FT paper's local reroute).  0: off.
	 */
	int stretch_on;
	uint32_t stretch;
	/*
	 * Asked before each DLID: once spent, the run stops and returns
	 * DQR_REROUTE_OVER.  NULL: no limit.
	 */
	struct dqr_budget *budget;
};

/* dqr_reroute_run(): stopped by opts->budget; t and cl partly updated */
#define DQR_REROUTE_OVER 1

struct dqr_reroute_stats {
	uint64_t lids;			/* destinations examined */
	uint64_t lids_disconnected;	/* with a disconnected switch */
	uint64_t disconnected;		/* (switch, DLID) routes that failed */
	/* the (source port, DLID) pairs behind them: the switch itself
	 * and the linked end ports that inject there */
	uint64_t disconnected_pairs;
	uint64_t changed;		/* entries written */
	uint64_t turns;			/* dependencies added to the list */
	uint64_t reorders;		/* turns that needed a reorder */
	uint64_t moved;			/* channels moved by those */
	uint64_t refused;		/* candidate turns refused (cycle) */
	/* turns of packets in flight that point down the list, left out:
	 * the plan's proof reorders for them or waits a drain */
	uint64_t flight_down;
	uint64_t stretched;		/* candidates too long (stretch) */
	uint64_t unreachable;		/* no cable path either: unchanged */
	/* cable path but no legal route: */
	uint64_t failed;		/* entries that had a route */
	uint64_t holes;			/* entries that never had one */
	/*
	 * Channels whose link came back but whose old dependencies close a
	 * cycle with turns enabled meanwhile.  The list no longer describes
	 * the routes through them: rebuild it (from the tables that will
	 * stay) and run again.
	 */
	uint64_t revive_refused;
	double us;			/* compute time */
};

struct dqr_reroute;

/*
 * A reroute context for one fabric shape (node and port indices); reuse
 * it for every reconfiguration of that fabric.  NULL when out of memory.
 */
struct dqr_reroute *dqr_reroute_new(const struct dqr_fabric *f);
void dqr_reroute_free(struct dqr_reroute *rr);

/*
 * Repairs the routes towards the given DLIDs (all LIDs when lids is NULL)
 * in t, on the fabric f as it is now: switches whose route reaches the
 * DLID keep their entries, the others are re-attached as described above.
 * Channels without a link are retired in cl first.  Entries towards a
 * DLID that no cable path reaches are left as they are.  Returns 0, -1
 * when out of memory or DQR_REROUTE_OVER past the budget (t and cl may
 * then be partly updated).
 */
int dqr_reroute_run(struct dqr_reroute *rr, const struct dqr_fabric *f,
		    struct dqr_lfts *t, struct dqr_dyn_order *cl,
		    const struct dqr_reroute_opts *o, const uint32_t *lids,
		    uint32_t nlids, struct dqr_reroute_stats *st);

/*
 * dqr_reroute_run() with the channel list brought in line with f at the
 * given ports only, so that the run costs the fault and not the
 * fabric: cl must have been in line with f everywhere else (a port the
 * model rr was made for cables is cabled in f and not retired in cl).
 * Pass both ends of every cable that is absent from f or came back
 * since cl was last in line, in any order.  Same results as
 * dqr_reroute_run().
 */
int dqr_reroute_run_ports(struct dqr_reroute *rr, const struct dqr_fabric *f,
			  struct dqr_lfts *t, struct dqr_dyn_order *cl,
			  const struct dqr_reroute_opts *o,
			  const uint32_t *ports, uint32_t nports,
			  const uint32_t *lids, uint32_t nlids,
			  struct dqr_reroute_stats *st);

/* An entry the last run wrote, and what it held before. */
struct dqr_change {
	uint32_t sw;
	uint32_t lid;
	uint8_t old;
};

/* The entries the last dqr_reroute_run() wrote, in the order written. */
const struct dqr_change *dqr_reroute_changes(const struct dqr_reroute *rr,
					     uint32_t *n);

/*
 * The DLIDs that a switch forwards through one of the given ports (global
 * port indices of switch ports), ascending, without repeats.  *out is
 * malloc'ed.  Returns the count, or -1 when out of memory.
 */
int64_t dqr_lids_through_ports(const struct dqr_fabric *f,
			       const struct dqr_lfts *t, const uint32_t *ports,
			       uint32_t nports, uint32_t **out);

/* The DLIDs some switch has no route for (DQR_NO_PATH); as above. */
int64_t dqr_lids_with_holes(const struct dqr_fabric *f,
			    const struct dqr_lfts *t, uint32_t **out);

/*
 * 1 when every dependency of g points upward in cl: the routing g came
 * from, together with everything cl already holds, is deadlock free.
 */
int dqr_cl_covers(const struct dqr_dyn_order *cl, const struct dqr_cdg *g);

#endif
