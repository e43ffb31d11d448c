/*
 * test_sm_paths.c - directed routes from the SM's port: every switch
 * reached by a route that follows linked cables, the shortest one, and
 * none over a cable that is down or a switch kept off.
 */
#include <stdlib.h>
#include <string.h>

#include "fabric/sm_paths.h"
#include "fabric/topo_gen.h"
#include "unit.h"

static struct dqr_fabric *gen(const char *spec)
{
	struct dqr_gen_spec s;
	char err[128];

	REQUIRE(dqr_gen_parse(spec, &s, err, sizeof(err)) == 0);
	return dqr_gen_build(&s, err, sizeof(err));
}

/* The first CA's port 1: where the SM sits in the tests. */
static uint32_t first_ca_port(const struct dqr_fabric *f)
{
	uint32_t n;

	for (n = 0; n < f->num_nodes; n++)
		if (!dqr_is_switch(f, n))
			return dqr_port_index(f, n, 1);
	return DQR_NONE;
}

/*
 * Walks out[] from root's node: the node it ends at, or DQR_NONE when a
 * hop leaves by a port without a cable or passes through a CA.
 */
static uint32_t walk(const struct dqr_fabric *f, uint32_t root,
		     const uint8_t *out, int hops)
{
	uint32_t node = f->ports[root].node, p;
	int i;

	for (i = 0; i < hops; i++) {
		if (i && !dqr_is_switch(f, node))
			return DQR_NONE;
		if (out[i] > f->nodes[node].num_ports)
			return DQR_NONE;
		p = dqr_port_index(f, node, out[i]);
		if (dqr_peer_port(f, p) == DQR_NONE)
			return DQR_NONE;
		node = dqr_peer_node(f, p);
	}
	return node;
}

/* Hops from root's node to every node, by a plain BFS over switches. */
static void distances(const struct dqr_fabric *f, uint32_t root, int *dist)
{
	uint32_t *queue = malloc(sizeof(*queue) * f->num_nodes);
	uint32_t head = 0, tail = 0, n, m;
	unsigned pn;

	REQUIRE(queue);
	for (n = 0; n < f->num_nodes; n++)
		dist[n] = -1;
	n = f->ports[root].node;
	dist[n] = 0;
	if (dqr_is_switch(f, n)) {
		queue[tail++] = n;
	} else {
		m = dqr_peer_node(f, root);
		dist[m] = 1;
		queue[tail++] = m;
	}
	while (head < tail) {
		n = queue[head++];
		dqr_for_each_linked_port(f, n, pn) {
			m = dqr_peer_node(f, dqr_port_index(f, n, pn));
			if (dist[m] >= 0)
				continue;
			dist[m] = dist[n] + 1;
			if (dqr_is_switch(f, m))
				queue[tail++] = m;
		}
	}
	free(queue);
}

static void test_every_switch_shortest(const char *spec)
{
	struct dqr_fabric *f = gen(spec);
	uint32_t root, *via, sw, node;
	uint8_t out[DQR_SM_HOPS_MAX];
	int *dist, hops;

	REQUIRE(f);
	root = first_ca_port(f);
	via = malloc(sizeof(*via) * f->num_nodes);
	dist = malloc(sizeof(*dist) * f->num_nodes);
	REQUIRE(via && dist && root != DQR_NONE);
	CHECK_EQ(dqr_sm_tree(f, root, NULL, via), 0);
	distances(f, root, dist);
	for (sw = 0; sw < f->num_switches; sw++) {
		node = f->switches[sw];
		hops = dqr_sm_route(f, via, root, node, out);
		CHECK_EQ(hops, dist[node]);
		CHECK_EQ(walk(f, root, out, hops), node);
	}
	/* from a CA, the first hop leaves by the SM's own port */
	hops = dqr_sm_route(f, via, root, f->switches[0], out);
	CHECK(hops >= 1 &&
	      out[0] == root - f->nodes[f->ports[root].node].port_base);
	CHECK_EQ(dqr_sm_route(f, via, root, f->ports[root].node, out), 0);
	free(dist);
	free(via);
	dqr_fabric_free(f);
}

static void test_cut_and_avoid(void)
{
	struct dqr_fabric *f = gen("kary:2,3");
	uint32_t root, *via, target, p, mid, i, peer;
	uint8_t out[DQR_SM_HOPS_MAX], *avoid;
	int hops, n;
	unsigned pn;

	REQUIRE(f);
	root = first_ca_port(f);
	via = malloc(sizeof(*via) * f->num_nodes);
	avoid = calloc(f->num_ports, 1);
	REQUIRE(via && avoid);
	CHECK_EQ(dqr_sm_tree(f, root, NULL, via), 0);
	/* the farthest switch, and the last cable of its route */
	target = f->switches[0];
	for (i = 0; i < f->num_switches; i++)
		if (dqr_sm_route(f, via, root, f->switches[i], out) >
		    dqr_sm_route(f, via, root, target, out))
			target = f->switches[i];
	hops = dqr_sm_route(f, via, root, target, out);
	REQUIRE(hops >= 3);
	p = via[target];
	mid = f->ports[p].node;
	/* kept off that switch: another route, as long or longer */
	memset(avoid + f->nodes[mid].port_base, 1,
	       f->nodes[mid].num_ports + 1u);
	CHECK_EQ(dqr_sm_tree(f, root, avoid, via), 0);
	n = dqr_sm_route(f, via, root, target, out);
	CHECK(n >= hops);
	CHECK_EQ(walk(f, root, out, n), target);
	CHECK_EQ(via[mid], DQR_NONE);
	/* the cable cut: no route takes it */
	dqr_fabric_unlink_port(f, p);
	CHECK_EQ(dqr_sm_tree(f, root, NULL, via), 0);
	n = dqr_sm_route(f, via, root, target, out);
	CHECK(n >= hops);
	CHECK_EQ(walk(f, root, out, n), target);
	/* every cable of the target cut: out of reach */
	dqr_for_each_linked_port(f, target, pn) {
		peer = dqr_port_index(f, target, pn);
		dqr_fabric_unlink_port(f, peer);
	}
	CHECK_EQ(dqr_sm_tree(f, root, NULL, via), 0);
	CHECK_EQ(via[target], DQR_NONE);
	CHECK_EQ(dqr_sm_route(f, via, root, target, out), -1);
	free(avoid);
	free(via);
	dqr_fabric_free(f);
}

int main(void)
{
	test_every_switch_shortest("kary:2,3");
	test_every_switch_shortest("kary:4,3");
	test_every_switch_shortest("torus:4x4");
	test_every_switch_shortest("hypercube:5");
	test_cut_and_avoid();
	return unit_finish();
}
