/*
 * fabric.c - building and indexing the fabric model.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fabric/fabric.h"
#include "util/mem.h"
#include "util/union_find.h"

struct dqr_fabric *dqr_fabric_new(void)
{
	return calloc(1, sizeof(struct dqr_fabric));
}

static void *dup_array(const void *src, size_t n, size_t elem)
{
	void *p = malloc(n ? n * elem : 1);

	if (p && n)
		memcpy(p, src, n * elem);
	return p;
}

struct dqr_fabric *dqr_fabric_clone(const struct dqr_fabric *f)
{
	struct dqr_fabric *c = calloc(1, sizeof(*c));

	if (!c)
		return NULL;
	*c = *f;
	c->nodes = dup_array(f->nodes, f->num_nodes, sizeof(*f->nodes));
	c->ports = dup_array(f->ports, f->num_ports, sizeof(*f->ports));
	c->switches = dup_array(f->switches, f->num_switches,
				sizeof(*f->switches));
	c->lid_port = dup_array(f->lid_port, f->finished ? f->max_lid + 1 : 0,
				sizeof(*f->lid_port));
	c->names = dup_array(f->names, f->names_len, 1);
	c->cap_nodes = f->num_nodes;
	c->cap_ports = f->num_ports;
	c->names_cap = f->names_len;
	if (!c->nodes || !c->ports || !c->switches || !c->lid_port ||
	    !c->names) {
		dqr_fabric_free(c);
		return NULL;
	}
	return c;
}

void dqr_fabric_free(struct dqr_fabric *f)
{
	if (!f)
		return;
	DQR_FREE_ALL(f->nodes, f->ports, f->switches, f->lid_port, f->names, f);
}

static uint32_t add_name(struct dqr_fabric *f, const char *name)
{
	size_t off;

	if (dqr_pool_add(&f->names, &f->names_len, &f->names_cap, name,
			 strlen(name), &off))
		return DQR_NONE;
	return (uint32_t)off;
}

uint32_t dqr_fabric_add_node(struct dqr_fabric *f, enum dqr_node_type type,
			     unsigned num_ports, uint64_t guid,
			     const char *name)
{
	struct dqr_node *n;
	uint32_t idx, off, i;

	if (num_ports < 1 || num_ports > DQR_MAX_PORTS)
		return DQR_NONE;
	if (type != DQR_NODE_SWITCH && type != DQR_NODE_CA &&
	    type != DQR_NODE_ROUTER)
		return DQR_NONE;
	if (dqr_grow((void **)&f->nodes, &f->cap_nodes, f->num_nodes + 1,
		     sizeof(*f->nodes), 64) ||
	    dqr_grow((void **)&f->ports, &f->cap_ports,
		     f->num_ports + num_ports + 1, sizeof(*f->ports), 64))
		return DQR_NONE;
	off = add_name(f, name ? name : "");
	if (off == DQR_NONE)
		return DQR_NONE;

	idx = f->num_nodes++;
	n = &f->nodes[idx];
	n->guid = guid;
	n->port_base = f->num_ports;
	n->sw_index = DQR_NONE;
	n->name_off = off;
	n->type = (uint8_t)type;
	n->num_ports = (uint8_t)num_ports;
	for (i = 0; i <= num_ports; i++) {
		struct dqr_port *p = &f->ports[f->num_ports + i];

		memset(p, 0, sizeof(*p));
		p->node = idx;
		p->remote = DQR_NONE;
		p->num = (uint8_t)i;
	}
	f->num_ports += num_ports + 1;
	f->finished = 0;
	return idx;
}

static int port_ok(const struct dqr_fabric *f, uint32_t node, unsigned port)
{
	if (node >= f->num_nodes || port < 1)
		return 0;
	return port <= f->nodes[node].num_ports;
}

int dqr_fabric_link(struct dqr_fabric *f, uint32_t a, unsigned pa,
		    uint32_t b, unsigned pb)
{
	uint32_t ia, ib;

	if (!port_ok(f, a, pa) || !port_ok(f, b, pb))
		return -1;
	ia = dqr_port_index(f, a, pa);
	ib = dqr_port_index(f, b, pb);
	if (ia == ib)
		return -1;
	if (f->ports[ia].remote == ib && f->ports[ib].remote == ia)
		return 0;
	if (f->ports[ia].remote != DQR_NONE ||
	    f->ports[ib].remote != DQR_NONE)
		return -1;
	f->ports[ia].remote = ib;
	f->ports[ib].remote = ia;
	return 0;
}

void dqr_fabric_unlink_port(struct dqr_fabric *f, uint32_t port)
{
	uint32_t r = f->ports[port].remote;

	if (r == DQR_NONE)
		return;
	f->ports[r].remote = DQR_NONE;
	f->ports[port].remote = DQR_NONE;
}

int dqr_fabric_set_lid(struct dqr_fabric *f, uint32_t node, unsigned port,
		       unsigned base_lid, unsigned lmc)
{
	struct dqr_port *p;

	if (node >= f->num_nodes || port > f->nodes[node].num_ports)
		return -1;
	if (dqr_is_switch(f, node) != (port == 0))
		return -1;
	if (lmc > 7 || base_lid == 0 ||
	    base_lid + (1u << lmc) - 1 > DQR_MAX_LID)
		return -1;
	p = &f->ports[dqr_port_index(f, node, port)];
	p->base_lid = (uint16_t)base_lid;
	p->lmc = (uint8_t)lmc;
	f->finished = 0;
	return 0;
}

void dqr_fabric_set_port_guid(struct dqr_fabric *f, uint32_t node,
			      unsigned port, uint64_t guid)
{
	if (node < f->num_nodes && port <= f->nodes[node].num_ports)
		f->ports[dqr_port_index(f, node, port)].guid = guid;
}

int dqr_fabric_finish(struct dqr_fabric *f, char *err, size_t errlen)
{
	uint32_t i, n, max_lid = 0, *sw, *lp;

	for (i = 0; i < f->num_ports; i++) {
		const struct dqr_port *p = &f->ports[i];

		if (p->base_lid &&
		    p->base_lid + (1u << p->lmc) - 1 > max_lid)
			max_lid = p->base_lid + (1u << p->lmc) - 1;
	}
	n = 0;
	for (i = 0; i < f->num_nodes; i++)
		n += dqr_is_switch(f, i);
	sw = malloc(sizeof(*sw) * (n ? n : 1));
	lp = malloc(sizeof(*lp) * (max_lid + 1));
	if (!sw || !lp) {
		free(sw);
		free(lp);
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	n = 0;
	for (i = 0; i < f->num_nodes; i++) {
		if (!dqr_is_switch(f, i))
			continue;
		f->nodes[i].sw_index = n;
		sw[n++] = i;
	}
	for (i = 0; i <= max_lid; i++)
		lp[i] = DQR_NONE;
	for (i = 0; i < f->num_ports; i++) {
		const struct dqr_port *p = &f->ports[i];
		uint32_t l;

		if (!p->base_lid)
			continue;
		for (l = p->base_lid; l < p->base_lid + (1u << p->lmc); l++) {
			if (lp[l] != DQR_NONE) {
				snprintf(err, errlen,
					 "LID %u claimed by '%s' port %u and "
					 "'%s' port %u", l,
					 dqr_node_name(f, f->ports[lp[l]].node),
					 f->ports[lp[l]].num,
					 dqr_node_name(f, p->node), p->num);
				free(sw);
				free(lp);
				return -1;
			}
			lp[l] = i;
		}
	}
	free(f->switches);
	free(f->lid_port);
	f->switches = sw;
	f->num_switches = n;
	f->lid_port = lp;
	f->max_lid = max_lid;
	f->finished = 1;
	return 0;
}

void dqr_fabric_forget_lid(struct dqr_fabric *f, unsigned lid)
{
	if (lid && lid <= f->max_lid)
		f->lid_port[lid] = DQR_NONE;
}

uint32_t dqr_fabric_find_guid(const struct dqr_fabric *f, uint64_t guid)
{
	uint32_t i;

	for (i = 0; i < f->num_nodes; i++)
		if (f->nodes[i].guid == guid)
			return i;
	return DQR_NONE;
}

uint32_t dqr_fabric_find_name(const struct dqr_fabric *f, const char *name)
{
	uint32_t i;

	for (i = 0; i < f->num_nodes; i++)
		if (!strcmp(dqr_node_name(f, i), name))
			return i;
	return DQR_NONE;
}

uint32_t dqr_fabric_count_end_ports(const struct dqr_fabric *f)
{
	uint32_t i, n = 0;

	for (i = 0; i < f->num_ports; i++) {
		const struct dqr_port *p = &f->ports[i];

		if (p->num && p->remote != DQR_NONE &&
		    !dqr_is_switch(f, p->node))
			n++;
	}
	return n;
}

int dqr_guid_key_cmp(const void *a, const void *b)
{
	const struct dqr_guid_key *x = a, *y = b;

	if (x->guid != y->guid)
		return x->guid < y->guid ? -1 : 1;
	return x->tie < y->tie ? -1 : x->tie > y->tie;
}

void dqr_switch_components(const struct dqr_fabric *f, uint32_t *comp)
{
	uint32_t sw, node, nb, a, b;
	unsigned p;

	for (sw = 0; sw < f->num_switches; sw++)
		comp[sw] = sw;
	for (sw = 0; sw < f->num_switches; sw++) {
		node = f->switches[sw];
		dqr_for_each_linked_port(f, node, p) {
			nb = dqr_peer_switch(f, dqr_port_index(f, node, p));
			if (nb == DQR_NONE)
				continue;
			a = dqr_uf_root(comp, sw);
			b = dqr_uf_root(comp, nb);
			if (a != b)
				comp[a] = b;
		}
	}
	for (sw = 0; sw < f->num_switches; sw++)
		comp[sw] = dqr_uf_root(comp, sw);
}
