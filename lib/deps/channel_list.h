/*
 * channel_list.h - the channel list of the DQR paper, section III.
 *
 * A total order of the channels in which every dependency points upward.
 * It exists exactly when the channel dependency graph is acyclic; when it
 * does not, the builder returns one cycle so that it can be reported.
 */
#ifndef DQR_CHANNEL_LIST_H
#define DQR_CHANNEL_LIST_H

#include <stdint.h>

#include "deps/cdg.h"

struct dqr_channel_list {
	uint32_t num_vertices;
	uint32_t len;		/* channels in the order */
	uint32_t *order;	/* position -> channel, bottom first */
	uint32_t *pos;		/* channel -> position, DQR_NONE if idle */
};

struct dqr_cycle {
	uint32_t len;
	uint32_t *channels;	/* channels[i] -> channels[(i + 1) % len] */
};

/*
 * Returns 0 and fills *cl when the graph is acyclic; 1 and fills *cycle
 * (if not NULL) when it is not; -1 when out of memory.  Only linked
 * ports of f take part.
 */
int dqr_channel_list_build(const struct dqr_fabric *f,
			   const struct dqr_cdg *g,
			   struct dqr_channel_list *cl,
			   struct dqr_cycle *cycle);
/*
 * The channel list of the dependencies that the tables ts[0 .. nt)
 * induce together (nt > 1: the union of their states, as a transition
 * stage needs).  The one way from tables to a channel list: returns as
 * dqr_channel_list_build().  cl may be NULL to ask only whether the union
 * is acyclic.  When g_out is not NULL and the result is 0 or 1, *g_out
 * is the dependency graph, for the caller to keep and dqr_cdg_free();
 * otherwise the graph is freed here.
 */
int dqr_channel_list_of_tables(const struct dqr_fabric *f,
			       const struct dqr_lfts *const *ts, unsigned nt,
			       struct dqr_channel_list *cl,
			       struct dqr_cycle *cycle, struct dqr_cdg **g_out);
void dqr_channel_list_free(struct dqr_channel_list *cl);

/*
 * The start of Kahn's algorithm over g, for this file's order and
 * edge_list.h's: cl empty with room for every vertex, each pos
 * DQR_NONE, and in *indeg (malloc'ed) each vertex's count of
 * predecessors.  0, or -1 when out of memory with nothing to free.
 */
int dqr_kahn_start(const struct dqr_cdg *g, struct dqr_channel_list *cl,
		   uint32_t **indeg);
void dqr_cycle_free(struct dqr_cycle *c);

/* 1 when every dependency of g points upward in cl. */
int dqr_channel_list_valid(const struct dqr_channel_list *cl,
			   const struct dqr_cdg *g);

#endif
