/*
 * topo_diff.c - projecting the current cabling onto the reference topology.
 */
#include <stdlib.h>
#include <string.h>

#include "fabric/node_index.h"
#include "fabric/sm_paths.h"
#include "fabric/topo_diff.h"
#include "util/check.h"

static int add_missing(struct dqr_topo_diff *d, uint32_t port, uint32_t *cap)
{
	uint32_t *p;

	if (d->num_missing_ports == *cap) {
		*cap = *cap ? *cap * 2 : 64;
		p = realloc(d->missing_ports, sizeof(*p) * *cap);
		if (!p)
			return -1;
		d->missing_ports = p;
	}
	d->missing_ports[d->num_missing_ports++] = port;
	return 0;
}

/* The port of cur that is the same as ref's port index rp, or NONE. */
static uint32_t same_port(const struct dqr_fabric *ref,
			  const struct dqr_fabric *cur,
			  const uint32_t *ref_to_cur, uint32_t rp)
{
	const struct dqr_port *p = &ref->ports[rp];
	uint32_t cn = ref_to_cur[p->node];

	if (cn == DQR_NONE || p->num > cur->nodes[cn].num_ports)
		return DQR_NONE;
	return dqr_port_index(cur, cn, p->num);
}

/* Removes from f what cur lacks; fills d. */
static int project(struct dqr_fabric *f, const struct dqr_fabric *ref,
		   const struct dqr_fabric *cur, const uint32_t *ref_to_cur,
		   struct dqr_topo_diff *d)
{
	uint32_t i, cap = 0, cp, crem, rr, lid;

	for (i = 0; i < ref->num_ports; i++) {
		const struct dqr_port *p = &ref->ports[i];

		cp = same_port(ref, cur, ref_to_cur, i);
		if (cp != DQR_NONE && p->base_lid &&
		    (cur->ports[cp].base_lid != p->base_lid ||
		     cur->ports[cp].lmc != p->lmc))
			d->lids_changed++;
		if (ref_to_cur[p->node] == DQR_NONE && p->base_lid)
			for (lid = p->base_lid;
			     lid < p->base_lid + (1u << p->lmc); lid++)
				dqr_fabric_forget_lid(f, lid);
		rr = dqr_peer_port(ref, i);
		if (!p->num || rr == DQR_NONE || rr < i)
			continue;
		/* one cable, seen from its lower port index */
		crem = cp == DQR_NONE ? DQR_NONE : dqr_peer_port(cur, cp);
		if (crem != DQR_NONE &&
		    crem == same_port(ref, cur, ref_to_cur, rr))
			continue;
		d->links_missing++;
		dqr_fabric_unlink_port(f, i);
		if (dqr_is_switch(ref, p->node) && add_missing(d, i, &cap))
			return -1;
		if (dqr_is_switch(ref, ref->ports[rr].node) &&
		    add_missing(d, rr, &cap))
			return -1;
	}
	return 0;
}

/*
 * A projection only removes (topo_diff.h): f has ref's shape, and its
 * cables and LID owners are among ref's.  O(ports + LIDs), as the copy
 * that made f.
 */
static void check_removes_only(const struct dqr_fabric *f,
			       const struct dqr_fabric *ref)
{
	uint32_t i;

	DQR_CHECK(f->num_nodes == ref->num_nodes &&
		  f->num_ports == ref->num_ports &&
		  f->num_switches == ref->num_switches &&
		  f->max_lid == ref->max_lid);
	for (i = 0; i < f->num_ports; i++)
		DQR_CHECK(f->ports[i].remote == DQR_NONE ||
			  f->ports[i].remote == ref->ports[i].remote);
	for (i = 1; i <= f->max_lid && f->finished; i++)
		DQR_CHECK(f->lid_port[i] == DQR_NONE ||
			  f->lid_port[i] == ref->lid_port[i]);
}

/* Cables and nodes of cur that ref does not have. */
static void count_new(const struct dqr_fabric *ref,
		      const struct dqr_fabric *cur,
		      const uint32_t *cur_to_ref, struct dqr_topo_diff *d)
{
	uint32_t i, rn, rrn;

	for (i = 0; i < cur->num_nodes; i++)
		d->nodes_new += cur_to_ref[i] == DQR_NONE;
	for (i = 0; i < cur->num_ports; i++) {
		const struct dqr_port *p = &cur->ports[i];
		const struct dqr_port *q;
		uint32_t rp, peer = dqr_peer_port(cur, i);

		if (!p->num || peer == DQR_NONE || peer < i)
			continue;
		q = &cur->ports[peer];
		rn = cur_to_ref[p->node];
		rrn = cur_to_ref[q->node];
		if (rn == DQR_NONE || rrn == DQR_NONE ||
		    p->num > ref->nodes[rn].num_ports ||
		    q->num > ref->nodes[rrn].num_ports) {
			d->links_new++;
			continue;
		}
		rp = dqr_port_index(ref, rn, p->num);
		if (dqr_peer_port(ref, rp) != dqr_port_index(ref, rrn, q->num))
			d->links_new++;
	}
}

/*
 * 1 when cur lists the nodes of ref in ref's order (same GUIDs and
 * kinds): the subnet seen in the same order as before, the usual case,
 * needs no GUID index.
 */
static int same_nodes(const struct dqr_fabric *ref,
		      const struct dqr_fabric *cur)
{
	uint32_t i;

	if (ref->num_nodes != cur->num_nodes)
		return 0;
	for (i = 0; i < ref->num_nodes; i++)
		if (ref->nodes[i].guid != cur->nodes[i].guid ||
		    ref->nodes[i].type != cur->nodes[i].type)
			return 0;
	return 1;
}

struct dqr_fabric *dqr_fabric_project(const struct dqr_fabric *ref,
				      const struct dqr_fabric *cur,
				      struct dqr_topo_diff *d)
{
	int same = same_nodes(ref, cur);
	struct dqr_node_index *ix = same ? NULL : dqr_node_index_build(cur);
	uint32_t *ref_to_cur = malloc(sizeof(uint32_t) * (ref->num_nodes + 1));
	uint32_t *cur_to_ref = malloc(sizeof(uint32_t) * (cur->num_nodes + 1));
	struct dqr_fabric *f = NULL;
	uint32_t i;

	memset(d, 0, sizeof(*d));
	if ((!same && !ix) || !ref_to_cur || !cur_to_ref)
		goto out;
	for (i = 0; i < cur->num_nodes; i++)
		cur_to_ref[i] = DQR_NONE;
	for (i = 0; i < ref->num_nodes; i++) {
		uint32_t c = same ? i :
			     dqr_node_index_guid(ix, ref->nodes[i].guid);

		/* a node that changed its kind is not the same node */
		if (c != DQR_NONE && cur->nodes[c].type != ref->nodes[i].type)
			c = DQR_NONE;
		ref_to_cur[i] = c;
		if (c == DQR_NONE)
			d->nodes_missing++;
		else
			cur_to_ref[c] = i;
	}
	f = dqr_fabric_clone(ref);
	if (!f || project(f, ref, cur, ref_to_cur, d)) {
		dqr_fabric_free(f);
		dqr_topo_diff_release(d);
		f = NULL;
		goto out;
	}
	count_new(ref, cur, cur_to_ref, d);
	check_removes_only(f, ref);
out:
	dqr_node_index_free(ix);
	free(ref_to_cur);
	free(cur_to_ref);
	return f;
}

int dqr_fabric_project_cut(struct dqr_fabric *proj,
			   const struct dqr_fabric *ref,
			   const uint32_t *ports, uint32_t nports,
			   struct dqr_topo_diff *d)
{
	uint32_t i, p, rp, cap = d->num_missing_ports;

	/* proj is ref, less cables: the same indices */
	DQR_CHECK(proj->num_ports == ref->num_ports &&
		  proj->num_nodes == ref->num_nodes);
	for (i = 0; i < nports; i++) {
		p = ports[i];
		if (p >= ref->num_ports || p >= proj->num_ports)
			continue;
		rp = dqr_peer_port(ref, p);
		/* not a cable of ref, or already cut */
		if (!ref->ports[p].num || rp == DQR_NONE ||
		    dqr_peer_port(proj, p) != rp)
			continue;
		d->links_missing++;
		dqr_fabric_unlink_port(proj, p);
		if (dqr_is_switch(ref, ref->ports[p].node) &&
		    add_missing(d, p, &cap))
			return -1;
		if (dqr_is_switch(ref, ref->ports[rp].node) &&
		    add_missing(d, rp, &cap))
			return -1;
	}
	return 0;
}

/* Drops the LIDs of ref's node n from proj's LID index. */
static void forget_lids(struct dqr_fabric *proj, const struct dqr_fabric *ref,
			uint32_t n)
{
	const struct dqr_node *node = &ref->nodes[n];
	uint32_t i, lid;

	for (i = 0; i <= node->num_ports; i++) {
		const struct dqr_port *p = &ref->ports[node->port_base + i];

		for (lid = p->base_lid; p->base_lid &&
		     lid < p->base_lid + (1u << p->lmc); lid++)
			dqr_fabric_forget_lid(proj, lid);
	}
}

int dqr_fabric_project_unreached(struct dqr_fabric *proj,
				 const struct dqr_fabric *ref, uint32_t root,
				 struct dqr_topo_diff *d)
{
	uint32_t *via = malloc(sizeof(*via) * (proj->num_nodes + 1));
	uint32_t n, p;
	unsigned pn;
	int ret = -1;

	DQR_CHECK(proj->num_nodes == ref->num_nodes && root < proj->num_ports);
	if (!via || dqr_sm_tree(proj, root, NULL, via))
		goto out;
	for (n = 0; n < proj->num_nodes; n++) {
		if (n == proj->ports[root].node || via[n] != DQR_NONE)
			continue;
		d->nodes_missing++;
		forget_lids(proj, ref, n);
		dqr_for_each_linked_port(proj, n, pn) {
			p = dqr_port_index(proj, n, pn);
			if (dqr_fabric_project_cut(proj, ref, &p, 1, d))
				goto out;
		}
	}
	ret = 0;
out:
	free(via);
	return ret;
}

void dqr_topo_diff_release(struct dqr_topo_diff *d)
{
	free(d->missing_ports);
	d->missing_ports = NULL;
	d->num_missing_ports = 0;
}
