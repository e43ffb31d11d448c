/*
 * rerouting_layer.c - filling what one layer cannot hold, on two VLs.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ftree/rerouting_layer.h"
#include "util/timing.h"

void dqr_ml_release(struct dqr_ml *ml)
{
	dqr_lfts_free(ml->tables);
	dqr_ml_vls_free(ml->vl);
	free(ml->fill);
	memset(ml, 0, sizeof(*ml));
}

int dqr_ml_usable(const struct dqr_ml *ml)
{
	return ml->tables && ml->vl && !ml->st.left &&
	       ml->st.vl.deadlock_free;
}

int dqr_ml_build(struct dqr_recon *r, const struct dqr_fabric *proj,
		 const struct dqr_ftree *ft, const struct dqr_reroute_opts *o,
		 struct dqr_ml *ml, char *err, size_t errlen)
{
	struct dqr_reroute_opts fill = *o;
	const struct dqr_change *ch;
	struct dqr_reroute_stats rs;
	uint32_t *lids = NULL;
	double t0 = dqr_now_ms();
	int64_t n;
	int ret;

	memset(ml, 0, sizeof(*ml));
	ml->tables = dqr_lfts_clone(r->cur);
	if (!ml->tables)
		goto nomem;
	n = dqr_lids_with_holes(proj, ml->tables, &lids);
	if (n < 0)
		goto nomem;
	/* no topology plug-in: it would enable turns in the list */
	fill.plugin = NULL;
	fill.outside_list = 1;
	fill.stretch_on = 0;
	ret = dqr_reroute_run(r->rr, proj, ml->tables, r->cl, &fill, lids,
			      (uint32_t)n, &rs);
	if (ret == DQR_REROUTE_OVER) {
		free(lids);
		dqr_ml_release(ml);
		snprintf(err, errlen, "past the budget filling the "
			 "re-routing layer");
		return -1;
	}
	if (ret)
		goto nomem;
	free(lids);
	lids = NULL;
	ch = dqr_reroute_changes(r->rr, &ml->num_fill);
	ml->fill = malloc(sizeof(*ml->fill) * (ml->num_fill + 1));
	if (!ml->fill)
		goto nomem;
	memcpy(ml->fill, ch, sizeof(*ml->fill) * ml->num_fill);
	ml->st.lids = rs.lids_disconnected;
	ml->st.filled = rs.changed;
	ml->st.left = rs.failed + rs.holes;
	ml->st.us_fill = (dqr_now_ms() - t0) * 1e3;
	if (dqr_ml_vls_build(proj, ml->tables, ft, &ml->vl, &ml->st.vl,
			     err, errlen)) {
		dqr_ml_release(ml);
		return -1;
	}
	return 0;
nomem:
	free(lids);
	dqr_ml_release(ml);
	snprintf(err, errlen, "out of memory filling the re-routing layer");
	return -1;
}
