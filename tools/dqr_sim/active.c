/*
 * active.c - dqr-sim --active-pairs: the runs of faults on a hypercube
 * judged by the HC paper's active nodes (routing/twophase.h) instead of
 * every pair a cable joins.  The criteria are the faults' own, so they
 * judge any routing on the same faults: e-cube with DQR as well as
 * two-phase routing.  A state holds when every pair among switches of
 * whole groups (the pairs two-phase routing answers for) is routed and
 * its tables are deadlock free on one VL; runs go on while their states
 * hold, as the plugin keeps a two-phase state that leaves out broken
 * groups.
 */
#include <stdio.h>
#include <stdlib.h>

#include "routes/route_walk.h"
#include "shape/grid_shape.h"
#include "dqr_sim.h"

int active_alloc(struct sim *s)
{
	struct dqr_grid *g;
	char err[256];
	int ret;

	if (!s->o->active_pairs)
		return 0;
	if (dqr_grid_detect(s->p.ref, &g, err, sizeof(err)) ||
	    g->kind != DQR_GRID_HYPERCUBE) {
		if (!err[0] || g)
			snprintf(err, sizeof(err), "no hypercube");
		dqr_grid_free(g);
		fprintf(stderr, PROG ": --active-pairs: %s\n", err);
		return 1;
	}
	ret = dqr_twophase_new(s->p.ref, g->ndims, g->place, 1, &s->act.hc,
			       err, sizeof(err));
	dqr_grid_free(g);
	if (ret) {
		fprintf(stderr, PROG ": --active-pairs: %s\n", err);
		return 1;
	}
	s->act.sums = calloc(s->o->faults + 1, sizeof(*s->act.sums));
	s->act.level = malloc(s->p.ref->num_switches + 1);
	return s->act.sums && s->act.level ? 0 : -1;
}

void active_free(struct sim *s)
{
	dqr_twophase_free(s->act.hc);
	free(s->act.sums);
	free(s->act.level);
}

int active_add(struct sim *s, unsigned k, const struct dqr_fabric *f,
	       const struct dqr_lfts *t, int deadlock)
{
	struct active_sum *a = &s->act.sums[k];
	uint32_t whole, ns = f->num_switches;
	uint64_t pairs;
	int64_t bad;
	long act;

	act = dqr_twophase_active(s->act.hc, f, s->act.level, &whole);
	if (act < 0)
		return -1;
	bad = dqr_unrouted_among(f, t, s->act.level, DQR_TWOPHASE_WHOLE,
				 &pairs);
	if (bad < 0)
		return -1;
	a->states++;
	a->whole += (double)whole / ns;
	a->active += (double)act / ns;
	a->unrouted += (uint64_t)bad;
	if (bad || deadlock)
		return 0;
	a->holds++;
	return 1;
}

void active_print(const struct sim *s)
{
	const struct active_sum *a;
	unsigned k;

	if (!s->act.sums)
		return;
	printf("active pairs: the HC paper's criteria on each state's "
	       "faults: switches of whole groups (the pairs two-phase "
	       "routing answers for) and of them active by its bound of "
	       "%.1f faulty paths; a state holds when every pair among "
	       "whole groups is routed and its tables are deadlock free; "
	       "runs go on while their states hold\n",
	       dqr_twophase_path_bound(s->act.hc));
	for (k = 0; k <= s->o->faults; k++) {
		/* the start is one state, shared by every run */
		uint32_t runs = k ? s->o->runs : 1;

		a = &s->act.sums[k];
		if (!a->states)
			break;
		printf("active pairs: after %u faults: P(hold) %.4f (%u of "
		       "%u runs), whole %.1f%%, active %.1f%%, %llu pairs of "
		       "whole groups unrouted\n", k,
		       (double)a->holds / runs, a->holds, runs,
		       100.0 * a->whole / a->states,
		       100.0 * a->active / a->states,
		       (unsigned long long)a->unrouted);
	}
}
