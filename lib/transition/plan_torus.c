/*
 * plan_torus.c - a torus_layers' layers for the layered planner
 * (plan_torus.h).
 */
#include "transition/plan_torus.h"

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
	const struct dqr_torus_plan *tp = ctx;
	uint32_t s = port_switch(tp->f, src_port);
	uint32_t d = port_switch(tp->f, dqr_lid_owner(tp->f, lid));

	if (s == DQR_NONE || d == DQR_NONE)
		return 0;	/* no route to judge */
	return dqr_torus_layers_sl(tp->tl, s, d);
}

void dqr_torus_plan_init(struct dqr_torus_plan *tp,
			 const struct dqr_torus_layers *tl,
			 const struct dqr_fabric *f)
{
	tp->tl = tl;
	tp->f = f;
	tp->lay.num_layers = dqr_torus_layers_count(tl);
	tp->lay.layer = torus_layer;
	tp->lay.ctx = tp;
}
