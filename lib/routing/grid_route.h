/*
 * grid_route.h - lib's dimension-order and e-cube routings (ref_routing.h)
 * on a grid recognised from the cabling (grid_shape.h), whatever its port
 * numbers and missing switches.
 *
 * The plugin routes a discovered mesh, torus or hypercube this way, and so
 * does dqr-sim when it must route a generated fabric as the plugin would:
 * a ring of 4 is recognised as two dimensions of size 2 (C4 = Q2), so the
 * generator's own coordinates and the plugin's differ there, and the
 * virtual layers (vlayers.h) follow the recognised ones.
 */
#ifndef DQR_GRID_ROUTE_H
#define DQR_GRID_ROUTE_H

#include <stddef.h>

#include "fabric/fabric.h"
#include "fabric/lft.h"
#include "routing/ref_routing.h"
#include "shape/grid_shape.h"

/*
 * Routes f by kind (DQR_REF_DOR, DQR_REF_DOR_WRAP, DQR_REF_ECUBE or
 * DQR_REF_UPDN_MESH) on its grid g, or by DQR_REF_UPDN, which needs no
 * coordinates.  0 with *out set (f's port numbers,
 * f->num_switches rows), or -1 with a message in err (kind does not fit
 * g, no memory).
 */
int dqr_grid_route(const struct dqr_fabric *f, const struct dqr_grid *g,
		   enum dqr_ref_kind kind, struct dqr_lfts **out, char *err,
		   size_t errlen);

/*
 * Up*\/down* for any fabric, deadlock free on one VL, every pair a cable
 * joins reachable: on a mesh recognised from its cabling (degraded too)
 * by DQR_REF_UPDN_MESH, from its corner, whose busiest link carries 1.5
 * times dimension order's (rooted inside the mesh, up to 3.8 times); on
 * any other fabric by DQR_REF_UPDN.  0 with *out set, or -1 with a
 * message in err (no memory).
 */
int dqr_updn_route(const struct dqr_fabric *f, struct dqr_lfts **out,
		   char *err, size_t errlen);

#endif
