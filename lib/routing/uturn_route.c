/*
 * uturn_route.c - base=uturn: D-mod-k up*\/down* routes and switch-to-
 * switch U-turns placed in the groups' U-turn switches.
 */
#include <stdlib.h>
#include <string.h>

#include "deps/cdg.h"
#include "deps/channel_list.h"
#include "deps/dyn_order.h"
#include "routes/route_walk.h"
#include "routing/uturn_route.h"
#include "util/check.h"
#include "util/errmsg.h"
#include "util/mem.h"
#include "util/timing.h"
#include "util/union_find.h"

#define INF UINT32_MAX

struct work {
	const struct dqr_fabric *f;
	const struct dqr_ftree *ft;
	struct dqr_lfts *t;
	uint32_t *by_level;	/* switches, lowest level first */
	uint32_t *level_off;	/* by_level CSR over levels */
	uint32_t *down_d;	/* hops to the destination going down only */
	uint32_t *dist;		/* hops on a shortest up*\/down* route */
	uint32_t *queue;
	uint64_t *div;		/* per level, see uturn_route.h */
	uint32_t *sw_order;	/* switches by GUID: their keys */
	uint32_t *sw_key;
	uint32_t *out;		/* channel for the destination, or INF */
	uint32_t *hops;		/* of the route to the destination, or INF */
	uint8_t *all_down;	/* see mark_phases() */
	/* end ports, then switch ports 0, some switch has no route to */
	uint32_t *holes;
	uint32_t num_holes;
	uint32_t *comp;		/* switch components over the cables */
};

static void work_free(struct work *w)
{
	DQR_FREE_ALL(w->by_level, w->level_off, w->down_d, w->dist, w->queue,
		     w->div, w->sw_order, w->sw_key, w->out, w->hops,
		     w->all_down, w->holes, w->comp);
}

/* Switch indices in GUID order: the order of their keys. */
static int sort_switches(const struct dqr_fabric *f, uint32_t *order)
{
	struct dqr_guid_key *g = malloc(sizeof(*g) * (f->num_switches + 1));
	uint32_t sw;

	if (!g)
		return -1;
	for (sw = 0; sw < f->num_switches; sw++) {
		g[sw].guid = f->nodes[f->switches[sw]].guid;
		g[sw].tie = sw;
	}
	qsort(g, f->num_switches, sizeof(*g), dqr_guid_key_cmp);
	for (sw = 0; sw < f->num_switches; sw++)
		order[sw] = (uint32_t)g[sw].tie;
	free(g);
	return 0;
}

/*
 * The routing's working arrays for f as the fat tree ft: switches by
 * level, the D-mod-k divisors from the most up links of each level, every
 * switch's key in GUID order (so the routing does not depend on how the
 * subnet numbered its nodes), and the components over up links.  0, or -1
 * when out of memory (the caller frees what was made).
 */
static int work_init(struct work *w, const struct dqr_fabric *f,
		     const struct dqr_ftree *ft)
{
	uint32_t s = f->num_switches, L = ft->num_levels, sw, l, i;

	memset(w, 0, sizeof(*w));
	w->f = f;
	w->ft = ft;
	w->by_level = malloc(sizeof(uint32_t) * (s + 1));
	w->level_off = calloc(L + 1, sizeof(uint32_t));
	w->down_d = malloc(sizeof(uint32_t) * (s + 1));
	w->dist = malloc(sizeof(uint32_t) * (s + 1));
	w->queue = malloc(sizeof(uint32_t) * (s + 1));
	w->div = malloc(sizeof(uint64_t) * (L + 1));
	w->sw_order = malloc(sizeof(uint32_t) * (s + 1));
	w->sw_key = malloc(sizeof(uint32_t) * (s + 1));
	w->out = malloc(sizeof(uint32_t) * (s + 1));
	w->comp = malloc(sizeof(uint32_t) * (s + 1));
	w->hops = malloc(sizeof(uint32_t) * (s + 1));
	w->all_down = malloc(s + 1);
	w->holes = malloc(sizeof(uint32_t) * (ft->num_end + s + 1));
	if (!w->hops || !w->all_down || !w->holes ||
	    !w->by_level || !w->level_off || !w->down_d || !w->dist ||
	    !w->queue || !w->div || !w->sw_order || !w->sw_key || !w->out ||
	    !w->comp)
		return -1;
	for (sw = 0; sw < s; sw++)
		w->level_off[ft->level[sw] + 1]++;
	for (l = 0; l < L; l++)
		w->level_off[l + 1] += w->level_off[l];
	for (l = 0; l < L; l++)
		w->queue[l] = w->level_off[l];
	for (sw = 0; sw < s; sw++)
		w->by_level[w->queue[ft->level[sw]]++] = sw;
	w->div[0] = 1;
	for (l = 0; l < L; l++) {
		uint64_t m = ft->max_up[l] ? ft->max_up[l] : 1;

		w->div[l + 1] = w->div[l] > UINT32_MAX ? w->div[l] :
				w->div[l] * m;
	}
	if (sort_switches(f, w->sw_order))
		return -1;
	for (i = 0; i < s; i++)
		w->sw_key[w->sw_order[i]] = ft->num_end + i;
	for (sw = 0; sw < s; sw++)
		w->comp[sw] = sw;
	for (sw = 0; sw < s; sw++)
		for (i = ft->up_off[sw]; i < ft->up_off[sw + 1]; i++) {
			uint32_t a = dqr_uf_root(w->comp, sw);
			uint32_t b = dqr_uf_root(w->comp,
					       dqr_peer_switch(f, ft->up[i]));

			if (a != b)
				w->comp[a] = b;
		}
	for (sw = 0; sw < s; sw++)
		w->comp[sw] = dqr_uf_root(w->comp, sw);
	return 0;
}

/*
 * down_d and dist towards root (the destination's leaf, or the switch
 * itself): down_d by a BFS up from root, dist level by level from the
 * top, each switch one more than its best switch above.
 */
static void distances(struct work *w, uint32_t root)
{
	const struct dqr_ftree *ft = w->ft;
	uint32_t s = w->f->num_switches, head = 0, tail = 0, sw, i, l, k;

	for (sw = 0; sw < s; sw++)
		w->down_d[sw] = w->dist[sw] = INF;
	w->down_d[root] = 0;
	w->queue[tail++] = root;
	while (head < tail) {
		sw = w->queue[head++];
		for (i = ft->up_off[sw]; i < ft->up_off[sw + 1]; i++) {
			uint32_t p = dqr_peer_switch(w->f, ft->up[i]);

			if (w->down_d[p] != INF)
				continue;
			w->down_d[p] = w->down_d[sw] + 1;
			w->queue[tail++] = p;
		}
	}
	for (l = ft->num_levels; l-- > 0;)
		for (k = w->level_off[l]; k < w->level_off[l + 1]; k++) {
			uint32_t best = INF;

			sw = w->by_level[k];
			if (w->down_d[sw] != INF) {
				w->dist[sw] = w->down_d[sw];
				continue;
			}
			for (i = ft->up_off[sw]; i < ft->up_off[sw + 1]; i++) {
				uint32_t p = dqr_peer_switch(w->f, ft->up[i]);

				if (w->dist[p] != INF && w->dist[p] + 1 < best)
					best = w->dist[p] + 1;
			}
			w->dist[sw] = best;
		}
}

/* The D-mod-k channel of sw on a shortest up*\/down* route, or INF. */
static uint32_t pick(const struct work *w, uint32_t sw, uint64_t key,
		     uint32_t off)
{
	const struct dqr_ftree *ft = w->ft;
	uint32_t i, n, m = 0, start;

	if (w->down_d[sw] != INF) {
		uint32_t want = w->down_d[sw] - 1, choice;

		for (i = ft->down_off[sw]; i < ft->down_off[sw + 1]; i++)
			m += w->down_d[dqr_peer_switch(w->f, ft->down[i])] ==
			     want;
		if (!m)
			return INF;
		choice = (uint32_t)((key + off) % m);
		for (i = ft->down_off[sw]; i < ft->down_off[sw + 1]; i++) {
			if (w->down_d[dqr_peer_switch(w->f, ft->down[i])] !=
			    want)
				continue;
			if (!choice--)
				return ft->down[i];
		}
		return INF;
	}
	if (w->dist[sw] == INF)
		return INF;
	n = ft->up_off[sw + 1] - ft->up_off[sw];
	start = (uint32_t)((key / w->div[ft->level[sw]] + off) % n);
	for (i = 0; i < n; i++) {
		uint32_t ch = ft->up[ft->up_off[sw] + (start + i) % n];
		uint32_t p = dqr_peer_switch(w->f, ch);

		if (w->dist[p] != INF && w->dist[p] + 1 == w->dist[sw])
			return ch;
	}
	return INF;
}

/* Fills the up*\/down* entries of every switch for the LIDs of port. */
static uint64_t route_port(struct work *w, uint32_t port, uint32_t root,
			   uint8_t root_entry, uint64_t key,
			   struct dqr_uturn_stats *st)
{
	const struct dqr_port *p = &w->f->ports[port];
	uint32_t s = w->f->num_switches, n = 1u << p->lmc, off, sw, ch;
	uint64_t unrouted = 0;

	for (off = 0; off < n; off++) {
		uint32_t lid = p->base_lid + off;

		if (lid >= w->t->lid_count)
			break;
		st->lids++;
		for (sw = 0; sw < s; sw++) {
			if (sw == root) {
				dqr_lft_set(w->t, sw, lid, root_entry);
				st->entries++;
				continue;
			}
			ch = pick(w, sw, key, off);
			if (ch == INF) {
				unrouted += w->comp[sw] == w->comp[root];
				continue;
			}
			dqr_lft_set(w->t, sw, lid, w->f->ports[ch].num);
			st->entries++;
		}
	}
	return unrouted;
}

int dqr_uturn_normal_list(const struct dqr_fabric *f,
			  const struct dqr_ftree *ft,
			  struct dqr_channel_list *cl)
{
	uint32_t L = ft->num_levels, nclass = 2 * L + 1, v, *cnt, c;
	uint32_t *cls;

	memset(cl, 0, sizeof(*cl));
	cl->num_vertices = f->num_ports;
	cl->pos = malloc(sizeof(uint32_t) * (f->num_ports + 1));
	cl->order = malloc(sizeof(uint32_t) * (f->num_ports + 1));
	cnt = calloc(nclass + 1, sizeof(uint32_t));
	cls = malloc(sizeof(uint32_t) * (f->num_ports + 1));
	if (!cl->pos || !cl->order || !cnt || !cls) {
		free(cnt);
		free(cls);
		dqr_channel_list_free(cl);
		return -1;
	}
	for (v = 0; v < f->num_ports; v++) {
		const struct dqr_port *p = &f->ports[v];
		uint32_t sw = f->nodes[p->node].sw_index, nb;

		cl->pos[v] = DQR_NONE;
		cls[v] = DQR_NONE;
		if (!p->num || dqr_peer_port(f, v) == DQR_NONE)
			continue;
		nb = dqr_peer_switch(f, v);
		if (sw == DQR_NONE)
			c = 0;				/* CA -> leaf */
		else if (nb == DQR_NONE)
			c = 2 * L;			/* leaf -> CA */
		else if (ft->level[nb] > ft->level[sw])
			c = 1 + ft->level[sw];	/* up, from the leaves */
		else
			c = L + (L - ft->level[sw]);	/* down, from the top */
		cls[v] = c;
		cnt[c + 1]++;
	}
	for (c = 0; c < nclass; c++)
		cnt[c + 1] += cnt[c];
	cl->len = cnt[nclass];
	for (v = 0; v < f->num_ports; v++) {
		if (cls[v] == DQR_NONE)
			continue;
		cl->pos[v] = cnt[cls[v]]++;
		cl->order[cl->pos[v]] = v;
	}
	for (c = 0; c < cl->len; c++)
		DQR_CHECK(cl->pos[cl->order[c]] == c);
	free(cnt);
	free(cls);
	return 0;
}

/*
 * Attaches sw to a destination's tree through channel ch towards via:
 * the dependency ch -> via's channel and those of sw's end ports into
 * ch, all legal in d together or none of them (a U-turn that would
 * close a cycle is not placed).  1 attached, 0 refused.
 */
static int try_attach(struct work *w, struct dqr_dyn_order *d, uint32_t sw,
		      uint32_t ch, uint32_t via)
{
	uint32_t node = w->f->switches[sw];
	size_t mark = dqr_dyn_mark(d);
	struct dqr_dyn_fingerprint list = dqr_dyn_fingerprint(d);
	unsigned p;

	if (w->out[via] != INF && dqr_dyn_add(d, ch, w->out[via]) < 0)
		goto refused;
	dqr_for_each_end_port(w->f, node, p) {
		uint32_t own = dqr_port_index(w->f, node, p);

		if (dqr_dyn_add(d, dqr_peer_port(w->f, own), ch) < 0)
			goto refused;
	}
	dqr_dyn_commit(d);
	return 1;
refused:
	dqr_dyn_rollback(d, mark);
	/* a U-turn that would close a cycle leaves nothing behind */
	DQR_CHECK(dqr_dyn_same(d, &list));
	return 0;
}

static int is_up(const struct work *w, uint32_t ch)
{
	uint32_t a = w->f->nodes[w->f->ports[ch].node].sw_index;
	uint32_t b = dqr_peer_switch(w->f, ch);

	return b != DQR_NONE && w->ft->level[b] > w->ft->level[a];
}

/* Sets sw's entries for every LID of the destination port's range. */
static void set_port_lids(struct work *w, uint32_t dport, uint32_t sw,
			  uint8_t port)
{
	const struct dqr_port *p = &w->f->ports[dport];
	uint32_t off;

	for (off = 0; off < (1u << p->lmc); off++)
		if (p->base_lid + off < w->t->lid_count)
			dqr_lft_set(w->t, sw, p->base_lid + off, port);
}

/*
 * 1 when the hop from switch a to switch b leads away from the anchor: a
 * down move of the up*\/down* order that keeps all U-turns consistent.
 */
static int away(const struct work *w, uint32_t a, uint32_t b)
{
	const struct dqr_ftree *ft = w->ft;

	if (ft->rank[a] != ft->rank[b])
		return ft->rank[b] > ft->rank[a];
	return w->sw_key[b] > w->sw_key[a];
}

/*
 * all_down[sw]: sw's route to dst moves away from the anchor at every hop
 * (1), or not (0), for every switch with a route.  One memoised walk.
 */
static void mark_phases(struct work *w, uint32_t dst)
{
	uint32_t s = w->f->num_switches, sw, top, x;

	for (sw = 0; sw < s; sw++)
		w->all_down[sw] = 2;
	w->all_down[dst] = 1;
	for (sw = 0; sw < s; sw++) {
		top = 0;
		for (x = sw; w->all_down[x] == 2 && w->out[x] != INF;
		     x = dqr_peer_switch(w->f, w->out[x]))
			w->queue[top++] = x;
		if (w->all_down[x] == 2)
			x = dst;	/* no route: never asked */
		while (top--) {
			uint32_t y = w->queue[top];

			w->all_down[y] = away(w, y, x) && w->all_down[x] == 1;
			x = y;
		}
	}
}

/* How much a candidate hop is preferred: lower is better. */
static uint64_t preference(const struct work *w, uint32_t sw, uint32_t ch)
{
	uint32_t via = dqr_peer_switch(w->f, ch);

	return (uint64_t)(via != w->ft->uturn_sw[sw]) << 62 |
	       (uint64_t)is_up(w, ch) << 61 |
	       (uint64_t)w->ft->rank[via] << 32 | w->sw_key[via];
}

/* Tries sw's candidates, best first; 1 when one was accepted. */
static int attach_one(struct work *w, struct dqr_dyn_order *d, uint32_t dport,
		      uint32_t sw, uint32_t *cand, uint32_t ncand,
		      struct dqr_uturn_stats *st)
{
	uint64_t reorders = d->num_reorders, pref[DQR_MAX_PORTS], tp;
	uint32_t i, j, via, ch, tc;

	for (i = 0; i < ncand; i++) {
		pref[i] = preference(w, sw, cand[i]);
		for (j = i; j > 0 && pref[j - 1] > pref[j]; j--) {
			tp = pref[j];
			pref[j] = pref[j - 1];
			pref[j - 1] = tp;
			tc = cand[j];
			cand[j] = cand[j - 1];
			cand[j - 1] = tc;
		}
	}
	for (i = 0; i < ncand; i++) {
		ch = cand[i];
		via = dqr_peer_switch(w->f, ch);
		if (!try_attach(w, d, sw, ch, via)) {
			st->refused++;
			continue;
		}
		w->out[sw] = ch;
		w->all_down[sw] = away(w, sw, via) && w->all_down[via] == 1;
		set_port_lids(w, dport, sw, w->f->ports[ch].num);
		st->entries++;
		st->uturn_entries++;
		st->reorders += d->num_reorders - reorders;
		if (!is_up(w, ch) && w->out[via] != INF &&
		    is_up(w, w->out[via])) {
			if (via == w->ft->uturn_sw[sw])
				st->at_group_uturn++;
			else
				st->elsewhere++;
		} else {
			st->down_first++;
		}
		return 1;
	}
	return 0;
}

/*
 * The switches without an up*\/down* route to dst, by rounds of hop
 * count: a switch attaches through a neighbour whose route is one hop
 * shorter, when the joint route stays a route of the anchor's up*\/down*
 * order (a hop away from the anchor only into a route that moves away
 * all the way).  Among those: its group's U-turn switch, then down links,
 * then nearest the anchor, then D.
 */
static void place_uturns(struct work *w, struct dqr_dyn_order *d,
			 uint32_t dst, uint32_t dport,
			 struct dqr_uturn_stats *st)
{
	const struct dqr_node *nd;
	uint32_t s = w->f->num_switches, sw, node, n, c, left = 0, lid;
	unsigned p;
	uint32_t cand[DQR_MAX_PORTS];

	lid = w->f->ports[dport].base_lid;
	for (sw = 0; sw < s; sw++) {
		uint8_t e = dqr_lft_get(w->t, sw, lid);

		nd = &w->f->nodes[w->f->switches[sw]];
		w->out[sw] = INF;
		w->hops[sw] = w->dist[sw];
		if (w->dist[sw] != INF && e != DQR_NO_PATH && e != 0)
			w->out[sw] = nd->port_base + e;
		else if (sw != dst && w->comp[sw] == w->comp[dst])
			left++;
	}
	mark_phases(w, dst);
	for (c = 1; left && c <= 2 * s; c++) {
		for (sw = 0; sw < s; sw++) {
			if (w->hops[sw] != INF || w->comp[sw] != w->comp[dst])
				continue;
			node = w->f->switches[sw];
			n = 0;
			dqr_for_each_linked_port(w->f, node, p) {
				uint32_t ch = dqr_port_index(w->f, node, p);
				uint32_t via = dqr_peer_switch(w->f, ch);

				if (via == DQR_NONE || w->hops[via] != c - 1 ||
				    (away(w, sw, via) &&
				     w->all_down[via] != 1))
					continue;
				cand[n++] = ch;
			}
			if (n && attach_one(w, d, dport, sw, cand, n, st)) {
				w->hops[sw] = c;
				left--;
			}
		}
	}
	st->unrouted += left;
}

/* The list the U-turns are placed in: the normal layer's numbering. */
static struct dqr_dyn_order *normal_order(const struct dqr_fabric *f,
					  const struct dqr_ftree *ft,
					  const struct dqr_lfts *t,
					  char *err, size_t errlen)
{
	struct dqr_cdg *g = dqr_cdg_build(f, t);
	struct dqr_channel_list cl;
	struct dqr_dyn_order *d = NULL;

	if (!g || dqr_uturn_normal_list(f, ft, &cl)) {
		dqr_cdg_free(g);
		dqr_set_err(err, errlen, "out of memory");
		return NULL;
	}
	if (!dqr_channel_list_valid(&cl, g))
		dqr_set_err(err, errlen, "internal: an up*/down* route "
			    "goes against the channel numbering");
	else if (!(d = dqr_dyn_new(g, &cl)))
		dqr_set_err(err, errlen, "out of memory");
	dqr_channel_list_free(&cl);
	dqr_cdg_free(g);
	return d;
}

int dqr_uturn_route(const struct dqr_fabric *f, const struct dqr_ftree *ft,
		    struct dqr_lfts **out, struct dqr_uturn_stats *st,
		    char *err, size_t errlen)
{
	double t0 = dqr_now_ms();
	struct dqr_dyn_order *d = NULL;
	struct work w;
	uint32_t i, leaf = INF, dst;
	int ret = -1;

	memset(st, 0, sizeof(*st));
	*out = NULL;
	if (work_init(&w, f, ft)) {
		dqr_set_err(err, errlen, "out of memory");
		goto done;
	}
	w.t = dqr_lfts_new(f->num_switches, f->max_lid + 1);
	if (!w.t) {
		dqr_set_err(err, errlen, "out of memory");
		goto done;
	}
	for (i = 0; i < ft->num_end; i++) {
		uint32_t e = ft->end_port[i], r = dqr_peer_port(f, e);
		uint32_t lsw = dqr_peer_switch(f, e);

		if (lsw != leaf)
			distances(&w, lsw);
		leaf = lsw;
		/* CAs an up*\/down* route cannot reach from everywhere
		 * (cables missing at boot) get U-turns below */
		if (route_port(&w, e, lsw, f->ports[r].num, ft->key[e], st))
			w.holes[w.num_holes++] = e;
	}
	for (i = 0; i < f->num_switches; i++) {
		uint32_t p0;

		dst = w.sw_order[i];
		p0 = f->nodes[f->switches[dst]].port_base;
		distances(&w, dst);
		/* pairs without an up*\/down* route: U-turns below */
		if (route_port(&w, p0, dst, 0, w.sw_key[dst], st))
			w.holes[w.num_holes++] = p0;
	}
	d = normal_order(f, ft, w.t, err, errlen);
	if (!d)
		goto done;
	for (i = 0; i < w.num_holes; i++) {
		dst = dqr_ingress_switch(f, w.holes[i]);
		distances(&w, dst);
		place_uturns(&w, d, dst, w.holes[i], st);
	}
	*out = w.t;
	w.t = NULL;
	ret = 0;
done:
	dqr_dyn_free(d);
	dqr_lfts_free(w.t);
	work_free(&w);
	st->us = (dqr_now_ms() - t0) * 1e3;
	return ret;
}
