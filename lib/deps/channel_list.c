/*
 * channel_list.c - ordering the channels so every dependency points up.
 *
 * Kahn's algorithm gives the order in O(channels + dependencies).  What it
 * cannot order has, at every channel, an unordered predecessor; walking
 * predecessors from any of them must therefore come back to itself, which
 * yields the cycle to report.
 */
#include <stdlib.h>

#include "deps/channel_list.h"
#include "util/check.h"

static int is_channel(const struct dqr_fabric *f, uint32_t v)
{
	return f->ports[v].num && dqr_peer_port(f, v) != DQR_NONE;
}

/* An unplaced predecessor of v; every unplaced channel has one. */
static uint32_t unplaced_pred(const struct dqr_cdg *g, const uint32_t *pos,
			      uint32_t v)
{
	uint64_t e;

	for (e = g->pred_off[v]; e < g->pred_off[v + 1]; e++)
		if (pos[g->pred[e]] == DQR_NONE)
			return g->pred[e];
	return DQR_NONE;
}

/*
 * One cycle among the channels Kahn's algorithm could not place, into
 * cycle: every such channel has an unplaced predecessor, so walking
 * predecessors from one must come back to a channel already seen, and the
 * steps since then are a cycle.  O(channels).  0, or -1 when out of memory
 * (or, which cannot be, no unplaced channel).
 */
static int find_cycle(const struct dqr_fabric *f, const struct dqr_cdg *g,
		      const uint32_t *pos, struct dqr_cycle *cycle)
{
	uint32_t n = g->num_vertices, v, start = DQR_NONE, len, i, *seen;

	for (v = 0; v < n && start == DQR_NONE; v++)
		if (is_channel(f, v) && pos[v] == DQR_NONE)
			start = v;
	if (start == DQR_NONE)
		return -1;
	seen = malloc(sizeof(*seen) * n);
	if (!seen)
		return -1;
	for (v = 0; v < n; v++)
		seen[v] = DQR_NONE;
	/* seen[v] = step at which the backward walk visited v */
	v = start;
	for (i = 0; seen[v] == DQR_NONE; i++) {
		seen[v] = i;
		v = unplaced_pred(g, pos, v);
		if (v == DQR_NONE) {
			free(seen);
			return -1;
		}
	}
	len = i - seen[v];
	cycle->len = len;
	cycle->channels = malloc(sizeof(uint32_t) * len);
	if (!cycle->channels) {
		free(seen);
		return -1;
	}
	/* the walk went backwards: store the cycle in forward order */
	for (i = 0; i < len; i++) {
		cycle->channels[len - 1 - i] = v;
		v = unplaced_pred(g, pos, v);
	}
	free(seen);
	return 0;
}

int dqr_kahn_start(const struct dqr_cdg *g, struct dqr_channel_list *cl,
		   uint32_t **indeg)
{
	uint32_t n = g->num_vertices, v;

	cl->num_vertices = n;
	cl->len = 0;
	cl->order = malloc(sizeof(uint32_t) * (n ? n : 1));
	cl->pos = malloc(sizeof(uint32_t) * (n ? n : 1));
	*indeg = malloc(sizeof(uint32_t) * (n ? n : 1));
	if (!cl->order || !cl->pos || !*indeg) {
		free(*indeg);
		dqr_channel_list_free(cl);
		return -1;
	}
	for (v = 0; v < n; v++) {
		cl->pos[v] = DQR_NONE;
		(*indeg)[v] = (uint32_t)(g->pred_off[v + 1] - g->pred_off[v]);
	}
	return 0;
}

int dqr_channel_list_build(const struct dqr_fabric *f,
			   const struct dqr_cdg *g,
			   struct dqr_channel_list *cl,
			   struct dqr_cycle *cycle)
{
	uint32_t n = g->num_vertices, v, head = 0, tail = 0, *indeg;
	uint64_t e;

	if (dqr_kahn_start(g, cl, &indeg))
		return -1;
	/* order[] doubles as Kahn's queue: what is queued is placed */
	for (v = 0; v < n; v++)
		if (is_channel(f, v) && !indeg[v]) {
			cl->pos[v] = tail;
			cl->order[tail++] = v;
		}
	while (head < tail) {
		v = cl->order[head++];
		for (e = g->succ_off[v]; e < g->succ_off[v + 1]; e++) {
			uint32_t w = g->succ[e];

			if (--indeg[w] == 0 && is_channel(f, w)) {
				cl->pos[w] = tail;
				cl->order[tail++] = w;
			}
		}
	}
	free(indeg);
	cl->len = tail;
	if (tail == g->num_channels) {
		/* Kahn's order: every dependency points up (channel_list.h) */
		DQR_CHECK(dqr_channel_list_valid(cl, g));
		return 0;
	}
	if (cycle && find_cycle(f, g, cl->pos, cycle)) {
		dqr_channel_list_free(cl);
		return -1;
	}
	dqr_channel_list_free(cl);
	return 1;
}

int dqr_channel_list_of_tables(const struct dqr_fabric *f,
			       const struct dqr_lfts *const *ts, unsigned nt,
			       struct dqr_channel_list *cl,
			       struct dqr_cycle *cycle, struct dqr_cdg **g_out)
{
	struct dqr_channel_list local;
	struct dqr_cdg *g;
	int ret;

	if (g_out)
		*g_out = NULL;
	g = nt == 1 ? dqr_cdg_build(f, ts[0]) : dqr_cdg_build_multi(f, ts, nt);
	if (!g)
		return -1;
	ret = dqr_channel_list_build(f, g, cl ? cl : &local, cycle);
	if (ret == 0 && !cl)
		dqr_channel_list_free(&local);
	if (g_out && ret >= 0)
		*g_out = g;
	else
		dqr_cdg_free(g);
	return ret;
}

void dqr_channel_list_free(struct dqr_channel_list *cl)
{
	free(cl->order);
	free(cl->pos);
	cl->order = NULL;
	cl->pos = NULL;
	cl->len = 0;
}

void dqr_cycle_free(struct dqr_cycle *c)
{
	free(c->channels);
	c->channels = NULL;
	c->len = 0;
}

int dqr_channel_list_valid(const struct dqr_channel_list *cl,
			   const struct dqr_cdg *g)
{
	uint32_t v;
	uint64_t e;

	for (v = 0; v < g->num_vertices; v++)
		for (e = g->succ_off[v]; e < g->succ_off[v + 1]; e++) {
			uint32_t w = g->succ[e];

			if (cl->pos[v] == DQR_NONE || cl->pos[w] == DQR_NONE ||
			    cl->pos[v] >= cl->pos[w])
				return 0;
		}
	return 1;
}
