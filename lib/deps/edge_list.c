/*
 * edge_list.c - dependency graphs given by hand (edge_list.h).
 */
#include <stdlib.h>

#include "deps/edge_list.h"

struct dqr_cdg *dqr_cdg_of_edges(uint32_t n, const uint32_t *e, uint32_t m)
{
	struct dqr_cdg *g = calloc(1, sizeof(*g));
	uint64_t *fill;
	uint32_t i;

	if (!g)
		return NULL;
	g->num_vertices = g->num_channels = n;
	g->num_edges = m;
	g->succ_off = calloc((size_t)n + 1, sizeof(uint64_t));
	g->succ = malloc(sizeof(uint32_t) * (m ? m : 1));
	fill = calloc((size_t)n + 1, sizeof(uint64_t));
	if (!g->succ_off || !g->succ || !fill)
		goto fail;
	for (i = 0; i < m; i++)
		g->succ_off[e[2 * i] + 1]++;
	for (i = 0; i < n; i++)
		g->succ_off[i + 1] += g->succ_off[i];
	for (i = 0; i < m; i++)
		g->succ[g->succ_off[e[2 * i]] + fill[e[2 * i]]++] =
			e[2 * i + 1];
	if (dqr_cdg_index_preds(g))
		goto fail;
	free(fill);
	return g;
fail:
	free(fill);
	dqr_cdg_free(g);
	return NULL;
}

int dqr_topo_order(const struct dqr_cdg *g,
		   uint32_t (*pick)(void *ctx, uint32_t r), void *ctx,
		   struct dqr_channel_list *cl)
{
	uint32_t n = g->num_vertices, *indeg, *ready, nr = 0, v, i;
	uint64_t k;

	if (dqr_kahn_start(g, cl, &indeg))
		return -1;
	ready = malloc(sizeof(uint32_t) * (n ? n : 1));
	if (!ready) {
		free(indeg);
		dqr_channel_list_free(cl);
		return -1;
	}
	for (v = 0; v < n; v++)
		if (!indeg[v])
			ready[nr++] = v;
	while (nr) {
		i = pick(ctx, nr);
		v = ready[i];
		ready[i] = ready[--nr];
		cl->pos[v] = cl->len;
		cl->order[cl->len++] = v;
		for (k = g->succ_off[v]; k < g->succ_off[v + 1]; k++)
			if (--indeg[g->succ[k]] == 0)
				ready[nr++] = g->succ[k];
	}
	free(indeg);
	free(ready);
	return cl->len != n;
}
