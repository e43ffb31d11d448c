/*
 * load.c - dqr-check --load: routes per channel under all-to-all traffic
 * and shift permutations of the end ports.
 */
#include <inttypes.h>
#include <stdio.h>

#include "dqr_check.h"

/* 0, or -1 when out of memory. */
int load_measure(const struct dqr_fabric *f, const struct dqr_lfts *t,
		 struct check_load *l)
{
	if (dqr_route_load(f, t, &l->all, NULL) ||
	    dqr_shift_load_summary(f, t, &l->shift))
		return -1;
	return 0;
}

void print_load_text(const struct check_load *l)
{
	const struct dqr_route_load *a = &l->all;
	const struct dqr_shift_summary *s = &l->shift;

	printf("load all-to-all: pairs %" PRIu64 ", unrouted %" PRIu64
	       ", switch links %u channels, max %" PRIu64 ", mean %.2f, min %"
	       PRIu64 ", max incl. CA links %" PRIu64 "\n", a->pairs,
	       a->unrouted, a->channels, a->max, a->mean, a->min, a->max_all);
	printf("load shift: %u shifts, worst max %" PRIu64 ", mean max %.2f, "
	       "mean %.2f\n", s->shifts, s->worst_max, s->mean_max, s->mean);
}

/* A member of the enclosing object: ,"load":{...} */
void print_load_json(const struct check_load *l)
{
	const struct dqr_route_load *a = &l->all;
	const struct dqr_shift_summary *s = &l->shift;

	printf(",\"load\":{\"all_to_all\":{\"pairs\":%" PRIu64
	       ",\"unrouted\":%" PRIu64 ",\"channels\":%u,\"max\":%" PRIu64
	       ",\"mean\":%.4f,\"min\":%" PRIu64 ",\"max_all\":%" PRIu64
	       "},\"shift\":{\"shifts\":%u,\"worst_max\":%" PRIu64
	       ",\"mean_max\":%.4f,\"mean\":%.4f}}", a->pairs, a->unrouted,
	       a->channels, a->max, a->mean, a->min, a->max_all, s->shifts,
	       s->worst_max, s->mean_max, s->mean);
}
