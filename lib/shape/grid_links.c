/*
 * grid_links.c - the numbers of a mesh's or torus's switches and cables.
 */
#include "shape/grid_links.h"

#include <stdlib.h>

#include "util/errmsg.h"
#include "util/mem.h"

#define GRID_LINKS_MAX_NODES (1u << 20)

uint32_t dqr_grid_node(const struct dqr_grid_links *gl, const unsigned *c)
{
	uint32_t node = 0;
	unsigned d = gl->ndims;

	while (d-- > 0)
		node = node * gl->dims[d] + c[d];
	return node;
}

void dqr_grid_coords(const struct dqr_grid_links *gl, uint32_t node,
		     unsigned *c)
{
	unsigned d;

	for (d = 0; d < gl->ndims; d++) {
		c[d] = node % gl->dims[d];
		node /= gl->dims[d];
	}
}

unsigned dqr_grid_dist(const struct dqr_grid_links *gl, uint32_t a,
		       uint32_t b)
{
	unsigned ca[DQR_GEN_MAX_DIMS], cb[DQR_GEN_MAX_DIMS];
	unsigned d, sum = 0;

	dqr_grid_coords(gl, a, ca);
	dqr_grid_coords(gl, b, cb);
	for (d = 0; d < gl->ndims; d++) {
		unsigned delta = ca[d] > cb[d] ? ca[d] - cb[d] : cb[d] - ca[d];

		if (gl->torus && gl->dims[d] - delta < delta)
			delta = gl->dims[d] - delta;
		sum += delta;
	}
	return sum;
}

int32_t dqr_grid_cable(const struct dqr_grid_links *gl, uint32_t a,
		       uint32_t b, int *down)
{
	unsigned d;

	for (d = 0; d < gl->ndims; d++) {
		int32_t ab = gl->up[a * gl->ndims + d];
		int32_t ba = gl->up[b * gl->ndims + d];

		if (ab >= 0 && gl->high[ab] == b) {
			*down = 0;
			return ab;
		}
		if (ba >= 0 && gl->high[ba] == a) {
			*down = 1;
			return ba;
		}
	}
	return -1;
}

/* 0 when spec is a grid the numbers can hold, else -1 with why. */
static int check_spec(const struct dqr_gen_spec *spec, char *err,
		      size_t errlen)
{
	uint64_t nodes = 1;
	unsigned d;

	if (spec->kind != DQR_GEN_MESH && spec->kind != DQR_GEN_TORUS) {
		dqr_set_err(err, errlen, "not a mesh or torus");
		return -1;
	}
	if (spec->ndims < 1 || spec->ndims > DQR_GEN_MAX_DIMS) {
		dqr_set_err(err, errlen, "%u dimensions (1 to %u)",
			    spec->ndims, DQR_GEN_MAX_DIMS);
		return -1;
	}
	for (d = 0; d < spec->ndims; d++) {
		if (spec->dims[d] < 1 ||
		    (spec->kind == DQR_GEN_TORUS && spec->dims[d] < 3)) {
			dqr_set_err(err, errlen, "a %s dimension of %u",
				    spec->kind == DQR_GEN_TORUS ?
				    "ring" : "mesh", spec->dims[d]);
			return -1;
		}
		nodes *= spec->dims[d];
		if (nodes > GRID_LINKS_MAX_NODES) {
			dqr_set_err(err, errlen, "more than %u switches",
				    GRID_LINKS_MAX_NODES);
			return -1;
		}
	}
	return 0;
}

/* The switch one step up from node in dimension d, or -1 at a mesh edge. */
static int64_t step_up(const struct dqr_grid_links *gl, uint32_t node,
		       unsigned d)
{
	unsigned c[DQR_GEN_MAX_DIMS];

	dqr_grid_coords(gl, node, c);
	if (c[d] + 1 == gl->dims[d]) {
		if (!gl->torus)
			return -1;
		c[d] = 0;
	} else {
		c[d]++;
	}
	return dqr_grid_node(gl, c);
}

int dqr_grid_links_new(const struct dqr_gen_spec *spec,
		       struct dqr_grid_links **out, char *err,
		       size_t errlen)
{
	struct dqr_grid_links *gl;
	uint32_t node, cap;
	unsigned d;

	*out = NULL;
	if (check_spec(spec, err, errlen) < 0)
		return -1;
	gl = calloc(1, sizeof(*gl));
	if (!gl)
		goto nomem;
	gl->ndims = spec->ndims;
	gl->torus = spec->kind == DQR_GEN_TORUS;
	gl->num_nodes = 1;
	for (d = 0; d < gl->ndims; d++) {
		gl->dims[d] = spec->dims[d];
		gl->num_nodes *= spec->dims[d];
	}
	cap = gl->num_nodes * gl->ndims;
	gl->low = calloc(cap ? cap : 1, sizeof(*gl->low));
	gl->high = calloc(cap ? cap : 1, sizeof(*gl->high));
	gl->dim = calloc(cap ? cap : 1, sizeof(*gl->dim));
	gl->up = calloc(cap ? cap : 1, sizeof(*gl->up));
	if (!gl->low || !gl->high || !gl->dim || !gl->up)
		goto nomem;
	for (node = 0; node < gl->num_nodes; node++) {
		for (d = 0; d < gl->ndims; d++) {
			int64_t next = step_up(gl, node, d);

			gl->up[node * gl->ndims + d] = -1;
			if (next < 0 || gl->dims[d] < 2)
				continue;
			gl->up[node * gl->ndims + d] = (int32_t)gl->num_links;
			gl->low[gl->num_links] = node;
			gl->high[gl->num_links] = (uint32_t)next;
			gl->dim[gl->num_links] = (uint8_t)d;
			gl->num_links++;
		}
	}
	*out = gl;
	return 0;
nomem:
	dqr_grid_links_free(gl);
	dqr_set_err(err, errlen, "out of memory");
	return -1;
}

void dqr_grid_links_free(struct dqr_grid_links *gl)
{
	if (!gl)
		return;
	DQR_FREE_ALL(gl->low, gl->high, gl->dim, gl->up, gl);
}
