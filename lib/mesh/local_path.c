/*
 * local_path.c - the local path around a failed grid link and its patch of
 * one destination tree; see local_path.h.
 */
#include <stdlib.h>

#include "mesh/local_path.h"

int dqr_local_path_centre_minus(const struct dqr_grid_nbrs *n, uint32_t a,
				unsigned j)
{
	/* the centre is at (dims - 1) / 2 */
	return 2u * dqr_grid_coord(n, a, j) > n->dims[j] - 1;
}

int dqr_local_path_aside(const struct dqr_grid_nbrs *n,
			 const struct dqr_fabric *f, uint32_t a, unsigned k,
			 int k_minus, unsigned j, int j_minus,
			 struct dqr_local_path *lp)
{
	const unsigned dim[3] = { j, k, j };
	const int minus[3] = { j_minus, k_minus, !j_minus };
	uint32_t s, from = a, i;

	if (j == k)
		return 0;
	lp->sw[0] = a;
	for (i = 0; i < 3; i++) {
		s = dqr_grid_slot(from, dim[i], minus[i]);
		if (!dqr_grid_nbr_cabled(n, f, from, s))
			return 0;
		lp->port[i] = n->port[s];
		lp->sw[i + 1] = from = n->sw[s];
	}
	/* the far end is a's neighbour across the link */
	return n->sw[dqr_grid_slot(a, k, k_minus)] == lp->sw[3];
}

/* The switch that sw's port p leads to in f, or DQR_NONE. */
static uint32_t next_switch(const struct dqr_fabric *f, uint32_t sw,
			    uint8_t p, int *cabled)
{
	uint32_t gp;

	*cabled = 0;
	if (p == 0 || p > f->nodes[f->switches[sw]].num_ports)
		return DQR_NONE;
	gp = dqr_port_index(f, f->switches[sw], p);
	*cabled = dqr_peer_port(f, gp) != DQR_NONE;
	return dqr_peer_switch(f, gp);
}

int dqr_local_path_patch(const struct dqr_local_path *lp,
			 const struct dqr_fabric *f, const struct dqr_lfts *t,
			 uint32_t lid, uint32_t *sw, uint8_t *port)
{
	uint32_t i, n = 0, s, next;
	int cabled;
	uint8_t q;

	for (i = 0; i + 1 < DQR_LOCAL_PATH_LEN; i++) {
		s = lp->sw[i];
		if (i) {
			q = dqr_lft_get(t, s, lid);
			/* delivered here */
			if (q == 0)
				break;
			next = next_switch(f, s, q, &cabled);
			/* its route leaves the path forwards (or to a CA) */
			if (cabled && next != lp->sw[i - 1])
				break;
		}
		sw[n] = s;
		port[n++] = lp->port[i];
	}
	if (n + 1 < DQR_LOCAL_PATH_LEN)
		return (int)n;
	/* the end must not lead back into the path */
	s = lp->sw[n];
	next = next_switch(f, s, dqr_lft_get(t, s, lid), &cabled);
	return next == lp->sw[n - 1] ? -1 : (int)n;
}

/* 1 when some DLID leaves switch sw through port pn. */
static int carries(const struct dqr_lfts *t, uint32_t sw, uint8_t pn)
{
	const uint8_t *row = dqr_lft_row(t, sw);
	uint32_t lid;

	for (lid = 1; lid < t->lid_count; lid++)
		if (row[lid] == pn)
			return 1;
	return 0;
}

/*
 * The switches in GUID order, so that the links are bypassed in an order
 * that does not depend on the model's numbering: the plugin's (OpenSM's
 * tables) and dqr-sim's (ibnetdiscover's output) must make the same
 * choices.  NULL when out of memory.
 */
static uint32_t *by_guid(const struct dqr_fabric *f)
{
	uint32_t sw, ns = f->num_switches;
	struct dqr_guid_key *k = malloc(sizeof(*k) * (ns ? ns : 1));
	uint32_t *order = malloc(sizeof(*order) * (ns ? ns : 1));

	if (!k || !order) {
		free(k);
		free(order);
		return NULL;
	}
	for (sw = 0; sw < ns; sw++)
		k[sw] = (struct dqr_guid_key){
			.guid = f->nodes[f->switches[sw]].guid,
			.tie = sw, .val = sw };
	qsort(k, ns, sizeof(*k), dqr_guid_key_cmp);
	for (sw = 0; sw < ns; sw++)
		order[sw] = (uint32_t)k[sw].val;
	free(k);
	return order;
}

int dqr_local_path_each_dead(const struct dqr_grid_nbrs *n,
			     const struct dqr_fabric *f,
			     const struct dqr_lfts *t,
			     int (*fn)(void *arg, uint32_t a, uint32_t b,
				       unsigned k),
			     void *arg)
{
	uint32_t a, b, s, i, *order;
	uint8_t pb;
	unsigned k;
	int r = 0;

	if (f->num_switches != n->num_switches)
		return 0;
	order = by_guid(f);
	if (!order)
		return -1;
	for (i = 0; !r && i < n->num_switches; i++)
		for (a = order[i], k = 0; !r && k < n->ndims; k++) {
			s = dqr_grid_slot(a, k, 0);
			b = n->sw[s];
			if (b == DQR_NONE || dqr_grid_nbr_cabled(n, f, a, s))
				continue;
			pb = n->port[dqr_grid_slot(b, k, 1)];
			if (!carries(t, a, n->port[s]) &&
			    !(pb && carries(t, b, pb)))
				continue;
			r = fn(arg, a, b, k);
		}
	free(order);
	return r;
}
