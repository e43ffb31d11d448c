/*
 * reroute_cand.c - the candidates of the reroute's path search: what
 * attaching a disconnected switch through a channel costs, the order
 * they are tried in, and the commit of the chosen one to the channel
 * list.
 *
 * Most candidates never matter: a disconnected switch has a radix worth
 * of them and the first that comes to the top settles it.  So each
 * switch keeps its own in a list, and only its cheapest is in the heap
 * of switches: the candidates of a settled switch are never looked at
 * again, and the next cheapest of a switch is looked for only when the
 * one taken did not settle it.
 *
 * With turns=each, what the end ports at the switch add to the cost
 * (their injection dependencies into the channel, up to one per CA
 * asked of the list) is left out when a candidate is pushed, and added
 * when it comes to the top: its cost is then a lower bound, and it goes
 * back with its whole cost unless that is the same.  Only a candidate
 * whose whole cost is on top is tried, in the order (cost, switch,
 * channel), so the choices are those of costing every candidate when
 * pushed.  That needs the list as it was at the push: before a commit
 * changes the list, every candidate still waiting on a lower bound is
 * costed (flush()).
 */
#include "fabric/relay.h"
#include "reroute/reroute-internal.h"
#include "util/check.h"
#include "util/mem.h"

/* ------------------------------------------------------------ heap */

/*
 * Deterministic ties, whatever the model's numbering: the switch of lower
 * GUID, then the lower channel (a port of that switch: by number).
 */
static int top_less(const struct dqr_reroute *rr, const struct cand_top *a,
		    const struct cand_top *b)
{
	if (a->cost != b->cost)
		return a->cost < b->cost;
	if (a->sw != b->sw)
		return rr->guid_pos[a->sw] < rr->guid_pos[b->sw];
	return a->ch < b->ch;
}

/*
 * The heap of switches, keyed by (cost, switch, channel): deterministic
 * ties make the same fault give the same tables on every run.  0, or -1
 * when out of memory.
 */
static int heap_push(struct dqr_reroute *rr, const struct cand_top *c)
{
	uint32_t i, parent;

	if (dqr_grow((void **)&rr->heap, &rr->heap_cap, rr->heap_len + 1,
		     sizeof(*rr->heap), 256))
		return -1;
	i = rr->heap_len++;
	while (i > 0) {
		parent = (i - 1) / 2;
		if (!top_less(rr, c, &rr->heap[parent]))
			break;
		rr->heap[i] = rr->heap[parent];
		i = parent;
	}
	rr->heap[i] = *c;
	return 0;
}

/* Takes the cheapest switch entry off the heap (which is not empty). */
static struct cand_top heap_pop(struct dqr_reroute *rr)
{
	struct cand_top top = rr->heap[0], last = rr->heap[--rr->heap_len];
	uint32_t i = 0, child;

	for (;;) {
		child = 2 * i + 1;
		if (child >= rr->heap_len)
			break;
		if (child + 1 < rr->heap_len &&
		    top_less(rr, &rr->heap[child + 1], &rr->heap[child]))
			child++;
		if (!top_less(rr, &rr->heap[child], &last))
			break;
		rr->heap[i] = rr->heap[child];
		i = child;
	}
	if (rr->heap_len)
		rr->heap[i] = last;
	return top;
}

/* Puts sw's cheapest candidate (best[sw]) in the heap of switches. */
static int push_best(struct dqr_reroute *rr, uint32_t sw)
{
	const struct cand *c = &rr->pool[rr->best[sw]];
	struct cand_top e = {
		.cost = c->cost, .sw = sw, .ch = c->ch, .idx = rr->best[sw],
	};

	return heap_push(rr, &e);
}

/* The order of one switch's candidates: cost, then channel. */
static inline uint64_t cand_key(const struct cand *c)
{
	return (uint64_t)c->cost << 32 | c->ch;
}

/*
 * Adds c to its switch's list, and its heap entry when it is the
 * cheapest (once the first candidates are in, rr_cands_ready()).
 */
static int add_cand(struct dqr_reroute *rr, const struct cand *c)
{
	uint32_t idx = rr->pool_len;

	if (idx >= rr->pool_cap &&
	    dqr_grow((void **)&rr->pool, &rr->pool_cap, idx + 1,
		     sizeof(*rr->pool), 1024))
		return -1;
	rr->pool[idx] = *c;
	rr->pool[idx].next = rr->head[c->sw];
	rr->head[c->sw] = idx;
	rr->pool_len++;
	rr->lazy |= !c->exact;
	if (rr->best[c->sw] != DQR_NONE &&
	    cand_key(c) >= cand_key(&rr->pool[rr->best[c->sw]]))
		return 0;
	rr->best[c->sw] = idx;
	return rr->gathering ? 0 : push_best(rr, c->sw);
}

/* The cheapest of sw's list, or DQR_NONE. */
static uint32_t cheapest(const struct dqr_reroute *rr, uint32_t sw)
{
	uint32_t i, b = rr->head[sw];
	uint64_t k, kb;

	if (b == DQR_NONE)
		return b;
	kb = cand_key(&rr->pool[b]);
	for (i = rr->pool[b].next; i != DQR_NONE; i = rr->pool[i].next) {
		k = cand_key(&rr->pool[i]);
		if (k < kb) {
			kb = k;
			b = i;
		}
	}
	return b;
}

/*
 * Takes pool entry idx, sw's cheapest, out of sw's list.  Its next
 * cheapest is found only if it is needed: sw is then "pending", and
 * unless the candidate settles it, sw's heap entry comes back with
 * requeue().
 */
static void take(struct dqr_reroute *rr, uint32_t sw, uint32_t idx)
{
	uint32_t *p = &rr->head[sw];

	while (*p != idx)
		p = &rr->pool[*p].next;
	*p = rr->pool[idx].next;
	rr->best[sw] = DQR_NONE;
	rr->pending = sw;
}

/* The pending switch, when still disconnected, back in the heap. */
static int requeue(struct dqr_reroute *rr)
{
	uint32_t sw = rr->pending;

	rr->pending = DQR_NONE;
	if (sw == DQR_NONE || rr_sw_state(rr, sw) != SW_DISCONNECTED)
		return 0;
	rr->best[sw] = cheapest(rr, sw);
	return rr->best[sw] == DQR_NONE ? 0 : push_best(rr, sw);
}

void rr_cands_reset(struct dqr_reroute *rr, const struct rr_search *s)
{
	uint32_t i, sw, x;

	rr->pool_len = rr->heap_len = 0;
	rr->lazy = 0;
	rr->gathering = 1;
	rr->pending = DQR_NONE;
	for (i = 0; i < rr->num_disconnected_sw; i++) {
		sw = rr->disconnected_sw[i];
		rr->head[sw] = rr->best[sw] = DQR_NONE;
		/* the entry stays until sw is settled: no candidate then */
		rr->old_ch[sw] = dqr_next_channel(s->f, s->t, sw, s->lid);
		rr->old_in[sw] = DQR_NONE;
	}
	/* a disconnected switch's old channel leads to a disconnected one
	 * (or nowhere): only those take candidates */
	for (i = 0; i < rr->num_disconnected_sw; i++) {
		sw = rr->disconnected_sw[i];
		x = rr->old_ch[sw] == DQR_NONE ? DQR_NONE :
		    dqr_peer_switch(s->f, rr->old_ch[sw]);
		if (x == DQR_NONE || rr_sw_state(rr, x) != SW_DISCONNECTED)
			continue;
		rr->old_in_next[sw] = rr->old_in[x];
		rr->old_in[x] = sw;
	}
}

int rr_cands_ready(struct dqr_reroute *rr)
{
	uint32_t i, sw;

	rr->gathering = 0;
	for (i = 0; i < rr->num_disconnected_sw; i++) {
		sw = rr->disconnected_sw[i];
		if (rr->best[sw] != DQR_NONE && push_best(rr, sw))
			return -1;
	}
	return 0;
}

/* ------------------------------------------------------------ costs */

/*
 * The dependencies that attaching sw through ch adds: with_via, the one
 * into via's channel first; then those of the end ports at sw.
 */
static void candidate_deps(struct dqr_reroute *rr,
			   const struct dqr_dyn_order *cl, uint32_t sw,
			   uint32_t ch, uint32_t via, uint32_t owner,
			   int with_via)
{
	uint32_t i, e;

	rr->num_deps = 0;
	if (with_via && rr->out[via] != DQR_NONE) {
		rr->dep_a[rr->num_deps] = ch;
		rr->dep_b[rr->num_deps++] = rr->out[via];
	}
	rr->dep_ch = ch;
	rr->ends_from = rr->num_deps;
	rr->owner_skipped = 0;
	rr->dep_owner = owner;
	/* all of them present already: nothing to ask the list */
	if (rr->ends_ok[ch] == rr->ends_gen)
		return;
	for (i = rr->end_off[sw]; i < rr->end_off[sw + 1]; i++) {
		e = rr->end_port[i];
		rr->owner_skipped |= e == owner;
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
 * Either way rr_commit_candidate() adds them together or not at all.
 */
static uint32_t turn_cost(struct dqr_reroute *rr, struct dqr_dyn_order *cl,
			  int turns)
{
	uint32_t i, cost = 0, ends_missing = 0;
	size_t mark = dqr_dyn_mark(cl);
	struct dqr_dyn_fingerprint before = dqr_dyn_fingerprint(cl);
	int r;

	rr->via_dep_present = 0;
	for (i = 0; i < rr->num_deps; i++) {
		uint32_t a = rr->dep_a[i], b = rr->dep_b[i];

		if (dqr_dyn_has_edge(cl, a, b)) {
			rr->via_dep_present |= i == 0;
			continue;
		}
		ends_missing += i >= rr->ends_from;
		if (turns == DQR_TURNS_PATH) {
			r = dqr_dyn_add(cl, a, b);
			if (r < 0) {
				cost = UINT32_MAX;
				break;
			}
			cost += r == DQR_DYN_REORDERED ? rr->cost_reorder :
				COST_NEW_TURN;
			continue;
		}
		cost += cl->pos[a] < cl->pos[b] ? COST_NEW_TURN :
			rr->cost_reorder;
	}
	if (turns == DQR_TURNS_PATH)
		dqr_dyn_rollback(cl, mark);
	/* costing only asks: the list is as it was */
	DQR_CHECK(dqr_dyn_same(cl, &before));
	/* every end port's dependency is there, and committed */
	if (!ends_missing && !mark && cost != UINT32_MAX &&
	    (!rr->owner_skipped ||
	     dqr_dyn_has_edge(cl, rr->dep_owner, rr->dep_ch)))
		rr->ends_ok[rr->dep_ch] = rr->ends_gen;
	return cost;
}

/*
 * The cost that depends on the list: the turns of c's dependencies and
 * a new down-then-up turn; UINT32_MAX when they cannot be made legal.
 */
static uint32_t list_cost(struct dqr_reroute *rr, const struct rr_search *s,
			  const struct cand *c)
{
	uint32_t turns, next;

	candidate_deps(rr, s->cl, c->sw, c->ch, c->via, s->owner, 1);
	turns = turn_cost(rr, s->cl, s->o->turns);
	if (turns == UINT32_MAX)
		return turns;
	if (rr->out[c->via] != DQR_NONE && !rr_hop_up(rr, c->sw, c->via) &&
	    !rr->via_dep_present) {
		next = dqr_peer_switch(s->f, rr->out[c->via]);
		if (next != DQR_NONE && rr_hop_up(rr, c->via, next))
			turns += COST_UPDN_TURN;
	}
	return turns;
}

/*
 * turns=each, at the push: the turn into via's channel and a new
 * down-then-up turn.  What the end ports at sw add waits (ends_cost()).
 */
static uint32_t via_cost(struct dqr_reroute *rr, const struct rr_search *s,
			 const struct cand *c)
{
	const struct dqr_dyn_order *cl = s->cl;
	uint32_t out = rr->out[c->via], next;

	if (out == DQR_NONE || dqr_dyn_has_edge(cl, c->ch, out))
		return 0;
	next = rr_hop_up(rr, c->sw, c->via) ? DQR_NONE :
	       dqr_peer_switch(s->f, out);
	return (cl->pos[c->ch] < cl->pos[out] ? COST_NEW_TURN :
		rr->cost_reorder) +
	       (next != DQR_NONE && rr_hop_up(rr, c->via, next) ?
		COST_UPDN_TURN : 0);
}

/*
 * The turns that packets of the old and new entries take through each
 * other until every switch holds its new one, when c is taken: one that
 * came from a neighbour whose old route led to sw leaves by c->ch, and
 * one that sw sends into via leaves by via's old channel while via, a
 * switch this search re-attached too, still holds it (relay.h says which
 * hops are made).  DQR's own turns (candidate_deps()) are those of the
 * new routes alone; the transition's proof (transition.h) judges these
 * too, and where one closes a cycle the first upload waits a drain.
 * None when the topology has the search ignore them (ignore_flight).
 */
static void flight_turns(struct dqr_reroute *rr, const struct rr_search *s,
			 const struct cand *c)
{
	const struct dqr_fabric *f = s->f;
	uint32_t y, in, old;

	rr->num_flight = 0;
	if (s->o->ignore_flight)
		return;
	for (y = rr->old_in[c->sw]; y != DQR_NONE; y = rr->old_in_next[y]) {
		in = rr->old_ch[y];
		if (!dqr_relays(f, in, c->ch))
			continue;
		rr->flight_a[rr->num_flight] = in;
		rr->flight_b[rr->num_flight++] = c->ch;
	}
	old = rr_sw_state(rr, c->via) == SW_SETTLED ? rr->old_ch[c->via] :
	      DQR_NONE;
	if (old != DQR_NONE && old != rr->out[c->via] &&
	    dqr_relays(f, c->ch, old) && rr_usable(f, s->cl, old)) {
		rr->flight_a[rr->num_flight] = c->ch;
		rr->flight_b[rr->num_flight++] = old;
	}
	DQR_CHECK(rr->num_flight <= DQR_MAX_PORTS + 1);
}

/*
 * What c's turns of packets in flight cost: one the list refuses makes
 * the plan wait a drain (COST_FLIGHT_REFUSED); the others cost as DQR's
 * own turns do, a reorder at its plain price (the room it spends is a
 * drain saved).  turns=path asks the list; turns=each, in O(1) as its
 * own turns, takes a turn that points down the list as refused (on the
 * meshes' lists it mostly is, and asking is a search of the region).
 */
static uint32_t flight_cost(struct dqr_reroute *rr, const struct rr_search *s,
			    const struct cand *c)
{
	uint32_t i, a, b, cost = 0;
	int r;

	flight_turns(rr, s, c);
	for (i = 0; i < rr->num_flight; i++) {
		a = rr->flight_a[i];
		b = rr->flight_b[i];
		if (dqr_dyn_has_edge(s->cl, a, b))
			continue;
		if (s->o->turns == DQR_TURNS_PATH)
			r = dqr_dyn_check(s->cl, a, b, NULL);
		else
			r = s->cl->pos[a] < s->cl->pos[b] ? DQR_DYN_LEGAL :
			    DQR_DYN_REFUSED;
		cost += r == DQR_DYN_REFUSED ? COST_FLIGHT_REFUSED :
			r == DQR_DYN_NEEDS_REORDER ? COST_REORDER :
			COST_NEW_TURN;
	}
	return cost;
}

/* turns=each: what the end ports at sw add, when the list is asked. */
static uint32_t ends_cost(struct dqr_reroute *rr, const struct rr_search *s,
			  const struct cand *c)
{
	candidate_deps(rr, s->cl, c->sw, c->ch, c->via, s->owner, 0);
	return turn_cost(rr, s->cl, DQR_TURNS_EACH);
}

/*
 * Costs the candidates left on a lower bound, for the list as it is;
 * the heap of switches is then built again.  -1 when out of memory.
 */
static int flush(struct dqr_reroute *rr, const struct rr_search *s)
{
	uint32_t i, k, sw;
	struct cand *c;

	if (!rr->lazy)
		return 0;
	rr->lazy = 0;
	rr->heap_len = 0;
	for (i = 0; i < rr->num_disconnected_sw; i++) {
		sw = rr->disconnected_sw[i];
		/* settled ones would only be passed over */
		if (rr_sw_state(rr, sw) != SW_DISCONNECTED)
			continue;
		for (k = rr->head[sw]; k != DQR_NONE; k = c->next) {
			c = &rr->pool[k];
			if (c->exact)
				continue;
			c->cost += ends_cost(rr, s, c);
			c->exact = 1;
		}
		rr->best[sw] = cheapest(rr, sw);
		if (rr->best[sw] != DQR_NONE && push_best(rr, sw))
			return -1;
	}
	/* every disconnected switch is in the heap again */
	rr->pending = DQR_NONE;
	return 0;
}

/*
 * The next candidate to try, the cheapest of a disconnected switch with
 * its whole cost, into *c: 1, or 0 when there is none, -1 when out of
 * memory.
 */
int rr_next_candidate(struct dqr_reroute *rr, const struct rr_search *s,
		      struct cand *c)
{
	struct cand_top e;
	uint32_t more;

	if (requeue(rr))
		return -1;
	while (rr->heap_len) {
		e = heap_pop(rr);
		if (rr_sw_state(rr, e.sw) != SW_DISCONNECTED ||
		    rr->best[e.sw] != e.idx)
			continue;
		*c = rr->pool[e.idx];
		more = c->exact ? 0 : ends_cost(rr, s, c);
		take(rr, e.sw, e.idx);
		c->exact = 1;
		/* still the cheapest when the end ports add nothing */
		if (!more)
			return 1;
		c->cost += more;
		if (add_cand(rr, c) || requeue(rr))
			return -1;
	}
	return 0;
}

int rr_push_candidate(struct dqr_reroute *rr, const struct rr_search *s,
		      uint32_t sw, uint32_t ch, uint32_t via)
{
	const struct dqr_reroute_opts *o = s->o;
	uint32_t old_ch = rr->old_ch[sw];
	struct cand c;
	uint32_t turns = 0;

	c.sw = sw;
	c.ch = ch;
	c.via = via;
	c.exact = 1;
	/* in the re-routing layer the VLs, not the list, hold U-turns */
	if (o->outside_list) {
		turns = 0;
	} else if (o->turns == DQR_TURNS_PATH) {
		turns = list_cost(rr, s, &c);
		if (turns == UINT32_MAX) {
			s->st->refused++;
			return 0;
		}
	} else {
		/* the end ports' part waits (see the top) */
		turns = via_cost(rr, s, &c);
		c.exact = rr->ends_ok[ch] == rr->ends_gen ||
			  rr->end_off[sw] == rr->end_off[sw + 1];
	}
	if (!o->outside_list)
		turns += flight_cost(rr, s, &c);
	c.cost = rr->cost[via] + COST_HOP + turns;
	if (o->bias)
		c.cost += o->bias(o->bias_arg, s->f, s->t, sw, ch, s->lid);
	if (ch != old_ch && old_ch != DQR_NONE)
		c.cost += o->mode == DQR_MODE_LOCAL ? COST_CHANGE_LOCAL :
			  COST_CHANGE_E2E;
	return add_cand(rr, &c);
}

/* Candidates for the disconnected switches cabled to a switch that reaches. */
int rr_relax(struct dqr_reroute *rr, const struct rr_search *s,
	     uint32_t via)
{
	const struct dqr_fabric *f = s->f;
	uint32_t node = f->switches[via], r, sw;
	unsigned p;

	dqr_for_each_linked_port(f, node, p) {
		r = dqr_peer_port(f, dqr_port_index(f, node, p));
		sw = dqr_peer_switch(f, dqr_port_index(f, node, p));
		if (sw == DQR_NONE || rr_sw_state(rr, sw) != SW_DISCONNECTED ||
		    !rr_usable(f, s->cl, r))
			continue;
		if (rr_push_candidate(rr, s, sw, r, via))
			return -1;
	}
	return 0;
}

/* 1 when the DLID's owner is one of the end ports cabled to sw. */
static int owner_at(const struct dqr_reroute *rr, uint32_t sw,
		    uint32_t owner)
{
	uint32_t i;

	for (i = rr->end_off[sw]; i < rr->end_off[sw + 1]; i++)
		if (rr->end_port[i] == owner)
			return 1;
	return 0;
}

/* 1 when a dependency of the candidate in rr->dep_* is not in the list. */
static int deps_missing(const struct dqr_reroute *rr,
			const struct dqr_dyn_order *cl)
{
	uint32_t i;

	for (i = 0; i < rr->num_deps; i++)
		if (!dqr_dyn_has_edge(cl, rr->dep_a[i], rr->dep_b[i]))
			return 1;
	return 0;
}

/*
 * Adds a chosen candidate's dependencies for good: 0, -1 (refused) or
 * -2 (out of memory).
 */
int rr_commit_candidate(struct dqr_reroute *rr, const struct rr_search *s,
			const struct cand *c)
{
	struct dqr_dyn_order *cl = s->cl;
	uint64_t reorders = cl->num_reorders, moved = cl->num_moved;
	struct dqr_dyn_fingerprint before;
	uint32_t i, added = 0;
	size_t mark;
	int r;

	candidate_deps(rr, cl, c->sw, c->ch, c->via, s->owner, 1);
	if (rr->lazy && deps_missing(rr, cl)) {
		/* the list is about to change: cost the waiting ones first */
		if (flush(rr, s))
			return -2;
		candidate_deps(rr, cl, c->sw, c->ch, c->via, s->owner, 1);
	}
	mark = dqr_dyn_mark(cl);
	before = dqr_dyn_fingerprint(cl);
	for (i = 0; i < rr->num_deps; i++) {
		if (dqr_dyn_has_edge(cl, rr->dep_a[i], rr->dep_b[i]))
			continue;
		r = dqr_dyn_add(cl, rr->dep_a[i], rr->dep_b[i]);
		if (r < 0) {
			dqr_dyn_rollback(cl, mark);
			/* all or nothing: refused, the list is as it was */
			DQR_CHECK(dqr_dyn_same(cl, &before));
			/* a list that cannot grow refuses nothing */
			return r == DQR_DYN_ENOMEM ? -2 : -1;
		}
		added++;
	}
	/*
	 * The turns of packets in flight that point up the list go in: the
	 * next reroute must not close a cycle with them.  One that points
	 * down is left to the plan's proof, which reorders where it can:
	 * reordering for it here cost the fat trees' reroutes a third more
	 * at p90 for a few pairs on meshes.
	 */
	flight_turns(rr, s, c);
	for (i = 0; i < rr->num_flight; i++) {
		uint32_t a = rr->flight_a[i], b = rr->flight_b[i];

		if (dqr_dyn_has_edge(cl, a, b))
			continue;
		if (cl->pos[a] > cl->pos[b]) {
			s->st->flight_down++;
			continue;
		}
		r = dqr_dyn_add(cl, a, b);
		if (r == DQR_DYN_ENOMEM) {
			dqr_dyn_rollback(cl, mark);
			return -2;
		}
		if (r < 0)
			s->st->flight_down++;
		else
			added++;
	}
	dqr_dyn_commit(cl);
	if (!owner_at(rr, c->sw, s->owner) ||
	    dqr_dyn_has_edge(cl, s->owner, c->ch))
		rr->ends_ok[c->ch] = rr->ends_gen;
	s->st->turns += added;
	s->st->reorders += cl->num_reorders - reorders;
	s->st->moved += cl->num_moved - moved;
	return 0;
}
