/*
 * dyn_order-internal.h - what the two files of the channel list share:
 * the order and its searches (dyn_order.c) and what the searches of
 * refused turns found (dyn_reach.c).  No file outside lib/deps/
 * includes it.
 */
#ifndef DQR_DYN_ORDER_INTERNAL_H
#define DQR_DYN_ORDER_INTERNAL_H

#include <stdint.h>
#include <string.h>

#include "deps/dyn_order.h"

/*
 * Does u -> w constrain the order now?  While a channel is revived its
 * edges count only once re-inserted (rv_in/rv_out), which keeps the
 * invariant every reorder relies on: all counted edges point up but the
 * one being inserted.
 */
static inline int live_edge(const struct dqr_dyn_order *d, uint32_t u,
			    uint32_t w)
{
	if (d->retired[u] || d->retired[w])
		return 0;
	if (d->reviving == DQR_NONE)
		return 1;
	if (u == d->reviving)
		return d->rv_out[w] == d->rv_epoch;
	if (w == d->reviving)
		return d->rv_in[u] == d->rv_epoch;
	return 1;
}

/* Fresh marks: fwd = epoch, bwd = epoch + 1, never equal to old ones. */
static inline void new_search(struct dqr_dyn_order *d)
{
	if (d->epoch > UINT32_MAX - 4) {
		memset(d->seen, 0, sizeof(*d->seen) * d->num_vertices);
		d->epoch = 0;
	}
	d->epoch += 2;
}

/*
 * DYN_FOR_EACH_DEP(d, v, forward, w, body): body once for each of v's
 * dependencies, with w the channel at its other end: v's successors when
 * forward, else its predecessors; those of the CSR first, then the added
 * ones.  body may continue (to the next one) or return.  Two loops
 * written out, not a cursor: a shared neighbour cursor made the searches
 * twice as slow.  forward is best a constant.
 */
#define DYN_FOR_EACH_DEP(d, v, forward, w, ...)				\
	do {								\
		const uint64_t *off_ = (forward) ? (d)->succ_off :	\
						   (d)->pred_off;	\
		const uint32_t *dep_ = (forward) ? (d)->succ : (d)->pred; \
		uint64_t k_;						\
		uint32_t e_;						\
									\
		for (k_ = off_[v]; k_ < off_[(v) + 1]; k_++) {		\
			(w) = dep_[k_];					\
			__VA_ARGS__					\
		}							\
		for (e_ = (forward) ? (d)->add_succ[v] : (d)->add_pred[v]; \
		     e_ != DQR_NONE;					\
		     e_ = (forward) ? (d)->edges[e_].next_succ :	\
				      (d)->edges[e_].next_pred) {	\
			(w) = (forward) ? (d)->edges[e_].to :		\
					  (d)->edges[e_].from;		\
			__VA_ARGS__					\
		}							\
	} while (0)

/*
 * One step of a search bounded by a position: v's live dependencies
 * (successors at positions up to bound when forward, else predecessors
 * from bound up) that the search has not marked yet join its queue
 * (d->fwd, or d->bwd backward; *n so far) with its mark (epoch, or
 * epoch + 1 backward).  Returns the first goal met instead, else
 * DQR_NONE: a channel the other side marked or, with bits, one in those
 * slots (d->reach_bits, dyn_reach.c).  Always inlined, so that each call
 * is compiled for its own direction and goal.
 */
static inline __attribute__((always_inline)) uint32_t
dyn_step(struct dqr_dyn_order *d, uint32_t v, int forward, uint32_t bound,
	 uint32_t bits, uint32_t *n)
{
	uint32_t mine = forward ? d->epoch : d->epoch + 1;
	uint32_t theirs = forward ? d->epoch + 1 : d->epoch;
	uint32_t *queue = forward ? d->fwd : d->bwd;
	uint32_t w;

	DYN_FOR_EACH_DEP(d, v, forward, w,
		if ((forward ? d->pos[w] > bound : d->pos[w] < bound) ||
		    d->seen[w] == mine ||
		    !(forward ? live_edge(d, v, w) : live_edge(d, w, v)))
			continue;
		if (bits ? (d->reach_bits[w] & bits) != 0 :
			   d->seen[w] == theirs)
			return w;
		d->seen[w] = mine;
		queue[(*n)++] = w;
	);
	return DQR_NONE;
}

/* dyn_reach.c: see there */
int dyn_reach_new(struct dqr_dyn_order *d);
void dyn_reach_free(struct dqr_dyn_order *d);
int dyn_reach_refuses(struct dqr_dyn_order *d, uint32_t a, uint32_t b);
void dyn_reach_keep(struct dqr_dyn_order *d, uint32_t a, uint32_t b);

#endif
