/*
 * vlayers_sl.c - the pairs of switches a repair moved to another layer
 * (vlayers_move.c), over the layer function (e-cube's rings, or the SL
 * table a routing gave): a small hash, so that a 10^4-switch torus needs
 * no S x S copy of its SLs for a handful of moves.  Open addressing on
 * s * S + d + 1 (0 marks an empty slot); an entry is never removed, only
 * set back, which keeps the probe chains whole.
 */
#include <stdlib.h>

#include "vlayers/vlayers-internal.h"

static uint64_t pair_key(const struct dqr_vlayers *tl, uint32_t s,
			 uint32_t d)
{
	return (uint64_t)s * tl->n.num_switches + d + 1;
}

/* Fibonacci hashing of the key onto mv_cap slots. */
static uint32_t slot_of(const struct dqr_vlayers *tl, uint64_t key)
{
	return (uint32_t)((key * 0x9e3779b97f4a7c15ull) >> 32) &
	       (tl->mv_cap - 1);
}

/* key's slot, or the empty one where it would go (mv_cap > 0). */
static uint32_t find_slot(const struct dqr_vlayers *tl, uint64_t key)
{
	uint32_t i;

	for (i = slot_of(tl, key); tl->mv_key[i] && tl->mv_key[i] != key;
	     i = (i + 1) & (tl->mv_cap - 1))
		;
	return i;
}

int dqr_vlayers_moved_sl(const struct dqr_vlayers *tl, uint32_t s,
			 uint32_t d)
{
	uint32_t i;

	if (!tl->mv_n)
		return -1;
	i = find_slot(tl, pair_key(tl, s, d));
	return tl->mv_key[i] ? tl->mv_sl[i] : -1;
}

/* Doubles the table (16 slots at first): 0, or -1 no memory. */
static int grow(struct dqr_vlayers *tl)
{
	uint32_t cap = tl->mv_cap ? 2 * tl->mv_cap : 16, old = tl->mv_cap, i;
	uint64_t *key = tl->mv_key;
	uint8_t *sl = tl->mv_sl;
	uint32_t j;

	tl->mv_key = calloc(cap, sizeof(*key));
	tl->mv_sl = malloc(cap);
	if (!tl->mv_key || !tl->mv_sl) {
		free(tl->mv_key);
		free(tl->mv_sl);
		tl->mv_key = key;
		tl->mv_sl = sl;
		return -1;
	}
	tl->mv_cap = cap;
	for (i = 0; i < old; i++) {
		if (!key[i])
			continue;
		j = find_slot(tl, key[i]);
		tl->mv_key[j] = key[i];
		tl->mv_sl[j] = sl[i];
	}
	free(key);
	free(sl);
	return 0;
}

int dqr_vlayers_put_sl(struct dqr_vlayers *tl, uint32_t s, uint32_t d,
		       uint8_t sl)
{
	uint64_t key = pair_key(tl, s, d);
	uint32_t i = tl->mv_cap ? find_slot(tl, key) : 0;

	/* a pair moved before is set in place: setting back never fails */
	if (!tl->mv_cap || !tl->mv_key[i]) {
		if (2 * (tl->mv_n + 1) > tl->mv_cap) {
			if (grow(tl))
				return -1;
			i = find_slot(tl, key);
		}
		tl->mv_key[i] = key;
		tl->mv_n++;
	}
	tl->mv_sl[i] = sl;
	return 0;
}
