/*
 * reroute.c - re-attaching disconnected switches to each destination tree,
 * deadlock free against the channel list.
 */
#include <stdlib.h>
#include <string.h>

#include "reroute/reroute-internal.h"
#include "util/check.h"
#include "util/mem.h"
#include "util/sort.h"
#include "util/timing.h"

/*
 * Each switch's place in GUID order (rr->guid_pos), the tie breaker of
 * the ranks: what the search prefers must not depend on the model's
 * numbering, or the plugin (OpenSM's tables) and dqr-sim (ibnetdiscover's
 * output) would repair the same fault differently.  -1 when out of
 * memory.
 */
static int guid_positions(struct dqr_reroute *rr, const struct dqr_fabric *f)
{
	uint32_t s = f->num_switches, i;
	struct dqr_guid_key *k = malloc(sizeof(*k) * (s ? s : 1));

	if (!k)
		return -1;
	for (i = 0; i < s; i++)
		k[i] = (struct dqr_guid_key){
			.guid = f->nodes[f->switches[i]].guid, .tie = i,
			.val = i };
	qsort(k, s, sizeof(*k), dqr_guid_key_cmp);
	for (i = 0; i < s; i++)
		rr->guid_pos[k[i].val] = i;
	free(k);
	return 0;
}

/*
 * BFS ranks from the switch with the most end ports (a leaf in a fat
 * tree; fewest hops to the CAs is what base routings optimise; of equals
 * the lowest GUID), one BFS per component.  rr->stack serves as the
 * queue.
 */
static void rank_switches(struct dqr_reroute *rr, const struct dqr_fabric *f)
{
	uint32_t s = f->num_switches, sw, root, head, tail, nb, best;
	unsigned p;

	for (sw = 0; sw < s; sw++)
		rr->rank[sw] = DQR_NONE;
	for (;;) {
		root = DQR_NONE;
		best = 0;
		for (sw = 0; sw < s; sw++) {
			uint32_t ends = rr->end_off[sw + 1] - rr->end_off[sw];

			if (rr->rank[sw] != DQR_NONE)
				continue;
			if (root == DQR_NONE || ends > best ||
			    (ends == best &&
			     rr->guid_pos[sw] < rr->guid_pos[root])) {
				root = sw;
				best = ends;
			}
		}
		if (root == DQR_NONE)
			return;
		rr->rank[root] = 0;
		head = tail = 0;
		rr->stack[tail++] = root;
		while (head < tail) {
			uint32_t node;

			sw = rr->stack[head++];
			node = f->switches[sw];
			dqr_for_each_linked_port(f, node, p) {
				nb = dqr_port_index(f, node, p);
				nb = dqr_peer_switch(f, nb);
				if (nb == DQR_NONE || rr->rank[nb] != DQR_NONE)
					continue;
				rr->rank[nb] = rr->rank[sw] + 1;
				rr->stack[tail++] = nb;
			}
		}
	}
}

/* The switch a linked CA or router port i is cabled to, else DQR_NONE. */
static uint32_t end_port_switch(const struct dqr_fabric *f, uint32_t i)
{
	const struct dqr_port *p = &f->ports[i];

	if (!p->num || dqr_is_switch(f, p->node))
		return DQR_NONE;
	return dqr_peer_switch(f, i);
}

/*
 * A port that could be a channel but has no cable in the model.  Port 0
 * (a switch's own) is never one: no channel list places it.
 */
static int uncabled(const struct dqr_fabric *f, uint32_t i)
{
	return f->ports[i].num && dqr_peer_port(f, i) == DQR_NONE;
}

struct dqr_reroute *dqr_reroute_new(const struct dqr_fabric *f)
{
	struct dqr_reroute *rr = calloc(1, sizeof(*rr));
	uint32_t s = f->num_switches, n = s + 1, i, sw;

	if (!rr)
		return NULL;
	rr->num_switches = s;
	rr->num_ports = f->num_ports;
	rr->end_off = calloc(n + 1, sizeof(uint32_t));
	rr->end_port = malloc(sizeof(uint32_t) * (f->num_ports + 1));
	rr->comp = malloc(sizeof(uint32_t) * n);
	/* touched now, not by the first fault (calloc may map lazily) */
	rr->ends_ok = malloc(sizeof(uint32_t) * (f->num_ports + 1));
	if (rr->ends_ok)
		memset(rr->ends_ok, 0, sizeof(uint32_t) * (f->num_ports + 1));
	rr->rank = malloc(sizeof(uint32_t) * n);
	rr->guid_pos = malloc(sizeof(uint32_t) * n);
	rr->st = malloc(sizeof(*rr->st) * n);
	rr->stack = malloc(sizeof(uint32_t) * n);
	rr->state = calloc(n, 1);
	rr->mark = calloc(n, sizeof(uint32_t));
	rr->dead = malloc(sizeof(uint32_t) * (f->num_ports + 1));
	rr->cost = malloc(sizeof(uint32_t) * n);
	rr->hops = malloc(sizeof(uint32_t) * n);
	rr->dist = malloc(sizeof(uint32_t) * n);
	rr->queue = malloc(sizeof(uint32_t) * n);
	rr->out = malloc(sizeof(uint32_t) * n);
	rr->disconnected_sw = malloc(sizeof(uint32_t) * n);
	rr->head = malloc(sizeof(uint32_t) * n);
	rr->best = malloc(sizeof(uint32_t) * n);
	rr->old_ch = malloc(sizeof(uint32_t) * n);
	rr->old_in = malloc(sizeof(uint32_t) * n);
	rr->old_in_next = malloc(sizeof(uint32_t) * n);
	if (!rr->end_off || !rr->end_port || !rr->comp || !rr->ends_ok ||
	    !rr->rank || !rr->guid_pos ||
	    !rr->st ||
	    !rr->stack || !rr->state || !rr->mark || !rr->dead ||
	    !rr->cost || !rr->hops || !rr->dist || !rr->queue || !rr->out ||
	    !rr->disconnected_sw || !rr->head || !rr->best ||
	    !rr->old_ch || !rr->old_in || !rr->old_in_next) {
		dqr_reroute_free(rr);
		return NULL;
	}
	/* end ports by the switch they are cabled to in the full model */
	for (i = 0; i < f->num_ports; i++)
		if ((sw = end_port_switch(f, i)) != DQR_NONE)
			rr->end_off[sw + 1]++;
	for (sw = 0; sw < s; sw++)
		rr->end_off[sw + 1] += rr->end_off[sw];
	for (i = 0; i < f->num_ports; i++)
		if ((sw = end_port_switch(f, i)) != DQR_NONE)
			rr->end_port[rr->end_off[sw]++] = i;
	for (sw = s; sw > 0; sw--)
		rr->end_off[sw] = rr->end_off[sw - 1];
	rr->end_off[0] = 0;
	for (i = 0; i < f->num_ports; i++)
		rr->num_uncabled += uncabled(f, i);
	rr->uncabled = malloc(sizeof(uint32_t) * (rr->num_uncabled + 1));
	if (!rr->uncabled) {
		dqr_reroute_free(rr);
		return NULL;
	}
	rr->num_uncabled = 0;
	for (i = 0; i < f->num_ports; i++)
		if (uncabled(f, i))
			rr->uncabled[rr->num_uncabled++] = i;
	if (guid_positions(rr, f)) {
		dqr_reroute_free(rr);
		return NULL;
	}
	rank_switches(rr, f);
	rr->rank_use = rr->rank;
	return rr;
}

void dqr_reroute_free(struct dqr_reroute *rr)
{
	if (!rr)
		return;
	DQR_FREE_ALL(rr->rank, rr->guid_pos, rr->end_off, rr->end_port,
		     rr->comp, rr->ends_ok, rr->st,
		     rr->stack, rr->state, rr->mark, rr->dead, rr->cost,
		     rr->hops, rr->dist, rr->queue, rr->out,
		     rr->disconnected_sw, rr->head, rr->best, rr->old_ch,
		     rr->old_in, rr->old_in_next, rr->pool,
		     rr->heap, rr->changes, rr->uncabled, rr);
}

/* ------------------------------------------------------------ fabric */

/*
 * Components of the switches over the links that work now.  Only a
 * switch left without a route asks (is it cut off?), so this whole
 * fabric pass runs when one is, once per run.
 */
static void switch_components(struct dqr_reroute *rr,
			      const struct dqr_fabric *f)
{
	if (rr->comp_ok)
		return;
	rr->comp_ok = 1;
	dqr_switch_components(f, rr->comp);
}

/*
 * Brings the channel list in line with the cabling: channels that lost
 * their link are retired, channels whose link is back are revived.  A
 * revival that would close a cycle leaves the channel retired and is
 * counted: the caller must then rebuild the list (see reroute.h).
 */
static void sync_port(struct dqr_reroute *rr, const struct dqr_fabric *f,
		      struct dqr_dyn_order *cl, uint32_t i,
		      struct dqr_reroute_stats *st)
{
	int linked;

	if (i >= f->num_ports || i >= cl->num_vertices ||
	    cl->pos[i] == DQR_NONE)
		return;
	linked = dqr_peer_port(f, i) != DQR_NONE;
	if (!linked && dqr_is_switch(f, f->ports[i].node))
		rr->dead[rr->num_dead++] = i;
	if (!linked && !dqr_dyn_is_retired(cl, i))
		dqr_dyn_retire_channel(cl, i);
	else if (linked && dqr_dyn_is_retired(cl, i) &&
		 dqr_dyn_revive_channel(cl, i) < 0)
		st->revive_refused++;
}

/*
 * With ports NULL, every port.  Otherwise only ports[] and the ports
 * the model leaves uncabled (dqr_reroute_run_ports()), ascending as the
 * whole scan goes: revivals may reorder, and in another order they
 * could reorder otherwise.  -1 when out of memory.
 */
static int sync_channels(struct dqr_reroute *rr, const struct dqr_fabric *f,
			 struct dqr_dyn_order *cl, const uint32_t *ports,
			 uint32_t nports, struct dqr_reroute_stats *st)
{
	uint32_t i, j = 0, p, last = DQR_NONE, *set;

	rr->num_dead = 0;
	if (!ports) {
		for (i = 0; i < f->num_ports && i < cl->num_vertices; i++)
			sync_port(rr, f, cl, i, st);
		dqr_dyn_commit(cl);
		return 0;
	}
	set = malloc(sizeof(uint32_t) * (nports + 1));
	if (!set)
		return -1;
	memcpy(set, ports, sizeof(uint32_t) * nports);
	qsort(set, nports, sizeof(uint32_t), dqr_cmp_u32);
	/* merged with the uncabled ones, which are ascending already */
	for (i = 0; i < nports || j < rr->num_uncabled; last = p) {
		if (j == rr->num_uncabled ||
		    (i < nports && set[i] < rr->uncabled[j]))
			p = set[i++];
		else
			p = rr->uncabled[j++];
		if (p != last)
			sync_port(rr, f, cl, p, st);
	}
	free(set);
	dqr_dyn_commit(cl);
	return 0;
}

/* ------------------------------------------------------------ search */

static void set_state(struct dqr_reroute *rr, uint32_t sw, int state)
{
	rr->mark[sw] = rr->epoch;
	rr->state[sw] = (uint8_t)state;
}

static void next_epoch(struct dqr_reroute *rr, uint32_t num_switches)
{
	if (++rr->epoch == 0) {
		memset(rr->mark, 0, sizeof(uint32_t) * num_switches);
		rr->epoch = 1;
	}
}

/*
 * 1 when sw's route reaches the DLID, following and remembering the
 * entries on the way (each switch is walked once per DLID); the cost and
 * the out channel of every good switch are set.
 */
static int good(struct dqr_reroute *rr, const struct dqr_fabric *f,
		const struct dqr_lfts *t, uint32_t lid, uint32_t owner,
		uint32_t sw)
{
	uint32_t top = 0, cur = sw, last = 0, i;	/* last: cost at top */
	uint32_t last_hops = 0;
	int ok = 0, st;

	for (;;) {
		uint32_t ch, nb;

		st = rr_sw_state(rr, cur);
		if (st == SW_GOOD || st == SW_SETTLED) {
			if (!top)
				return 1;
			ok = 1;
			last = rr->cost[cur] + COST_HOP;
			last_hops = rr->hops[cur] + 1;
			break;
		}
		if (st != SW_OTHER)
			break;	/* disconnected, bad, or a loop */
		set_state(rr, cur, SW_WALKING);
		rr->stack[top++] = cur;
		rr->out[cur] = DQR_NONE;
		if (dqr_lft_get(t, cur, lid) == 0) {
			ok = owner == dqr_port_index(f, f->switches[cur], 0);
			last = 0;
			break;
		}
		ch = dqr_next_channel(f, t, cur, lid);
		if (ch == DQR_NONE)
			break;
		rr->out[cur] = ch;
		nb = dqr_peer_switch(f, ch);
		if (nb == DQR_NONE) {
			ok = dqr_peer_port(f, ch) == owner;
			last = COST_HOP;
			last_hops = 1;
			break;
		}
		cur = nb;
	}
	for (i = 0; i < top; i++) {
		uint32_t w = rr->stack[i];

		set_state(rr, w, ok ? SW_GOOD : SW_BAD);
		rr->cost[w] = last + (top - 1 - i) * COST_HOP;
		rr->hops[w] = last_hops + (top - 1 - i);
	}
	return ok;
}

static uint8_t port_of(const struct dqr_fabric *f, uint32_t ch)
{
	return f->ports[ch].num;
}

/*
 * Notes an entry about to be written, with its old port, so that callers
 * learn what changed in O(changes) rather than comparing whole tables.
 * 0, or -1 when out of memory (then nothing is written).
 */
static int log_change(struct dqr_reroute *rr, uint32_t sw, uint32_t lid,
		      uint8_t old)
{
	struct dqr_change *c;

	if (rr->num_changes == rr->cap_changes) {
		uint32_t ncap = rr->cap_changes ? rr->cap_changes * 2 : 256;

		c = realloc(rr->changes, sizeof(*c) * ncap);
		if (!c)
			return -1;
		rr->changes = c;
		rr->cap_changes = ncap;
	}
	c = &rr->changes[rr->num_changes++];
	c->sw = sw;
	c->lid = lid;
	c->old = old;
	return 0;
}

const struct dqr_change *dqr_reroute_changes(const struct dqr_reroute *rr,
					     uint32_t *n)
{
	*n = rr->num_changes;
	return rr->changes;
}

/* End ports that inject at sw and may send to owner's LID. */
static uint32_t linked_ends(const struct dqr_reroute *rr,
			    const struct dqr_dyn_order *cl, uint32_t sw,
			    uint32_t owner)
{
	uint32_t i, n = 0;

	for (i = rr->end_off[sw]; i < rr->end_off[sw + 1]; i++)
		n += rr->end_port[i] != owner &&
		     !dqr_dyn_is_retired(cl, rr->end_port[i]);
	return n;
}

/*
 * The switches whose route to lid is disconnected.  When the fault's dead
 * ports carry the DLID, those switches and everything upstream of them
 * (found through the neighbours' entries, O(disconnected x radix)); otherwise
 * (entries never routed, or no fault given), and with walk_all (entries
 * left without route, which no dead port points at), one walk of every
 * switch.
 */
static void find_disconnected(struct dqr_reroute *rr,
			      const struct dqr_fabric *f,
			      const struct dqr_lfts *t, uint32_t lid,
			      int walk_all)
{
	uint32_t i, sw, ch, q;
	unsigned p;

	rr->num_disconnected_sw = 0;
	for (i = 0; i < rr->num_dead && !walk_all; i++) {
		const struct dqr_port *dp = &f->ports[rr->dead[i]];

		sw = f->nodes[dp->node].sw_index;
		if (dqr_lft_get(t, sw, lid) != dp->num ||
		    rr_sw_state(rr, sw) == SW_DISCONNECTED)
			continue;
		set_state(rr, sw, SW_DISCONNECTED);
		rr->disconnected_sw[rr->num_disconnected_sw++] = sw;
	}
	if (!rr->num_disconnected_sw) {
		dqr_walk_dlid(f, t, lid, rr->st, rr->stack);
		for (sw = 0; sw < f->num_switches; sw++) {
			if (rr->st[sw].result == DQR_WALK_OK) {
				set_state(rr, sw, SW_GOOD);
				rr->cost[sw] = rr->st[sw].hops * COST_HOP;
				rr->hops[sw] = rr->st[sw].hops;
				rr->out[sw] = dqr_next_channel(f, t, sw, lid);
				continue;
			}
			set_state(rr, sw, SW_DISCONNECTED);
			rr->disconnected_sw[rr->num_disconnected_sw++] = sw;
		}
		return;
	}
	/* upstream: neighbours whose entry leads into a disconnected switch */
	for (i = 0; i < rr->num_disconnected_sw; i++) {
		uint32_t node = f->switches[rr->disconnected_sw[i]];

		dqr_for_each_linked_port(f, node, p) {
			ch = dqr_port_index(f, node, p);
			sw = dqr_peer_switch(f, ch);
			if (sw == DQR_NONE)
				continue;
			q = f->ports[dqr_peer_port(f, ch)].num;
			if (dqr_lft_get(t, sw, lid) != q ||
			    rr_sw_state(rr, sw) == SW_DISCONNECTED)
				continue;
			set_state(rr, sw, SW_DISCONNECTED);
			rr->disconnected_sw[rr->num_disconnected_sw++] = sw;
		}
	}
}

/*
 * rr->dist: links from each switch to own_sw over the cabling as it is
 * (UINT32_MAX: none), by a breadth-first search backwards from own_sw.
 */
static void cable_distances(struct dqr_reroute *rr,
			    const struct dqr_fabric *f,
			    const struct dqr_dyn_order *cl, uint32_t own_sw)
{
	uint32_t head = 0, tail = 0, sw, node, r, u;
	unsigned p;

	for (sw = 0; sw < f->num_switches; sw++)
		rr->dist[sw] = UINT32_MAX;
	rr->dist[own_sw] = 0;
	rr->queue[tail++] = own_sw;
	while (head < tail) {
		uint32_t v = rr->queue[head++];

		node = f->switches[v];
		dqr_for_each_linked_port(f, node, p) {
			r = dqr_peer_port(f, dqr_port_index(f, node, p));
			u = dqr_peer_switch(f, dqr_port_index(f, node, p));
			if (u == DQR_NONE || !rr_usable(f, cl, r) ||
			    rr->dist[u] != UINT32_MAX)
				continue;
			rr->dist[u] = rr->dist[v] + 1;
			rr->queue[tail++] = u;
		}
	}
}

/* 1 when attaching c->sw through c->via is longer than stretch allows. */
static int too_long(const struct dqr_reroute *rr,
		    const struct dqr_reroute_opts *o, const struct cand *c)
{
	return o->stretch_on && rr->dist[c->sw] != UINT32_MAX &&
	       (uint64_t)rr->hops[c->via] + 1 >
	       (uint64_t)rr->dist[c->sw] + o->stretch;
}

/*
 * The core of DQR (the DQR paper, IV.B) for one DLID: regrow lid's
 * destination tree over its disconnected flows, inside the channel list.
 *
 * The switches whose route no longer reaches the DLID (find_disconnected():
 * those that forward into a dead port, and every switch upstream of them)
 * leave the tree; every other switch keeps its entry, so traffic that still
 * arrives is never touched.  A Dijkstra search then grows the tree back
 * from its intact part.  A candidate attaches a disconnected switch X
 * through a cabled neighbour Z whose route arrives, at Z's cost plus a hop,
 * plus the turns the attachment needs (X->Z into Z's channel, X's end ports
 * into X->Z) priced by their place in the list, the turns packets still
 * in flight would take through X's old and new entries (priced so that a
 * route whose upload needs no drain wins by up to four hops), the
 * topology's bias, and a penalty for changing an entry whose link works
 * (mode=).  The cheapest is
 * taken only when all of its dependencies can be made legal together
 * (dyn_order.h reorders for a turn that points down, and refuses one that
 * closes a cycle); X is then settled, and offers candidates to its own
 * disconnected neighbours.
 *
 * Kept: a switch is settled only through one whose route arrives, so the
 * settled switches form a tree and the destination tree stays loop free;
 * every dependency of the new routes is in the list, so old and new routes
 * together stay deadlock free (the re-routing layer, outside_list, asks
 * nothing of the list and leaves that to its VLs); an entry that no cable
 * path joins to the DLID stays as it was; one with a cable path but no
 * legal route becomes DQR_NO_PATH, since its old entry may lead into a
 * re-attached switch through a turn the list never admitted.  Every entry
 * written goes to the change list.
 *
 * Cost: O(D x radix) to find the D disconnected switches, a heap of their
 * O(D x radix) candidates, neighbours' routes followed once each
 * (memoised), and per commit what the list's reorder visits: a fault
 * costs what it cut, not the fabric.  Only the fallbacks see every switch:
 * one walk when no dead port carries the DLID, the components once per
 * run when a switch is left without a route, and with stretch= a BFS of
 * the cabling.  0, or -1 when out of memory.
 */
static int repair_dlid(struct dqr_reroute *rr, const struct dqr_fabric *f,
		       struct dqr_lfts *t, struct dqr_dyn_order *cl,
		       const struct dqr_reroute_opts *o, uint32_t lid,
		       struct dqr_reroute_stats *st)
{
	uint32_t owner = dqr_lid_owner(f, lid), own_sw, sw, i;
	struct rr_search s = {
		.f = f, .t = t, .cl = cl, .o = o, .lid = lid, .owner = owner,
		.st = st,
	};
	uint8_t old;
	struct cand c;
	int r;

	if (owner == DQR_NONE)
		return 0;
	st->lids++;
	next_epoch(rr, f->num_switches);
	find_disconnected(rr, f, t, lid, o->outside_list);
	if (!rr->num_disconnected_sw)
		return 0;
	st->lids_disconnected++;
	st->disconnected += rr->num_disconnected_sw;
	for (i = 0; i < rr->num_disconnected_sw; i++)
		st->disconnected_pairs +=
			1 + linked_ends(rr, cl, rr->disconnected_sw[i], owner);

	own_sw = dqr_ingress_switch(f, owner);
	rr_cands_reset(rr, &s);
	if (o->stretch_on && own_sw != DQR_NONE)
		cable_distances(rr, f, cl, own_sw);
	if (own_sw != DQR_NONE)
		for (i = 0; i < rr->num_disconnected_sw; i++) {
			uint32_t node, ch, via;
			unsigned p;

			/*
			 * A switch cut off from own_sw has no neighbour
			 * whose route arrives: it gets no candidate.
			 */
			sw = rr->disconnected_sw[i];
			node = f->switches[sw];
			dqr_for_each_linked_port(f, node, p) {
				ch = dqr_port_index(f, node, p);
				via = dqr_peer_switch(f, ch);
				if (via == DQR_NONE ||
				    rr_sw_state(rr, via) == SW_DISCONNECTED ||
				    !rr_usable(f, cl, ch) ||
				    !good(rr, f, t, lid, owner, via))
					continue;
				if (rr_push_candidate(rr, &s, sw, ch, via))
					return -1;
			}
		}

	if (rr_cands_ready(rr))
		return -1;
	while ((r = rr_next_candidate(rr, &s, &c)) > 0) {
		if (too_long(rr, o, &c)) {
			st->stretched++;
			continue;
		}
		r = o->outside_list ? 0 : rr_commit_candidate(rr, &s, &c);
		if (r == -2)
			return -1;
		if (r) {
			st->refused++;
			continue;
		}
		/*
		 * Only a disconnected switch is re-attached, and only to one
		 * whose route arrives: settled switches hang off the tree,
		 * so it stays loop free.  Its entry names a cabled port of
		 * its own, and the turn into via's route is in the list.
		 */
		DQR_CHECK(rr_sw_state(rr, c.sw) == SW_DISCONNECTED);
		DQR_CHECK(rr_sw_state(rr, c.via) == SW_GOOD ||
			  rr_sw_state(rr, c.via) == SW_SETTLED);
		DQR_CHECK(f->ports[c.ch].node == f->switches[c.sw] &&
			  dqr_peer_switch(f, c.ch) == c.via);
		DQR_CHECK(o->outside_list || rr->out[c.via] == DQR_NONE ||
			  dqr_dyn_has_edge(cl, c.ch, rr->out[c.via]));
		set_state(rr, c.sw, SW_SETTLED);
		rr->cost[c.sw] = c.cost;
		rr->hops[c.sw] = rr->hops[c.via] + 1;
		rr->out[c.sw] = c.ch;
		old = dqr_lft_get(t, c.sw, lid);
		if (old != port_of(f, c.ch)) {
			if (log_change(rr, c.sw, lid, old))
				return -1;
			dqr_lft_set(t, c.sw, lid, port_of(f, c.ch));
			st->changed++;
		}
		if (rr_relax(rr, &s, c.sw))
			return -1;
	}
	if (r < 0)
		return -1;

	for (i = 0; i < rr->num_disconnected_sw; i++) {
		sw = rr->disconnected_sw[i];
		if (rr_sw_state(rr, sw) == SW_SETTLED)
			continue;
		if (own_sw != DQR_NONE)
			switch_components(rr, f);
		if (own_sw == DQR_NONE || rr->comp[sw] != rr->comp[own_sw]) {
			st->unreachable++;
			continue;
		}
		old = dqr_lft_get(t, sw, lid);
		if (old == DQR_NO_PATH) {
			st->holes++;
			continue;
		}
		st->failed++;
		/*
		 * No legal route: the old entry may lead into a switch this
		 * search re-attached, and that turn the list never admitted.
		 * Drop the DLID here instead.
		 */
		if (log_change(rr, sw, lid, old))
			return -1;
		dqr_lft_set(t, sw, lid, DQR_NO_PATH);
		st->changed++;
	}
	return 0;
}

/*
 * One reconfiguration: the list brought in line with the cabling (at the
 * given ports only, or everywhere with ports NULL), the topology plug-in
 * once, then repair_dlid() for each DLID while the budget lasts.  The
 * plug-in's answer sets what a reorder costs for the whole run: once it
 * has bypassed every cut flow, reorders only spend the room the next fault
 * needs.  0, -1 (memory) or DQR_REROUTE_OVER.
 */
static int run(struct dqr_reroute *rr, const struct dqr_fabric *f,
	       struct dqr_lfts *t, struct dqr_dyn_order *cl,
	       const struct dqr_reroute_opts *o, const uint32_t *ports,
	       uint32_t nports, const uint32_t *lids, uint32_t nlids,
	       struct dqr_reroute_stats *st)
{
	double t0 = dqr_now_ms();
	uint32_t i, lid;
	int ret = 0;

	/* rr, t and cl were all made for f's indices (reroute.h) */
	DQR_CHECK(rr->num_switches == f->num_switches &&
		  rr->num_ports == f->num_ports &&
		  t->num_switches == f->num_switches &&
		  cl->num_vertices <= f->num_ports);
	memset(st, 0, sizeof(*st));
	rr->num_changes = 0;
	rr->rank_use = o->rank ? o->rank : rr->rank;
	if (sync_channels(rr, f, cl, ports, nports, st))
		return -1;
	rr->comp_ok = 0;
	if (++rr->ends_gen == 0) {
		memset(rr->ends_ok, 0, sizeof(uint32_t) * (rr->num_ports + 1));
		rr->ends_gen = 1;
	}
	rr->cost_reorder = COST_REORDER;
	if (o->plugin) {
		ret = o->plugin(o->plugin_arg, f, t, cl);
		if (ret > 0)
			rr->cost_reorder = COST_REORDER_BYPASSED;
		ret = ret < 0 ? -1 : 0;
	}
	for (i = 0; !ret && (lids ? i < nlids : i < f->max_lid); i++) {
		if (dqr_budget_over(o->budget)) {
			ret = DQR_REROUTE_OVER;
			break;
		}
		lid = lids ? lids[i] : i + 1;
		ret = repair_dlid(rr, f, t, cl, o, lid, st);
	}
	/* every entry written is in the change list, once per write */
	DQR_CHECK(ret < 0 || st->changed == rr->num_changes);
	st->us = (dqr_now_ms() - t0) * 1e3;
	return ret;
}

int dqr_reroute_run(struct dqr_reroute *rr, const struct dqr_fabric *f,
		    struct dqr_lfts *t, struct dqr_dyn_order *cl,
		    const struct dqr_reroute_opts *o, const uint32_t *lids,
		    uint32_t nlids, struct dqr_reroute_stats *st)
{
	return run(rr, f, t, cl, o, NULL, 0, lids, nlids, st);
}

int dqr_reroute_run_ports(struct dqr_reroute *rr, const struct dqr_fabric *f,
			  struct dqr_lfts *t, struct dqr_dyn_order *cl,
			  const struct dqr_reroute_opts *o,
			  const uint32_t *ports, uint32_t nports,
			  const uint32_t *lids, uint32_t nlids,
			  struct dqr_reroute_stats *st)
{
	static const uint32_t none[1];

	return run(rr, f, t, cl, o, ports ? ports : none, ports ? nports : 0,
		   lids, nlids, st);
}

/* ------------------------------------------------------------ DLID sets */

static int64_t collect(const uint8_t *mark, uint32_t n, uint32_t **out)
{
	uint32_t lid, k = 0;

	for (lid = 0; lid < n; lid++)
		k += mark[lid];
	*out = malloc(sizeof(uint32_t) * (k ? k : 1));
	if (!*out)
		return -1;
	k = 0;
	for (lid = 0; lid < n; lid++)
		if (mark[lid])
			(*out)[k++] = lid;
	return k;
}

int64_t dqr_lids_through_ports(const struct dqr_fabric *f,
			       const struct dqr_lfts *t, const uint32_t *ports,
			       uint32_t nports, uint32_t **out)
{
	uint8_t *mark = calloc(t->lid_count + 1, 1);
	uint32_t i, lid;
	int64_t k;

	if (!mark)
		return -1;
	for (i = 0; i < nports; i++) {
		const struct dqr_port *p = &f->ports[ports[i]];
		uint32_t sw = f->nodes[p->node].sw_index;
		const uint8_t *row;

		if (sw == DQR_NONE || !p->num)
			continue;
		row = dqr_lft_row(t, sw);
		for (lid = 1; lid < t->lid_count; lid++)
			if (row[lid] == p->num)
				mark[lid] = 1;
	}
	k = collect(mark, t->lid_count, out);
	free(mark);
	return k;
}

int64_t dqr_lids_with_holes(const struct dqr_fabric *f,
			    const struct dqr_lfts *t, uint32_t **out)
{
	uint8_t *mark = calloc(t->lid_count + 1, 1);
	uint32_t sw, lid;
	int64_t k;

	if (!mark)
		return -1;
	for (sw = 0; sw < t->num_switches; sw++) {
		const uint8_t *row = dqr_lft_row(t, sw);

		for (lid = 1; lid < t->lid_count; lid++)
			if (row[lid] == DQR_NO_PATH &&
			    dqr_lid_owner(f, lid) != DQR_NONE)
				mark[lid] = 1;
	}
	k = collect(mark, t->lid_count, out);
	free(mark);
	return k;
}

int dqr_cl_covers(const struct dqr_dyn_order *cl, const struct dqr_cdg *g)
{
	uint32_t v, w;
	uint64_t e;

	for (v = 0; v < g->num_vertices; v++)
		for (e = g->succ_off[v]; e < g->succ_off[v + 1]; e++) {
			w = g->succ[e];
			if (v >= cl->num_vertices || w >= cl->num_vertices ||
			    cl->pos[v] == DQR_NONE || cl->pos[w] == DQR_NONE ||
			    cl->pos[v] >= cl->pos[w])
				return 0;
		}
	return 1;
}
