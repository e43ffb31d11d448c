/*
 * react_start.c - DQR starts on a base routing (reaction.h), and what
 * the reactor does when it cannot: a one-layer base whose tables close a
 * dependency cycle could deadlock, and one that leaves pairs a cable
 * joins unrouted where DQR finds no legal route cuts them off; lib's
 * up*\/down* on the same fabric replaces either (deadlock free on one
 * VL, every pair a cable joins reachable), loudly, saying why.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "reaction/topology-internal.h"
#include "routing/grid_route.h"
#include "util/check.h"

/* *t replaced by lib's up*\/down* on f; 0, or -1 (said) when it failed. */
static int updn_instead(struct dqr_reactor *x, const struct dqr_fabric *f,
			struct dqr_lfts **t, const char *base, const char *why)
{
	struct dqr_lfts *u = NULL;
	char err[256];

	if (dqr_updn_route(f, &u, err, sizeof(err))) {
		dqr_note(&x->notes, DQR_NOTE_ERROR, "29", "the tables of base "
			 "'%s' %s and up*/down* failed too (%s)", base, why,
			 err);
		return -1;
	}
	dqr_note(&x->notes, DQR_NOTE_ERROR, "29", "the tables of base '%s' "
		 "%s: routing with the plugin's own up*/down* instead "
		 "(deadlock free on one VL, every pair a cable joins "
		 "reachable)", base, why);
	dqr_lfts_free(*t);
	*t = u;
	x->updn_instead = 1;
	return 0;
}

/* One try on one layer, recon released first. */
static int again(struct dqr_reactor *x, const struct dqr_fabric *f,
		 const struct dqr_lfts *t, const struct dqr_reroute_opts *o,
		 struct dqr_recon_result *res)
{
	dqr_recon_release(&x->recon);
	return dqr_topology_start_one_layer(x, f, t, o, res);
}

/*
 * The INFO note of a start: what the channel list cost and what DQR's fill
 * of the base routing's holes did, or the layered list of a torus, so that
 * the operator sees in one line whether DQR starts with everything routed.
 */
static void note_started(struct dqr_reactor *x, const struct dqr_start *st)
{
	const struct dqr_recon_result *res = &st->res;

	if (x->recon.tl) {
		dqr_note(&x->notes, DQR_NOTE_INFO, NULL, "layered channel list "
			 "of the torus: %u layers of %u channels, every layer "
			 "acyclic, checked in %.0f us",
			 dqr_vlayers_count(x->recon.tl),
			 x->recon.ref->num_ports, res->us_total);
		return;
	}
	dqr_note(&x->notes, DQR_NOTE_INFO, NULL, "channel list of %u channels "
		 "built in %.0f us; of %" PRIu64 " entries the base left "
		 "unrouted (for %" PRIu64 " LIDs) DQR filled %" PRIu64
		 ", enabling %" PRIu64 " turns, and found no legal route for %"
		 PRIu64 ", in %.0f us", x->recon.cl->len, res->us_list,
		 res->rs.disconnected, res->rs.lids_disconnected,
		 res->rs.changed, res->rs.turns, res->rs.holes + res->rs.failed,
		 res->us_total);
}

int dqr_react_start(struct dqr_reactor *x, const struct dqr_fabric *f,
		    struct dqr_lfts **t, const char *base,
		    struct dqr_start *st)
{
	struct dqr_recon_result *res = &st->res;
	struct dqr_reroute_opts o;
	int layered = x->topo.base_sls, ret;

	dqr_notes_clear(&x->notes);
	memset(st, 0, sizeof(*st));
	dqr_reactor_stop(x);
	dqr_react_reroute_opts(x, &o);
	ret = x->topo.ops->start(x, f, *t, &o, res);
	/*
	 * A start of the topology's own (virtual layers) that fails leaves
	 * DQR to one layer: lib's up*\/down* where the layers cannot fill
	 * what the base left unrouted (a degraded torus), else the base's
	 * tables, judged below like any one-layer base's.
	 */
	if (ret != DQR_RECON_OK &&
	    x->topo.ops->start != dqr_topology_start_one_layer) {
		struct dqr_topology was = x->topo;

		dqr_recon_release(&x->recon);
		if (ret == DQR_RECON_FAILED)
			updn_instead(x, f, t, base, "leave connected pairs "
				     "without a route that the layers cannot "
				     "fill");
		/* what routed it and its shape stay what they were */
		dqr_topology_any(x, layered);
		memcpy(x->topo.routing, was.routing, sizeof(was.routing));
		memcpy(x->topo.shape, was.shape, sizeof(was.shape));
		dqr_react_reroute_opts(x, &o);
		ret = again(x, f, *t, &o, res);
	}
	if (ret == DQR_RECON_CYCLIC && !layered &&
	    !updn_instead(x, f, t, base, "have a credit loop on one VL"))
		ret = again(x, f, *t, &o, res);
	/* connectivity first: dimension order around a lost switch */
	if (ret == DQR_RECON_FAILED && !layered &&
	    !updn_instead(x, f, t, base, "leave connected pairs without a "
			  "route that DQR cannot fill"))
		ret = again(x, f, *t, &o, res);
	st->code = ret;
	if (ret == DQR_RECON_CYCLIC) {
		dqr_recon_release(&x->recon);
		/* a base that keeps its routes apart by SL meant it */
		dqr_note(&x->notes, layered ? DQR_NOTE_INFO : DQR_NOTE_ERROR,
			 layered ? NULL : "13", "the one-layer channel "
			 "dependency graph of base '%s' is cyclic: DQR needs a "
			 "channel list and is off until the next full routing; "
			 "after a fault the base engine routes the whole "
			 "fabric again", base);
		return 1;
	}
	if (ret == DQR_RECON_NOMEM) {
		dqr_recon_release(&x->recon);
		dqr_note(&x->notes, DQR_NOTE_ERROR, "14", "out of memory "
			 "building the channel list; DQR is off until the next "
			 "full routing");
		return -1;
	}
	x->ready = 1;
	st->filled = res->rs.changed;
	/* the original tables: the base's, with DQR's fill */
	DQR_CHECK((*t)->num_switches == x->recon.cur->num_switches &&
		  (*t)->lid_count == x->recon.cur->lid_count);
	memcpy((*t)->port, x->recon.cur->port,
	       (size_t)(*t)->num_switches * (*t)->lid_count);
	note_started(x, st);
	return 0;
}
