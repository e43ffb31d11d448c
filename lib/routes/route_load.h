/*
 * route_load.h - how many routes each channel carries under a traffic
 * pattern: all-to-all, shift permutations and any permutation of the end
 * ports (routes/permutation.h builds some), with the permutation's route
 * lengths.
 *
 * The end ports are the CA (or router) ports with a base LID, cabled to
 * a switch; a destination must also own its base LID (the LID index may
 * have forgotten one whose tables are unknown, see fabric.h).  A route
 * is one packet's path from a source to a destination's base LID
 * through the tables.  Only delivered routes load channels: one that meets
 * DQR_NO_PATH, a port without a link, a loop or the wrong end port is
 * counted as unrouted and loads nothing, so that a broken table does
 * not show up as a busy link.
 *
 * Channels are named by the global index of the port that sends (see
 * fabric.h).  CA links carry the same load under every routing (one
 * route per destination or per source), so max, min and mean are over
 * the linked switch-to-switch channels, where routings differ; max_all
 * includes the CA links.
 */
#ifndef DQR_ROUTE_LOAD_H
#define DQR_ROUTE_LOAD_H

#include <stdint.h>

#include "fabric/fabric.h"
#include "fabric/lft.h"

struct dqr_route_load {
	uint64_t pairs;		/* (source, destination) pairs */
	uint64_t unrouted;	/* of them, not delivered */
	uint32_t channels;	/* linked switch-to-switch channels */
	uint64_t max, min;	/* routes on the busiest / idlest of them */
	double mean;
	uint64_t max_all;	/* busiest channel, CA links included */
};

/*
 * All-to-all: one route from every end port to every other one.  Counted
 * per destination over its destination tree, O(switches) per LID.
 *
 * Fills *ld for tables t on f.  When per_channel is not NULL it receives
 * the routes per channel, indexed by the global port index that sends
 * (f->num_ports entries).  Returns 0, or -1 when out of memory.
 */
int dqr_route_load(const struct dqr_fabric *f, const struct dqr_lfts *t,
		   struct dqr_route_load *ld, uint64_t *per_channel);

/*
 * Shift permutation: the N end ports in ascending order of base LID,
 * source i sends one route to end port (i + shift) mod N.  Each route is
 * walked through the tables, O(hops); more than num_switches switches on
 * one route is a loop.  A shift that is a multiple of N sends nothing
 * (no end port sends to itself).
 *
 * Fills *ld as dqr_route_load does (pairs = routes of this shift), and
 * per_channel when not NULL (f->num_ports entries).  Returns 0, or -1
 * when out of memory.
 */
int dqr_shift_load(const struct dqr_fabric *f, const struct dqr_lfts *t,
		   uint32_t shift, struct dqr_route_load *ld,
		   uint64_t *per_channel);

/* Up to this many end ports every shift is run; above, a sample. */
#define DQR_SHIFT_ALL_MAX 2048
#define DQR_SHIFT_SAMPLE 64

/*
 * Shift loads over many shifts.  The per-shift figures are those of
 * dqr_shift_load, over the switch-to-switch channels.
 */
struct dqr_shift_summary {
	uint32_t end_ports;	/* N, the end ports permuted */
	uint32_t shifts;	/* shifts run: N - 1, or DQR_SHIFT_SAMPLE */
	uint32_t channels;	/* linked switch-to-switch channels */
	uint64_t routes;	/* routes of all shifts run */
	uint64_t unrouted;	/* of them, not delivered */
	uint64_t worst_max;	/* largest busiest-channel load of a shift */
	uint32_t worst_shift;	/* the first shift with that load, 0 if none */
	double mean_max;	/* busiest-channel load, mean over shifts */
	double mean;		/* mean channel load, mean over shifts */
};

/*
 * Runs every shift 1 .. N-1 when N <= DQR_SHIFT_ALL_MAX, else
 * DQR_SHIFT_SAMPLE shifts spread evenly over 1 .. N-1 (shift
 * 1 + k (N-1) / DQR_SHIFT_SAMPLE for k = 0 .. DQR_SHIFT_SAMPLE-1), and
 * fills *s (all zero when N < 2).  Returns 0, or -1 when out of memory.
 */
int dqr_shift_load_summary(const struct dqr_fabric *f,
			   const struct dqr_lfts *t,
			   struct dqr_shift_summary *s);

/*
 * The end ports dqr_shift_load permutes, in ascending order of base LID,
 * into ends (room for f->max_lid + 1): CA (or router) ports cabled
 * to a switch that own their base LID.  Their number.
 */
uint32_t dqr_end_ports(const struct dqr_fabric *f, uint32_t *ends);

/*
 * Any permutation: source ends[i] sends one route to ends[pi[i]].  Sources
 * with pi[i] == i send nothing.  A pair that no cable path of f joins (an
 * end port lost its cable or its switch, or the fabric is split: no
 * routing can deliver it) is counted as apart and not walked; every other
 * is walked as dqr_shift_load walks it (loop safe), and only delivered
 * routes load channels and count in the lengths.  A destination with
 * LMC > 0 is reached at its LID base + (i mod 2^LMC): the host spreads
 * its paths over the aliases by its own position, as MPI libraries
 * spread theirs by rank, since the SA lists every alias.  Lengths are
 * switch-to-switch hops: the two CA links of a route are not counted.
 */
struct dqr_perm_load {
	uint64_t pairs;		/* sources that send: pi[i] != i */
	uint64_t apart;		/* of them, joined by no cable path */
	uint64_t unrouted;	/* of the others, not delivered */
	uint32_t channels;	/* linked switch-to-switch channels */
	uint64_t max;		/* routes on the busiest of them */
	uint32_t longest;	/* hops of the longest delivered route */
	uint64_t hops;		/* hops of the delivered routes, summed */
	double mean_hops;	/* hops / delivered routes, 0 if none */
};

/*
 * ends: n port indices of f (dqr_end_ports of f, or of the fabric f was
 * projected from: a projection keeps the port indices); pi: a permutation
 * of 0 .. n-1.  Fills *pl, and per_channel when not NULL (f->num_ports
 * entries: the routes each sending port carries).  0, or -1 when out of
 * memory.
 */
int dqr_perm_load(const struct dqr_fabric *f, const struct dqr_lfts *t,
		  const uint32_t *ends, const uint32_t *pi, uint32_t n,
		  struct dqr_perm_load *pl, uint64_t *per_channel);

#endif
