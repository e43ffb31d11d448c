/*
 * reroute.c - re-attaching disconnected switches to each destination tree,
 * deadlock free against the channel list.
 */
#include <stdlib.h>
#include <string.h>

#include "repair/reroute.h"
#include "routes/route_walk.h"
#include "util/mem.h"
#include "util/timing.h"
#include "util/union_find.h"

/* Cost units: one hop is worth 16, so turns and changes weigh less. */
#define COST_HOP 16
#define COST_NEW_TURN 1		/* a legal dependency the list lacks */
#define COST_REORDER 8		/* a turn that needs a reorder */
#define COST_CHANGE_E2E 8	/* ties keep an entry, a hop saved wins */
#define COST_CHANGE_LOCAL (16 * COST_HOP)
#define COST_UPDN_TURN (4 * COST_HOP)	/* down then up, see rank[] */

enum sw_state {
	SW_OTHER = 0,	/* not looked at for this DLID */
	SW_GOOD,	/* its route reaches the DLID; entry stays */
	SW_DISCONNECTED,	/* must be re-attached */
	SW_SETTLED,	/* re-attached in this search */
	SW_BAD,		/* its route fails, but not through this fault */
	SW_WALKING,	/* on the route being followed */
};

struct cand {
	uint32_t cost;
	uint32_t sw;		/* the disconnected switch to attach */
	uint32_t ch;		/* through this channel */
	uint32_t via;		/* to this switch */
};

struct dqr_reroute {
	uint32_t num_switches;
	/* end ports cabled to each switch, CSR over switch indices */
	uint32_t *end_off, *end_port;
	uint32_t *comp;		/* connected component of each switch */
	/*
	 * Distance of each switch from a root in the full model.  New
	 * turns from a link leading away from the root into one leading
	 * back towards it (down then up, as in up*\/down* routing) cost
	 * extra: when every path search prefers one orientation, the turns
	 * the searches enable for different destinations agree with each
	 * other and leave room for the next ones.  Without it, U-turns that
	 * fat-tree switch-to-switch routes need get placed ad hoc and soon
	 * close each other's cycles.
	 */
	uint32_t *rank;
	const uint32_t *rank_use;	/* rank, or the caller's */

	struct dqr_walk_state *st;
	uint32_t *stack;
	/* per-DLID state, valid where mark[sw] == epoch */
	uint8_t *state;
	uint32_t *mark, epoch;
	/* switch ports whose link is gone, from sync_channels() */
	uint32_t *dead, num_dead;
	uint32_t *cost;
	uint32_t *hops;		/* links of the route, with cost */
	uint32_t *dist;		/* shortest cable path (stretch) */
	uint32_t *queue;
	uint32_t *out;		/* channel for the DLID, DQR_NONE: self */
	uint32_t *disconnected_sw;	/* of the DLID being repaired */
	uint32_t num_disconnected_sw;

	struct cand *heap;
	uint32_t heap_len, heap_cap;

	/* entries written by the last run, in order */
	struct dqr_change *changes;
	uint32_t num_changes, cap_changes;

	/* dependencies of one candidate */
	uint32_t dep_a[DQR_MAX_PORTS + 2], dep_b[DQR_MAX_PORTS + 2];
	uint32_t num_deps;
};

/*
 * BFS ranks from the switch with the most end ports (a leaf in a fat
 * tree; fewest hops to the CAs is what base routings optimise), one BFS
 * per component.  rr->stack serves as the queue.
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
			if (root == DQR_NONE || ends > best) {
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

/* 1 when the hop from switch a to switch b leads towards the root. */
static int hop_up(const struct dqr_reroute *rr, uint32_t a, uint32_t b)
{
	if (rr->rank_use[b] != rr->rank_use[a])
		return rr->rank_use[b] < rr->rank_use[a];
	return b < a;
}

/* The switch a linked CA or router port i is cabled to, else DQR_NONE. */
static uint32_t end_port_switch(const struct dqr_fabric *f, uint32_t i)
{
	const struct dqr_port *p = &f->ports[i];

	if (!p->num || dqr_is_switch(f, p->node))
		return DQR_NONE;
	return dqr_peer_switch(f, i);
}

struct dqr_reroute *dqr_reroute_new(const struct dqr_fabric *f)
{
	struct dqr_reroute *rr = calloc(1, sizeof(*rr));
	uint32_t s = f->num_switches, n = s + 1, i, sw;

	if (!rr)
		return NULL;
	rr->num_switches = s;
	rr->end_off = calloc(n + 1, sizeof(uint32_t));
	rr->end_port = malloc(sizeof(uint32_t) * (f->num_ports + 1));
	rr->comp = malloc(sizeof(uint32_t) * n);
	rr->rank = malloc(sizeof(uint32_t) * n);
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
	if (!rr->end_off || !rr->end_port || !rr->comp || !rr->rank ||
	    !rr->st ||
	    !rr->stack || !rr->state || !rr->mark || !rr->dead ||
	    !rr->cost || !rr->hops || !rr->dist || !rr->queue || !rr->out ||
	    !rr->disconnected_sw) {
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
	rank_switches(rr, f);
	rr->rank_use = rr->rank;
	return rr;
}

void dqr_reroute_free(struct dqr_reroute *rr)
{
	if (!rr)
		return;
	DQR_FREE_ALL(rr->rank, rr->end_off, rr->end_port, rr->comp, rr->st,
		     rr->stack, rr->state, rr->mark, rr->dead, rr->cost,
		     rr->hops, rr->dist, rr->queue, rr->out,
		     rr->disconnected_sw, rr->heap, rr->changes, rr);
}

/* ------------------------------------------------------------ heap */

static int cand_less(const struct cand *a, const struct cand *b)
{
	if (a->cost != b->cost)
		return a->cost < b->cost;
	/* deterministic ties: lower switch, then lower channel */
	if (a->sw != b->sw)
		return a->sw < b->sw;
	return a->ch < b->ch;
}

static int heap_push(struct dqr_reroute *rr, const struct cand *c)
{
	uint32_t i, parent;

	if (dqr_grow((void **)&rr->heap, &rr->heap_cap, rr->heap_len + 1,
		     sizeof(*rr->heap), 256))
		return -1;
	i = rr->heap_len++;
	while (i > 0) {
		parent = (i - 1) / 2;
		if (!cand_less(c, &rr->heap[parent]))
			break;
		rr->heap[i] = rr->heap[parent];
		i = parent;
	}
	rr->heap[i] = *c;
	return 0;
}

static struct cand heap_pop(struct dqr_reroute *rr)
{
	struct cand top = rr->heap[0], last = rr->heap[--rr->heap_len];
	uint32_t i = 0, child;

	for (;;) {
		child = 2 * i + 1;
		if (child >= rr->heap_len)
			break;
		if (child + 1 < rr->heap_len &&
		    cand_less(&rr->heap[child + 1], &rr->heap[child]))
			child++;
		if (!cand_less(&rr->heap[child], &last))
			break;
		rr->heap[i] = rr->heap[child];
		i = child;
	}
	if (rr->heap_len)
		rr->heap[i] = last;
	return top;
}

/* ------------------------------------------------------------ fabric */

/* Components of the switches over the links that work now. */
static void switch_components(struct dqr_reroute *rr,
			      const struct dqr_fabric *f)
{
	uint32_t sw, node, nb, a, b;
	unsigned p;

	for (sw = 0; sw < f->num_switches; sw++)
		rr->comp[sw] = sw;
	for (sw = 0; sw < f->num_switches; sw++) {
		node = f->switches[sw];
		dqr_for_each_linked_port(f, node, p) {
			nb = dqr_peer_switch(f, dqr_port_index(f, node, p));
			if (nb == DQR_NONE)
				continue;
			a = dqr_uf_root(rr->comp, sw);
			b = dqr_uf_root(rr->comp, nb);
			if (a != b)
				rr->comp[a] = b;
		}
	}
	for (sw = 0; sw < f->num_switches; sw++)
		rr->comp[sw] = dqr_uf_root(rr->comp, sw);
}

/*
 * Brings the channel list in line with the cabling: channels that lost
 * their link are retired, channels whose link is back are revived.  A
 * revival that would close a cycle leaves the channel retired and is
 * counted: the caller must then rebuild the list (see reroute.h).
 */
static void sync_channels(struct dqr_reroute *rr, const struct dqr_fabric *f,
			  struct dqr_dyn_order *cl,
			  struct dqr_reroute_stats *st)
{
	uint32_t i;

	rr->num_dead = 0;
	for (i = 0; i < f->num_ports && i < cl->num_vertices; i++) {
		int linked = dqr_peer_port(f, i) != DQR_NONE;

		if (cl->pos[i] == DQR_NONE)
			continue;
		if (!linked && dqr_is_switch(f, f->ports[i].node))
			rr->dead[rr->num_dead++] = i;
		if (!linked && !dqr_dyn_is_retired(cl, i))
			dqr_dyn_retire_channel(cl, i);
		else if (linked && dqr_dyn_is_retired(cl, i) &&
			 dqr_dyn_revive_channel(cl, i) < 0)
			st->revive_refused++;
	}
	dqr_dyn_commit(cl);
}

/* A channel the search may use: cabled and in service in the list. */
static int usable(const struct dqr_fabric *f, const struct dqr_dyn_order *cl,
		  uint32_t ch)
{
	return dqr_peer_port(f, ch) != DQR_NONE && ch < cl->num_vertices &&
	       cl->pos[ch] != DQR_NONE && !dqr_dyn_is_retired(cl, ch);
}

/* ------------------------------------------------------------ search */

static int sw_state(const struct dqr_reroute *rr, uint32_t sw)
{
	return rr->mark[sw] == rr->epoch ? rr->state[sw] : SW_OTHER;
}

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

		st = sw_state(rr, cur);
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

/* The dependencies that attaching sw through ch adds. */
static void candidate_deps(struct dqr_reroute *rr,
			   const struct dqr_dyn_order *cl, uint32_t sw,
			   uint32_t ch, uint32_t via, uint32_t owner)
{
	uint32_t i, e;

	rr->num_deps = 0;
	if (rr->out[via] != DQR_NONE) {
		rr->dep_a[rr->num_deps] = ch;
		rr->dep_b[rr->num_deps++] = rr->out[via];
	}
	for (i = rr->end_off[sw]; i < rr->end_off[sw + 1]; i++) {
		e = rr->end_port[i];
		/* a CA does not send to itself; a dead one sends nothing */
		if (e == owner || dqr_dyn_is_retired(cl, e))
			continue;
		rr->dep_a[rr->num_deps] = e;
		rr->dep_b[rr->num_deps++] = ch;
	}
}

/*
 * The turn cost of a candidate's dependencies, or UINT32_MAX when they
 * cannot be made legal.  DQR_TURNS_PATH tries them together on the live
 * list and rolls back: exact, but every refusal costs a search of the
 * region it would reorder.  DQR_TURNS_EACH judges each turn alone by its
 * place in the list as it stands (present, upward, or to be reordered)
 * in O(1): the search then runs once, when the candidate is chosen.
 * Either way commit_candidate() adds them together or not at all.
 */
static uint32_t turn_cost(struct dqr_reroute *rr, struct dqr_dyn_order *cl,
			  int turns)
{
	uint32_t i, cost = 0;
	size_t mark = 0;
	int r;

	if (turns == DQR_TURNS_PATH)
		mark = dqr_dyn_mark(cl);
	for (i = 0; i < rr->num_deps; i++) {
		uint32_t a = rr->dep_a[i], b = rr->dep_b[i];

		if (dqr_dyn_has_edge(cl, a, b))
			continue;
		if (turns == DQR_TURNS_PATH) {
			r = dqr_dyn_add(cl, a, b);
			if (r < 0) {
				cost = UINT32_MAX;
				break;
			}
			cost += r == DQR_DYN_REORDERED ? COST_REORDER :
				COST_NEW_TURN;
			continue;
		}
		cost += cl->pos[a] < cl->pos[b] ? COST_NEW_TURN :
			COST_REORDER;
	}
	if (turns == DQR_TURNS_PATH)
		dqr_dyn_rollback(cl, mark);
	return cost;
}

static int push_candidate(struct dqr_reroute *rr, const struct dqr_fabric *f,
			  const struct dqr_lfts *t, struct dqr_dyn_order *cl,
			  const struct dqr_reroute_opts *o, uint32_t lid,
			  uint32_t owner, uint32_t sw, uint32_t ch,
			  uint32_t via, struct dqr_reroute_stats *st)
{
	struct cand c;
	uint32_t turns;

	candidate_deps(rr, cl, sw, ch, via, owner);
	turns = o->outside_list ? 0 : turn_cost(rr, cl, o->turns);
	if (turns == UINT32_MAX) {
		st->refused++;
		return 0;
	}
	c.cost = rr->cost[via] + COST_HOP + turns;
	if (o->bias)
		c.cost += o->bias(o->bias_arg, f, t, sw, ch, lid);
	/* in the re-routing layer the VLs, not the list, hold U-turns */
	if (!o->outside_list && rr->out[via] != DQR_NONE &&
	    !hop_up(rr, sw, via) && !dqr_dyn_has_edge(cl, ch, rr->out[via])) {
		uint32_t next = dqr_peer_switch(f, rr->out[via]);

		if (next != DQR_NONE && hop_up(rr, via, next))
			c.cost += COST_UPDN_TURN;
	}
	if (ch != dqr_next_channel(f, t, sw, lid) &&
	    dqr_next_channel(f, t, sw, lid) != DQR_NONE)
		c.cost += o->mode == DQR_MODE_LOCAL ? COST_CHANGE_LOCAL :
			  COST_CHANGE_E2E;
	c.sw = sw;
	c.ch = ch;
	c.via = via;
	return heap_push(rr, &c);
}

/* Candidates for the disconnected switches cabled to a switch that reaches. */
static int relax(struct dqr_reroute *rr, const struct dqr_fabric *f,
		 const struct dqr_lfts *t, struct dqr_dyn_order *cl,
		 const struct dqr_reroute_opts *o, uint32_t lid,
		 uint32_t owner, uint32_t via, struct dqr_reroute_stats *st)
{
	uint32_t node = f->switches[via], r, sw;
	unsigned p;

	dqr_for_each_linked_port(f, node, p) {
		r = dqr_peer_port(f, dqr_port_index(f, node, p));
		sw = dqr_peer_switch(f, dqr_port_index(f, node, p));
		if (sw == DQR_NONE || sw_state(rr, sw) != SW_DISCONNECTED ||
		    !usable(f, cl, r))
			continue;
		if (push_candidate(rr, f, t, cl, o, lid, owner, sw, r, via,
				   st))
			return -1;
	}
	return 0;
}

/* Adds a chosen candidate's dependencies for good; 0 or -1 (refused). */
static int commit_candidate(struct dqr_reroute *rr, struct dqr_dyn_order *cl,
			    const struct cand *c, uint32_t owner,
			    struct dqr_reroute_stats *st)
{
	uint64_t reorders = cl->num_reorders, moved = cl->num_moved;
	uint32_t i, added = 0;
	size_t mark;

	candidate_deps(rr, cl, c->sw, c->ch, c->via, owner);
	mark = dqr_dyn_mark(cl);
	for (i = 0; i < rr->num_deps; i++) {
		if (dqr_dyn_has_edge(cl, rr->dep_a[i], rr->dep_b[i]))
			continue;
		if (dqr_dyn_add(cl, rr->dep_a[i], rr->dep_b[i]) < 0) {
			dqr_dyn_rollback(cl, mark);
			return -1;
		}
		added++;
	}
	dqr_dyn_commit(cl);
	st->turns += added;
	st->reorders += cl->num_reorders - reorders;
	st->moved += cl->num_moved - moved;
	return 0;
}

static uint8_t port_of(const struct dqr_fabric *f, uint32_t ch)
{
	return f->ports[ch].num;
}

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
		    sw_state(rr, sw) == SW_DISCONNECTED)
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
			    sw_state(rr, sw) == SW_DISCONNECTED)
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
			if (u == DQR_NONE || !usable(f, cl, r) ||
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

static int repair_dlid(struct dqr_reroute *rr, const struct dqr_fabric *f,
		       struct dqr_lfts *t, struct dqr_dyn_order *cl,
		       const struct dqr_reroute_opts *o, uint32_t lid,
		       struct dqr_reroute_stats *st)
{
	uint32_t owner = dqr_lid_owner(f, lid), own_sw, sw, i;
	uint8_t old;
	struct cand c;

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
	rr->heap_len = 0;
	if (o->stretch_on && own_sw != DQR_NONE)
		cable_distances(rr, f, cl, own_sw);
	if (own_sw != DQR_NONE)
		for (i = 0; i < rr->num_disconnected_sw; i++) {
			uint32_t node, ch, via;
			unsigned p;

			sw = rr->disconnected_sw[i];
			if (rr->comp[sw] != rr->comp[own_sw])
				continue;
			node = f->switches[sw];
			dqr_for_each_linked_port(f, node, p) {
				ch = dqr_port_index(f, node, p);
				via = dqr_peer_switch(f, ch);
				if (via == DQR_NONE ||
				    sw_state(rr, via) == SW_DISCONNECTED ||
				    !usable(f, cl, ch) ||
				    !good(rr, f, t, lid, owner, via))
					continue;
				if (push_candidate(rr, f, t, cl, o, lid, owner,
						   sw, ch, via, st))
					return -1;
			}
		}

	while (rr->heap_len) {
		c = heap_pop(rr);
		if (sw_state(rr, c.sw) != SW_DISCONNECTED)
			continue;
		if (too_long(rr, o, &c)) {
			st->stretched++;
			continue;
		}
		if (!o->outside_list &&
		    commit_candidate(rr, cl, &c, owner, st)) {
			st->refused++;
			continue;
		}
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
		if (relax(rr, f, t, cl, o, lid, owner, c.sw, st))
			return -1;
	}

	for (i = 0; i < rr->num_disconnected_sw; i++) {
		sw = rr->disconnected_sw[i];
		if (sw_state(rr, sw) == SW_SETTLED)
			continue;
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

int dqr_reroute_run(struct dqr_reroute *rr, const struct dqr_fabric *f,
		    struct dqr_lfts *t, struct dqr_dyn_order *cl,
		    const struct dqr_reroute_opts *o, const uint32_t *lids,
		    uint32_t nlids, struct dqr_reroute_stats *st)
{
	double t0 = dqr_now_ms();
	uint32_t i, lid;
	int ret = 0;

	memset(st, 0, sizeof(*st));
	rr->num_changes = 0;
	rr->rank_use = o->rank ? o->rank : rr->rank;
	sync_channels(rr, f, cl, st);
	switch_components(rr, f);
	if (o->plugin && o->plugin(o->plugin_arg, f, t, cl) < 0)
		ret = -1;
	if (!lids) {
		for (lid = 1; lid <= f->max_lid && !ret; lid++)
			ret = repair_dlid(rr, f, t, cl, o, lid, st);
	} else {
		for (i = 0; i < nlids && !ret; i++)
			ret = repair_dlid(rr, f, t, cl, o, lids[i], st);
	}
	st->us = (dqr_now_ms() - t0) * 1e3;
	return ret;
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
