/*
 * figures.c - dqr-sim's figures from the sums of the runs: distributions
 * of the times, per-step means and the connectivity per fault count.
 */
#include <math.h>
#include <stdlib.h>
#include <sys/resource.h>

#include "dqr_sim.h"

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

long peak_rss_kib(void)
{
	struct rusage u;

	if (getrusage(RUSAGE_SELF, &u))
		return 0;
	return u.ru_maxrss;
}

/* Sorts v in place. */
struct dist distribution(double *v, uint32_t n)
{
	struct dist d = { 0, 0, 0 };

	if (!n)
		return d;
	qsort(v, n, sizeof(double), cmp_double);
	d.median = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
	d.p90 = v[(uint32_t)((n - 1) * 0.9)];
	d.max = v[n - 1];
	return d;
}

/* The same over every step: one array of all values. */
struct dist overall(const struct sim *s, int total)
{
	uint32_t n = 0, k, i;
	double *all;
	struct dist d = { 0, 0, 0 };

	for (k = 0; k < s->o->faults; k++)
		n += s->steps[k].reached;
	all = malloc(sizeof(double) * (n + 1));
	if (!all)
		return d;
	for (k = n = 0; k < s->o->faults; k++)
		for (i = 0; i < s->steps[k].reached; i++)
			all[n++] = total ? s->steps[k].us_total[i] :
				   s->steps[k].us[i];
	d = distribution(all, n);
	free(all);
	return d;
}

/* The cost of the re-routing layers: 0 fill, 1 VL build, 2 VL verify. */
struct dist ml_dist(const struct sim *s, int which)
{
	const struct ml_times *m = &s->mlt;
	double *all = malloc(sizeof(double) * (m->n + 1));
	struct dist d = { 0, 0, 0 };
	uint32_t i;

	if (!all)
		return d;
	for (i = 0; i < m->n; i++)
		all[i] = which == 0 ? m->v[i].fill_us : which == 1 ?
			 m->v[i].build_ms : m->v[i].verify_ms;
	d = distribution(all, m->n);
	free(all);
	return d;
}

struct step_view step_view(const struct sim *s, unsigned k)
{
	struct step_stats *st = &s->steps[k];
	double n = st->reached ? st->reached : 1;
	struct step_view v;
	uint32_t ok = 0;

	/* runs successful through k: those that reached k and passed it */
	ok = st->ok;
	v.p_ok = (double)ok / s->o->runs;
	v.disconnected = st->disconnected / n;
	v.changed = st->changed / n;
	v.pairs = st->pairs / n;
	v.turns = st->turns / n;
	v.reorders = st->reorders / n;
	v.moved = st->moved / n;
	v.refused = st->refused / n;
	v.lids = st->lids / n;
	v.us = distribution(st->us, st->reached);
	v.us_total = distribution(st->us_total, st->reached);
	return v;
}

struct conn_view conn_view(const struct sim *s, unsigned k)
{
	const struct step_stats *st = k ? &s->steps[k - 1] : &s->start_step;
	struct conn_view c;

	c.connected = st->connected;
	c.verified = st->verified;
	c.verify_failed = st->verify_failed;
	c.cyclic = st->cyclic;
	c.ca_lost = st->ca_lost;
	c.ends_cut = st->ends_cut;
	c.p_ends = (double)st->conn_ends / s->o->runs;
	c.p_connected = (double)st->connected / s->o->runs;
	c.p_df = st->verified ? (double)(st->verified - st->cyclic) /
				st->verified : NAN;
	return c;
}
