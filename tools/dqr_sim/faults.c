/*
 * faults.c - where dqr-sim's faults fall and what one does: the random
 * streams, the cables that may fail, whether the cables left still join
 * the fabric, and one link or switch failure followed by DQR's update.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fabric/topo_diff.h"
#include "util/timing.h"
#include "util/union_find.h"
#include "dqr_sim.h"

/*
 * splitmix64: small, fast and good enough to pick links; each run (and
 * trial) gets its own stream from the seed, so a run's fault sequence
 * depends on the seed and its number only, not on the mode or on other
 * runs: every mode sees the same faults.
 */
static uint64_t rng_next(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

uint64_t rng_stream(uint64_t seed, uint64_t stream, uint64_t index)
{
	uint64_t s = seed ^ (stream * 0xd1b54a32d192ed03ull);

	s ^= rng_next(&s) + index * 0x9e3779b97f4a7c15ull;
	rng_next(&s);
	return s;
}

/* Uniform in 0 .. n-1 (n < 2^32; the bias of 32x32 bits is negligible). */
uint32_t rng_below(uint64_t *s, uint32_t n)
{
	return (uint32_t)(((rng_next(s) >> 32) * (uint64_t)n) >> 32);
}

const char *fault_kind(const struct sim_opts *o)
{
	return o->ca_links ? "switch and CA links" : "switch-to-switch links";
}

/* port: a linked port */
static int is_candidate(const struct dqr_fabric *f, uint32_t port,
			int ca_links)
{
	uint32_t peer = dqr_peer_port(f, port);
	int sa, sb;

	/* each cable once, from its lower end */
	if (peer < port)
		return 0;
	sa = dqr_is_switch(f, f->ports[port].node);
	sb = dqr_is_switch(f, f->ports[peer].node);
	return (sa && sb) || (ca_links && (sa || sb));
}

/* The fabric's size and the cables a fault may take. */
int scale_build(struct sim_scale *sc, const struct dqr_fabric *f,
		int ca_links)
{
	uint32_t i, lid, port, n = 0;
	unsigned pn;

	memset(sc, 0, sizeof(*sc));
	sc->switches = f->num_switches;
	sc->end_ports = dqr_fabric_count_end_ports(f);
	for (lid = 1; lid <= f->max_lid; lid++)
		sc->lids += dqr_lid_owner(f, lid) != DQR_NONE;
	sc->entries = (uint64_t)sc->switches * sc->lids;
	/* every source but the LID's owner sends to each LID */
	if (sc->switches + sc->end_ports)
		sc->pairs = (uint64_t)sc->lids *
			    (sc->switches + sc->end_ports - 1);
	sc->cand = malloc(sizeof(uint32_t) * (f->num_ports + 1));
	sc->linked_node = calloc(f->num_nodes + 1, 1);
	if (!sc->cand || !sc->linked_node)
		return -1;
	/* port order: a run's faults depend on the order of cand */
	for (i = 0; i < f->num_nodes; i++)
		dqr_for_each_linked_port(f, i, pn) {
			sc->linked_node[i] = 1;
			port = dqr_port_index(f, i, pn);
			if (is_candidate(f, port, ca_links))
				sc->cand[n++] = port;
		}
	sc->num_cand = n;
	return 0;
}

void scale_release(struct sim_scale *sc)
{
	free(sc->cand);
	free(sc->linked_node);
	memset(sc, 0, sizeof(*sc));
}

/*
 * 1 when the nodes with a cable in the reference (only the CAs and
 * routers among them: ends_only) are not all in one tree of parent.
 */
static int apart(const struct dqr_fabric *f, const uint8_t *linked,
		 uint32_t *parent, int ends_only)
{
	uint32_t i, a, root = DQR_NONE;

	for (i = 0; i < f->num_nodes; i++) {
		if (!linked[i] || (ends_only && dqr_is_switch(f, i)))
			continue;
		a = dqr_uf_root(parent, i);
		if (root == DQR_NONE)
			root = a;
		else if (a != root)
			return 1;
	}
	return 0;
}

/*
 * 1 when the cables left no longer join every node that had one: some
 * pairs are then beyond any routing.  parent: num_nodes scratch.
 */
int fabric_split(const struct dqr_fabric *f, const uint8_t *linked,
		 uint32_t *parent)
{
	uint32_t i, a, b;
	unsigned pn;

	for (i = 0; i < f->num_nodes; i++)
		parent[i] = i;
	for (i = 0; i < f->num_nodes; i++)
		dqr_for_each_linked_port(f, i, pn) {
			a = dqr_uf_root(parent, i);
			b = dqr_uf_root(parent, dqr_peer_node(f,
					dqr_port_index(f, i, pn)));
			if (a != b)
				parent[a] = b;
		}
	return apart(f, linked, parent, 0);
}

/*
 * 1 when, after fabric_split() filled parent, the CAs (and routers) that
 * had a cable are no longer all joined: endpoints are cut off from each
 * other, which no routing can mend.
 */
int ends_split(const struct dqr_fabric *f, const uint8_t *linked,
	       uint32_t *parent)
{
	return apart(f, linked, parent, 1);
}

/*
 * Answers cur, which has just lost cables, as the plugin does after a
 * sweep (reaction.h): project the cabling onto the reference, then DQR's
 * update.  Fills *r; *projp receives the projection (free it).  0, or -1
 * when out of memory.
 */
static int answer_cut(struct dqr_reactor *x, struct dqr_fabric *cur,
		      struct dqr_fabric **projp, struct dqr_reaction *r)
{
	struct dqr_topo_diff d;
	int ret;

	*projp = NULL;
	ret = dqr_react_project(x, cur, projp, &d);
	if (ret > 0)
		/* removing a cable cannot add anything: a lib bug */
		fprintf(stderr, PROG ": projection sees new cables or "
			"nodes after a removal\n");
	if (ret)
		return -1;
	ret = dqr_react_update(x, *projp, &d, NULL, r);
	dqr_topo_diff_release(&d);
	return ret;
}

/* The cable at port fails in cur, answered as answer_cut() says. */
int fail_one(struct dqr_reactor *x, struct dqr_fabric *cur, uint32_t port,
	     struct dqr_fabric **projp, struct dqr_reaction *r)
{
	dqr_fabric_unlink_port(cur, port);
	return answer_cut(x, cur, projp, r);
}

/*
 * As soak.c fails a switch: the node stays, without a cable; the
 * projection then sees every cable of it absent, and DQR answers them
 * in one update, as the plugin answers the sweep after a switch died.
 */
int fail_switch(struct dqr_reactor *x, struct dqr_fabric *cur, uint32_t node,
		struct dqr_fabric **projp, struct dqr_reaction *r)
{
	unsigned pn;

	dqr_for_each_linked_port(cur, node, pn)
		dqr_fabric_unlink_port(cur, dqr_port_index(cur, node, pn));
	return answer_cut(x, cur, projp, r);
}

static int by_more(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return (x < y) - (x > y);
}

/*
 * A failed switch takes its cables out of the draw: after K switch
 * faults at most the K switches with the most candidate cables are gone,
 * and the link faults must find theirs among the rest.
 */
int switch_faults_fit(const struct sim *s)
{
	const struct dqr_fabric *f = s->in.f;
	unsigned k = s->o->switch_faults, links = s->o->faults - k;
	uint32_t *deg, i, port, node, taken = 0;

	if (k >= f->num_switches) {
		fprintf(stderr, PROG ": --switch-faults %u: %s has %u "
			"switches, and one must stay\n", k, s->in.name,
			f->num_switches);
		return -1;
	}
	deg = calloc(f->num_nodes + 1, sizeof(*deg));
	if (!deg) {
		fprintf(stderr, PROG ": out of memory\n");
		return -1;
	}
	for (i = 0; i < s->sc.num_cand; i++) {
		port = s->sc.cand[i];
		node = f->ports[port].node;
		deg[node] += dqr_is_switch(f, node);
		node = dqr_peer_node(f, port);
		deg[node] += dqr_is_switch(f, node);
	}
	qsort(deg, f->num_nodes, sizeof(*deg), by_more);
	for (i = 0; i < k && i < f->num_nodes; i++)
		taken += deg[i];
	free(deg);
	if (taken > s->sc.num_cand)
		taken = s->sc.num_cand;
	if (links > s->sc.num_cand - taken) {
		fprintf(stderr, PROG ": %s has %u %s; %u switch faults may "
			"take %u of them, which leaves fewer than the %u link "
			"faults asked for\n", s->in.name, s->sc.num_cand,
			fault_kind(s->o), k, taken, links);
		return -1;
	}
	return 0;
}

/* ok: the run passed fault k (on one layer or two) */
