/*
 * grid_nbr.c - grid neighbours by dimension and direction; see grid_nbr.h.
 */
#include <stdlib.h>
#include <string.h>

#include "shape/grid_nbr.h"

/* The dimension and direction in which switch b neighbours a, or -1. */
static int step_of(const struct dqr_grid_nbrs *n, uint32_t a, uint32_t b,
		   unsigned *dim)
{
	unsigned k, size, differ = 0;
	uint16_t ca, cb;
	int minus = -1;

	for (k = 0; k < n->ndims; k++) {
		ca = dqr_grid_coord(n, a, k);
		cb = dqr_grid_coord(n, b, k);
		if (ca == cb)
			continue;
		differ++;
		size = n->dims[k];
		*dim = k;
		if (cb == ca + 1 || (n->wrap[k] && ca == size - 1 && cb == 0))
			minus = 0;
		else if (ca == cb + 1 ||
			 (n->wrap[k] && cb == size - 1 && ca == 0))
			minus = 1;
	}
	return differ == 1 ? minus : -1;
}

int dqr_grid_nbrs_build(const struct dqr_fabric *f, const struct dqr_grid *g,
			struct dqr_grid_nbrs *n)
{
	uint32_t a, b, s, sw, count = f->num_switches;
	unsigned pn, k = 0;
	int minus;

	memset(n, 0, sizeof(*n));
	if (g->num_switches != count || g->ndims > DQR_GEN_MAX_DIMS)
		return -1;
	n->num_switches = count;
	n->ndims = g->ndims;
	for (k = 0; k < g->ndims; k++) {
		n->dims[k] = g->dims[k];
		n->wrap[k] = g->wrap[k];
	}
	n->coord = calloc((size_t)count * DQR_GEN_MAX_DIMS + 1,
			  sizeof(*n->coord));
	n->sw = malloc(((size_t)count * DQR_GRID_DIRS + 1) * sizeof(*n->sw));
	n->port = calloc((size_t)count * DQR_GRID_DIRS + 1, 1);
	if (!n->coord || !n->sw || !n->port) {
		dqr_grid_nbrs_release(n);
		return -1;
	}
	for (sw = 0; sw < count; sw++)
		for (k = 0; k < g->ndims; k++)
			n->coord[(size_t)sw * DQR_GEN_MAX_DIMS + k] =
				g->place[sw].coord[k];
	for (s = 0; s < (size_t)count * DQR_GRID_DIRS; s++)
		n->sw[s] = DQR_NONE;
	for (a = 0; a < count; a++)
		dqr_for_each_linked_port(f, f->switches[a], pn) {
			b = dqr_peer_switch(f, dqr_port_index(f,
						f->switches[a], pn));
			if (b == DQR_NONE || b == a)
				continue;
			minus = step_of(n, a, b, &k);
			if (minus < 0)
				continue;
			s = dqr_grid_slot(a, k, minus);
			if (n->sw[s] != DQR_NONE)
				continue;	/* a parallel cable */
			n->sw[s] = b;
			n->port[s] = (uint8_t)pn;
		}
	return 0;
}

void dqr_grid_nbrs_release(struct dqr_grid_nbrs *n)
{
	free(n->coord);
	free(n->sw);
	free(n->port);
	memset(n, 0, sizeof(*n));
}
