/*
 * recon.c - starting DQR after a full routing, and following the cabling
 * as it fails and recovers.
 */
#include <stdlib.h>
#include <string.h>

#include "deps/cdg.h"
#include "recon/recon.h"
#include "recon/recon-internal.h"
#include "util/check.h"
#include "util/mem.h"
#include "util/sort.h"
#include "util/timing.h"

void dqr_recon_release(struct dqr_recon *r)
{
	dqr_fabric_free(r->ref);
	dqr_lfts_free(r->orig);
	dqr_lfts_free(r->cur);
	dqr_dyn_free(r->cl);
	dqr_reroute_free(r->rr);
	free(r->down);
	dqr_cycle_free(&r->cycle);
	dqr_recon_change_release(&r->change);
	dqr_vlayers_free(r->tl);
	dqr_grid_free(r->grid);
	memset(r, 0, sizeof(*r));
}

int dqr_recon_clone(const struct dqr_recon *r, struct dqr_recon *out)
{
	memset(out, 0, sizeof(*out));
	/* a torus's layers have no copy: their users judge in place */
	if (r->tl || r->grid)
		return 1;
	out->ref = dqr_fabric_clone(r->ref);
	out->orig = dqr_lfts_clone(r->orig);
	out->cur = dqr_lfts_clone(r->cur);
	out->cl = dqr_dyn_clone(r->cl);
	/* a reroute context keeps nothing from one run to the next */
	out->rr = out->ref ? dqr_reroute_new(out->ref) : NULL;
	out->down = malloc(sizeof(uint32_t) * (r->num_down + 1));
	if (!out->ref || !out->orig || !out->cur || !out->cl || !out->rr ||
	    !out->down) {
		dqr_recon_release(out);
		return -1;
	}
	if (r->num_down)
		memcpy(out->down, r->down, sizeof(uint32_t) * r->num_down);
	out->num_down = r->num_down;
	out->updates = r->updates;
	out->pairs_moved_back = r->pairs_moved_back;
	return 0;
}

/* A channel list for the n tables ts together on f, as list_from(). */
static struct dqr_dyn_order *list_of(const struct dqr_fabric *f,
				     const struct dqr_lfts *const *ts,
				     unsigned n, int *cyclic,
				     struct dqr_cycle *cycle)
{
	struct dqr_channel_list cl;
	struct dqr_dyn_order *d = NULL;
	struct dqr_cdg *g;
	int ret;

	ret = dqr_channel_list_of_tables(f, ts, n, &cl, cycle, &g);
	*cyclic = ret == 1;
	if (ret == 0) {
		d = dqr_dyn_new(g, &cl);
		dqr_channel_list_free(&cl);
	}
	dqr_cdg_free(g);
	return d;
}

/*
 * A channel list for t on f; NULL with *cyclic set when t has a cycle
 * (its channels then in cycle, when given).
 */
static struct dqr_dyn_order *list_from(const struct dqr_fabric *f,
				       const struct dqr_lfts *t, int *cyclic,
				       struct dqr_cycle *cycle)
{
	const struct dqr_lfts *ts[1] = { t };

	return list_of(f, ts, 1, cyclic, cycle);
}

/*
 * Entries, 64-LID blocks and switches the last reroute changed, from its
 * change list: the tables themselves are too big to compare each time.
 */
static int diff_from_changes(const struct dqr_reroute *rr,
			     struct dqr_lft_diff *d)
{
	const struct dqr_change *c;
	uint64_t *key;
	uint32_t n, i;

	memset(d, 0, sizeof(*d));
	c = dqr_reroute_changes(rr, &n);
	if (!n)
		return 0;
	key = malloc(sizeof(*key) * n);
	if (!key)
		return -1;
	for (i = 0; i < n; i++)
		key[i] = (uint64_t)c[i].sw << 32 | c[i].lid / DQR_LFT_BLOCK;
	qsort(key, n, sizeof(*key), dqr_cmp_u64);
	d->entries = n;
	for (i = 0; i < n; i++) {
		if (i && key[i] == key[i - 1])
			continue;
		d->blocks++;
		if (!i || key[i] >> 32 != key[i - 1] >> 32)
			d->switches++;
	}
	free(key);
	return 0;
}

int dqr_recon_start(struct dqr_recon *r, const struct dqr_fabric *f,
		    const struct dqr_lfts *t, const struct dqr_reroute_opts *o,
		    struct dqr_recon_result *res)
{
	double t0 = dqr_now_ms();
	uint32_t *lids = NULL;
	int64_t n;
	int cyclic, ret;

	memset(r, 0, sizeof(*r));
	memset(res, 0, sizeof(*res));
	r->cl = list_from(f, t, &cyclic, &r->cycle);
	res->us_list = (dqr_now_ms() - t0) * 1e3;
	if (cyclic)
		return DQR_RECON_CYCLIC;
	r->ref = dqr_fabric_clone(f);
	r->orig = dqr_lfts_clone(t);
	r->rr = dqr_reroute_new(f);
	if (!r->cl || !r->ref || !r->orig || !r->rr)
		goto nomem;
	n = dqr_lids_with_holes(f, r->orig, &lids);
	if (n < 0)
		goto nomem;
	ret = dqr_reroute_run(r->rr, f, r->orig, r->cl, o, lids, (uint32_t)n,
			      &res->rs);
	free(lids);
	if (ret)
		goto nomem;
	r->cur = dqr_lfts_clone(r->orig);
	if (!r->cur || diff_from_changes(r->rr, &res->diff))
		goto nomem;
	res->us_total = (dqr_now_ms() - t0) * 1e3;
	return res->rs.failed ? DQR_RECON_FAILED : DQR_RECON_OK;
nomem:
	dqr_recon_release(r);
	return DQR_RECON_NOMEM;
}

/* Ports in a (sorted) that are not in b (sorted), into out. */
static uint32_t minus(const uint32_t *a, uint32_t na, const uint32_t *b,
		      uint32_t nb, uint32_t *out)
{
	uint32_t i = 0, j = 0, k = 0;

	while (i < na) {
		if (j < nb && b[j] < a[i]) {
			j++;
		} else if (j < nb && b[j] == a[i]) {
			i++;
			j++;
		} else {
			out[k++] = a[i++];
		}
	}
	return k;
}

/*
 * Both ends in ref of the cables at the switch ports down[0, nd), for
 * dqr_reroute_run_ports(): the list was in line with the cabling but
 * for them (their cables were down before, or it was just built).
 * NULL with *n 0 when d counts a missing cable without a switch end,
 * which down[] does not name (only the whole scan finds it), or when
 * out of memory.
 */
static uint32_t *cable_ends(const struct dqr_fabric *ref,
			    const uint32_t *down, uint32_t nd,
			    const struct dqr_topo_diff *d, uint32_t *n)
{
	uint32_t *ends, i, q, cables = 0;

	*n = 0;
	ends = malloc(sizeof(uint32_t) * (2 * nd + 1));
	if (!ends)
		return NULL;
	for (i = 0; i < nd; i++) {
		q = dqr_peer_port(ref, down[i]);
		ends[(*n)++] = down[i];
		if (q == DQR_NONE) {
			cables++;
			continue;
		}
		ends[(*n)++] = q;
		/* a cable between switches has both ends in down[] */
		cables += !dqr_is_switch(ref, ref->ports[q].node) ||
			  down[i] < q;
	}
	if (cables != d->links_missing) {
		free(ends);
		*n = 0;
		return NULL;
	}
	return ends;
}

/* Back to the original tables, with a channel list made for them. */
static int restart_from_original(struct dqr_recon *r,
				 struct dqr_recon_result *res)
{
	double t0 = dqr_now_ms();
	struct dqr_dyn_order *cl;
	int cyclic;

	/* the original routes alone are acyclic: DQR built them legal */
	cl = list_from(r->ref, r->orig, &cyclic, NULL);
	DQR_CHECK(!cyclic);
	if (!cl)
		return -1;
	dqr_dyn_free(r->cl);
	r->cl = cl;
	memcpy(r->cur->port, r->orig->port,
	       (size_t)r->cur->num_switches * r->cur->lid_count);
	res->from_original = 1;
	res->us_list = (dqr_now_ms() - t0) * 1e3;
	return 0;
}

/*
 * The base's tables for proj with a channel list built for them, and
 * DQR's fill of what they leave: 0, -1 when out of memory,
 * DQR_REROUTE_OVER past the budget, or 1 when the base's tables have a
 * cycle (its own guarantee broken: the caller repairs the tables in
 * force instead, as without a base).
 */
static int update_from_base(struct dqr_recon *r, const struct dqr_fabric *proj,
			    const struct dqr_reroute_opts *o,
			    struct dqr_recon_result *res)
{
	double t0 = dqr_now_ms();
	const struct dqr_lfts *both[2];
	struct dqr_dyn_order *cl;
	struct dqr_lfts *t;
	uint32_t *lids = NULL, sw, lid, nl;
	int64_t n;
	int cyclic, run;

	if (r->base.route(r->base.arg, proj, &t))
		return -1;
	/*
	 * A list of the tables held and the new ones together lets the
	 * planner prove stages without a drain; the base's routes all climb
	 * one order, so only DQR's earlier fill can make the two cyclic.
	 */
	both[0] = r->cur;
	both[1] = t;
	cl = list_of(r->ref, both, 2, &cyclic, NULL);
	r->list_holds_before = cl != NULL;
	if (!cl && cyclic)
		cl = list_from(r->ref, t, &cyclic, NULL);
	if (!cl) {
		dqr_lfts_free(t);
		return cyclic ? 1 : -1;
	}
	dqr_dyn_free(r->cl);
	r->cl = cl;
	nl = t->lid_count < r->cur->lid_count ? t->lid_count :
	     r->cur->lid_count;
	for (sw = 0; sw < r->cur->num_switches; sw++)
		for (lid = 0; lid < r->cur->lid_count; lid++)
			dqr_lft_set(r->cur, sw, lid, lid < nl &&
				    sw < t->num_switches ?
				    dqr_lft_get(t, sw, lid) : DQR_NO_PATH);
	dqr_lfts_free(t);
	res->from_original = 1;
	res->us_list = (dqr_now_ms() - t0) * 1e3;
	n = dqr_lids_with_holes(proj, r->cur, &lids);
	if (n < 0)
		return -1;
	run = dqr_reroute_run(r->rr, proj, r->cur, r->cl, o, lids,
			      (uint32_t)n, &res->rs);
	free(lids);
	/* the base's holes had routes before the fault: failed ones now */
	res->rs.failed += res->rs.holes;
	res->rs.holes = 0;
	return run;
}

int dqr_recon_update(struct dqr_recon *r, const struct dqr_fabric *proj,
		     const struct dqr_topo_diff *d,
		     const struct dqr_reroute_opts *o,
		     struct dqr_recon_result *res)
{
	double t0 = dqr_now_ms();
	uint32_t *down, *fresh, *back, nd = d->num_missing_ports, nf, nb;
	struct dqr_lfts *before = NULL;
	uint32_t *lids = NULL, *ends = NULL, ne = 0;
	int64_t n;
	int ret = DQR_RECON_NOMEM, run;

	/* a projection of r->ref that only lacks things (recon.h) */
	DQR_CHECK(dqr_topo_diff_degraded_only(d) &&
		  proj->num_ports == r->ref->num_ports &&
		  proj->num_switches == r->ref->num_switches);
	memset(res, 0, sizeof(*res));
	down = malloc(sizeof(uint32_t) * (nd + 1));
	fresh = malloc(sizeof(uint32_t) * (nd + 1));
	back = malloc(sizeof(uint32_t) * (r->num_down + 1));
	if (!down || !fresh || !back)
		goto out;
	if (nd)
		memcpy(down, d->missing_ports, sizeof(uint32_t) * nd);
	qsort(down, nd, sizeof(uint32_t), dqr_cmp_u32);
	nf = minus(down, nd, r->down, r->num_down, fresh);
	nb = minus(r->down, r->num_down, down, nd, back);
	res->ports_failed = nf;
	res->ports_recovered = nb;
	dqr_recon_note_change(r, down, nd, fresh, nf, back, nb);

	if (r->tl) {
		/* tori are emulator-sized: the diff compares whole tables */
		before = dqr_lfts_clone(r->cur);
		if (!before || (nb && dqr_recon_vlayers_restart(r)) ||
		    dqr_recon_vlayers_run(r, proj, &res->rs))
			goto out;
		res->from_original = nb > 0;
		goto done;
	}
	r->list_holds_before = 0;
	if (r->base.route) {
		before = dqr_lfts_clone(r->cur);
		if (!before)
			goto out;
		run = update_from_base(r, proj, o, res);
		if (run == DQR_REROUTE_OVER)
			ret = DQR_RECON_OVER;
		if (run < 0 || run == DQR_REROUTE_OVER)
			goto out;
		if (!run) {
			dqr_recon_note_cut(r);
			goto done;
		}
		dqr_lfts_free(before);
		before = NULL;
	}
	if (nb) {
		/* something came back: reroute all that is still down */
		before = dqr_lfts_clone(r->cur);
		if (!before || restart_from_original(r, res))
			goto out;
		n = dqr_lids_through_ports(r->ref, r->cur, down, nd, &lids);
	} else {
		n = dqr_lids_through_ports(r->ref, r->cur, fresh, nf, &lids);
	}
	if (n < 0)
		goto out;
	/* the list knows every cable but those now down */
	ends = cable_ends(r->ref, down, nd, d, &ne);
	run = ends ? dqr_reroute_run_ports(r->rr, proj, r->cur, r->cl, o, ends,
					   ne, lids, (uint32_t)n, &res->rs) :
		     dqr_reroute_run(r->rr, proj, r->cur, r->cl, o, lids,
				     (uint32_t)n, &res->rs);
	if (run == DQR_REROUTE_OVER)
		ret = DQR_RECON_OVER;
	if (run)
		goto out;
	dqr_recon_note_cut(r);
done:
	free(r->down);
	r->down = down;
	r->num_down = nd;
	down = NULL;
	r->updates++;
	if (before)
		dqr_lfts_diff(before, r->cur, &res->diff);
	else if (diff_from_changes(r->rr, &res->diff))
		goto out;
	ret = res->rs.failed ? DQR_RECON_FAILED : DQR_RECON_OK;
out:
	dqr_lfts_free(before);
	res->us_total = (dqr_now_ms() - t0) * 1e3;
	DQR_FREE_ALL(lids, down, fresh, back, ends);
	return ret;
}
