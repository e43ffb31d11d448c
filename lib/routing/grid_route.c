/*
 * grid_route.c - lib's grid routings on a recognised grid: conform a copy
 * of the fabric to the generator's port numbers and coordinates, route
 * it, map the tables back.
 */
#include "routing/grid_route.h"

int dqr_grid_route(const struct dqr_fabric *f, const struct dqr_grid *g,
		   enum dqr_ref_kind kind, struct dqr_lfts **out, char *err,
		   size_t errlen)
{
	struct dqr_grid_conform c;
	struct dqr_lfts *t = NULL;
	int ret = -1;

	*out = NULL;
	/* plain up*\/down* needs no coordinates: the fabric as it is */
	if (kind == DQR_REF_UPDN)
		return dqr_ref_route(f, NULL, NULL, kind, out, err, errlen);
	if (dqr_grid_conform(f, g, &c, err, errlen))
		return -1;
	if (!dqr_ref_route(c.f, &g->spec, c.places, kind, &t, err, errlen)) {
		dqr_grid_unconform(&c, f->num_switches, t);
		*out = t;
		ret = 0;
	}
	dqr_grid_conform_free(&c);
	return ret;
}

int dqr_updn_route(const struct dqr_fabric *f, struct dqr_lfts **out,
		   char *err, size_t errlen)
{
	struct dqr_grid *g;
	int ret = 1;

	*out = NULL;
	if (!dqr_grid_detect(f, &g, err, errlen)) {
		if (g->kind == DQR_GRID_MESH)
			ret = dqr_grid_route(f, g, DQR_REF_UPDN_MESH, out, err,
					     errlen);
		dqr_grid_free(g);
	}
	if (ret)
		ret = dqr_ref_route(f, NULL, NULL, DQR_REF_UPDN, out, err,
				    errlen);
	return ret;
}
