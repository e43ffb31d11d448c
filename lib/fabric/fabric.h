/*
 * fabric.h - the fabric model: nodes, ports, links and LIDs.
 *
 * Plain C11, no OpenSM types.  Everything is an index into flat arrays so
 * that 10^4 switches and 10^5 LIDs stay cache friendly:
 *
 *   node index   0 .. num_nodes-1, in the order nodes were added
 *   port index   node->port_base + port number (0 .. num_ports); port 0 of a
 *                switch is its management port, port 0 of a CA is unused
 *   channel      the sending direction of a linked port, named by the global
 *                index of the port that sends
 *   switch index 0 .. num_switches-1, rows of an LFT table
 */
#ifndef DQR_FABRIC_H
#define DQR_FABRIC_H

#include <stddef.h>
#include <stdint.h>

#include "util/check.h"

#define DQR_NONE UINT32_MAX
/* an LFT entry that routes nowhere, as OpenSM's OSM_NO_PATH */
#define DQR_NO_PATH 255
#define DQR_MAX_PORTS 254
#define DQR_MAX_LID 0xbfff	/* last unicast LID */

enum dqr_node_type {
	DQR_NODE_SWITCH = 1,
	DQR_NODE_CA = 2,
	DQR_NODE_ROUTER = 3,
};

struct dqr_node {
	uint64_t guid;
	uint32_t port_base;	/* global index of this node's port 0 */
	uint32_t sw_index;	/* row in the LFT table, DQR_NONE for CAs */
	uint32_t name_off;	/* offset into fabric->names */
	uint8_t type;
	uint8_t num_ports;	/* physical ports are 1 .. num_ports */
};

struct dqr_port {
	uint32_t node;		/* owning node */
	uint32_t remote;	/* global index of the peer port, or DQR_NONE */
	uint64_t guid;		/* port GUID when known, else 0 */
	uint16_t base_lid;	/* 0 when the port has no LID */
	uint8_t lmc;
	uint8_t num;		/* port number within its node */
};

struct dqr_fabric {
	struct dqr_node *nodes;
	uint32_t num_nodes, cap_nodes;

	struct dqr_port *ports;
	uint32_t num_ports, cap_ports;

	uint32_t *switches;	/* switch index -> node index */
	uint32_t num_switches;

	/* LID -> global port index owning it (port 0 for a switch) */
	uint32_t *lid_port;
	uint32_t max_lid;	/* highest LID assigned */

	char *names;
	size_t names_len, names_cap;

	int finished;
};

/*
 * An empty fabric: add nodes, cable them, give LIDs, then
 * dqr_fabric_finish().  NULL when out of memory.
 */
struct dqr_fabric *dqr_fabric_new(void);
/* A deep copy (same indices); NULL when out of memory. */
struct dqr_fabric *dqr_fabric_clone(const struct dqr_fabric *f);
void dqr_fabric_free(struct dqr_fabric *f);

/* Returns the node index, or DQR_NONE (bad port count, no memory). */
uint32_t dqr_fabric_add_node(struct dqr_fabric *f, enum dqr_node_type type,
			     unsigned num_ports, uint64_t guid,
			     const char *name);

/*
 * Cables port pa of node a to port pb of node b.  -1 when a port is out of
 * range, is a switch port 0, is already cabled elsewhere, or a == b with
 * pa == pb.  Cabling the same pair twice is accepted (readers see both
 * ends of every link).
 */
int dqr_fabric_link(struct dqr_fabric *f, uint32_t a, unsigned pa,
		    uint32_t b, unsigned pb);
void dqr_fabric_unlink_port(struct dqr_fabric *f, uint32_t port);

/* Sets the LID range of a port (port 0 for switches); -1 if invalid. */
int dqr_fabric_set_lid(struct dqr_fabric *f, uint32_t node, unsigned port,
		       unsigned base_lid, unsigned lmc);
void dqr_fabric_set_port_guid(struct dqr_fabric *f, uint32_t node,
			      unsigned port, uint64_t guid);

/*
 * Builds the switch and LID indices.  Returns 0, or -1 with a message in
 * err when two ports claim one LID.  Must be called after the last change.
 */
int dqr_fabric_finish(struct dqr_fabric *f, char *err, size_t errlen);

/*
 * The accessors below take indices from lib's own arrays, never from
 * input (readers check what they read): an index out of range is a bug
 * of ours, and is checked (util/check.h).
 */
static inline const char *dqr_node_name(const struct dqr_fabric *f,
					uint32_t node)
{
	DQR_CHECK(node < f->num_nodes);
	return f->names + f->nodes[node].name_off;
}

static inline uint32_t dqr_port_index(const struct dqr_fabric *f,
				      uint32_t node, unsigned port)
{
	DQR_CHECK(node < f->num_nodes && port <= f->nodes[node].num_ports);
	return f->nodes[node].port_base + port;
}

/* The LID of switch index sw (its port 0's), 0 when it has none. */
static inline unsigned dqr_switch_lid(const struct dqr_fabric *f,
				      uint32_t sw)
{
	DQR_CHECK(sw < f->num_switches);
	return f->ports[dqr_port_index(f, f->switches[sw], 0)].base_lid;
}

static inline int dqr_is_switch(const struct dqr_fabric *f, uint32_t node)
{
	return f->nodes[node].type == DQR_NODE_SWITCH;
}

/*
 * Navigation.  Every walk over ports and cables goes through these, so a
 * change of representation touches one place.
 */

/* The port across the cable from port (a global index), or DQR_NONE. */
static inline uint32_t dqr_peer_port(const struct dqr_fabric *f, uint32_t port)
{
	DQR_CHECK(port < f->num_ports);
	return f->ports[port].remote;
}

/* The node across the cable from port, or DQR_NONE when unlinked. */
static inline uint32_t dqr_peer_node(const struct dqr_fabric *f, uint32_t port)
{
	uint32_t r = f->ports[port].remote;

	return r == DQR_NONE ? DQR_NONE : f->ports[r].node;
}

/*
 * The switch index across the cable from port, or DQR_NONE when the port
 * is unlinked or its cable ends at a CA or router.
 */
static inline uint32_t dqr_peer_switch(const struct dqr_fabric *f,
				       uint32_t port)
{
	uint32_t peer = dqr_peer_node(f, port);

	if (peer == DQR_NONE || f->nodes[peer].type != DQR_NODE_SWITCH)
		return DQR_NONE;
	return f->nodes[peer].sw_index;
}

/*
 * The first linked physical port of node after port number pn (pn 0
 * starts), or 0 when there is none.
 */
static inline unsigned dqr_next_linked_port(const struct dqr_fabric *f,
					    uint32_t node, unsigned pn)
{
	const struct dqr_node *n = &f->nodes[node];

	while (++pn <= n->num_ports)
		if (f->ports[n->port_base + pn].remote != DQR_NONE)
			return pn;
	return 0;
}

/* pn runs over node's linked physical port numbers, in port order. */
#define dqr_for_each_linked_port(f, node, pn)				\
	for ((pn) = dqr_next_linked_port((f), (node), 0); (pn) != 0;	\
	     (pn) = dqr_next_linked_port((f), (node), (pn)))

/*
 * The first port of node after pn whose cable leads to a CA or a router
 * (an end port: a source and a destination of traffic), or 0.
 */
static inline unsigned dqr_next_end_port(const struct dqr_fabric *f,
					 uint32_t node, unsigned pn)
{
	uint32_t peer;

	while ((pn = dqr_next_linked_port(f, node, pn)) != 0) {
		peer = dqr_peer_node(f, f->nodes[node].port_base + pn);
		if (f->nodes[peer].type != DQR_NODE_SWITCH)
			return pn;
	}
	return 0;
}

/* pn runs over the ports of node that face an end node. */
#define dqr_for_each_end_port(f, node, pn)				\
	for ((pn) = dqr_next_end_port((f), (node), 0); (pn) != 0;	\
	     (pn) = dqr_next_end_port((f), (node), (pn)))

/* The port that owns a LID, or DQR_NONE. */
static inline uint32_t dqr_lid_owner(const struct dqr_fabric *f, unsigned lid)
{
	if (lid == 0 || lid > f->max_lid)
		return DQR_NONE;
	return f->lid_port[lid];
}

/*
 * Drops one LID from the LID index (not from its port's range): pairs
 * towards it are then not judged.  For LIDs whose tables are unknown.
 */
void dqr_fabric_forget_lid(struct dqr_fabric *f, unsigned lid);

/*
 * The node with that GUID, or that name, or DQR_NONE: a scan, for the
 * odd lookup of a tool or a test; readers that look up every line build
 * a node_index.h instead.
 */
uint32_t dqr_fabric_find_guid(const struct dqr_fabric *f, uint64_t guid);
uint32_t dqr_fabric_find_name(const struct dqr_fabric *f, const char *name);

/*
 * A sort key for orders that must not depend on the node numbering of a
 * model: a GUID, then a tie breaker; val rides along.
 */
struct dqr_guid_key {
	uint64_t guid;
	uint64_t tie;
	uint64_t val;
};

/* qsort() comparator of struct dqr_guid_key: by guid, then by tie. */
int dqr_guid_key_cmp(const void *a, const void *b);

/* Number of linked CA or router ports: the end-node sources. */
uint32_t dqr_fabric_count_end_ports(const struct dqr_fabric *f);

/*
 * comp[sw] (f->num_switches entries): one switch index per connected
 * component of the switches over their cables in f, the same for every
 * switch of a component.  O(ports).
 */
void dqr_switch_components(const struct dqr_fabric *f, uint32_t *comp);

#endif
