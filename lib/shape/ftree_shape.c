/*
 * ftree_shape.c - recognising a fat tree from its cabling.
 */
#include <stdlib.h>
#include <string.h>

#include "routes/route_walk.h"
#include "shape/ftree_shape.h"
#include "util/errmsg.h"
#include "util/mem.h"
#include "util/union_find.h"

void dqr_ftree_free(struct dqr_ftree *ft)
{
	if (!ft)
		return;
	DQR_FREE_ALL(ft->level, ft->rank, ft->up_off, ft->up, ft->down_off,
		     ft->down, ft->uturn_sw, ft->group_up, ft->max_up,
		     ft->end_port, ft->key, ft);
}

static int is_end_port(const struct dqr_fabric *f, uint32_t i)
{
	const struct dqr_port *p = &f->ports[i];

	return p->num && !dqr_is_switch(f, p->node) && p->base_lid &&
	       dqr_peer_switch(f, i) != DQR_NONE;
}

/* 1 when some port of switch sw has a cable. */
static int linked(const struct dqr_fabric *f, uint32_t sw)
{
	return dqr_next_linked_port(f, f->switches[sw], 0) != 0;
}

/* Levels by a BFS from the leaves; -1 (err set) when not a fat tree. */
static int find_levels(const struct dqr_fabric *f, struct dqr_ftree *ft,
		       uint32_t *queue, char *err, size_t errlen)
{
	uint32_t s = f->num_switches, head = 0, tail = 0, sw, i, nb, node;
	unsigned p;

	for (sw = 0; sw < s; sw++)
		ft->level[sw] = DQR_NONE;
	for (i = 0; i < f->num_ports; i++) {
		if (!is_end_port(f, i))
			continue;
		sw = dqr_ingress_switch(f, i);
		if (ft->level[sw] == 0)
			continue;
		ft->level[sw] = 0;
		queue[tail++] = sw;
	}
	if (!tail) {
		dqr_set_err(err, errlen, "no CA with a LID is cabled to a "
			    "switch");
		return -1;
	}
	while (head < tail) {
		sw = queue[head++];
		node = f->switches[sw];
		dqr_for_each_linked_port(f, node, p) {
			nb = dqr_peer_switch(f, dqr_port_index(f, node, p));
			if (nb == DQR_NONE || ft->level[nb] != DQR_NONE)
				continue;
			ft->level[nb] = ft->level[sw] + 1;
			queue[tail++] = nb;
		}
	}
	ft->num_levels = 0;
	for (sw = 0; sw < s; sw++) {
		node = f->switches[sw];
		if (ft->level[sw] == DQR_NONE && !linked(f, sw)) {
			/* a dead switch still in the model: out of the
			 * tree, routed as unreachable */
			ft->level[sw] = 0;
			continue;
		}
		if (ft->level[sw] == DQR_NONE) {
			dqr_set_err(err, errlen, "not a fat tree: switch %s "
				    "reaches no CA",
				    dqr_node_name(f, f->switches[sw]));
			return -1;
		}
		if (ft->level[sw] + 1 > ft->num_levels)
			ft->num_levels = ft->level[sw] + 1;
		dqr_for_each_linked_port(f, node, p) {
			nb = dqr_peer_switch(f, dqr_port_index(f, node, p));
			if (nb == DQR_NONE && ft->level[sw] != 0) {
				dqr_set_err(err, errlen, "not a fat tree: "
					    "switch %s has an end port but "
					    "is %u hops above a leaf",
					    dqr_node_name(f, f->switches[sw]),
					    ft->level[sw]);
				return -1;
			}
			if (nb != DQR_NONE && ft->level[nb] == ft->level[sw]) {
				dqr_set_err(err, errlen, "not a fat tree: "
					    "switches %s and %s are cabled "
					    "but both at level %u",
					    dqr_node_name(f, f->switches[sw]),
					    dqr_node_name(f, f->switches[nb]),
					    ft->level[sw]);
				return -1;
			}
		}
	}
	return 0;
}

/* The up and down channels of every switch, each in sequence D. */
static int sort_links(const struct dqr_fabric *f, struct dqr_ftree *ft)
{
	uint32_t s = f->num_switches, sw, node, i, nu, nd;
	unsigned p;
	/* sequence D: by the peer's GUID, then by port number */
	struct dqr_guid_key up[DQR_MAX_PORTS], down[DQR_MAX_PORTS];

	ft->up_off = calloc(s + 1, sizeof(uint32_t));
	ft->down_off = calloc(s + 1, sizeof(uint32_t));
	ft->up = malloc(sizeof(uint32_t) * (f->num_ports + 1));
	ft->down = malloc(sizeof(uint32_t) * (f->num_ports + 1));
	if (!ft->up_off || !ft->down_off || !ft->up || !ft->down)
		return -1;
	for (sw = 0; sw < s; sw++) {
		node = f->switches[sw];
		nu = nd = 0;
		dqr_for_each_linked_port(f, node, p) {
			uint32_t ch = dqr_port_index(f, node, p);
			uint32_t nb = dqr_peer_switch(f, ch);
			struct dqr_guid_key it;

			if (nb == DQR_NONE)
				continue;
			it.guid = f->nodes[f->switches[nb]].guid;
			it.tie = p;
			it.val = ch;
			if (ft->level[nb] > ft->level[sw])
				up[nu++] = it;
			else
				down[nd++] = it;
		}
		qsort(up, nu, sizeof(up[0]), dqr_guid_key_cmp);
		qsort(down, nd, sizeof(down[0]), dqr_guid_key_cmp);
		ft->up_off[sw + 1] = ft->up_off[sw] + nu;
		ft->down_off[sw + 1] = ft->down_off[sw] + nd;
		for (i = 0; i < nu; i++)
			ft->up[ft->up_off[sw] + i] = (uint32_t)up[i].val;
		for (i = 0; i < nd; i++)
			ft->down[ft->down_off[sw] + i] = (uint32_t)down[i].val;
	}
	return 0;
}

/*
 * The anchor: a leaf with the most cables up (a leaf that lost some at
 * boot would narrow every U-turn through it), then the lowest GUID.
 */
static uint32_t cables_up(const struct dqr_fabric *f,
			  const struct dqr_ftree *ft, uint32_t sw)
{
	uint32_t node = f->switches[sw], nb, k = 0;
	unsigned p;

	dqr_for_each_linked_port(f, node, p) {
		nb = dqr_peer_switch(f, dqr_port_index(f, node, p));
		k += nb != DQR_NONE && ft->level[nb] > ft->level[sw];
	}
	return k;
}

static int better_anchor(const struct dqr_fabric *f,
			 const struct dqr_ftree *ft, uint32_t a, uint32_t b)
{
	uint32_t ua = cables_up(f, ft, a), ub = cables_up(f, ft, b);

	if (ua != ub)
		return ua > ub;
	return f->nodes[f->switches[a]].guid < f->nodes[f->switches[b]].guid;
}

/* Distances from the anchor by a BFS over all switch cables. */
static void anchor_ranks(const struct dqr_fabric *f, struct dqr_ftree *ft,
			 uint32_t *queue)
{
	uint32_t s = f->num_switches, sw, anchor = DQR_NONE, head = 0;
	uint32_t tail = 0, node;
	unsigned p;

	for (sw = 0; sw < s; sw++) {
		ft->rank[sw] = DQR_NONE;
		if (ft->level[sw] == 0 && (anchor == DQR_NONE ||
		    better_anchor(f, ft, sw, anchor)))
			anchor = sw;
	}
	ft->anchor = anchor;
	ft->rank[anchor] = 0;
	queue[tail++] = anchor;
	while (head < tail) {
		sw = queue[head++];
		node = f->switches[sw];
		dqr_for_each_linked_port(f, node, p) {
			uint32_t nb = dqr_peer_switch(f,
						dqr_port_index(f, node, p));

			if (nb == DQR_NONE || ft->rank[nb] != DQR_NONE)
				continue;
			ft->rank[nb] = ft->rank[sw] + 1;
			queue[tail++] = nb;
		}
	}
}

/* 1 when switch a is the better U-turn switch: nearer the anchor. */
static int closer(const struct dqr_fabric *f, const struct dqr_ftree *ft,
		  uint32_t a, uint32_t b)
{
	if (ft->rank[a] != ft->rank[b])
		return ft->rank[a] < ft->rank[b];
	return f->nodes[f->switches[a]].guid < f->nodes[f->switches[b]].guid;
}

/*
 * Groups: per level, the components of the cables going up from it (one
 * union-find per level: a switch is in one group below and one above).
 */
static int find_groups(const struct dqr_fabric *f, struct dqr_ftree *ft,
		       uint32_t *parent)
{
	uint32_t s = f->num_switches, sw, i, r, best;
	uint32_t *id, *uturn;

	ft->group_up = malloc(sizeof(uint32_t) * (s + 1));
	ft->uturn_sw = malloc(sizeof(uint32_t) * (s + 1));
	id = malloc(sizeof(uint32_t) * (s + 1));
	uturn = malloc(sizeof(uint32_t) * (s + 1));
	if (!ft->group_up || !ft->uturn_sw || !id || !uturn) {
		free(id);
		free(uturn);
		return -1;
	}
	ft->num_groups = 0;
	for (sw = 0; sw < s; sw++) {
		ft->group_up[sw] = DQR_NONE;
		ft->uturn_sw[sw] = DQR_NONE;
		id[sw] = DQR_NONE;
		uturn[sw] = DQR_NONE;
	}
	for (r = 0; r + 1 < ft->num_levels; r++) {
		for (sw = 0; sw < s; sw++)
			parent[sw] = sw;
		for (sw = 0; sw < s; sw++) {
			if (ft->level[sw] != r)
				continue;
			for (i = ft->up_off[sw]; i < ft->up_off[sw + 1]; i++) {
				uint32_t a = dqr_uf_root(parent, sw);
				uint32_t b = dqr_uf_root(parent,
						dqr_peer_switch(f, ft->up[i]));

				if (a != b)
					parent[b] = a;
			}
		}
		/* number this level's groups, pick their U-turn switch */
		for (sw = 0; sw < s; sw++) {
			if (ft->level[sw] != r || ft->up_off[sw] ==
			    ft->up_off[sw + 1])
				continue;
			best = dqr_uf_root(parent, sw);
			if (id[best] == DQR_NONE) {
				id[best] = ft->num_groups++;
				uturn[best] = sw;
			} else if (closer(f, ft, sw, uturn[best])) {
				uturn[best] = sw;
			}
			ft->group_up[sw] = id[best];
		}
		for (sw = 0; sw < s; sw++) {
			if (ft->level[sw] != r + 1 ||
			    ft->down_off[sw] == ft->down_off[sw + 1])
				continue;
			best = dqr_uf_root(parent, sw);
			ft->uturn_sw[sw] = uturn[best];
		}
		for (sw = 0; sw < s; sw++) {
			id[sw] = DQR_NONE;
			uturn[sw] = DQR_NONE;
		}
	}
	free(id);
	free(uturn);
	return 0;
}

/* End ports in leaf order, and their keys. */
static int order_end_ports(const struct dqr_fabric *f, struct dqr_ftree *ft)
{
	struct dqr_guid_key *it;	/* by leaf GUID, then its port number */
	uint32_t i, n = 0;

	ft->key = malloc(sizeof(uint32_t) * (f->num_ports + 1));
	ft->end_port = malloc(sizeof(uint32_t) * (f->num_ports + 1));
	it = malloc(sizeof(*it) * (f->num_ports + 1));
	if (!ft->key || !ft->end_port || !it) {
		free(it);
		return -1;
	}
	for (i = 0; i < f->num_ports; i++) {
		uint32_t r = dqr_peer_port(f, i);

		ft->key[i] = DQR_NONE;
		if (!is_end_port(f, i))
			continue;
		it[n].guid = f->nodes[f->ports[r].node].guid;
		it[n].tie = f->ports[r].num;
		it[n++].val = i;
	}
	qsort(it, n, sizeof(*it), dqr_guid_key_cmp);
	for (i = 0; i < n; i++) {
		ft->end_port[i] = (uint32_t)it[i].val;
		ft->key[it[i].val] = i;
	}
	ft->num_end = n;
	free(it);
	return 0;
}

int dqr_ftree_detect(const struct dqr_fabric *f, struct dqr_ftree **out,
		     char *err, size_t errlen)
{
	struct dqr_ftree *ft = calloc(1, sizeof(*ft));
	uint32_t s = f->num_switches, sw, *scratch;

	*out = NULL;
	scratch = malloc(sizeof(uint32_t) * (s + 1));
	if (!ft || !scratch)
		goto nomem;
	ft->num_switches = s;
	ft->level = malloc(sizeof(uint32_t) * (s + 1));
	if (!ft->level)
		goto nomem;
	if (!s) {
		dqr_set_err(err, errlen, "no switch in the fabric");
		goto fail;
	}
	if (find_levels(f, ft, scratch, err, errlen))
		goto fail;
	ft->rank = malloc(sizeof(uint32_t) * (s + 1));
	if (!ft->rank)
		goto nomem;
	anchor_ranks(f, ft, scratch);
	if (sort_links(f, ft) || find_groups(f, ft, scratch) ||
	    order_end_ports(f, ft))
		goto nomem;
	ft->max_up = calloc(ft->num_levels, sizeof(uint32_t));
	if (!ft->max_up)
		goto nomem;
	for (sw = 0; sw < s; sw++) {
		uint32_t nu = ft->up_off[sw + 1] - ft->up_off[sw];

		if (nu > ft->max_up[ft->level[sw]])
			ft->max_up[ft->level[sw]] = nu;
	}
	free(scratch);
	*out = ft;
	return 0;
nomem:
	dqr_set_err(err, errlen, "out of memory");
fail:
	free(scratch);
	dqr_ftree_free(ft);
	return -1;
}
