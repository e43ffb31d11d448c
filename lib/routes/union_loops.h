/*
 * union_loops.h - a forwarding loop a packet can follow towards one DLID
 * while the switches change from one state to another.
 *
 * During a transition a switch may forward by its old entry or its new
 * one, so a packet can follow any mix: the union of the two states.  A
 * loop is a cycle of that union along which the switch model lets a
 * packet go (fabric/relay.h): a switch never sends it back out of the
 * port it came in on, nor into a port without a cable.  Whether a hop is
 * allowed depends on the channel it came by, so the search walks (switch,
 * entry) pairs, two per switch, not switches: a packet at (x, e) leaves x
 * by e, and at the next switch y may take either of y's entries that the
 * model lets it take from that channel.
 *
 * The planner, the proof of DQR's plans and the per-layer judgement all
 * ask this one search, each through its own view of the two states.
 */
#ifndef DQR_UNION_LOOPS_H
#define DQR_UNION_LOOPS_H

#include <stdint.h>

#include "fabric/fabric.h"

/*
 * The entries switch sw may forward lid by: one port, or two that
 * differ; 0 when it holds none (then nothing leaves it).
 */
typedef unsigned (*dqr_union_entries_fn)(const void *ctx, uint32_t sw,
					 uint32_t lid, uint8_t q[2]);

/*
 * The search's scratch, per (switch, entry).  Searches are told apart by
 * epoch, so starting one costs O(1): what a search finished stays
 * finished (leads to no loop) until the next begins.
 */
struct dqr_loop_search {
	uint32_t num_switches;
	uint32_t epoch;
	uint32_t *seen, *done;
	uint8_t *it;		/* the next entry of the next switch to try */
	uint32_t *stack;
};

/* 0, or -1 when out of memory (nothing to release then). */
int dqr_loop_search_init(struct dqr_loop_search *s, uint32_t num_switches);
void dqr_loop_search_release(struct dqr_loop_search *s);

/* A new search: nothing finished yet.  O(1) but every 2^32nd call. */
void dqr_loop_search_begin(struct dqr_loop_search *s);

/*
 * 1 when a loop towards lid can be reached from switch sw's entries, as
 * entries(ctx, ...) gives them; what this search already finished is not
 * walked again, so asking for every switch in turn costs O(switches) in
 * all.  The loop's switches, up to max, go to loop[] (may be NULL) and
 * its length to *len.  0 when none.
 */
int dqr_union_loop_from(struct dqr_loop_search *s, const struct dqr_fabric *f,
			dqr_union_entries_fn entries, const void *ctx,
			uint32_t lid, uint32_t sw, uint32_t *loop,
			uint32_t max, uint32_t *len);

#endif
