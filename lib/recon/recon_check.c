/*
 * recon_check.c - the last update's change judged where it changed
 * (dqr_recon_check_change(), recon.h): the entries the reroute wrote,
 * against the channel list that holds their dependencies.
 */
#include <stdlib.h>
#include <string.h>

#include "recon/recon.h"
#include "util/check.h"

int dqr_recon_check_change(const struct dqr_recon *r,
			   struct dqr_change_check *w,
			   const struct dqr_fabric *proj,
			   const struct dqr_lfts *held, const uint32_t *cut,
			   uint32_t num_cut, struct dqr_change_report *rep)
{
	const struct dqr_change *ch;
	struct dqr_entry_ref *e;
	struct dqr_change_set cs;
	uint32_t n, i;
	int ret;

	/* one layer: recon's own list and reroute */
	DQR_CHECK(r->cl && r->rr);
	ch = dqr_reroute_changes(r->rr, &n);
	e = malloc(sizeof(*e) * (n + 1));
	if (!e)
		return -1;
	for (i = 0; i < n; i++) {
		e[i].sw = ch[i].sw;
		e[i].lid = ch[i].lid;
	}
	memset(&cs, 0, sizeof(cs));
	cs.from = held;
	cs.to = r->cur;
	cs.entries = e;
	cs.num_entries = n;
	cs.cut = cut;
	cs.num_cut = num_cut;
	cs.pos = r->cl->pos;
	cs.num_pos = r->cl->num_vertices;
	ret = dqr_verify_change(w, proj, &cs, rep);
	free(e);
	return ret;
}
