/*
 * reverse_bias.c - a dead entry's repair goes back the way the
 * destination's re-routed route comes (reverse_bias.h says why).
 */
#include "mesh/reverse_bias.h"
#include "routes/route_walk.h"

uint32_t dqr_reverse_hop(const struct dqr_fabric *f, const struct dqr_lfts *t,
			 const struct dqr_lfts *orig, uint32_t sw,
			 uint32_t lid, int *rerouted)
{
	uint32_t x = dqr_lid_switch(f, lid), prev = DQR_NONE, ch, n;
	unsigned own = dqr_switch_lid(f, sw);

	*rerouted = 0;
	if (x == DQR_NONE || !own || x == sw)
		return DQR_NONE;
	/* more hops than switches: the route loops */
	for (n = 0; x != sw && n < f->num_switches; n++) {
		ch = dqr_next_channel(f, t, x, own);
		if (ch == DQR_NONE)
			return DQR_NONE;
		if (orig && x < orig->num_switches &&
		    dqr_lft_get(orig, x, own) != dqr_lft_get(t, x, own))
			*rerouted = 1;
		prev = x;
		x = dqr_peer_switch(f, ch);
		if (x == DQR_NONE)
			return DQR_NONE;
	}
	return x == sw ? prev : DQR_NONE;
}

void dqr_reverse_bias_opts(struct dqr_reroute_opts *o,
			   const struct dqr_lfts *orig)
{
	o->bias = dqr_reverse_bias;
	o->bias_arg = (void *)orig;
}

uint32_t dqr_reverse_bias(void *arg, const struct dqr_fabric *f,
			  const struct dqr_lfts *t, uint32_t sw, uint32_t ch,
			  uint32_t lid)
{
	uint32_t back;
	int rerouted;

	/* an entry that still forwards keeps the search's own choice */
	if (dqr_next_channel(f, t, sw, lid) != DQR_NONE)
		return 0;
	back = dqr_reverse_hop(f, t, arg, sw, lid, &rerouted);
	return back != DQR_NONE && rerouted &&
	       dqr_peer_switch(f, ch) != back ? DQR_REVERSE_BIAS_COST : 0;
}
