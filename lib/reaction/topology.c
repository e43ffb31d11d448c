/*
 * topology.c - the calls through a topology's table (topology.h), and
 * the two tables that keep no state of their own: a base of
 * OpenSM's (or lib's up*\/down*), and a hypercube routed by e-cube,
 * whose repairs take the way back (mesh/reverse_bias.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mesh/reverse_bias.h"
#include "reaction/topology-internal.h"
#include "util/check.h"

int dqr_vl_caps_carry(const struct dqr_vl_caps *c, unsigned n, char *why,
		      size_t len)
{
	if (c->vls >= n)
		return 0;
	snprintf(why, len, "%s carries %u VLs, below the %u layers",
		 c->vls_limit, c->vls, n);
	return 1;
}

/* ------------------------------------------------------------ any */

int dqr_topology_start_one_layer(struct dqr_reactor *x,
				 const struct dqr_fabric *f,
				 const struct dqr_lfts *t,
				 const struct dqr_reroute_opts *o,
				 struct dqr_recon_result *res)
{
	return dqr_recon_start(&x->recon, f, t, o, res);
}

static int any_judge(struct dqr_reactor *x, const struct dqr_fabric *f,
		     const struct dqr_lfts *t, struct dqr_judgement *j)
{
	(void)f;
	(void)t;
	/* a cycle on one layer is the base's SLs' business: not judged */
	if (x->topo.base_sls && j->v.cycle_found) {
		j->kind = DQR_JUDGED_BASE_SLS;
		j->deadlock_free = -1;
	}
	return 0;
}

struct dqr_dyn_order *dqr_topology_one_layer_list(struct dqr_reactor *x,
						  int from_original)
{
	/* a list built afresh for the original tables never knew those
	 * the switches hold */
	return from_original ? NULL : x->recon.cl;
}

static const struct dqr_topology_ops any_ops = {
	.name = "any",
	.start = dqr_topology_start_one_layer,
	.judge = any_judge,
	.held_list = dqr_topology_one_layer_list,
};

static void set_ops(struct dqr_reactor *x, const struct dqr_topology_ops *ops)
{
	if (x->topo.ops && x->topo.ops->release)
		x->topo.ops->release(x);
	memset(&x->topo, 0, sizeof(x->topo));
	x->topo.ops = ops;
}

void dqr_topology_any(struct dqr_reactor *x, int layered)
{
	set_ops(x, &any_ops);
	x->topo.base_sls = layered;
}

/* ------------------------------------------------------------ hypercube */

/* a fault's repair goes back the way the destination's re-routed route
 * comes (mesh/reverse_bias.h): no drain on the cubes' single faults */
static void hypercube_update_opts(const struct dqr_reactor *x,
				  struct dqr_reroute_opts *o)
{
	dqr_reverse_bias_opts(o, x->recon.orig);
}

static const struct dqr_topology_ops hypercube_ops = {
	.name = "hypercube",
	.update_opts = hypercube_update_opts,
	.start = dqr_topology_start_one_layer,
	.held_list = dqr_topology_one_layer_list,
};

void dqr_topology_hypercube(struct dqr_reactor *x)
{
	set_ops(x, &hypercube_ops);
	snprintf(x->topo.routing, sizeof(x->topo.routing), "ecube");
}

/* ------------------------------------------------------------ calls */

void dqr_topology_set(struct dqr_reactor *x,
		      const struct dqr_topology_ops *ops, void *priv)
{
	set_ops(x, ops);
	x->topo.priv = priv;
}

const char *dqr_topology_name(const struct dqr_reactor *x)
{
	return x->topo.ops ? x->topo.ops->name : "any";
}

int dqr_topology_sets_sls(const struct dqr_reactor *x)
{
	const struct dqr_topology_ops *ops = x->topo.ops;

	return ops && ops->sets_sls && ops->sets_sls(x);
}

uint8_t dqr_topology_path_sl(const struct dqr_reactor *x, uint32_t slid,
			     uint32_t dlid, uint8_t hint)
{
	if (!dqr_topology_sets_sls(x))
		return hint;
	return x->topo.ops->path_sl(x, slid, dlid, hint);
}

unsigned dqr_topology_sl2vl(const struct dqr_reactor *x, uint64_t guid,
			    uint8_t in_port, uint8_t out_port, uint8_t *vl)
{
	unsigned n;

	if (!dqr_topology_sets_sls(x))
		return 0;
	n = x->topo.ops->sl2vl(x, guid, in_port, out_port, vl);
	DQR_CHECK(n <= 16);
	return n;
}

void dqr_topology_plugin_stats(const struct dqr_reactor *x,
			       struct dqr_plugin_stats *st)
{
	memset(st, 0, sizeof(*st));
	if (x->topo.ops && x->topo.ops->plugin_stats)
		x->topo.ops->plugin_stats(x, st);
}
