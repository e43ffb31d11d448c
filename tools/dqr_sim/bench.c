/*
 * bench.c - dqr-sim --bench, behind `make bench`: single random faults,
 * each from a fresh copy of the start state, timed.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "verify/verify_print.h"
#include "dqr_sim.h"

/* What every trial adds one value to, in the order of the JSON keys. */
enum {
	BF_REROUTE_US,		/* dqr_reroute_run */
	BF_UPDATE_US,		/* dqr_recon_update, all of it */
	BF_PROJECT_US,		/* dqr_fabric_project */
	BF_CHANGED,		/* entries changed */
	BF_LIDS,		/* DLIDs examined */
	BF_NUM,
};

static const char *const bench_keys[BF_NUM] = {
	"reroute_us", "update_us", "project_us", "changed", "lids",
};

struct bench_figs {
	double *v[BF_NUM];	/* one value a trial each */
	uint32_t n, ok, split;
};

static void bench_free(struct bench_figs *b)
{
	int i;

	for (i = 0; i < BF_NUM; i++)
		free(b->v[i]);
}

static int bench_alloc(struct bench_figs *b, uint32_t n)
{
	int i, ret = 0;

	for (i = 0; i < BF_NUM; i++)
		if (!(b->v[i] = malloc(sizeof(double) * n)))
			ret = -1;
	return ret;
}

/* One random fault from a fresh copy of the start state. */
static int bench_trial(struct sim *s, uint32_t trial, struct bench_figs *b,
		       uint32_t *parent)
{
	struct dqr_recon_result res;
	struct dqr_fabric *cur, *proj = NULL;
	struct dqr_recon r;
	uint64_t rng = rng_stream(s->o->seed, 2, trial);
	uint32_t port = s->sc.cand[rng_below(&rng, s->sc.num_cand)];
	uint64_t ca_lost;
	double ms_proj;
	int code, v = 0;

	if (fresh_state(s, &r, &cur))
		return -1;
	code = fail_one(&r, cur, port, &s->ro, &proj, &res, &ms_proj);
	if (code != DQR_RECON_NOMEM) {
		b->v[BF_REROUTE_US][b->n] = res.rs.us;
		b->v[BF_UPDATE_US][b->n] = res.us_total;
		b->v[BF_PROJECT_US][b->n] = ms_proj * 1e3;
		b->v[BF_CHANGED][b->n] = (double)res.rs.changed;
		b->v[BF_LIDS][b->n] = (double)res.rs.lids;
		b->n++;
		b->ok += code == DQR_RECON_OK;
		b->split += fabric_split(proj, s->sc.linked_node, parent);
		if (want_verify(s, trial, 1))
			v = verify_state(s, &r, proj, NULL, NULL, code, trial,
					 1, &ca_lost);
	}
	dqr_fabric_free(proj);
	dqr_fabric_free(cur);
	dqr_recon_release(&r);
	return code == DQR_RECON_NOMEM || v < 0 ? -1 : 0;
}

static void bench_print(const struct sim *s, struct bench_figs *b)
{
	struct dist d[BF_NUM];
	int i;

	for (i = 0; i < BF_NUM; i++)
		d[i] = distribution(b->v[i], b->n);
	if (s->o->json) {
		print_json_head(s);
		printf("\"bench\":{\"trials\":%u,\"ok\":%u,\"split\":%u,", b->n,
		       b->ok, b->split);
		for (i = 0; i < BF_NUM; i++) {
			if (i)
				putchar(',');
			print_json_dist(bench_keys[i], d[i]);
		}
		printf("},\"states_verified\":%" PRIu64 ",\"verify_failures\":"
		       "%u,\"verify_failures_partial\":%u}\n",
		       s->states_verified, s->verify_failures,
		       s->verify_failures_partial);
		return;
	}
	print_header(s, stdout);
	printf("\nbenchmark: %u single random faults of %s, each from the "
	       "start state\n", b->n, fault_kind(s->o));
	printf("  channel list build (once, before any fault)  %10.1f ms\n",
	       s->p.start.us_list / 1e3);
	printf("  reroute compute (dqr_reroute_run)   median %8.0f us  "
	       "p90 %8.0f us  worst %8.0f us\n", d[BF_REROUTE_US].median,
	       d[BF_REROUTE_US].p90, d[BF_REROUTE_US].max);
	printf("  whole update (dqr_recon_update)     median %8.0f us  "
	       "p90 %8.0f us  worst %8.0f us\n", d[BF_UPDATE_US].median,
	       d[BF_UPDATE_US].p90, d[BF_UPDATE_US].max);
	printf("  projection (dqr_fabric_project)     median %8.0f us  "
	       "p90 %8.0f us  worst %8.0f us\n", d[BF_PROJECT_US].median,
	       d[BF_PROJECT_US].p90, d[BF_PROJECT_US].max);
	printf("  entries changed                     median %8.0f     "
	       "worst %8.0f\n", d[BF_CHANGED].median,
	       d[BF_CHANGED].max);
	printf("  DLIDs examined                      median %8.0f     "
	       "worst %8.0f\n", d[BF_LIDS].median,
	       d[BF_LIDS].max);
	printf("  connected and deadlock free: %u/%u; fabric split: %u\n",
	       b->ok, b->n, b->split);
	printf("  ");
	print_verify_summary(s, stdout);
}

int bench(struct sim *s)
{
	struct bench_figs b;
	uint32_t *parent = malloc(sizeof(uint32_t) *
				  (s->p.ref->num_nodes + 1));
	uint32_t t;
	int ret = 0;

	memset(&b, 0, sizeof(b));
	if (!parent || bench_alloc(&b, s->o->trials)) {
		free(parent);
		bench_free(&b);
		return -1;
	}
	for (t = 0; t < s->o->trials && !ret; t++)
		ret = bench_trial(s, t, &b, parent);
	if (!ret)
		bench_print(s, &b);
	bench_free(&b);
	free(parent);
	return ret;
}
