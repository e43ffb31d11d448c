/*
 * vlayer_deps.c - dependencies on virtual layers, each once, judged per
 * layer (vlayer_deps.h).
 */
#include <stdlib.h>
#include <string.h>

#include "deps/edge_list.h"
#include "deps/vlayer_deps.h"
#include "util/sort.h"

int dqr_vlayer_deps_init(struct dqr_vlayer_deps *d, const struct dqr_fabric *f,
			 unsigned num_layers)
{
	uint64_t bits;
	uint32_t node;

	memset(d, 0, sizeof(*d));
	d->f = f;
	d->num_ports = f->num_ports;
	d->num_layers = num_layers;
	for (node = 0; node < f->num_nodes; node++)
		if (f->nodes[node].num_ports >= d->stride)
			d->stride = f->nodes[node].num_ports + 1u;
	bits = (uint64_t)num_layers * f->num_ports * d->stride;
	d->seen = calloc(bits / 64 + 1, sizeof(uint64_t));
	return d->seen ? 0 : -1;
}

void dqr_vlayer_deps_release(struct dqr_vlayer_deps *d)
{
	free(d->key);
	free(d->seen);
	memset(d, 0, sizeof(*d));
}

int dqr_vlayer_deps_add(struct dqr_vlayer_deps *d, uint32_t a, uint32_t b)
{
	uint64_t bit = (uint64_t)a * d->stride +
		       d->f->ports[b % d->num_ports].num, *nk, cap;

	if (d->seen[bit / 64] & (1ull << (bit % 64)))
		return 0;
	if (d->n == d->cap) {
		cap = d->cap ? 2 * d->cap : 4096;
		nk = realloc(d->key, sizeof(uint64_t) * cap);
		if (!nk)
			return -1;
		d->key = nk;
		d->cap = cap;
	}
	d->seen[bit / 64] |= 1ull << (bit % 64);
	d->key[d->n++] = (uint64_t)a << 32 | b;
	return 0;
}

static uint32_t pick_first(void *ctx, uint32_t r)
{
	(void)ctx;
	(void)r;
	return 0;
}

int dqr_vlayer_deps_order(struct dqr_vlayer_deps *d, struct dqr_cdg **g,
			  struct dqr_channel_list *cl, unsigned *layer)
{
	uint32_t nv = d->num_layers * d->num_ports, v, *e;
	struct dqr_channel_list own_cl = { 0 };
	struct dqr_cdg *own_g;
	uint64_t i;
	int r;

	if (d->n)
		qsort(d->key, d->n, sizeof(uint64_t), dqr_cmp_u64);
	e = d->n < UINT32_MAX / 2 ? malloc(sizeof(uint32_t) * 2 * d->n + 1) :
	    NULL;
	for (i = 0; e && i < d->n; i++) {
		e[2 * i] = (uint32_t)(d->key[i] >> 32);
		e[2 * i + 1] = (uint32_t)d->key[i];
	}
	own_g = e ? dqr_cdg_of_edges(nv, e, (uint32_t)d->n) : NULL;
	free(e);
	if (!own_g)
		return -1;
	if (!cl)
		cl = &own_cl;
	memset(cl, 0, sizeof(*cl));
	r = dqr_topo_order(own_g, pick_first, NULL, cl);
	if (r < 0) {
		dqr_cdg_free(own_g);
		return -1;
	}
	if (r == 1) {
		for (v = 0; v < nv && cl->pos[v] != DQR_NONE; v++)
			;
		*layer = v / d->num_ports;
	}
	if (g)
		*g = own_g;
	else
		dqr_cdg_free(own_g);
	dqr_channel_list_free(&own_cl);
	return r;
}
