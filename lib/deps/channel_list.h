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
void dqr_channel_list_free(struct dqr_channel_list *cl);
void dqr_cycle_free(struct dqr_cycle *c);

/* 1 when every dependency of g points upward in cl. */
int dqr_channel_list_valid(const struct dqr_channel_list *cl,
			   const struct dqr_cdg *g);

#endif
