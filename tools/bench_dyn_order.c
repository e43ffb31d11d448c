/*
 * bench_dyn_order.c - timing of the dynamic channel list on random DAGs.
 *
 *   bench_dyn_order [-n vertices] [-m edges] [-k additions] [-w window]
 *                   [-s seed]
 *
 * A hidden ranking of n vertices gets m distinct edges from lower to
 * higher rank at most w ranks apart (w = n: no locality); the starting
 * list is Kahn's order with random ties, so it disagrees with the ranking
 * almost everywhere.  Then k edges legal under the ranking (never a cycle)
 * are checked and added, and the same k are tried again under a mark and
 * rolled back.  Not a unit test: figures for the design notes.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "deps/dyn_order.h"
#include "deps/edge_list.h"
#include "util/timing.h"

static uint64_t rng = 88172645463325252ull;

static uint32_t rnd(uint32_t n)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (uint32_t)((rng >> 11) % n);
}

static int cmp_edge(const void *x, const void *y)
{
	const uint32_t *a = x, *b = y;

	if (a[0] != b[0])
		return a[0] < b[0] ? -1 : 1;
	return (a[1] > b[1]) - (a[1] < b[1]);
}

/* m edges (pairs) between ranks r < s <= r + w, duplicates dropped. */
static uint32_t *gen_edges(uint32_t n, uint32_t *m, uint32_t w,
			   const uint32_t *byrank)
{
	uint32_t *e = malloc(sizeof(uint32_t) * 2 * *m), i, j, r, span;

	if (!e)
		return NULL;
	for (i = 0; i < *m; i++) {
		r = rnd(n - 1);
		span = n - 1 - r < w ? n - 1 - r : w;
		e[2 * i] = byrank[r];
		e[2 * i + 1] = byrank[r + 1 + rnd(span)];
	}
	qsort(e, *m, 2 * sizeof(uint32_t), cmp_edge);
	for (i = j = 0; i < *m; i++) {
		if (j && e[2 * j - 2] == e[2 * i] &&
		    e[2 * j - 1] == e[2 * i + 1])
			continue;
		e[2 * j] = e[2 * i];
		e[2 * j + 1] = e[2 * i + 1];
		j++;
	}
	*m = j;
	return e;
}

/* dqr_topo_order()'s tie break: a random ready vertex */
static uint32_t pick_random(void *ctx, uint32_t r)
{
	(void)ctx;
	return rnd(r);
}

static void usage(void)
{
	fprintf(stderr, "usage: bench_dyn_order [-n vertices] [-m edges] "
		"[-k additions] [-w window] [-s seed]\n");
	exit(2);
}

int main(int argc, char **argv)
{
	uint32_t n = 100000, m = 500000, k = 10000, w = 0, i, r, s;
	uint32_t *rank, *byrank, *e, *pairs, cost;
	uint64_t sum_cost = 0, legal = 0, reorder = 0;
	struct dqr_channel_list cl;
	struct dqr_dyn_order *d;
	struct dqr_cdg *g;
	double t0, t_new, t_check, t_add, t_try, t_back;
	/* the size options, and where each goes */
	static const char size_opts[] = "nmkw";
	uint32_t *const sizes[] = { &n, &m, &k, &w };
	const char *so;
	size_t mark;
	int opt;

	while ((opt = getopt(argc, argv, "n:m:k:w:s:")) != -1) {
		if (opt == 's')
			rng = strtoull(optarg, NULL, 0) | 1;
		else if (opt != '?' && (so = strchr(size_opts, opt)) != NULL)
			*sizes[so - size_opts] = (uint32_t)strtoul(optarg, NULL,
								  0);
		else
			usage();
	}
	if (n < 2 || !m || !k)
		usage();
	if (!w || w > n)
		w = n;

	rank = malloc(sizeof(uint32_t) * n);
	byrank = malloc(sizeof(uint32_t) * n);
	pairs = malloc(sizeof(uint32_t) * 2 * k);
	if (!rank || !byrank || !pairs)
		return 1;
	for (i = 0; i < n; i++)
		byrank[i] = i;
	for (i = n - 1; i > 0; i--) {
		r = rnd(i + 1);
		s = byrank[i];
		byrank[i] = byrank[r];
		byrank[r] = s;
	}
	for (i = 0; i < n; i++)
		rank[byrank[i]] = i;
	e = gen_edges(n, &m, w, byrank);
	g = e ? dqr_cdg_of_edges(n, e, m) : NULL;
	free(e);
	if (!g || dqr_topo_order(g, pick_random, NULL, &cl))
		return 1;
	/* the additions keep the same locality as the base edges */
	for (i = 0; i < k; i++) {
		r = rnd(n - 1);
		s = r + 1 + rnd(n - 1 - r < w ? n - 1 - r : w);
		pairs[2 * i] = byrank[r];
		pairs[2 * i + 1] = byrank[s];
	}

	t0 = dqr_now_ms();
	d = dqr_dyn_new(g, &cl);
	t_new = dqr_now_ms() - t0;
	if (!d)
		return 1;

	t0 = dqr_now_ms();
	for (i = 0; i < k; i++) {
		int c = dqr_dyn_check(d, pairs[2 * i], pairs[2 * i + 1],
				      &cost);

		legal += c == DQR_DYN_LEGAL;
		sum_cost += cost;
	}
	t_check = dqr_now_ms() - t0;

	/* the same turns tried together, then dropped */
	mark = dqr_dyn_mark(d);
	t0 = dqr_now_ms();
	for (i = 0; i < k; i++)
		if (dqr_dyn_add(d, pairs[2 * i], pairs[2 * i + 1]) < 0)
			return 1;
	t_try = dqr_now_ms() - t0;
	t0 = dqr_now_ms();
	dqr_dyn_rollback(d, mark);
	t_back = dqr_now_ms() - t0;

	t0 = dqr_now_ms();
	for (i = 0; i < k; i++) {
		int ret = dqr_dyn_add(d, pairs[2 * i], pairs[2 * i + 1]);

		if (ret < 0)
			return 1;
		reorder += ret == DQR_DYN_REORDERED;
	}
	t_add = dqr_now_ms() - t0;

	printf("DAG: %" PRIu32 " vertices, %" PRIu32 " edges, window %"
	       PRIu32 "\n", n, m, w);
	printf("new:      %10.1f ms (copy + validity check)\n", t_new);
	printf("check:    %10.1f ms for %" PRIu32 " (%.2f us each), "
	       "%" PRIu64 " legal at once, mean region %.1f\n",
	       t_check, k, t_check * 1e3 / k, legal,
	       (double)sum_cost / (k - legal ? k - legal : 1));
	printf("add:      %10.1f ms for %" PRIu32 " (%.2f us each), "
	       "%" PRIu64 " reorders, %" PRIu64 " channels moved\n",
	       t_add, k, t_add * 1e3 / k, reorder, d->num_moved);
	printf("try+undo: %10.1f ms + %.1f ms rollback\n", t_try, t_back);
	printf("valid:    %s\n", dqr_dyn_valid(d) ? "yes" : "NO");

	dqr_dyn_free(d);
	dqr_channel_list_free(&cl);
	dqr_cdg_free(g);
	free(rank);
	free(byrank);
	free(pairs);
	return 0;
}
