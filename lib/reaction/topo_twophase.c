/*
 * topo_twophase.c - a hypercube routed by two-phase routing on one VL
 * (routing/twophase.h).  Its routes all climb one order of the channels,
 * whatever the faults, so every update starts from the scheme's tables
 * for the cabling as it is (recon.h's base) instead of repairing the
 * tables in force: only the trees a fault broke change, and they change
 * inside that order.  DQR fills what the scheme leaves, in a channel
 * list built for the tables held and the new ones together.  The
 * switches it leaves out (their group of four broken, the HC paper's
 * faulty nodes) are named in the notes after every update, and every
 * pair among the others must be routed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reaction/topology-internal.h"
#include "routes/route_walk.h"
#include "routing/twophase.h"

/* Names of switches left out a note lists before "and N more". */
#define NAMES_SAID 8

struct twophase_priv {
	struct dqr_twophase *tp;
	struct dqr_twophase_stats st;	/* of the last routing */
	struct dqr_twophase_view v;	/* v.level: level[] below */
	uint8_t *level;			/* per switch index, of the last */
};

/* The levels of the switches of f, the cabling last routed. */
static void levels(struct twophase_priv *p, const struct dqr_fabric *f)
{
	p->v.active = f->num_switches == p->v.switches ?
		      dqr_twophase_active(p->tp, f, p->level, &p->v.whole) :
		      -1;
	p->v.pairs = p->v.unrouted = 0;
}

/* recon.h's base: the scheme's tables for proj, and who is active. */
static int base_route(void *arg, const struct dqr_fabric *proj,
		      struct dqr_lfts **out)
{
	struct twophase_priv *p = arg;

	if (dqr_twophase_route(p->tp, proj, out, &p->st))
		return -1;
	levels(p, proj);
	return 0;
}

static void twophase_recon_base(struct dqr_reactor *x,
				struct dqr_recon_base *b)
{
	b->route = base_route;
	b->arg = x->topo.priv;
}

/* The names of the first NAMES_SAID switches left out, and how many. */
static void left_out_names(const struct dqr_reactor *x,
			   const struct twophase_priv *p, char *buf,
			   size_t len)
{
	const struct dqr_fabric *f = x->recon.ref;
	size_t used = 0;
	uint32_t sw, said = 0, left = 0;

	buf[0] = '\0';
	for (sw = 0; sw < p->v.switches && f; sw++) {
		if (p->level[sw] != DQR_TWOPHASE_LEFT_OUT)
			continue;
		if (said == NAMES_SAID || used + 2 >= len) {
			left++;
			continue;
		}
		used += (size_t)snprintf(buf + used, len - used, "%s%s",
					 said ? ", " : "",
					 dqr_node_name(f, f->switches[sw]));
		if (used >= len)
			used = len - 1;
		said++;
	}
	if (left && used < len)
		snprintf(buf + used, len - used, " and %u more", left);
}

/*
 * What the scheme did with the faults, who it leaves out, and whether
 * every pair it answers for is routed (ERR DQ43 if not: DQR's fill
 * should have reached them, so the plugin falls back).
 */
static void twophase_after_update(struct dqr_reactor *x,
				  const struct dqr_recon_result *res,
				  struct dqr_notes *ns)
{
	struct twophase_priv *p = x->topo.priv;
	const struct dqr_twophase_view *v = &p->v;
	char names[512];
	int64_t bad;

	(void)res;
	if (p->st.lids_broken)
		dqr_note(ns, DQR_NOTE_INFO, NULL, "two-phase routing: the "
			 "faults broke the trees of %u of %u DLIDs: %llu "
			 "entries re-attached and %llu moved up the channel "
			 "order for them, %llu left without a climbing route "
			 "for DQR", p->st.lids_broken, p->st.lids,
			 (unsigned long long)p->st.reattached,
			 (unsigned long long)p->st.raised,
			 (unsigned long long)p->st.unrouted);
	if (v->active < 0)
		return;
	/* the scheme answers for the switches of whole groups */
	bad = dqr_unrouted_among(x->recon.ref, x->recon.cur, p->level,
				 DQR_TWOPHASE_WHOLE, &p->v.pairs);
	if (bad < 0) {
		p->v.pairs = 0;
		return;
	}
	p->v.unrouted = (uint64_t)bad;
	if (v->whole < v->switches) {
		left_out_names(x, p, names, sizeof(names));
		dqr_note(ns, DQR_NOTE_NOTICE, NULL, "two-phase routing: %u "
			 "of %u switches left out, their group of four broken "
			 "(their pairs routed where the channel order allows, "
			 "not guaranteed): %s", v->switches - v->whole,
			 v->switches, names);
	}
	dqr_note(ns, bad ? DQR_NOTE_ERROR : DQR_NOTE_INFO, bad ? "43" : NULL,
		 "two-phase routing: %llu of %llu pairs among the %u switches "
		 "of whole groups unrouted; %ld of them active by the HC "
		 "paper's bound of %.1f faulty paths", (unsigned long long)bad,
		 (unsigned long long)v->pairs, v->whole, v->active,
		 dqr_twophase_path_bound(p->tp));
}

/*
 * Entries left without a route are the scheme's own loss where they
 * serve switches left out: the update stands (0) while every pair among
 * whole groups is routed, else DQR failed (-1).
 */
static int twophase_beyond(struct dqr_reactor *x,
			   const struct dqr_fabric *proj, int code,
			   const struct dqr_reroute_opts *o)
{
	const struct twophase_priv *p = x->topo.priv;

	(void)proj;
	(void)o;
	if (code != DQR_RECON_FAILED)
		return 0;
	return p->v.active >= 0 && p->v.pairs && !p->v.unrouted ? 0 : -1;
}

static void twophase_release(struct dqr_reactor *x)
{
	struct twophase_priv *p = x->topo.priv;

	if (!p)
		return;
	dqr_twophase_free(p->tp);
	free(p->level);
	free(p);
	x->topo.priv = NULL;
}

/* State for tp (taken, freed on failure) on ns switches; NULL: memory. */
static struct twophase_priv *priv_new(struct dqr_twophase *tp, uint32_t ns)
{
	struct twophase_priv *p = calloc(1, sizeof(*p));

	if (p)
		p->level = calloc(ns + 1, 1);
	if (!p || !tp || !p->level) {
		if (p)
			free(p->level);
		free(p);
		dqr_twophase_free(tp);
		return NULL;
	}
	p->tp = tp;
	p->v.switches = ns;
	p->v.level = p->level;
	p->v.active = -1;
	return p;
}

static int twophase_copy(struct dqr_reactor *y, const struct dqr_reactor *x)
{
	const struct twophase_priv *p = x->topo.priv;
	struct twophase_priv *q = priv_new(dqr_twophase_clone(p->tp),
					   p->v.switches);

	if (!q)
		return -1;
	q->st = p->st;
	q->v = p->v;
	q->v.level = q->level;
	memcpy(q->level, p->level, p->v.switches);
	dqr_topology_set(y, x->topo.ops, q);
	return 0;
}

/* The list of the last update holds the tables before it, when built so. */
static struct dqr_dyn_order *twophase_held_list(struct dqr_reactor *x,
						int from_original)
{
	(void)from_original;
	return x->recon.list_holds_before ? x->recon.cl : NULL;
}

static const struct dqr_topology_ops twophase_ops = {
	.name = "two-phase",
	.recon_base = twophase_recon_base,
	.start = dqr_topology_start_one_layer,
	.held_list = twophase_held_list,
	.beyond = twophase_beyond,
	.after_update = twophase_after_update,
	.copy = twophase_copy,
	.release = twophase_release,
};

int dqr_topology_twophase(struct dqr_reactor *x, const struct dqr_fabric *f,
			  struct dqr_twophase *tp)
{
	struct twophase_priv *p = priv_new(tp, f->num_switches);

	if (!p) {
		dqr_topology_any(x, 0);
		return -1;
	}
	levels(p, f);
	dqr_topology_set(x, &twophase_ops, p);
	snprintf(x->topo.routing, sizeof(x->topo.routing), "twophase");
	return 0;
}

int dqr_topology_twophase_view(const struct dqr_reactor *x,
			       struct dqr_twophase_view *v)
{
	const struct twophase_priv *p = x->topo.priv;

	if (x->topo.ops != &twophase_ops || !p)
		return -1;
	*v = p->v;
	return 0;
}
