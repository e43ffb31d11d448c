/*
 * sm_paths.c - directed routes from the subnet manager's port: a
 * breadth-first tree over the cables, walked back from its leaves.
 */
#include <stdlib.h>

#include "fabric/sm_paths.h"
#include "util/check.h"

/* Enters node from the far end of port p, unless it is in already. */
static int enter(const struct dqr_fabric *f, uint32_t root,
		 const uint8_t *avoid, uint32_t *via, uint32_t p,
		 uint32_t *queue, uint32_t *tail)
{
	uint32_t q = dqr_peer_port(f, p), node;

	if (q == DQR_NONE)
		return 0;
	node = f->ports[q].node;
	if (node == f->ports[root].node || via[node] != DQR_NONE ||
	    (avoid && (avoid[p] || avoid[q])))
		return 0;
	via[node] = p;
	/* only a switch passes the SMP on */
	if (dqr_is_switch(f, node))
		queue[(*tail)++] = node;
	return 1;
}

int dqr_sm_tree(const struct dqr_fabric *f, uint32_t root,
		const uint8_t *avoid, uint32_t *via)
{
	uint32_t *queue, head = 0, tail = 0, i, node;
	unsigned pn;

	DQR_CHECK(root < f->num_ports);
	for (i = 0; i < f->num_nodes; i++)
		via[i] = DQR_NONE;
	queue = malloc(sizeof(*queue) * (f->num_nodes + 1));
	if (!queue)
		return -1;
	node = f->ports[root].node;
	if (dqr_is_switch(f, node))
		queue[tail++] = node;
	else
		enter(f, root, avoid, via, root, queue, &tail);
	while (head < tail) {
		node = queue[head++];
		dqr_for_each_linked_port(f, node, pn)
			enter(f, root, avoid, via,
			      dqr_port_index(f, node, pn), queue, &tail);
	}
	free(queue);
	return 0;
}

int dqr_sm_route(const struct dqr_fabric *f, const uint32_t *via,
		 uint32_t root, uint32_t node, uint8_t *out)
{
	uint32_t start = f->ports[root].node, n, p;
	int hops = 0, i;
	uint8_t tmp;

	for (n = node; n != start; n = f->ports[p].node) {
		p = via[n];
		if (p == DQR_NONE || hops == DQR_SM_HOPS_MAX)
			return -1;
		out[hops++] = (uint8_t)(p -
					f->nodes[f->ports[p].node].port_base);
	}
	for (i = 0; i < hops / 2; i++) {
		tmp = out[i];
		out[i] = out[hops - 1 - i];
		out[hops - 1 - i] = tmp;
	}
	return hops;
}
