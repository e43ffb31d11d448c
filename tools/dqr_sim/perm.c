/*
 * perm.c - dqr-sim --permutation KIND: one permutation of the end ports
 * (routes/permutation.h: bit reversal, transpose, random) routed through
 * the start tables and the tables in force after each fault of the runs
 * (routes/route_load.h: dqr_perm_load): the busiest switch-to-switch
 * channel, the longest and the mean route, the pairs not delivered.
 * Where --load all-to-all averages every pattern away, a permutation
 * shows the hot spots a routing leaves, and how repairs move them.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "routes/permutation.h"
#include "routes/route_load.h"
#include "dqr_sim.h"

const char *const perm_kind_names[] = {
	[PERM_NONE] = "none",
	[PERM_BIT_REVERSAL] = "bit-reversal",
	[PERM_TRANSPOSE] = "transpose",
	[PERM_RANDOM] = "random",
	NULL,
};

/* the random permutation's stream of the seed (faults.c: 1 to 4 taken) */
#define PERM_STREAM 5

static uint32_t perm_below(void *arg, uint32_t m)
{
	return rng_below(arg, m);
}

int perm_setup(struct sim *s)
{
	struct perm_run *p = &s->perm;
	const struct dqr_fabric *f = s->in.f;
	uint64_t rng;
	uint32_t i;
	int bad = 0;

	if (!s->o->permutation)
		return 0;
	p->ends = malloc(sizeof(*p->ends) * (f->max_lid + 1));
	if (!p->ends)
		return -1;
	p->n = dqr_end_ports(f, p->ends);
	p->pi = malloc(sizeof(*p->pi) * (p->n + 1));
	p->sums = calloc(s->o->faults + 1, sizeof(*p->sums));
	if (!p->pi || !p->sums)
		return -1;
	switch (s->o->permutation) {
	case PERM_BIT_REVERSAL:
		bad = dqr_perm_bit_reversal(p->pi, p->n);
		break;
	case PERM_TRANSPOSE:
		bad = dqr_perm_transpose(p->pi, p->n);
		break;
	default:
		rng = rng_stream(s->o->seed, PERM_STREAM, 0);
		dqr_perm_random(p->pi, p->n, perm_below, &rng);
		break;
	}
	if (bad) {
		fprintf(stderr, PROG ": --permutation %s needs a power of two "
			"of end ports: %s has E = %" PRIu32 "\n",
			perm_kind_names[s->o->permutation], s->in.name, p->n);
		return 2;
	}
	for (i = 0; i < p->n; i++)
		p->pairs += p->pi[i] != i;
	return 0;
}

int perm_add(struct sim *s, unsigned k, const struct dqr_fabric *f,
	     const struct dqr_lfts *t)
{
	struct perm_run *p = &s->perm;
	struct dqr_perm_load pl;
	struct perm_sum *ps;

	if (!s->o->permutation)
		return 0;
	if (dqr_perm_load(f, t, p->ends, p->pi, p->n, &pl, NULL))
		return -1;
	if (!k) {
		p->start = pl;
		return 0;
	}
	ps = &p->sums[k];
	ps->states++;
	ps->max += (double)pl.max;
	ps->longest += pl.longest;
	ps->mean_hops += pl.mean_hops;
	if (pl.max > ps->worst)
		ps->worst = pl.max;
	if (pl.longest > ps->longest_max)
		ps->longest_max = pl.longest;
	ps->unrouted += pl.unrouted;
	ps->apart += pl.apart;
	return 0;
}

void perm_print(const struct sim *s)
{
	const struct perm_run *p = &s->perm;
	const char *kind = perm_kind_names[s->o->permutation];
	const struct perm_sum *ps;
	unsigned k;

	if (!s->o->permutation)
		return;
	printf("permutation %s: %" PRIu32 " end ports, %" PRIu64 " send "
	       "(the others are their own destination); per state in force: "
	       "the routes on its busiest switch-to-switch channel, its "
	       "longest and mean route in switch-to-switch hops, the pairs "
	       "a cable path joins that it does not deliver (unrouted) and "
	       "those no cable path joins (apart); after k faults averaged "
	       "over the states that held, pairs summed\n", kind, p->n,
	       p->pairs);
	printf("permutation %s: start: max link load %" PRIu64 ", longest "
	       "route %" PRIu32 ", mean route %.2f hops, %" PRIu64 " pairs "
	       "unrouted, %" PRIu64 " apart\n", kind, p->start.max,
	       p->start.longest, p->start.mean_hops, p->start.unrouted,
	       p->start.apart);
	for (k = 1; k <= s->o->faults; k++) {
		ps = &p->sums[k];
		if (!ps->states)
			break;
		printf("permutation %s: after %u faults: max link load %.1f "
		       "(worst %" PRIu64 "), longest route %" PRIu32 " (mean "
		       "of states %.1f), mean route %.2f hops, %" PRIu64
		       " pairs unrouted, %" PRIu64 " apart, %" PRIu32
		       " states\n", kind, k, ps->max / ps->states, ps->worst,
		       ps->longest_max, ps->longest / ps->states,
		       ps->mean_hops / ps->states, ps->unrouted, ps->apart,
		       ps->states);
	}
}

void perm_print_json(const struct sim *s)
{
	const struct perm_run *p = &s->perm;
	const struct perm_sum *ps;
	unsigned k;

	if (!s->o->permutation)
		return;
	printf(",\"permutation\":{\"kind\":\"%s\",\"end_ports\":%" PRIu32
	       ",\"pairs\":%" PRIu64 ",\"start\":{\"max\":%" PRIu64
	       ",\"longest\":%" PRIu32 ",\"mean_hops\":%.4f,\"unrouted\":%"
	       PRIu64 ",\"apart\":%" PRIu64 "},\"steps\":[",
	       perm_kind_names[s->o->permutation], p->n, p->pairs,
	       p->start.max, p->start.longest, p->start.mean_hops,
	       p->start.unrouted, p->start.apart);
	for (k = 1; k <= s->o->faults; k++) {
		ps = &p->sums[k];
		if (!ps->states)
			break;
		printf("%s{\"fault\":%u,\"states\":%" PRIu32 ",\"max\":%.4f,"
		       "\"worst\":%" PRIu64 ",\"longest\":%" PRIu32
		       ",\"longest_mean\":%.4f,\"mean_hops\":%.4f,"
		       "\"unrouted\":%" PRIu64 ",\"apart\":%" PRIu64 "}",
		       k > 1 ? "," : "", k, ps->states, ps->max / ps->states,
		       ps->worst, ps->longest_max, ps->longest / ps->states,
		       ps->mean_hops / ps->states, ps->unrouted, ps->apart);
	}
	printf("]}");
}

void perm_release(struct sim *s)
{
	free(s->perm.ends);
	free(s->perm.pi);
	free(s->perm.sums);
	memset(&s->perm, 0, sizeof(s->perm));
}
