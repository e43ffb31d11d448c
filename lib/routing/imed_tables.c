/*
 * imed_tables.c - the IN paper's routes (intermediate.h) written into a
 * generated grid's tables: one destination tree per switch, for its own
 * LID and its CAs', each tree's ties broken by the load of the trees
 * before it, as OpenSM's minhop balances its ports.
 */
#include <stdlib.h>

#include "fabric/fabric.h"
#include "fabric/lft.h"
#include "fabric/topo_gen.h"
#include "routes/route_walk.h"
#include "routing/intermediate.h"
#include "util/errmsg.h"
#include "util/mem.h"

struct imed_fill {
	const struct dqr_grid_links *gl;
	uint32_t *sw_of;	/* per grid node: f's switch index */
	uint32_t *next;		/* one tree */
	uint64_t *load;		/* per directed cable: routes so far */
	uint32_t *lid_first;	/* per grid node, CSR over lids[] */
	uint32_t *lids;
};

/* topo_gen's port from x to its grid neighbour y: 2d + 1 up, 2d + 2 down */
static uint8_t port_to(const struct dqr_grid_links *gl, uint32_t x,
		       uint32_t y, uint32_t *cable_dir)
{
	int down;
	int32_t c = dqr_grid_cable(gl, x, y, &down);

	if (c < 0)
		return DQR_NO_PATH;
	*cable_dir = 2 * (uint32_t)c + (uint32_t)down;
	return (uint8_t)(2 * gl->dim[c] + 1 + down);
}

/* Buckets f's LIDs by the grid node of their switch; -1 if one is off. */
static int bucket_lids(struct imed_fill *x, const struct dqr_fabric *f,
		       const struct dqr_gen_place *places, uint32_t *node_of)
{
	uint32_t lid, sw, n = x->gl->num_nodes, *fill;

	for (sw = 0; sw < f->num_switches; sw++) {
		if (places[sw].pos >= n)
			return -1;
		node_of[sw] = places[sw].pos;
		x->sw_of[places[sw].pos] = sw;
	}
	for (lid = 1; lid <= f->max_lid; lid++) {
		sw = dqr_lid_switch(f, lid);
		if (sw != DQR_NONE)
			x->lid_first[node_of[sw] + 1]++;
	}
	for (sw = 0; sw < n; sw++)
		x->lid_first[sw + 1] += x->lid_first[sw];
	fill = calloc(n + 1, sizeof(*fill));
	if (!fill)
		return -2;
	for (lid = 1; lid <= f->max_lid; lid++) {
		sw = dqr_lid_switch(f, lid);
		if (sw != DQR_NONE) {
			uint32_t node = node_of[sw];

			x->lids[x->lid_first[node] + fill[node]++] = lid;
		}
	}
	free(fill);
	return 0;
}

/* The delivering port at the owner's switch: 0 for its own LID. */
static uint8_t last_port(const struct dqr_fabric *f, uint32_t lid)
{
	uint32_t owner = dqr_lid_owner(f, lid);

	if (dqr_is_switch(f, f->ports[owner].node))
		return 0;
	return (uint8_t)f->ports[dqr_peer_port(f, owner)].num;
}

/*
 * d's tree into t for every LID of d, and the routes it carries into the
 * loads that break the next trees' ties.
 */
static int fill_tree(struct imed_fill *x, struct dqr_imed *im,
		     const struct dqr_fabric *f, struct dqr_lfts *t,
		     uint32_t d, unsigned max)
{
	const struct dqr_grid_links *gl = x->gl;
	uint32_t v, i, y, cd, hops;

	if (dqr_imed_tree(im, d, max, x->load, x->next))
		return -1;
	for (i = x->lid_first[d]; i < x->lid_first[d + 1]; i++)
		dqr_lft_set(t, x->sw_of[d], x->lids[i],
			    last_port(f, x->lids[i]));
	for (v = 0; v < gl->num_nodes; v++) {
		uint8_t p;

		if (x->next[v] == DQR_IMED_NONE)
			continue;
		p = port_to(gl, v, x->next[v], &cd);
		for (i = x->lid_first[d]; i < x->lid_first[d + 1]; i++)
			dqr_lft_set(t, x->sw_of[v], x->lids[i], p);
		/* the route from v loads every cable on its way */
		for (y = v, hops = 0; y != d && hops <= gl->num_nodes;
		     hops++) {
			if (port_to(gl, y, x->next[y], &cd) == DQR_NO_PATH)
				break;
			x->load[cd]++;
			y = x->next[y];
		}
	}
	return 0;
}

int dqr_imed_tables(struct dqr_imed *im, const struct dqr_fabric *f,
		    const struct dqr_gen_place *places, unsigned max,
		    struct dqr_lfts **out, char *err, size_t errlen)
{
	const struct dqr_grid_links *gl = dqr_imed_grid(im);
	struct imed_fill x = { .gl = gl };
	uint32_t *node_of = NULL, d;
	struct dqr_lfts *t = NULL;
	int r = -2;

	*out = NULL;
	if (f->num_switches != gl->num_nodes) {
		dqr_set_err(err, errlen, "%u switches, not the grid's %u",
			    f->num_switches, gl->num_nodes);
		return -1;
	}
	x.sw_of = calloc(gl->num_nodes, sizeof(*x.sw_of));
	x.next = calloc(gl->num_nodes, sizeof(*x.next));
	x.load = calloc(2 * (size_t)gl->num_links + 1, sizeof(*x.load));
	x.lid_first = calloc(gl->num_nodes + 1, sizeof(*x.lid_first));
	x.lids = calloc(f->max_lid + 1, sizeof(*x.lids));
	node_of = calloc(f->num_switches + 1, sizeof(*node_of));
	t = dqr_lfts_new(f->num_switches, f->max_lid + 1);
	if (!x.sw_of || !x.next || !x.load || !x.lid_first || !x.lids ||
	    !node_of || !t)
		goto out;
	r = bucket_lids(&x, f, places, node_of);
	for (d = 0; !r && d < gl->num_nodes; d++)
		r = fill_tree(&x, im, f, t, d, max);
out:
	if (r == -1)
		dqr_set_err(err, errlen, "the fabric is not the model's grid");
	else if (r)
		dqr_set_err(err, errlen, "out of memory");
	if (!r) {
		*out = t;
		t = NULL;
	}
	dqr_lfts_free(t);
	DQR_FREE_ALL(x.sw_of, x.next, x.load, x.lid_first, x.lids, node_of);
	return r ? -1 : 0;
}
