/*
 * test_reverse_bias.c - a dead entry's repair goes back the way the
 * destination's re-routed route comes: the hop is the one before the
 * switch on that route, none when the route does not reach it; only a
 * switch whose entry forwards nowhere is biased, and only towards a
 * route that differs from the start's; and on the 4- to 6-cubes
 * routed by e-cube, every single cable fault repaired with the
 * preference is planned without a drain, where without it some wait.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fabric/topo_diff.h"
#include "mesh/reverse_bias.h"
#include "recon/recon.h"
#include "routing/grid_route.h"
#include "shape/grid_shape.h"
#include "small_fabrics.h"
#include "transition/transition.h"
#include "unit.h"

/* Clockwise on a ring of 6: the way back is the counter-clockwise one. */
static void test_ring(void)
{
	struct dqr_fabric *f = ring_fabric(6);
	struct dqr_lfts *t = ring_clockwise(f, 6), *orig;
	uint32_t sw = 3, cw, ccw;
	int rr;

	REQUIRE(f && t);
	orig = dqr_lfts_clone(t);
	REQUIRE(orig);
	/* switch i has LID i + 1; the route from 0 to 3 runs 0, 1, 2, 3 */
	CHECK_EQ(dqr_reverse_hop(f, t, orig, 3, 1, &rr), 2);
	CHECK_EQ(rr, 0);
	CHECK_EQ(dqr_reverse_hop(f, t, NULL, 1, 1, &rr), 0);
	CHECK_EQ(dqr_reverse_hop(f, t, NULL, 0, 1, &rr), DQR_NONE);
	/* towards its CA (LID 7) the same: the CA's switch is 0 */
	CHECK_EQ(dqr_reverse_hop(f, t, NULL, 3, 7, &rr), 2);
	cw = dqr_port_index(f, f->switches[sw], 1);
	ccw = dqr_port_index(f, f->switches[sw], 2);
	/* switch 1 had sent LID 4 the other way: the route was re-routed */
	dqr_lft_set(orig, 1, 4, 2);
	CHECK_EQ(dqr_reverse_hop(f, t, orig, 3, 1, &rr), 2);
	CHECK_EQ(rr, 1);
	/* an entry that forwards keeps the search's choice */
	CHECK_EQ(dqr_reverse_bias(orig, f, t, sw, cw, 1), 0);
	CHECK_EQ(dqr_reverse_bias(orig, f, t, sw, ccw, 1), 0);
	/* one that forwards nowhere goes back, counter-clockwise */
	dqr_lft_set(t, sw, 1, DQR_NO_PATH);
	CHECK_EQ(dqr_reverse_bias(orig, f, t, sw, ccw, 1), 0);
	CHECK_EQ(dqr_reverse_bias(orig, f, t, sw, cw, 1),
		 DQR_REVERSE_BIAS_COST);
	/* ... unless the route back is the start's own */
	dqr_lft_set(orig, 1, 4, 1);
	CHECK_EQ(dqr_reverse_bias(orig, f, t, sw, cw, 1), 0);
	dqr_lft_set(orig, 1, 4, 2);
	/* a route to 3 that loops between 1 and 2: no way back, no bias */
	dqr_lft_set(t, 2, 4, 2);
	CHECK_EQ(dqr_reverse_hop(f, t, orig, 3, 1, &rr), DQR_NONE);
	CHECK_EQ(dqr_reverse_bias(orig, f, t, sw, cw, 1), 0);
	/* a route to 3 into a port without a cable: none either */
	dqr_lft_set(t, 2, 4, 4);
	CHECK_EQ(dqr_reverse_hop(f, t, orig, 3, 1, &rr), DQR_NONE);
	dqr_lfts_free(orig);
	dqr_lfts_free(t);
	dqr_fabric_free(f);
}

/*
 * Every single cable fault of spec routed by e-cube, repaired by DQR
 * with the preference or without, then planned as the plugin plans it:
 * the faults whose plan waits a drain.
 */
static uint32_t faults_that_wait(const char *spec, int bias)
{
	struct dqr_gen_place *pl;
	struct dqr_gen_spec s;
	struct dqr_fabric *f = gen_fabric(spec, &s, &pl), *proj;
	struct dqr_reroute_opts o;
	struct dqr_recon_result res;
	struct dqr_plan_report rep;
	struct dqr_topo_diff d;
	struct dqr_plan p;
	struct dqr_recon r;
	struct dqr_lfts *t;
	struct dqr_grid *g;
	uint32_t *links, n, i, waits = 0;
	char err[256];

	REQUIRE(f);
	REQUIRE(dqr_grid_detect(f, &g, err, sizeof(err)) == 0);
	REQUIRE(dqr_grid_route(f, g, DQR_REF_ECUBE, &t, err,
			       sizeof(err)) == 0);
	memset(&o, 0, sizeof(o));
	if (bias)
		dqr_reverse_bias_opts(&o, t);
	n = switch_links(f, &links);
	REQUIRE(links);
	for (i = 0; i < n; i++) {
		REQUIRE(dqr_recon_start(&r, f, t, &o, &res) == DQR_RECON_OK);
		proj = cut_cables(f, &links[i], 1, &d);
		REQUIRE(dqr_recon_update(&r, proj, &d, &o, &res) ==
			DQR_RECON_OK);
		dqr_plan_init(&p);
		REQUIRE(dqr_plan_change(proj, t, r.cur, r.cl, 1, &p,
					&rep) == 0);
		CHECK(rep.safe);
		waits += dqr_plan_drains(&p) > 0;
		dqr_plan_release(&p);
		dqr_topo_diff_release(&d);
		dqr_fabric_free(proj);
		dqr_recon_release(&r);
	}
	printf("%s, %s: %u of %u cable faults wait a drain\n", spec,
	       bias ? "the way back" : "no preference", waits, n);
	free(links);
	dqr_lfts_free(t);
	dqr_grid_free(g);
	dqr_fabric_free(f);
	free(pl);
	return waits;
}

int main(void)
{
	test_ring();
	CHECK_EQ(faults_that_wait("hypercube:4", 1), 0);
	CHECK_EQ(faults_that_wait("hypercube:5", 1), 0);
	CHECK_EQ(faults_that_wait("hypercube:6", 1), 0);
	/* what the preference is for */
	CHECK(faults_that_wait("hypercube:6", 0) > 0);
	return unit_finish();
}
