/*
 * test_grid_nbr.c - grid neighbours by dimension and direction: on a 4x3
 * mesh and a 5x3 torus every slot names the switch one step away (around
 * a ring only on the torus) and a port cabled to it, both for the grid
 * as generated (topo_gen's port numbers) and as recognised from the
 * cabling; a cable cut in a projection turns exactly its two slots
 * uncabled; a grid of other switches is refused.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fabric/topo_diff.h"
#include "fabric/topo_gen.h"
#include "shape/grid_nbr.h"
#include "shape/grid_shape.h"
#include "small_fabrics.h"
#include "unit.h"

/* The switch at g's coordinates c, or DQR_NONE. */
static uint32_t sw_at(const struct dqr_grid *g, const int *c)
{
	uint32_t sw;
	unsigned k;

	for (sw = 0; sw < g->num_switches; sw++) {
		for (k = 0; k < g->ndims; k++)
			if (g->place[sw].coord[k] != c[k])
				break;
		if (k == g->ndims)
			return sw;
	}
	return DQR_NONE;
}

/*
 * Every slot of n against g's coordinates; when gen_ports, the port is
 * topo_gen's (+k on 2k+1, -k on 2k+2).  Returns the slots holding a
 * neighbour.
 */
static unsigned check_slots(const struct dqr_fabric *f,
			    const struct dqr_grid *g,
			    const struct dqr_grid_nbrs *n, int gen_ports)
{
	uint32_t sw, s, want, wrong = 0, held = 0;
	unsigned k, j;
	int minus, c[DQR_GEN_MAX_DIMS], size;

	CHECK_EQ(n->num_switches, f->num_switches);
	CHECK_EQ(n->ndims, g->ndims);
	for (k = 0; k < g->ndims; k++) {
		CHECK_EQ(n->dims[k], g->dims[k]);
		CHECK_EQ(n->wrap[k], g->wrap[k]);
	}
	for (sw = 0; sw < f->num_switches; sw++)
		for (k = 0; k < g->ndims; k++)
			for (minus = 0; minus < 2; minus++) {
				for (j = 0; j < g->ndims; j++) {
					c[j] = g->place[sw].coord[j];
					wrong += dqr_grid_coord(n, sw, j) !=
						 c[j];
				}
				size = (int)g->dims[k];
				c[k] += minus ? -1 : 1;
				if (g->wrap[k])
					c[k] = (c[k] + size) % size;
				s = dqr_grid_slot(sw, k, minus);
				want = c[k] < 0 || c[k] >= size ? DQR_NONE :
				       sw_at(g, c);
				if (n->sw[s] != want) {
					wrong++;
					continue;
				}
				if (want == DQR_NONE) {
					wrong += n->port[s] != 0;
					wrong += dqr_grid_nbr_cabled(n, f, sw,
								     s);
					continue;
				}
				held++;
				wrong += !dqr_grid_nbr_cabled(n, f, sw, s);
				if (gen_ports)
					wrong += n->port[s] !=
						 2 * k + 1 + (unsigned)minus;
			}
	CHECK_EQ(wrong, 0);
	return held;
}

/* Slots of n not cabled in f. */
static unsigned uncabled(const struct dqr_grid_nbrs *n,
			 const struct dqr_fabric *f)
{
	uint32_t sw, s;
	unsigned d, count = 0;

	for (sw = 0; sw < n->num_switches; sw++)
		for (d = 0; d < 2 * n->ndims; d++) {
			s = sw * DQR_GRID_DIRS + d;
			count += n->sw[s] != DQR_NONE &&
				 !dqr_grid_nbr_cabled(n, f, sw, s);
		}
	return count;
}

/*
 * The cable from the switch at c in dimension k (upwards) cut in a
 * projection: its two slots, and only they, are no longer cabled.
 */
static void check_cut(const struct dqr_fabric *f, const struct dqr_grid *g,
		      const struct dqr_grid_nbrs *n, const int *c, unsigned k)
{
	struct dqr_fabric *p;
	uint32_t a = sw_at(g, c), b, sa, sb, port;

	REQUIRE(a != DQR_NONE);
	sa = dqr_grid_slot(a, k, 0);
	b = n->sw[sa];
	REQUIRE(b != DQR_NONE);
	sb = dqr_grid_slot(b, k, 1);
	CHECK_EQ(n->sw[sb], a);
	port = dqr_port_index(f, f->switches[a], n->port[sa]);
	p = cut_cables(f, &port, 1, NULL);
	CHECK(dqr_grid_nbr_cabled(n, f, a, sa));
	CHECK(!dqr_grid_nbr_cabled(n, p, a, sa));
	CHECK(!dqr_grid_nbr_cabled(n, p, b, sb));
	CHECK_EQ(uncabled(n, f), 0);
	CHECK_EQ(uncabled(n, p), 2);
	dqr_fabric_free(p);
}

/* held: the slots with a neighbour, 2 per cable between switches. */
static void test_grid(const char *spec, unsigned held, int torus)
{
	static const int inner[DQR_GEN_MAX_DIMS] = { 1, 1, 0 };
	int end[DQR_GEN_MAX_DIMS] = { 0 };
	struct dqr_gen_place *places;
	struct dqr_grid_nbrs n;
	struct dqr_gen_spec s;
	struct dqr_grid own, *det;
	struct dqr_fabric *f = gen_fabric(spec, &s, &places);
	char err[256];
	unsigned k;

	REQUIRE(f);
	gen_grid(&own, f, &s, places);
	for (k = 0; k < s.ndims; k++)
		CHECK_EQ(own.wrap[k], torus);
	REQUIRE(dqr_grid_nbrs_build(f, &own, &n) == 0);
	CHECK_EQ(check_slots(f, &own, &n, 1), held);
	check_cut(f, &own, &n, inner, 0);
	check_cut(f, &own, &n, inner, 1);
	/* on the torus the last switch's + cable is the wrap cable */
	end[0] = (int)s.dims[0] - 1;
	if (torus)
		check_cut(f, &own, &n, end, 0);
	dqr_grid_nbrs_release(&n);

	/* the grid as recognised: its own coordinates, any ports */
	REQUIRE(dqr_grid_detect(f, &det, err, sizeof(err)) == 0);
	CHECK_EQ(det->kind, torus ? DQR_GRID_TORUS : DQR_GRID_MESH);
	REQUIRE(dqr_grid_nbrs_build(f, det, &n) == 0);
	CHECK_EQ(check_slots(f, det, &n, 0), held);
	dqr_grid_nbrs_release(&n);

	/* a grid of other switches */
	own.num_switches--;
	CHECK_EQ(dqr_grid_nbrs_build(f, &own, &n), -1);
	CHECK(n.sw == NULL && n.port == NULL && n.coord == NULL);
	dqr_grid_free(det);
	free(places);
	dqr_fabric_free(f);
	printf("%s: %u neighbour slots checked\n", spec, held);
}

int main(void)
{
	/* mesh 4x3: 3*3 + 4*2 = 17 cables; torus 5x3: 15 + 15 */
	test_grid("mesh:4x3", 2 * 17, 0);
	test_grid("torus:5x3", 2 * 30, 1);
	return unit_finish();
}
