/*
 * lash_vlayers.c - LASH's first-fit layers for the routes of given tables;
 * see lash_vlayers.h.
 */
#include <stdlib.h>
#include <string.h>

#include "deps/dyn_order.h"
#include "deps/vlayer_deps.h"
#include "routes/route_walk.h"
#include "routing/lash_vlayers.h"
#include "util/errmsg.h"

#define ROUTE_LOOPS	2

struct lash {
	const struct dqr_fabric *f;
	const struct dqr_lfts *t;
	struct dqr_dyn_order *d;
	uint32_t num_ports;
	uint32_t *lid_off, *lids;	/* the LIDs at each switch */
};

/*
 * The route from switch s to lid, its switch-to-switch dependencies added
 * in layer l (those from a CA's channel or into one close no cycle): 0,
 * DQR_DYN_CYCLE when one would close a cycle (the caller rolls back),
 * ROUTE_LOOPS, or DQR_DYN_ENOMEM.
 */
static int add_route(struct lash *x, uint32_t s, uint32_t lid, unsigned l)
{
	const struct dqr_fabric *f = x->f;
	uint32_t base = l * x->num_ports, c, nc, w, hops;
	int r;

	c = dqr_next_channel(f, x->t, s, lid);
	for (hops = 0; c != DQR_NONE; hops++, c = nc) {
		w = dqr_peer_switch(f, c);
		if (w == DQR_NONE)
			return 0;
		if (hops > f->num_switches)
			return ROUTE_LOOPS;
		nc = dqr_next_channel(f, x->t, w, lid);
		if (nc == DQR_NONE)
			return 0;
		r = dqr_dyn_add(x->d, base + c, base + nc);
		if (r == DQR_DYN_CYCLE || r == DQR_DYN_ENOMEM)
			return r;
	}
	return 0;
}

/* Every LID grouped by the switch that owns it (a CA's: its cable's). */
static int group_lids(struct lash *x)
{
	const struct dqr_fabric *f = x->f;
	uint32_t S = f->num_switches, lid, sw, *at;

	x->lid_off = calloc(S + 2, sizeof(uint32_t));
	at = malloc(sizeof(uint32_t) * (x->t->lid_count + 1));
	x->lids = malloc(sizeof(uint32_t) * (x->t->lid_count + 1));
	if (!x->lid_off || !at || !x->lids) {
		free(at);
		return -1;
	}
	for (lid = 0; lid < x->t->lid_count; lid++) {
		at[lid] = sw = dqr_lid_switch(f, lid);
		if (sw != DQR_NONE)
			x->lid_off[sw + 2]++;
	}
	for (sw = 0; sw < S; sw++)
		x->lid_off[sw + 2] += x->lid_off[sw + 1];
	for (lid = 0; lid < x->t->lid_count; lid++)
		if (at[lid] != DQR_NONE)
			x->lids[x->lid_off[at[lid] + 1]++] = lid;
	free(at);
	return 0;
}

/* The empty list over max_layers x ports vertices. */
static int empty_list(struct lash *x, unsigned max_layers)
{
	struct dqr_vlayer_deps none;
	struct dqr_channel_list cl = { 0 };
	struct dqr_cdg *g = NULL;
	unsigned layer;
	int r = -1;

	if (dqr_vlayer_deps_init(&none, x->f, max_layers))
		return -1;
	if (!dqr_vlayer_deps_order(&none, &g, &cl, &layer))
		x->d = dqr_dyn_new(g, &cl);
	r = x->d ? 0 : -1;
	dqr_vlayer_deps_release(&none);
	dqr_cdg_free(g);
	dqr_channel_list_free(&cl);
	return r;
}

/* 1 when a route from s to a LID at d comes back to a switch. */
static int pair_loops(const struct lash *x, uint32_t s, uint32_t d)
{
	const struct dqr_fabric *f = x->f;
	uint32_t i, sw, hops;

	for (i = x->lid_off[d]; i < x->lid_off[d + 1]; i++)
		for (sw = s, hops = 0; sw != DQR_NONE; hops++) {
			if (hops > f->num_switches)
				return 1;
			sw = dqr_next_switch(f, x->t, sw, x->lids[i]);
		}
	return 0;
}

/*
 * The lowest layer that takes every route from s to the LIDs at d, its
 * dependencies added; max_layers when none does, or a negative add_route()
 * result.
 */
static int fit_pair(struct lash *x, uint32_t s, uint32_t d,
		    unsigned max_layers)
{
	size_t mark;
	uint32_t i;
	unsigned l;
	int r = 0;

	for (l = 0; l < max_layers; l++) {
		mark = dqr_dyn_mark(x->d);
		for (i = x->lid_off[d], r = 0; !r && i < x->lid_off[d + 1];
		     i++)
			r = add_route(x, s, x->lids[i], l);
		if (!r) {
			dqr_dyn_commit(x->d);
			return (int)l;
		}
		dqr_dyn_rollback(x->d, mark);
		if (r != DQR_DYN_CYCLE)
			return r == ROUTE_LOOPS ? -ROUTE_LOOPS : r;
	}
	return (int)max_layers;
}

int dqr_lash_vlayers(const struct dqr_fabric *f, const struct dqr_lfts *t,
		     unsigned max_layers, uint8_t *sl, unsigned *num_layers,
		     char *err, size_t errlen)
{
	struct lash x = { .f = f, .t = t, .num_ports = f->num_ports };
	uint32_t S = f->num_switches, s, d;
	int l = 0, ret = -1;

	*num_layers = 0;
	if (max_layers < 1 || max_layers > 8) {
		dqr_set_err(err, errlen, "%u layers asked for (1 to 8)",
			    max_layers);
		return -1;
	}
	memset(sl, 0, (size_t)S * S);
	if (group_lids(&x) || empty_list(&x, max_layers)) {
		dqr_set_err(err, errlen, "out of memory");
		goto out;
	}
	*num_layers = 1;
	for (d = 0; d < S; d++)
		for (s = 0; s < S; s++) {
			if (s == d)
				continue;
			l = fit_pair(&x, s, d, max_layers);
			if (l < 0 || l == (int)max_layers)
				goto fail;
			sl[(size_t)s * S + d] = (uint8_t)l;
			if ((unsigned)l >= *num_layers)
				*num_layers = (unsigned)l + 1;
		}
	ret = 0;
	goto out;
fail:
	/* a loop closes a cycle in every layer before it is walked twice */
	if (l == -ROUTE_LOOPS || (l == (int)max_layers &&
				  pair_loops(&x, s, d)))
		dqr_set_err(err, errlen, "the route from %s to %s loops",
			    dqr_node_name(f, f->switches[s]),
			    dqr_node_name(f, f->switches[d]));
	else if (l == (int)max_layers)
		dqr_set_err(err, errlen, "the routes from %s to %s close a "
			    "cycle in each of %u layers",
			    dqr_node_name(f, f->switches[s]),
			    dqr_node_name(f, f->switches[d]), max_layers);
	else
		dqr_set_err(err, errlen, "out of memory");
out:
	dqr_dyn_free(x.d);
	free(x.lid_off);
	free(x.lids);
	return ret;
}
