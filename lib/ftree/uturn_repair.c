/*
 * uturn_repair.c - the paper's choice of reroute on a fat tree.
 */
#include "ftree/uturn_repair.h"

/* Place of channel ch in the list [off, end) of ft's links; or DQR_NONE. */
static uint32_t index_of(const uint32_t *list, uint32_t off, uint32_t end,
			 uint32_t ch)
{
	uint32_t i;

	for (i = off; i < end; i++)
		if (list[i] == ch)
			return i - off;
	return DQR_NONE;
}

uint32_t dqr_uturn_bias(void *arg, const struct dqr_fabric *f,
			const struct dqr_lfts *t, uint32_t sw, uint32_t ch,
			uint32_t lid)
{
	const struct dqr_ftree *ft = arg;
	const struct dqr_node *nd = &f->nodes[f->switches[sw]];
	uint32_t peer = dqr_peer_switch(f, ch), n, idx, old_idx, old_ch;
	uint8_t old = dqr_lft_get(t, sw, lid);

	if (peer == DQR_NONE || sw >= ft->num_switches ||
	    peer >= ft->num_switches)
		return DQR_UTURN_BIAS_OTHER;
	old_ch = old >= 1 && old <= nd->num_ports ? nd->port_base + old :
		 DQR_NONE;
	/* keeping an entry is DQR's business (its change penalty) */
	if (ch == old_ch)
		return 0;
	if (ft->level[peer] < ft->level[sw])
		return peer == ft->uturn_sw[sw] ? 0 : DQR_UTURN_BIAS_OTHER;
	n = ft->up_off[sw + 1] - ft->up_off[sw];
	idx = index_of(ft->up, ft->up_off[sw], ft->up_off[sw + 1], ch);
	old_idx = old_ch == DQR_NONE ? DQR_NONE :
		  index_of(ft->up, ft->up_off[sw], ft->up_off[sw + 1], old_ch);
	if (!n || idx == DQR_NONE)
		return DQR_UTURN_BIAS_OTHER;
	if (old_idx == DQR_NONE) {
		/* the entry went down or nowhere: the first up link in D
		 * (DQR's loop freedom keeps it off the way back) */
		return idx == 0 ? 0 : DQR_UTURN_BIAS_OTHER;
	}
	return idx == (old_idx + 1) % n ? 0 : DQR_UTURN_BIAS_OTHER;
}

void dqr_uturn_repair_opts(const struct dqr_ftree *ft,
			   struct dqr_reroute_opts *o)
{
	o->bias = dqr_uturn_bias;
	o->bias_arg = (void *)ft;
	o->rank = ft->rank;
}
