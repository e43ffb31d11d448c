/*
 * plan_vlayers.c - transitions of a routing on virtual layers
 * (transition.h: dqr_union_vlayers_ok, dqr_plan_change_vlayers).
 *
 * On one layer every e-cube state is cyclic, so the one-layer judgement
 * of union_check.c refuses every stage; here a packet keeps its source's
 * layer and each layer is judged alone.  The check is the slow, whole
 * judgement (every LID, every switch) that the proof of plan_proved.c
 * avoids: the fallback decides with it, and tests replay plans by it.
 * At the end, the layers of a routing on virtual layers (vlayers.h) as
 * the planner asks them (plan_vlayers.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "deps/vlayer_deps.h"
#include "transition/plan_vlayers.h"
#include "transition/transition-internal.h"
#include "util/timing.h"

struct ulay {
	const struct dqr_fabric *f;
	const struct dqr_lfts *a, *b;
	const struct dqr_plan_vlayers *lay;
	unsigned num_layers;
	int bad_layer;
	uint8_t *mask, *it;		/* per switch */
	uint32_t *stack;		/* the masks' ring queue */
	struct dqr_loop_search loops;
	struct dqr_vlayer_deps deps;
};

/* The ports sw forwards lid by in a or in b (b's only where it differs). */
static unsigned uports(const struct ulay *u, uint32_t sw, uint32_t lid,
		       uint8_t q[2])
{
	q[0] = dqr_lft_get(u->a, sw, lid);
	q[1] = dqr_lft_get(u->b, sw, lid);
	return q[0] == q[1] ? 1 : 2;
}

static uint32_t hop_switch(const struct dqr_fabric *f, uint32_t sw,
			   uint8_t p)
{
	uint32_t c = out_ch(f, sw, p);

	return c == DQR_NONE ? DQR_NONE : dqr_peer_switch(f, c);
}

/* union_loops.h's view of the union */
static unsigned union_entries(const void *ctx, uint32_t sw, uint32_t lid,
			      uint8_t q[2])
{
	return uports(ctx, sw, lid, q);
}

/*
 * 1 when the union towards lid loops, as the switch model lets a packet
 * go (routes/union_loops.h): a layer changes nothing of that.
 */
static int union_loops(struct ulay *u, uint32_t lid)
{
	uint32_t sw, len;

	dqr_loop_search_begin(&u->loops);
	for (sw = 0; sw < u->f->num_switches; sw++)
		if (dqr_union_loop_from(&u->loops, u->f, union_entries, u,
					lid, sw, NULL, 0, &len))
			return 1;
	return 0;
}

static int own_lid(const struct dqr_port *p, uint32_t lid)
{
	return p->base_lid && lid >= p->base_lid &&
	       lid < p->base_lid + (1u << p->lmc);
}

/* The layer of source port's packets towards lid, as a mask. */
static uint8_t src_mask(struct ulay *u, uint32_t port, uint32_t lid)
{
	unsigned l;

	if (own_lid(&u->f->ports[port], lid))
		return 0;
	if (!u->lay)
		return 1;
	l = u->lay->layer(u->lay->ctx, port, lid);
	if (l == DQR_PLAN_UNJUDGED)
		return 0;
	if (l >= u->num_layers) {
		u->bad_layer = 1;
		return 0;
	}
	return (uint8_t)(1u << l);
}

/*
 * Per switch, the layers of the sources that reach it towards lid in the
 * union, grown to a fixpoint (u->stack a ring queue, u->it marks who is
 * queued; the union is loop free here, but the fixpoint does not care).
 */
static void union_masks(struct ulay *u, uint32_t lid)
{
	const struct dqr_fabric *f = u->f;
	uint32_t ns = f->num_switches, sw, node, head = 0, len, c, w;
	unsigned pn, k, n;
	uint8_t q[2];

	for (sw = 0; sw < ns; sw++) {
		node = f->switches[sw];
		u->mask[sw] = src_mask(u, dqr_port_index(f, node, 0), lid);
		dqr_for_each_end_port(f, node, pn) {
			c = dqr_peer_port(f, dqr_port_index(f, node, pn));
			u->mask[sw] |= src_mask(u, c, lid);
		}
		u->stack[sw] = sw;
		u->it[sw] = 1;
	}
	for (len = ns; len; len--) {
		sw = u->stack[head];
		head = head + 1 == ns ? 0 : head + 1;
		u->it[sw] = 0;
		n = uports(u, sw, lid, q);
		for (k = 0; k < n; k++) {
			w = hop_switch(f, sw, q[k]);
			if (w == DQR_NONE || !(u->mask[sw] & ~u->mask[w]))
				continue;
			u->mask[w] |= u->mask[sw];
			if (!u->it[w]) {
				u->it[w] = 1;
				u->stack[(head + len - 1) % ns] = w;
				len++;
			}
		}
	}
}

/* a -> b in every layer of m; -1 when out of memory. */
static int push(struct ulay *u, uint8_t m, uint32_t a, uint32_t b)
{
	uint32_t p = u->f->num_ports;
	unsigned l;

	for (l = 0; m; l++, m >>= 1)
		if ((m & 1) &&
		    dqr_vlayer_deps_add(&u->deps, l * p + a, l * p + b))
			return -1;
	return 0;
}

/* The dependencies of the union towards lid, each in its layers. */
static int union_deps(struct ulay *u, uint32_t lid)
{
	const struct dqr_fabric *f = u->f;
	uint32_t sw, node, c, e, w, c2;
	uint8_t q[2], q2[2];
	unsigned k, k2, n, n2, pn;

	for (sw = 0; sw < f->num_switches; sw++) {
		node = f->switches[sw];
		n = uports(u, sw, lid, q);
		for (k = 0; k < n; k++) {
			c = out_ch(f, sw, q[k]);
			if (c == DQR_NONE)
				continue;
			dqr_for_each_end_port(f, node, pn) {
				e = dqr_peer_port(f, dqr_port_index(f, node,
								    pn));
				if (push(u, src_mask(u, e, lid), e, c))
					return -1;
			}
			w = dqr_peer_switch(f, c);
			n2 = w == DQR_NONE ? 0 : uports(u, w, lid, q2);
			for (k2 = 0; k2 < n2; k2++) {
				c2 = out_ch(f, w, q2[k2]);
				/* not back the way it came (relay.h) */
				if (dqr_relays(f, c, c2) &&
				    push(u, u->mask[sw], c, c2))
					return -1;
			}
		}
	}
	return 0;
}

static void ulay_free(struct ulay *u)
{
	free(u->mask);
	free(u->it);
	free(u->stack);
	dqr_loop_search_release(&u->loops);
	dqr_vlayer_deps_release(&u->deps);
}

int dqr_union_vlayers_ok(const struct dqr_fabric *f, const struct dqr_lfts *a,
			 const struct dqr_lfts *b,
			 const struct dqr_plan_vlayers *lay, char *why,
			 size_t whylen)
{
	struct ulay u = { .f = f, .a = a, .b = b, .lay = lay,
			  .num_layers = lay ? lay->num_layers : 1 };
	size_t ns = f->num_switches + 1;
	uint32_t lid, lc;
	unsigned layer = 0;
	int r = -1;

	lc = a->lid_count > b->lid_count ? a->lid_count : b->lid_count;
	if (!u.num_layers || u.num_layers > DQR_PLAN_MAX_LAYERS) {
		snprintf(why, whylen, "%u layers", u.num_layers);
		return 0;
	}
	u.mask = malloc(ns);
	u.it = malloc(ns);
	u.stack = malloc(sizeof(uint32_t) * ns);
	if (!u.mask || !u.it || !u.stack ||
	    dqr_loop_search_init(&u.loops, f->num_switches) ||
	    dqr_vlayer_deps_init(&u.deps, f, u.num_layers))
		goto out;
	for (lid = 1; lid < lc; lid++) {
		if (!lid_judged(f, lid))
			continue;
		if (union_loops(&u, lid)) {
			snprintf(why, whylen, "the routes towards LID %u loop",
				 lid);
			r = 0;
			goto out;
		}
		union_masks(&u, lid);
		if (union_deps(&u, lid))
			goto out;
	}
	if (u.bad_layer) {
		snprintf(why, whylen, "a layer beyond the %u layers",
			 u.num_layers);
		r = 0;
		goto out;
	}
	r = dqr_vlayer_deps_order(&u.deps, NULL, NULL, &layer);
	if (r == 1)
		snprintf(why, whylen, "layer %u is cyclic", layer);
	r = r < 0 ? -1 : !r;
out:
	ulay_free(&u);
	return r;
}

int dqr_plan_change_vlayers(const struct dqr_fabric *f,
			    const struct dqr_lfts *from,
			    const struct dqr_lfts *to, struct dqr_dyn_order *cl,
			    const struct dqr_plan_vlayers *lay,
			    const struct dqr_plan_vlayers *sent,
			    struct dqr_plan *plan, struct dqr_plan_report *rep)
{
	char proof[sizeof(rep->reason)], why[2][256] = { "", "" };
	double t0 = dqr_now_ms();
	int r = 0, old_ok, new_ok;

	if (!sent)
		sent = lay;
	if (cl)
		r = dqr_plan_proved_vlayers(f, from, to, NULL, 0, cl, sent,
					    plan, rep);
	if (r)
		return r < 0 ? -1 : 0;
	snprintf(proof, sizeof(proof), "%s", cl ? rep->reason :
		 "not proved: no channel list");
	old_ok = dqr_union_vlayers_ok(f, from, from, sent, why[0],
				      sizeof(why[0]));
	new_ok = dqr_union_vlayers_ok(f, to, to, lay, why[1], sizeof(why[1]));
	if (old_ok < 0 || new_ok < 0)
		return -1;
	if (!new_ok) {
		dqr_plan_release(plan);
		memset(rep, 0, sizeof(*rep));
		rep->old_ok = old_ok;
		snprintf(rep->reason, sizeof(rep->reason), "the new tables: %s",
			 why[1]);
		rep->ms = dqr_now_ms() - t0;
		return 0;
	}
	/*
	 * Tables held that are bad on this cabling were made so by a cable
	 * that came back under a transition left mid-way.  OpenSM activates
	 * such a port only after the routing step that found it, so stage 1
	 * of a withdrawal is in force before a packet crosses it, and the
	 * state it leaves holds only entries of the new tables: withdraw
	 * first, as the one-layer plan does (dqr_plan_change()).
	 */
	if (!old_ok) {
		if (dqr_plan_build_withdraw(f, from, to, plan, rep))
			return -1;
		rep->old_ok = 0;
		rep->new_ok = 1;
		snprintf(rep->reason, sizeof(rep->reason), "the old tables: "
			 "%s; withdrawn first", why[0]);
		rep->ms = dqr_now_ms() - t0;
		return 0;
	}
	/* no proof: withdraw, drain, install */
	if (dqr_plan_build_withdraw(f, from, to, plan, rep))
		return -1;
	rep->old_ok = rep->new_ok = 1;
	memcpy(rep->reason, proof, sizeof(rep->reason));
	rep->ms = dqr_now_ms() - t0;
	return 0;
}

/* ------------------------------------------------ virtual layers' layers */

/* The switch of port p: its own, or the one at its cable; DQR_NONE. */
static uint32_t port_switch(const struct dqr_fabric *f, uint32_t p)
{
	uint32_t node;

	if (p == DQR_NONE)
		return DQR_NONE;
	node = f->ports[p].node;
	if (!dqr_is_switch(f, node)) {
		node = dqr_peer_node(f, p);
		if (node == DQR_NONE || !dqr_is_switch(f, node))
			return DQR_NONE;
	}
	return f->nodes[node].sw_index;
}

static uint8_t torus_layer(const void *ctx, uint32_t src_port, uint32_t lid)
{
	const struct dqr_vlayers_plan *tp = ctx;
	uint32_t s = port_switch(tp->f, src_port);
	uint32_t d = port_switch(tp->f, dqr_lid_owner(tp->f, lid));
	uint8_t sl;

	if (s == DQR_NONE || d == DQR_NONE)
		return 0;	/* no route to judge */
	sl = dqr_vlayers_sl(tp->tl, s, d);
	if (tp->answered && dqr_vlayers_sl_by(tp->tl, tp->answered, s, d) != sl)
		return DQR_PLAN_UNJUDGED;
	return sl;
}

void dqr_vlayers_plan_init(struct dqr_vlayers_plan *tp,
			 const struct dqr_vlayers *tl,
			 const struct dqr_fabric *f)
{
	tp->tl = tl;
	tp->f = f;
	tp->answered = NULL;
	tp->lay.num_layers = dqr_vlayers_count(tl);
	tp->lay.layer = torus_layer;
	tp->lay.ctx = tp;
}

void dqr_vlayers_plan_sent(struct dqr_vlayers_plan *tp,
			   const struct dqr_vlayers *tl,
			   const struct dqr_fabric *f,
			   const struct dqr_vlayers_sls *answered)
{
	dqr_vlayers_plan_init(tp, tl, f);
	/* the usual case, no pair moved since: no look-up per packet */
	if (answered && dqr_vlayers_sls_differ(tl, answered))
		tp->answered = answered;
}
