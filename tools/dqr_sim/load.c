/*
 * load.c - dqr-sim --load all-to-all: the routes every switch-to-switch
 * channel carries when every end port sends to every other one
 * (routes/route_load.h), for the start state and for the state in force
 * after each fault of the runs, so that routings and repairs compare by
 * the congestion they leave, not only by whether they hold.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "routes/route_load.h"
#include "dqr_sim.h"

int load_alloc(struct sim *s)
{
	if (!s->o->load)
		return 0;
	s->loads = calloc(s->o->faults + 1, sizeof(*s->loads));
	return s->loads ? 0 : -1;
}

int load_add(struct sim *s, unsigned k, const struct dqr_fabric *f,
	     const struct dqr_lfts *t)
{
	struct dqr_route_load ld;

	if (!s->loads)
		return 0;
	if (dqr_route_load(f, t, &ld, NULL))
		return -1;
	load_sum_add(&s->loads[k], &ld);
	return 0;
}

void load_sum_add(struct load_sum *ls, const struct dqr_route_load *ld)
{
	ls->states++;
	ls->max += (double)ld->max;
	ls->mean += ld->mean;
	if (ld->max > ls->worst)
		ls->worst = ld->max;
	ls->unrouted += ld->unrouted;
}

void load_print(const struct sim *s)
{
	const struct load_sum *ls;
	unsigned k;

	if (!s->loads)
		return;
	printf("load all-to-all: routes per switch-to-switch channel of the "
	       "state in force, averaged over the states that held\n");
	for (k = 0; k <= s->o->faults; k++) {
		ls = &s->loads[k];
		if (!ls->states)
			break;
		printf("load: after %u faults: max %.1f mean %.2f (worst max %"
		       PRIu64 ", %u states, %" PRIu64 " pairs unrouted)\n", k,
		       ls->max / ls->states, ls->mean / ls->states, ls->worst,
		       ls->states, ls->unrouted);
	}
}
