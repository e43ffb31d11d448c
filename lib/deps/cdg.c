/*
 * cdg.c - building the channel dependency graph from LFTs.
 *
 * Dependencies repeat for every DLID that shares a turn, so they are first
 * collected as one bit per (channel, out-port of the node it enters) and
 * only then laid out as CSR: memory stays O(channels x radix) however many
 * LIDs the fabric has.
 */
#include <stdlib.h>
#include <string.h>

#include "deps/cdg.h"
#include "fabric/relay.h"
#include "util/mem.h"

#define TURN_WORDS 4	/* 256 bits: every port number of the next node */

struct turn_bits {
	uint64_t w[TURN_WORDS];
};

static void set_turn(struct turn_bits *b, unsigned port)
{
	b->w[port >> 6] |= 1ull << (port & 63);
}

static int has_turn(const struct turn_bits *b, unsigned port)
{
	return (b->w[port >> 6] >> (port & 63)) & 1;
}

/* Switch-to-switch turns: channel sw->next followed by next's entry. */
static void collect_transit(const struct dqr_fabric *f,
			    const struct dqr_lfts *t, uint32_t lid,
			    struct turn_bits *bits)
{
	uint32_t sw, c, next;
	uint8_t q;

	for (sw = 0; sw < f->num_switches; sw++) {
		c = dqr_next_channel(f, t, sw, lid);
		if (c == DQR_NONE)
			continue;
		next = dqr_peer_switch(f, c);
		if (next == DQR_NONE ||
		    !dqr_relays(f, c, dqr_next_channel(f, t, next, lid)))
			continue;
		q = dqr_lft_get(t, next, lid);
		set_turn(&bits[c], q);
	}
}

/*
 * Injection turns: an end port injects towards every LID but its own, so
 * its channel depends on every out-port its switch uses for those LIDs.
 * use[] counts, per switch port, the LIDs routed through it.
 */
static int collect_injection(const struct dqr_fabric *f,
			     const struct dqr_lfts *t,
			     struct turn_bits *bits)
{
	uint32_t *use, i, sw, lid, max_ports = DQR_MAX_PORTS + 2;

	use = calloc((size_t)f->num_switches * max_ports, sizeof(*use));
	if (!use)
		return -1;
	for (sw = 0; sw < f->num_switches; sw++)
		for (lid = 1; lid <= f->max_lid; lid++) {
			if (dqr_lid_owner(f, lid) == DQR_NONE ||
			    dqr_next_channel(f, t, sw, lid) == DQR_NONE)
				continue;
			use[(size_t)sw * max_ports + dqr_lft_get(t, sw, lid)]++;
		}

	for (i = 0; i < f->num_ports; i++) {
		const struct dqr_port *p = &f->ports[i];
		uint32_t *u, own[DQR_MAX_PORTS + 2] = { 0 };
		unsigned q, l, nl;

		if (!p->num || dqr_is_switch(f, p->node))
			continue;
		sw = dqr_peer_switch(f, i);
		if (sw == DQR_NONE)
			continue;
		u = &use[(size_t)sw * max_ports];
		/* the port's own LIDs are not destinations it injects to */
		nl = p->base_lid ? 1u << p->lmc : 0;
		for (l = 0; l < nl; l++) {
			lid = p->base_lid + l;
			if (dqr_next_channel(f, t, sw, lid) != DQR_NONE)
				own[dqr_lft_get(t, sw, lid)]++;
		}
		for (q = 1; q <= DQR_MAX_PORTS; q++)
			if (u[q] > own[q])
				set_turn(&bits[i], q);
	}
	free(use);
	return 0;
}

static uint32_t target(const struct dqr_fabric *f, uint32_t c, unsigned q)
{
	return dqr_port_index(f, dqr_peer_node(f, c), q);
}

/*
 * Lays the collected turn bits out as CSR, successors in port order (so
 * that dyn_order.c may bisect them), then the reversed edges.  Two passes
 * over the bits instead of a growing array: the count sizes the one
 * allocation.  0, or -1 when out of memory.
 */
static int layout(const struct dqr_fabric *f, struct dqr_cdg *g,
		  const struct turn_bits *bits)
{
	uint32_t v, q, n = f->num_ports;
	uint64_t e = 0;

	g->num_vertices = n;
	g->succ_off = calloc((size_t)n + 1, sizeof(uint64_t));
	if (!g->succ_off)
		return -1;
	for (v = 0; v < n; v++) {
		g->succ_off[v] = e;
		for (q = 0; q < TURN_WORDS; q++)
			e += (uint64_t)__builtin_popcountll(bits[v].w[q]);
	}
	g->succ_off[n] = e;
	g->num_edges = e;
	g->succ = malloc(sizeof(uint32_t) * (e ? e : 1));
	if (!g->succ)
		return -1;
	e = 0;
	for (v = 0; v < n; v++)
		for (q = 1; q <= DQR_MAX_PORTS; q++)
			if (has_turn(&bits[v], q))
				g->succ[e++] = target(f, v, q);
	return dqr_cdg_index_preds(g);
}

int dqr_cdg_index_preds(struct dqr_cdg *g)
{
	uint32_t v, n = g->num_vertices;
	uint64_t e, *fill;

	g->pred_off = calloc((size_t)n + 1, sizeof(uint64_t));
	g->pred = malloc(sizeof(uint32_t) * (g->num_edges ? g->num_edges : 1));
	fill = calloc((size_t)n + 1, sizeof(uint64_t));
	if (!g->pred_off || !g->pred || !fill) {
		free(fill);
		return -1;
	}
	for (e = 0; e < g->num_edges; e++)
		fill[g->succ[e]]++;
	for (v = 0, e = 0; v < n; v++) {
		g->pred_off[v] = e;
		e += fill[v];
		fill[v] = g->pred_off[v];
	}
	g->pred_off[n] = e;
	for (v = 0; v < n; v++)
		for (e = g->succ_off[v]; e < g->succ_off[v + 1]; e++)
			g->pred[fill[g->succ[e]]++] = v;
	free(fill);
	return 0;
}

struct dqr_cdg *dqr_cdg_build_multi(const struct dqr_fabric *f,
				    const struct dqr_lfts *const *ts,
				    unsigned nt)
{
	struct dqr_cdg *g = calloc(1, sizeof(*g));
	struct turn_bits *bits;
	uint32_t lid, i;
	unsigned k;

	if (!g)
		return NULL;
	bits = calloc(f->num_ports ? f->num_ports : 1, sizeof(*bits));
	if (!bits) {
		free(g);
		return NULL;
	}
	for (k = 0; k < nt; k++) {
		for (lid = 1; lid <= f->max_lid; lid++)
			if (dqr_lid_owner(f, lid) != DQR_NONE)
				collect_transit(f, ts[k], lid, bits);
		if (collect_injection(f, ts[k], bits))
			goto fail;
	}
	if (layout(f, g, bits))
		goto fail;
	free(bits);
	g->num_vertices = f->num_ports;
	for (i = 0; i < f->num_ports; i++)
		g->num_channels += f->ports[i].num &&
				   dqr_peer_port(f, i) != DQR_NONE;
	return g;
fail:
	free(bits);
	dqr_cdg_free(g);
	return NULL;
}

struct dqr_cdg *dqr_cdg_build(const struct dqr_fabric *f,
			      const struct dqr_lfts *t)
{
	return dqr_cdg_build_multi(f, &t, 1);
}

void dqr_cdg_free(struct dqr_cdg *g)
{
	if (!g)
		return;
	DQR_FREE_ALL(g->succ_off, g->succ, g->pred_off, g->pred, g);
}

int dqr_cdg_has_edge(const struct dqr_cdg *g, uint32_t a, uint32_t b)
{
	uint64_t e;

	for (e = g->succ_off[a]; e < g->succ_off[a + 1]; e++)
		if (g->succ[e] == b)
			return 1;
	return 0;
}
