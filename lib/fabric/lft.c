/*
 * lft.c - allocation and comparison of whole-fabric forwarding tables.
 */
#include <stdlib.h>
#include <string.h>

#include "fabric/lft.h"

struct dqr_lfts *dqr_lfts_new(uint32_t num_switches, uint32_t lid_count)
{
	struct dqr_lfts *t = calloc(1, sizeof(*t));
	size_t n = (size_t)num_switches * lid_count;

	if (!t)
		return NULL;
	t->num_switches = num_switches;
	t->lid_count = lid_count;
	t->port = malloc(n ? n : 1);
	if (!t->port) {
		free(t);
		return NULL;
	}
	memset(t->port, DQR_NO_PATH, n);
	return t;
}

struct dqr_lfts *dqr_lfts_clone(const struct dqr_lfts *t)
{
	struct dqr_lfts *c = dqr_lfts_new(t->num_switches, t->lid_count);

	if (c)
		memcpy(c->port, t->port,
		       (size_t)t->num_switches * t->lid_count);
	return c;
}

void dqr_lfts_free(struct dqr_lfts *t)
{
	if (!t)
		return;
	free(t->port);
	free(t);
}

void dqr_lfts_diff(const struct dqr_lfts *a, const struct dqr_lfts *b,
		   struct dqr_lft_diff *d)
{
	uint32_t sw, lid, l, end, changed;
	uint32_t n = a->lid_count > b->lid_count ? a->lid_count : b->lid_count;
	int touched;

	memset(d, 0, sizeof(*d));
	for (sw = 0; sw < a->num_switches && sw < b->num_switches; sw++) {
		if (a->lid_count == b->lid_count &&
		    !memcmp(dqr_lft_row(a, sw), dqr_lft_row(b, sw), n))
			continue;
		touched = 0;
		for (lid = 0; lid < n; lid += DQR_LFT_BLOCK) {
			end = lid + DQR_LFT_BLOCK < n ? lid + DQR_LFT_BLOCK : n;
			changed = 0;
			for (l = lid; l < end; l++)
				changed += dqr_lft_get(a, sw, l) !=
					   dqr_lft_get(b, sw, l);
			if (changed) {
				d->entries += changed;
				d->blocks++;
				touched = 1;
			}
		}
		d->switches += touched;
	}
}
