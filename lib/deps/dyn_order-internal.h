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

/* dyn_reach.c: see there */
int dyn_reach_new(struct dqr_dyn_order *d);
void dyn_reach_free(struct dqr_dyn_order *d);
int dyn_reach_refuses(struct dqr_dyn_order *d, uint32_t a, uint32_t b);
void dyn_reach_keep(struct dqr_dyn_order *d, uint32_t a, uint32_t b);

#endif
