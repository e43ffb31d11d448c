/*
 * grid_conform.c - a copy of a recognised grid with topo_gen.h's port
 * numbers and a switch in every coordinate, and the way back for the
 * tables routed on it (grid_shape.h says why).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "shape/grid_shape.h"
#include "util/errmsg.h"
#include "util/mem.h"

/* Coordinates (slots) of the grid: hypercube labels or x + X*(y + ...). */
static uint32_t num_slots(const struct dqr_grid *g)
{
	uint32_t n = 1;
	unsigned d;

	if (g->kind == DQR_GRID_HYPERCUBE)
		return 1u << g->ndims;
	for (d = 0; d < g->ndims; d++)
		n *= g->dims[d];
	return n;
}

static unsigned grid_ports(const struct dqr_grid *g)
{
	return g->kind == DQR_GRID_HYPERCUBE ? g->ndims : 2 * g->ndims;
}

/* topo_gen's port at switch a towards its grid neighbour b; 0 if none. */
static unsigned conv_port(const struct dqr_grid *g, const
			  struct dqr_gen_place *a, const
			  struct dqr_gen_place *b)
{
	uint32_t x = a->pos ^ b->pos, ca, cb;
	unsigned d;

	if (g->kind == DQR_GRID_HYPERCUBE)
		return x && !(x & (x - 1)) ?
		       (unsigned)__builtin_ctz(x) + 1 : 0;
	for (d = 0; d < g->ndims; d++) {
		ca = a->coord[d];
		cb = b->coord[d];
		if (ca == cb)
			continue;
		if (cb == ca + 1 || (g->wrap[d] && ca == g->dims[d] - 1 &&
				     cb == 0))
			return 2 * d + 1;
		return 2 * d + 2;
	}
	return 0;
}

/*
 * conv[global port of f]: its number in the copy.  Grid cables first (the
 * first cable to each neighbour), the switch's other linked ports after
 * them in port order; end nodes keep theirs.  *nports: per switch.
 */
static int number_ports(const struct dqr_fabric *f, const struct dqr_grid *g,
			uint8_t *conv, unsigned *nports)
{
	unsigned gp = grid_ports(g), pn, p, next;
	uint32_t sw, node, peer, gi;

	for (node = 0; node < f->num_nodes; node++)
		for (pn = 0; pn <= f->nodes[node].num_ports; pn++)
			conv[dqr_port_index(f, node, pn)] = (uint8_t)pn;
	for (sw = 0; sw < f->num_switches; sw++) {
		uint8_t used[DQR_MAX_PORTS + 2] = { 0 };

		node = f->switches[sw];
		dqr_for_each_linked_port(f, node, pn) {
			gi = dqr_port_index(f, node, pn);
			conv[gi] = 0;
			peer = dqr_peer_switch(f, gi);
			if (peer == DQR_NONE || peer == sw)
				continue;
			p = conv_port(g, &g->place[sw], &g->place[peer]);
			if (p && !used[p]) {
				used[p] = 1;
				conv[gi] = (uint8_t)p;
			}
		}
		next = gp + 1;
		dqr_for_each_linked_port(f, node, pn) {
			gi = dqr_port_index(f, node, pn);
			if (conv[gi])
				continue;
			if (next > DQR_MAX_PORTS)
				return -1;
			conv[gi] = (uint8_t)next++;
		}
		nports[sw] = f->nodes[node].num_ports > next - 1 ?
			     f->nodes[node].num_ports : next - 1;
		if (nports[sw] < gp)
			nports[sw] = gp;
	}
	return 0;
}

/*
 * Fills the conformed copy c->f: f's switches first (same switch indices,
 * GUIDs and names), a placeholder switch without LID or cable in every
 * coordinate no switch holds, then the end nodes, LIDs and cables through
 * the port numbers conv[] gives.  newidx[] maps f's nodes to the copy's.
 * 0, or -1 when out of memory.
 */
static int build_copy(const struct dqr_fabric *f, const struct dqr_grid *g,
		      struct dqr_grid_conform *c, const uint8_t *conv,
		      const unsigned *nports, uint32_t *newidx)
{
	uint32_t nslots = num_slots(g), sw, node, sl, q, gi, r, *held;
	const struct dqr_port *pt;
	struct dqr_fabric *h = c->f;
	unsigned pn, gp = grid_ports(g);
	char name[48];

	held = calloc(nslots, sizeof(*held));
	if (!held)
		return -1;
	for (sw = 0; sw < f->num_switches; sw++) {
		node = f->switches[sw];
		held[g->place[sw].pos] = 1;
		newidx[node] = dqr_fabric_add_node(h, DQR_NODE_SWITCH,
						   nports[sw],
						   f->nodes[node].guid,
						   dqr_node_name(f, node));
		c->places[sw] = g->place[sw];
	}
	for (sl = 0, sw = f->num_switches; sl < nslots; sl++) {
		if (held[sl])
			continue;
		snprintf(name, sizeof(name), "grid-missing-%u", sl);
		if (dqr_fabric_add_node(h, DQR_NODE_SWITCH, gp, 0, name) ==
		    DQR_NONE)
			goto fail;
		c->places[sw].pos = sl;
		for (r = sl, pn = 0; g->kind != DQR_GRID_HYPERCUBE &&
		     pn < g->ndims; pn++) {
			c->places[sw].coord[pn] = (uint16_t)(r % g->dims[pn]);
			r /= g->dims[pn];
		}
		sw++;
	}
	for (node = 0; node < f->num_nodes; node++)
		if (!dqr_is_switch(f, node))
			newidx[node] = dqr_fabric_add_node(h,
				f->nodes[node].type, f->nodes[node].num_ports,
				f->nodes[node].guid, dqr_node_name(f, node));
	for (node = 0; node < f->num_nodes; node++) {
		if (newidx[node] == DQR_NONE)
			goto fail;
		for (pn = 0; pn <= f->nodes[node].num_ports; pn++) {
			gi = dqr_port_index(f, node, pn);
			pt = &f->ports[gi];
			if (pt->base_lid &&
			    dqr_fabric_set_lid(h, newidx[node], conv[gi],
					       pt->base_lid, pt->lmc))
				goto fail;
			if (pt->guid)
				dqr_fabric_set_port_guid(h, newidx[node],
							 conv[gi], pt->guid);
			q = pt->remote;
			if (pn == 0 || q == DQR_NONE || q < gi)
				continue;
			if (dqr_fabric_link(h, newidx[node], conv[gi],
					    newidx[f->ports[q].node], conv[q]))
				goto fail;
		}
	}
	free(held);
	return 0;
fail:
	free(held);
	return -1;
}

int dqr_grid_conform(const struct dqr_fabric *f, const struct dqr_grid *g,
		     struct dqr_grid_conform *c, char *err, size_t errlen)
{
	uint32_t nslots = num_slots(g), sw, node, *newidx = NULL;
	unsigned *nports = NULL, pn, stride;
	uint8_t *conv = NULL;

	memset(c, 0, sizeof(*c));
	conv = malloc((size_t)f->num_ports + 1);
	nports = malloc(sizeof(*nports) * (f->num_switches + 1));
	newidx = malloc(sizeof(*newidx) * (f->num_nodes + 1));
	c->places = calloc((size_t)nslots + 1, sizeof(*c->places));
	c->f = dqr_fabric_new();
	if (!conv || !nports || !newidx || !c->places || !c->f)
		goto nomem;
	if (number_ports(f, g, conv, nports)) {
		dqr_set_err(err, errlen, "too many ports to renumber");
		goto fail;
	}
	if (build_copy(f, g, c, conv, nports, newidx)) {
		dqr_set_err(err, errlen, "cannot build the conformed copy");
		goto fail;
	}
	if (dqr_fabric_finish(c->f, err, errlen))
		goto fail;
	c->max_ports = grid_ports(g);
	for (sw = 0; sw < f->num_switches; sw++)
		if (nports[sw] > c->max_ports)
			c->max_ports = nports[sw];
	stride = c->max_ports + 1;
	c->to_real = calloc((size_t)f->num_switches * stride, 1);
	if (!c->to_real)
		goto nomem;
	for (sw = 0; sw < f->num_switches; sw++) {
		node = f->switches[sw];
		if (c->f->nodes[c->f->switches[sw]].guid !=
		    f->nodes[node].guid) {
			dqr_set_err(err, errlen, "switch order changed");
			goto fail;
		}
		dqr_for_each_linked_port(f, node, pn)
			c->to_real[(size_t)sw * stride +
				   conv[dqr_port_index(f, node, pn)]] =
				(uint8_t)pn;
	}
	DQR_FREE_ALL(conv, nports, newidx);
	return 0;
nomem:
	dqr_set_err(err, errlen, "out of memory");
fail:
	DQR_FREE_ALL(conv, nports, newidx);
	dqr_grid_conform_free(c);
	return -1;
}

void dqr_grid_conform_free(struct dqr_grid_conform *c)
{
	dqr_fabric_free(c->f);
	DQR_FREE_ALL(c->places, c->to_real);
	memset(c, 0, sizeof(*c));
}

void dqr_grid_unconform(const struct dqr_grid_conform *c,
			uint32_t num_switches, struct dqr_lfts *t)
{
	uint32_t sw, lid, stride = c->max_ports + 1;
	uint8_t map[256], *row;
	unsigned p;

	for (sw = 0; sw < num_switches; sw++) {
		/* a byte translation per row: the tables are the big part */
		for (p = 0; p < 256; p++)
			map[p] = p == 0 || p == DQR_NO_PATH ? (uint8_t)p :
				 p <= c->max_ports &&
				 c->to_real[(size_t)sw * stride + p] ?
				 c->to_real[(size_t)sw * stride + p] :
				 DQR_NO_PATH;
		row = dqr_lft_row(t, sw);
		for (lid = 0; lid < t->lid_count; lid++)
			row[lid] = map[row[lid]];
	}
	/* the missing coordinates' rows come last: dropped */
	t->num_switches = num_switches;
}
