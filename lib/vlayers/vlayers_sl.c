/*
 * vlayers_sl.c - the pairs of switches a repair moved to another layer
 * (vlayers_move.c), over the layer function (e-cube's rings, or the SL
 * table a routing gave): a small hash, so that a 10^4-switch torus needs
 * no S x S copy of its SLs for a handful of moves.  Open addressing on
 * s * S + d + 1 (0 marks an empty slot); an entry is never removed, only
 * set back, which keeps the probe chains whole.  A copy of tl's hash
 * (dqr_vlayers_sls_take()) is read with the same S.  What a pair's SL
 * is without a move is vlayers.c's (this file stays below it).
 */
#include <stdlib.h>
#include <string.h>

#include "vlayers/vlayers-internal.h"

static uint64_t pair_key(const struct dqr_vlayers *tl, uint32_t s,
			 uint32_t d)
{
	return (uint64_t)s * tl->n.num_switches + d + 1;
}

/* key's slot in m, or the empty one where it would go (m->cap > 0). */
static uint32_t find_slot(const struct dqr_vlayers_sls *m, uint64_t key)
{
	uint32_t i;

	/* Fibonacci hashing of the key onto cap slots */
	for (i = (uint32_t)((key * 0x9e3779b97f4a7c15ull) >> 32) &
		 (m->cap - 1);
	     m->key[i] && m->key[i] != key; i = (i + 1) & (m->cap - 1))
		;
	return i;
}

/* The SL m holds for key, or -1 when it holds none. */
static int sl_in(const struct dqr_vlayers_sls *m, uint64_t key)
{
	uint32_t i;

	if (!m->n)
		return -1;
	i = find_slot(m, key);
	return m->key[i] ? m->sl[i] : -1;
}

int dqr_vlayers_sls_find(const struct dqr_vlayers *tl,
			 const struct dqr_vlayers_sls *m, uint32_t s,
			 uint32_t d)
{
	return sl_in(m, pair_key(tl, s, d));
}

/* Doubles the table (16 slots at first): 0, or -1 no memory. */
static int grow(struct dqr_vlayers_sls *m)
{
	struct dqr_vlayers_sls old = *m;
	uint32_t i, j;

	m->cap = old.cap ? 2 * old.cap : 16;
	m->key = calloc(m->cap, sizeof(*m->key));
	m->sl = malloc(m->cap);
	if (!m->key || !m->sl) {
		free(m->key);
		free(m->sl);
		*m = old;
		return -1;
	}
	for (i = 0; i < old.cap; i++) {
		if (!old.key[i])
			continue;
		j = find_slot(m, old.key[i]);
		m->key[j] = old.key[i];
		m->sl[j] = old.sl[i];
	}
	free(old.key);
	free(old.sl);
	return 0;
}

int dqr_vlayers_put_sl(struct dqr_vlayers *tl, uint32_t s, uint32_t d,
		       uint8_t sl)
{
	struct dqr_vlayers_sls *m = &tl->mv;
	uint64_t key = pair_key(tl, s, d);
	uint32_t i = m->cap ? find_slot(m, key) : 0;

	/* a pair moved before is set in place: setting back never fails */
	if (!m->cap || !m->key[i]) {
		if (2 * (m->n + 1) > m->cap) {
			if (grow(m))
				return -1;
			i = find_slot(m, key);
		}
		m->key[i] = key;
		m->n++;
	}
	m->sl[i] = sl;
	return 0;
}

int dqr_vlayers_sls_take(const struct dqr_vlayers *tl,
			 struct dqr_vlayers_sls *m)
{
	struct dqr_vlayers_sls c = { .n = tl->mv.n, .cap = tl->mv.cap };

	if (c.cap) {
		c.key = malloc(sizeof(*c.key) * c.cap);
		c.sl = malloc(c.cap);
		if (!c.key || !c.sl) {
			free(c.key);
			free(c.sl);
			return -1;
		}
		memcpy(c.key, tl->mv.key, sizeof(*c.key) * c.cap);
		memcpy(c.sl, tl->mv.sl, c.cap);
	}
	dqr_vlayers_sls_release(m);
	*m = c;
	return 0;
}

void dqr_vlayers_sls_release(struct dqr_vlayers_sls *m)
{
	free(m->key);
	free(m->sl);
	memset(m, 0, sizeof(*m));
}
