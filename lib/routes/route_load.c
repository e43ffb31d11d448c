/*
 * route_load.c - routes per channel under all-to-all traffic, shift
 * permutations and any permutation, and the permutation's route lengths
 * (what is counted is in route_load.h).
 */
#include <stdlib.h>
#include <string.h>

#include "routes/route_load.h"
#include "routes/route_walk.h"
#include "util/mem.h"
#include "util/union_find.h"

static int is_end_port(const struct dqr_fabric *f, uint32_t i)
{
	const struct dqr_port *p = &f->ports[i];

	return p->num && p->remote != DQR_NONE && !dqr_is_switch(f, p->node);
}

/*
 * The figures over the linked channels of load[] (per sending port);
 * the route counts in *ld are left alone.
 */
static void load_stats(const struct dqr_fabric *f, const uint64_t *load,
		       struct dqr_route_load *ld)
{
	uint64_t sum = 0;
	uint32_t i;

	ld->channels = 0;
	ld->max = 0;
	ld->max_all = 0;
	ld->min = UINT64_MAX;
	for (i = 0; i < f->num_ports; i++) {
		const struct dqr_port *p = &f->ports[i];

		if (!p->num || p->remote == DQR_NONE)
			continue;
		if (load[i] > ld->max_all)
			ld->max_all = load[i];
		if (!dqr_is_switch(f, p->node) ||
		    !dqr_is_switch(f, f->ports[p->remote].node))
			continue;
		ld->channels++;
		sum += load[i];
		if (load[i] > ld->max)
			ld->max = load[i];
		if (load[i] < ld->min)
			ld->min = load[i];
	}
	if (!ld->channels)
		ld->min = 0;
	ld->mean = ld->channels ? (double)sum / ld->channels : 0.0;
}

/* ---------------------------------------------------------- all-to-all */

struct load_ctx {
	const struct dqr_fabric *f;
	const struct dqr_lfts *t;
	uint64_t *load;		/* per sending port */
	uint32_t *inject;	/* end ports entering at each switch */
	uint64_t *reach;	/* per switch: destinations reached */
	uint8_t *self_ok;	/* per port: own LID reached from its switch */
	uint64_t *acc;		/* per switch: routes passing now */
	uint32_t *by_hops;	/* switches sorted by hops */
	uint32_t *hop_cnt;
	struct dqr_walk_state *st;
	uint32_t *scratch;
};

/* Adds the routes of every end port to the end port dst to the loads. */
static void load_dest(struct load_ctx *c, uint32_t dst,
		      struct dqr_route_load *ld)
{
	const struct dqr_fabric *f = c->f;
	uint32_t lid = f->ports[dst].base_lid, ns = f->num_switches;
	uint32_t own = dqr_ingress_switch(f, dst), x, i, h, n;

	dqr_walk_dlid(f, c->t, lid, c->st, c->scratch);
	c->self_ok[dst] = c->st[own].result == DQR_WALK_OK;
	memset(c->hop_cnt, 0, sizeof(*c->hop_cnt) * 257);
	for (x = 0; x < ns; x++) {
		n = c->inject[x] - (x == own);
		c->acc[x] = n;
		ld->pairs += n;
		if (c->st[x].result != DQR_WALK_OK) {
			ld->unrouted += n;
			continue;
		}
		c->reach[x]++;
		c->hop_cnt[c->st[x].hops + 1]++;
	}
	for (h = 0; h < 256; h++)
		c->hop_cnt[h + 1] += c->hop_cnt[h];
	for (x = 0; x < ns; x++)
		if (c->st[x].result == DQR_WALK_OK)
			c->by_hops[c->hop_cnt[c->st[x].hops]++] = x;
	/* farthest first: a switch has all its upstream routes when done */
	for (i = c->hop_cnt[256]; i-- > 0;) {
		uint32_t ch, next;

		x = c->by_hops[i];
		/* a route that arrives has a cable at every hop */
		ch = dqr_next_channel(f, c->t, x, lid);
		if (ch == DQR_NONE || !c->acc[x])
			continue;
		c->load[ch] += c->acc[x];
		next = dqr_peer_switch(f, ch);
		if (next != DQR_NONE)
			c->acc[next] += c->acc[x];
	}
}

int dqr_route_load(const struct dqr_fabric *f, const struct dqr_lfts *t,
		   struct dqr_route_load *ld, uint64_t *per_channel)
{
	struct load_ctx c = { 0 };
	uint32_t ns = f->num_switches, i, sw;
	int ret = -1;

	memset(ld, 0, sizeof(*ld));
	c.f = f;
	c.t = t;
	c.load = per_channel ? per_channel :
		 malloc(sizeof(*c.load) * (f->num_ports + 1));
	c.inject = calloc(ns + 1, sizeof(*c.inject));
	c.reach = calloc(ns + 1, sizeof(*c.reach));
	c.self_ok = calloc(f->num_ports + 1, 1);
	c.acc = malloc(sizeof(*c.acc) * (ns + 1));
	c.by_hops = malloc(sizeof(*c.by_hops) * (ns + 1));
	c.hop_cnt = malloc(sizeof(*c.hop_cnt) * 257);
	c.st = malloc(sizeof(*c.st) * (ns + 1));
	c.scratch = malloc(sizeof(*c.scratch) * (ns + 1));
	if (!c.load || !c.inject || !c.reach || !c.self_ok || !c.acc ||
	    !c.by_hops || !c.hop_cnt || !c.st || !c.scratch)
		goto out;
	memset(c.load, 0, sizeof(*c.load) * f->num_ports);
	for (i = 0; i < f->num_ports; i++)
		if (is_end_port(f, i) && f->ports[i].base_lid &&
		    (sw = dqr_ingress_switch(f, i)) != DQR_NONE)
			c.inject[sw]++;
	for (i = 0; i < f->num_ports; i++)
		if (is_end_port(f, i) && f->ports[i].base_lid &&
		    dqr_ingress_switch(f, i) != DQR_NONE &&
		    dqr_lid_owner(f, f->ports[i].base_lid) == i)
			load_dest(&c, i, ld);
	/* an end port sends to every destination its switch reaches */
	for (i = 0; i < f->num_ports; i++) {
		if (!is_end_port(f, i) || !f->ports[i].base_lid)
			continue;
		sw = dqr_ingress_switch(f, i);
		if (sw == DQR_NONE || !c.reach[sw])
			continue;
		/* less itself, when its own LID was among them */
		c.load[i] += c.reach[sw] - c.self_ok[i];
	}
	load_stats(f, c.load, ld);
	ret = 0;
out:
	if (!per_channel)
		free(c.load);
	DQR_FREE_ALL(c.inject, c.reach, c.self_ok, c.acc, c.by_hops, c.hop_cnt,
		     c.st, c.scratch);
	return ret;
}

/* --------------------------------------------------------------- shift */

struct shift_ctx {
	const struct dqr_fabric *f;
	const struct dqr_lfts *t;
	uint32_t n;		/* end ports */
	uint32_t *ends;		/* their port indices, by base LID */
	uint32_t *path;		/* one route's channels: num_switches + 1 */
	uint64_t *load;		/* per sending port */
};

static void shift_ctx_free(struct shift_ctx *c)
{
	free(c->ends);
	free(c->path);
	free(c->load);
}

/*
 * Lists the end ports that are destinations of dqr_route_load too, in
 * LID order.  Walking the LID index instead of sorting the ports gives
 * that order for free.  load is allocated only when own_load is set.
 */
static int shift_ctx_init(struct shift_ctx *c, const struct dqr_fabric *f,
			  const struct dqr_lfts *t, int own_load)
{
	memset(c, 0, sizeof(*c));
	c->f = f;
	c->t = t;
	c->ends = malloc(sizeof(*c->ends) * (f->max_lid + 1));
	c->path = malloc(sizeof(*c->path) * (f->num_switches + 1));
	if (own_load)
		c->load = malloc(sizeof(*c->load) * (f->num_ports + 1));
	if (!c->ends || !c->path || (own_load && !c->load)) {
		shift_ctx_free(c);
		return -1;
	}
	c->n = dqr_end_ports(f, c->ends);
	return 0;
}

uint32_t dqr_end_ports(const struct dqr_fabric *f, uint32_t *ends)
{
	uint32_t lid, i, n = 0;

	for (lid = 1; lid <= f->max_lid; lid++) {
		i = dqr_lid_owner(f, lid);
		if (i == DQR_NONE || !is_end_port(f, i) ||
		    f->ports[i].base_lid != lid ||
		    dqr_ingress_switch(f, i) == DQR_NONE)
			continue;
		ends[n++] = i;
	}
	return n;
}

/*
 * Follows the route from end port src to lid, one of end port dst's,
 * its channels into c->path.  Returns their number when dst receives
 * it, else 0 (no path, dead port, delivered elsewhere, loop).
 */
static uint32_t walk_route(struct shift_ctx *c, uint32_t src, uint32_t dst,
			   uint32_t lid)
{
	const struct dqr_fabric *f = c->f;
	uint32_t ns = f->num_switches;
	uint32_t x = dqr_ingress_switch(f, src), len = 0, visits, ch, next;

	c->path[len++] = src;
	for (visits = 0; visits < ns; visits++) {
		/* port 0 delivers to the switch itself: never a CA's LID */
		ch = dqr_next_channel(f, c->t, x, lid);
		if (ch == DQR_NONE)
			return 0;
		c->path[len++] = ch;
		next = dqr_peer_switch(f, ch);
		if (next == DQR_NONE)
			return dqr_peer_port(f, ch) == dst ? len : 0;
		x = next;
	}
	/* a loop-free route enters each switch at most once */
	return 0;
}

/*
 * One shift: every end port i sends one route to end port i + shift
 * (mod N), walked hop by hop (one pair per source: no destination tree to
 * share), and only delivered routes load their channels.  load is the
 * caller's, zeroed here, so a summary of many shifts allocates it once.
 */
static void shift_run(struct shift_ctx *c, uint32_t shift, uint64_t *load,
		      struct dqr_route_load *ld)
{
	uint32_t i, j, k, len, step;

	memset(ld, 0, sizeof(*ld));
	memset(load, 0, sizeof(*load) * c->f->num_ports);
	step = c->n ? shift % c->n : 0;
	for (i = 0; step && i < c->n; i++) {
		j = i + step;
		if (j >= c->n)
			j -= c->n;
		ld->pairs++;
		len = walk_route(c, c->ends[i], c->ends[j],
				 c->f->ports[c->ends[j]].base_lid);
		if (!len) {
			ld->unrouted++;
			continue;
		}
		for (k = 0; k < len; k++)
			load[c->path[k]]++;
	}
	load_stats(c->f, load, ld);
}

int dqr_shift_load(const struct dqr_fabric *f, const struct dqr_lfts *t,
		   uint32_t shift, struct dqr_route_load *ld,
		   uint64_t *per_channel)
{
	struct shift_ctx c;

	memset(ld, 0, sizeof(*ld));
	if (shift_ctx_init(&c, f, t, !per_channel))
		return -1;
	shift_run(&c, shift, per_channel ? per_channel : c.load, ld);
	shift_ctx_free(&c);
	return 0;
}

int dqr_shift_load_summary(const struct dqr_fabric *f,
			   const struct dqr_lfts *t,
			   struct dqr_shift_summary *s)
{
	struct dqr_route_load ld;
	struct shift_ctx c;
	double sum_max = 0, sum_mean = 0;
	uint32_t k, shift;

	memset(s, 0, sizeof(*s));
	if (shift_ctx_init(&c, f, t, 1))
		return -1;
	s->end_ports = c.n;
	if (c.n >= 2)
		s->shifts = c.n <= DQR_SHIFT_ALL_MAX ? c.n - 1 :
			    DQR_SHIFT_SAMPLE;
	for (k = 0; k < s->shifts; k++) {
		/* above DQR_SHIFT_ALL_MAX, n - 1 > the sample: distinct */
		shift = c.n <= DQR_SHIFT_ALL_MAX ? k + 1 :
			1 + (uint32_t)((uint64_t)k * (c.n - 1) /
				       DQR_SHIFT_SAMPLE);
		shift_run(&c, shift, c.load, &ld);
		s->channels = ld.channels;
		s->routes += ld.pairs;
		s->unrouted += ld.unrouted;
		if (ld.max > s->worst_max || !s->worst_shift) {
			s->worst_max = ld.max;
			s->worst_shift = shift;
		}
		sum_max += (double)ld.max;
		sum_mean += ld.mean;
	}
	if (s->shifts) {
		s->mean_max = sum_max / s->shifts;
		s->mean = sum_mean / s->shifts;
	}
	shift_ctx_free(&c);
	return 0;
}

/* ---------------------------------------------------------- permutation */

/*
 * The switches a cable path joins, as one tree of parent each (num_switches
 * entries), so that a pair no routing can deliver is told from one the
 * tables lose.
 */
static void switch_components(const struct dqr_fabric *f, uint32_t *parent)
{
	uint32_t x, y, a, b, node;
	unsigned pn;

	for (x = 0; x < f->num_switches; x++)
		parent[x] = x;
	for (x = 0; x < f->num_switches; x++) {
		node = f->switches[x];
		dqr_for_each_linked_port(f, node, pn) {
			y = dqr_peer_switch(f, dqr_port_index(f, node, pn));
			if (y == DQR_NONE)
				continue;
			a = dqr_uf_root(parent, x);
			b = dqr_uf_root(parent, y);
			if (a != b)
				parent[a] = b;
		}
	}
}

/* The component of the end port's switch, or DQR_NONE without a cable. */
static uint32_t end_component(const struct dqr_fabric *f, uint32_t *parent,
			      uint32_t port)
{
	uint32_t x;

	if (port >= f->num_ports || !is_end_port(f, port))
		return DQR_NONE;
	x = dqr_ingress_switch(f, port);
	return x == DQR_NONE ? DQR_NONE : dqr_uf_root(parent, x);
}

int dqr_perm_load(const struct dqr_fabric *f, const struct dqr_lfts *t,
		  const uint32_t *ends, const uint32_t *pi, uint32_t n,
		  struct dqr_perm_load *pl, uint64_t *per_channel)
{
	struct dqr_route_load ld;
	struct shift_ctx c = { 0 };
	uint64_t *load, delivered = 0;
	uint32_t *parent, i, k, len, hops, a;
	const struct dqr_port *dst;

	memset(pl, 0, sizeof(*pl));
	c.f = f;
	c.t = t;
	c.path = malloc(sizeof(*c.path) * (f->num_switches + 1));
	parent = malloc(sizeof(*parent) * (f->num_switches + 1));
	load = per_channel ? per_channel :
	       malloc(sizeof(*load) * (f->num_ports + 1));
	if (!c.path || !parent || !load) {
		free(c.path);
		free(parent);
		if (!per_channel)
			free(load);
		return -1;
	}
	memset(load, 0, sizeof(*load) * f->num_ports);
	switch_components(f, parent);
	for (i = 0; i < n; i++) {
		if (pi[i] == i)
			continue;
		pl->pairs++;
		a = end_component(f, parent, ends[i]);
		if (a == DQR_NONE ||
		    a != end_component(f, parent, ends[pi[i]])) {
			pl->apart++;
			continue;
		}
		dst = &f->ports[ends[pi[i]]];
		len = walk_route(&c, ends[i], ends[pi[i]], dst->base_lid +
				 (i & ((1u << dst->lmc) - 1)));
		if (!len) {
			pl->unrouted++;
			continue;
		}
		for (k = 0; k < len; k++)
			load[c.path[k]]++;
		/* less the CA links at both ends */
		hops = len - 2;
		pl->hops += hops;
		if (hops > pl->longest)
			pl->longest = hops;
		delivered++;
	}
	load_stats(f, load, &ld);
	pl->channels = ld.channels;
	pl->max = ld.max;
	pl->mean_hops = delivered ? (double)pl->hops / delivered : 0.0;
	free(c.path);
	free(parent);
	if (!per_channel)
		free(load);
	return 0;
}
