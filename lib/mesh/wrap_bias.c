/*
 * wrap_bias.c - wrap cables as the reroute's last resort on a torus
 * routed as its mesh (wrap_bias.h says why).
 */
#include <stdlib.h>

#include "mesh/wrap_bias.h"

struct dqr_wrap_bias {
	uint8_t *wrap;		/* per global port index: over a wrap cable */
	uint32_t num_ports;	/* of the reference fabric */
	uint32_t wraps;		/* ports set */
};

int dqr_wrap_bias_new(const struct dqr_fabric *f, const struct dqr_grid *g,
		      struct dqr_wrap_bias **out)
{
	struct dqr_wrap_bias *wb;
	uint32_t a, b, i;
	unsigned p;

	*out = NULL;
	if (g->kind != DQR_GRID_TORUS || g->num_switches != f->num_switches)
		return 0;
	wb = calloc(1, sizeof(*wb));
	if (!wb)
		return -1;
	wb->num_ports = f->num_ports;
	wb->wrap = calloc((size_t)f->num_ports + 1, 1);
	if (!wb->wrap) {
		free(wb);
		return -1;
	}
	for (a = 0; a < f->num_switches; a++)
		dqr_for_each_linked_port(f, f->switches[a], p) {
			i = dqr_port_index(f, f->switches[a], p);
			b = dqr_peer_switch(f, i);
			if (b == DQR_NONE ||
			    !dqr_gen_wrap_between(&g->place[a], &g->place[b],
						  g->ndims))
				continue;
			wb->wrap[i] = 1;
			wb->wraps++;
		}
	if (!wb->wraps) {
		dqr_wrap_bias_free(wb);
		return 0;
	}
	*out = wb;
	return 0;
}

void dqr_wrap_bias_free(struct dqr_wrap_bias *wb)
{
	if (!wb)
		return;
	free(wb->wrap);
	free(wb);
}

void dqr_wrap_bias_opts(struct dqr_wrap_bias *wb, struct dqr_reroute_opts *o)
{
	o->bias = dqr_wrap_bias;
	o->bias_arg = wb;
}

uint32_t dqr_wrap_bias(void *arg, const struct dqr_fabric *f,
		       const struct dqr_lfts *t, uint32_t sw, uint32_t ch,
		       uint32_t lid)
{
	const struct dqr_wrap_bias *wb = arg;

	(void)f;
	(void)t;
	(void)sw;
	(void)lid;
	return ch < wb->num_ports && wb->wrap[ch] ? DQR_WRAP_BIAS_COST : 0;
}

uint32_t dqr_wrap_bias_ports(const struct dqr_wrap_bias *wb)
{
	return wb ? wb->wraps : 0;
}
