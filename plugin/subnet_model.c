/*
 * subnet_model.c - osm_subn_t and new_lft to struct dqr_fabric and
 * struct dqr_lfts: the bottom of the plugin, called by dqr_engine.c and
 * dqr_reconfig.c.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* first: it decides the layout of OpenSM's structs (perfmgr, pthread) */
#include <opensm/osm_config.h>
#include <opensm/osm_node.h>
#include <opensm/osm_port.h>
#include <opensm/osm_subnet.h>
#include <opensm/osm_switch.h>

#include "subnet_model.h"

/* OpenSM node -> model node index, sorted by pointer for bsearch */
struct node_map {
	const osm_node_t *node;
	uint32_t idx;
};

static int cmp_node_map(const void *a, const void *b)
{
	const osm_node_t *x = ((const struct node_map *)a)->node;
	const osm_node_t *y = ((const struct node_map *)b)->node;

	return x < y ? -1 : x > y;
}

static uint32_t lookup(const struct node_map *map, size_t n,
		       const osm_node_t *node)
{
	struct node_map key = { node, 0 };
	const struct node_map *hit;

	hit = bsearch(&key, map, n, sizeof(*map), cmp_node_map);
	return hit ? hit->idx : DQR_NONE;
}

static int model_type(uint8_t osm_type)
{
	switch (osm_type) {
	case IB_NODE_TYPE_SWITCH:
		return DQR_NODE_SWITCH;
	case IB_NODE_TYPE_CA:
		return DQR_NODE_CA;
	case IB_NODE_TYPE_ROUTER:
		return DQR_NODE_ROUTER;
	}
	return 0;
}

/* A cable the model should carry: both ends known and not Down. */
static int link_up(const osm_physp_t *a, const osm_physp_t *b)
{
	/*
	 * OpenSM unlinks a port when it learns the link went down, but the
	 * sweep that notices may not have reached both ends yet.
	 */
	return ib_port_info_get_port_state(&a->port_info) > IB_LINK_DOWN &&
	       ib_port_info_get_port_state(&b->port_info) > IB_LINK_DOWN;
}

static int add_nodes(osm_subn_t *subn, struct dqr_fabric *f,
		     struct node_map *map, size_t *n_map,
		     const osm_node_t **by_idx, struct dqr_model_stats *st,
		     char *err, size_t errlen)
{
	cl_qmap_t *tbl = &subn->node_guid_tbl;
	cl_map_item_t *item;
	size_t n = 0;

	for (item = cl_qmap_head(tbl); item != cl_qmap_end(tbl);
	     item = cl_qmap_next(item)) {
		const osm_node_t *node = (const osm_node_t *)item;
		uint64_t guid = cl_ntoh64(osm_node_get_node_guid(node));
		int type = model_type(osm_node_get_type(node));
		unsigned ports = osm_node_get_num_physp(node);
		char name[32];
		const char *desc = node->print_desc;
		uint32_t idx;

		/* physp_table[0] is counted too, for CAs as for switches */
		ports = ports ? ports - 1 : 0;
		if (!type || ports < 1 || ports > DQR_MAX_PORTS ||
		    (type == DQR_NODE_SWITCH && !node->sw)) {
			st->nodes_skipped++;
			continue;
		}
		if (!desc || !*desc) {
			snprintf(name, sizeof(name), "0x%016" PRIx64, guid);
			desc = name;
		}
		idx = dqr_fabric_add_node(f, type, ports, guid, desc);
		if (idx == DQR_NONE) {
			snprintf(err, errlen, "out of memory adding node "
				 "0x%016" PRIx64, guid);
			return -1;
		}
		map[n].node = node;
		map[n].idx = idx;
		by_idx[idx] = node;
		n++;
	}
	qsort(map, n, sizeof(*map), cmp_node_map);
	*n_map = n;
	return 0;
}

static void add_links(struct dqr_fabric *f, const struct node_map *map,
		      size_t n_map, const osm_node_t **by_idx,
		      struct dqr_model_stats *st)
{
	uint32_t a;
	unsigned p;

	for (a = 0; a < f->num_nodes; a++) {
		osm_node_t *node = (osm_node_t *)by_idx[a];

		for (p = 1; p <= f->nodes[a].num_ports; p++) {
			const osm_physp_t *pp = osm_node_get_physp_ptr(node, p);
			const osm_physp_t *rp;
			uint32_t b;

			if (!pp || !pp->p_remote_physp)
				continue;
			rp = pp->p_remote_physp;
			b = lookup(map, n_map, rp->p_node);
			/* each cable is seen from both ends: count it once */
			if (b == DQR_NONE || !osm_physp_is_valid(rp) ||
			    rp->port_num < 1 ||
			    rp->port_num > f->nodes[b].num_ports) {
				st->links_bad++;
				continue;
			}
			if (!link_up(pp, rp)) {
				if (a < b || (a == b && p < rp->port_num))
					st->links_down++;
				continue;
			}
			if (dqr_fabric_link(f, a, p, b, rp->port_num))
				st->links_bad++;
		}
	}
}

static void add_lids(osm_subn_t *subn, struct dqr_fabric *f,
		     const struct node_map *map, size_t n_map,
		     struct dqr_model_stats *st)
{
	cl_qmap_t *tbl = &subn->port_guid_tbl;
	cl_map_item_t *item;

	for (item = cl_qmap_head(tbl); item != cl_qmap_end(tbl);
	     item = cl_qmap_next(item)) {
		const osm_port_t *port = (const osm_port_t *)item;
		uint16_t min_lid, max_lid;
		unsigned lmc = 0, num;
		uint32_t node;

		if (!port->p_physp || !port->p_node)
			continue;
		node = lookup(map, n_map, port->p_node);
		if (node == DQR_NONE)
			continue;
		num = port->p_physp->port_num;
		osm_port_get_lid_range_ho(port, &min_lid, &max_lid);
		if (!min_lid)
			continue;
		while (lmc < 7 && min_lid + (1u << lmc) - 1 < max_lid)
			lmc++;
		if (dqr_fabric_set_lid(f, node, num, min_lid, lmc)) {
			st->lids_bad++;
			continue;
		}
		dqr_fabric_set_port_guid(f, node, num, cl_ntoh64(port->guid));
	}
}

static int copy_lfts(struct dqr_fabric *f, const osm_node_t **by_idx,
		     struct dqr_lfts *t, char *err, size_t errlen)
{
	uint32_t sw, n;

	for (sw = 0; sw < f->num_switches; sw++) {
		uint32_t node = f->switches[sw];
		const osm_switch_t *p_sw = by_idx[node]->sw;

		if (!p_sw->new_lft) {
			snprintf(err, errlen, "switch 0x%016" PRIx64 " has no "
				 "new forwarding table",
				 f->nodes[node].guid);
			return -1;
		}
		n = t->lid_count < p_sw->lft_size ? t->lid_count :
						     p_sw->lft_size;
		memcpy(dqr_lft_row(t, sw), p_sw->new_lft, n);
	}
	return 0;
}

int dqr_subnet_model_build(osm_subn_t *subn, struct dqr_fabric **fabric,
			   struct dqr_lfts **lfts,
			   struct dqr_model_stats *stats,
			   char *err, size_t errlen)
{
	size_t count = cl_qmap_count(&subn->node_guid_tbl), n_map = 0;
	struct dqr_model_stats st_local;
	struct dqr_model_stats *st = stats ? stats : &st_local;
	const osm_node_t **by_idx = NULL;
	struct node_map *map = NULL;
	struct dqr_fabric *f = NULL;
	struct dqr_lfts *t = NULL;

	memset(st, 0, sizeof(*st));
	*fabric = NULL;
	*lfts = NULL;
	f = dqr_fabric_new();
	map = malloc(sizeof(*map) * (count ? count : 1));
	by_idx = malloc(sizeof(*by_idx) * (count ? count : 1));
	if (!f || !map || !by_idx) {
		snprintf(err, errlen, "out of memory for %zu nodes", count);
		goto fail;
	}
	if (add_nodes(subn, f, map, &n_map, by_idx, st, err, errlen))
		goto fail;
	add_links(f, map, n_map, by_idx, st);
	add_lids(subn, f, map, n_map, st);
	if (dqr_fabric_finish(f, err, errlen))
		goto fail;
	if (!f->num_switches) {
		snprintf(err, errlen, "no switches in the subnet");
		goto fail;
	}
	t = dqr_lfts_new(f->num_switches, f->max_lid + 1);
	if (!t) {
		snprintf(err, errlen, "out of memory for %u x %u LFT entries",
			 f->num_switches, f->max_lid + 1);
		goto fail;
	}
	if (copy_lfts(f, by_idx, t, err, errlen))
		goto fail;
	free(map);
	free(by_idx);
	*fabric = f;
	*lfts = t;
	return 0;
fail:
	dqr_lfts_free(t);
	dqr_fabric_free(f);
	free(map);
	free(by_idx);
	return -1;
}
