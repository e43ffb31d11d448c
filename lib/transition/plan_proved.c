/*
 * plan_proved.c - a plan made and proved in time proportional to the
 * change (transition.h: dqr_plan_proved).
 *
 * The old tables are loop free and their dependencies respect DQR's
 * channel list (the caller's promise).  Per destination the change goes
 * up in one stage where that proves, else by its order: a switch changes
 * one stage after the last changed switch downstream on its new route
 * (level 1 when none), so its new route already forwards when it takes
 * it.  Stage k is every entry of level k.
 *
 * Each stage's union with the state before is judged where it can
 * differ from the old tables: a loop passes a changed entry, so a
 * depth-first search from the stage's switches over both entries finds
 * it; a new dependency has a changed entry at one of its hops, and when
 * every such dependency fits the channel list (below), the union's
 * dependencies have a topological order and are acyclic.  A stage needs
 * no drain when the union since the last drain does not loop and its
 * dependencies, in time order, fit too (doc/transitions.md), else waits.
 *
 * A dependency is judged by putting it into the list itself, which
 * reorders where that closes no cycle (dyn_order.h): the list must hold
 * whatever may be in use until packets drain anyway, and the next
 * reroute must not close a cycle with it.  One that closes a cycle with
 * what the list holds fails the proof (the list holds more than the
 * tables use, so that proves nothing about the change): the additions
 * are rolled back and the full planner decides.
 *
 * On virtual layers (dqr_plan_proved_vlayers) a packet keeps its source's
 * layer, so a dependency goes in once per layer of the packets that may
 * take it.  For each stage union (and each window since a drain), per
 * DLID, a switch gets the layers of the sources that reach it over the
 * entries those states may use; the union may loop where its states do
 * not, so the masks grow to a fixpoint (a switch is queued again only
 * when its mask grows: at most layers + 1 times).  A mask can grow where
 * no entry changed, so hop pairs without a changed entry count too
 * downstream of the changes; the list holds the new tables' own, so the
 * rest of the fabric needs no look (layer_pairs_fit).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "transition/transition-internal.h"
#include "util/timing.h"

struct proof {
	const struct dqr_fabric *f;
	const struct dqr_lfts *from, *to;
	struct dqr_dyn_order *cl;
	int nomem;			/* an addition ran out of memory */
	/* the states judged: entries of level <= lo are new, > hi old,
	 * between them either; timed: in time order (drains) */
	uint32_t lo, hi;
	int timed;
	uint32_t *level;		/* per switch, this DLID; NONE: same */
	struct dqr_loop_search loops;
	uint32_t *stack;
	uint32_t *saved;		/* one DLID's levels while trying one */
	uint8_t *next;
	/* layers: per switch, the layers reaching it in the states judged,
	 * valid where ustamp or rstamp is mgen (layer_pairs_fit) */
	const struct dqr_plan_vlayers *lay;
	uint8_t *mask;
	uint32_t *ustamp, *rstamp, mgen;
	/* the switches upstream of the changes, and downstream */
	uint32_t *ulist, *rlist;
	int bad_layer;			/* layer() beyond num_layers */
	/* what stopped the proof: a loop at (sw, lid), else a -> b */
	uint32_t fail_sw, fail_lid, fail_a, fail_b;
};

static uint8_t old_port(const struct proof *o, uint32_t sw, uint32_t lid)
{
	return dqr_lft_get(o->from, sw, lid);
}

static uint8_t new_port(const struct proof *o, uint32_t sw, uint32_t lid)
{
	return dqr_lft_get(o->to, sw, lid);
}

/*
 * The ports sw may forward lid by in the states judged, into q (old
 * first, new[k] set for the new one); how many.
 */
static unsigned ports(const struct proof *o, uint32_t sw, uint32_t lid,
		      uint8_t q[2], int is_new[2])
{
	uint32_t l = o->level[sw];

	if (l == DQR_NONE || l > o->hi) {
		q[0] = old_port(o, sw, lid);
		is_new[0] = 0;
		return 1;
	}
	if (l <= o->lo) {
		q[0] = new_port(o, sw, lid);
		is_new[0] = 1;
		return 1;
	}
	q[0] = old_port(o, sw, lid);
	q[1] = new_port(o, sw, lid);
	is_new[0] = 0;
	is_new[1] = 1;
	return 2;
}

/* union_loops.h's view of the states judged */
static unsigned proof_entries(const void *ctx, uint32_t sw, uint32_t lid,
			      uint8_t q[2])
{
	int is_new[2];

	return ports(ctx, sw, lid, q, is_new);
}

/*
 * 1 when the union towards lid loops through sw, as the switch model
 * lets a packet go (routes/union_loops.h).  What this level's search
 * finished leads nowhere back.
 */
static int loops_from(struct proof *o, uint32_t sw, uint32_t lid)
{
	uint32_t len;

	return dqr_union_loop_from(&o->loops, o->f, proof_entries, o, lid, sw,
				   NULL, 0, &len);
}

/*
 * Puts a -> b into the list, reordering it where needed: 1 when the
 * list stays acyclic with it, 0 when it would close a cycle (or no
 * memory: nomem says which).
 */
static int into_list(struct proof *o, uint32_t a, uint32_t b)
{
	int r = dqr_dyn_add(o->cl, a, b);

	if (r == DQR_DYN_ENOMEM)
		o->nomem = 1;
	o->fail_a = a;
	o->fail_b = b;
	return r >= 0;
}

/* a -> b into the list in every layer of m (one layer: as it is). */
static int into_layers(struct proof *o, uint8_t m, uint32_t a, uint32_t b)
{
	uint32_t p = o->f->num_ports;
	unsigned l;

	if (!o->lay)
		return into_list(o, a, b);
	for (l = 0; m; l++, m >>= 1)
		if ((m & 1) && !into_list(o, l * p + a, l * p + b))
			return 0;
	return 1;
}

/*
 * The layers of switch sw's packets for this DLID (one layer: bit 0).
 * Known for the switches upstream of the changes and downstream of them;
 * any other would be a bug, answered with every layer (the safe side).
 */
static uint8_t sw_mask(const struct proof *o, uint32_t sw)
{
	if (!o->lay)
		return 1;
	if (o->ustamp[sw] != o->mgen && o->rstamp[sw] != o->mgen)
		return (uint8_t)((1u << o->lay->num_layers) - 1);
	return o->mask[sw];
}

/* The layer of a source port's packets towards lid, as a mask. */
static uint8_t src_mask(struct proof *o, uint32_t port, uint32_t lid)
{
	unsigned l;

	if (!o->lay)
		return 1;
	l = o->lay->layer(o->lay->ctx, port, lid);
	if (l == DQR_PLAN_UNJUDGED)
		return 0;
	if (l >= o->lay->num_layers) {
		o->bad_layer = 1;
		return 0;
	}
	return (uint8_t)(1u << l);
}

/* 1 when an end port's LIDs hold lid: it does not send there. */
static int own_lid(const struct dqr_port *p, uint32_t lid)
{
	return p->base_lid && lid >= p->base_lid &&
	       lid < p->base_lid + (1u << p->lmc);
}

/* 1 when time forbids the turn from sw's new entry into nx's old one:
 * nx changed earlier, so a packet sw's new entry sends meets its new. */
static int too_late(const struct proof *o, uint32_t sw, uint32_t nx)
{
	uint32_t a = o->level[sw], b = o->level[nx];

	return o->timed && a != DQR_NONE && b != DQR_NONE && b < a;
}

/*
 * The dependencies with e's new channel at one hop, in the states
 * judged, into the list: every channel that may bring a packet for
 * e->lid into e's switch followed by the new channel, and the new
 * channel followed by every entry of the next switch.  0 when one of
 * them closes a cycle with what the list holds.
 */
static int deps_fit(struct proof *o, const struct dqr_plan_entry *e)
{
	const struct dqr_fabric *f = o->f;
	uint32_t node = f->switches[e->sw], c_new, in, peer, t, c;
	unsigned pn, k, n;
	uint8_t q[2];
	int nw[2];

	c_new = dqr_next_channel(f, o->to, e->sw, e->lid);
	if (c_new == DQR_NONE)
		return 1;	/* delivered here, or a hole: no dependency */
	dqr_for_each_linked_port(f, node, pn) {
		in = dqr_peer_port(f, dqr_port_index(f, node, pn));
		peer = f->ports[in].node;
		if (!dqr_is_switch(f, peer)) {
			if (!own_lid(&f->ports[in], e->lid) &&
			    !into_layers(o, src_mask(o, in, e->lid), in,
					 c_new))
				return 0;
			continue;
		}
		/* nothing leaves the way it came (fabric/relay.h) */
		if (!dqr_relays(f, in, c_new))
			continue;
		t = f->nodes[peer].sw_index;
		n = ports(o, t, e->lid, q, nw);
		for (k = 0; k < n; k++)
			if (q[k] == f->ports[in].num &&
			    !into_layers(o, sw_mask(o, t), in, c_new))
				return 0;
	}
	t = dqr_peer_switch(f, c_new);
	if (t == DQR_NONE)
		return 1;
	n = ports(o, t, e->lid, q, nw);
	for (k = 0; k < n; k++) {
		c = out_ch(f, t, q[k]);
		if (!dqr_relays(f, c_new, c) ||
		    (!nw[k] && n == 2 && too_late(o, e->sw, t)))
			continue;
		if (!into_layers(o, sw_mask(o, e->sw), c_new, c))
			return 0;
	}
	return 1;
}

static int entry_cmp(const void *pa, const void *pb)
{
	const struct dqr_plan_entry *a = pa, *b = pb;

	if (a->lid != b->lid)
		return a->lid < b->lid ? -1 : 1;
	return a->sw < b->sw ? -1 : a->sw > b->sw;
}

/*
 * The caller's list sorted LID-major, each entry once, with the ports
 * the tables hold (an entry that does not differ is dropped).
 */
static uint32_t tidy_changes(const struct proof *o, struct dqr_plan_entry *e,
			     uint32_t n)
{
	uint32_t i, m = 0;

	if (n)
		qsort(e, n, sizeof(*e), entry_cmp);
	for (i = 0; i < n; i++) {
		if (m && e[i].sw == e[m - 1].sw && e[i].lid == e[m - 1].lid)
			continue;
		e[m] = e[i];
		e[m].old_port = old_port(o, e[i].sw, e[i].lid);
		e[m].new_port = new_port(o, e[i].sw, e[i].lid);
		m += e[m].old_port != e[m].new_port;
	}
	return m;
}

/* Every entry where from and to differ, LID-major; -1 when no memory. */
static int64_t list_changes(const struct dqr_fabric *f,
			    const struct dqr_lfts *from,
			    const struct dqr_lfts *to,
			    struct dqr_plan_entry **out)
{
	struct dqr_plan_entry *e = NULL;
	uint32_t lc, sw, lid, cap = 0;
	size_t n = 0;
	uint8_t a, b;

	lc = from->lid_count > to->lid_count ? from->lid_count : to->lid_count;
	for (sw = 0; sw < f->num_switches; sw++) {
		if (from->lid_count == to->lid_count &&
		    !memcmp(dqr_lft_row(from, sw), dqr_lft_row(to, sw), lc))
			continue;
		for (lid = 0; lid < lc; lid++) {
			a = dqr_lft_get(from, sw, lid);
			b = dqr_lft_get(to, sw, lid);
			if (a == b)
				continue;
			if (dqr_grow((void **)&e, &cap, n + 1, sizeof(*e),
				     256)) {
				free(e);
				return -1;
			}
			e[n++] = (struct dqr_plan_entry){ .sw = sw, .lid = lid,
				.old_port = a, .new_port = b };
		}
	}
	*out = e;
	return (int64_t)n;
}

/* o->level of the DLID's switches, e[lo .. hi) (levels in lv), or out. */
static void levels_set(struct proof *o, const struct dqr_plan_entry *e,
		       const uint32_t *lv, uint32_t lo, uint32_t hi, int set)
{
	uint32_t i;

	for (i = lo; i < hi; i++)
		o->level[e[i].sw] = set ? lv[i] : DQR_NONE;
}

/*
 * The levels of one DLID's entries e[lo .. hi) into lv: one more than
 * the next changed switch on the new route.  -1 when the new route
 * loops (the planner will say so).
 */
static int levels_of(struct proof *o, const struct dqr_plan_entry *e,
		     uint32_t *lv, uint32_t lo, uint32_t hi)
{
	uint32_t i, top, s, t, steps, lid = e[lo].lid;

	for (i = lo; i < hi; i++)
		o->level[e[i].sw] = 0;	/* changed, not yet known */
	for (i = lo; i < hi; i++) {
		top = 0;
		s = e[i].sw;
		while (o->level[s] == 0) {
			o->stack[top++] = s;
			t = dqr_next_switch(o->f, o->to, s, lid);
			for (steps = 0; t != DQR_NONE &&
			     o->level[t] == DQR_NONE; steps++) {
				if (steps > o->f->num_switches)
					return -1;
				t = dqr_next_switch(o->f, o->to, t, lid);
			}
			if (t == DQR_NONE) {
				o->level[s] = 1;
				break;
			}
			if (top > o->f->num_switches)
				return -1;
			s = t;
		}
		/* unwind: each stacked switch one above the next */
		while (top) {
			s = o->stack[--top];
			if (o->level[s])
				continue;
			t = dqr_next_switch(o->f, o->to, s, lid);
			while (o->level[t] == DQR_NONE)
				t = dqr_next_switch(o->f, o->to, t, lid);
			o->level[s] = o->level[t] + 1;
		}
	}
	for (i = lo; i < hi; i++)
		lv[i] = o->level[e[i].sw];
	levels_set(o, e, lv, lo, hi, 0);
	return 0;
}

/* The end of the DLID whose entries start at e[i]. */
static uint32_t dlid_end(const struct dqr_plan_entry *e, uint32_t n,
			 uint32_t i)
{
	uint32_t j = i + 1;

	while (j < n && e[j].lid == e[i].lid)
		j++;
	return j;
}

/* 1 when switch sw may use its old entry in the states judged. */
static int may_use_old(const struct proof *o, uint32_t sw)
{
	return o->level[sw] != DQR_NONE && o->level[sw] > o->lo;
}

/* A new visit of one DLID's union: no switch stamped. */
static void union_visit_begin(struct proof *o)
{
	size_t ns = o->f->num_switches + 1;

	if (++o->mgen)
		return;
	memset(o->ustamp, 0, ns * sizeof(uint32_t));
	memset(o->rstamp, 0, ns * sizeof(uint32_t));
	o->mgen = 1;
}

/* 1 when some entry sw may use in the states judged leads to switch x. */
static int union_leads_to(struct proof *o, uint32_t sw, uint32_t lid,
			  uint32_t x)
{
	uint32_t c;
	uint8_t q[2];
	int nw[2];
	unsigned k, n = ports(o, sw, lid, q, nw);

	for (k = 0; k < n; k++) {
		c = out_ch(o->f, sw, q[k]);
		if (c != DQR_NONE && dqr_peer_switch(o->f, c) == x)
			return 1;
	}
	return 0;
}

/*
 * The masks of list[0 .. n) grown along the union to a fixpoint, into
 * the switches upstream of the changes (upstream 1) or the others (0).
 * o->stack is a ring queue where a switch sits once at a time, o->next
 * marks it; a switch comes back only when its mask grows: at most
 * layers + 1 times.
 */
static void grow_masks(struct proof *o, uint32_t lid, const uint32_t *list,
		       uint32_t n, int upstream)
{
	const struct dqr_fabric *f = o->f;
	uint32_t i, y, w, c, head = 0, len;
	uint8_t q[2];
	int nw[2];
	unsigned k, np;

	for (i = 0; i < n; i++) {
		o->stack[i] = list[i];
		o->next[list[i]] = 1;
	}
	for (len = n; len; len--) {
		y = o->stack[head];
		head = head + 1 == n ? 0 : head + 1;
		o->next[y] = 0;
		np = ports(o, y, lid, q, nw);
		for (k = 0; k < np; k++) {
			c = out_ch(f, y, q[k]);
			w = c == DQR_NONE ? DQR_NONE : dqr_peer_switch(f, c);
			if (w == DQR_NONE ||
			    (o->ustamp[w] == o->mgen) != upstream ||
			    !(o->mask[y] & ~o->mask[w]))
				continue;
			o->mask[w] |= o->mask[y];
			if (!o->next[w]) {
				o->next[w] = 1;
				o->stack[(head + len - 1) % n] = w;
				len++;
			}
		}
	}
}

/*
 * The switches upstream of the changed ones in the union (them
 * included), into o->ulist, stamped; how many.  Whatever may reach a
 * changed switch is there, so the masks there are exact: every switch
 * starts with its own sources and they grow along the union.
 */
static uint32_t upstream_masks(struct proof *o, const struct dqr_plan_entry *e,
			       uint32_t a, uint32_t b)
{
	const struct dqr_fabric *f = o->f;
	uint32_t lid = e[a].lid, nu = 0, i, y, w, c, node;
	unsigned pn;

	for (i = a; i < b; i++)
		if (may_use_old(o, e[i].sw) && o->ustamp[e[i].sw] != o->mgen) {
			o->ustamp[e[i].sw] = o->mgen;
			o->ulist[nu++] = e[i].sw;
		}
	for (i = 0; i < nu; i++) {
		node = f->switches[o->ulist[i]];
		dqr_for_each_linked_port(f, node, pn) {
			w = dqr_peer_switch(f, dqr_port_index(f, node, pn));
			if (w == DQR_NONE || o->ustamp[w] == o->mgen ||
			    !union_leads_to(o, w, lid, o->ulist[i]))
				continue;
			o->ustamp[w] = o->mgen;
			o->ulist[nu++] = w;
		}
	}
	for (i = 0; i < nu; i++) {
		y = o->ulist[i];
		node = f->switches[y];
		c = dqr_port_index(f, node, 0);
		o->mask[y] = own_lid(&f->ports[c], lid) ? 0 :
			     src_mask(o, c, lid);
		dqr_for_each_end_port(f, node, pn) {
			c = dqr_peer_port(f, dqr_port_index(f, node, pn));
			if (!own_lid(&f->ports[c], lid))
				o->mask[y] |= src_mask(o, c, lid);
		}
	}
	grow_masks(o, lid, o->ulist, nu, 1);
	return nu;
}

/*
 * The switches downstream of the changed ones in the union (them
 * included), into o->rlist, stamped; how many.  Outside the upstream
 * part a mask holds only the layers arriving from the changed switches:
 * any other layer there reaches the switch by entries of the new tables
 * alone, whose hop pairs the list holds.
 */
static uint32_t downstream_masks(struct proof *o,
				 const struct dqr_plan_entry *e, uint32_t a,
				 uint32_t b)
{
	const struct dqr_fabric *f = o->f;
	uint32_t lid = e[a].lid, nr = 0, i, w, c;
	uint8_t q[2];
	int nw[2];
	unsigned k, n;

	for (i = a; i < b; i++)
		if (may_use_old(o, e[i].sw) && o->rstamp[e[i].sw] != o->mgen) {
			o->rstamp[e[i].sw] = o->mgen;
			o->rlist[nr++] = e[i].sw;
		}
	for (i = 0; i < nr; i++) {
		n = ports(o, o->rlist[i], lid, q, nw);
		for (k = 0; k < n; k++) {
			c = out_ch(f, o->rlist[i], q[k]);
			w = c == DQR_NONE ? DQR_NONE : dqr_peer_switch(f, c);
			if (w == DQR_NONE || o->rstamp[w] == o->mgen)
				continue;
			o->rstamp[w] = o->mgen;
			o->rlist[nr++] = w;
			if (o->ustamp[w] != o->mgen)
				o->mask[w] = 0;
		}
	}
	/* an upstream switch's mask is exact already */
	grow_masks(o, lid, o->rlist, nr, 0);
	return nr;
}

/*
 * y's hop pairs in the union, y -> x -> on, into the list in y's layers;
 * only those through a switch that may use its old entry unless all.
 * 0 when one closes a cycle.
 */
static int hop_pairs_fit(struct proof *o, uint32_t y, uint32_t lid, int all)
{
	const struct dqr_fabric *f = o->f;
	uint32_t x, c, c2;
	uint8_t q[2], q2[2];
	int nw[2], nw2[2];
	unsigned k, k2, np, np2;

	if (!o->mask[y])
		return 1;
	np = ports(o, y, lid, q, nw);
	for (k = 0; k < np; k++) {
		c = out_ch(f, y, q[k]);
		x = c == DQR_NONE ? DQR_NONE : dqr_peer_switch(f, c);
		if (x == DQR_NONE || (!all && !may_use_old(o, x)))
			continue;
		np2 = ports(o, x, lid, q2, nw2);
		for (k2 = 0; k2 < np2; k2++) {
			c2 = out_ch(f, x, q2[k2]);
			if (!dqr_relays(f, c, c2) ||
			    into_layers(o, o->mask[y], c, c2))
				continue;
			o->fail_sw = x;
			o->fail_lid = lid;
			return 0;
		}
	}
	return 1;
}

/* A changed switch's end ports into each entry it may use. */
static int injection_fits(struct proof *o, uint32_t y, uint32_t lid)
{
	const struct dqr_fabric *f = o->f;
	uint32_t node = f->switches[y], in, c;
	uint8_t q[2];
	int nw[2];
	unsigned pn, k, n = ports(o, y, lid, q, nw);

	dqr_for_each_end_port(f, node, pn) {
		in = dqr_peer_port(f, dqr_port_index(f, node, pn));
		if (own_lid(&f->ports[in], lid))
			continue;
		for (k = 0; k < n; k++) {
			c = out_ch(f, y, q[k]);
			if (c != DQR_NONE &&
			    !into_layers(o, src_mask(o, in, lid), in, c)) {
				o->fail_sw = y;
				o->fail_lid = lid;
				return 0;
			}
		}
	}
	return 1;
}

/*
 * On layers, the states judged towards the DLID of e[a .. b): the layers
 * that may reach each switch, and every hop pair of their union that the
 * list may lack, into it in those layers.  The list holds every
 * dependency of the new tables (the caller's promise), so what it may
 * lack involves an old entry: a pair through a switch that may still
 * use its old one, in the exact layers of the switch before it (all of
 * them upstream of the changes), and any pair downstream of such a
 * switch, in the layers arriving from it (a packet that took an old
 * entry may reach an unchanged switch in a layer whose packets never
 * reach it in the new tables, and go on in that layer through entries
 * that did not change).  0 when one closes a cycle.  Cost: the switches
 * upstream and downstream of the changes, not the fabric.
 */
static int layer_pairs_fit(struct proof *o, const struct dqr_plan_entry *e,
			   uint32_t a, uint32_t b)
{
	uint32_t lid = e[a].lid, nu, nr, i, y;

	if (!o->lay)
		return 1;
	union_visit_begin(o);
	nu = upstream_masks(o, e, a, b);
	nr = downstream_masks(o, e, a, b);
	for (i = 0; i < nr; i++) {
		y = o->rlist[i];
		if (!hop_pairs_fit(o, y, lid, 1) ||
		    (may_use_old(o, y) && !injection_fits(o, y, lid)))
			return 0;
	}
	for (i = 0; i < nu; i++) {
		y = o->ulist[i];
		if (o->rstamp[y] != o->mgen && !hop_pairs_fit(o, y, lid, 0))
			return 0;
	}
	return 1;
}

/*
 * 1 when each stage of one DLID's entries e[a .. b) at levels lv has a
 * union with the state before that is loop free, and new dependencies
 * that go into the list without a cycle.
 */
static int dlid_stages_hold(struct proof *o, const struct dqr_plan_entry *e,
			    const uint32_t *lv, uint32_t a, uint32_t b)
{
	uint32_t i, k, top = 0;
	int ok = 1;

	for (i = a; i < b; i++)
		top = lv[i] > top ? lv[i] : top;
	levels_set(o, e, lv, a, b, 1);
	for (k = 1; k <= top && ok; k++) {
		o->lo = k - 1;
		o->hi = k;
		dqr_loop_search_begin(&o->loops);
		ok = layer_pairs_fit(o, e, a, b);
		for (i = a; i < b && ok; i++) {
			if (lv[i] != k)
				continue;
			o->fail_sw = e[i].sw;
			o->fail_lid = e[i].lid;
			o->fail_a = DQR_NONE;
			ok = !loops_from(o, e[i].sw, e[i].lid) &&
			     deps_fit(o, &e[i]);
		}
	}
	levels_set(o, e, lv, a, b, 0);
	return ok;
}

/*
 * Every DLID's stages hold; *stages gets the highest level.  A DLID of
 * several levels is tried in one stage first (lv rewritten when that
 * holds): every stage saved is one that cannot wait a drain.
 */
static int stages_hold(struct proof *o, const struct dqr_plan_entry *e,
		       uint32_t *lv, uint32_t n, uint32_t *stages)
{
	uint32_t a, b, i, top;
	size_t mark;

	o->timed = 0;
	*stages = 0;
	for (a = 0; a < n; a = b) {
		b = dlid_end(e, n, a);
		top = 0;
		for (i = a; i < b; i++)
			top = lv[i] > top ? lv[i] : top;
		if (top > 1) {
			mark = dqr_dyn_mark(o->cl);
			for (i = a; i < b; i++) {
				o->saved[i - a] = lv[i];
				lv[i] = 1;
			}
			if (dlid_stages_hold(o, e, lv, a, b)) {
				*stages = *stages ? *stages : 1;
				continue;
			}
			if (o->nomem)
				return 0;
			dqr_dyn_rollback(o->cl, mark);
			for (i = a; i < b; i++)
				lv[i] = o->saved[i - a];
		}
		if (!dlid_stages_hold(o, e, lv, a, b))
			return 0;
		*stages = top > *stages ? top : *stages;
	}
	return 1;
}

/*
 * 1 when the union of states w .. k does not loop (on layers a loop of
 * packets left out, DQR_PLAN_UNJUDGED, closes no cycle) and its
 * dependencies, in time order, with a changed entry at one hop, go into
 * the list without a cycle (they are then in it).
 */
static int window_holds(struct proof *o, const struct dqr_plan_entry *e,
			const uint32_t *lv, uint32_t n, uint32_t w, uint32_t k)
{
	uint32_t a, b, i;
	int ok = 1;

	o->timed = 1;
	o->lo = w;
	o->hi = k;
	for (a = 0; a < n && ok; a = b) {
		b = dlid_end(e, n, a);
		levels_set(o, e, lv, a, b, 1);
		dqr_loop_search_begin(&o->loops);
		/* untimed: every combination of the window's states */
		ok = layer_pairs_fit(o, e, a, b);
		for (i = a; i < b && ok; i++)
			if (lv[i] > w && lv[i] <= k &&
			    (loops_from(o, e[i].sw, e[i].lid) ||
			     !deps_fit(o, &e[i])))
				ok = 0;
		levels_set(o, e, lv, a, b, 0);
	}
	o->timed = 0;
	return ok;
}

/*
 * The drains, stage by stage: where the window's dependencies close a
 * cycle, they are taken back out, the stage waits and w moves to k - 1.
 */
static void mark_windows(struct proof *o, const struct dqr_plan_entry *e,
			 const uint32_t *lv, uint32_t n, uint8_t *drain,
			 uint32_t stages)
{
	uint32_t k, w = 0;
	size_t mark;

	for (k = 2; k <= stages && !o->nomem; k++) {
		mark = dqr_dyn_mark(o->cl);
		if (window_holds(o, e, lv, n, w, k)) {
			drain[k - 1] = 0;
			continue;
		}
		dqr_dyn_rollback(o->cl, mark);
		drain[k - 1] = DQR_DRAIN_CYCLE;
		w = k - 1;
	}
}

/* The plan: stage k is every entry of level k, in e's order. */
static int fill_plan(const struct dqr_plan_entry *e, const uint32_t *lv,
		     uint32_t n, uint32_t stages, struct dqr_plan *plan)
{
	uint32_t i, k;

	if (dqr_plan_alloc(plan, n))
		return -1;
	memset(plan->stage_off, 0, sizeof(uint32_t) * (stages + 1));
	for (i = 0; i < n; i++)
		plan->stage_off[lv[i]]++;
	for (k = 1; k <= stages; k++)
		plan->stage_off[k] += plan->stage_off[k - 1];
	/* stage_off[k] is now the end of level k: fill backwards, after
	 * which it is the start of level k, that is of stage k - 1 */
	for (i = n; i-- > 0;)
		plan->entries[--plan->stage_off[lv[i]]] = e[i];
	for (k = 0; k < stages; k++) {
		plan->stage_off[k] = plan->stage_off[k + 1];
		plan->stage_num[k] = k + 1;
		plan->stage_reconf[k] = 0;
		plan->stage_drain[k] = 0;
	}
	plan->stage_off[stages] = n;
	plan->num_entries = n;
	plan->num_stages = stages;
	dqr_plan_check(plan);
	return 0;
}

/*
 * The report of a proved plan: safe by proof, one stage per level, the
 * largest stage and the switches changed (sw_mark: the caller's, any value
 * but DQR_NONE for a switch not counted yet).
 */
static void fill_report(const struct dqr_plan *p, uint32_t *sw_mark,
			struct dqr_plan_report *rep)
{
	const struct dqr_plan_entry *e = p->entries;
	uint32_t i, k;

	rep->entries = p->num_entries;
	rep->stages = p->num_stages;
	rep->levels = p->num_stages;
	rep->safe = rep->old_ok = rep->new_ok = 1;
	rep->proved = 1;
	for (k = 0; k < p->num_stages; k++)
		if (p->stage_off[k + 1] - p->stage_off[k] > rep->max_stage)
			rep->max_stage = p->stage_off[k + 1] - p->stage_off[k];
	for (i = 0; i < p->num_entries; i++)
		if (sw_mark[e[i].sw] != DQR_NONE) {
			sw_mark[e[i].sw] = DQR_NONE;
			rep->switches++;
		}
}

/*
 * The proof's per-switch arrays (and, with layers, the per-switch layer
 * masks and stamps), levels unset: allocated once per plan, so the levels
 * of every DLID cost their own switches only.  0, or -1 when out of memory
 * (proof_free() cleans).
 */
static int proof_alloc(struct proof *o, size_t ns)
{
	size_t i;

	o->level = malloc(ns * sizeof(uint32_t));
	if (dqr_loop_search_init(&o->loops, (uint32_t)ns))
		return -1;
	o->stack = malloc((ns + 1) * sizeof(uint32_t));
	o->saved = malloc(ns * sizeof(uint32_t));
	o->next = malloc(ns);
	if (o->lay) {
		o->mask = calloc(ns, 1);
		o->ustamp = calloc(ns + 1, sizeof(uint32_t));
		o->rstamp = calloc(ns + 1, sizeof(uint32_t));
		o->ulist = malloc((ns + 1) * sizeof(uint32_t));
		o->rlist = malloc((ns + 1) * sizeof(uint32_t));
		if (!o->mask || !o->ustamp || !o->rstamp || !o->ulist ||
		    !o->rlist)
			return -1;
	}
	if (!o->level || !o->stack || !o->saved || !o->next)
		return -1;
	for (i = 0; i < ns; i++)
		o->level[i] = DQR_NONE;
	return 0;
}

static void proof_free(struct proof *o)
{
	free(o->level);
	dqr_loop_search_release(&o->loops);
	free(o->stack);
	free(o->saved);
	free(o->next);
	free(o->mask);
	free(o->ustamp);
	free(o->rstamp);
	free(o->ulist);
	free(o->rlist);
}

/* Levels of every DLID into lv; 0 when some new route loops. */
static int levels_all(struct proof *o, const struct dqr_plan_entry *e,
		      uint32_t *lv, uint32_t n)
{
	uint32_t a, b;

	for (a = 0; a < n; a = b) {
		b = dlid_end(e, n, a);
		if (levels_of(o, e, lv, a, b))
			return 0;
	}
	return 1;
}

/* Why the proof failed, into rep->reason. */
static void fail_reason(const struct proof *o, struct dqr_plan_report *rep)
{
	uint32_t p = o->f->num_ports, a = o->fail_a, b = o->fail_b;
	char *r = rep->reason;
	size_t len = sizeof(rep->reason);

	if (o->bad_layer)
		snprintf(r, len, "not proved: a layer beyond the %u layers",
			 o->lay->num_layers);
	else if (o->fail_sw == DQR_NONE)
		snprintf(r, len, "not proved: a new route loops");
	else if (a == DQR_NONE)
		snprintf(r, len, "not proved: towards LID %u the union loops "
			 "through switch %u", o->fail_lid, o->fail_sw);
	else
		snprintf(r, len, "not proved: switch %u, LID %u: dependency "
			 "%u -> %u closes a cycle in layer %u", o->fail_sw,
			 o->fail_lid, a % p, b % p, a / p);
}

int dqr_plan_proved(const struct dqr_fabric *f, const struct dqr_lfts *from,
		    const struct dqr_lfts *to,
		    const struct dqr_plan_entry *changes, uint32_t n,
		    struct dqr_dyn_order *cl, struct dqr_plan *plan,
		    struct dqr_plan_report *rep)
{
	return dqr_plan_proved_vlayers(f, from, to, changes, n, cl, NULL, plan,
				       rep);
}

int dqr_plan_proved_vlayers(const struct dqr_fabric *f,
			    const struct dqr_lfts *from,
			    const struct dqr_lfts *to,
			    const struct dqr_plan_entry *changes, uint32_t n,
			    struct dqr_dyn_order *cl,
			    const struct dqr_plan_vlayers *lay,
			    struct dqr_plan *plan, struct dqr_plan_report *rep)
{
	struct proof o = { .f = f, .from = from, .to = to, .cl = cl,
			   .lay = lay, .fail_sw = DQR_NONE };
	struct dqr_plan_entry *e = NULL;
	size_t ns = f->num_switches ? f->num_switches : 1;
	uint32_t *lv = NULL, stages = 0, m, i;
	size_t mark;
	double t0 = dqr_now_ms();
	int64_t got;
	int ret = -1;

	memset(rep, 0, sizeof(*rep));
	if (!cl || (lay && (!lay->num_layers ||
			    lay->num_layers > DQR_PLAN_MAX_LAYERS)))
		return 0;
	if (changes) {
		e = malloc(sizeof(*e) * (n ? n : 1));
		if (e)
			memcpy(e, changes, sizeof(*e) * n);
		got = e ? (int64_t)n : -1;
	} else {
		got = list_changes(f, from, to, &e);
	}
	if (got < 0 || proof_alloc(&o, ns))
		goto out;
	m = tidy_changes(&o, e, (uint32_t)got);
	lv = malloc(sizeof(uint32_t) * (m ? m : 1));
	if (!lv)
		goto out;
	mark = dqr_dyn_mark(cl);
	ret = levels_all(&o, e, lv, m) &&
	      stages_hold(&o, e, lv, m, &stages) && !o.bad_layer;
	if (ret != 1 || fill_plan(e, lv, m, stages, plan)) {
		dqr_dyn_rollback(cl, mark);
		if (!ret && !o.nomem)
			fail_reason(&o, rep);
		ret = o.nomem || ret == 1 ? -1 : 0;
		goto out;
	}
	mark_windows(&o, e, lv, m, plan->stage_drain, stages);
	if (o.nomem) {
		dqr_dyn_rollback(cl, mark);
		ret = -1;
		goto out;
	}
	/* the loop search is over: its stamps count the switches */
	memset(o.loops.seen, 0, ns * sizeof(uint32_t));
	fill_report(plan, o.loops.seen, rep);
	for (i = 0; i < m; i++)
		rep->dlids += !i || e[i].lid != e[i - 1].lid;
	ret = 1;
out:
	if (ret < 0)
		dqr_plan_release(plan);
	free(e);
	free(lv);
	proof_free(&o);
	rep->ms = dqr_now_ms() - t0;
	return ret;
}
